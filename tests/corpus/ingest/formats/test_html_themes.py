"""The HTML reader on the themes Python projects publish with (their chrome in ``html_rules.DROP_CLASSES``,
MkDocs Material's content tabs read by ``html_jsdocs.tab_panels``).

The fixtures are one page of clew's own docs (concepts/budgets.md, its table and first detail paragraph,
with a note, a collapsible tip, two content tabs and a captioned code block added) built by MkDocs
Material and by Sphinx + MyST with Furo, pydata-sphinx-theme, sphinx-rtd-theme and sphinx-book-theme,
each theme's announcement banner and edit/source buttons switched on; scripts, style sheets and icon
paths taken out (tests/fixtures/html/README.md).
"""

from __future__ import annotations

import pytest

from clew.corpus.ingest.formats.html import parse_html
from clew.corpus.ingest.formats.html_jsdocs import tab_panels
from clew.corpus.ingest.formats.html_pdoc import pdoc_page
from clew.corpus.ingest.formats.html_rules import Event
from tests.corpus.ingest.formats.documents import block_texts, load_html, outline

THEMES = ["mkdocs-material", "sphinx-furo", "sphinx-pydata", "sphinx-rtd", "sphinx-book"]
CHROME = ["On this page", "Show Source", "Edit on GitHub", "Suggest edit", ".md", "Version 2 is out", "Edit this page",
          "View source", "Back to top", "Toggle", "Copyright", "¶", "Made with"]
"""Chrome the themes write (sidebars, buttons, banners, footers, permalinks): in no block."""
CHROME_BLOCKS = ["Contents", "Repository", "Next", "Previous", "next", "previous", "Budgets", "- .md"]
"""Chrome that is a block of its own where it is left: no block but the title is one of these."""


@pytest.mark.parametrize("theme", THEMES)
def test_a_themes_page_reads_as_its_text_with_no_chrome(theme: str) -> None:
    document = load_html(f"{theme}/budgets.html")
    assert document.title == "Budgets"
    assert outline(document) == [("Budgets", 0, None), ("Budgets", 1, 0), ("In detail", 2, 1)]
    texts = block_texts(document)
    assert texts[0] == "# Budgets"
    assert texts[1].startswith("Every run is bounded by explicit budgets")
    assert [c for c in CHROME if any(c in text for text in texts)] == []
    assert [t for t in texts if t in CHROME_BLOCKS] == []
    assert [link.href for link in document.links] == ["stop-reasons.md" if theme == "mkdocs-material"
                                                      else "#stop-reasons.md"]
    rows = block_texts(document, "table_row")
    assert any(t.startswith("| budget | default | bounds | what it counts |\n| --- |") for t in texts)
    assert len(rows) == 5 and rows[0].startswith("| max_tool_calls | 20 | 1-20 | every tool call")


@pytest.mark.parametrize("theme", THEMES)
def test_a_themes_admonitions_are_blocks_of_their_section_and_its_tabs_read_label_then_code(theme: str) -> None:
    document = load_html(f"{theme}/budgets.html")
    texts = block_texts(document)
    note = next(t for t in texts if "is never above 20" in t)
    assert note.startswith("Twenty tool calls at most: " if theme == "mkdocs-material" else "Note: ")
    assert "When a budget runs out: The run ends incomplete with the evidence so far." in texts
    assert [s.heading for s in document.sections if s.heading != "Budgets"] == ["In detail"]
    cli = texts.index("Command line")
    assert texts[cli + 1].startswith("```\nclew ask --max-tool-calls 8")
    assert texts[cli + 2] == "Python"
    assert texts[cli + 3].startswith("```\nfrom clew import retrieve\n")
    assert [t[4:12] for t in block_texts(document, "code")][:2] == ["clew ask", "from cle"]


TABS = ('<div class="tabbed-set tabbed-alternate" data-tabs="1:2"><input checked id="t1" name="t" type="radio">'
        '<input id="t2" name="t" type="radio"><div class="tabbed-labels"><label for="t1">npm</label>'
        '<label for="t2">yarn</label></div><div class="tabbed-content">'
        '<div class="tabbed-block"><pre><code>npm ci</code></pre></div>'
        '<div class="tabbed-block"><pre><code>yarn install</code></pre>{inner}</div></div></div>')


def test_a_tab_sets_labels_move_into_their_blocks_nested_sets_too() -> None:
    inner = TABS.replace("npm", "pnpm").replace("yarn", "bun").format(inner="")
    document = parse_html(f"<main><p>Install:</p>{TABS.format(inner=inner)}<p>Done.</p></main>")
    assert block_texts(document) == ["Install:", "npm", "```\nnpm ci\n```", "yarn", "```\nyarn install\n```", "pnpm",
                                     "```\npnpm ci\n```", "bun", "```\nbun install\n```", "Done."]


def test_a_tab_set_whose_labels_and_blocks_do_not_pair_is_read_as_written() -> None:
    events: list[Event] = [("start", "div", [("class", "tabbed-set")]), ("start", "div", [("class", "tabbed-labels")]),
                           ("start", "label", []), ("data", "npm", []), ("end", "label", []),
                           ("start", "label", []), ("data", "yarn", []), ("end", "label", []), ("end", "div", []),
                           ("start", "div", [("class", "tabbed-content")]),
                           ("start", "div", [("class", "tabbed-block")]), ("data", "npm ci", []), ("end", "div", []),
                           ("end", "div", []), ("end", "div", [])]
    assert tab_panels(events) == events
    document = parse_html("<main><div class=tabbed-set><div class=tabbed-labels><label>npm</label>"
                          "<label>yarn</label></div><div class=tabbed-content><div class=tabbed-block>"
                          "<p>npm ci</p></div></div></div></main>")
    assert block_texts(document) == ["npm", "yarn", "npm ci"]


def test_a_tab_set_of_the_older_style_keeps_each_label_before_its_block() -> None:
    older = ('<main><div class="tabbed-set" data-tabs="1:2"><input checked id="t1" name="t" type="radio">'
             '<label for="t1">npm</label><div class="tabbed-content"><pre><code>npm ci</code></pre></div>'
             '<input id="t2" name="t" type="radio"><label for="t2">yarn</label>'
             '<div class="tabbed-content"><pre><code>yarn install</code></pre></div></div></main>')
    assert block_texts(parse_html(older)) == ["npm", "```\nnpm ci\n```", "yarn", "```\nyarn install\n```"]


def test_a_pdoc_page_has_a_section_per_member_and_no_source_listing() -> None:
    document = load_html("pdoc/bounds.html")
    assert outline(document) == [
        ("clew.budgets.bounds", 0, None), ("clew.budgets.bounds", 1, 0), ("clamp", 2, 1),
        ("Clamp", 2, 1), ("Clamp.__init__", 3, 3), ("Clamp.low", 3, 3), ("Clamp.high", 3, 3), ("bounds", 2, 1),
        ("clamped", 2, 1), ("MAX_QUERY_CHARS", 2, 1), ("MAX_LIST_ITEMS", 2, 1), ("MAX_CLAUSES", 2, 1),
        ("MAX_FILTER_CLAUSES", 2, 1), ("MAX_FILTER_DEPTH", 2, 1)]
    texts = block_texts(document)
    clamp = texts.index("## clamp")
    assert texts[clamp + 1:clamp + 3] == ["def clamp(value: float, low: float, high: float) -> float:",
                                          "value inside [low, high], of its own type (seconds stay a float)."]
    assert not any("View Source" in text for text in texts)
    # the docstring's example stays; the module's and the members' source listings (and their line links) go
    assert block_texts(document, "code") == ["```\ntop_k: Annotated[int, Clamp(1, 50)] = 20\n```"]
    assert sorted({link.href for link in document.links}) == ["#Clamp", "#bounds", "#clamped"]
    assert "Clamp" in document.anchors and "Clamp.low" in document.anchors


def test_pdoc_page_leaves_a_docstrings_code_and_what_is_no_member_alone() -> None:
    events: list[Event] = [("start", "main", [("class", "pdoc")]), ("start", "div", [("class", "attr")]),
                           ("data", "x = 1", []), ("end", "div", []),
                           ("start", "section", [("id", "f")]), ("start", "div", [("class", "docstring")]),
                           ("start", "div", [("class", "pdoc-code codehilite")]), ("data", "f()", []),
                           ("end", "div", []), ("end", "div", []), ("end", "section", []), ("end", "main", [])]
    assert pdoc_page(events) == events
