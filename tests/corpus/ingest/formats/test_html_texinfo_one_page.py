"""Texinfo 6.8's manual on one page (``makeinfo --html --no-split``), as Debian bookworm's bash-doc 5.2.15 ships the
Bash Reference Manual (``bashref.html``; task U19): every index of the manual, its own too, is chrome."""

from __future__ import annotations

import pytest

from clew.corpus.ingest.formats.html import parse_html
from tests.corpus.ingest.formats.documents import load_html

HEAD = ('<head><title>Bash Reference Manual</title><meta name="description" content="Bash Reference Manual">'
        '<meta name="Generator" content="makeinfo"></head>')


def index(name: str) -> str:
    """An index as makeinfo writes it, ``table.index-<name>``: a letter's row, then an entry's."""
    return (f'<table class="index-{name}" border="0"><tr><td></td><th align="left">Index Entry</th><td>&nbsp;</td>'
            '<th align="left"> Section</th></tr>\n<tr><td colspan="4"> <hr></td></tr>\n'
            f'<tr><th id="Builtin-Index_{name}_letter-A">A</th><td></td><td></td></tr>\n<tr><td></td>'
            '<td valign="top"><a href="#index-alias"><code>alias</code></a>:</td><td>&nbsp;</td><td valign="top">'
            '<a href="#Bash-Builtins">Bash Builtins</a></td></tr>\n</table>')


def page(name: str) -> str:
    return (f'{HEAD}<body lang="en"><div class="section" id="Bash-Builtins"><h3 class="section">4.2 Bash Builtin '
            'Commands</h3>\n<dl compact="compact"><dt id="index-alias"><span><code>alias</code></span></dt>'
            '<dd><p>Without arguments, <code>alias</code> prints the list of aliases.</p></dd></dl></div>\n'
            '<div class="appendix" id="Builtin-Index"><h3 class="appendixsec">D.1 Index of Shell Builtin Commands</h3>'
            f'\n{index(name)}\n</div></body>')


@pytest.mark.parametrize("name", ["cp", "bt", "rw"])
def test_every_texinfo_index_is_chrome_a_manuals_own_too(name: str) -> None:
    """``table.index-cp`` (a standard index) was chrome, but Bash's own indexes (``@defindex``: ``index-bt`` of its
    builtins, ``index-rw`` of its reserved words) were read as tables of letters and empty cells
    ("| A |  |  |", "|  | alias: |  | Bash Builtins |"), the one-page manual's last passages."""
    document = parse_html(page(name))
    document.check()
    assert "Index Entry" not in document.text and "| A |" not in document.text
    assert "Without arguments, alias prints the list of aliases." in document.text
    assert not document.tables


def test_a_texinfo_entrys_anchor_and_another_generators_index_class_stay() -> None:
    """Texinfo 7's ``a.index-entry-id`` (an index entry's anchor in the text) keeps its anchor, and a page that names
    no Texinfo generator keeps a table of class ``index-bt``."""
    anchored = parse_html(f'{HEAD.replace("makeinfo", "texi2any")}<body><p><a class="index-entry-id" '
                          'id="index-alias"></a>Without arguments, alias prints the list.</p></body>')
    assert anchored.text == "Without arguments, alias prints the list."
    assert "index-alias" in anchored.anchors
    other = parse_html(page("bt").replace("makeinfo", "other"))
    assert "| alias: |" in other.text


def test_a_texinfo_pages_notes_sit_beside_its_chapters() -> None:
    """The notes' heading (``h4.footnotes-heading``) made them a part of the page's last subsection: on a one-page
    manual its last appendix ("Appendix D Variable Index › Footnotes", org-roam's manual). It is a chapter's level
    now, under the manual's Top node beside its chapters."""
    document = load_html("texi2any/frob.html")
    notes = next(section for section in document.sections if section.heading == "Footnotes")
    chapters = [section for section in document.sections if section.heading in ("1 Overview", "2 Invoking frob")]
    assert notes.level == 2 and {chapter.level for chapter in chapters} == {2}
    assert {chapter.parent for chapter in chapters} == {notes.parent}
    assert document.text.endswith("## Footnotes\n\n[1] A frobbed file is one that was changed on purpose.")


def test_only_a_texinfo_table_of_an_index_class_is_an_index() -> None:
    """The index rule took any element of a class ``index-<name>`` on a Texinfo page, so a manual's own markup
    (``@html``: a ``div.index-item`` of text, a ``span.index-term``) was cut as an index; only makeinfo's
    ``table.index-<name>`` is one (task R17)."""
    raw = ('<div class="index-item"><p>Each <span class="index-term">alias</span> is expanded when a command is '
           'read.</p></div>')
    document = parse_html(page("cp").replace('<div class="appendix"', raw + '<div class="appendix"'))
    document.check()
    assert "Each alias is expanded when a command is read." in document.text
    assert "Index Entry" not in document.text and not document.tables
