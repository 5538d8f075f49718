"""What ``clew search`` and ``clew ask --steps`` put on a reader's screen, at the width it has."""

import io
from pathlib import Path
from typing import Any

from rich.console import Console
from typer.testing import CliRunner

import clew
from clew.agent.result import EvidenceHit
from clew.cli import app
from clew.commands.common import plural
from clew.commands.render import evidence_line, print_result
from clew.commands.show import SNIPPET_CHARS, show, snippet
from clew.corpus.location import Location
from clew.corpus.store import Corpus
from clew.demo import DEMO_CORPUS
from clew.navigation.models import Item, PassagesResult, SlicePassage, SliceResult
from tests.conftest import Prebuilt
from tests.envelope import result as result_of

runner = CliRunner()

VARIABLES = ("MAILCHECK How often (in seconds) that the shell should check for mail in the files specified in "
             "the MAILPATH or MAIL variables. The default is 60 seconds. OSTYPE A string describing the "
             "operating system Bash is running on. PIPESTATUS An array variable containing a list of exit "
             "status values from the processes in the most-recently-executed foreground pipeline.")


def test_a_hit_is_shown_from_a_little_before_its_first_match() -> None:
    shown = snippet(VARIABLES, "PIPESTATUS")
    assert shown.startswith("… ") and "PIPESTATUS An array variable" in shown
    assert len(shown) <= SNIPPET_CHARS and shown[2:] in " ".join(VARIABLES.split())
    assert shown.index("PIPESTATUS") >= 30  # the words before it say where it is


def test_a_hit_whose_match_is_in_view_or_absent_is_shown_from_its_start() -> None:
    assert snippet(VARIABLES, "mail") == VARIABLES[:SNIPPET_CHARS]
    assert snippet(VARIABLES, "checkpoint") == VARIABLES[:SNIPPET_CHARS]  # no word matches: a vector hit
    assert snippet(VARIABLES, None) == VARIABLES[:SNIPPET_CHARS]
    assert snippet("PIPESTATUS  is\n short", "pipestatus") == "PIPESTATUS is short"


def test_a_first_line_that_repeats_the_hits_heading_is_left_out() -> None:
    # the heading is the line above the snippet in clew search: a Markdown heading line, or an HTML
    # reader's term (a man page's option), took a third of the snippet's room at 80 columns
    text = "### Variadic option\n\nYou may make an option variadic by appending `...`."
    assert snippet(text, "variadic", heading="Variadic option") == "You may make an option variadic by appending `...`."
    assert snippet("SHARE_HISTORY <K>\n\nThis option imports new commands.", "share history",
                   heading="SHARE_HISTORY <K>") == "This option imports new commands."
    caret = "#### Caret Ranges `^1.2.3`\nAllows changes."
    assert snippet(caret, None, heading="Caret Ranges ^1.2.3") == "Allows changes."
    assert snippet("### Title", None, heading="Title") == "### Title"  # nothing after it: kept
    assert snippet("### Other\nText.", None, heading="Title") == "### Other Text."  # another line: kept
    assert snippet(text, "variadic") == " ".join(text.split())  # no heading given: as before
    # source text's titles (task U6: a git page's hit read "------- -a:: --all:: ...")
    assert snippet("OPTIONS\n-------\n-a::\n--all::", None, heading="OPTIONS") == "-a:: --all::"
    assert snippet("=====\nUsage\n=====\nRun it.", None, heading="Usage") == "Run it."
    assert snippet("=====\nOther\n=====\nRun it.", None, heading="Usage") == "===== Other ===== Run it."


def test_a_snippet_has_no_code_fences() -> None:
    """The snippet is one line, where a code block's fences are no block: yard-doc's hit read "``` $ yard server
    --reload ``` Note that in incremental mode ..." (task U12). Code spans and the code itself stay."""
    text = "```\n$ yard server --reload\n```\n\nNote that `--reload` keeps the server's objects.\n~~~ruby\nx = 1\n~~~"
    assert snippet(text, "reload") == "$ yard server --reload Note that `--reload` keeps the server's objects. x = 1"


def test_clew_search_shows_the_words_that_matched(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "variables.md").write_text("# Bash Variables\n\n" + VARIABLES + "\n")
    db = tmp_path / "c.duckdb"
    with Corpus(db) as corpus:
        clew.ingest_paths(corpus, [folder])
    found = runner.invoke(app, ["search", "PIPESTATUS", "--db", str(db)], env={"COLUMNS": "200"})
    assert found.exit_code == 0, found.output
    assert "PIPESTATUS An array variable" in found.stdout and "MAILCHECK" not in found.stdout


def build_demo(folder: Path) -> None:
    """The demo's pages with ``clew ingest``'s defaults in ``c.duckdb``: built once a session (``prebuilt``)."""
    with Corpus(folder / "c.duckdb") as corpus:
        clew.ingest_paths(corpus, [DEMO_CORPUS])


def test_the_walk_wraps_at_80_columns_and_cuts_nothing(tmp_path: Path, prebuilt: Prebuilt) -> None:
    with Corpus(prebuilt(build_demo, tmp_path) / "c.duckdb") as corpus:
        result = clew.retrieve_sync({"query": "What error rate means a deploy should be rolled back?",
                                     "context_budget_tokens": 400, "include_steps": True}, corpus=corpus)
    assert result.steps
    buffer = io.StringIO()
    print_result(Console(file=buffer, width=80, soft_wrap=True, no_color=True), result, steps=True)
    lines = buffer.getvalue().splitlines()
    screen = "\n".join(lines[lines.index("walk"):])  # the answer's lines are the terminal's to wrap
    assert max(len(line) for line in screen.splitlines()) <= 80
    flat = " ".join(screen.translate({ord(c): " " for c in "│├└─"}).split())  # the rows, without the branches
    for hit in result.hits:  # each row's tags, after the headings, are on the screen whole
        assert f"{hit.evidence_id} " in flat and (hit.tokens is None or f"{hit.tokens} tokens" in flat)
    assert f"seed, depth 0, {result.hits[0].tokens} tokens" in flat


def test_a_search_that_finds_nothing_says_so_without_an_empty_table(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "variables.md").write_text("# Bash Variables\n\n" + VARIABLES + "\n")
    db = tmp_path / "c.duckdb"
    with Corpus(db) as corpus:
        clew.ingest_paths(corpus, [folder])
    found = runner.invoke(app, ["search", "separateword", "--db", str(db)], env={"COLUMNS": "80"})
    assert found.exit_code == 1 and found.stdout == "0 hits (limit 10, mode bm25)\n"
    assert found.stderr == "no_match\n"  # was "no_match: ", a colon before nothing


def test_an_evidence_line_drops_a_heading_before_its_pages() -> None:
    hit = EvidenceHit(evidence_id="ev1:c:1:1:165", document_key="bash/bashref.pdf", collection="default",
                      heading_path=["3 Basic Shell Features", "3.7 Executing Commands", "3.7.5 Exit Status"],
                      text="...", location=Location(char_start=0, char_end=3, page_numbers=[50, 51]))
    assert evidence_line(hit, 120).plain == (
        "ev1:c:1:1:165  bash/bashref.pdf › 3.7 Executing Commands › 3.7.5 Exit Status  p. 50-51")
    assert evidence_line(hit, 80).plain == "ev1:c:1:1:165  bash/bashref.pdf › … › 3.7.5 Exit Status  p. 50-51"
    narrow = evidence_line(hit, 40).plain  # was cut at the right, pages first: "... › 3.7.5 Exit Status  p…"
    assert len(narrow) == 40 and narrow.endswith("…")


def test_an_outline_wraps_at_80_columns_and_keeps_every_evidence_id_whole(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    deep = "".join(f"{'#' * level} {level}.1 A section heading that runs on a while\n\nText {level}.\n\n"
                   for level in range(1, 7))
    (folder / "manual.md").write_text(deep + "More text. " * 400)
    db = tmp_path / "c.duckdb"
    with Corpus(db) as corpus:
        clew.ingest_paths(corpus, [folder])
    shown = runner.invoke(app, ["outline", "manual.md", "--db", str(db)], env={"COLUMNS": "80"})
    listed = runner.invoke(app, ["outline", "manual.md", "--db", str(db), "--json"])
    assert shown.exit_code == 0 and listed.exit_code == 0, shown.output
    assert max(len(line) for line in shown.stdout.splitlines()) <= 80
    words = set(shown.stdout.split())
    ids = [node["id"] for node in _nodes(result_of(listed.stdout))]
    assert len(ids) == 7 and all(i in words for i in ids)  # each whole, on one line (was cut at column 80)


def test_counts_group_their_thousands_as_the_stop_line_does() -> None:
    assert plural(8106, "context token") == "8,106 context tokens" and plural(1, "token") == "1 token"


def _nodes(node: dict[str, Any]) -> list[dict[str, Any]]:
    return [node, *(n for child in node.get("children", []) for n in _nodes(child))]


def test_a_fetched_passage_names_its_document_and_pages(capsys: Any) -> None:
    item = Item(evidence_id="ev1:c:1:1:300", document_key="bash/bashref.pdf", kind="text", text="PIPESTATUS ...",
                heading_path=["5 Shell Variables", "5.2 Bash Variables"],
                location=Location(char_start=0, char_end=14, page_numbers=[93]))
    show(PassagesResult(status="ok", items=[item]))
    assert capsys.readouterr().out.splitlines()[0] == (  # was "ev1:c:1:1:300  5 Shell Variables > ..."
        "ev1:c:1:1:300  bash/bashref.pdf › 5 Shell Variables › 5.2 Bash Variables  p. 93  [text]")


def test_a_fetched_or_sliced_passage_is_shown_without_the_blank_lines_around_it(capsys: Any) -> None:
    """Starlette's applications.md opens with an admonition that held only mkdocstrings' lines, left out line for
    line: ``clew fetch`` printed ten blank lines over the passage's first sentence (task U10)."""
    text = "\n\n \n\n    indented = True\nStarlette includes an application class.\n\n\n"
    item = Item(evidence_id="ev1:c:1:1:0", document_key="starlette/applications.md", kind="text", text=text,
                heading_path=[], location=Location(char_start=0, char_end=len(text)))
    show(PassagesResult(status="ok", items=[item]))
    assert capsys.readouterr().out.splitlines()[1:] == [
        "    indented = True", "Starlette includes an application class.", ""]
    passage = SlicePassage(evidence_id="ev1:c:1:1:0", index=0, total=4, kind="text", text=text, breadcrumb="",
                           location=Location(char_start=0, char_end=len(text)))
    show(SliceResult(status="ok", document_key="starlette/applications.md", passages=[passage]))
    assert capsys.readouterr().out.splitlines()[1:] == [
        "    indented = True", "Starlette includes an application class.", ""]


def test_a_sliced_passage_names_its_document_and_pages_as_a_fetched_one(capsys: Any) -> None:
    """``clew slice`` headed each passage with its headings alone ("42/47  GitPython Tutorial > Using git directly"):
    no document, and no page to cite a PDF's passage by (task U5; ``clew fetch``'s was mended in round 2)."""
    passage = SlicePassage(evidence_id="ev1:c:1:1:300", index=299, total=412, kind="text", text="PIPESTATUS ...",
                           breadcrumb="5 Shell Variables > 5.2 Bash Variables",
                           location=Location(char_start=0, char_end=14, page_numbers=[93, 94]))
    show(SliceResult(status="ok", document_key="bash/bashref.pdf", passages=[passage]))
    assert capsys.readouterr().out.splitlines()[0] == (
        "ev1:c:1:1:300  300/412  bash/bashref.pdf › 5 Shell Variables › 5.2 Bash Variables  p. 93-94")
    show(SliceResult(status="ok", document_key="notes.md", passages=[passage.model_copy(update={
        "breadcrumb": "", "location": Location(char_start=0, char_end=14)})]))
    assert capsys.readouterr().out.splitlines()[0] == "ev1:c:1:1:300  300/412  notes.md"


def test_an_id_that_cannot_be_fetched_is_named_once_with_its_reason(tmp_path: Path, prebuilt: Prebuilt) -> None:
    db = prebuilt(build_demo, tmp_path) / "c.duckdb"
    gone = runner.invoke(app, ["fetch_evidence", "ev1:c:1:1:9999", "--db", str(db)])
    assert gone.exit_code == 1 and gone.stderr == "ev1:c:1:1:9999: unavailable (no readable passage has this id)\n"
    bad = runner.invoke(app, ["fetch_evidence", "evX", "--db", str(db)])  # was "malformed" twice, on two lines
    assert bad.exit_code == 2 and bad.stderr.startswith("evX: malformed (malformed evidence id 'evX'")
    assert bad.stderr.count("\n") == 1


def test_a_section_or_document_id_given_to_fetch_is_pointed_to_slice(tmp_path: Path, prebuilt: Prebuilt) -> None:
    """``clew outline`` lists sections by ``ev1:s:`` ids; one copied from there into ``clew fetch``
    said only "malformed (expected a passage id ...)" (task U4)."""
    db = prebuilt(build_demo, tmp_path) / "c.duckdb"
    section = next(line.split()[-1] for line in runner.invoke(
        app, ["outline", "deploy-rollback.md", "--db", str(db)]).stdout.splitlines() if "How to roll back" in line)
    told = runner.invoke(app, ["fetch", section, "ev1:d:2:1", "--db", str(db)])
    assert told.exit_code == 2 and told.stderr.splitlines() == [
        f"{section}: malformed (expected a passage id (ev1:c:<document>:<version>:<ordinal>)); a section id: "
        f"clew slice {section} reads its first passages",
        "ev1:d:2:1: malformed (expected a passage id (ev1:c:<document>:<version>:<ordinal>)); a document id: "
        "clew slice ev1:d:2:1 reads its first passages"]
    listed = runner.invoke(app, ["fetch", section, "--db", str(db), "--json"])  # the result is the tool's, as before
    assert [e["status"] for e in result_of(listed.stdout)["evidence"]] == ["malformed"]
    sliced = runner.invoke(app, ["slice", section, "--db", str(db)])  # the command it names reads the section
    assert sliced.exit_code == 0 and "How to roll back" in sliced.stdout


def test_ask_says_which_option_was_out_of_range_and_what_it_ran_with(tmp_path: Path, prebuilt: Prebuilt) -> None:
    db = prebuilt(build_demo, tmp_path) / "c.duckdb"
    asked = runner.invoke(app, ["ask", "Who is paged for a SEV1?", "--db", str(db), "--context-tokens", "100",
                                "--max-tool-calls", "50", "--max-depth", "3"])
    assert asked.exit_code == 0, asked.output
    assert asked.stderr.splitlines() == [  # was silent: the stop line's "of 256 tokens" the only trace
        "--max-tool-calls 50 is out of range (1-20): 20 applied",
        "--context-tokens 100 is out of range (256-200000): 256 applied"]
    assert "of 256 tokens" in asked.stdout
    within = runner.invoke(app, ["ask", "Who is paged for a SEV1?", "--db", str(db), "--context-tokens", "300"])
    assert within.exit_code == 0 and within.stderr == ""


def test_ls_at_80_columns_folds_long_keys_and_leaves_the_titles_room(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    deep = folder / "reference" / "a-rather-long-folder-name" / "api"
    deep.mkdir(parents=True)
    for n in (1, 2):
        (deep / f"module-with-a-long-name-{n}.md").write_text(
            f"# Module {n}: what the second module of the reference says about its options\n\nText {n}.\n")
    (folder / "guide.md").write_text("# The guide for people who are new to this corpus\n\nText.\n")
    db = tmp_path / "c.duckdb"
    with Corpus(db) as corpus:
        clew.ingest_paths(corpus, [folder])
    shown = runner.invoke(app, ["ls", "--db", str(db)], env={"COLUMNS": "80"})
    assert shown.exit_code == 0, shown.output
    lines = shown.stdout.splitlines()
    long_key = "reference/a-rather-long-folder-name/api/module-with-a-long-name-1.md"
    at = lines.index(long_key)  # the key whole, on a line of its own
    assert lines[at + 1].split()[0] == "1" and "Module 1: what the second module of the reference" in lines[at + 1]
    # the key column is as wide as the short key: the titles keep the rest of the 80 columns (were ~3 of them)
    assert lines[1].split() == ["key", "chunks", "title"] and lines[1].index("chunks") < 20
    assert "guide.md       1  The guide for people who are new to this corpus" in lines
    assert max(len(line) for line in lines if line != long_key and "module-with" not in line) <= 80
    wide = runner.invoke(app, ["ls", "--db", str(db)], env={"COLUMNS": "200"}).stdout.splitlines()
    assert any(line.startswith(long_key) and line.endswith("of the reference says about its options") for line in wide)
