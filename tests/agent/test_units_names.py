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


FASTIFY_BODY_LIMIT = """\
### bodyLimit

- Default: 1048576 (1MiB)

Defines the maximum payload, in bytes, the server is allowed to accept.
"""

UNDICI_RETRY_AGENT = """\
# Class: RetryAgent

Extends: undici.Dispatcher

A undici.Dispatcher that allows to automatically retry a request. Wraps a undici.RetryHandler.
"""

PINO_LEVEL = """\
#### `level` (String)

Default: `'info'`

The minimum level to log: Pino will not log messages with a lower level.
"""


def test_a_heading_that_names_one_thing_is_quoted_above_its_first_paragraph() -> None:
    """U24's F1 and U5 (task X19): a heading naming one thing, an identifier with a capital inside it (Fastify's
    "### bodyLimit"), a name in backticks with its type (pino's "#### `level` (String)") or "Class: X" (undici's),
    is quoted above its section's first list item, label or paragraph, as a setting's name is: "Default: 1048576
    (1MiB)" was quoted without the option it is the default of, "A undici.Dispatcher that allows to automatically
    retry a request." without its class. Only the first: the description after the label stays as it was."""
    fastify = passage_units(FASTIFY_BODY_LIMIT, "ev1:c:36:1:14", 0)
    assert [(u.header, u.own) for u in fastify] == [
        ("bodyLimit", "Default: 1048576 (1MiB)"),
        ("", "Defines the maximum payload, in bytes, the server is allowed to accept.")]
    assert quoted("What is the largest request body Fastify accepts by default?", "ev1:c:36:1:14", FASTIFY_BODY_LIMIT
                  ).startswith("bodyLimit\nDefault: 1048576 (1MiB)")
    undici = passage_units(UNDICI_RETRY_AGENT, "ev1:c:85:1:0", 0)
    assert [u.header for u in undici] == ["Class: RetryAgent\nExtends: undici.Dispatcher"] * 2
    assert quoted("How do I retry failed undici requests automatically?", "ev1:c:85:1:0", UNDICI_RETRY_AGENT
                  ).startswith("Class: RetryAgent\nExtends: undici.Dispatcher\nA undici.Dispatcher that allows")
    pino = passage_units(PINO_LEVEL, "ev1:c:43:1:5", 0)
    description = "The minimum level to log: Pino will not log messages with a lower level."
    assert [(u.header, u.own) for u in pino] == [("`level` (String)\nDefault: `'info'`", description)]


def test_a_heading_of_words_or_a_capitalised_word_names_nothing() -> None:
    """A section's title in words, a capitalised word ("JavaScript", a product's name) or a name after another word
    than "Class", "Interface", "Enum" or "Event" ("Example: retry") is no entry's name: nothing above its paragraph."""
    for heading in ("Body limit", "JavaScript", "Example: retry", "`level` is a string"):
        assert [u.header for u in passage_units(f"## {heading}\n\nThe default is 1048576 bytes.\n", "e", 0)] == [""]


def test_a_heading_of_one_lower_case_word_is_a_name() -> None:
    """U22's h4 (task X19, rule H2): Hugo's settings reference names each setting in a heading of one lower-case
    word; "Default value: 10" was quoted without "paginate"."""
    hugo = "### paginate\n\nDefault value: 10\n\nDefault number of elements per page in pagination.\n"
    assert [(u.header, u.own) for u in passage_units(hugo, "ev1:c:278:1:55", 0)] == [
        ("paginate\nDefault value: 10", "Default number of elements per page in pagination.")]


ESLINT_IMPORT_EXTENSIONS = """\
# import/extensions

Some file resolve algorithms allow you to omit the file extension within the import source path. For example the node \
resolver can resolve ./foo/bar to the absolute path /User/someone/foo/bar.js.

In order to provide a consistent use of file extensions across your code base, this rule can enforce or disallow the \
use of certain file extensions.
"""


def test_lower_case_words_joined_by_a_slash_are_a_name() -> None:
    """U26's H5 (task X20, rule N1): an ESLint rule's page is headed by the rule's name, plugin and rule joined by "/";
    "Some file resolve algorithms allow you to omit the file extension ..." was quoted without "import/extensions",
    which the question ("Which rule ...?") asks for. A title in capitalised words joined so names nothing."""
    units = passage_units(ESLINT_IMPORT_EXTENSIONS, "ev1:c:47:1:0", 0)
    assert [u.header for u in units] == ["import/extensions"] * 2 + [""]  # its first paragraph's sentences
    assert quoted("Which rule makes imports include or omit the file extension such as .js?", "ev1:c:47:1:0",
                  ESLINT_IMPORT_EXTENSIONS).startswith(
        "import/extensions\nSome file resolve algorithms allow you to omit the file extension within the import")
    for heading in ("Input/Output", "Read/write access", "import/"):
        assert [u.header for u in passage_units(f"## {heading}\n\nThe default is 1048576 bytes.\n", "e", 0)] == [""]
