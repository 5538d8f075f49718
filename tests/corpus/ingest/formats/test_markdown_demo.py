"""Live demos in Markdown (``formats.markdown_demo``) and admonition shortcodes that label nothing."""

from __future__ import annotations

from pathlib import Path

from clew.corpus.ingest.formats.markdown import parse_markdown
from tests.corpus.ingest.formats.documents import block_texts, outline

FIXTURES = Path(__file__).parents[3] / "fixtures" / "markdown"


def test_a_component_pages_live_demos_are_not_text_and_their_source_stays() -> None:
    """A hidden dialog (``aria-hidden="true"``) and a demo whose markup the next code block repeats
    are left out: their filler is no text, their headings ("Modal title", "Item 1") open no section,
    and the code after them stays in the section of the heading above it. A table of content, whose
    classes the code after it does not write, is read as before."""
    document = parse_markdown((FIXTURES / "component-demos.md").read_text(encoding="utf-8"))
    document.check()
    assert [(heading, level) for heading, level, _ in outline(document)[1:]] == [
        ("Static backdrop", 2), ("Example with list-group", 2), ("Options", 2)]  # a callout's heading is its label
    for filler in ("I will not close", "Placeholder content", "Launch static backdrop modal\n\n"):
        assert filler not in document.text.replace(block_texts(document, "code")[0], "")
    code = block_texts(document, "code")
    assert code[0].startswith('```html\n<button type="button" class="btn btn-primary"')
    assert code[1].startswith('```html\n<div id="list-example" class="list-group">')
    assert [document.sections[b.section].heading for b in document.blocks if b.kind == "code"] == [
        "Static backdrop", "Example with list-group", "Options"]
    assert "| backdrop | boolean or the string 'static' | true |" in document.text
    assert document.text.index("Options can be passed") < document.text.index("| Name | Type | Default |")


def test_raw_html_without_a_repeating_code_block_is_read() -> None:
    """A README's centred logo before an HTML snippet shares no class with it, a demo with no code after
    it is not known for one, and an element hidden in part (its hidden child) is read whole."""
    document = parse_markdown(
        '# Widget\n\n<p align="center"><img src="logo.png" alt="Widget logo"></p>\n\n'
        '```html\n<script src="widget.js"></script>\n```\n\n'
        '<div class="card"><p class="card-text">A card of text.</p></div>\n\nAfter the card.\n\n'
        '<div class="note"><span aria-hidden="true">!</span> Read this note.</div>\n\n'
        '```html\n<div class="other">x</div>\n```\n')
    document.check()
    text = document.text
    assert "Widget logo" in text and "A card of text." in text and "Read this note." in text


def test_an_admonition_that_labels_nothing_reads_nothing() -> None:
    """Bootstrap's callouts: one holding only a ``{{< partial >}}`` (a file outside the pages) and one
    that opens with a heading leave no ``Callout:`` line of their own (the heading labels it, task R19); one with
    text keeps its label."""
    document = parse_markdown((FIXTURES / "component-demos.md").read_text(encoding="utf-8"))
    assert document.text.count("Callout:") == 1
    assert "Callout:\nOnly one modal at a time is supported." in document.text
    between = document.text.split("backdrop: 'static' })\n```")[1].split("Data attributes for individual modals:")[0]
    assert not between.strip()
    assert "Data attributes for individual modals" not in [s.heading for s in document.sections]


def test_a_shortcode_pair_on_one_line_reads_as_what_it_holds() -> None:
    """Bootstrap's reboot table writes each cell's code as ``{{< markdown >}}`<h1></h1>`{{< /markdown >}}``
    (Hugo's markdownify idiom): the cell reads ``<h1></h1>``, the tags of a code span being its text. Outside
    raw HTML the pair's Markdown stays Markdown; a pair inside a code span is code."""
    document = parse_markdown(
        "## Headings\n\n<table>\n  <thead><tr><th>Heading</th><th>Example</th></tr></thead>\n  <tbody>\n"
        "    <tr>\n      <td>\n        {{< markdown >}}`<h1></h1>`{{< /markdown >}}\n      </td>\n"
        '      <td><span class="h1">h1. Bootstrap heading</span></td>\n    </tr>\n  </tbody>\n</table>\n\n'
        "Use {{< markdown >}}**bold**{{< /markdown >}} text, not `{{< kbd >}}x{{< /kbd >}}`.\n")
    document.check()
    assert "| <h1></h1> | h1. Bootstrap heading |" in document.text
    assert "Use **bold** text, not `{{< kbd >}}x{{< /kbd >}}`." in document.text
