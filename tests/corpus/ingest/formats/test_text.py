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


FAQ_TEXT = """Frequently Asked Questions

Table of Contents

  o 1. chrony compared to other programs
      ? 1.1. How does chrony compare to ntpd?
  o 2. Configuration issues
      ? 2.1. What is the minimum recommended configuration for an NTP client?

1. chrony compared to other programs

1.1. How does chrony compare to ntpd?

chrony and ntpd are two different implementations of the Network Time Protocol.

2. Configuration issues

2.1. What is the minimum recommended configuration for an NTP client?

First, the client needs to know which NTP servers it should ask for the current
time.

MS Name/IP address         Stratum Poll Reach LastRx Last sample
===============================================================================
^* foo.example.net              2   6   377    11   -12us[  -14us] +/-  113us

Name/IP Address            NP  NR  Span  Frequency  Freq Skew  Offset  Std Dev
==============================================================================
foo.example.net            31  16   91m      0.002      0.027     +1ns   226ns

2.4. Must I specify servers by IP address if DNS is not available on chronyd
start?

No, you can specify hostnames.
"""


def outline(document: ParsedDocument) -> list[tuple[str, int, int | None]]:
    return [(s.heading, s.level, s.parent) for s in document.sections[1:]]


def test_a_text_rendering_s_numbered_sections_are_headings() -> None:
    """chrony's FAQ.gz (Debian chrony 4.3, task U39): its 51 questions were one section-less document. Its
    chronyc tables' column titles over a rule are no headings."""
    from clew.corpus.ingest.formats.lightmarkup import parse_plain

    document = parse_plain(FAQ_TEXT)
    document.check()
    assert outline(document) == [
        ("1. chrony compared to other programs", 1, 0),
        ("1.1. How does chrony compare to ntpd?", 2, 1),
        ("2. Configuration issues", 1, 0),
        ("2.1. What is the minimum recommended configuration for an NTP client?", 2, 3),
        ("2.4. Must I specify servers by IP address if DNS is not available on chronyd start?", 2, 3),
    ]
    answer = next(b for b in document.blocks if document.text[b.start:b.end].startswith("No, you"))
    assert document.heading_path(answer.section)[-1].startswith("2.4. Must I")
    toc = next(b for b in document.blocks if "? 1.1." in document.text[b.start:b.end])
    assert toc.section == 0 and toc.kind == "paragraph"  # the indented contents are no headings


def test_underlined_titles_in_a_readme_are_headings_by_their_underline() -> None:
    from clew.corpus.ingest.formats.lightmarkup import parse_plain

    source = ("This is the README for chrony.\n\nWhat is chrony?\n===============\n\nA daemon.\n\n"
              "Enhancements\n------------\n* Add local option\n\n"
              "How do I set it up?\n===================\n\nSee INSTALL.\n")
    document = parse_plain(source)
    document.check()
    assert outline(document) == [("What is chrony?", 1, 0), ("Enhancements", 2, 1), ("How do I set it up?", 1, 0)]
    assert [document.text[b.start:b.end] for b in document.blocks if b.kind == "heading"] == [
        "What is chrony?", "Enhancements", "How do I set it up?"]


def test_a_numbered_list_of_one_line_paragraphs_and_sentences_stay_paragraphs() -> None:
    from clew.corpus.ingest.formats.text import parse_headed_text

    for source in ("Steps\n\n1. Install the package\n\n2. Run the daemon\n\n3. Check the log\n",
                   "1. Install the package.\n\nIt is in the archive.\n\n2. Run the daemon.\n\nAs root.\n",
                   "2. Second\n\ntext\n\n1. First\n\ntext\n",  # numbers going down: no order, one heading only
                   "Section 2 of 5\n\n10 apples are here\n",
                   "3. Protocol Requests\n4. Encoding\n\ntext\n\n5. Types\n\ntext\n"):  # two titles, no wrap
        document = parse_headed_text(source)
        document.check()
        assert outline(document) == [], source
        assert {b.kind for b in document.blocks} == {"paragraph"}


def test_a_number_under_ten_aligned_right_is_a_heading_and_a_deeper_indent_is_not() -> None:
    from clew.corpus.ingest.formats.text import parse_headed_text

    document = parse_headed_text(" 9. Is it nine?\n\nYes.\n\n10. Is it ten?\n\nYes.\n\n  11. Indented\n\nNo.\n")
    document.check()
    assert outline(document) == [("9. Is it nine?", 1, 0), ("10. Is it ten?", 1, 0)]
