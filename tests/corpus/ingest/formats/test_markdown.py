from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clew.corpus.ingest.formats.markdown import github_slug, parse_markdown
from clew.corpus.ingest.parsed import ParsedDocument
from tests.corpus.ingest.formats.documents import block_texts, outline

FIXTURES = Path(__file__).parents[3] / "fixtures" / "markdown"


def load(name: str) -> ParsedDocument:
    document = parse_markdown((FIXTURES / name).read_text(encoding="utf-8"))
    document.check()
    return document


# --- acme-notes.md (shared fixture) ---------------------------------------------------


def test_acme_notes_sections_nest_under_the_title() -> None:
    document = load("acme-notes.md")
    assert outline(document) == [
        ("Acme Robotics engineering notes", 0, None),
        ("Acme Robotics engineering notes", 1, 0),
        ("Route planning", 2, 1),
        ("Dependencies", 2, 1),
        ("Data retention", 2, 1),
    ]
    assert document.title == "Acme Robotics engineering notes"
    assert document.fields == {"title": "Acme Robotics engineering notes"}
    assert document.heading_path(3) == ["Acme Robotics engineering notes", "Dependencies"]


def test_acme_notes_blocks_in_reading_order() -> None:
    document = load("acme-notes.md")
    assert [b.kind for b in document.blocks] == [
        "heading",
        "heading",
        "paragraph",
        "heading",
        "paragraph",
        "table_header",
        "table_row",
        "table_row",
        "table_row",
        "heading",
        "paragraph",
    ]
    assert [b.section for b in document.blocks] == [1, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4]
    texts = block_texts(document)
    assert texts[0] == "# Acme Robotics engineering notes"
    assert texts[2] == (
        "The logistics team plans delivery routes every morning before the robots leave the depot."
    )
    assert texts[-1].endswith("after a verified request.")


def test_acme_notes_table() -> None:
    document = load("acme-notes.md")
    assert block_texts(document, "table_header") == ["| Component | Owner | Purpose |\n| --- | --- | --- |"]
    assert block_texts(document, "table_row") == [
        "| Orion Planner | Maria Chen | Plans delivery routes |",
        "| Orion Maps | Daniel Okafor | Serves warehouse floor maps |",
        "| Fleet Monitor | Priya Raman | Tracks robot battery and health |",
    ]
    assert [t.section for t in document.tables] == [3]
    assert {b.table for b in document.blocks if b.kind.startswith("table_")} == {0}


def test_acme_notes_anchors_point_at_headings() -> None:
    document = load("acme-notes.md")
    assert [s.anchors for s in document.sections] == [
        [],
        ["acme-robotics-engineering-notes"],
        ["route-planning"],
        ["dependencies"],
        ["data-retention"],
    ]
    for name, offset in document.anchors.items():
        section = next(s for s in document.sections if name in s.anchors)
        assert offset == section.start
    assert document.text[document.anchors["dependencies"] :].startswith("## Dependencies\n")
    assert document.links == []


# --- planner-guide.md -----------------------------------------------------------------


def test_setext_headings_open_sections() -> None:
    document = load("planner-guide.md")
    assert outline(document) == [
        ("Orion Planner guide", 0, None),
        ("Orion Planner guide", 1, 0),
        ("Setup", 2, 1),
        ("Setup", 2, 1),
        ("Setup", 2, 1),
    ]
    assert block_texts(document, "heading")[:2] == ["Orion Planner guide\n===================", "Setup\n-----"]
    assert document.sections[2].start == document.text.index("Setup\n-----")


def test_fenced_code_is_one_indivisible_block() -> None:
    document = load("planner-guide.md")
    code = [b for b in document.blocks if b.kind == "code"]
    assert [document.text[b.start : b.end] for b in code] == [
        "```bash\n# not a heading\norion-planner --depot north\n```",
        "    indented code stays one block\n    second line",
    ]
    assert all(b.indivisible for b in code)
    assert all(not b.indivisible for b in document.blocks if b.kind != "code")
    assert "not a heading" not in [s.heading for s in document.sections]


def test_each_top_level_list_item_is_a_block() -> None:
    document = load("planner-guide.md")
    assert block_texts(document, "list_item") == [
        "- Plan the routes",
        "- Check the floor maps\n  - nested: the maps must be less than a day old",
        "- Report the status to the fleet channel",  # read as HTML: the anchor's tags are not text
    ]
    assert {b.section for b in document.blocks if b.kind == "list_item"} == {2}


def test_links_keep_the_href_as_written_and_point_at_their_text() -> None:
    document = load("planner-guide.md")
    assert [link.href for link in document.links] == [
        "acme-notes.md#dependencies",
        "https://example.com/orion/manual?lang=en",
    ]
    starts = [document.text[link.start :] for link in document.links]
    assert starts[0].startswith("the dependency list](")
    assert starts[1].startswith("upstream manual](")


def test_duplicate_headings_get_numbered_slugs() -> None:
    document = load("planner-guide.md")
    assert [s.anchors for s in document.sections[2:]] == [["setup"], ["setup-1"], ["setup-2"]]
    assert [document.anchors[name] for name in ("setup", "setup-1", "setup-2")] == [
        s.start for s in document.sections[2:]
    ]


def test_html_anchor_is_an_anchor() -> None:
    document = load("planner-guide.md")
    offset = document.anchors["report-step"]
    assert document.text[:offset].endswith("- Report the status ")
    assert document.text[offset:].startswith("to the fleet channel")


# --- small inline documents -----------------------------------------------------------


def test_crlf_is_normalised_and_spans_match_lf() -> None:
    lf = "# Title\n\nFirst line\nsecond line\n\n- item [a](b.md)\n"
    crlf = parse_markdown(lf.replace("\n", "\r\n"))
    crlf.check()
    assert crlf.text == lf
    plain = parse_markdown(lf)
    assert [(b.start, b.end, b.kind) for b in crlf.blocks] == [(b.start, b.end, b.kind) for b in plain.blocks]
    assert crlf.links == plain.links
    assert parse_markdown("# Old Mac\rline\r").text == "# Old Mac\nline\n"


def test_document_without_headings() -> None:
    document = parse_markdown("Just a note.\n\nAnother note, with a [link](#top).\n")
    document.check()
    assert outline(document) == [("", 0, None)]
    assert document.title is None
    assert document.fields == {}
    assert block_texts(document) == ["Just a note.", "Another note, with a [link](#top)."]
    assert [(document.text[link.start :][:4], link.href) for link in document.links] == [("link", "#top")]


def test_empty_document() -> None:
    document = parse_markdown("")
    document.check()
    assert document.blocks == []
    assert outline(document) == [("", 0, None)]


def test_section_parent_is_nearest_lower_level() -> None:
    document = parse_markdown("## Before\n\nb.\n\n# A\n\n### B\n\nb.\n\n## C\n\n### D\n\nd.\n\n# E\n")
    document.check()
    assert outline(document)[1:] == [
        ("Before", 2, 0),
        ("A", 1, 0),
        ("B", 3, 2),
        ("C", 2, 2),
        ("D", 3, 4),
        ("E", 1, 0),
    ]
    assert document.title == "A"


def test_heading_text_is_rendered_inline_text() -> None:
    document = parse_markdown("# The *Orion* `planner` &amp; [maps](maps.md)!\n")
    assert document.sections[1].heading == "The Orion planner & maps!"
    assert document.sections[1].anchors == ["the-orion-planner--maps"]
    assert [link.href for link in document.links] == ["maps.md"]


def test_blockquote_and_html_are_paragraphs_and_hr_is_skipped() -> None:
    document = parse_markdown("> quoted\nlazy line\n\n<div>\nraw\n</div>\n\n---\n\n   Indented para.\n")
    document.check()
    assert [(b.kind, document.text[b.start : b.end]) for b in document.blocks] == [
        ("paragraph", "> quoted\nlazy line"),
        ("paragraph", "raw"),
        ("paragraph", "Indented para."),
    ]


def test_reference_and_autolinks() -> None:
    source = "See [the maps][maps] and <https://example.com/a>.\n\n[maps]: docs/maps.md#floor\n"
    document = parse_markdown(source)
    assert [(link.href, document.text[link.start :][:8]) for link in document.links] == [
        ("docs/maps.md#floor", "the maps"),
        ("https://example.com/a", "https://"),
    ]


def test_table_without_body_rows() -> None:
    document = parse_markdown("| a | b |\n|---|---|\n\nafter\n")
    document.check()
    assert [(b.kind, b.table) for b in document.blocks] == [("table_header", 0), ("paragraph", None)]


def test_github_slug() -> None:
    assert github_slug("Data retention") == "data-retention"
    assert github_slug("What's new in v2.0?") == "whats-new-in-v20"
    assert github_slug("snake_case and kebab-case") == "snake_case-and-kebab-case"
    assert github_slug("Über Straße") == "über-straße"


def test_github_slug_of_ascii_keeps_what_the_unicode_rule_keeps() -> None:
    """ASCII headings take a regex shortcut; the character-category rule is the oracle."""
    import random
    import string
    import unicodedata

    def by_category(heading: str) -> str:
        kept = ["-" if c == " " else c for c in heading.strip().lower()
                if c in " -_" or unicodedata.category(c)[0] in "LNM"]
        return "".join(kept)

    rng = random.Random(5)
    headings = ["".join(rng.choice(string.printable) for _ in range(rng.randrange(30))) for _ in range(3000)]
    for heading in headings + ["  Tab\tand\nnewline  ", "A_B-C d", "~!@#$%^&*()+=[]{}|;:'\",.<>/?`"]:
        assert github_slug(heading) == by_category(heading), repr(heading)


# --- property ---------------------------------------------------------------------------

PIECES = [
    "# ", "## ", "### ", "####### ", "Heading", "word", " ", "\t", "\n", "\n\n", "\r\n", "\r",
    "- ", "* ", "1. ", "2) ", "> ", "```", "~~~", "    ", "| a | b |", "| --- | --- |", "|---|",
    "|", "[link](x.md#y)", "[ref]", "[ref]: /url", "<http://x.y>", '<a id="z">', "<div>",
    "</div>", "===", "---", "***", "*", "_", "`", "\\", "&amp;", "é", "\x00", "\u2028", "<!--",
]  # fmt: skip


@settings(max_examples=300, deadline=None, database=None)
@given(st.lists(st.sampled_from(PIECES) | st.text(max_size=3), max_size=40).map("".join))
def test_parse_markdown_never_breaks_invariants(source: str) -> None:
    document = parse_markdown(source)
    document.check()
    assert "\r" not in document.text
    for block in document.blocks:
        span = document.text[block.start : block.end]
        assert span == span.rstrip()
        if block.kind != "code":
            assert span == span.strip()
    for section in document.sections[1:]:
        opening = next(b for b in document.blocks if b.start == section.start)
        assert opening.kind == "heading"
        assert document.sections[opening.section] is section
    for link in document.links:
        assert 0 <= link.start <= len(document.text)
    assert all(0 <= offset <= len(document.text) for offset in document.anchors.values())
    assert [t.section for t in document.tables] == [
        next(b.section for b in document.blocks if b.table == i) for i in range(len(document.tables))
    ]


def test_front_matter_becomes_fields_and_leaves_the_text() -> None:
    source = "---\ntitle: Failover\nacl: [oncall, dba]\nstatus: published\n---\n# Database failover\n\nBody.\n"
    doc = parse_markdown(source)
    assert doc.fields == {"title": "Failover", "acl": ["oncall", "dba"], "status": "published"}
    assert doc.title == "Failover"
    assert doc.text.startswith("# Database failover")
    doc.check()


def test_front_matter_that_is_not_a_mapping_is_left_as_text() -> None:
    source = "---\n- just\n- a list\n---\n\nBody.\n"
    doc = parse_markdown(source)
    assert doc.fields == {}
    assert doc.text == source


# --- the inline parts read (markdown_inline.read_needed_inlines) ----------------------------------------


def test_paragraph_parts_are_parsed_only_where_something_reads_them() -> None:
    """In a document without ``<``, a top-level paragraph without ``[`` keeps no inline parts; headings,
    linked paragraphs, list items, table cells and quotes keep theirs, and with a ``<`` anywhere every one does."""
    from clew.corpus.ingest.formats.markdown import _PARSER  # its inline rule: markdown_inline.read_needed_inlines

    source = "# Title *x*\n\nplain *text*\n\nsee [a](b)\n\n- item *y*\n\n| h |\n| - |\n| *c* |\n\n> quoted *q*\n"
    parts = [bool(t.children) for t in _PARSER.parse(source) if t.type == "inline"]
    assert parts == [True, False, True, True, True, True, True]
    headings = "# Plain title 2 (of 3)\n\nSetext, two\nlines\n---\n"
    plain = [t.children for t in _PARSER.parse(headings) if t.type == "inline"]
    assert [[(c.type, c.content) for c in children or []] for children in plain] == [
        [("text", "Plain title 2 (of 3)")],  # made without the inline parse: no character its rules react to
        [("text", "Setext, two"), ("softbreak", ""), ("text", "lines")],  # a line break: parsed
    ]
    assert all(t.children for t in _PARSER.parse(source + "\nx <br>\n") if t.type == "inline")


def test_documents_parse_as_with_every_inline_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Skipping the parts of plain paragraphs changes no parsed document: the fixtures, and documents with
    links, autolinks, raw HTML, definition lists, admonitions and reference definitions, parse as they do
    with markdown-it's own inline rule."""
    from clew.corpus.ingest.formats import markdown as module

    sources = [path.read_text(encoding="utf-8") for path in sorted(FIXTURES.glob("*.md"))] + [
        "# A\n\nplain words here\n\nsee [the guide](guide.md#setup) and <https://example.com>\n",
        "# B\n\n[ref]: https://example.com\n\nuses [ref] twice: [ref]\n\n## C\n\nno link *at all*\n",
        "# D\n\n<details>\n<summary>More</summary>\n\nhidden *text*\n\n</details>\n\nafter it\n",
        "# E\n\n- `message`\n  - : The text *of* it.\n- `id`\n  - : Its id.\n\nplain after\n",
        '# F\n\n!!! note "Title"\n    body *text*\n\n    more\n\nplain\n',
        "# G {#gee}\n\nplain\n{: .note}\n\n| a | b |\n| - | - |\n| [x](y) | z |\n",
        "# Plain title\n\n## Plain title\n\n## `code` title\n\n## Tom &amp; Jerry\n\nTwo\nlines\n===\n",
        "### \\*not* em\n\nplain\n",
        "## http.get(options)\n\n## http.get(url, options)\n\ntext\n\n#\n\n## A_b c~d $e! f@g\n",
    ]
    lazy = [repr(parse_markdown(source)) for source in sources]
    monkeypatch.setattr(module, "_PARSER", module._Markdown("commonmark").enable("table"))  # every inline
    assert lazy == [repr(parse_markdown(source)) for source in sources]


def test_a_file_without_a_level_one_heading_is_titled_by_its_first_heading() -> None:
    """A trial's ``## Bundling yargs`` page had no title (``clew ls`` showed none): with no front matter ``title`` and
    no ``#`` heading, the first heading of any level is the title. MkDocs and Docusaurus fall back to the first ``#``
    heading, then the file name, which the reader does not see; a ``#`` heading or the front matter still wins."""
    document = parse_markdown("## Bundling yargs\n\nText.\n\n### With webpack\n\nMore.\n")
    document.check()
    assert (document.title, document.fields, document.sections[0].heading) == (
        "Bundling yargs", {"title": "Bundling yargs"}, "Bundling yargs")
    assert outline(document)[1:] == [("Bundling yargs", 2, 0), ("With webpack", 3, 1)]
    assert parse_markdown("## Intro\n\nText.\n\n# The Guide\n\nMore.\n").title == "The Guide"
    fronted = parse_markdown("---\nlayout: docs\ntitle: Brand guidelines\n---\n\n## Mark and logo\n\nText.\n")
    assert fronted.title == "Brand guidelines"
    assert list(fronted.fields) == ["layout", "title"]  # the front matter's fields as written


def test_a_heading_after_the_pages_text_does_not_title_it() -> None:
    """Starlette's testclient.md opens with text and code, its first heading ``### HTTP trailers`` 86 lines down: it
    was the page's title in ``clew ls`` and every hit (task U10; 18 of its 25 pages alike). Only a heading that opens
    the page titles it; otherwise the page is untitled, and ingest names it by its file ("Testclient")."""
    document = parse_markdown("The test client lets you make requests.\n\n```python\nclient = TestClient(app)\n```\n"
                              "\n### HTTP trailers\n\nText.\n")
    document.check()
    assert (document.title, document.fields, document.sections[0].heading) == (None, {}, "")
    assert outline(document)[1:] == [("HTTP trailers", 3, 0)]
