"""PDF admonitions: a label on a line of its own over its text (task U28)."""

from __future__ import annotations

from clew.corpus.ingest.formats.pdf import parse_pdf
from tests.corpus.ingest.formats.test_pdf_text import hand_pdf, lines


def test_an_admonition_s_label_opens_the_paragraph_under_it() -> None:
    """Sphinx's "Note:" printed by WeasyPrint (Requests), MkDocs Material's "Important:" by wkhtmltopdf, Erlang's
    "Note:" by its own PDF tool: the label read as a paragraph of its own, apart from what it labels."""
    page = (lines(b"Using iter_content handles what you would handle using raw directly.", top=720) + b" "
            + lines(b"Note:", top=690) + b" "
            + lines(b"An important note about using iter_content versus raw.", top=665)
            + b" " + lines(b"Notes and warnings are kept as they are written.", top=630))
    blocks = [(block.kind, parse_pdf(hand_pdf([page])).text[block.start:block.end])
              for block in parse_pdf(hand_pdf([page])).blocks]
    assert blocks == [("paragraph", "Using iter_content handles what you would handle using raw directly."),
                      ("paragraph", "Note: An important note about using iter_content versus raw."),
                      ("paragraph", "Notes and warnings are kept as they are written.")]
