"""A PDF's structure on generated documents: bookmarks as the section tree, running headers and
footers, the title, index and table-of-contents pages, scanned pages and covers.

The PDFs are written here: their text with pypdfium2 (standard fonts; 14 pt and larger in bold),
their outline and metadata with pypdf (the dev extra).
"""

from __future__ import annotations

import ctypes
import io
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest

from clew.corpus.ingest.formats.pdf import parse_pdf
from clew.corpus.ingest.parsed import ParsedDocument
from tests.corpus.ingest.formats.test_pdf import image_pdf

pypdf = pytest.importorskip("pypdf", reason="pypdf (the dev extra) writes the outlines of these PDFs")

HEIGHT = 792.0
Text = tuple[str, float, float]
"""(text, font size, baseline's distance from the top of the page)"""


@dataclass(frozen=True)
class Bookmark:
    title: str
    level: int
    page: int | None
    """0-based page index; None: no destination (a group entry)."""
    top: float | None = None
    """Distance from the page's top the destination points at; None: the whole page (Fit)."""


def make_pdf(pages: list[list[Text]], bookmarks: list[Bookmark] = (), title: str | None = None) -> bytes:  # type: ignore[assignment]
    pdf = pdfium.PdfDocument.new()
    for lines in pages:
        page = pdf.new_page(612, HEIGHT)
        for text, size, y in lines:
            obj = raw.FPDFPageObj_NewTextObj(pdf.raw, b"Helvetica-Bold" if size >= 14 else b"Helvetica", size)
            encoded = ctypes.create_string_buffer((text + "\x00").encode("utf-16-le"))
            raw.FPDFText_SetText(obj, ctypes.cast(encoded, ctypes.POINTER(ctypes.c_ushort)))
            raw.FPDFPageObj_Transform(obj, 1, 0, 0, 1, 72, HEIGHT - y)
            raw.FPDFPage_InsertObject(page.raw, obj)
        page.gen_content()
    buffer = io.BytesIO()
    pdf.save(buffer)
    pdf.close()
    writer = pypdf.PdfWriter(clone_from=pypdf.PdfReader(io.BytesIO(buffer.getvalue())))
    parents: dict[int, object] = {}
    for mark in bookmarks:
        fit = pypdf.generic.Fit.fit() if mark.top is None else pypdf.generic.Fit.xyz(left=72, top=HEIGHT - mark.top)
        parents[mark.level] = writer.add_outline_item(title=mark.title, page_number=mark.page,
                                                      parent=parents.get(mark.level - 1) if mark.level else None,
                                                      fit=fit)
    if title is not None:
        writer.add_metadata({"/Title": title})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def body(first: float, *texts: str) -> list[Text]:
    """Body lines (11 pt) one under another from ``first`` down."""
    return [(text, 11.0, first + 14 * i) for i, text in enumerate(texts)]


def section(document: ParsedDocument, heading: str) -> int:
    """The first section (not the document's root, whose heading is its title) with this heading."""
    return next(i for i, s in enumerate(document.sections) if i and s.heading == heading)


def text_of(document: ParsedDocument, index: int) -> str:
    return "\n".join(document.text[b.start:b.end] for b in document.blocks if b.section == index)


MANUAL = [
    [("The Widget Manual", 24.0, 200), ("A guide for people who build widgets", 11.0, 240)],
    [("1 Getting Started", 18.0, 90), *body(120, "Widgets are small machines that do one thing well.",
                                           "This chapter says how to start one."),
     ("1.1 Installation", 14.0, 300), *body(330, "Unpack the widget and plug it in.",
                                             "A Larger Line That Looks Like A Heading Comes Next")],
    [*body(90, "configuration. This line begins with a title's word but is text of Installation.",
           "Installation goes on here, on the second page of the chapter."),
     ("1.2 Configuration", 14.0, 400), *body(430, "Set the dial to seven.")],
    [*body(90, "The reference lists every dial.", "Dial one turns left.", "Dial two turns right."),
     ("Not a bookmark but set large", 16.0, 300), *body(330, "More reference text.")],
]
OUTLINE = [
    Bookmark("Getting Started", 0, 1, 80),
    Bookmark("Installation", 1, 1, 290),
    Bookmark("Configuration", 1, 2, 72),  # the destination is the top of the page; its heading sits lower
    Bookmark("Reference", 0, None),  # a group without a destination: it opens where its first child does
    Bookmark("Dials", 1, 3, 100),  # no line carries it: it opens at its destination's height
]


@pytest.fixture(scope="module")
def manual() -> ParsedDocument:
    document = parse_pdf(make_pdf(MANUAL, OUTLINE))
    document.check()
    return document


def test_every_bookmark_is_a_section_at_its_level_and_nothing_else_is(manual: ParsedDocument) -> None:
    tree = [(s.heading, s.level, manual.sections[s.parent].heading if s.parent else None)
            for s in manual.sections[1:]]
    assert tree == [
        ("1 Getting Started", 1, None),
        ("1.1 Installation", 2, "1 Getting Started"),
        ("1.2 Configuration", 2, "1 Getting Started"),
        ("Reference", 1, None),
        ("Dials", 2, "Reference"),
    ]


def test_sections_open_where_their_bookmarks_point(manual: ParsedDocument) -> None:
    pages = manual.pages
    starts = {s.heading: s.start for s in manual.sections[1:]}
    assert pages[1] <= starts["1 Getting Started"] < starts["1.1 Installation"] < pages[2]
    assert pages[2] < starts["1.2 Configuration"] < pages[3]
    # the group opens just before its first child, at the line below the child's destination
    assert pages[3] < starts["Reference"] < starts["Dials"]
    dials = text_of(manual, section(manual, "Dials"))
    assert "Dial one turns left." in dials and "The reference lists every dial." not in dials


def test_text_between_two_bookmarks_belongs_to_the_first(manual: ParsedDocument) -> None:
    installation = text_of(manual, section(manual, "1.1 Installation"))
    assert "Unpack the widget" in installation
    assert "configuration. This line begins with a title's word" in installation
    assert "Installation goes on here" in installation
    assert "A Larger Line That Looks Like A Heading Comes Next" in installation
    configuration = text_of(manual, section(manual, "1.2 Configuration"))
    # the group has no destination and its child's points below the page's first line
    assert "Set the dial to seven." in configuration and "The reference lists every dial." in configuration
    assert text_of(manual, section(manual, "Reference")) == "# Reference"
    assert "Not a bookmark but set large" in text_of(manual, section(manual, "Dials"))


def test_the_title_is_the_metadata_else_the_first_pages_largest_text_else_the_first_bookmark() -> None:
    assert parse_pdf(make_pdf(MANUAL, OUTLINE, title="Widgets: the Manual")).title == "Widgets: the Manual"
    assert parse_pdf(make_pdf(MANUAL, OUTLINE)).title == "The Widget Manual"
    plain_first_page = [body(100, "Only body text on the first page.", "And a second line of it."), *MANUAL[1:]]
    assert parse_pdf(make_pdf(plain_first_page, OUTLINE)).title == "Getting Started"


def test_a_title_on_two_lines_and_a_run_in_heading_are_found() -> None:
    pages = [
        [("2.4 Redirecting Standard Output and", 14.0, 90), ("Standard Error", 14.0, 110),
         *body(140, "Both streams go to one file.")],
        # a run-in heading: a line a little larger than the body text that begins with the title
        [*body(90, "Before the term."), ("Literals. Integer literals are written in decimal.", 12.0, 104),
         *body(118, "They may have a sign.")],
    ]
    outline = [Bookmark("Redirecting Standard Output and Standard Error", 0, 0, 80), Bookmark("Literals", 0, 1, 100)]
    document = parse_pdf(make_pdf(pages, outline))
    headings = [s.heading for s in document.sections[1:]]
    assert headings == ["2.4 Redirecting Standard Output and Standard Error", "Literals"]
    literals = text_of(document, section(document, "Literals"))
    assert literals.startswith("# Literals\n") and "Integer literals are written in decimal." in literals
    assert "Before the term." in text_of(document, section(document, headings[0]))


def test_running_headers_and_footers_are_not_content() -> None:
    # chapter headers carry the printed page number (index + 1); each chapter's header appears on two
    # pages at most, so only their height and their numbers running with the pages give them away
    chapters = ["Getting Started", "Getting Started", "Dials", "Levers", "Levers", "Springs"]
    pages = []
    for index, chapter in enumerate(chapters):
        header = f"Chapter {index // 2 + 1}: {chapter} {index + 1}" if index % 2 else f"{index + 1} {chapter}"
        pages.append([(header, 10.0, 40), *body(120, f"Text of page {index + 1} about {chapter.lower()}."),
                      (f"Widget Manual, edition {index % 2 + 1}", 9.0, 760)])
    document = parse_pdf(make_pdf(pages))
    assert "Chapter" not in document.text and "Widget Manual, edition" not in document.text
    assert all(f"Text of page {n} about" in document.text for n in range(1, 7))


def test_scanned_pages_are_reported_once_and_covers_are_not(tmp_path: Path) -> None:
    path = tmp_path / "book.pdf"
    image_pdf(path, "pttsts")  # a cover picture, two pages of text, a scan, text, a scan
    document = parse_pdf(path.read_bytes())
    assert document.warnings == [
        "pages 4, 6: no text layer (scanned images?); not OCR'd, nothing ingested from them"]
    image_pdf(path, "ptpt")  # pictures without text are no scans
    assert parse_pdf(path.read_bytes()).warnings == []


VARIABLES = ["BASH", "BASHPID", "HOSTNAME", "PIPESTATUS", "PPID", "RANDOM", "SECONDS", "SHLVL"]


def variables_manual() -> bytes:
    """A manual whose second page defines PIPESTATUS among other variables, a table of contents
    before it and an index of variables after it, both with dot leaders."""
    entries = [("1. Variables", 2), ("1.1 Shell variables", 2), ("1.2 Arrays", 2), ("1.3 Jobs", 2), ("2. Index", 3),
               ("2.1 Variable index", 3)]
    contents = [("Contents", 18.0, 90), *[(f"{t} . . . . . . . . . . . . . . . . . . {p}", 11.0, 120 + 16 * n)
                                         for n, (t, p) in enumerate(entries)],
                *body(240, "Each chapter begins on a new page.")]
    definitions = [("1. Variables", 18.0, 90), *body(
        120, "The shell sets these variables. Scripts read them to learn about the shell and its jobs.",
        "BASH The full pathname used to execute this instance of the shell.",
        "BASHPID The process identifier of the current shell, which differs in subshells.",
        "PIPESTATUS An array variable containing a list of exit status values from the processes",
        "in the most recently executed foreground pipeline, which may contain a single command.",
        "PPID The process identifier of the shell's parent process; it is read only.",
        "RANDOM Each time it is referenced, a random integer between 0 and 32767 is generated.",
        "SECONDS The number of seconds since the shell was started, plus any value assigned.",
        "SHLVL Incremented by one each time a new instance of the shell is started.")]
    index = [("2. Index", 18.0, 90), *[(f"{name} . . . . . . . . . . . . . . . . . . . . . . 2", 11.0, 120 + 16 * i)
                                      for i, name in enumerate(VARIABLES)]]
    outline = [Bookmark("Contents", 0, 0, 80), Bookmark("Variables", 0, 1, 80), Bookmark("Index", 0, 2, 80)]
    return make_pdf([contents, definitions, index], outline, title="Variables")


def test_index_and_contents_pages_are_marked_and_their_entries_are_lines() -> None:
    document = parse_pdf(variables_manual())
    assert document.fields["navigation_pages"] == [1, 3]
    assert "PIPESTATUS … 2\nPPID … 2" in document.text and ". . ." not in document.text
    assert "1.3 Jobs … 2\n2. Index … 3\n2.1 Variable index … 3" in document.text


def test_an_index_entry_ranks_below_the_passage_it_points_to_and_is_still_found(tmp_path: Path) -> None:
    from clew.corpus.ingest.api import ingest_paths
    from clew.corpus.ingest.formats import pdf
    from clew.corpus.reader import Scope
    from clew.corpus.search import api
    from clew.corpus.search.bm25 import bm25_search
    from clew.corpus.store import Corpus

    assert pdf.NAVIGATION_PAGES == api.NAVIGATION_PAGES
    path = tmp_path / "variables.pdf"
    path.write_bytes(variables_manual())
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [path], collection="docs")
        scope = Scope(corpus)
        # BM25 alone puts the index's short passage first
        raw = bm25_search(scope, "PIPESTATUS", limit=5)
        raw_order = [scope.passages_by_ids([f"ev1:c:{h.document_id}:{h.version}:{h.ordinal}"]).popitem()[1]
                     for h in raw]
        assert [p.heading_path[-1] for p in raw_order] == ["2. Index", "1. Variables"]
        result = api.search(corpus, {"query": "PIPESTATUS"})
        assert [(h.heading_path[-1], h.location.page_numbers) for h in result.hits] == [
            ("1. Variables", [2]), ("2. Index", [3])]
        assert result.applied["navigation_weight"] == api.NAVIGATION_WEIGHT
        assert result.hits[1].score == pytest.approx(raw[0].score * api.NAVIGATION_WEIGHT)
        # asked for the index, a search finds it first
        assert api.search(corpus, {"query": "PIPESTATUS index"}).hits[0].heading_path[-1] == "2. Index"
        # a search without navigation passages among its hits is as it was
        plain = api.search(corpus, {"query": "foreground pipeline"})
        assert "navigation_weight" not in plain.applied and plain.hits[0].heading_path[-1] == "1. Variables"


def test_an_index_set_without_leaders_as_latex_sets_it_is_a_navigation_page() -> None:
    """Sphinx's PDF (LaTeX's ``theindex``, task U21: Why3's manual) sets its index as a term, a comma and its pages
    ("why3-prove command line option, 65"), without a dot leader: its 8 pages were read as the last section's text
    and ranked as the pages they point to. Such a page is a navigation page, its entries lines; prose with a comma
    and a number in it stays text."""
    entries = ["--timelimit", "why3-prove command line option, 65", "--memlimit", "why3-prove command line option, 65",
               "--stepslimit, 65, 66", "why3-replay command line option, 79", "abstract, 91", "alt-ergo, 12, 61-63"]
    index = [("INDEX", 18.0, 90), *[(text, 11.0, 120 + 16 * i) for i, text in enumerate(entries)]]
    prose = [("Limits", 18.0, 90), *body(120, "Set the prover's time limit; by default the limit is 10 seconds, as",
                                         "section 6.4 says, and the memory limit is 1000, 65",
                                         "megabytes, so that a prover that loops is stopped in time.")]
    document = parse_pdf(make_pdf([prose, index], title="Why3"))
    assert document.fields["navigation_pages"] == [2]
    assert "why3-replay command line option, 79\nabstract, 91\nalt-ergo, 12, 61-63" in document.text  # entries
    assert "the memory limit is 1000, 65 megabytes" in document.text


def test_a_bibliography_whose_lines_end_in_years_is_no_index() -> None:
    """A bibliography's wrapped entries end in a publisher and a year ("Addison-Wesley, 1997", no period): half its
    lines looked like LaTeX index entries, so a short PDF's references page was taken for an index, its entries
    split in the middle (task R14). An index's numbers are pages of the document, or code lines under 1,000 (the doc
    package's index, cloze's: 216 lines in 61 pages): 1997 is neither in a 2-page PDF, and the references read as
    their paragraph."""
    from clew.corpus.ingest.formats.pdf_layout import index_entry

    assert [index_entry("Addison-Wesley, 1997", 2), index_entry("Addison-Wesley, 1997", 2000),
            index_entry("\\clozefix, 95, 105", 61), index_entry("alt-ergo, 0", 184)] == [False, True, True, False]
    references = [("References", 18.0, 90), *body(
        120, "[1] D. E. Knuth. The Art of Computer Programming. Volume 1: Fundamental Algorithms.",
        "Addison-Wesley, 1997", "[2] A. V. Aho, R. Sethi and J. D. Ullman. Compilers: Principles, Techniques, Tools.",
        "Addison-Wesley, 1986",
        "[3] B. W. Kernighan and D. M. Ritchie. The C Programming Language. Second edition.", "Prentice Hall, 1988",
        "[4] W. R. Stevens. Advanced Programming in the UNIX Environment.", "Addison-Wesley, 1992",
        "[5] R. Milner, M. Tofte and R. Harper. The Definition of Standard ML.", "MIT Press, 1990")]
    prose = [("Limits", 18.0, 90), *body(120, "Set the prover's time limit; by default the limit is 10 seconds.")]
    document = parse_pdf(make_pdf([prose, references], title="Why3"))
    assert "navigation_pages" not in document.fields
    assert ("Fundamental Algorithms. Addison-Wesley, 1997 [2] A. V. Aho" in document.text
            and "Standard ML. MIT Press, 1990" in document.text)
