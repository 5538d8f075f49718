"""MDN Web Docs' definition lists in Markdown (``- `type``` with a nested ``- : ...``) read as terms with
their descriptions, each term named as MDN's builder names it (``markdown_deflist``)."""

from __future__ import annotations

from pathlib import Path

from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.formats.markdown import parse_markdown
from clew.corpus.store import Corpus

PAGE = """---
title: "<input>: The HTML Input element"
short-title: <input>
slug: Web/HTML/Reference/Elements/input
page-type: html-element
---

The **`<input>`** element creates interactive controls for web-based forms. Which control it shows
depends on its [`type`](#type); its [`value`](#value) is what the form submits.

## Attributes

- [`accept`](/en-US/docs/Web/HTML/Reference/Attributes/accept)
  - : Valid for the `file` input type only, the `accept` attribute defines which file types are selectable.
- `alpha` {{experimental_inline}}
  - : Valid for the `color` input type only, the `alpha` attribute lets the user set the opacity of the color.
- `type`

  - : A string specifying the type of control to render. See [Input types](#input_types) for the list.

- `value`

  - : The input control's value. When specified in the HTML, this is the initial value.

    > [!NOTE]
    > The value of a checkbox is only submitted when it is `checked`.

    See [`HTMLInputElement.value`](/en-US/docs/Web/API/HTMLInputElement/value) for scripts.

- `form action`
  - : The URL that processes the data.

After the attributes, a word on forms.

## Input types

- Text fields
  - `text`, `search`
  - `email`
- Buttons
"""


def test_terms_read_with_their_descriptions_and_anchors() -> None:
    """Each term is a line of its own, its description after it without the ``: ``; the term is an anchor
    named by its code (a badge's label left out), else its text with ``_`` for spaces; a GitHub alert in
    a description is an admonition; links keep their targets."""
    document = parse_markdown(PAGE)
    document.check()
    text = document.text
    assert "\ntype\n\nA string specifying the type of control to render." in text
    assert "\nvalue\n\nThe input control's value." in text
    assert "Note: The value of a checkbox is only submitted" in text
    assert "- : " not in text and "[!NOTE]" not in text
    for name in ("accept", "alpha", "type", "value", "form_action"):
        assert text.startswith(name.replace("_", " "), document.anchors[name]), name
    hrefs = [link.href for link in document.links]
    assert "#input_types" in hrefs and "../../attributes/accept" in hrefs  # MDN's /en-US/docs/ paths: relative
    after = next(block for block in document.blocks if text[block.start:block.end].startswith("After the"))
    assert document.sections[after.section].heading == "Attributes"
    inline_html = parse_markdown("- `enterkeyhint`\n  - : The label of the <kbd>Enter</kbd> key.\n")  # read as HTML
    assert inline_html.text.strip() == "enterkeyhint\n\nThe label of the Enter key."
    assert inline_html.anchors == {"enterkeyhint": 0}


def test_an_ordinary_nested_list_is_unchanged() -> None:
    """A list whose nested items do not start with ``: `` stays a list, as written, an item per entry."""
    document = parse_markdown(PAGE)
    text = document.text
    assert "- Text fields\n  - `text`, `search`\n  - `email`\n- Buttons" in text
    section = next(index for index, section in enumerate(document.sections) if section.heading == "Input types")
    items = [text[block.start:block.end] for block in document.blocks
             if block.section == section and block.kind == "list_item"]
    assert items == ["- Text fields\n  - `text`, `search`\n  - `email`", "- Buttons"]
    mixed = parse_markdown("- `a`\n  - : One.\n- `b`\n  - Two.\n")  # one item without ``: ``: not a definition list
    assert mixed.text == "- `a`\n  - : One.\n- `b`\n  - Two.\n" and not mixed.anchors


def test_a_long_list_gives_each_term_a_section_under_its_heading() -> None:
    """Terms of a long list are units of their own (sections one level below the heading around the list,
    siblings), as the HTML reader reads a long ``<dl>``; what follows the list is the heading's again."""
    entries = "".join(f"- `attr{n}`\n  - : {'The attribute does what its name says. ' * 12}\n" for n in range(30))
    document = parse_markdown(f"# Page\n\n## Attributes\n\n{entries}\nA closing remark.\n")
    document.check()
    terms = [section for section in document.sections if section.heading.startswith("attr")]
    assert [section.heading for section in terms] == [f"attr{n}" for n in range(30)]
    assert {(section.level, document.sections[section.parent or 0].heading) for section in terms} == {(3, "Attributes")}
    assert terms[4].anchors == ["attr4"]
    closing = next(block for block in document.blocks if document.text[block.start:block.end] == "A closing remark.")
    assert document.sections[closing.section].heading == "Attributes"


def test_links_to_a_term_land_on_its_entry(tmp_path: Path) -> None:
    """MDN links ``#value`` and ``#type`` (from the page and from another) land on the chunk that holds the term
    and its description, not on the page's first chunk."""
    folder = tmp_path / "web" / "html"
    (folder / "reference" / "elements" / "input").mkdir(parents=True)
    (folder / "reference" / "elements" / "input" / "index.md").write_text(PAGE)
    (folder / "guide.md").write_text("# Forms\n\nSet an input's [initial value](reference/elements/input#value).\n")
    with Corpus(tmp_path / "corpus.duckdb") as corpus:
        ingest_paths(corpus, [folder], chunk_tokens=40)
        rows = corpus.cursor().execute(
            """SELECT e.dst_ref, c.ordinal, c.body FROM edges e
               JOIN chunks c ON e.dst = 'ev1:c:' || c.document_id || ':' || c.version || ':' || c.ordinal
               WHERE e.graph = 'links' AND e.dst_ref LIKE '%#%'""").fetchall()
    landed = {ref: (ordinal, body) for ref, ordinal, body in rows}
    for ref, start in [("reference/elements/input#value", "value\n\nThe input control's value."),
                       ("reference/elements/input/index.md#value", "value\n\nThe input control's value."),
                       ("reference/elements/input/index.md#type", "type\n\nA string specifying")]:
        ordinal, body = landed[ref]
        assert ordinal > 0 and start in body, (ref, body)
