"""Tables set by space alone, without a box or a rule (``pdf_columns``; task R12, U16's leftover on luaotfload's
manual). The PDFs are written by hand (``test_pdf_text.hand_pdf``)."""

from __future__ import annotations

from clew.corpus.ingest.formats.pdf import parse_pdf
from tests.corpus.ingest.formats.test_pdf_text import hand_pdf

PROSE = (b"luaotfload scans the directories where fonts are expected to be located on a given system. On a Linux",
         b"machine it follows the paths listed in the Fontconfig configuration files; consult the manual page for",
         b"further information. Other paths can be specified by setting the environment variable OSFONTDIR.")


def page(rows: list[tuple[int, bytes, bytes]], *, after: bytes = b"The list is searched in this order.") -> bytes:
    """Three lines of prose, then ``rows`` (x of the first column, its text, the text at x 150 in Courier: a row
    whose first column is empty is a wrapped cell), then a line of prose."""
    prose = b"BT /F1 10 Tf 72 720 Td 12 TL " + b" ".join(b"(" + line + b") ' " for line in PROSE) + b"ET "
    lines = []
    for at, (x, first, second) in enumerate(rows):
        y = 660 - 12 * at
        if first:
            lines.append(b"BT /F1 10 Tf %d %d Td (%s) Tj ET" % (x, y, first))
        if second:
            lines.append(b"BT /F2 10 Tf 150 %d Td (%s) Tj ET" % (y, second))
    return prose + b" ".join(lines) + b" BT /F1 10 Tf 72 %d Td (%s) Tj ET" % (640 - 12 * len(rows), after)


def test_a_table_without_rules_whose_columns_align_is_a_table_its_wrapped_cells_joined() -> None:
    """luaotfload's table 1 (font paths by system) has no rule: it read as a paragraph and code blocks, "Windows
    %WINDIR%\\Fonts Linux /usr/local/etc/fonts/fonts.conf and" over "/etc/fonts/fonts.conf" (question L3's extract
    quoted these rows). Its columns start at the same x in three rows: a table, a wrapped cell in its row."""
    document = parse_pdf(hand_pdf([page([
        (72, b"Windows", b"%WINDIR%\\\\Fonts"),
        (72, b"Linux", b"/usr/local/etc/fonts/fonts.conf and"),
        (72, b"", b"/etc/fonts/fonts.conf"),
        (72, b"Mac", b"~/Library/Fonts, /Library/Fonts,"),
        (72, b"", b"/Network/Library/Fonts"),
    ])]))
    assert len(document.tables) == 1
    assert [(block.kind, document.text[block.start : block.end]) for block in document.blocks[1:]] == [
        ("table_header", "| Windows | %WINDIR%\\Fonts |\n| --- | --- |"),
        ("table_row", "| Linux | /usr/local/etc/fonts/fonts.conf and /etc/fonts/fonts.conf |"),
        ("table_row", "| Mac | ~/Library/Fonts, /Library/Fonts, /Network/Library/Fonts |"),
        ("paragraph", "The list is searched in this order.")]


def test_lines_whose_columns_are_not_certain_stay_text_in_reading_order() -> None:
    """A bulleted list (a column of the same glyph), a second column filled in one row of three, and two rows only
    are no table: their lines read as before."""
    bullets = parse_pdf(hand_pdf([page([(72, b"-", b"first item"), (72, b"-", b"second item"),
                                        (72, b"-", b"third item")])]))
    sparse = parse_pdf(hand_pdf([page([(72, b"alpha", b""), (72, b"beta", b"note"), (72, b"gamma", b"")])]))
    two = parse_pdf(hand_pdf([page([(72, b"Windows", b"C:"), (72, b"Linux", b"/usr/share/fonts")])]))
    assert bullets.tables == sparse.tables == two.tables == []
    assert "- first item" in bullets.text and "alpha beta note gamma" in sparse.text
    assert "Windows C: Linux /usr/share/fonts" in two.text


def test_a_line_with_text_in_the_first_column_only_leaves_the_lines_text() -> None:
    """The Debian Reference wraps a table's first cells and sets the second column on the row's last line ("View
    log for system services and kernel from" over "the last boot ”journalctl -b --system”"): a line with text in
    the first column only may be such a cell or a row of empty cells. Read as rows, the cells were torn ("View log
    for system services and kernel from | ”journalctl b | system”"); the lines stay text."""
    document = parse_pdf(hand_pdf([page([
        (72, b"Show the log", b""), (72, b"of the boot", b"boot.log"),
        (72, b"Show the log", b""), (72, b"of the user", b"user.log"),
        (72, b"Follow the", b""), (72, b"unit's log", b"unit.log"),
    ])]))
    assert document.tables == []
    assert "Show the log of the boot boot.log Show the log of the user user.log" in document.text


def test_a_numbered_list_whose_numbers_stand_apart_stays_a_list() -> None:
    """A browser sets an ordered list's numbers apart from their text (Griffe's footnotes by wkhtmltopdf), as
    LaTeX's enumerate does (plantuml's release steps): the numbers' column made them a table (task U28)."""
    steps = [(72, b"1.", b"Adapt date and version number."), (72, b"2.", b"Adapt CHANGELOG.md."),
             (72, b"3.", b"Set a git tag and push.")]
    document = parse_pdf(hand_pdf([page(steps)]))
    assert not document.tables
    assert [block.kind for block in document.blocks[:4]] == ["paragraph", "list_item", "list_item", "list_item"]
    assert "2. Adapt CHANGELOG.md." in document.text
