"""PDFs made by Typst (task U28)."""

from __future__ import annotations

from pathlib import Path

from clew.corpus.ingest.formats.pdf import parse_pdf

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
