"""MkDocs' generic blocks (pymdown-extensions' ``/// name | title``) and mkdocstrings' ``::: package.Class`` lines
as the built site shows them (``clew.corpus.ingest.formats.markdown_blocks``; task U10, pymdown-extensions' and
Starlette's docs/)."""

from __future__ import annotations

import pytest

from clew.corpus.ingest.formats import markdown_blocks
from clew.corpus.ingest.formats.markdown import parse_markdown
from clew.corpus.ingest.formats.markdown_blocks import mkdocs_blocks

PAGE = """# Tabbed

/// tip | 9.10 New Approach to Tabs
Checkout the new Tab extension!
///

```text title="Tabs"
/// html | div.result
kept as written
///
```

/// html | div.result
~~Delete me~~
///

/// admonition | Some title
    type: warning

Some content
///

//// tab | Output
/// note
Nested.
///
////

/// new | 10.0
New in 10.0.
///

/// New | New 10.7
Plain text.
///
"""

API_PAGE = """# Applications

??? abstract "API Reference"
    ::: starlette.applications.Starlette
        options:
            show_root_heading: true
            filters:
                - "__init__"

Starlette includes an application class.

!!! note "Kept"
    ::: starlette.Thing

    A body of its own.

::: tip A VitePress container
Not an autodoc line.
:::
"""


def _texts(source: str) -> list[str]:
    parsed = parse_markdown(source)
    return [parsed.text[b.start:b.end] for b in parsed.blocks if b.kind != "heading"]


def test_generic_blocks_read_as_their_labels_and_bodies() -> None:
    texts = _texts(PAGE)
    assert texts == [
        "Tip: 9.10 New Approach to Tabs\nCheckout the new Tab extension!",
        '```text title="Tabs"\n/// html | div.result\nkept as written\n///\n```',
        "~~Delete me~~",
        "Some title:",
        "Some content",
        "Output:\nNote:\nNested.",
        "New: 10.0\nNew in 10.0.",
        "New 10.7:\nPlain text.",
    ]
    assert not any("///" in text or "type: warning" in text for text in texts if not text.startswith("```"))


def test_a_block_inside_a_list_item_is_read_as_one_outside() -> None:
    """pymdown's FancyLists page shows each example's result in ``/// html | div.result`` inside a list item (nine
    items quoted their fences)."""
    source = ("1.  Generic list items inherit type.\n\n    ```\n    #.  item\n    ```\n\n"
              "    //// html | div.result\n        attrs: {class: x}\n    #.  item\n    ////\n")
    (item,) = _texts(source)
    assert "////" not in item and "attrs" not in item and item.endswith("    #.  item")


def test_every_line_stays_a_line_and_a_stray_fence_stays_text() -> None:
    assert mkdocs_blocks(PAGE).count("\n") == PAGE.count("\n")
    assert mkdocs_blocks("A path like\n///\nstays.\n") == "A path like\n///\nstays.\n"
    rust = "Write docs as\n\n/// Returns\n\nabove the function.\n"  # nothing closes it: no block
    assert mkdocs_blocks(rust) == rust


def test_autodoc_lines_and_an_admonition_holding_only_them_are_not_text() -> None:
    texts = _texts(API_PAGE)
    assert texts[0] == "Starlette includes an application class."
    assert not any("starlette.applications" in text or "show_root_heading" in text or "API Reference" in text
                   for text in texts)
    kept = next(text for text in texts if "Kept" in text)
    assert "A body of its own." in kept and "starlette.Thing" not in kept
    assert "Tip: A VitePress container\nNot an autodoc line." in texts


def test_a_line_of_icon_links_is_not_text() -> None:
    """pymdown-extensions' pages open with ``[:octicons-file-code-24:][_tilde]{: .source-link }`` (a link to the
    page's source, drawn as an icon): it was each page's first passage and search's first hit for "strikethrough
    tilde". An icon inside a sentence stays."""
    source = ("[:octicons-file-code-24:][_tilde]{: .source-link }\n\n# Tilde\n\n"
              "[:material-github:](https://example.org/x) [:octicons-tag-24:][tag]\n\nSee [:x:][y] here.\n")
    assert _texts(source) == ["See [:x:][y] here."]
    assert mkdocs_blocks(source).count("\n") == source.count("\n")


def test_a_page_with_no_block_fence_autodoc_or_icon_line_is_not_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A "[:" in prose or code (``items[:3]``, an OpenAPI description's pattern) names no block: the page is returned
    as written without the CommonMark parse that finds its code lines (task Q1: a third of a large page's time)."""

    def no_parse(text: str) -> set[int]:
        raise AssertionError("parsed")

    monkeypatch.setattr(markdown_blocks, "code_lines", no_parse)
    page = "# Slices\n\nTake `items[:3]`, or a [:name] in prose.\n\n    /// not a fence: code\n::: not.autodoc here\n"
    assert mkdocs_blocks(page) == page
