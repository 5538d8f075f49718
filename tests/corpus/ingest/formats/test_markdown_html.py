"""Raw HTML in Markdown: HTML blocks and inline HTML read by the HTML reader (``formats.markdown_html``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from clew.corpus.ingest.formats import markdown_html
from clew.corpus.ingest.formats.markdown import parse_markdown
from tests.corpus.ingest.formats.documents import block_texts, outline

FIXTURES = Path(__file__).parents[3] / "fixtures" / "markdown"


NODE_STYLE = """# Buffer

## `buf.fill(value[, offset[, end]][, encoding])`

<!-- YAML
added: v0.5.0
-->

<table>
  <thead>
    <tr><th>Version</th><th>Changes</th></tr>
  </thead>
  <tbody>
    <tr><td>v11.0.0</td><td>Throws <code>ERR_OUT_OF_RANGE</code> instead of
    <code>ERR_INDEX_OUT_OF_RANGE</code>.</td></tr>
    <tr><td>v10.0.0</td><td>Negative <code>end</code> values throw an <a
    href="errors.md#err-out-of-range">error</a>.</td></tr>
  </tbody>
</table>

Fills `buf` with the specified `value`.

<dl>
  <dt id="opt-offset">offset</dt><dd>Number of bytes to skip before starting to fill.</dd>
  <dt id="opt-end">end</dt><dd>Where to stop filling <code>buf</code> (not inclusive).</dd>
</dl>

## `buf.includes(value)`

Equivalent to `buf.indexOf() !== -1`.
"""


def test_raw_html_blocks_are_parsed_with_the_html_rules(tmp_path: Path) -> None:
    document = parse_markdown(NODE_STYLE)
    document.check()
    header = next(b for b in document.blocks if b.kind == "table_header")
    assert document.text[header.start:header.end] == "| Version | Changes |\n| --- | --- |"
    rows = [document.text[b.start:b.end] for b in document.blocks if b.kind == "table_row"]
    assert rows[0] == "| v11.0.0 | Throws ERR_OUT_OF_RANGE instead of ERR_INDEX_OUT_OF_RANGE. |"
    fill = next(i for i, s in enumerate(document.sections) if s.heading.startswith("buf.fill"))
    assert document.tables[0].section == fill
    # a short dl is the text of its section (a long one would give a unit per term), its ids still anchors
    assert [s.heading for s in document.sections if s.parent == fill] == []
    assert document.text[document.anchors["opt-end"]:].startswith("end\n\nWhere to stop filling buf")
    (link,) = [link for link in document.links if link.href.startswith("errors.md")]
    assert document.text[link.start:].startswith("error. |")
    # the Markdown after the block keeps its spans and its sections
    includes = next(s for s in document.sections if s.heading.startswith("buf.includes"))
    assert document.text[includes.start:].startswith("## `buf.includes(value)`")
    assert document.sections[includes.parent].heading == "Buffer"
    # ingested: a table passage that carries its header
    from clew.corpus.ingest.api import ingest_paths
    from clew.corpus.store import Corpus

    path = tmp_path / "buffer.md"
    path.write_text(NODE_STYLE, encoding="utf-8")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [path], collection="node", chunk_tokens=220)
        kinds = corpus.cursor().execute("SELECT kind, body FROM chunks ORDER BY ordinal").fetchall()
    table = [body for kind, body in kinds if kind == "table"]
    assert table and "\n\n| Version | Changes |\n| --- | --- |\n| v11.0.0 |" in table[0]
    assert "YAML" not in table[0]  # the comment before the table is not text


def test_html_in_markdown_is_read_as_the_html_reader_reads_it() -> None:
    """A GitHub-style README: raw HTML blocks and inline HTML store the text a reader sees, never tags."""
    document = parse_markdown((FIXTURES / "readme-html.md").read_text(encoding="utf-8"))
    document.check()
    texts = [(b.kind, document.sections[b.section].heading, document.text[b.start:b.end]) for b in document.blocks]
    assert all("<" not in text and "&amp;" not in text for _, _, text in texts)
    assert texts[:4] == [
        ("heading", "Widget", "# Widget"),  # a logo in a heading is not part of its name
        ("paragraph", "Widget", "build status A fast widget & friends."),  # an image reads as its alt text
        ("paragraph", "Widget", "Press Ctrl+C to stop the server, see stopping.\nValues up to 10^6 are accepted."),
        ("paragraph", "Widget", "A note inside html."),
    ]
    assert document.title == "Widget"
    # <details> is one block with its <summary> as label, the Markdown inside it read too
    assert ("paragraph", "Install beta", "Building from source: Clone the repository, then run make in its root."
            "\n\n- needs Node 20\n- needs Python 3") in texts
    # headings written in HTML open sections by their level, like Markdown's; a Markdown heading keeps its slug
    assert outline(document)[1:] == [("Widget", 1, 0), ("Install beta", 2, 1), ("Options", 2, 1), ("Reference", 3, 3)]
    assert document.text[document.anchors["install-beta"]:].startswith("## Install beta")
    assert document.text[document.anchors["options"]:].startswith("## Options")
    assert [b.section for b in document.blocks if b.kind.startswith("table")] == [3, 3]
    assert ("table_row", "Options", "| port | 8080, or $PORT when set |") in texts
    assert [(link.href, document.text[link.start:][:8]) for link in document.links] == [
        ("https://ci.example.com/widget", "build st"), ("docs/stopping.md", "stopping")]
    # the comment is gone with its blank lines; Markdown without HTML keeps its source
    assert "badges" not in document.text and "\n\n\n" not in document.text
    assert texts[-1] == ("paragraph", "Reference", "Plain Markdown after the HTML keeps its source: *as written*.")


def test_an_html_element_left_open_runs_to_its_end_tag_or_is_read_alone() -> None:
    closed = parse_markdown("# T\n\n<div align=\"center\">\n\n**Bold** text.\n\n</div>\n\nAfter.\n")
    closed.check()
    assert block_texts(closed) == ["# T", "Bold text.", "After."]
    never_closed = parse_markdown("# T\n\n<div align=\"center\">\n\n**Bold** text.\n\nAfter.\n")
    never_closed.check()
    assert block_texts(never_closed) == ["# T", "**Bold** text.", "After."]


def test_inline_html_in_a_list_keeps_one_block_per_top_level_item() -> None:
    document = parse_markdown("- Press <kbd>q</kbd>\n  - nested <em>item</em>\n- plain\n")
    document.check()
    assert block_texts(document, "list_item") == ["- Press q\n  - nested item", "- plain"]


def test_an_element_closed_too_far_away_is_read_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    source = "<details><summary>Steps</summary>\n\none\n\ntwo\n\nthree\n\n</details>\n"
    assert block_texts(parse_markdown(source)) == ["Steps: one\n\ntwo\n\nthree"]
    monkeypatch.setattr(markdown_html, "MAX_HTML_RUN", 2)
    document = parse_markdown(source)
    document.check()
    assert block_texts(document) == ["Steps", "one", "two", "three"]


def test_details_holding_a_heading_is_a_container_whose_heading_opens_a_section() -> None:
    """Node.js's README folds its emeriti under ``<details>`` with a heading inside: the heading stays a section."""
    source = ("## TSC\n\n- current\n\n<details>\n\n<summary>Emeriti</summary>\n\n### Emeriti\n\n"
              "- addaleax\n- isaacs\n\n</details>\n")
    document = parse_markdown(source)
    document.check()
    assert outline(document)[1:] == [("TSC", 2, 0), ("Emeriti", 3, 1)]
    assert block_texts(document) == ["## TSC", "- current", "Emeriti", "### Emeriti", "- addaleax", "- isaacs"]


def test_admonitions_whose_body_holds_html_are_read_by_the_html_reader() -> None:
    """A GitHub alert or an MkDocs admonition (or content tab) with HTML in its body: one block, its
    label first, no tags left; one without HTML keeps its source as before."""
    source = ("# Keys\n\n> [!NOTE]\n> Press <kbd>q</kbd> to quit.\n> Second line.\n\n> [!WARNING]\n> No html here.\n\n"
              '!!! tip "Shortcut"\n\n    Press <kbd>Ctrl</kbd>+<kbd>K</kbd> to search.\n\n    - also <b>here</b>\n\n'
              '!!! note\n    Plain body, no html.\n\n=== "pip"\n\n    Run <code>pip install x</code>.\n\nAfter.\n')
    document = parse_markdown(source)
    document.check()
    assert [(b.kind, b.section) for b in document.blocks] == [("heading", 1)] + [("paragraph", 1)] * 6
    assert block_texts(document)[1:] == [
        "Note: Press q to quit. Second line.", "> [!WARNING]\n> No html here.",
        "Shortcut: Press Ctrl+K to search.\n\n- also here", "!!! note\n    Plain body, no html.",
        "pip: Run pip install x.", "After."]


def test_indented_cell_text_after_a_blank_line_in_a_table_is_html_not_code() -> None:
    """Jekyll's docs (kramdown keeps an HTML element whole to its end tag) write a cell's text indented
    after a blank line: CommonMark would make it a code block of tags in the cell. It is the cell's
    text; a fenced code block in a cell (GitHub's way) stays code."""
    source = ("# Static Files\n\n<div class=\"mobile-side-scroller\">\n<table>\n  <thead>\n    <tr>\n"
              "      <th>Variable</th>\n      <th>Description</th>\n    </tr>\n  </thead>\n  <tbody>\n    <tr>\n"
              "      <td><p><code>file.path</code></p></td>\n      <td><p>\n\n"
              "        The relative path to the file, e.g. <code>/assets/img/image.jpg</code>\n\n"
              "      </p></td>\n    </tr>\n    <tr>\n      <td><p><code>file.name</code></p></td>\n      <td>\n\n"
              "```liquid\n{{ file.name }}\n```\n\n      </td>\n    </tr>\n  </tbody>\n</table>\n</div>\n\nAfter.\n")
    document = parse_markdown(source)
    document.check()
    rows = [document.text[b.start:b.end] for b in document.blocks if b.table is not None]
    assert rows == ["| Variable | Description |\n| --- | --- |",
                    "| file.path | The relative path to the file, e.g. /assets/img/image.jpg |",
                    "| file.name | {{ file.name }} |"]
    assert "<code>" not in document.text and "</p>" not in document.text
