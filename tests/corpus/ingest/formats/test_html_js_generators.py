"""HTML as the documentation generators of JavaScript projects publish it: Docusaurus 3 (classic preset),
VitePress 1 (default theme) and Starlight 0.37 (Astro 5). Each fixture is clew's own ``docs/guides/mcp.md``
built by that generator with an admonition, a titled code block and a tab set in its own syntax
(tests/fixtures/html/README.md says how), so each page holds the same text and must read the same."""

from __future__ import annotations

import pytest

from clew.corpus.ingest.formats.html import parse_html
from clew.corpus.ingest.formats.html_jsdocs import site_name_box, tab_panels, tab_panels_start
from clew.corpus.ingest.formats.html_rules import Event
from clew.corpus.ingest.parsed import ParsedDocument
from tests.corpus.ingest.formats.documents import block_texts, load_html

GENERATORS = ("docusaurus", "vitepress", "starlight")
LABELS = {"docusaurus": "note", "vitepress": "TIP", "starlight": "Note"}
CHROME = ("Section titled", "Terminal window", "On this page", "Edit this page", "Edit page", "Previous",
          "Next", "Copy", "Skip to content", "Evidence ids", "Budgets", "Permissions", "Select theme",
          "Search", "Main Navigation", "Pager")


def page(generator: str) -> ParsedDocument:
    return load_html(f"{generator}/mcp.html")


@pytest.mark.parametrize("generator", GENERATORS)
def test_the_page_reads_as_its_markdown_without_the_chrome(generator: str) -> None:
    """The title and the headings of the Markdown page, its text, and none of the chrome: the navbar,
    the sidebar of the other pages (Budgets, Evidence ids, Permissions), "On this page", "Edit this page",
    the pager, the footer, copy buttons, Starlight's hidden "Section titled ..." beside every heading and
    "Terminal window" over shell examples, VitePress's language name over every code block."""
    document = page(generator)
    assert document.title == "MCP clients"
    assert [s.heading for s in document.sections] == [
        "MCP clients", "MCP clients", "Stdio", "Streamable HTTP", "What a client sees", "From Python"]
    assert [s.level for s in document.sections[1:]] == [1, 2, 2, 2, 2]
    for chrome in CHROME:
        assert chrome not in document.text, chrome
    assert "\nsh\n" not in document.text and "\njson\n" not in document.text
    assert document.text.startswith("# MCP clients\n\nclew mcp serves every tool (and retrieve, the whole agent)")
    assert document.text.endswith("calls search, fetch_evidence, check_citations and retrieve; it runs in CI.")
    assert {"from-python", "stdio", "streamable-http", "what-a-client-sees"} <= set(document.anchors)
    assert document.text.startswith("## Stdio", document.anchors["stdio"])


@pytest.mark.parametrize("generator", GENERATORS)
def test_code_blocks_keep_their_lines(generator: str) -> None:
    """Docusaurus writes each line of a highlighted example as a ``div.token-line`` ending in ``br``,
    Starlight (Expressive Code) as a ``div.ec-line``, VitePress as a ``span.line``: each is one line."""
    code = block_texts(page(generator), "code")
    assert code[2] == ('```json\n{"mcpServers": {"clew": {\n'
                       '  "command": "/home/me/clew/.venv/bin/clew",\n'
                       '  "args": ["mcp", "--db", "/home/me/notes.duckdb", "--config", "/home/me/clew.toml",'
                       ' "--principal", "support"]\n'
                       '}}}\n```')  # fenced as the Markdown source was, its language kept
    assert len(code) == 6


@pytest.mark.parametrize("generator", GENERATORS)
def test_an_admonition_is_one_paragraph_led_by_its_label(generator: str) -> None:
    """Docusaurus's ``div.theme-admonition``, VitePress's ``div.tip.custom-block`` (label
    ``p.custom-block-title``) and Starlight's ``aside.starlight-aside`` (label ``p.starlight-aside__title``)."""
    texts = block_texts(page(generator), "paragraph")
    assert f"{LABELS[generator]}: The descriptions state the traversal contract (search first," in "\n".join(texts)
    assert LABELS[generator] not in texts


@pytest.mark.parametrize("generator", GENERATORS)
def test_each_tab_reads_as_its_label_then_its_content(generator: str) -> None:
    """A tab set writes its labels first, all together, then its panels (Docusaurus's and Starlight's
    ``role="tablist"`` / ``role="tabpanel"``, VitePress's code group): each label comes before its panel."""
    text = page(generator).text
    assert ("Another port\n\n```sh\nclew mcp --db notes.duckdb --transport http --port 9000  # another port\n```\n\n"
            'Client configuration\n\n```json\n{"mcpServers": {"clew": {"url": "http://127.0.0.1:8081/mcp"}}}\n```\n\n'
            "## What a client sees") in text
    assert text.count("Another port") == 1


def test_a_code_block_title_is_kept() -> None:
    """Docusaurus's ``title="serve.sh"`` (``div.codeBlockTitle``) and Starlight's frame title name the
    example: a paragraph before it (VitePress shows such a title only inside a code group)."""
    for generator in ("docusaurus", "starlight"):
        text = page(generator).text
        assert "serve.sh\n\n```sh\nclew mcp --db notes.duckdb --transport http             # http" in text


def test_tab_panels_leave_a_set_whose_labels_and_panels_do_not_pair_up() -> None:
    tab_set = ('<div class="tabs-container"><ul role="tablist"><li role="tab">One</li><li role="tab">Two</li></ul>'
               '<div role="tabpanel"><p>First.</p></div></div><p>After.</p>')
    assert parse_html(tab_set).text == "- One\n- Two\n\nFirst.\n\nAfter."
    events: list[Event] = [("start", "div", [("class", "vp-code-group")]), ("data", "x", []), ("end", "div", [])]
    assert tab_panels(events) == events
    assert tab_panels_start("starlight-tabs", []) and not tab_panels_start("div", [("class", "tabs")])


def test_a_tab_set_nested_in_a_panel_keeps_its_own_labels() -> None:
    """Only the outer set's tab list and panels pair up; a set inside a panel is read as its own set."""
    inner = ('<div class="tabs-container"><ul role="tablist"><li role="tab">pip</li></ul>'
             '<div role="tabpanel"><pre>pip install clew</pre></div></div>')
    outer = ('<div class="tabs-container"><ul role="tablist"><li role="tab">Linux</li><li role="tab">Windows</li>'
             f'</ul><div role="tabpanel">{inner}</div><div role="tabpanel"><p>Use WSL.</p></div></div>')
    assert parse_html(outer).text == "Linux\n\npip\n\n```\npip install clew\n```\n\nWindows\n\nUse WSL."


def test_a_vitepress_page_without_h1_is_titled_without_the_site_name_and_its_code_without_line_numbers() -> None:
    """clew's ``docs/concepts/permissions.md`` with its title in the front matter, as the npm pages have it, and
    its example written ``toml:line-numbers``: VitePress writes no ``h1`` and titles the page "Permissions | clew";
    the site's name is read from the nav bar (``div.VPNavBarTitle``), and the line numbers beside the code
    (``div.line-numbers-wrapper``) are not text."""
    document = load_html("vitepress/permissions.html")
    assert document.title == "Permissions"
    assert [s.heading for s in document.sections] == [
        "Permissions", "What a principal may read", "A principal in clew.toml", "What clew promises"]
    code = block_texts(document, "code")
    assert code == [document.text[document.text.index("```toml\n[principals.support]"):document.text.index(
        'principal = "support"\n```') + len('principal = "support"\n```')]]
    assert 'principal = "support"\n```\n\nA request\'s own principal is always replaced' in document.text
    assert "\n1\n2\n" not in document.text


def test_a_site_name_box_is_only_vitepress_nav_bar_title() -> None:
    """Elsewhere a ``<title>`` keeps what follows its separator unless the chrome's ``h1`` names the site."""
    page = ('<html><head><title>Intro | {site}</title></head><body><header><div class="{box}"><a href="/">'
            '<span>{site}</span></a></div></header><main><p>Text.</p></main></body></html>')
    assert parse_html(page.format(site="Docs", box="VPNavBarTitle has-sidebar")).title == "Intro"
    assert parse_html(page.format(site="Docs", box="navbar-title")).title == "Intro | Docs"
    box = [("class", "VPNavBarTitle")]
    assert site_name_box("div", box) and not site_name_box("span", box)


def test_docusaurus_version_and_unlisted_banners_are_chrome() -> None:
    """clew's ``docs/concepts/permissions.md`` as the "Next" version of a versioned Docusaurus site
    (``docusaurus docs:version 1.0``), front matter ``unlisted: true``: inside ``main``, above the article,
    Docusaurus writes the unlisted page's banner, "This is unreleased documentation ..." and "Version: Next"."""
    document = load_html("docusaurus/next-permissions.html")
    assert document.title == "Permissions"
    assert document.text.startswith("# Permissions\n\nA caller runs as a principal:")
    for chrome in ("Unlisted page", "unreleased documentation", "latest version", "Version: Next"):
        assert chrome not in document.text, chrome
    assert [link.href for link in document.links][:1] == ["/next/configuration"]


def test_docusaurus_inline_table_of_contents_is_dropped_like_docbooks() -> None:
    """``<TOCInline toc={toc} />`` (``div.tableOfContentsInline_<hash>``) lists the page's own headings as
    same-page links: dropped, as DocBook's ``div.toc`` of one page is. A titled admonition
    (``:::warning[Never re-pointed]``) is labelled by its title; ``showLineNumbers`` numbers lines by CSS only."""
    document = load_html("docusaurus/features.html")
    assert document.text.startswith("# Evidence ids\n\n## One spelling\n\nIts numbers are ASCII digits")
    assert "Never re-pointed: An id handed out yesterday is never silently re-pointed at other text." in document.text
    assert 'ids.py\n\n```python\nfrom clew.corpus.ids import decode\ndecode("ev1:c:1:1:0")\n```\n\n' in document.text
