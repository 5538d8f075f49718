"""Org mode's HTML export (``org-html-export-to-html``, Org 9.5 in Emacs 28; task U19): footnote marks and notes
read as other generators' are, the ``div#postamble`` after every page left out as chrome."""

from __future__ import annotations

import subprocess
import sys

from clew.corpus.ingest.formats.html import parse_html
from clew.corpus.ingest.formats.html_titles import _ORG_HEADER
from tests.corpus.ingest.formats.documents import HTML_FIXTURES, load_html


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


def test_the_html5_exports_title_and_subtitle_read_as_the_xhtml_exports() -> None:
    """Org's HTML5 export (``org-html-html5-fancy``) writes the title and subtitle in a ``header`` (``h1.title``, then
    ``p.subtitle``), chrome to the reader: the title came from ``<title>`` alone and the subtitle was lost. They read
    as the XHTML export's now: the title, the subtitle the paragraph under it, then the first chapter (task R17)."""
    html5 = load_html("org-mode/budgets-html5.html")
    html5.check()
    assert html5.text.startswith("# Budgets\n\nRelease 1.0\n\n## 1. Limits")
    xhtml = load_html("org-mode/budgets.html")
    assert html5.text == xhtml.text
    assert [(s.heading, s.level) for s in html5.sections] == [(s.heading, s.level) for s in xhtml.sections]


def test_the_html5_title_pattern_is_linear_and_reads_the_export() -> None:
    """``_ORG_HEADER`` on 200,000 characters of headers that never close (a child process: a pattern gone quadratic
    fails the test rather than hanging the run), and on the export's own header."""
    script = ("from clew.corpus.ingest.formats.html_titles import _ORG_HEADER\n"
              "print(_ORG_HEADER.search(('<header>' + ' ' * 20 + '<h1 class=\"title\">x</h1><p class=\"subtitle\" x>')"
              " * 3_400) is None)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stdout) == (0, "True\n"), done.stderr
    header = _ORG_HEADER.search('<header>\n<h1 class="title">B</h1>\n<p class="subtitle" role="doc-subtitle">R</p>\n'
                                "</header><nav>")
    assert header is not None and header.groups() == ('<h1 class="title">B</h1>', "R")


def test_an_html5_export_without_a_subtitle_keeps_its_title_heading() -> None:
    """A document without ``#+SUBTITLE``: the HTML5 export's ``header`` holds the title alone (Org 9.5.5), read as the
    title heading over the chapters, as the XHTML export's ``h1.title`` is."""
    page = load_html("org-mode/budgets-html5.html")
    source = (HTML_FIXTURES / "org-mode/budgets-html5.html").read_text(encoding="utf-8")
    alone = source.replace('<p class="subtitle" role="doc-subtitle">Release 1.0</p>\n', "")
    assert alone != source
    document = parse_html(alone)
    document.check()
    assert document.text.startswith("# Budgets\n\n## 1. Limits")
    assert document.text == page.text.replace("Release 1.0\n\n", "", 1)
