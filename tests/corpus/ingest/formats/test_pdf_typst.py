"""PDFs made by Typst (task U28)."""

from __future__ import annotations

from pathlib import Path

from clew.corpus.ingest.formats.pdf import parse_pdf
from clew.corpus.ingest.formats.pdf_layout import Line, unwrapped

FIXTURES = Path(__file__).parents[3] / "fixtures" / "pdf"


def test_a_code_block_s_blank_lines_at_typst_s_line_pitch_keep_it_one_block() -> None:
    """Typst sets raw text 1.41 sizes apart: two blank lines between functions left a gap of 4.2 sizes, and the
    example split in two code blocks, its test (``websocket_connect``) apart from the app it tests."""
    document = parse_pdf((FIXTURES / "typst-code.pdf").read_bytes())
    code = [document.text[block.start:] for block in document.blocks if block.kind == "code"]
    assert len(code) == 2
    example = code[0][: code[0].index("\n```", 4) + 4]
    assert example == ("```\nasync def app(scope, receive, send):\n"
                       "    websocket = WebSocket(scope, receive=receive, send=send)\n"
                       "    await websocket.accept()\n\n\ndef test_app():\n    client = TestClient(app)\n"
                       "    with client.websocket_connect('/') as websocket:\n"
                       "        data = websocket.receive_text()\n```")


def test_a_code_line_typst_wrapped_at_the_text_s_edge_is_one_line() -> None:
    """Typst wraps a line of raw text too long for the text's width where ordinary text breaks (after ``/``, at a
    space) and goes on at the block's left edge. The lines as PDFium gives them, measured on U33's Quarto book
    (SignalFlow-EEG.pdf, 8.8 pt code, body text's right edge at 522 pt): the first wrapped after the URL's last ``/``,
    the second at a space (" docs" would have ended past 522); the last two are two lines, "cd" fitting after the
    first."""
    lines = [Line("git clone --recurse-submodules https://github.com/cincibrainlab/", 8.8, False, True, 100.0, 111.0,
                  449.4),
             Line("SignalFlowEEG_HBCD.git", 8.8, False, True, 112.4, 111.0, 226.7),
             Line("cd github && make all --jobs=4 --keep-going --output-sync=target -s install", 8.8, False, True,
                  124.8, 111.0, 507.5),
             Line("docs", 8.8, False, True, 137.2, 111.0, 133.6),
             Line("mkdir github", 8.8, False, True, 149.6, 111.0, 168.8),
             Line("cd github", 8.8, False, True, 162.0, 111.0, 158.2)]
    assert [line.text for line in unwrapped(lines, 522.0)] == [
        "git clone --recurse-submodules https://github.com/cincibrainlab/SignalFlowEEG_HBCD.git",
        "cd github && make all --jobs=4 --keep-going --output-sync=target -s install docs", "mkdir github",
        "cd github"]


def test_a_nested_list_s_items_stand_in_their_item() -> None:
    """A contents page's entries are a list, a section's entry further in than its chapter's: it read as its sibling.
    Typst's contents (and its nested lists: "‣" items under a "•" one in U33's book) are indented a level."""
    document = parse_pdf((FIXTURES / "typst-links.pdf").read_bytes())
    items = [document.text[b.start:b.end] for b in document.blocks if b.kind == "list_item"]
    assert items[:3] == ["1 Context budgets … 2", "  1.1 Tool calls … 2", "2 Stopping … 3"]
