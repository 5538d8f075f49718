"""A table drawn in a literal block (task X16): AsciiDoc man pages set git-status's porcelain v2 fields and
read-tree's carry-forward rules as a header, a line of dashes and aligned rows in a ``....`` block. Read as one code
block, the table scored nothing and did not fit the extract whole: "<m2> The octal file mode in stage 2." was never
quoted (git-docs' git-008)."""

from __future__ import annotations

from clew.agent.generate import extractive_answer
from clew.agent.line_shapes import drawn_table
from clew.agent.units import passage_units

STATUS = """Unmerged entries have the following format; the first character is a "u" to distinguish from ordinary \
changed entries.

```
u <XY> <sub> <m1> <m2> <m3> <mW> <h1> <h2> <h3> <path>
```

```
Field       Meaning
--------------------------------------------------------
<XY>        A 2 character field describing the conflict type
            as described in the short format.
<sub>       A 4 character field describing the submodule state
            as described above.
<m1>        The octal file mode in stage 1.
<m2>        The octal file mode in stage 2.
<m3>        The octal file mode in stage 3.
<path>      The pathname.
--------------------------------------------------------
```
"""

RULES = """        I                   H        M        Result
       -------------------------------------------------------
     0  nothing             nothing  nothing  (does not happen)
     3  nothing             exists   exists,  use M if "initial checkout",
                                     H == M   keep index otherwise

        clean I==H  I==M
       ------------------
     4  yes   N/A   N/A     nothing  nothing  keep index
"""


def test_a_drawn_table_is_rows_under_its_header() -> None:
    rows = [u for u in passage_units(STATUS, "ev1:c:41:1:21", 0) if u.kind == "row"]
    assert [u.own for u in rows] == [
        "<XY> A 2 character field describing the conflict type as described in the short format.",
        "<sub> A 4 character field describing the submodule state as described above.",
        "<m1> The octal file mode in stage 1.", "<m2> The octal file mode in stage 2.",
        "<m3> The octal file mode in stage 3.", "<path> The pathname."]
    assert {u.header for u in rows} == {"Field Meaning"}
    assert all(u.intro is not None and u.intro.own.startswith("Unmerged entries") for u in rows)


def test_a_line_over_dashes_heads_the_rows_after_it() -> None:
    assert drawn_table(RULES.splitlines()) == [
        ("I H M Result", "0 nothing nothing nothing (does not happen)"),
        ("I H M Result", '3 nothing exists exists, use M if "initial checkout", H == M keep index otherwise'),
        ("clean I==H I==M", "4 yes N/A N/A nothing nothing keep index")]


def test_a_header_aligned_with_every_line_after_it_heads_rows() -> None:
    revisions = ["   Args   Expanded arguments    Selected commits", "   D                            G H D",
                 "   B...C  = B ^F C              G H D E B C", "   B^-    = B^..B",
                 "          = ^B^1 B              E I J F B"]  # no line of dashes under the header (git-004)
    header = "Args Expanded arguments Selected commits"
    assert drawn_table(revisions) == [(header, "D G H D"), (header, "B...C = B ^F C G H D E B C"),
                                      (header, "B^- = B^..B = ^B^1 B E I J F B")]


def test_other_blocks_stay_code() -> None:
    psql = [" a | b", "---+---", " 1 | 2"]
    count = [" count", "-------", "     3"]  # one column: a query's output
    two = ["Name   Value", "a      1", "b      2"]  # two columns and no dashes: too little to tell from code
    code = ["Usage  of the tool", "  tool --verbose   prints more", "x = 1    # one"]  # not aligned with the header
    assert drawn_table(psql) == drawn_table(count) == drawn_table(two) == drawn_table(code) == []
    block = f"```\n{chr(10).join(code)}\n```\n"
    assert [u.kind for u in passage_units(block, "e", 0)] == ["code"]


def test_the_row_that_answers_is_quoted_with_its_header_once() -> None:
    question = ("Parsing porcelain v2 status for a conflicted file: how is the line marked, and which field gives the "
                "file mode of the stage-2 version?")
    generation = extractive_answer(question, [("ev1:c:41:1:21", STATUS)])
    assert generation is not None
    assert "<m2> The octal file mode in stage 2." in generation.answer
    assert generation.answer.count("Field Meaning") == 1


def test_a_sentence_an_example_interrupts_is_quoted_whole() -> None:
    """Task X16's git-015 (rule D2): the sentence goes on in lower case after its example; its end was quoted under
    the example, its start was not."""
    text = ("If you can do that, you can now recreate the missing object with\n\n```\ngit hash-object -w "
            "<recreated-file>\n```\n\nand your repository is good again!\n")
    units = passage_units(text, "ev1:c:63:1:6", 0)
    end = next(u for u in units if u.own == "and your repository is good again!")
    assert end.text == ("If you can do that, you can now recreate the missing object with\n```\ngit hash-object -w "
                        "<recreated-file>\n```\nand your repository is good again!")
    generation = extractive_answer("Is my repository good again once I recreate the missing object?",
                                   [("ev1:c:63:1:6", text)])
    assert generation is not None
    assert generation.answer.startswith("If you can do that, you can now recreate the missing object with\n```")
    assert generation.answer.count("recreate the missing object with") == 1  # not again as the example's lead-in


def test_an_ascii_drawing_aligned_under_names_stays_code() -> None:
    """A sequence diagram's names head lifelines that start at their columns, as a drawn table's cells would: its
    lines of bars and arrows hold no letter or digit, a table's rows do."""
    sequence = ["A     B     C", "|     |     |", "|---->|     |", "|     |---->|"]
    lifelines = ["Client          Proxy           Server", "|               |               |",
                 "|--- request -->|               |", "|               |--- request -->|"]
    assert drawn_table(sequence) == drawn_table(lifelines) == []
    report = ["Failed Test         Stat Wstat  Failed", "-----------------------------------", "...",
              "../ext/Encode/t/at-cn.t  4  1024  13.79%"]  # a line of dots: rows left out, not a drawing's
    assert drawn_table(report) == [("Failed Test Stat Wstat Failed", "..."),
                                   ("Failed Test Stat Wstat Failed", "../ext/Encode/t/at-cn.t 4 1024 13.79%")]
    block = f"```\n{chr(10).join(lifelines)}\n```\n"
    assert [u.kind for u in passage_units(block, "e", 0)] == ["code"]


def test_a_shell_session_and_a_doctest_stay_code() -> None:
    """Their first line is a prompt's, not a header, though the output under it is aligned (or over dashes)."""
    shell = ["$ docker ps", "CONTAINER ID   IMAGE     COMMAND   STATUS",
             "abc123         nginx     nginx     Up 2 hours",
             "def456         redis     redis     Up 3 hours"]
    sqlite = ["sqlite> SELECT * FROM t;", "a           b", "----------  ----------", "1           2"]
    doctest = [">>> print(table)", "Name   Value  Unit", "-----  -----  ----", "width  3      cm"]
    assert drawn_table(shell) == drawn_table(sqlite) == drawn_table(doctest) == []


def test_a_block_named_code_stays_code_though_it_aligns_as_a_table() -> None:
    """Only a literal block (its fence names no language, or plain text) may hold a drawn table."""
    sql = ["SELECT  name  FROM  users", "WHERE   age   >     30", "ORDER   BY    name"]
    assert drawn_table(sql, "sql") == [] != drawn_table(sql)
    block = "```sql\n" + "\n".join(sql) + "\n```\n"
    assert [u.kind for u in passage_units(block, "e", 0)] == ["code"]
    text = "```text\n" + STATUS.split("```\n\n```\n", 1)[1]
    assert [u.own for u in passage_units(text, "e", 0) if u.kind == "row"][-1] == "<path> The pathname."
