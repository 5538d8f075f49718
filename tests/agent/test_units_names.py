"""An entry's name quoted with its description (clew.agent.units): a key named by marks alone, a setting named by its
section's heading (the new-user trial U18's questions 13 and 1, task X17)."""

from clew.agent.generate import extractive_answer
from clew.agent.units import passage_units


def quoted(question: str, evidence_id: str, passage: str) -> str:
    """The extract of one passage at 250 tokens."""
    answer = extractive_answer(question, [(evidence_id, passage)], max_tokens=250)
    assert answer is not None
    return answer.answer


KAKOUNE_PIPES = """\
## Changes through external programs

Shell expansions are available, (See :doc expansions shell-expansions)

|

pipe each selection through the given external filter program and replace the selection with its output.

<a-|>

pipe each selection through the given external filter program and ignore its output.

!

insert and select command output before each selection.

<a-!>

append and select command output after each selection.
"""


def test_a_key_of_marks_alone_is_the_term_of_its_description() -> None:
    """U18 q13: kakoune's "!" ends as a sentence may, so it was read as prose, no unit (it has no word), and "insert
    and select command output before each selection." was quoted with no key; "|" was read as a table's row. Both
    are labels now, as "<a-!>" is; dots alone are not."""
    units = passage_units(KAKOUNE_PIPES, "ev1:c:12:1:12", 0)
    assert [(u.header, u.own) for u in units[1:]] == [
        ("|", "pipe each selection through the given external filter program and replace the selection with its "
              "output."),
        ("<a-|>", "pipe each selection through the given external filter program and ignore its output."),
        ("!", "insert and select command output before each selection."),
        ("<a-!>", "append and select command output after each selection.")]
    assert quoted("How do I insert the output of a shell command in kakoune?", "ev1:c:12:1:12", KAKOUNE_PIPES
                  ).startswith("!\ninsert and select command output before each")
    dots = passage_units("## Rest\n\n...\n\nThe rest of the list is left out.\n", "ev1:c:1:1:0", 0)
    assert [(u.header, u.own) for u in dots] == [("", "The rest of the list is left out.")]


SCRAPY_DOWNLOAD_DELAY = """\
### DOWNLOAD_DELAY

Default: 0

Minimum seconds to wait between 2 consecutive requests to the same domain.

Use DOWNLOAD_DELAY to throttle your crawling speed, to avoid hitting servers too hard.
"""


def test_a_setting_s_heading_is_quoted_above_its_first_paragraph() -> None:
    """U18 q1: Scrapy's settings reference names each setting in a heading; the label "Default: 0" opening its
    section was the description's term, so "Minimum seconds to wait ..." was quoted under "Default: 0" without the
    setting it describes. The name is quoted above the label now, or above the first paragraph when no label opens
    the section; not above a paragraph that starts with it (PostgreSQL's "pg_dump — extract ..."), nor a heading
    of words."""
    units = passage_units(SCRAPY_DOWNLOAD_DELAY, "ev1:c:78:1:46", 0)
    assert [(u.header, u.own) for u in units] == [
        ("DOWNLOAD_DELAY\nDefault: 0", "Minimum seconds to wait between 2 consecutive requests to the same domain."),
        ("", "Use DOWNLOAD_DELAY to throttle your crawling speed, to avoid hitting servers too hard.")]
    assert quoted("How do I wait between requests to the same site in Scrapy?", "ev1:c:78:1:46", SCRAPY_DOWNLOAD_DELAY
                  ).startswith("DOWNLOAD_DELAY\nDefault: 0\nMinimum seconds to wait")
    unlabelled = passage_units("### CONCURRENT_ITEMS\n\nMaximum number of items to process in parallel.\n", "e", 0)
    assert [(u.header, u.own) for u in unlabelled] == [
        ("CONCURRENT_ITEMS", "Maximum number of items to process in parallel.")]
    for text in ("## pg_dump\n\npg_dump — extract a PostgreSQL database into a script file.\n",
                 "## Download delay\n\nMinimum seconds to wait between requests.\n"):
        assert [u.header for u in passage_units(text, "e", 0)] == [""]


def test_a_setting_s_heading_leaves_a_label_writing_it_and_a_code_block_as_they_were() -> None:
    """The name is not quoted twice over a label that writes it (pdoc's "DAP_CONNECT: = 2" under "### DAP_CONNECT"),
    nor made the lead-in of a code block opening its section (Doxygen's "#define SDL_BIG_ENDIAN 4321" under "###
    SDL_BIG_ENDIAN": a code unit, the description after it a sentence, as before; U13's and U14's trials)."""
    units = passage_units("### DAP_CONNECT\n\nDAP_CONNECT: = 2\n\nConnect to Device and selected DAP mode\n", "e", 0)
    assert [(u.header, u.own) for u in units] == [("DAP_CONNECT: = 2", "Connect to Device and selected DAP mode")]
    define = "### SDL_BIG_ENDIAN\n\n```\n#define SDL_BIG_ENDIAN 4321\n```\n\nThe big endian byte order.\n"
    assert [(u.header, u.own, u.intro) for u in passage_units(define, "e", 0)] == [
        ("", "```\n#define SDL_BIG_ENDIAN 4321\n```", None), ("", "The big endian byte order.", None)]
