"""Org mode's HTML export (``org-html-export-to-html``, Org 9.5 in Emacs 28; task U19): footnote marks and notes
read as other generators' are, the ``div#postamble`` after every page left out as chrome."""

from __future__ import annotations

from clew.corpus.ingest.formats.html import parse_html
from tests.corpus.ingest.formats.documents import load_html


def test_an_org_footnote_mark_reads_apart_from_its_word() -> None:
    """Org writes ``binds<sup><a class="footref" href="#fn.1">1</a></sup>.``: read as "binds1.", a word glued to
    the note's number ("Insert a link30." in the Org manual); now " [1]", its link to the note at the ``[``."""
    document = load_html("org-mode/budgets.html")
    assert "A walk stops when one of its budgets binds [1]." in document.text
    assert "A budget that binds is reported [2]." in document.text
    marks = [link for link in document.links if link.href == "#fn.1"]
    assert len(marks) == 1 and document.text[marks[0].start:].startswith("[1]")


def test_an_org_footnote_is_one_paragraph_led_by_its_number() -> None:
    """A note (``div.footdef``: ``sup > a.footnum`` then ``div.footpara``) read its number as a paragraph of its
    own ("1", then the text); now one block, "[1] The walk ...", as docutils' notes read."""
    document = load_html("org-mode/budgets.html")
    paragraphs = [document.text[block.start:block.end] for block in document.blocks if block.kind == "paragraph"]
    assert paragraphs[-2:] == ["[1] The walk still returns what it found.", "[2] As stop_reason."]
    assert "1" not in paragraphs and "2" not in paragraphs


def test_the_org_postamble_is_chrome() -> None:
    """``div#postamble`` ("Author: ...", "Created: <the export's time>", "Validate") closed every exported page
    and was each page's last passage; the page's own text ends at its last note now."""
    document = load_html("org-mode/budgets.html")
    assert "Created:" not in document.text and "Validate" not in document.text
    assert "Author:" not in document.text
    assert document.text.endswith("[2] As stop_reason.")


def test_a_postamble_of_another_shape_is_chrome_too() -> None:
    """The id alone marks it (Org's ``org-html-postamble`` may be a format of the user's): its text is left out,
    the paragraph before it kept."""
    document = parse_html('<html><head><meta name="generator" content="Org mode" /><title>Notes</title></head><body>'
                          '<div id="content"><p>Kept.</p></div><div id="postamble" class="status">'
                          '<p>Exported by me on 2020-02-21</p></div></body></html>')
    document.check()
    assert document.text == "Kept."


def test_an_org_subtitle_is_the_paragraph_under_the_title() -> None:
    """Org's XHTML export writes the subtitle inside the title's ``h1`` (``<br />`` then ``span.subtitle``): the
    heading read "Budgets Release 1.0" ("The Org Manual Release 9.5" over every passage of the Org manual); now the
    heading is the title and the subtitle the paragraph under it."""
    document = load_html("org-mode/budgets.html")
    assert [section.heading for section in document.sections if section.level == 1] == ["Budgets"]
    assert document.text.startswith("# Budgets\n\nRelease 1.0\n\n## 1. Limits")
