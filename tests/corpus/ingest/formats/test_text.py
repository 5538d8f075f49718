from __future__ import annotations

from pathlib import Path

from clew.corpus.ingest.formats.text import parse_text
from clew.corpus.ingest.parsed import ParsedDocument

FIXTURES = Path(__file__).parents[3] / "fixtures" / "text"


def paragraphs(document: ParsedDocument) -> list[str]:
    return [document.text[b.start : b.end] for b in document.blocks]


def test_depot_notes_paragraphs() -> None:
    document = parse_text((FIXTURES / "depot-notes.txt").read_text(encoding="utf-8"))
    document.check()
    assert paragraphs(document) == [
        "Delivery windows are set by the depot manager.\nThey change every quarter.",
        "Robots that miss a window report it at once.",
        "The last paragraph has no trailing newline.",
    ]
    assert {b.kind for b in document.blocks} == {"paragraph"}
    assert {b.section for b in document.blocks} == {0}
    assert not any(b.indivisible for b in document.blocks)


def test_only_the_root_section_and_no_title() -> None:
    document = parse_text("Title-looking line\n\n# not markdown here\n")
    assert [(s.heading, s.level, s.parent, s.start) for s in document.sections] == [("", 0, None, 0)]
    assert document.title is None
    assert document.fields == {}
    assert paragraphs(document) == ["Title-looking line", "# not markdown here"]


def test_crlf_and_cr_are_normalised() -> None:
    document = parse_text("one\r\ntwo\r\n\r\nthree\rfour\r\r\n")
    document.check()
    assert document.text == "one\ntwo\n\nthree\nfour\n\n"
    assert paragraphs(document) == ["one\ntwo", "three\nfour"]


def test_whitespace_only_lines_separate_paragraphs() -> None:
    document = parse_text("  first  \n \t \n\n\n  second\n   \n")
    document.check()
    assert paragraphs(document) == ["first", "second"]
    assert document.text == "  first  \n \t \n\n\n  second\n   \n"


def test_empty_and_blank_sources_have_no_blocks() -> None:
    for source in ("", "\n\n", "   \n\t\n"):
        document = parse_text(source)
        document.check()
        assert document.blocks == []
