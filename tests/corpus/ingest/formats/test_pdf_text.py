"""A PDF's characters as PDFium indexes them (task U16, a new user's trial on LuaTeX, LibreOffice and dblatex PDFs).

luaotfload's manual (LuaTeX 1.15) sets an emoji, U+1F600, in its font-features table; PDFium counts a character
outside the BMP as two character indexes, its UTF-16 surrogates, and the reader, reading such a page one index at a
time, kept them as two lone surrogates: ``clew ingest`` stopped with "UnicodeEncodeError: ... surrogates not
allowed" where the rows are written, and no document of the folder was stored. The PDFs here are written by hand,
a standard font with a ToUnicode map as TeX writes one (pypdfium2's ``FPDFText_SetText`` cannot map a code to a
character outside the BMP)."""

from __future__ import annotations

from clew.corpus.ingest.formats.pdf import parse_pdf


def cmap_pdf(lines: list[bytes], mapped: dict[int, str]) -> bytes:
    """One page of ``lines`` in Helvetica whose ToUnicode map reads ASCII as itself and each code of ``mapped`` as
    its text (UTF-16, surrogates and all)."""
    chars = b" ".join(b"<%02X> <%s>" % (code, text.encode("utf-16-be").hex().upper().encode())
                      for code, text in mapped.items())
    cmap = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Hand def "
            b"1 begincodespacerange <00> <FF> endcodespacerange "
            b"%d beginbfchar %s endbfchar 1 beginbfrange <20> <7E> <0020> endbfrange "
            b"endcmap CMapName currentdict /CMap defineresource pop end end" % (len(mapped), chars))
    content = b"BT /F1 11 Tf 72 700 Td 14 TL " + b" ".join(b"(" + line + b") '" for line in lines) + b" ET"
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> "
               b"/Contents 5 0 R >>",
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>",
               b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
               b"<< /Length %d >>\nstream\n%s\nendstream" % (len(cmap), cmap)]
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def test_a_character_outside_the_bmp_is_read_whole_and_the_text_is_utf8() -> None:
    data = cmap_pdf([b"Emoji like \x80 need a colour font such as \x81.", b"The next line is plain text."],
                    {0x80: "\U0001F600", 0x81: "Noto \u00C9moji"})
    text = parse_pdf(data).text
    text.encode("utf-8")  # lone surrogates: UnicodeEncodeError, as the ingest met it
    assert "Emoji like \U0001F600 need a colour font such as Noto \u00C9moji. The next line is plain text." in text
