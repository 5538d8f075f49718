"""A PDF's characters as PDFium indexes them (task U16, a new user's trial on LuaTeX, LibreOffice and dblatex PDFs).

luaotfload's manual (LuaTeX 1.15) sets an emoji, U+1F600, in its font-features table; PDFium counts a character
outside the BMP as two character indexes, its UTF-16 surrogates, and the reader, reading such a page one index at a
time, kept them as two lone surrogates: ``clew ingest`` stopped with "UnicodeEncodeError: ... surrogates not
allowed" where the rows are written, and no document of the folder was stored. The PDFs here are written by hand,
a standard font with a ToUnicode map as TeX writes one (pypdfium2's ``FPDFText_SetText`` cannot map a code to a
character outside the BMP)."""

from __future__ import annotations

import math

from clew.corpus.ingest.formats.pdf import parse_pdf


def hand_pdf(pages: list[bytes], mapped: dict[int, str] | None = None) -> bytes:
    """A PDF of one page per content stream, with two fonts: ``/F1`` Helvetica, whose ToUnicode map reads ASCII as
    itself and each code of ``mapped`` as its text (UTF-16, surrogates and all), and ``/F2`` Courier."""
    mapped = mapped or {}
    chars = b" ".join(b"<%02X> <%s>" % (code, text.encode("utf-16-be").hex().upper().encode())
                      for code, text in mapped.items())
    cmap = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Hand def "
            b"1 begincodespacerange <00> <FF> endcodespacerange "
            b"%d beginbfchar %s endbfchar 1 beginbfrange <20> <7E> <0020> endbfrange "
            b"endcmap CMapName currentdict /CMap defineresource pop end end" % (len(mapped), chars))
    count = len(pages)
    kids = b" ".join(b"%d 0 R" % (6 + 2 * n) for n in range(count))
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, count),
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 5 0 R >>",
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>",
               b"<< /Length %d >>\nstream\n%s\nendstream" % (len(cmap), cmap)]
    for n, content in enumerate(pages):
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R "
                       b"/F2 4 0 R >> >> /Contents %d 0 R >>" % (7 + 2 * n))
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content))
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def lines(*texts: bytes, top: int = 700, size: int = 11) -> bytes:
    """A content stream of ``texts`` in ``/F1``, one a line from ``top`` down (a text may switch fonts itself)."""
    shown = b" ".join(b"T* (" + text + b") Tj" for text in texts)
    return b"BT /F1 %d Tf 72 %d Td %d TL %s ET" % (size, top, size + 3, shown)


def test_a_character_outside_the_bmp_is_read_whole_and_the_text_is_utf8() -> None:
    data = hand_pdf([lines(b"Emoji like \x80 need a colour font such as \x81.", b"The next line is plain text.")],
                    {0x80: "\U0001F600", 0x81: "Noto \u00C9moji"})
    text = parse_pdf(data).text
    text.encode("utf-8")  # lone surrogates: UnicodeEncodeError, as the ingest met it
    assert "Emoji like \U0001F600 need a colour font such as Noto \u00C9moji. The next line is plain text." in text


def test_a_hyphen_the_author_typed_at_a_line_end_is_kept_and_the_line_breakers_is_dropped() -> None:
    """PDFium marks every hyphen that ends a line after a letter as a soft one; the reader dropped them all, so
    luaotfload's manual read ``luaotfloadblacklist.cnf`` (question L5 found nothing) and Gutenprint's
    ``--disablestatic`` and ``pre1999``. A word broken by the line breaker still reads whole."""
    text = parse_pdf(hand_pdf([lines(
        b"Take note of the font and append its file name to the file luaotfload-",
        b"blacklist.cnf; luaotfload reads every luaotfload-blacklist.cnf it finds, the",
        b"global one and the one in the document's folder. A line is hyphen-",
        b"ated when it is full. Old \\(pre-",
        b"1999\\) printers and the LuaTeX-",
        b"Fonts package need ) Tj /F2 11 Tf (--disable-) Tj /F1 11 Tf (",
        b"static, a flag set in a fixed-pitch face."),
    ])).text
    assert "append its file name to the file luaotfload-blacklist.cnf; luaotfload reads" in text
    assert "A line is hyphenated when it is full. Old (pre-1999) printers and the LuaTeX-Fonts package" in text
    assert "need --disable-static, a flag" in text


def test_a_hyphen_that_ends_a_page_or_meets_a_footnote_is_weighed_with_the_words_that_go_on() -> None:
    """PDFium leaves the hyphen that ends a page unmarked (gnuplot's "hex-" over page 239's "adecimal"), and joins a
    hyphenated line to what is set under it, however far or small: luaotfload's "character pro" and its page number
    "16" read "pro16", "only sup" and its footnote "8See http://..." read "sup8See"."""
    footnote = b" ET BT /F1 7 Tf 72 672 Td (8See the list of script tags.) Tj ET"
    text = parse_pdf(hand_pdf([
        lines(b"Colours may be named as in the file on your system, or written in hex-"),
        lines(b"adecimal, as 00ff00 for green. Variable fonts are only sup-")[:-3] + footnote,
        lines(b"ported in base mode."),
    ])).text
    assert "written in hexadecimal, as 00ff00 for green." in text
    assert "sup8See" not in text and "sup-8See" not in text
    assert "8See the list of script tags." in text or "[8] See the list" in text


def test_page_numbers_set_a_little_inside_the_footer_band_are_dropped() -> None:
    """luaotfload's manual (LuaTeX, A4) prints its page numbers 89% down the page, above the bottom tenth where running
    lines were looked for: 43 of its 50 numbers were paragraphs ("11" between two passages), one joined to the next
    page's first line ("24 luaotfload-tool --help will list ..."). A number at that height on three pages or more,
    running with the page index, is the page's; a number there on one page only is text."""
    def page(number: int, words: bytes) -> bytes:
        return lines(words) + b" BT /F1 10 Tf 300 87 Td (%d) Tj ET" % number

    text = parse_pdf(hand_pdf([
        page(1, b"Fonts are loaded by name or by file name."),
        page(2, b"luaotfload-tool --help will list the switches."),
        page(3, b"Blacklisted fonts are skipped."),
        lines(b"The answer is below.") + b" BT /F1 10 Tf 300 87 Td (42) Tj ET",
    ])).text
    assert not any(line.strip() in {"1", "2", "3"} for line in text.splitlines())
    assert "3 luaotfload" not in text and "2 luaotfload" not in text
    assert "42" in text


def test_a_word_processors_bullet_in_a_smaller_symbol_font_heads_one_list_item() -> None:
    """LibreOffice Writer (Gutenprint's manual) sets each bullet, ``●``, in OpenSymbol at 9 pt before 12-pt text, the
    item's lines hanging under the text: the first line was measured by the bullet, so each item read as two blocks,
    "● Fast This algorithm also produces output with very strong diagonal patterns, and is also" and "quite fast. ..."
    (148 items). A bulleted line's first words in a fixed-pitch face (``● -i Display ...``) do not make it code."""
    def item(top: int, first: bytes, *more: bytes) -> bytes:
        rest = b" ".join(b"0 -16 Td (" + line + b") Tj" for line in more)
        return b"BT /F1 9 Tf 110 %d Td (\xb7) Tj /F1 12 Tf 18 0 Td (" % top + first + b") Tj " + rest + b" ET "

    text = parse_pdf(hand_pdf([
        b"BT /F1 12 Tf 72 720 Td (The following algorithms are available.) Tj ET "
        + item(690, b"Fast This algorithm also produces output with very", b"strong diagonal patterns, and is fast.")
        + item(640, b"EvenTone This algorithm yields excellent smoothness in all", b"tones, and suits photographs.")
        + b"BT /F1 9 Tf 110 590 Td (\xb7) Tj /F2 12 Tf 18 0 Td (-i) Tj /F1 12 Tf ( Display the ink left.) Tj ET",
    ], {0xB7: "\u25cf"})).text
    assert "\u25cf Fast This algorithm also produces output with very strong diagonal patterns, and is fast." in text
    assert "\u25cf EvenTone This algorithm yields excellent smoothness in all tones, and suits photographs." in text
    assert "\u25cf -i Display the ink left." in text and "```" not in text


def test_a_bookmark_set_before_a_page_break_opens_at_its_heading_atop_the_next_page() -> None:
    """hyperref may set a section's anchor at the foot of a page and its heading atop the next (luaotfload's "2.13 New
    in version 3.11", 4 of its 71 sections): the section opened below the page's last line, empty, and its printed
    heading was the first paragraph of the section before."""
    from tests.corpus.ingest.formats.test_pdf_structure import Bookmark, body, make_pdf, section, text_of

    document = parse_pdf(make_pdf([
        [("2.12 New in version 3.12", 14.0, 90), *body(120, "The color key accepts a table.")],
        [("2.13 New in version 3.11", 14.0, 90), *body(120, "Variable fonts are supported in node mode.")],
    ], [Bookmark("2.12 New in version 3.12", 0, 0, 80), Bookmark("2.13 New in version 3.11", 0, 0, 700)]))
    assert text_of(document, section(document, "2.12 New in version 3.12")).endswith("The color key accepts a table.")
    assert "Variable fonts are supported" in text_of(document, section(document, "2.13 New in version 3.11"))
    assert document.text.count("2.13 New in version 3.11") == 1


def test_a_paragraph_goes_on_after_a_line_that_pdfium_joined_at_a_hyphen() -> None:
    """PDFium reads the two lines around a line-end hyphen as one, measured from the first: the next line lay two
    leadings under it, and the paragraph was cut there ("... Fontconfig configuration files;" over "consult man 5
    fonts.conf ..." in luaotfload's manual; its blocks 749 -> 689, gnuplot's 5,211 -> 5,147, camlidl's 274 -> 255)."""
    text = parse_pdf(hand_pdf([lines(
        b"luaotfload scans the directories where fonts are expected on a given sys-",
        b"tem. On a Linux machine it follows the Fontconfig configuration files;",
        b"consult the manual page for further information.",
    )])).text
    assert text == ("luaotfload scans the directories where fonts are expected on a given system. On a Linux machine "
                    "it follows the Fontconfig configuration files; consult the manual page for further information.")


def test_a_footnote_whose_number_is_raised_and_smaller_is_one_paragraph_and_its_mark_is_found() -> None:
    """LuaTeX's footnotes (luaotfload's manual) open with their number raised, smaller than the note and with no space:
    PDFium reads "17You may have to run ...", which was no note to the mark in the text ("Live,17"), and the note's
    first line was measured by its number, so the note read as two paragraphs. The note is one paragraph now, and the
    mark "[17]" (17 of the manual's marks found where none was). The note's number reads apart from its text (P1)."""
    text = parse_pdf(hand_pdf([
        b"BT /F1 10 Tf 72 700 Td (Place this file where kpse finds it if you are running Live,) Tj "
        b"/F1 6 Tf 4 Ts (17) Tj 0 Ts /F1 10 Tf ( or just leave it in the working) Tj 0 -12 Td "
        b"(directory of your document. luaotfload reads all files named so.) Tj ET "
        b"BT /F1 6 Tf 72 103 Td (17) Tj ET BT /F1 8 Tf 78 100 Td (You may have to run mktexlsr if you created a "
        b"new file in your) Tj 0 -10 Td (texmf tree, as the manual says.) Tj ET",
    ])).text
    assert "if you are running Live, [17] or just leave it in the working directory" in text
    assert "17 You may have to run mktexlsr if you created a new file in your texmf tree, as the manual says." in text


def test_a_margin_note_on_a_lines_baseline_is_a_paragraph_after_the_one_it_stands_beside() -> None:
    """luaotfload's manual sets "New in 3.12" and "NEW in v3.12!" in the margin beside the line they annotate; PDFium
    joins the note to that line without a space ("so youNew in 3.12", "color dec-NEW in v3.12!" over "larations"), and
    the sentences read with the note inside them (8 in the manual). The note is cut off and follows the paragraph."""
    text = parse_pdf(hand_pdf([
        b"BT /F1 10 Tf 170 700 Td [(Many shaping rules are implemented only for specific scripts and so you) 46000 "
        b"(New in 3.12)] TJ 0 -12 Td [(get correct typesetting only if the script is set. The color key takes a table "
        b"with color dec-) 52000 (NEW in v3.12!)] TJ 0 -12 Td (larations of glyphs.) Tj "
        b"ET",
    ])).text
    assert text == ("Many shaping rules are implemented only for specific scripts and so you get correct typesetting "
                    "only if the script is set. The color key takes a table with color declarations of glyphs.\n\n"
                    "New in 3.12\n\nNEW in v3.12!")


def test_a_soft_hyphen_is_weighed_by_the_documents_compounds_and_words() -> None:
    """``settle_hyphens`` reads the compounds on the lines with a hyphen and the words (first halves of soft-hyphenated
    words left out) once a pair is met (task P5): a hyphen is the author's where the document writes the compound
    and never the joined word, or a digit follows; not where it writes the word whole too."""
    from clew.corpus.ingest.formats.pdf_hyphens import settle_hyphens
    from clew.corpus.ingest.formats.pdf_layout import Line

    texts = ["Re-entry, reentry and luaotfload-blacklist.cnf are written so;", "a re\xad", "entry, the luaotfload\xad",
             "blacklist.cnf, co\xadoperate and pre\xad1999 black\xadout.", "Black"]
    lines = [Line(text, 10.0, False, False, 100.0 + 12 * at, 72.0) for at, text in enumerate(texts)]
    settle_hyphens([lines[:3], lines[3:]])
    assert [line.text for line in lines[1:4]] == [
        "a re\xad", "entry, the luaotfload-", "blacklist.cnf, co\xadoperate and pre-1999 black\xadout."]


def spaced_lines(texts: list[bytes], leadings: list[float], size: float = 10.5) -> bytes:
    """A content stream of ``texts`` in ``/F1`` at ``size``, each set ``leadings[n]`` below the one before."""
    shown = b" ".join(b"0 -%.2f Td (%s) Tj" % (leading, text) for leading, text in zip(leadings, texts, strict=True))
    return b"BT /F1 %.1f Tf 48 760 Td %s ET" % (size, shown)


def test_lines_set_one_and_a_half_sizes_apart_join_into_paragraphs() -> None:
    """Asciidoctor PDF (Prawn, task U21) sets 10.5-pt lines 15.78 pt apart, 1.503 sizes, and paragraphs 27.8 pt
    apart: past the rule's 1.5 sizes, so that every line was a paragraph of its own and the extract quoted half
    sentences ("We'll use this command to install"). Where the lines that wrapped (those filling the text block) are
    set so, a paragraph ends at a gap wider than 1.15 times that leading. LaTeX's 1.2 sizes are untouched."""
    full = [b"You can install Asciidoctor PDF using the gem install command. We will use this command to install",
            b"the Asciidoctor PDF gem named asciidoctor-pdf that is published on RubyGems.org. Pass the name of",
            b"the gem to the gem install command as follows, then check the version of Ruby it reports to you",
            b"before you go on."]
    other = [b"Installing Asciidoctor PDF will install a number of other gems mentioned in these docs, including",
             b"asciidoctor, prawn, prawn-svg, prawn-table, prawn-icon, and ttfunk. For the most part, the versions",
             b"of these dependencies are locked to the version of Asciidoctor PDF. The patch versions are allowed",
             b"to vary."]
    document = parse_pdf(hand_pdf([spaced_lines(full + other, [15.78] * 4 + [27.78] + [15.78] * 3)]))
    paragraphs = [block for block in document.blocks if block.kind == "paragraph"]
    assert len(paragraphs) == 2
    assert "We will use this command to install the Asciidoctor PDF gem named asciidoctor-pdf" in document.text
    assert "before you go on.\n\nInstalling Asciidoctor PDF" in document.text
    tight = parse_pdf(hand_pdf([spaced_lines(full + other, [12.6] * 4 + [16.5] + [12.6] * 3)]))
    assert len([block for block in tight.blocks if block.kind == "paragraph"]) == 2  # 1.2 sizes: the rule as it was


def test_an_icon_fonts_glyph_alone_on_its_line_is_no_text() -> None:
    """Asciidoctor PDF sets a 24-pt Font Awesome icon left of each admonition (U+F05A, a private-use character,
    beside a note): read as a line of its own, a heading "# \uf05a" where larger than the text, a paragraph of that
    character alone in the README's layout, which the extract quoted as an empty sentence (task U21). A private-use
    character inside a line of text stays."""
    page = (b"BT /F1 11 Tf 72 700 Td (Read the notes below before you install it.) Tj ET "
            b"BT /F1 24 Tf 66 640 Td (\xa1) Tj ET "
            b"BT /F1 11 Tf 120 652 Td (The documentation for the latest release is online.) Tj ET "
            b"BT /F1 11 Tf 72 600 Td (Press \xa1 to open it.) Tj ET")
    document = parse_pdf(hand_pdf([page], {0xA1: "\uf05a"}))
    assert document.text == ("Read the notes below before you install it.\n\n"
                             "The documentation for the latest release is online.\n\nPress \uf05a to open it.")
    assert [section.heading for section in document.sections[1:]] == []


def test_newtxtts_typewriter_face_sets_code() -> None:
    """Sphinx's LaTeX with TeX Gyre (Why3's manual, task U21) sets its code in newtxtt's ``t1xtt``, a font without
    the FixedPitch flag whose name no pattern knew: it had no code block (805 now), a shell session one line
    ("> cd examples > why3 replay ... 1/1 (replay OK)"). The font is renamed in place here (the same length keeps the
    file's offsets), so that only its name tells it."""
    page = (b"BT /F1 10 Tf 72 700 Td (Installation can be tested as follows:) Tj ET "
            b"BT /F2 10 Tf 72 680 Td (> cd examples) Tj ET "
            b"BT /F2 10 Tf 72 668 Td (> why3 replay logic/scottish-private-club) Tj ET "
            b"BT /F2 10 Tf 72 656 Td (1/1 \\(replay OK\\)) Tj ET "
            b"BT /F1 10 Tf 72 630 Td (The Why3 executable files are then available.) Tj ET")
    document = parse_pdf(hand_pdf([page]).replace(b"/BaseFont /Courier", b"/BaseFont /t1xtt10"))
    assert "```\n> cd examples\n> why3 replay logic/scottish-private-club\n1/1 (replay OK)\n```" in document.text
    assert [block.kind for block in document.blocks] == ["paragraph", "code", "paragraph"]


def test_a_code_blocks_lines_keep_their_indentation() -> None:
    """Why3's listings (task U21) lost their indentation: ``variant { n - pos }`` set two characters right of ``let
    rec bt_queens ...`` read flush left. Each line is indented by its left edge's distance from the block's
    leftmost, in the block's character width (Courier 10 pt: 6 pt)."""
    page = (b"BT /F1 10 Tf 72 700 Td (The function is defined as follows:) Tj ET "
            b"BT /F2 10 Tf 72 680 Td (let rec bt_queens \\(board: array int\\) \\(n: int\\) : unit) Tj ET "
            b"BT /F2 10 Tf 84 668 Td (variant { n - pos }) Tj ET "
            b"BT /F2 10 Tf 84 656 Td (ensures { forall b:array int. length b = n ->) Tj ET "
            b"BT /F2 10 Tf 108 644 Td (not \\(solution b n\\) }) Tj ET "
            b"BT /F2 10 Tf 72 632 Td (=) Tj ET "
            b"BT /F1 10 Tf 72 610 Td (Its variant ensures termination.) Tj ET")
    document = parse_pdf(hand_pdf([page]))
    assert ("```\nlet rec bt_queens (board: array int) (n: int) : unit\n  variant { n - pos }\n"
            "  ensures { forall b:array int. length b = n ->\n      not (solution b n) }\n=\n```") in document.text


def test_a_blank_line_inside_a_code_block_does_not_split_it() -> None:
    """Why3's listings (task U21) set a blank line between declarations, two leadings (24 pt at 10 pt): past the
    paragraph gap, so that ``theory HelloProof``, each ``goal`` and ``end`` were five code blocks. A code line up
    to 2.5 sizes under the last goes on in the same block after a blank line; text after the code still ends it."""
    page = (b"BT /F1 10 Tf 72 700 Td (Here is our first Why3 file:) Tj ET "
            b"BT /F2 10 Tf 72 680 Td (theory HelloProof) Tj ET "
            b"BT /F2 10 Tf 84 656 Td (goal G1: true) Tj ET "
            b"BT /F2 10 Tf 84 632 Td (goal G2: \\(true -> false\\)) Tj ET "
            b"BT /F2 10 Tf 72 608 Td (end) Tj ET "
            b"BT /F1 10 Tf 72 584 Td (Any declaration must occur inside a theory.) Tj ET "
            b"BT /F2 10 Tf 72 560 Td (theory Other) Tj ET")
    document = parse_pdf(hand_pdf([page]))
    assert "```\ntheory HelloProof\n\n  goal G1: true\n\n  goal G2: (true -> false)\n\nend\n```" in document.text
    assert [block.kind for block in document.blocks] == ["paragraph", "code", "paragraph", "code"]


def test_character_angles_either_side_of_zero_are_no_turn() -> None:
    # PDFium gives a glyph's angle from 0 to 2 pi: a glyph tilted a hair below upright reads 6.27, one a hair above
    # 0.01; both are upright, so a line holding both is not cut where it "turns" (R12's left, the V4 review).
    from clew.corpus.ingest.formats.pdf_hyphens import turned

    assert not turned(6.27, 0.01)
    assert not turned(0.0, math.tau - 0.05)
    assert turned(0.0, math.pi / 2)
    assert turned(6.27, math.pi / 2)
    assert turned(0.0, 0.1)


def test_a_glyph_read_as_a_control_character_is_no_text() -> None:
    """A TeX font without Unicode reads its glyphs as their codes: maximabook's brace (cmex10) is U+0014, 243 times,
    a dingbat before Harald Harders' address in TUGboat's babelbib paper U+0005 (task S4's sweep)."""
    data = hand_pdf([lines(b"The roots are \x80 x = 1, x = 2 of the \x81 equation.")], {0x80: "\x14", 0x81: "\x05"})
    assert "The roots are x = 1, x = 2 of the equation." in parse_pdf(data).text
