"""The extract (no model): the sentences, list items and table rows that answer, each cited."""

import re

from rich.console import Console

from clew.agent.generate import check_answer, extractive_answer
from clew.agent.units import passage_units
from clew.budgets.tokens import count_tokens
from clew.commands.render import print_result

from .conftest import tree_request
from .test_tree import run

GC_AUTO = """gc.auto

When there are approximately more than this many loose objects in the repository, git gc --auto will pack
them. Some Porcelain commands use this command to perform a light-weight garbage collection from time to
time. The default value is 6700.

Setting this to 0 disables not only automatic packing based on the number of loose objects, but also any
other heuristic git gc --auto will otherwise use to determine if there's work to do, such as gc.autoPackLimit.
"""
GC_PACK_LIMIT = """gc.autoPackLimit

When there are more than this many packs that are not marked with *.keep file in the repository, git gc
--auto consolidates them into one larger pack. The default value is 50. Setting this to 0 disables it.
Setting gc.auto to 0 will also disable this.
"""
OUTDATED = """##### `:outdated(<type>)`

The `:outdated` pseudo selector retrieves data from the registry and returns information about which of
your dependencies are outdated. The type parameter may be one of the following:

- `any` (default) a version exists that is greater than the current one
- `in-range` a version exists that is greater than the current one, and satisfies at least one if its
parent's dependencies
- `out-of-range` a version exists that is greater than the current one, does not satisfy at least one of
its parent's dependencies
- `major` a version exists that is a semver major greater than the current one
"""
TEMP_STORE = """SQLITE_TEMP_STORE=<0 through 3>

This option controls whether temporary files are stored on disk or in memory. The meanings for various
settings of this compile-time option are as follows:

| SQLITE_TEMP_STORE | Meaning |
| --- | --- |
| 0 | Always use temporary files |
| 1 | Use files by default but allow the PRAGMA temp_store command to override |
| 2 | Use memory by default but allow the PRAGMA temp_store command to override |
| 3 | Always use memory |
"""

LIMITS = """Table K.1. PostgreSQL Limitations
| Item | Upper Limit | Comment |
| --- | --- | --- |
| database size | unlimited |  |
| relation size | 32 TB | with the default BLCKSZ of 8192 bytes |
| rows per table | limited by the number of tuples that can fit onto 4,294,967,295 pages |  |
| columns per table | 1,600 | further limited by tuple size fitting on a single page; see note below |
| field size | 1 GB |  |
| indexes per table | unlimited | constrained by maximum relations per database |
| columns per index | 32 | can be increased by recompiling PostgreSQL |
"""
SIZE_FUNCTIONS = """Table 9.94. Database Object Size Functions
| Function. Description |
| --- |
| pg_total_relation_size ( regclass ) → bigint. Computes the total disk space used by the specified table, \
including all indexes and TOAST data. The result is equivalent to pg_table_size + pg_indexes_size. |
| pg_table_size ( regclass ) → bigint. Computes the disk space used by the specified table, excluding indexes \
(but including its TOAST table if any, free space map, and visibility map). |
"""

TRUST_FLAGS = """#### Flags

| Flag | Default | Type | Description |
| --- | --- | --- | --- |
| `--file` | null | String (required) | Name of workflow file within a repositories .GitHub folder \
(must end in yaml, yml) |
| `--repository`, `--repo` | null | String | Name of the repository in the format owner/repo |
| `--environment`, `--env` | null | String | CI environment name |
| `--allow-publish` | false | Boolean | Allow npm publish for this trusted publisher configuration |
"""

def quotes(answer: str) -> list[str]:
    """Each passage's quote: the lines up to and including the one its citation ends."""
    return [q.strip() for q in re.split(r"(?<=\])\n", answer)]


def test_the_passage_that_answers_comes_first_and_duplicates_are_quoted_once() -> None:
    evidence = [("ev1:c:3:1:40", GC_AUTO), ("ev1:c:3:1:41", GC_PACK_LIMIT), ("ev1:c:9:1:12", GC_PACK_LIMIT)]
    generation = extractive_answer("What is the default value of gc.auto?", evidence)
    assert generation is not None and generation.kind == "extract" and generation.model is None
    # the definition's term stays with its description; a passage's quote ends in its citation; the
    # short answer reads after the sentence before it (SHORT), even as the extract's best unit
    assert generation.answer.startswith("gc.auto\nSome Porcelain commands use this command to perform a light-weight "
                                        "garbage collection from time to time.\nThe default value is 6700.\n")
    assert quotes(generation.answer)[0].endswith("[ev1:c:3:1:40]")
    # a short sentence follows the one before it, which names what it is about (SHORT)
    assert quotes(generation.answer)[1].startswith("gc.autoPackLimit\nWhen there are more than this many packs")
    assert "git gc --auto consolidates them into one larger pack.\nThe default value is 50." in generation.answer
    assert generation.answer.count("Setting gc.auto to 0 will also disable this.") <= 1
    lines = [line.rsplit(" [", 1)[0].casefold() for line in generation.answer.splitlines()]
    assert len(lines) == len(set(lines))
    assert "ev1:c:9:1:12" not in generation.answer  # the duplicated page adds nothing


def test_a_lead_in_ending_in_a_colon_keeps_its_list() -> None:
    generation = extractive_answer("Which values can the type parameter of the :outdated selector take?",
                                   [("ev1:c:7:1:3", OUTDATED)])
    assert generation is not None
    lines = generation.answer.splitlines()
    assert lines[:2] == ["`:outdated(<type>)`", "The type parameter may be one of the following:"]  # its heading's name
    assert lines[2:6] == ["- `any` (default) a version exists that is greater than the current one",
                          "- `in-range` a version exists that is greater than the current one, and satisfies at "
                          "least one if its parent's dependencies",
                          "- `out-of-range` a version exists that is greater than the current one, does not "
                          "satisfy at least one of its parent's dependencies",
                          "- `major` a version exists that is a semver major greater than the current one"]
    assert generation.answer.endswith("[ev1:c:7:1:3]") and generation.answer.count("[ev1:") == 1


def test_a_lead_in_at_the_end_of_a_passage_takes_the_list_opening_the_next_one() -> None:
    lead, items = OUTDATED.split("\n\n- ", 1)
    evidence = [("ev1:c:7:1:3", lead), ("ev1:c:7:1:4", "- " + items)]
    generation = extractive_answer("Which values can the type parameter of the :outdated selector take?", evidence)
    assert generation is not None
    assert generation.answer.startswith(
        "`:outdated(<type>)`\nThe type parameter may be one of the following: [ev1:c:7:1:3]\n- `any`")
    assert {c.evidence_id for c in generation.citations} == {"ev1:c:7:1:3", "ev1:c:7:1:4"}


def test_passages_parsed_before_quote_the_same() -> None:
    """The extract keeps each passage's parsed units and works on copies: a lead-in that took the
    next passage's list in one extract does not carry it into the next one."""
    lead, items = OUTDATED.split("\n\n- ", 1)
    question = "Which values can the type parameter of the :outdated selector take?"
    both = [("ev1:c:7:1:3", lead), ("ev1:c:7:1:4", "- " + items)]
    first = extractive_answer(question, both)
    alone = extractive_answer(question, both[:1])
    again = extractive_answer(question, both)
    assert first is not None and alone is not None and again is not None
    assert again == first
    assert "`any`" in first.answer and "`any`" not in alone.answer
    assert [c.evidence_id for c in alone.citations] == ["ev1:c:7:1:3"]


def test_a_condition_in_the_question_picks_the_table_row() -> None:
    generation = extractive_answer(
        "If SQLite is compiled with SQLITE_TEMP_STORE set to 2, where are temporary tables kept by default?",
        [("ev1:c:4:1:20", TEMP_STORE)])
    assert generation is not None
    # the row keeps its header row and the sentence introducing the table
    assert (
        "The meanings for various settings of this compile-time option are as follows:\n| SQLITE_TEMP_STORE | Meaning |"
        "\n| 2 | Use memory by default but allow the PRAGMA temp_store command to override |") in generation.answer
    assert "| 1 |" not in generation.answer and "| 0 |" not in generation.answer


def test_a_lead_in_s_rows_are_quoted_under_one_header() -> None:
    generation = extractive_answer("Which options does the unicode61 tokenizer support?", [("ev1:c:12:1:34", (
        "Unicode61 supports the following options:\n\n| Option | Usage |\n| --- | --- |\n"
        "| categories | This option lists the Unicode categories of token characters. |\n"
        "| remove_diacritics | This option should be set to 0, 1 or 2. |\n"
        "| separators | This option adds separator characters. |\n"))])
    assert generation is not None
    assert generation.answer.count("| Option | Usage |") == 1
    assert generation.answer.startswith("Unicode61 supports the following options:\n| Option | Usage |\n| categories |")


def test_a_term_in_several_key_cells_is_no_condition() -> None:
    """"table" is in the key cell of three rows of PostgreSQL's limits: what they are about, not a
    condition that would keep "relation size" out once "columns per table" is quoted."""
    generation = extractive_answer("What is the largest size a single table or index can reach when PostgreSQL is "
                                   "built with the standard block size?", [("ev1:c:30:1:1", LIMITS)])
    assert generation is not None
    assert "| relation size | 32 TB | with the default BLCKSZ of 8192 bytes |" in generation.answer
    assert "| columns per table | 1,600 |" in generation.answer


def test_a_condition_that_leaves_out_the_best_row_gives_way_to_the_lead_in_s_rows() -> None:
    """With its lead-in in the table's chunk, PostgreSQL's limits table holds one row under
    "index" ("indexes per table": "columns per index" went to the next chunk), so "index" reads as
    the question's condition; the row that scores best ("columns per table") lacks it, and its
    lead-in was quoted with that row alone. The condition gives way: the lead-in's rows as they
    come, "relation size | 32 TB" among them."""
    lead = ("## Appendix K. PostgreSQL Limits\n\nTable K.1 describes various hard limits of PostgreSQL. However, "
            "practical limits, such as performance limitations or available disk space may apply before absolute "
            "hard limits are reached.\n\n")
    table = LIMITS.replace("| columns per index | 32 | can be increased by recompiling PostgreSQL |\n", "")
    generation = extractive_answer("What is the largest size a single table or index can reach when PostgreSQL is "
                                   "built with the standard block size?", [("ev1:c:30:1:0", lead + table)])
    assert generation is not None
    assert "| relation size | 32 TB | with the default BLCKSZ of 8192 bytes |" in generation.answer
    assert "| columns per table | 1,600 |" in generation.answer


def test_a_table_of_one_column_has_no_key_cell() -> None:
    """DocBook's function tables are one cell a row: no cell is a key, so no row is a condition."""
    generation = extractive_answer("Which size function reports a table's disk usage without its indexes but "
                                   "counting its TOAST data?", [("ev1:c:21:1:43", SIZE_FUNCTIONS)])
    assert generation is not None
    assert "| pg_table_size ( regclass ) → bigint. Computes the disk space used" in generation.answer


def test_a_key_cell_the_question_names_in_part_keeps_no_other_row_out() -> None:
    """"how is the repository written" names part of the key "`--repository`, `--repo`": what the
    question asks about, not a condition (as SEV2 is) that would keep the `--file` row out."""
    generation = extractive_answer("How is the repository written, and which option is mandatory?",
                                   [("ev1:c:64:1:8", TRUST_FLAGS)])
    assert generation is not None
    assert "| `--repository`, `--repo` | null | String | Name of the repository in the format owner/repo |" in (
        generation.answer)
    assert "| `--file` | null | String (required) | Name of workflow file" in generation.answer


def test_a_sentence_before_code_that_does_not_fit_is_quoted_alone() -> None:
    """A sentence that introduces a code block (not a lead-in ending in ":", which says nothing
    alone) is quoted without its code when the code does not fit: Bootstrap's "When modals are
    closed, ..." before a 150-token HTML example."""
    text = ("### Tooltips and popovers\n\n[Tooltips](/components/tooltips) and [popovers](/components/popovers) can "
            "be placed within modals as needed. When modals are closed, any tooltips and popovers within are also "
            "automatically dismissed.\n\n```html\n<div class=\"modal-body\">\n  <h5>Popover in a modal</h5>\n"
            "  <p>This <a href=\"#\" role=\"button\" class=\"btn btn-secondary popover-test\" title=\"Popover "
            "title\" data-content=\"Popover body content is set in this attribute.\">button</a> triggers a popover "
            "on click.</p>\n  <hr>\n  <h5>Tooltips in a modal</h5>\n  <p><a href=\"#\" class=\"tooltip-test\" "
            "title=\"Tooltip\">This link</a> and <a href=\"#\" class=\"tooltip-test\" title=\"Tooltip\">that "
            "link</a> have tooltips on hover.</p>\n</div>\n```\n")
    question = "What happens to the tooltips inside a modal when the modal closes?"
    small = extractive_answer(question, [("ev1:c:20:1:10", text)], max_tokens=60)
    assert small is not None
    assert small.answer.startswith("When modals are closed, any tooltips and popovers within are also "
                                   "automatically dismissed.\n") and "```" not in small.answer
    large = extractive_answer(question, [("ev1:c:20:1:10", text)], max_tokens=400)
    assert large is not None and "automatically dismissed.\n```html\n<div class=" in large.answer


def test_a_lead_in_before_a_table_quotes_only_the_rows_meeting_the_condition(runbooks) -> None:  # noqa: ANN001
    result = run(runbooks, tree_request("Who is paged for a SEV2 incident, and how fast must the first update go out?",
                                        "runbooks", max_depth=2))
    generation = result.generation
    assert generation is not None and generation.kind == "extract"
    assert "Severity decides who is paged and how fast the first update must go out." in generation.answer
    assert generation.answer.count("| SEV2 | A core feature degraded for many customers | 30 minutes |") == 1
    assert "| SEV1 |" not in generation.answer and "| SEV3 |" not in generation.answer
    assert {c.evidence_id for c in generation.citations} <= {h.evidence_id for h in result.hits if h.fetched}


def test_no_shared_term_gives_no_extract_and_a_model_answer_is_labelled_model() -> None:
    assert extractive_answer("Who wrote gc.auto?", [("ev1:c:4:1:20", TEMP_STORE)]) is None
    assert extractive_answer("anything", []) is None
    checked = check_answer("6700 [ev1:c:3:1:40]", {"ev1:c:3:1:40": GC_AUTO}, "openai/gpt-4o-mini")
    assert checked.kind == "model" and checked.model == "openai/gpt-4o-mini"


def test_the_screen_labels_an_extract_and_a_model_answer(runbooks) -> None:  # noqa: ANN001
    result = run(runbooks, tree_request("Who is paged for a SEV2 incident?", "runbooks"))
    console = Console(record=True, width=200)
    print_result(console, result)
    assert "extract (quoted from the evidence, no model):" in console.export_text()
    assert result.generation is not None and result.model_dump()["generation"]["kind"] == "extract"
    cited = result.generation.citations[0].evidence_id
    text = next(h.text for h in result.hits if h.evidence_id == cited)
    answered = result.model_copy(update={"generation": check_answer(f"The owning team [{cited}].",
                                                                    {cited: f"{text} The owning team."}, "m")})
    console = Console(record=True, width=200)
    print_result(console, answered)
    text = console.export_text()
    assert f"answer: The owning team [{cited}]." in text and "extract" not in text


def test_a_question_asking_for_a_quantity_prefers_the_unit_holding_a_number() -> None:
    text = ("The cache grows with every fetch of a tarball. The cache grows until about 10 GB, then the oldest "
            "entries go first.")
    quantity = extractive_answer("How large does the cache grow?", [("ev1:c:2:1:5", text)])
    plain = extractive_answer("Why does the cache grow?", [("ev1:c:2:1:5", text)])
    assert quantity is not None and quantity.answer.startswith("The cache grows until about 10 GB")
    assert plain is not None and plain.answer.startswith("The cache grows with every fetch")


EDITOR = """Debian picks the editor that sensible-editor starts via command /usr/bin/editor. You can change it by the
following:

```sh
sudo update-alternatives --config editor
```

Other programs read $EDITOR first.
"""
FIND = """-xdev

Don't descend directories on other filesystems.

-maxdepth levels

Descend at most levels (a non-negative integer) levels of directories below the starting-points.
"""


def test_a_lead_in_keeps_the_code_block_it_introduces() -> None:
    generation = extractive_answer("How do I change the editor Debian uses?", [("ev1:c:1:1:0", EDITOR)])
    assert generation is not None
    assert "You can change it by the following:\n```sh\nsudo update-alternatives --config editor\n```" in (
        generation.answer)


def test_a_passage_cut_inside_a_code_block_does_not_read_its_closing_fence_as_an_opening() -> None:
    cut = "    --config editor\n```\n\nYou can change the editor with update-alternatives as well.\n"
    generation = extractive_answer("How do I change the editor?", [("ev1:c:1:1:1", cut)])
    assert generation is not None and generation.answer.startswith("You can change the editor")


def test_a_definition_keeps_its_term() -> None:
    generation = extractive_answer("Which find option keeps it from descending into other filesystems?",
                                   [("ev1:c:2:1:0", FIND)])
    assert generation is not None
    assert generation.answer.startswith("-xdev\nDon't descend directories on other filesystems.\n")


def test_the_extract_prefers_the_document_the_evidence_is_about_over_one_that_mentions_the_term() -> None:
    docs = [(f"ev1:c:4:1:{i}", text) for i, text in enumerate([
        "# functools.lru_cache(maxsize=128)\n\nIf maxsize is set to None, the cache can grow without bound. The "
        "default maxsize is 128.",
        "The lru_cache decorator wraps a function with a memoizing callable.",
        "The cache keeps the most recent calls of the function."])]
    whats_new = ("ev1:c:9:1:0", "functools: the lru_cache default maxsize changed in a small way in 3.12.")
    generation = extractive_answer("What is the default maxsize of functools lru_cache?",
                                   [docs[0], whats_new, *docs[1:]])
    assert generation is not None
    assert generation.answer.startswith("If maxsize is set to None, the cache can grow without bound.\n"
                                        "The default maxsize is 128. [ev1:c:4:1:0]")
    assert quotes(generation.answer)[0].endswith("[ev1:c:4:1:0]")
    without_prior = extractive_answer("What is the default maxsize of functools lru_cache?", [docs[0], whats_new])
    assert without_prior is not None and without_prior.answer.startswith("functools: the lru_cache")


def test_the_extract_fits_its_token_budget_and_the_request_sets_it(runbooks) -> None:  # noqa: ANN001


    evidence = [(f"ev1:c:5:1:{i}", f"Rule {i}: the on-call engineer pages the incident commander within {i} minutes.")
                for i in range(60)]
    for budget in (60, 200, 400):
        generation = extractive_answer("Who does the on-call engineer page?", evidence, max_tokens=budget)
        assert generation is not None and budget - 30 < count_tokens(generation.answer) <= budget
    small = run(runbooks, {**tree_request("Who is paged for a SEV2 incident?", "runbooks"), "extract_tokens": 40})
    large = run(runbooks, tree_request("Who is paged for a SEV2 incident?", "runbooks"))
    assert small.applied["extract_tokens"] == 40 and large.applied["extract_tokens"] == 250
    assert count_tokens(small.generation.answer) < count_tokens(large.generation.answer)


def test_units_of_one_passage_share_its_citation_and_a_table_header_is_written_once() -> None:
    table = ("| Option | Purpose |\n| --- | --- |\n| -c | Create a new archive |\n| -x | Extract files from the "
             "archive |\n| -t | List the files in the archive |\n")
    generation = extractive_answer("Which options create an archive or extract one?", [("ev1:c:3:1:61", table)])
    assert generation is not None
    assert generation.answer.startswith("| Option | Purpose |\n| -c | Create a new archive |\n| -x | Extract files")
    assert generation.answer.count("| Option | Purpose |") == 1 and generation.answer.count("[ev1:") == 1
    assert generation.answer.endswith("[ev1:c:3:1:61]")


def test_a_list_item_that_answers_is_quoted_under_the_sentence_that_introduces_it() -> None:
    generation = extractive_answer("Which :outdated type picks versions that satisfy the parent's dependencies?",
                                   [("ev1:c:7:1:3", OUTDATED)])
    assert generation is not None
    lines = generation.answer.splitlines()
    assert lines[:2] == ["`:outdated(<type>)`", "The type parameter may be one of the following:"]
    assert any(line.startswith("- `in-range` a version exists") for line in lines[2:])


def test_parts_of_a_compound_in_the_question_weigh_less_than_its_words() -> None:
    evidence = [("ev1:c:6:1:0", "Versions 1.0.0 and 0.2.0 came first. To correct a version, stage it again.")]
    generation = extractive_answer("How do I correct version 2.0.0-rc.1?", evidence, max_tokens=25)
    # 2, 0, 1 and rc are parts of 2.0.0-rc.1, not words of the question
    assert generation is not None and generation.answer == "To correct a version, stage it again. [ev1:c:6:1:0]"


def test_a_pre_block_without_fences_after_a_lead_in_is_its_code() -> None:
    """SQLite's and PostgreSQL's HTML keep a ``<pre>`` block's lines but no fences: after a lead-in
    ending in ":", the block is the code it introduces (quoted with it, fenced), not a sentence of
    prose nor, one line long, a definition's term heading the next paragraph."""
    from clew.agent.units import passage_units

    mmap = ("For example:\n\nPRAGMA mmap_size=268435456;\n\nTo disable memory-mapped I/O, simply set the mmap_size "
            "to zero:\n\nPRAGMA mmap_size=0;\n\nIf mmap_size is set to N then all current implementations map the "
            "first N bytes of the database file.\n")
    generation = extractive_answer("How do I disable memory-mapped I/O?", [("ev1:c:46:1:6", mmap)])
    assert generation is not None
    assert generation.answer.startswith("To disable memory-mapped I/O, simply set the mmap_size to zero:\n```\n"
                                        "PRAGMA mmap_size=0;\n```")
    units = passage_units(mmap, "ev1:c:46:1:6", 0)
    assert [u.kind for u in units] == ["sentence", "code", "sentence", "code", "sentence"]
    assert units[-1].header == ""
    lock = ("Take a SHARE ROW EXCLUSIVE lock on a primary key table when going to perform a delete operation:\n\n"
            "BEGIN WORK;\nLOCK TABLE films IN SHARE ROW EXCLUSIVE MODE;\nDELETE FROM films WHERE rating < 5;\n"
            "COMMIT WORK;\n")
    lead, code = passage_units(lock, "ev1:c:54:1:9", 0)
    assert code.kind == "code" and code.intro is lead and code.own.splitlines()[1:3] == [
        "BEGIN WORK;", "LOCK TABLE films IN SHARE ROW EXCLUSIVE MODE;"]
    options = ("The following command-line options control the connection parameters:\n\n-h host --host=host\n\n"
               "Specifies the host name of the machine on which the server is running.\n")
    assert passage_units(options, "ev1:c:2:1:40", 0)[-1].header == "-h host --host=host"  # a term, not code
    aside = ("Note on scoped packages:\n\n(As of 2015-04-19, and with npm 2.0 or better, the primary npm registry\n"
             "**does** support scoped packages.)\n")  # Markdown prose wrapped over two lines
    assert [u.kind for u in passage_units(aside, "ev1:c:9:1:3", 0)] == ["sentence", "sentence"]


def test_an_interactive_session_in_a_passage_without_fences_is_code_not_a_sentence() -> None:
    """HTML and PDF passages carry code without Markdown fences: a ``>>>`` or ``$`` session, up to
    a blank line, is one code unit, never joined with its lines into a quoted sentence."""
    from clew.agent.units import passage_units

    text = ("Caching\n\nAdding a caching decorator to a query function saves database accesses:\n\n"
            ">>> import functools\n>>> @functools.lru_cache(maxsize=300)\n... def get_phone_number(name):\n"
            "...     return lookup(name)\n\nThe cache is threadsafe.\n\n$ sudo apt install widget\nDone.")
    units = passage_units(text, "ev1:c:1:1:0", 0)
    assert [(u.kind, u.own) for u in units if u.kind == "code"] == [
        ("code", ">>> import functools\n>>> @functools.lru_cache(maxsize=300)\n... def get_phone_number(name):\n"
                 "...     return lookup(name)"),
        ("code", "$ sudo apt install widget\nDone."),
    ]
    lead = next(u for u in units if u.own.startswith("Adding a caching decorator"))
    assert [f for f, _ in lead.follow] == [next(u.own for u in units if u.kind == "code")]
    answer = extractive_answer("what does the lru_cache maxsize do in a query function", [("ev1:c:1:1:0", text)])
    assert answer is not None and ">>> import functools >>>" not in answer.answer
    # quoted as the code it is, not as a list item
    assert "saves database accesses:\n>>> import functools\n>>> @functools" in answer.answer
    assert "\n$ sudo apt install widget\nDone." in answer.answer and "- $ sudo" not in answer.answer


def test_the_extract_counts_an_option_as_the_whole_rendered_extract_would() -> None:
    """The extract counts each option by passage parts (``_Counted``), not by rendering every
    passage again: the count equals the rendered whole's, whichever passage an option joins, and
    where a part starts with whitespace (an indented code block) the whole is counted."""
    from clew.agent.generate import _Counted, _render
    from clew.agent.units import Unit, passage_units


    passages = [("ev1:c:7:1:3", OUTDATED), ("ev1:c:2:1:0", GC_AUTO), ("ev1:c:4:1:9", TEMP_STORE),
                ("ev1:c:2:1:1", GC_PACK_LIMIT)]
    parsed = [passage_units(text, e, order) for order, (e, text) in enumerate(passages)]
    units = [u for k in range(max(map(len, parsed))) for p in parsed for u in p[k:k + 1]]  # passages interleaved
    indented = Unit(own="    git gc --auto\n    git repack -d", evidence_id="ev1:c:2:1:5", order=4, kind="code")
    for offered in (units, [*units[:3], indented, *units[3:]]):
        chosen: list[Unit] = []
        counted = _Counted(chosen)
        for unit in offered:
            assert counted.with_unit(unit) == count_tokens(_render([*chosen, unit]))
            chosen.append(unit)
            counted.add(unit)
        assert len({u.evidence_id for u in chosen}) >= 4


def test_a_passage_under_a_heading_the_question_names_ranks_its_sentences_higher() -> None:
    """``PRAGMA wal_checkpoint`` is in the TRUNCATE sentence's heading path, not in the sentence: with
    the paths, it is quoted instead of a sentence of another page that shares as many words."""
    question = "Which mode of PRAGMA wal_checkpoint leaves the WAL file empty?"
    pragma = ("ev1:c:50:1:118", "PRAGMA schema.wal_checkpoint(PASSIVE);\n\nIf write-ahead log mode is enabled, this "
              "pragma causes a checkpoint operation to run on database schema.\n")
    truncate = ("ev1:c:50:1:119", "TRUNCATE\n\nThis mode works the same way as RESTART with the addition that the WAL "
                "file is truncated to zero bytes upon successful completion.\n")
    other = ("ev1:c:62:1:3", "In exclusive locking mode the WAL file is kept open and the wal-index lives in heap "
             "memory.\n")
    section = ["PRAGMA Statements", "List Of PRAGMAs", "PRAGMA wal_checkpoint"]
    paths = {pragma[0]: section, truncate[0]: section,
             other[0]: ["Write-Ahead Logging", "Use of WAL Without Shared-Memory"]}
    evidence = [pragma, other, truncate]
    without = extractive_answer(question, evidence, max_tokens=90)
    with_paths = extractive_answer(question, evidence, max_tokens=90, paths=paths)
    assert without is not None and with_paths is not None
    assert "exclusive locking" in without.answer and "truncated to zero bytes" not in without.answer
    assert "truncated to zero bytes" in with_paths.answer and "exclusive locking" not in with_paths.answer
    assert [c.evidence_id for c in with_paths.citations] == [pragma[0], truncate[0]]


OUTPUT_MODES = """The sqlite3 program is able to show the results of a query in 14 different output formats:

- ascii
- box
- list

You can use the ".mode" dot command to switch between these output formats. The default output mode is "list". \
The default separator is a pipe symbol ("|")."""


QBOX = """The command ".mode box --wrap 60 --quote" is so useful for general-purpose database queries that it is \
given its own alias. Instead of typing out that whole 27-character command, you can just say ".mode qbox"."""


def test_adjacent_sentences_of_a_passage_are_quoted_in_reading_order() -> None:
    # in the second passage "The default output mode ..." scores best; the sentence before it holds
    # the start of the gold phrase: quoted after it, the phrase was lost (sqlite-014)
    generation = extractive_answer("What is the default output mode of the sqlite3 shell, what is the short alias "
                                   "for .mode box --wrap 60 --quote, and which command switches formats?",
                                   [("ev1:c:3:1:21", QBOX), ("ev1:c:3:1:13", OUTPUT_MODES)])
    assert generation is not None
    assert generation.answer.startswith('The command ".mode box --wrap 60 --quote"')  # the best unit still opens it
    assert ('You can use the ".mode" dot command to switch between these output formats.\n'
            'The default output mode is "list".') in generation.answer


def test_a_short_best_unit_opens_the_extract_after_the_sentence_before_it() -> None:
    # pg-035: "The default is 4.0." scored best and opened the extract, its subject quoted after it;
    # a longer best unit still opens the extract before the sentence adjacent to it (the test above)
    generation = extractive_answer("What is the default value of random_page_cost?",
                                   [("ev1:c:41:1:9", RANDOM_PAGE_COST)])
    assert generation is not None
    assert generation.answer.startswith("random_page_cost (floating point)\nSets the planner's estimate of the cost "
                                        "of a non-sequentially-fetched disk page.\nThe default is 4.0.")
    generation = extractive_answer("What is the default output mode?", [("ev1:c:3:1:13", OUTPUT_MODES)])
    assert generation is not None
    assert generation.answer.startswith('You can use the ".mode" dot command to switch between these output formats.\n'
                                        'The default output mode is "list".')


SHARED_BUFFERS = """shared_buffers (integer)

Sets the amount of memory the database server uses for shared memory buffers. The default is typically 128 \
megabytes (128MB), but might be less if your kernel settings will not support it (as determined during initdb). \
This setting must be at least 128 kilobytes. However, settings significantly higher than the minimum are usually \
needed for good performance. If this value is specified without units, it is taken as blocks, that is BLCKSZ \
bytes, typically 8kB. (Non-default values of BLCKSZ change the minimum value.) This parameter can only be set at \
server start."""


def test_a_short_sentence_opening_with_an_anaphor_is_quoted_with_the_sentence_before_it() -> None:
    # "This setting ..." shares no question term: it was left out, and with it the minimum (pg-034)
    generation = extractive_answer("What is the default for shared_buffers, and what is the smallest value allowed?",
                                   [("ev1:c:43:1:0", SHARED_BUFFERS)])
    assert generation is not None
    assert ("support it (as determined during initdb).\nThis setting must be at least 128 kilobytes."
            in generation.answer)
    for budget in range(60, 160):  # counted after the sentence before it: never over the extract's budget
        small = extractive_answer("What is the default for shared_buffers, and what is the smallest value allowed?",
                                  [("ev1:c:43:1:0", SHARED_BUFFERS)], max_tokens=budget)
        assert small is not None and count_tokens(small.answer) <= budget
    # "It is possible to ..." points forward, not back: no anaphor
    plain = extractive_answer("How big is the cache?", [("ev1:c:1:1:0", "The cache is 10 MB by default. It is possible "
                                                         "to raise it. Raising it costs memory.")])
    assert plain is not None and "It is possible" not in plain.answer
    # SQLite's page footer opens with "This" but states nothing: not quoted after the page's last sentence
    footer = extractive_answer("Can recursive foreign key actions be disabled?", [("ev1:c:11:1:40", (
        "It is not possible to disable recursive foreign key actions.\n\nThis page last modified on 2022-01-20 "
        "21:38:08 UTC"))])
    assert footer is not None and footer.answer == ("It is not possible to disable recursive foreign key actions. "
                                                    "[ev1:c:11:1:40]")


FOREIGN_KEY_LIMITS = """In SQLite, a foreign key constraint is permanently marked as deferred or immediate when it is \
created.
3. Recursion limit on foreign key actions. The SQLITE_MAX_TRIGGER_DEPTH and SQLITE_LIMIT_TRIGGER_DEPTH settings \
determine the maximum allowable depth of trigger program recursion. For the purposes of these limits, foreign key \
actions are considered trigger programs. The PRAGMA recursive_triggers setting does not affect the operation of \
foreign key actions. It is not possible to disable recursive foreign key actions."""


def test_a_long_list_item_without_a_lead_in_is_quoted_by_its_sentences() -> None:
    # the 56-word item ranked below shorter prose by its length; its sentences answer alone (sqlite-030)
    units = passage_units(FOREIGN_KEY_LIMITS, "ev1:c:11:1:40", 0)
    assert [u.kind for u in units] == ["sentence", "item", "sentence", "sentence", "sentence", "sentence"]
    assert units[1].own == "Recursion limit on foreign key actions."
    assert units[4].own == "The PRAGMA recursive_triggers setting does not affect the operation of foreign key actions."
    assert {"trigger", "depth"} <= units[3].context  # the sentence before it
    generation = extractive_answer("Does turning recursive_triggers off stop foreign key actions from recursing?",
                                   [("ev1:c:11:1:40", FOREIGN_KEY_LIMITS)])
    assert generation is not None
    assert generation.answer.startswith("The PRAGMA recursive_triggers setting does not affect the operation of "
                                        "foreign key actions.")


def test_a_long_item_a_lead_in_introduces_stays_whole() -> None:
    text = "The steps are these:\n\n" + FOREIGN_KEY_LIMITS.split("\n", 1)[1]
    units = passage_units(text, "ev1:c:11:1:40", 0)
    assert [u.kind for u in units] == ["sentence", "item"]
    assert units[1].own.endswith("It is not possible to disable recursive foreign key actions.")


RANDOM_PAGE_COST = """random_page_cost (floating point)

Sets the planner's estimate of the cost of a non-sequentially-fetched disk page. The default is 4.0. This value \
can be overridden for tables and indexes in a particular tablespace by setting the tablespace parameter of the \
same name (see ALTER TABLESPACE)."""
RANDOM_ACCESS = """Random access to mechanical disk storage is normally much more expensive than four times \
sequential access; random_page_cost defaults to a lower value because most random reads are assumed to be in cache."""


def test_a_short_sentence_is_quoted_after_the_sentence_before_it_that_names_its_subject() -> None:
    # "The default is 4.0." alone does not say what it is the default of (pg-031, pg-035); the
    # sentence before it goes first, before the anaphoric one after it
    generation = extractive_answer("Why is the default random_page_cost lower than the real cost of random access?",
                                   [("ev1:c:41:1:10", RANDOM_ACCESS), ("ev1:c:41:1:9", RANDOM_PAGE_COST)],
                                   max_tokens=120)
    assert generation is not None
    assert generation.answer.endswith("random_page_cost (floating point)\nSets the planner's estimate of the cost of a "
                                      "non-sequentially-fetched disk page.\nThe default is 4.0. [ev1:c:41:1:9]")
