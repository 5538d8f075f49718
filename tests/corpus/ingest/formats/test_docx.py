"""DOCX ingestion on real files (tests/fixtures/docx/README.md says where each comes from)."""

from __future__ import annotations

import io
from pathlib import Path

import docx
import pytest
from docx.enum.style import WD_STYLE_TYPE
from docx.enum.text import WD_BREAK

from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.formats.docx import parse_docx
from clew.corpus.ingest.parsed import UnreadableDocument
from clew.corpus.reader import Scope
from clew.corpus.store import Corpus
from clew.navigation.passages import item
from tests.conftest import FIXTURES
from tests.corpus.ingest.formats.documents import block_texts

DOCX = FIXTURES / "docx"


def test_libreoffice_docx_keeps_headings_lists_and_tables() -> None:
    document = parse_docx((DOCX / "sqlite-datatype3.docx").read_bytes())
    document.check()
    levels = {s.heading: s.level for s in document.sections[1:]}
    assert levels["1. Datatypes In SQLite"] == 1
    assert levels["2.1. Boolean Datatype"] == 2
    assert levels["3.1.1. Affinity Name Examples"] == 3
    affinity = next(i for i, s in enumerate(document.sections) if s.heading == "3.1.1. Affinity Name Examples")
    assert document.sections[affinity].parent == next(
        i for i, s in enumerate(document.sections) if s.heading == "3.1. Determination Of Column Affinity")
    assert sum(b.kind == "list_item" for b in document.blocks) >= 20
    header = next(b for b in document.blocks if b.kind == "table_header")
    assert document.text[header.start:header.end] == (
        "| Example Typenames From The CREATE TABLE Statement or CAST Expression | Resulting Affinity"
        " | Rule Used To Determine Affinity |\n| --- | --- | --- |")
    assert document.blocks[document.blocks.index(header) + 1].kind == "table_row"
    assert document.sections[header.section].heading == "3.1.1. Affinity Name Examples"


def test_word_rendered_page_breaks_give_page_numbers(tmp_path: Path) -> None:
    document = parse_docx((DOCX / "par-rendered-page-breaks.docx").read_bytes())
    assert document.pages == [0, 16, 59, 136]
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [DOCX / "par-rendered-page-breaks.docx"], collection="docs", chunk_tokens=220)
        doc = Scope(corpus).document_by_key("par-rendered-page-breaks.docx")
        assert item(doc, 0).location.page_numbers == [1, 2, 3, 4]


def test_docx_written_by_python_docx_and_one_cell_tables_are_text() -> None:
    made = docx.Document()
    made.add_heading("Runbook", level=1)
    made.add_heading("Restarts", level=2)
    made.add_paragraph("Drain the node first.")
    made.add_paragraph("check the queue", style="List Bullet")
    made.add_paragraph("restart the service", style="List Bullet")
    box = made.add_table(rows=1, cols=1)
    box.cell(0, 0).text = "NOTE: never restart two nodes at once."
    grid = made.add_table(rows=2, cols=2)
    for (r, c), value in {(0, 0): "signal", (0, 1): "action", (1, 0): "SIGHUP", (1, 1): "reload"}.items():
        grid.cell(r, c).text = value
    buffer = io.BytesIO()
    made.save(buffer)
    document = parse_docx(buffer.getvalue())
    document.check()
    assert document.text == (
        "# Runbook\n\n## Restarts\n\nDrain the node first.\n\n- check the queue\n- restart the service\n\n"
        "NOTE: never restart two nodes at once.\n\n| signal | action |\n| --- | --- |\n| SIGHUP | reload |")
    assert [s.heading for s in document.sections] == ["Runbook", "Runbook", "Restarts"]
    assert len(document.tables) == 1


def test_a_broken_docx_is_a_problem_naming_the_file(tmp_path: Path) -> None:
    with pytest.raises(UnreadableDocument, match="not a readable DOCX file"):
        parse_docx(b"PK\x03\x04 not really a zip")
    path = tmp_path / "broken.docx"
    path.write_bytes(b"this is plain text, not a Word file")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [path], collection="docs", chunk_tokens=220)
    assert (report.skipped, report.documents) == (1, 0)
    assert report.problems[0].path == str(path) and "not a readable DOCX file" in report.problems[0].message


def hostile(body: str, *, prolog: str = "") -> bytes:
    """A DOCX whose document part is ``body`` (python-docx's own package, the part replaced)."""
    import zipfile

    good = io.BytesIO()
    docx.Document().save(good)
    out = io.BytesIO()
    with zipfile.ZipFile(good) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for entry in source.infolist():
            data = source.read(entry.filename)
            if entry.filename == "word/document.xml":
                ns = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
                data = f'<?xml version="1.0"?>{prolog}<w:document {ns}><w:body>{body}</w:body></w:document>'.encode()
            target.writestr(entry, data)
    return out.getvalue()


LAUGHS = ('<!DOCTYPE w:document [<!ENTITY a "lol lol lol lol lol lol lol lol lol lol">'
          + "".join(f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(8)) + "]>")


@pytest.mark.parametrize("name, data", [
    ("entity-bomb.docx", hostile("<w:p><w:r><w:t>&i;</w:t></w:r></w:p>", prolog=LAUGHS)),
    ("nested-tables.docx", hostile("<w:tbl><w:tr><w:tc>" * 300 + "<w:p/>" + "</w:tc></w:tr></w:tbl>" * 300)),
    ("huge-text-node.docx", hostile("<w:p><w:r><w:t>" + "x" * 11_000_000 + "</w:t></w:r></w:p>")),
])
def test_a_hostile_docx_is_skipped_with_its_reason_and_the_rest_is_stored(tmp_path: Path, name: str,
                                                                          data: bytes) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / name).write_bytes(data)
    (folder / "good.md").write_text("# Good\n\nThis file is fine and must be stored.\n")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [folder])
        assert report.documents == 1 and corpus.collections(with_documents=True) == ["default"]
        assert Scope(corpus).document_by_key("good.md") is not None
    assert [p.path.endswith(name) and p.skipped for p in report.problems] == [True]
    assert report.problems[0].message.startswith(("not a readable DOCX file", "could not be read ("))


def test_any_parser_failure_skips_only_its_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import clew.corpus.ingest.api as ingest

    real = ingest.parse

    def flaky(fmt: str, content: str | bytes, bounds: object = None, targets: object = None) -> object:
        if isinstance(content, str) and "poison" in content:
            raise RecursionError("maximum recursion depth exceeded")
        return real(fmt, content, bounds, targets)  # type: ignore[arg-type]

    monkeypatch.setattr(ingest, "parse", flaky)
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "bad.md").write_text("# Bad\n\npoison\n")
    (folder / "good.md").write_text("# Good\n\nThis file is fine.\n")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [folder])
    assert report.documents == 1
    assert [(Path(p.path).name, p.message, p.skipped) for p in report.problems] == [
        ("bad.md", "could not be read (RecursionError: maximum recursion depth exceeded)", True)]


def test_an_unexpanded_entity_keeps_the_rest_of_its_paragraph(tmp_path: Path) -> None:
    data = hostile("<w:p><w:r><w:t>Before &ext; after the entity.</w:t></w:r><w:r><w:t> Second run.</w:t></w:r></w:p>"
                   "<w:p><w:r><w:t>Next paragraph.</w:t></w:r></w:p>",
                   prolog='<!DOCTYPE w:document [<!ENTITY ext SYSTEM "file:///etc/hostname">]>')
    document = parse_docx(data)
    assert document.text.split("\n\n") == ["Before after the entity. Second run.", "Next paragraph."]
    assert document.repairs == ["1 entity reference(s) left unexpanded (&ext;): left out, the text around them kept"]


def test_numbered_list_items_keep_the_numbers_word_shows() -> None:
    document = parse_docx((DOCX / "sqlite-datatype3.docx").read_bytes())
    items = [document.text[b.start:b.end] for b in document.blocks if b.kind == "list_item"]
    numbered = [item.split(" ", 4)[:4] for item in items if item[0].isdigit()]
    assert numbered == [  # LibreOffice's decimal lists: the affinity rules, then the collating rules, each from 1
        ["1.", "If", "the", "declared"], ["2.", "If", "the", "declared"], ["3.", "If", "the", "declared"],
        ["4.", "If", "the", "declared"], ["5.", "Otherwise,", "the", "affinity"],
        ["1.", "If", "either", "operand"], ["2.", "If", "either", "operand"], ["3.", "Otherwise,", "the", "BINARY"]]
    assert "- NULL. The value is a NULL value." in items  # a bullet list stays "- "
    made = docx.Document()
    made.add_paragraph("Steps:")
    for step in ("Stop the node.", "Copy the files.", "Start the node."):
        made.add_paragraph(step, style="List Number")  # numbered by its style's w:numPr
    made.add_paragraph("check the log", style="List Bullet")
    data = io.BytesIO()
    made.save(data)
    assert parse_docx(data.getvalue()).text == (
        "Steps:\n\n1. Stop the node.\n2. Copy the files.\n3. Start the node.\n- check the log")


LITERAL = """\
This is a typical paragraph.  An indented literal block follows.

::

    for a in [5,4,3,2,1]:   # this is program code, shown as-is
        print a
    print "it's..."
    # a literal block continues until the indentation ends

This text has returned to the indentation of the first paragraph,
is outside of the literal block, and is therefore treated as an
ordinary paragraph."""


@pytest.mark.parametrize("producer", ["pandoc", "libreoffice"])
def test_code_paragraphs_are_one_fenced_block_with_their_lines(producer: str) -> None:
    """pandoc writes a literal block as one ``Source Code`` paragraph with ``w:br`` lines, LibreOffice
    one ``Preformatted Text`` paragraph a line (task U23: both read as prose, lines run together)."""
    document = parse_docx((DOCX / f"{producer}-rst-literal-blocks.docx").read_bytes())
    document.check()
    code = block_texts(document, "code")
    assert code[0] == "```\n" + LITERAL + "\n```"
    assert code[1:4] == ["```\nParagraph:\n\n::\n\n    Literal block\n```",
                         "```\nParagraph: ::\n\n    Literal block\n```", "```\nParagraph::\n\n    Literal block\n```"]
    assert code[4].startswith("```\n+------------------------------+\n| paragraph                    |\n")
    assert code[5] == ("```\nJohn Doe wrote::\n\n>> Great idea!\n>\n> Why didn't I think of that?\n\n"
                       "You just did!  ;-)\n```")
    assert len(code) == {"pandoc": 7, "libreoffice": 8}[producer]  # pandoc's HTML put the footnote's code last
    assert all(block.indivisible for block in document.blocks if block.kind == "code")
    assert [document.sections[b.section].heading for b in document.blocks if b.kind == "code"][3:7] == [
        "Literal Blocks", "Indented Literal Blocks", "Quoted Literal Blocks", "Quoted Literal Blocks"]


def test_a_footnote_follows_the_paragraph_that_refers_to_it() -> None:
    """pandoc writes footnotes into ``footnotes.xml``, where the reader never looked (task U23)."""
    document = parse_docx((DOCX / "pandoc-rst-literal-blocks.docx").read_bytes())
    texts = block_texts(document)
    at = next(i for i, text in enumerate(texts) if text.startswith("Quoted literal blocks are unindented"))
    assert "printable 7-bit ASCII character[1]. A blank line ends" in texts[at]
    assert texts[at + 1] == ("[1] The following are all valid quoting characters: ! \" # $ % & ' ( ) * + , - . / : ; "
                             "< = > ? @ [ \\ ] ^ _ ` { | } ~ Note that these are the same characters as are valid "
                             "for title adornment of sections.")
    assert texts[at + 2].startswith("Possible uses include literate programming")
    assert [s.heading for s in document.sections[2:]] == ["Literal Blocks", "Indented Literal Blocks",
                                                          "Quoted Literal Blocks"]  # the contents field: no text


def test_a_footnote_referred_to_in_code_follows_the_code_block() -> None:
    """A code paragraph is read with the paragraphs of its block, after the loop that lets a paragraph's notes follow
    it: its reference read ``[1]`` in the code and the note's text was never read (review V5 of 579d0db)."""
    data = (DOCX / "pandoc-rst-literal-blocks.docx").read_bytes()
    document = docx.Document(io.BytesIO(data))
    referring = next(p for p in document.paragraphs if "w:footnoteReference" in p._p.xml)
    referring.style = document.styles["Source Code"]
    written = io.BytesIO()
    document.save(written)
    texts = block_texts(parse_docx(written.getvalue()))
    at = next(i for i, text in enumerate(texts) if text.startswith("```\nQuoted literal blocks are unindented"))
    assert "printable 7-bit ASCII character[1]. A blank line ends" in texts[at]
    assert texts[at + 1].startswith("[1] The following are all valid quoting characters: ! \" # $ % & '")
    assert texts[at + 2].startswith("Possible uses include literate programming")

@pytest.mark.parametrize("style", ["Source Code", "Prose"])
def test_a_page_break_before_the_first_block_opens_no_page(style: str) -> None:
    """Word's page break in the document's first paragraph, code or prose, starts no second page before it (a code
    paragraph did, review V5 of 579d0db: pages [0, 0, 35], every block a page later than Word shows it)."""
    document = docx.Document()
    document.styles.add_style(style, WD_STYLE_TYPE.PARAGRAPH)
    for text in ("print(1)", "Next paragraph.", "The second page."):
        paragraph = document.add_paragraph("", style=style if text == "print(1)" else None)
        if text != "Next paragraph.":
            paragraph.add_run().add_break(WD_BREAK.PAGE)
        paragraph.add_run(text)
    written = io.BytesIO()
    document.save(written)
    parsed = parse_docx(written.getvalue())
    assert len(parsed.pages) == 2
    assert parsed.text[parsed.pages[1]:].startswith("The second page.")

def test_a_table_of_contents_is_left_out() -> None:
    """LibreOffice's DOCX of an HTML manual writes its contents as one paragraph of links into the
    document, Word's contents entries are ``TOC N`` paragraphs: each read as text at the document's start
    (task U23), where the HTML reader leaves a page's contents out."""
    document = parse_docx((DOCX / "libreoffice-rst-literal-blocks.docx").read_bytes())
    assert [s.heading for s in document.sections[1:]] == [
        "reStructuredText Markup Specification", "Literal Blocks", "Indented Literal Blocks", "Quoted Literal Blocks"]
    assert block_texts(document)[:2] == ["# reStructuredText Markup Specification", "David Goodger"]
    assert block_texts(document)[3] == "# Literal Blocks"
    made = docx.Document()
    made.styles.add_style("toc 1", WD_STYLE_TYPE.PARAGRAPH)
    made.add_heading("Contents", level=1)
    made.add_paragraph("Restarts\t2", style="toc 1")
    made.add_heading("Restarts", level=1)
    made.add_paragraph("Drain the node first; see Restarts above.")
    buffer = io.BytesIO()
    made.save(buffer)
    assert block_texts(parse_docx(buffer.getvalue())) == ["# Restarts", "Drain the node first; see Restarts above."]


@pytest.mark.parametrize("producer", ["pandoc", "libreoffice"])
def test_an_admonitions_title_paragraph_labels_the_paragraph_after_it(producer: str) -> None:
    """pandoc writes docutils' "Note" as a paragraph of its own (so does LibreOffice from pandoc's HTML), read
    apart from its text (task U23); the HTML reader reads "Note: ..."."""
    document = parse_docx((DOCX / f"{producer}-rst-literal-blocks.docx").read_bytes())
    assert block_texts(document)[2] == (
        "Note: This document is a detailed technical specification; it is not a tutorial or a primer.")
    made = docx.Document()
    made.add_paragraph("Warning")
    made.add_paragraph("never restart two nodes at once", style="List Bullet")
    made.add_paragraph("Tip")
    buffer = io.BytesIO()
    made.save(buffer)
    assert block_texts(parse_docx(buffer.getvalue())) == ["Warning", "- never restart two nodes at once", "Tip"]
