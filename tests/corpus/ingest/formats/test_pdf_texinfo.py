"""Texinfo's PDF (pdfTeX) as R's manuals are printed (Debian's r-doc-pdf 4.2.2: R-intro.pdf, R-admin.pdf): the
faults a new user met (task U4), each on a generated page of the same shape. The PDFs are written here with
pypdfium2's standard fonts: ZapfDingbats for the example frame's corners, as PDFium reads pdfTeX's circle font."""

from __future__ import annotations

import ctypes
import io

import pypdfium2 as pdfium
import pypdfium2.raw as raw

from clew.corpus.ingest.formats.pdf import parse_pdf

HEIGHT = 792.0


def put(pdf: pdfium.PdfDocument, page: pdfium.PdfPage, text: str, size: float, x: float, top: float,
        font: bytes = b"Helvetica") -> float:
    """Text at ``x`` with its baseline ``top`` below the page's top; returns its right edge."""
    obj = raw.FPDFPageObj_NewTextObj(pdf.raw, font, size)
    encoded = ctypes.create_string_buffer((text + "\x00").encode("utf-16-le"))
    raw.FPDFText_SetText(obj, ctypes.cast(encoded, ctypes.POINTER(ctypes.c_ushort)))
    raw.FPDFPageObj_Transform(obj, 1, 0, 0, 1, x, HEIGHT - top)
    raw.FPDFPage_InsertObject(page.raw, obj)
    left, bottom, right, up = ctypes.c_float(), ctypes.c_float(), ctypes.c_float(), ctypes.c_float()
    raw.FPDFPageObj_GetBounds(obj, ctypes.byref(left), ctypes.byref(bottom), ctypes.byref(right), ctypes.byref(up))
    return float(right.value)


def blocks(*, note: bool) -> list[str]:
    """One page of R-admin's shape: an example in a frame, a name broken after its underscore, a footnote mark
    raised after "setting" (with its note at the page's foot where ``note``)."""
    pdf = pdfium.PdfDocument.new()
    page = pdf.new_page(612, HEIGHT)
    put(pdf, page, "Input file form with names and row labels:", 11, 72, 100)
    put(pdf, page, "\u261b \u271f", 11, 72, 120, b"ZapfDingbats")
    put(pdf, page, "Price Floor Area", 11, 90, 140, b"Courier")
    put(pdf, page, "\u2721 \u2720", 11, 72, 160, b"ZapfDingbats")
    put(pdf, page, "Libraries are specified by the environment variable R_", 11, 72, 200)
    end = put(pdf, page, "LIBS_USER or by setting", 11, 72, 214)
    put(pdf, page, "2", 7, end + 0.5, 210)
    put(pdf, page, ", or by the startup files.", 11, end + 5, 214)
    put(pdf, page, "Define __CYGWIN__", 11, 72, 260)
    put(pdf, page, "FreeBSD: __FreeBSD__ (two underscores end a name)", 11, 72, 274)
    put(pdf, page, "There are also constants NA_integer_, NA_real_", 11, 72, 320)
    put(pdf, page, "and NA_character_ of the other types.", 11, 72, 334)
    if note:
        put(pdf, page, "2", 7, 72, 700)
        put(pdf, page, "Its binding is locked once the startup files have been read.", 9, 78, 704)
    page.gen_content()
    buffer = io.BytesIO()
    pdf.save(buffer)
    pdf.close()
    document = parse_pdf(buffer.getvalue())
    return [document.text[b.start:b.end] for b in document.blocks]


def test_texinfo_example_frame_corners_are_no_text() -> None:
    """pdfTeX draws texinfo's example frame with a circle font's corners, which PDFium reads as "☛ ✟" above
    the example and "✡ ✠" below it: lines of them alone were paragraphs (R-intro's data-frame example)."""
    read = blocks(note=True)
    assert read[:2] == ["Input file form with names and row labels:", "```\nPrice Floor Area\n```"]
    assert not any(set(b) & set("\u261b\u271f\u2721\u2720") for b in read)


def test_a_name_broken_after_its_underscore_is_joined_and_a_footnote_mark_is_bracketed() -> None:
    """pdfTeX breaks ``@env{R_LIBS_USER}`` after an underscore without a hyphen: the lines joined with a space
    ("R_ LIBS_USER"); a name ending in two underscores is a whole name, and so is one before a plain word. A
    footnote mark set raised and smaller after a word, whose note begins a line at the page's foot, was glued to
    it ("setting2"): it reads " [2]", as the HTML reader reads marks."""
    read = blocks(note=True)
    said = "Libraries are specified by the environment variable R_LIBS_USER or by setting"
    assert f"{said} [2], or by the startup files." in read  # PDFium's line ended at the mark: the comma follows it
    assert "Define __CYGWIN__ FreeBSD: __FreeBSD__ (two underscores end a name)" in read
    assert "There are also constants NA_integer_, NA_real_ and NA_character_ of the other types." in read
    # without a note of that number on the page the raised digit is no mark (R-intro's exponent "σ2")
    assert f"{said}2 , or by the startup files." in blocks(note=False)


def read_page(lines: list[tuple[str, float, float, bytes]]) -> list[str]:
    """The blocks of one generated page of 11-pt lines: (text, x, baseline from the top, font)."""
    pdf = pdfium.PdfDocument.new()
    page = pdf.new_page(612, HEIGHT)
    for text, x, top, font in lines:
        put(pdf, page, text, 11, x, top, font)
    page.gen_content()
    buffer = io.BytesIO()
    pdf.save(buffer)
    pdf.close()
    document = parse_pdf(buffer.getvalue())
    return [document.text[b.start:b.end] for b in document.blocks]


CODE, PROSE = b"Courier", b"Helvetica"


def test_a_tables_term_on_a_line_of_its_own_is_a_paragraph_not_code() -> None:
    """Texinfo's ``@vtable @code`` in pdfTeX (the Bash Reference Manual's variables and options, task E7): a term
    longer than the table's indent is set in typewriter on a line of its own, its description indented under it.
    It was a one-line code block ("```\\nHISTCONTROL\\n```"), which the extract scores as code and left out (the
    answer of four of the eight section questions of evals/pdf-docs); after an example it joined the example's
    fence. It reads as the HTML reader reads a ``<dt>``: a paragraph of its own before its description."""
    read = read_page([
        ("Bash uses the following variables.", 72, 100, PROSE),
        ("HISTCONTROL", 72, 120, CODE),
        ("A colon-separated list of values controlling how", 129.6, 133, PROSE),
        ("commands are saved on the history list.", 129.6, 146, PROSE),
        ("select fname in *;", 158.4, 166, CODE),
        ("done", 158.4, 179, CODE),
        ("HISTFILESIZE", 72, 198, CODE),
        ("The maximum number of lines contained in the history file.", 129.6, 211, PROSE),
    ])
    assert read == ["Bash uses the following variables.", "HISTCONTROL",
                    "A colon-separated list of values controlling how commands are saved on the history list.",
                    "```\nselect fname in *;\ndone\n```", "HISTFILESIZE",
                    "The maximum number of lines contained in the history file."]


def test_a_code_line_before_an_indented_first_line_of_prose_stays_code() -> None:
    """A one-line example at the margin followed by a paragraph whose first line is indented (LaTeX's
    ``\\parindent``) and whose next line is back at the margin is code, not a term; so is a code line followed by
    prose at its own edge."""
    read = read_page([
        ("make install", 72, 100, CODE),
        ("The files are then copied to their places under", 87, 113, PROSE),
        ("the prefix given to configure.", 72, 126, PROSE),
        ("make check", 72, 146, CODE),
        ("runs the test suite.", 72, 159, PROSE),
    ])
    assert read == ["```\nmake install\n```",
                    "The files are then copied to their places under the prefix given to configure.",
                    "```\nmake check\n```", "runs the test suite."]


def test_a_tables_terms_open_sections_under_the_section_around_the_table() -> None:
    """Each term of such a table opens a section one level below the section around the table, as the HTML reader
    opens one a ``<dt>`` (``html_terms``): the HTML of the same manual (bash-doc's bashref.html) gives each variable
    and option a section, the PDF gave 40 chunks of "5.2 Bash Variables" holding six terms each, and the walk and
    BM25 found less in it (task P1). The description is its term's; the paragraph after the table, its first line
    indented and its next back at the margin, is the section's around it again. The term is written as HTML's is,
    its name alone, with no heading marks."""
    pdf = pdfium.PdfDocument.new()
    page = pdf.new_page(612, HEIGHT)
    put(pdf, page, "5.2 Bash Variables", 14, 72, 80)
    for text, x, top, font in [
        ("Bash uses the following variables.", 72, 100, PROSE),
        ("HISTCONTROL", 72, 120, CODE),
        ("A colon-separated list of values controlling how", 129.6, 133, PROSE),
        ("commands are saved on the history list.", 129.6, 146, PROSE),
        ("HISTFILESIZE", 72, 166, CODE),
        ("The maximum number of lines contained in the history file.", 129.6, 179, PROSE),
        ("In some cases, Bash assigns a default value to a", 87, 199, PROSE),
        ("variable; these cases are noted above.", 72, 212, PROSE),
    ]:
        put(pdf, page, text, 11, x, top, font)
    page.gen_content()
    buffer = io.BytesIO()
    pdf.save(buffer)
    pdf.close()
    document = parse_pdf(buffer.getvalue())
    sections = document.sections
    placed = [(document.text[b.start:b.end], sections[b.section].heading) for b in document.blocks]
    assert placed == [
        ("# 5.2 Bash Variables", "5.2 Bash Variables"),
        ("Bash uses the following variables.", "5.2 Bash Variables"),
        ("HISTCONTROL", "HISTCONTROL"),
        ("A colon-separated list of values controlling how commands are saved on the history list.", "HISTCONTROL"),
        ("HISTFILESIZE", "HISTFILESIZE"),
        ("The maximum number of lines contained in the history file.", "HISTFILESIZE"),
        ("In some cases, Bash assigns a default value to a variable; these cases are noted above.",
         "5.2 Bash Variables"),
    ]
    around = next(i for i, s in enumerate(sections) if i and s.heading == "5.2 Bash Variables")  # 0: the root
    terms = [s for s in sections if s.heading.startswith("HIST")]
    assert [(s.level, s.parent) for s in terms] == [(sections[around].level + 1, around)] * 2
    assert terms[1].end == document.blocks[-2].end  # the table ends with its last description
