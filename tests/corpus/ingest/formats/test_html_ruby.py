"""Ruby's documentation generators as Debian ships their pages (task R4, issue 36): YARD (ruby-cri-doc) and RDoc's
Darkfish theme (ruby-rubymail-doc). tests/fixtures/html/README.md says where each fixture comes from."""

from __future__ import annotations

from clew.corpus.ingest.formats.html import parse_html
from clew.corpus.ingest.formats.html_more import restructured
from tests.corpus.ingest.formats.documents import block_texts, load_html


def test_a_yard_class_page_reads_without_its_toggles_and_hidden_source() -> None:
    """YARD writes "collapse" in every summary's heading, "show all" and the ancestry it unfolds in the class's
    box, and under every method its source with a column of line numbers ("75 76 77" read as a code block of
    its own), hidden until "View source" is clicked."""
    document = load_html("yard/cri-command.html")
    assert [s.heading for s in document.sections] == [
        "Class: Cri::Command", "Class: Cri::Command", "Overview", "Defined Under Namespace",
        "Instance Attribute Summary", "Instance Attribute Details", "#aliases ⇒ Array<String>"]
    assert [b.kind for b in document.blocks].count("code") == 0
    for chrome in ("collapse", "show all", "- Object", "# File 'lib/cri/command.rb'", "def aliases"):
        assert chrome not in document.text, chrome
    assert block_texts(document, "paragraph")[1:5] == ["Inherits:", "Object", "Defined in:", "lib/cri/command.rb"]


def test_an_rdoc_page_has_a_section_per_method_and_plain_headings() -> None:
    """RDoc (Darkfish) ends each heading of a description with "¶" and "↑" (a link back to the page's top), which
    stayed ("Overview¶ ↑"); the description's headings are ``h1`` as the class's title, its groups ``h3`` (so
    "Conventions" held every method); a method's heading is a ``div.method-heading``, so a class's methods were
    one section, each with its source listing (hidden until "click to toggle source")."""
    document = load_html("rdoc/rmail-header.html")
    assert document.title == "class RMail::Header"
    assert [(s.heading, s.level, s.parent) for s in document.sections[1:]] == [
        ("class RMail::Header", 1, 0), ("Overview", 2, 1), ("Terminology", 2, 1), ("Conventions", 2, 1),
        ("Constants", 2, 1), ("Attributes", 2, 1), ("fields[RW]", 3, 6), ("Public Class Methods", 2, 1),
        ("new()", 3, 8), ("Public Instance Methods", 2, 1), ("==(other)", 3, 10)]
    for chrome in ("¶", "↑", "click to toggle source", "# File lib/rmail/header.rb", "def initialize"):
        assert chrome not in document.text, chrome
    assert document.text.endswith("### ==(other)\n\nReturns true if the two objects have the same number of fields, "
                                  "in the same order, with the same values.")


def test_only_a_darkfish_page_is_restructured() -> None:
    """The RDoc rewrite only where the page loads Darkfish's script: another page's ``div.method-heading`` and
    "↑" link are read as they are."""
    page = ('<h2 id="a">Usage<span><a href="#a">&para;</a> <a href="#top">&uarr;</a></span></h2>'
            '<div class="method-heading"><span class="method-name">new</span></div><p>x</p>')
    assert restructured(page) is page
    assert parse_html(page).text == "## Usage¶ ↑\n\nnew\n\nx"
    darkfish = '<script src="../js/darkfish.js" defer></script>' + page
    assert parse_html(darkfish).text == "## Usage\n\n### new\n\nx"
