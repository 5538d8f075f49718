"""The shape of what the extract quotes (task X12): a list item ending in ":" quotes the code block it introduces."""

from __future__ import annotations

from clew.agent.declarations import code_term, option_term
from clew.agent.examples import cut_example
from clew.agent.generate import extractive_answer
from clew.agent.lead_ins import continue_lead_ins
from clew.agent.units import Unit, parsed_units, passage_units

BOUNDS = """## Tuning indexing further

The array lookups are still slowed down by two factors:

1. Bounds checking is performed.
2. Negative indices are checked for and handled correctly. The code above is explicitly coded so that it doesn't \
use negative indices, and it (hopefully) always access within bounds. We can add a decorator to disable bounds checking:

```cython
cimport cython
@cython.boundscheck(False) # turn off bounds-checking for entire function
@cython.wraparound(False)  # turn off negative index wrapping for entire function
def naive_convolve(np.ndarray[DTYPE_t, ndim=2] f, np.ndarray[DTYPE_t, ndim=2] g):
```

Now bounds checking is not performed.
"""
"""Cython's numpy tutorial as its Sphinx page reads (task U15's question 14): the list's last item introduces the
decorator after the list."""

TEAMS = """### Team Admins create teams

* Check who you've added to your org:

```bash
npm team ls <org>:developers
```

* Each org is automatically given a `developers` team, so you can see the whole list of team members in your org.

* Create a new team:

```bash
npm team create <org:team>
```

* Add members to that team:

```bash
npm team add <org:team> <user>
```
"""
"""npm's orgs.md: each item ending in ":" introduces the command after it."""


def test_a_lists_last_item_ending_in_a_colon_quotes_the_block_after_the_list() -> None:
    generation = extractive_answer("How do I turn off bounds checking for a function?", [("ev1:c:28:1:10", BOUNDS)])
    assert generation is not None
    assert "We can add a decorator to disable bounds checking:\n```cython\n" in generation.answer
    assert "@cython.boundscheck(False)" in generation.answer
    units = passage_units(BOUNDS, "ev1:c:28:1:10", 0)
    lead = units[0]
    assert lead.own == "The array lookups are still slowed down by two factors:"
    assert [u.kind for u in units if u.intro is lead] == ["item", "item", "code"]  # the block after its list


def test_an_item_ending_in_a_colon_quotes_its_block_and_the_next_item_is_no_part_of_it() -> None:
    generation = extractive_answer("How do I create a new team in my npm org?", [("ev1:c:85:1:1", TEAMS)])
    assert generation is not None
    assert "Create a new team:\n```bash\nnpm team create <org:team>\n```" in generation.answer
    units = passage_units(TEAMS, "ev1:c:85:1:1", 0)
    items = {u.own: u for u in units if u.kind == "item"}
    assert [f for f, _ in items["Create a new team:"].follow] == ["```bash\nnpm team create <org:team>\n```"]
    assert items["Each org is automatically given a `developers` team, so you can see the whole list of team members "
                 "in your org."].intro is None  # not a follower of "Check who you've added to your org:"
    assert items["Add members to that team:"].intro is None


def test_a_block_indented_under_its_item_stays_the_items_own_example() -> None:
    text = ("Two ways to install:\n\n- From the registry:\n\n    ```bash\n    npm install pkg\n    ```\n\n"
            "- From a folder.\n")
    units = passage_units(text, "ev1:c:1:1:0", 0)
    item = next(u for u in units if u.own == "From the registry:")
    assert not item.follow  # inside the item's body: as before task X12
    assert [u.own for u in units if u.intro is units[0]] == ["From the registry:"]


SETUP = "\n".join(f"    app.config['SETTING_{n}'] = {n}  # an unrelated setting" for n in range(40))
LONG = f"""## Example: Flask and Thread-Local Data

Let's assume you want to bind a unique request ID and the URL path to every log entry by storing it in storage \
managed by context variables:

```python
import flask
import structlog

def create_app():
    app = flask.Flask(__name__)
{SETUP}

    @app.before_request
    def bind():
        structlog.contextvars.bind_contextvars(request_id=str(uuid.uuid4()), view=flask.request.path)

    return app
```
"""
"""An example longer than the extract (structlog's contextvars page, task X11's case) under the lead-in that says
what it shows."""


def test_an_example_longer_than_the_extract_is_quoted_cut_to_the_lines_holding_question_terms() -> None:
    generation = extractive_answer("How do I bind a request ID to every log entry with structlog contextvars?",
                                   [("ev1:c:59:1:4", LONG)])
    assert generation is not None
    lines = generation.answer.removesuffix(" [ev1:c:59:1:4]").splitlines()
    assert lines[0].startswith("Let's assume you want to bind a unique request ID")
    assert lines[1:] == ["```python", "...", "import structlog", "...", "    @app.before_request", "    def bind():",
                         "        structlog.contextvars.bind_contextvars(request_id=str(uuid.uuid4()), "
                         "view=flask.request.path)", "...", "```"]  # none of the 40 settings


def test_an_example_is_cut_only_where_few_of_its_lines_hold_the_terms() -> None:
    short = "```python\nimport structlog\nlog = structlog.get_logger()\nlog.info('hi')\n```"
    assert cut_example(short, {"structlog"}) is None  # under MIN_LINES: whole or not at all
    html = "```html\n" + "\n".join(f'<div class="modal-{n}">' for n in range(9)) + "\n<p>Body</p>\n```"
    assert cut_example(html, {"modal"}) is None  # the term on every other line: a cut says no more
    assert cut_example(html, {"absent"}) is None
    session = "\n".join([">>> import structlog", *(f">>> x{n} = {n}" for n in range(8))])
    assert cut_example(session, {"structlog"}) == ">>> import structlog\n..."


PIPE2 = """# DESCRIPTION

pipe() creates a pipe, a unidirectional data channel that can be used for interprocess communication.

If flags is 0, then pipe2() is the same as pipe(). The following values can be bitwise ORed in flags to obtain \
different behavior:

O_CLOEXEC

Set the close-on-exec (FD_CLOEXEC) flag on the two new file descriptors. See the description of the same flag in \
open(2) for reasons why this may be useful.

O_DIRECT (since Linux 3.4)

Create a pipe that performs I/O in "packet" mode.

O_NONBLOCK

Set the O_NONBLOCK file status flag on the open file descriptions referred to by the new file descriptors.

# RETURN VALUE

EFAULT

pipefd is not valid.
"""
"""pipe(2)'s DESCRIPTION as mandoc writes it (task U15's question 3): the lead-in introduces the flags' terms."""


def test_a_lead_in_over_definitions_is_quoted_with_their_terms() -> None:
    generation = extractive_answer("Which flags can be passed to pipe2?", [("ev1:c:150:2:3", PIPE2)])
    assert generation is not None
    assert ("The following values can be bitwise ORed in flags to obtain different behavior:\n- O_CLOEXEC\n"
            "- O_DIRECT (since Linux 3.4)\n- O_NONBLOCK") in generation.answer
    lead = next(u for u in passage_units(PIPE2, "ev1:c:150:2:3", 0) if u.own.startswith("The following values"))
    assert [f for f, _ in lead.follow] == ["O_CLOEXEC", "O_DIRECT (since Linux 3.4)", "O_NONBLOCK"]  # not EFAULT


WAL_CHECKPOINT = """### PRAGMA wal_checkpoint

PRAGMA schema.wal_checkpoint;
PRAGMA schema.wal_checkpoint(PASSIVE);
PRAGMA schema.wal_checkpoint(FULL);
PRAGMA schema.wal_checkpoint(RESTART);
PRAGMA schema.wal_checkpoint(TRUNCATE);

If the write-ahead log is enabled (via the journal_mode pragma), this pragma causes a checkpoint operation to run on \
database database, or on all attached databases if database is omitted. If write-ahead log mode is disabled, this \
pragma is a harmless no-op.
"""
"""SQLite's pragma.html as the HTML reader writes it (sqlite-017): a synopsis of five lines of SQL."""


def test_a_synopsis_of_sql_lines_under_a_heading_is_the_term_of_its_description() -> None:
    units = passage_units(WAL_CHECKPOINT, "ev1:c:50:1:117", 0)
    synopsis = ("PRAGMA schema.wal_checkpoint; PRAGMA schema.wal_checkpoint(PASSIVE); "
                "PRAGMA schema.wal_checkpoint(FULL); PRAGMA schema.wal_checkpoint(RESTART); "
                "PRAGMA schema.wal_checkpoint(TRUNCATE);")
    assert [(u.header, u.own[:30]) for u in units] == [(synopsis, "If the write-ahead log is enab"),
                                                       (synopsis, "If write-ahead log mode is dis")]
    generation = extractive_answer("Which mode of PRAGMA wal_checkpoint runs a checkpoint when write-ahead log is on?",
                                   [("ev1:c:50:1:117", WAL_CHECKPOINT)])
    assert generation is not None
    assert generation.answer.startswith(synopsis + "\n")
    short = "### PRAGMA temp_store\n\nPRAGMA temp_store;\nPRAGMA temp_store = 0;\n\nThis pragma sets temp_store.\n"
    # a short synopsis was a label already
    assert [u.header for u in passage_units(short, "e", 0)] == ["PRAGMA temp_store; PRAGMA temp_store = 0;"]
    later = ("### Locking\n\nTake the lock first.\n\nLOCK TABLE films IN SHARE ROW EXCLUSIVE MODE;\n"
             "SELECT * FROM films WHERE kind = 'Comedy';\n\nThen commit.\n")
    assert [(u.kind, u.header) for u in passage_units(later, "e", 0)] == [("sentence", "")] * 3  # not under the heading


QUEUE_HEAD = """### Recursive Query Examples

The basic algorithm for computing the content of the recursive table is as follows:

1. Run the initial-select and add the results to a queue.
2. While the queue is not empty:
3. Extract a single row from the queue.
4. Insert that single row into the recursive table.
"""
QUEUE_TAIL = """5. Pretend that the single row just extracted is the only row in the recursive table and run the \
recursive-select.
6. If the operator is UNION ALL, then all rows generated by the recursive-select are added to the queue; with UNION \
only rows not added before are.
"""
"""A numbered list the chunker cut after its fourth item (SQLite's lang_with.html, task X12's sqlite-015)."""


def test_a_numbered_list_cut_between_two_passages_is_quoted_under_its_lead_in() -> None:
    evidence = [("ev1:c:7:2:4", QUEUE_HEAD), ("ev1:c:7:2:5", QUEUE_TAIL)]
    generation = extractive_answer("Which rows does UNION ALL add to the queue of a recursive query?", evidence)
    assert generation is not None
    lead_in = "The basic algorithm for computing the content of the recursive table is as follows:"
    assert generation.answer.startswith(lead_in)  # items 5 and 6 read under it, not quoted alone before it
    assert "\n- If the operator is UNION ALL, then all rows generated" in generation.answer
    lead = next(u for u in units_of(evidence) if u.own.startswith("The basic algorithm"))
    assert len(lead.follow) == 6  # items 5 and 6 joined their list
    renumbered = [evidence[0], ("ev1:c:7:2:5", QUEUE_TAIL.replace("5. ", "1. ").replace("6. ", "2. "))]
    lead = next(u for u in units_of(renumbered) if u.own.startswith("The basic algorithm"))
    assert len(lead.follow) == 4  # a list opening at 1 is a list of its own


def units_of(evidence: list[tuple[str, str]]) -> list[Unit]:
    """The units of ``evidence`` as the extract reads them, lead-ins continued across passages."""
    parsed = {e: parsed_units(text, e, "") for e, text in evidence}
    continue_lead_ins(parsed, (), {e: int(text.split(".")[0]) for e, text in evidence if text[0].isdigit()})
    return [unit for units in parsed.values() for unit in units]


FOOTNOTES = """\
Only unused footnote numbers are assigned to auto-numbered footnotes. The following example should be illustrative:

```
[2]_ will be "2" (manually numbered),
[#]_ will be "3" (anonymous auto-numbered), and
[#label]_ will be "1" (labeled auto-numbered).
```

Manual and automatic footnote numbering may both be used within a single document.
"""


def test_a_quoted_sentence_takes_the_short_lead_in_under_it_with_its_example() -> None:
    """U23's question 1 (task X19): "The following example should be illustrative:" is a short lead-in, quoted
    under the sentence before it; that sentence was quoted (the best unit) and the lead-in with its example left, as
    a lead-in ending in ":" is unless it opens with an anaphor: the example holding ``[#]_`` was never quoted."""
    generation = extractive_answer("How do I write an auto-numbered footnote in reStructuredText?",
                                   [("ev1:c:78:1:86", FOOTNOTES)], max_tokens=120)
    assert generation is not None
    assert generation.answer.startswith(
        "Only unused footnote numbers are assigned to auto-numbered footnotes.\n"
        "The following example should be illustrative:\n```\n[2]_ will be \"2\" (manually numbered),\n[#]_ will be")


RICH_CONFIRM = """\
## Confirm

class Confirm(rich.prompt.PromptBase[bool]):

A yes / no confirmation prompt.

{section}

if Confirm.ask("Continue"): run_job()
"""
"""pdoc's page of rich.prompt (task U27's R5): the docstring's ``>>> if Confirm.ask("Continue"):`` example, which pdoc
writes as nested blockquotes, is a paragraph that "Example:" introduces as a label."""


def test_a_quoted_sentence_takes_the_docstring_example_section_after_it() -> None:
    """U27's R5 (task X20, rule N2b): "A yes / no confirmation prompt." was quoted without the "Example:" paragraph
    after it and ``Confirm.ask("Continue")``; a docstring's example section is the example of its summary. Another
    short lead-in opening the next paragraph ("For example:", "See also:") is quoted on its own terms, as before."""
    question = "How do I ask the user a yes/no question in the terminal with rich?"
    generation = extractive_answer(question, [("ev1:c:75:1:37", RICH_CONFIRM.format(section="Example:"))])
    assert generation is not None
    assert 'A yes / no confirmation prompt.\nExample:\n- if Confirm.ask("Continue"): run_job()' in generation.answer
    for section in ("For example:", "Usage:"):
        generation = extractive_answer(question, [("ev1:c:75:1:37", RICH_CONFIRM.format(section=section))])
        assert generation is not None
        assert "A yes / no confirmation prompt." in generation.answer
        assert "Confirm.ask" not in generation.answer


FRONT_ENDS = """### Front-Ends

Babel provides two different front-ends to access its functionality for working with message catalogs:

- A Command-Line Interface, and
- Distutils/Setuptools Integration

Which one you choose depends on the nature of your project.
"""
COMPILE = """## compile

The compile sub-command can be used to compile translation catalogs into binary MO files:

```
$ pybabel compile --help
Usage: pybabel compile [options]

compile message catalogs to MO files

Options:
  -h, --help            show this help message and exit
  -D DOMAIN, --domain=DOMAIN
                        domains of PO files (space separated list, default
                        'messages')
  -d DIRECTORY, --directory=DIRECTORY
                        path to base directory containing the catalogs
  -i INPUT_FILE, --input-file=INPUT_FILE
                        name of the input file
  -o OUTPUT_FILE, --output-file=OUTPUT_FILE
                        name of the output file (default
                        '<output_dir>/<locale>/LC_MESSAGES/<domain>.mo')
  -l LOCALE, --locale=LOCALE
                        locale of the catalog to compile
  -f, --use-fuzzy       also include fuzzy translations
  --statistics          print statistics about translations
```
"""
"""Babel 2.19's docs as Sphinx's dirhtml builder writes them (U32's babel-dirhtml: ``messages/``, ``cmdline/``)."""


def test_a_session_no_cut_shortens_is_quoted_by_its_first_paragraph() -> None:
    """U32's D3 (task X22, rule H1b): the lead-in over ``pybabel compile --help`` (213 tokens, the question's terms on
    most of its lines: no cut) did not fit after the front-ends, and had no other form: ``pybabel compile`` was never
    quoted. Its first paragraph, the command and its usage line, is its shortest form; code is not cut so."""
    question = (
        "Babel's message catalogs page names two front-ends; with the command-line one, which sub-command compiles "
        "catalogs to MO files?"
    )
    generation = extractive_answer(question, [("ev1:c:24:1:4", FRONT_ENDS), ("ev1:c:16:1:2", COMPILE)], max_tokens=180)
    assert generation is not None
    assert (
        "binary MO files:\n```\n$ pybabel compile --help\nUsage: pybabel compile [options]\n...\n```"
        in generation.answer
    )
    code = COMPILE.replace("$ pybabel compile --help", "def compile(options):")
    generation = extractive_answer(question, [("ev1:c:24:1:4", FRONT_ENDS), ("ev1:c:16:1:2", code)], max_tokens=180)
    assert generation is not None
    assert "def compile(options):" not in generation.answer


REFLINK = """‘--reflink[=WHEN]’

Perform a lightweight, copy-on-write (COW) copy, if supported by the file system. Once it has succeeded, beware that \
the source and destination files share the same data blocks as long as they remain unmodified. Thus, if an I/O error \
affects data blocks of one of the files, the other suffers the same fate.

The WHEN value can be one of the following:

‘always’

If the copy-on-write operation is not supported then report the failure for each file and exit with a failure \
status. Plain ‘--reflink’ is equivalent to ‘--reflink=when’.

‘auto’

If the copy-on-write operation is not supported then fall back to the standard copy behavior. This is the default \
if no ‘--reflink’ option is given."""
"""coreutils' Info manual, cp's ``--reflink`` (task U37's question I5): what 'auto' does is in the sentence before
the one that names the option."""


def test_a_sentence_under_a_term_that_leans_on_the_one_before_is_quoted_with_it() -> None:
    # "This is the default if no '--reflink' option is given." was quoted under 'auto' alone: the term's description,
    # "fall back to the standard copy behavior", shares no word with the question and was left out
    generation = extractive_answer("What does cp --reflink=auto do?", [("ev1:c:1:1:399", REFLINK)])
    assert generation is not None
    assert ("‘auto’\nIf the copy-on-write operation is not supported then fall back to the standard copy behavior.\n"
            "This is the default if no ‘--reflink’ option is given.") in generation.answer


FIND_OPTIONS = """-version, --version

Print the find version number and exit.

-xdev

Don't descend directories on other filesystems.

-mount

Don't descend directories on other filesystems. An alternate name for -xdev, for compatibility with some other \
versions of find.

-noignore_readdir_race

Turns off the effect of -ignore_readdir_race."""
"""find(1)'s global options as the man page reader writes them (Debian's findutils 4.9.0, task U37)."""


def test_a_description_under_the_option_the_question_names_is_scored_by_its_term() -> None:
    # "Don't descend directories on other filesystems." shares no word with the question: it scored 0 and only
    # -mount's "An alternate name for -xdev" was quoted
    generation = extractive_answer("What does find -xdev do?", [("ev1:c:31:1:25", FIND_OPTIONS)])
    assert generation is not None
    assert "-xdev\nDon't descend directories on other filesystems." in generation.answer
    other = extractive_answer("What does find -noleaf do?", [("ev1:c:31:1:25", FIND_OPTIONS)])
    assert other is None or "-xdev\nDon't descend" not in other.answer  # not under an option the question names


PRUNE = """-- Option: -d

This is a deprecated synonym for '-depth', for compatibility with Mac OS X, FreeBSD and OpenBSD. The '-depth' option \
is a POSIX feature, so it is better to use that.

-- Action: -prune

If the file is a directory, do not descend into it. The result is true. For example, to skip the directory \
'src/emacs' and all files and directories under it, and print the names of the other files found:"""
"""find's Info manual, 2.11 Directories, as the Info reader writes its ``@deffn`` lines (findutils 4.9.0, task U37)."""


def test_a_description_under_a_texinfo_definition_of_the_option_the_question_names_is_scored_by_it() -> None:
    # "If the file is a directory, do not descend into it." under "-- Action: -prune" scored 0 for the question
    generation = extractive_answer("What does the find -prune action do?", [("ev1:c:3:1:73", PRUNE)])
    assert generation is not None
    assert "-- Action: -prune\nIf the file is a directory, do not descend into it." in generation.answer


MAX_REDIRS = """--max-redirs <num>

(HTTP) Set maximum number of redirections to follow. When -L, --location is used, to prevent curl from following \
too many redirects, by default, the limit is set to 50 redirects. Set this option to -1 to make it unlimited.

If --max-redirs is provided several times, the last set value will be used."""
"""curl(1)'s --max-redirs as the man page reader writes it (Debian's curl 7.88.1, task U37's M4)."""


def test_sentences_under_an_options_term_are_quoted_in_reading_order() -> None:
    # the best sentence opened the quote: "Set this option to -1 to make it unlimited." above "(HTTP) Set maximum
    # number of redirections to follow.", which says what the option is (task X23, rule X1'')
    generation = extractive_answer("Which curl option makes it follow redirects?", [("ev1:c:16:1:153", MAX_REDIRS)])
    assert generation is not None
    assert generation.answer.startswith("--max-redirs <num>\n(HTTP) Set maximum number of redirections to follow.\n")
    assert generation.answer.index("(HTTP) Set maximum") < generation.answer.index("Set this option to -1")


SORT_N = """‘-n’ ‘--numeric-sort’ ‘--sort=numeric’

Sort numerically. The number begins each line and consists of optional blanks, an optional ‘-’ sign, and zero or \
more digits possibly separated by thousands separators, optionally followed by a decimal-point character and zero or \
more digits. An empty number is treated as ‘0’. The ‘LC_NUMERIC’ locale specifies the decimal-point character and \
thousands separator.

‘-V’ ‘--version-sort’

Sort by version name and number."""
"""sort's -n in coreutils' Info manual, its ``@item``/``@itemx`` lines in Texinfo's quotes on one line (U37's I4)."""


def test_an_option_term_in_texinfo_quotes_is_an_options_term() -> None:
    # ‘-n’ was no option's term: "An empty number is treated as ‘0’." came above "Sort numerically." (X23's X3)
    assert option_term("‘-n’ ‘--numeric-sort’ ‘--sort=numeric’")[1] == {"-n", "--numeric-sort", "--sort"}
    generation = extractive_answer("How does sort -n compare numbers?", [("ev1:c:1:1:183", SORT_N)])
    assert generation is not None
    assert "‘-n’ ‘--numeric-sort’ ‘--sort=numeric’\nSort numerically.\nThe number begins each line" in generation.answer
    assert generation.answer.index("Sort numerically.") < generation.answer.index("An empty number is treated")


_RESPONSES = """#### Responses

| Status | Description | Schema |
| --- | --- | --- |
| 201 | The UUID of the created the dialog {what}. | string (`application/json`) |
| 401 | Missing or invalid authentication token. Requires a Maskinporten-token with the scope \
"digdir:dialogporten.serviceprovider". |  |
| 403 | Unauthorized to create {forbidden}. |  |"""
"""A Dialogporten operation's responses as the OpenAPI reader writes them (dialogporten-schema 1.40.0, U37's A4)."""


def test_of_identical_rows_the_copy_under_the_operation_the_question_names_is_quoted() -> None:
    # the three operations' 401 rows are the same text: the first passage's copy (the activities') was quoted, the
    # right scope under another operation (task X23, rule X2')
    activities = ("ev1:c:2:1:79", _RESPONSES.format(what="activity", forbidden="child entity for the given dialog"))
    dialogs = ("ev1:c:2:1:49", _RESPONSES.format(what="aggregate", forbidden="a dialog for the given serviceResource"))
    paths = {"ev1:c:2:1:79": ["Serviceowner", "POST /api/v1/serviceowner/dialogs/{dialogId}/activities", "Responses"],
             "ev1:c:2:1:49": ["Serviceowner", "POST /api/v1/serviceowner/dialogs", "Responses"]}
    generation = extractive_answer("Which scope does creating a dialog need?", [activities, dialogs], paths=paths)
    assert generation is not None
    row = '| 401 | Missing or invalid authentication token. Requires a Maskinporten-token with the scope'
    assert generation.answer.count(row) == 1
    after = generation.answer[generation.answer.index(row):]
    assert after[after.index("[ev1:"):].startswith("[ev1:c:2:1:49]")  # the row's citation: the create operation's


KEYGEN = """-l

Show fingerprint of specified public key file.

-L

Prints the contents of one or more certificates."""
"""ssh-keygen(1)'s -l and -L, one term to the tokenizer (U37's M3)."""


def test_an_option_the_question_writes_counts_only_in_its_own_letter_case() -> None:
    # -l's description was scored by its term as -L's was and quoted first (task X25, rule S1x)
    generation = extractive_answer("What does ssh-keygen -L do?", [("ev1:c:3:1:25", KEYGEN)])
    assert generation is not None
    assert generation.answer.startswith("-L\nPrints the contents of one or more certificates.")
    assert "Show fingerprint" not in generation.answer
    rsync = ("ev1:c:4:1:31", "Give an explicit -l option in the remote-shell command.")  # own text, -l
    generation = extractive_answer("What does ssh-keygen -L do?", [rsync, ("ev1:c:3:1:25", KEYGEN)])
    assert generation is not None and generation.answer.startswith("-L\nPrints the contents")


LOCKFILE_VERSION = """#### `lockfileVersion`

An integer version, starting at `1` with the version number of this document whose semantics were used when \
generating this `package-lock.json`.

Note that the file format changed significantly in npm v7 to track information that would have otherwise required \
looking in `node_modules` or the npm registry.
Lockfiles generated by npm v7 will contain `lockfileVersion: 2`.

* No version provided: an "ancient" shrinkwrap file from a version of npm prior to npm v5.
* `1`: The lockfile version used by npm v5 and v6.
* `2`: The lockfile version used by npm v7 and v8. Backwards compatible to v1 lockfiles.
* `3`: The lockfile version used by npm v9 and above.
  Backwards compatible to npm v7.

npm will always attempt to get whatever data it can out of a lockfile, even if it is not a version that it was \
designed to support."""
"""npm's package-lock.json page, its `lockfileVersion` field (npm-docs' npm-007, the walk's first passage)."""

LOCKFILE_SETTING = """#### `lockfile-version`

* Default: Version 3 if no lockfile, auto-converting v1 lockfiles to v3;
  otherwise, maintain current lockfile version.
* Type: null, 1, 2, 3, "1", "2", or "3"

Set the lockfile format version to be used in package-lock.json and
npm-shrinkwrap-json files. Possible options are:

1: The lockfile version used by npm versions 5 and 6. Lacks some data that
is used during the install, resulting in slower and possibly less
deterministic installs. Prevents lockfile churn when interoperating with
older npm versions.

2: The default lockfile version used by npm version 7 and 8. Includes both
the version 1 lockfile data and version 3 lockfile data, for maximum
determinism and interoperability, at the expense of more bytes on disk."""
"""npm's config page, its `lockfile-version` setting (npm-007's second passage)."""


def test_a_description_under_a_name_written_as_code_that_the_question_names_is_scored_by_it() -> None:
    # the field's description shares no word with the question: it scored 0, and the version list, the rest of the
    # passage and the setting's sentences took the extract's room (task X29, rule D3c)
    question = ("A teammate's lockfile declares lockfileVersion 3. Which npm releases write that format, and can npm 7 "
                "still read it?")
    evidence = [("ev1:c:80:1:8", LOCKFILE_VERSION), ("ev1:c:81:1:93", LOCKFILE_SETTING)]
    paths = {"ev1:c:80:1:8": ["File Format", "lockfileVersion"],
             "ev1:c:81:1:93": ["Config Settings", "lockfile-version"]}
    generation = extractive_answer(question, evidence, paths=paths)
    assert generation is not None
    assert "`lockfileVersion`\nAn integer version, starting at `1`" in generation.answer
    assert code_term("`lockfileVersion`") == {"lockfilevers"}
    assert code_term("#### lockfileVersion") == code_term("`a` and `b`") == frozenset()  # one name, as code, alone
