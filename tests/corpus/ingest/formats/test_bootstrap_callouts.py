"""Bootstrap's boxes are admonitions (task R19): its docs' callouts (the ``{{< callout >}}`` shortcode, built by Hugo as
``div.bd-callout``, often a heading then text) and ``div.alert`` (a demo's, Docsy's) are one block of the section they
sit in, labelled by their heading, never a section: the callout's ``h5`` opened a section that took the rest of the
section it sits in ("Help text below inputs ..." read under "Associating help text with form controls" in Bootstrap's
forms page), in the HTML a site is built to and in the Markdown it is built from."""

from __future__ import annotations

from clew.corpus.ingest.formats.html import parse_html
from clew.corpus.ingest.formats.markdown import parse_markdown
from clew.corpus.ingest.parsed import ParsedDocument
from tests.corpus.ingest.formats.documents import load_html

PAGE = """---
title: Forms
---

## Budgets

Every run has a budget of tool calls; the default is twenty.

{{< callout warning >}}
##### Associating a budget with a key

A key's budget is set in `clew.toml`, under the key's principal, and never above the server's own.
{{< /callout >}}

A budget that runs out ends the run incomplete, with the evidence so far.

## Timeouts

{{< callout info >}}
A timeout is counted from the first search, not from the request.
{{< /callout >}}

{{< callout danger >}}
#### Asynchronous methods and transitions
```js
run.stop()
```
{{< /callout >}}

The default timeout is sixty seconds.
"""


def by_section(document: ParsedDocument) -> dict[str, list[str]]:
    """Each section's heading and the texts of its blocks other than its heading."""
    out: dict[str, list[str]] = {}
    for block in document.blocks:
        if block.kind != "heading":
            out.setdefault(document.sections[block.section].heading, []).append(document.text[block.start : block.end])
    return out


def test_a_built_pages_callouts_and_alerts_are_blocks_of_their_section() -> None:
    """Hugo 0.111.3's page (a callout shortcode of Bootstrap's shape, its ``{{< example >}}`` demo, an alert)."""
    document = load_html("hugo/bootstrap-callouts.html")
    assert [s.heading for s in document.sections] == ["Forms", "Forms", "Budgets", "Timeouts"]
    sections = by_section(document)
    assert sections["Budgets"][:4] == [
        "Every run has a budget of tool calls; the default is twenty.",
        "Associating a budget with a key: A key\u2019s budget is set in clew.toml, under the key\u2019s principal, and "
        "never above the server\u2019s own.",
        "A budget that runs out ends the run incomplete, with the evidence so far.",
        "Well done! The run ended within its budget.",
    ]  # the demo's alert, before its source
    assert sections["Timeouts"] == [
        "A timeout is counted from the first search, not from the request.",
        "Warning: A run past its timeout keeps its evidence.",
        "The default timeout is sixty seconds.",
    ]
    callout = document.text.index("Associating a budget")
    assert document.anchors["associating-a-budget-with-a-key"] == callout  # its heading's id still lands on it


def test_the_markdown_a_callout_is_built_from_reads_as_its_built_page() -> None:
    document = parse_markdown(PAGE)
    document.check()
    assert [s.heading for s in document.sections] == ["Forms", "Budgets", "Timeouts"]
    sections = by_section(document)
    assert sections["Budgets"] == [
        "Every run has a budget of tool calls; the default is twenty.",
        "Associating a budget with a key: A key's budget is set in `clew.toml`, under the key's principal, and never "
        "above the server's own.",
        "A budget that runs out ends the run incomplete, with the evidence so far.",
    ]
    assert sections["Timeouts"][0] == "Callout:\nA timeout is counted from the first search, not from the request."
    assert sections["Timeouts"][1:] == [  # a label whose text is code stands on its own line
        "Asynchronous methods and transitions:",
        "```js\nrun.stop()\n```",
        "The default timeout is sixty seconds.",
    ]


def test_an_alert_is_an_admonition_wherever_it_stands() -> None:
    document = parse_html(
        '<main><h2>Install</h2><div class="alert alert-info" role="alert"><h4 class="alert-heading">'
        "Heads up</h4><p>Widget 2 needs Python 3.8.</p></div><p>Run the installer.</p></main>"
    )
    assert by_section(document) == {"Install": ["Heads up: Widget 2 needs Python 3.8.", "Run the installer."]}


QUARTO = """<main><h2 id="callouts">Callouts</h2>
<div class="callout callout-style-default callout-important callout-titled">
<div class="callout-header d-flex align-content-center">
<div class="callout-icon-container">
<i class="callout-icon"></i>
</div>
<div class="callout-title-container flex-fill">
Key insight
</div>
</div>
<div class="callout-body-container callout-body">
<p>A budget is counted in tokens, not passages.</p>
</div>
</div>
<p>After the callout.</p></main>"""


def test_a_quarto_callout_is_labelled_by_its_header() -> None:
    """Quarto writes a callout (on Bootstrap) as ``div.callout`` whose ``div.callout-header`` holds an icon and the
    title: the header is its label, as an admonition's title is."""
    document = parse_html(QUARTO)
    assert by_section(document) == {
        "Callouts": ["Key insight: A budget is counted in tokens, not passages.", "After the callout."]
    }


def test_a_callout_holding_only_its_heading_labels_nothing_after_it() -> None:
    """A callout whose heading is all it holds: the label stands alone, the paragraph after the callout keeps its own
    start (it was 'Heading only: The text after the callout.', the label reaching past the callout's close)."""
    document = parse_markdown(
        "# Page\n\n## Budgets\n\n{{< callout info >}}\n##### Heading only\n{{< /callout >}}\n\n"
        "The text after the callout.\n"
    )
    document.check()
    assert by_section(document)["Budgets"] == ["Heading only:", "The text after the callout."]
