"""PDF ingestion on real manuals made by others (Debian documentation packages, shipped as
fixtures with their copyright files in tests/fixtures/pdf/licenses), and on generated edge cases.

- reportlab-userguide.pdf (python-reportlab-doc, BSD): an outline of 104 entries and ruled tables;
- prawn-manual.pdf.gz (ruby-prawn-doc, Ruby licence, verbatim as Debian ships it): an outline;
- camlidl-manual.pdf (camlidl-doc, LGPL-2+): no outline, LaTeX headings by font size.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.formats.pdf import parse_pdf
from clew.corpus.ingest.formats.rendered import Renderer
from clew.corpus.ingest.parsed import ParsedDocument, UnreadableDocument
from clew.corpus.reader import Scope
from clew.corpus.store import Corpus
from clew.navigation.passages import item
from tests.conftest import FIXTURES

PDFS = FIXTURES / "pdf"


def pdf_bytes(name: str) -> bytes:
    data = (PDFS / name).read_bytes()
    return gzip.decompress(data) if name.endswith(".gz") else data


Parsed = tuple[bytes, ParsedDocument]


@pytest.fixture(scope="module")
def guide() -> Parsed:
    data = pdf_bytes("reportlab-userguide.pdf")
    return data, parse_pdf(data)


def alnum(text: str) -> str:
    return re.sub(r"[\W_]+", "", text.lower())


def page_texts(data: bytes) -> list[str]:
    pdf = pdfium.PdfDocument(data)
    try:
        return [alnum(pdf[i].get_textpage().get_text_range()) for i in range(len(pdf))]
    finally:
        pdf.close()


def outline(data: bytes) -> list[tuple[str, int]]:
    pdf = pdfium.PdfDocument(data)
    try:
        return [(b.get_title(), b.get_dest().get_index()) for b in pdf.get_toc() if b.get_dest() is not None
                and b.get_dest().get_index() is not None]
    finally:
        pdf.close()


def test_sections_follow_the_outline(guide: Parsed) -> None:
    data, document = guide
    document.check()
    entries = outline(data)
    assert len(entries) == 104
    headings = [alnum(s.heading) for s in document.sections[1:]]
    missing = [title for title, _ in entries if alnum(title) not in headings]
    assert missing == []
    # each entry's section begins on the entry's page
    by_heading = {alnum(s.heading): s for s in document.sections[1:]}
    for title, page in entries:
        start = by_heading[alnum(title)].start
        assert document.pages[page] <= start < (document.pages[page + 1] if page + 1 < len(document.pages)
                                                else len(document.text) + 1), title
    levels = {s.heading: s.level for s in document.sections}
    assert levels["Chapter 1 Introduction"] == 1 and levels["1.1 About this document"] == 2


def test_running_headers_footers_and_page_numbers_are_gone(guide: Parsed) -> None:
    _, document = guide
    assert "User Guide Chapter 2 Graphics and Text with pdfgen" not in document.text
    assert not re.search(r"^Page \d+$", document.text, re.MULTILINE)
    assert "Chapter 2 Graphics and Text with pdfgen" in document.text  # the chapter heading itself stays


def test_tables_keep_their_header(guide: Parsed) -> None:
    _, document = guide
    assert ("| fit | Parameters Required | Meaning |\n| --- | --- | --- |\n"
            "| Fit |  | Entire page fits in window (the default) |") in document.text
    headers = [b for b in document.blocks if b.kind == "table_header"]
    assert len(headers) == len(document.tables) >= 20


def test_hyphenation_at_line_ends_is_repaired(guide: Parsed) -> None:
    _, document = guide
    assert "\ufffe" not in document.text and "\xad" not in document.text
    # "high-" ends a line of page 6 before "quality printing": a real hyphen, kept with its word
    assert "high-quality printing" in document.text


def test_passages_know_their_pages(tmp_path: Path, guide: Parsed) -> None:
    data, _ = guide
    texts = page_texts(data)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [PDFS / "reportlab-userguide.pdf"], collection="docs", chunk_tokens=220)
        assert report.skipped == 0 and report.chunks > 300
        doc = Scope(corpus).document_by_key("reportlab-userguide.pdf")
        checked = 0
        for ordinal in range(0, len(doc.skeleton.chunks), 7):
            chunk = doc.skeleton.chunks[ordinal]
            located = item(doc, ordinal)
            pages = located.location.page_numbers
            assert pages and pages == sorted(pages) and len(pages) <= 3
            if chunk.kind != "text":
                continue
            # the passage's text up to the next page's start lies on its first page, and from its last
            # page's start on, on that page (a passage that begins with a page's last line: 'A.1 Odyssey')
            body, starts = doc.skeleton.body(ordinal), doc.skeleton.pages
            first = body[: starts[pages[0]] - chunk.start] if len(pages) > 1 else body
            last = body[starts[pages[-1] - 1] - chunk.start :] if len(pages) > 1 else body
            head, tail = alnum(re.sub(r"^#+ ", "", first))[:30], alnum(last)[-30:]
            assert head in texts[pages[0] - 1], (ordinal, pages)
            assert tail in texts[pages[-1] - 1], (ordinal, pages)
            checked += 1
        assert checked >= 40


def test_a_second_manual_follows_its_outline() -> None:
    data = pdf_bytes("prawn-manual.pdf.gz")
    document = parse_pdf(data)
    document.check()
    headings = {alnum(s.heading) for s in document.sections}
    entries = outline(data)
    found = [title for title, _ in entries if alnum(title) in headings]
    assert len(entries) >= 95 and len(found) >= 0.95 * len(entries)
    assert len(document.pages) == 111


def test_headings_from_font_sizes_without_an_outline() -> None:
    data = pdf_bytes("camlidl-manual.pdf")
    assert outline(data) == []
    document = parse_pdf(data)
    levels = {s.heading: s.level for s in document.sections[1:]}
    assert levels["1 Overview"] < levels["1.1 What is IDL?"]
    assert "2.3 Attributes" in levels
    assert document.title == "Camlidl user’s manual"


def test_broken_and_empty_pdfs_are_refused_with_the_reason(tmp_path: Path) -> None:
    with pytest.raises(UnreadableDocument, match="not a readable PDF"):
        parse_pdf(b"%PDF-1.4\nthis is not a pdf\n")
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "broken.pdf").write_bytes(b"%PDF-1.7\n1 0 obj <<>>\ntruncated")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [folder], collection="docs", chunk_tokens=220)
    assert report.skipped == 1 and report.documents == 0
    assert report.problems[0].path.endswith("broken.pdf") and "not a readable PDF" in report.problems[0].message


def test_encrypted_pdf_is_a_clear_problem(tmp_path: Path) -> None:
    pypdf = pytest.importorskip("pypdf", reason="pypdf (the dev extra) writes the encrypted test file")
    reader = pypdf.PdfReader(PDFS / "camlidl-manual.pdf")
    writer = pypdf.PdfWriter()
    writer.add_page(reader.pages[0])
    writer.encrypt(user_password="secret", owner_password="owner")
    path = tmp_path / "locked.pdf"
    with path.open("wb") as handle:
        writer.write(handle)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [path], collection="docs", chunk_tokens=220)
    assert (report.skipped, report.documents) == (1, 0)
    assert report.problems[0].path == str(path)
    assert report.problems[0].message == "encrypted PDF: a password is needed to read it"


def scanned_pdf(path: Path, text_pages: int) -> None:
    """A PDF whose last page is only an image (a scan), after ``text_pages`` pages of text."""
    image_pdf(path, "t" * text_pages + "s")


def image_pdf(path: Path, pages: str) -> None:
    """A PDF of one page per letter: ``t`` a page of text, ``s`` a scanned page of text (an image
    of lines of words, no text layer), ``p`` a picture (a dark square, no text layer)."""
    import ctypes

    import pypdfium2.raw as raw

    pdf = pdfium.PdfDocument.new()
    for number, kind in enumerate(pages):
        page = pdf.new_page(612, 792)
        if kind == "t":
            text = raw.FPDFPageObj_NewTextObj(pdf.raw, b"Helvetica", 11.0)
            words = f"Page {number + 1} holds real text about retention policies."
            encoded = ctypes.create_string_buffer((words + "\x00").encode("utf-16-le"))
            raw.FPDFText_SetText(text, ctypes.cast(encoded, ctypes.POINTER(ctypes.c_ushort)))
            raw.FPDFPageObj_Transform(text, 1, 0, 0, 1, 72, 400)
            raw.FPDFPage_InsertObject(page.raw, text)
            page.gen_content()
            continue
        image = pdfium.PdfImage.new(pdf)
        if kind == "s":  # a page of text as a scanner sees it: 30 lines of dark words on white
            bitmap = pdfium.PdfBitmap.new_native(612, 792, raw.FPDFBitmap_BGR)
            bitmap.fill_rect((250, 250, 248, 255), 0, 0, 612, 792)
            for row in range(30):
                x = 72
                while x < 520:
                    width = 18 + (row * 7 + x) % 40
                    bitmap.fill_rect((30, 30, 30, 255), x, 72 + row * 21, width, 9)
                    x += width + 6
            image.set_bitmap(bitmap)
            image.set_matrix(pdfium.PdfMatrix().scale(612, 792))
        else:
            bitmap = pdfium.PdfBitmap.new_native(40, 40, raw.FPDFBitmap_BGR)
            bitmap.fill_rect((90, 110, 70, 255), 0, 0, 40, 40)
            image.set_bitmap(bitmap)
            image.set_matrix(pdfium.PdfMatrix().scale(400, 400).translate(100, 200))
        page.insert_obj(image)
        page.gen_content()
    pdf.save(str(path))
    pdf.close()


def test_scanned_pages_are_reported_not_silently_empty(tmp_path: Path) -> None:
    path = tmp_path / "scan.pdf"
    scanned_pdf(path, 2)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [path], collection="docs", chunk_tokens=220)
    assert (report.documents, report.skipped, report.warnings, report.repaired) == (1, 0, 1, 0)
    assert report.problems[0].message.startswith("page 3: no text layer (a scanned image?)")
    only_scan = tmp_path / "only-scan.pdf"
    scanned_pdf(only_scan, 0)
    with pytest.raises(UnreadableDocument, match="no text layer on any page"):
        parse_pdf(only_scan.read_bytes())


def test_code_in_a_tex_typewriter_face_is_a_code_block_and_prose_that_begins_with_code_is_not() -> None:
    """The CamlIDL manual (LaTeX) sets its examples in CMTT10, whose font descriptor has no
    FixedPitch flag: they are code blocks, kept line by line; a line of prose that begins or
    ends with a word in that face stays prose."""
    document = parse_pdf(pdf_bytes("camlidl-manual.pdf"))
    codes = [document.text[b.start:b.end] for b in document.blocks if b.kind == "code"]
    assert "```\ntypedef struct { int x; } t;\nstruct s4 { struct { int x; } z; };\n```" in codes  # fenced
    assert "```\nenum e { A = 1, B = 2, C = 4 };\ntypedef [set] enum e eset;\n```" in codes
    assert not any("long_default attribute is in scope" in code for code in codes)
    prose = [document.text[b.start:b.end] for b in document.blocks if b.kind == "paragraph"]
    assert any("long_default attribute is in scope" in text for text in prose)


def test_quotes_of_a_tex_typewriter_face_read_as_typed() -> None:
    """TeX's typewriter faces draw `` ` `` and ``'`` with glyphs named quoteleft and quoteright, which PDFium reads as
    curly quotes: OCaml's type variables read ``type ’a iid`` (gnuplot's manual, ``plot ’file’ using 1:3``: task
    U9), which no compiler takes. They read as typed; a curly quote in the roman text ("Microsoft’s IDL") stays."""
    document = parse_pdf(pdf_bytes("camlidl-manual.pdf"))
    codes = [document.text[b.start:b.end] for b in document.blocks if b.kind == "code"]
    assert "```\ntype 'a iid\n```" in codes
    assert not any("’" in code or "‘" in code for code in codes)
    assert "Microsoft’s IDL" in document.text


def test_a_latex_run_in_paragraph_heading_is_split_from_its_text() -> None:
    """LaTeX sets a ``\\paragraph`` heading in bold at the start of its first line, the text going on in roman
    after a space ("Png If clew was built ..."), and hyperref makes it a bookmark: the section opened there but
    the line stayed whole, so every such section began with its heading twice (gnuplot's manual: 67 of 649
    sections, task U9). The bold run is the heading; a sentence that begins with the heading's word stays whole.
    A bookmark's underscores may be spaces on the page (``\\texorpdfstring``; gnuplot's "Using_examples" over "Using
    examples", 21 sections, whose heading was read twice, once as the bookmark's and once as text). A bold name may
    follow the heading in its bold run ("Timecolumn timecolumn(N) reads ..."), and the line may end in bold (gnuplot's
    "Bins smooth bins is the same as ... see smooth", read "Bins" twice; task R9)."""
    document = parse_pdf((PDFS / "latex-runin.pdf").read_bytes())
    assert [s.heading for s in document.sections][3:] == ["Png", "Pdf", "Arrays", "Using examples", "Timecolumn",
                                                          "Bins"]
    paragraphs = [document.text[b.start:b.end] for b in document.blocks if b.kind == "paragraph"]
    assert "If clew was built with an image reader, it reads PNG images as pictures. You can name the type:" in (
        paragraphs)
    assert "PDF files are read with their outline, tables and page numbers." in paragraphs
    assert "Arrays are stored as lists of passages, one per element." in paragraphs
    assert "This creates a corpus of the manuals in one folder." in paragraphs
    assert "timecolumn(N) reads the time in column N of a data file." in paragraphs
    assert any(text.startswith("smooth bins is the same as bins. See also smooth frequency,") for text in paragraphs)
    assert not any(text.startswith(("Png ", "Pdf ", "Arrays Arrays", "Using", "Timecolumn", "Bins")) for text in
                   paragraphs)
    assert "```\nclew ingest 'file.png' --type=png\n```" in document.text


def test_a_boxed_table_without_column_rules_is_a_table_and_framed_code_and_prose_are_not() -> None:
    """LaTeX's ``tabular{|ccl|}`` draws a box, a rule under the caption and the header, and no line between the
    columns: the finder saw one column and the rows read as one list item ("- -a unary minus ! !a logical negation
    ..."; gnuplot's 14 operator and format tables, task U9). Its columns are the bands no character crosses; the
    caption stays a line above it and is the table's title. A framed listing stays code and a framed paragraph
    text. A table ruled between its columns too, its caption a row of one cell across it (gnuplot's "Graph Border
    Encoding"), read with a title row "| Border Encoding |  |  |" over its header; now as the boxed one's (task R9)."""
    document = parse_pdf((PDFS / "latex-boxed-table.pdf").read_bytes())
    assert ("Unary Operators\n\n| Symbol | Example | Explanation |\n| --- | --- | --- |\n| - | -a | unary minus |\n"
            "| ! | !a | logical negation |\n| $ | $3 | the value of column 3 |") in document.text
    assert "```\nclew ingest docs/ --db docs.duckdb\n" in document.text
    prose = [document.text[b.start:b.end] for b in document.blocks if b.kind == "paragraph"]
    assert any(text.startswith("Every passage of an answer carries its evidence id") for text in prose)
    assert [b.kind for b in document.blocks].count("table_row") == 5
    assert [table.title for table in document.tables] == ["Unary Operators", "Border Encoding"]  # outline headings
    assert ("Border Encoding\n\n| Bit | plot | splot |\n| --- | --- | --- |\n| 1 | bottom | left front |\n"
            "| 2 | left | left back |") in document.text


def test_a_bar_in_a_pdf_or_docx_table_cell_is_escaped_as_the_html_reader_escapes_it() -> None:
    """gnuplot's operator table has a row "| |A| cardinality of array A" (the operator, its example): written into
    the pipe-table row as it was, it made five cells of three; the PDF and DOCX readers' rows now write a cell's
    ``|`` as ``\\|``, as the HTML reader does (reportlab's character tables, whose cells hold "|", alike)."""
    renderer = Renderer()
    renderer.table([["Symbol", "Example", "Explanation"], ["|", "|A|", "cardinality of array A"]], 1)
    assert renderer.document().text.endswith("| \\| | \\|A\\| | cardinality of array A |")
    document = parse_pdf(pdf_bytes("reportlab-userguide.pdf"))
    rows = [document.text[b.start:b.end] for b in document.blocks if b.kind == "table_row"]
    assert any("| [ { | \\| | ] } |" in row for row in rows)


def test_a_box_with_text_beside_it_is_not_read_as_a_table_of_its_own() -> None:
    """A box the finder sees alone may be one column of a larger grid whose other columns it did not join (the
    Debian Reference's table of mail commands: its "postfix command" column read as a table of two columns, the
    rest as text): a box with text beside it on its lines is left as text."""
    from clew.corpus.ingest.formats.pdf import _lines
    from clew.corpus.ingest.formats.pdf_boxes import ruled_grid
    from clew.corpus.ingest.formats.pdf_layout import Line
    from clew.corpus.ingest.formats.pdf_tables import ruled_tables
    from clew.corpus.ingest.parsed import Deadline

    pdf = pdfium.PdfDocument(PDFS / "latex-boxed-table.pdf")
    try:
        page = pdf[0]
        textpage = page.get_textpage()
        lines = _lines(page, textpage, Deadline(60), 0)
        textpage.close()
        grid = ruled_grid(page, page.get_height(), Deadline(60), 0)
        assert grid is not None
        (table,) = ruled_tables(pdf, [lines], {0: grid}, [], Deadline(60))[0]
        assert table.rows[0] == ["Symbol", "Example", "Explanation"]
        beside = Line("exim4 -q", lines[0].size, False, True, table.bottom - 2, table.x1 + 20)
        assert ruled_tables(pdf, [[*lines, beside]], {0: grid}, [], Deadline(60)) == {}
        warnings: list[str] = []  # a degenerate drawing: the page's tables are not read, its text stays
        assert ruled_tables(pdf, [lines], {0: "bad matrix"}, warnings, Deadline(60)) == {}
        assert warnings == ["page 1: tables not read (bad matrix); their text is kept as paragraphs"]
    finally:
        pdf.close()


def test_a_font_name_longer_than_the_first_buffer_is_read_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """PDFium's FPDFText_GetFontInfo writes the name only into a buffer long enough for it and returns the length
    it needs: a longer name (a subset prefix and a long family) was read as "" and its typewriter face lost."""
    import ctypes
    from types import SimpleNamespace

    import pypdfium2.raw as pdfium_c

    from clew.corpus.ingest.formats import pdf

    long_name = b"ABCDEF+" + b"SourceCodeProSemiboldItalicExtendedForDocumentation-" * 2 + b"Mono"
    assert len(long_name) > 96  # the first buffer's size (pdf.FONT_NAME_BYTES)

    def font_info(_page: object, _index: int, buffer: ctypes.Array[ctypes.c_char], buflen: int,
                  flags: ctypes.c_int) -> int:
        flags.value = 0  # no FixedPitch flag: only the name tells
        if buflen >= len(long_name) + 1:
            ctypes.memmove(buffer, long_name + b"\0", len(long_name) + 1)
        return len(long_name) + 1

    monkeypatch.setattr(pdfium_c, "FPDFText_GetFontInfo", font_info)
    name, fixed = pdf._font(SimpleNamespace(raw=None), 0)  # type: ignore[arg-type]
    assert name == long_name.decode().lower() and fixed
