"""A PDF's links into itself (task U33): Typst's references and contents entries lead to their sections."""

from __future__ import annotations

from pathlib import Path

from clew.corpus.ingest.formats.pdf import parse_pdf
from clew.corpus.ingest.formats.pdf_links import _runs
from clew.corpus.ingest.parsed import ParsedDocument

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "pdf"


def targets(document: ParsedDocument) -> list[tuple[str, str]]:
    """Each link's first words and the line its anchor opens."""
    found = []
    for link in document.links:
        assert link.href.startswith("#")
        at = document.anchors[link.href[1:]]
        found.append((" ".join(document.text[link.start :].split()[:2]), document.text[at:].split("\n")[0]))
    return found


def test_references_and_contents_entries_lead_to_their_sections() -> None:
    document = parse_pdf((FIXTURES / "typst-links.pdf").read_bytes())
    document.check()
    assert [section.heading for section in document.sections[1:]] == [
        "1 Context budgets",
        "1.1 Tool calls",
        "2 Stopping",
    ]
    assert targets(document) == [
        ("1 Context", "1 Context budgets"),
        ("1.1 Tool", "1.1 Tool calls"),
        ("2 Stopping", "2 Stopping"),
        ("Section 1).", "1 Context budgets"),
        ("Section 1.1", "1.1 Tool calls"),
        ("Section 1", "1 Context budgets"),
    ]


def test_a_pdf_without_links_has_none() -> None:
    assert parse_pdf((FIXTURES / "typst-code.pdf").read_bytes()).links == []


def test_a_link_text_is_found_as_whole_words() -> None:
    text = "See Section 1.1 and Section 1, then Section 11 (Section\n1) and section 1."
    assert _runs(text, ["Section", "1"]) == [
        text.index("Section 1,"),
        text.index("Section\n1"),
    ]
    assert _runs(text, ["Section", "1"], start=text.index("then")) == [text.index("Section\n1")]
    assert _runs("a a a", ["a", "a"]) == [0]  # runs do not overlap
    assert _runs(text, []) == []
