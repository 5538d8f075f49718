"""Markdown as documentation tools write it: GitHub alerts and MkDocs admonitions, MDX, directive containers,
content tabs, Hugo shortcodes, overloads as consecutive headings, link reference definitions, API Documenter's pages
(``clew.corpus.ingest.formats.dialects`` and the Markdown reader)."""

from __future__ import annotations

from pathlib import Path

from clew.corpus.ingest.formats.markdown import parse_markdown, parse_mdx

FIXTURES = Path(__file__).parents[3] / "fixtures" / "markdown"


def test_github_alerts_and_mkdocs_admonitions_are_one_block_of_their_section() -> None:
    source = (FIXTURES / "admonitions.md").read_text(encoding="utf-8")
    document = parse_markdown(source)
    document.check()
    assert [s.heading for s in document.sections] == ["Deploying", "Deploying", "Rolling back"]
    texts = [(b.kind, b.section, document.text[b.start:b.end]) for b in document.blocks]
    assert texts[2:8] == [
        ("paragraph", 1, "> [!NOTE]\n> Deploys pause during the Friday freeze.\n> Ask the release manager for an "
                         "exception."),
        ("paragraph", 1, "> [!WARNING]\n> ## Not a section\n> A rollback drops the sessions of signed-in users."),
        ("paragraph", 1, '!!! note "Before you start"\n\n    Check that the build is green.\n\n    ```sh\n'
                         "    make check\n    ```\n\n    - tag the release\n    - announce it"),
        ("paragraph", 1, "Run `make deploy` afterwards."),
        ("paragraph", 1, "!!! tip\n    One line, directly under its marker."),
        ("paragraph", 1, '???+ danger "Data loss"\n    Never deploy a migration and its rollback together.'),
    ]
    assert texts[9:] == [("paragraph", 2, "!!! warning\n\n    Rolling back needs the previous image."),
                         ("paragraph", 2, "Text right after the body is a paragraph of its own.")]


def test_an_admonition_marker_inside_code_is_code() -> None:
    document = parse_markdown("# T\n\n```\n!!! note\n\n    body\n```\n\n    !!! note\n")
    assert [b.kind for b in document.blocks] == ["heading", "code", "code"]


DOCUSAURUS_PAGE = """---
title: Installation
---

import Tabs from '@theme/Tabs';
export const Highlight = ({children}) => (
  <span style={{color: 'green'}}>{children}</span>
);

# Installation

<Tabs>
  <TabItem value="npm" label="npm">

```bash
npm install widget
```

  </TabItem>
</Tabs>

:::tip[Use the latest version]

Widget 3 needs Node 18.

:::

<Highlight>Widgets</Highlight> turn. Write `<Tabs>` around them.

```jsx
import Tabs from '@theme/Tabs';
<Tabs><TabItem value="a">A</TabItem></Tabs>
```
"""


def test_mdx_reads_without_its_esm_lines_and_component_tags() -> None:
    document = parse_mdx(DOCUSAURUS_PAGE)
    document.check()
    text = document.text
    assert "import Tabs" not in text.split("```jsx")[0] and "export const" not in text and "<span" not in text
    assert "<TabItem" not in text.split("```jsx")[0] and "</Tabs>" not in text.split("```jsx")[0]
    assert "Tip: Use the latest version" in text and ":::" not in text
    assert "Widgets turn. Write `<Tabs>` around them." in text
    codes = [text[b.start:b.end] for b in document.blocks if b.kind == "code"]
    assert codes[0] == "```bash\nnpm install widget\n```"
    assert "import Tabs from '@theme/Tabs';\n<Tabs><TabItem value=\"a\">A</TabItem></Tabs>" in codes[1]
    assert document.fields["title"] == "Installation"


def test_directive_containers_read_as_their_label_in_markdown_too() -> None:
    document = parse_markdown("# Setup\n\n::: warning Check the port\nPort 80 needs root.\n:::\n\n"
                              "```text\n:::note kept\n```\n")
    assert "Warning: Check the port\nPort 80 needs root." in document.text
    assert ":::note kept" in document.text
    assert document.text.count(":::") == 1


def test_an_mdx_file_in_a_folder_is_ingested_as_mdx(tmp_path: Path) -> None:
    from clew.corpus.ingest.api import ingest_paths
    from clew.corpus.store import Corpus

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "install.mdx").write_text(DOCUSAURUS_PAGE, encoding="utf-8")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [tmp_path / "docs"], collection="docs")
        rows = corpus.cursor().execute(
            "SELECT d.key, v.format FROM documents d JOIN document_versions v ON v.document_id = d.id").fetchall()
    assert (report.documents, report.skipped, rows) == (1, 0, [("install.mdx", "mdx")])


def test_an_mkdocs_content_tab_body_is_text_not_an_indented_code_block() -> None:
    document = parse_markdown('# Install\n\n=== "pip"\n\n    Install with pip, the Python package manager.\n\n'
                              '    ```bash\n    pip install widget\n    ```\n\n'
                              '===+ "conda"\n\n    Install with conda.\n\nAfter the tabs.\n')
    document.check()
    assert [(b.kind, document.text[b.start:b.end].split("\n")[0]) for b in document.blocks] == [
        ("heading", "# Install"), ("paragraph", '=== "pip"'), ("paragraph", '===+ "conda"'),
        ("paragraph", "After the tabs."),
    ]


def test_hugo_shortcodes_read_as_a_reader_sees_them() -> None:
    """Kubernetes' docs: admonition shortcodes are labels, other block shortcodes are not text, a
    glossary tooltip is its text; code keeps what it shows."""
    document = parse_markdown(
        '# Pods\n\nA {{< glossary_tooltip text="Pod" term_id="pod" >}} runs containers.\n\n'
        "{{< note >}}\nPods are ephemeral.\n{{< /note >}}\n\n"
        '{{% warning title="Data loss" %}}\nDeleting a Pod deletes its data.\n{{% /warning %}}\n\n'
        '{{< tabs name="install" >}}\n{{% tab name="kubectl" %}}\nRun kubectl.\n{{% /tab %}}\n{{< /tabs >}}\n\n'
        "```\n{{< note >}} in code\n```\n")
    document.check()
    text = document.text
    assert "A Pod runs containers." in text
    assert "Note:\nPods are ephemeral." in text and "Warning: Data loss\nDeleting a Pod deletes its data." in text
    assert "Run kubectl." in text and "tabs" not in text and "{{< /note >}}" not in text
    assert "{{< note >}} in code" in text


def test_overloads_written_as_consecutive_headings_are_one_section() -> None:
    """Node.js's API docs write an overloaded function as one heading per signature, the text under the
    last: one section named by both, its heading block over both lines, both slugs its anchors. A
    heading of the same level that names something else is not joined (empty, it is a paragraph)."""
    source = ("# HTTP\n\n## `http.get(options[, callback])`\n\n## `http.get(url[, options][, callback])`\n\n"
              "<!-- YAML\nadded: v0.3.6\n-->\n\n* `url` {string | URL}\n\nSince most requests are GET requests.\n\n"
              "## `http.globalAgent`\n\n## `http.maxHeaderSize`\n\nRead-only property.\n")
    document = parse_markdown(source)
    document.check()
    assert [(s.level, s.heading) for s in document.sections[1:]] == [
        (1, "HTTP"), (2, "http.get(options[, callback]), http.get(url[, options][, callback])"),
        (2, "http.maxHeaderSize")]
    get = document.sections[2]
    assert get.anchors == ["httpgetoptions-callback", "httpgeturl-options-callback"]
    heading = next(b for b in document.blocks if b.start == get.start)
    assert document.text[heading.start:heading.end] == (
        "## `http.get(options[, callback])`\n\n## `http.get(url[, options][, callback])`")
    assert document.text[document.anchors["httpgeturl-options-callback"]:].startswith("## `http.get(url")
    assert [document.text[b.start:b.end] for b in document.blocks if b.section == 2][1:] == [
        "* `url` {string | URL}", "Since most requests are GET requests."]


def test_link_reference_definitions_are_not_text_and_their_links_resolve() -> None:
    """Node.js's API docs end with hundreds of link reference definitions (``[`fs.rm()`]: #fsrmpath``):
    they make no token, a reader never sees them, and stored as text they were chunks of their own that
    matched every function name. They are left out of the text (with their blank lines); the links that
    use them keep their targets and places, and so do the anchors and blocks after them."""
    source = ("# File system\n\nSee [`fs.rm()`][] and [the flags][flags].\n\n[flags]: #file-system-flags\n\n"
              "## `fs.rm(path)`\n\nRemoves files.\n\n> [see]: not a definition, a quote\n\n"
              "[`fs.rm()`]: #fsrmpath\n[`util.promisify()`]: util.md#utilpromisifyoriginal\n"
              '[inode]: https://en.wikipedia.org/wiki/Inode\n  "Inode"\n')
    document = parse_markdown(source)
    document.check()
    assert document.text == ("# File system\n\nSee [`fs.rm()`][] and [the flags][flags].\n\n## `fs.rm(path)`\n\n"
                             "Removes files.\n\n> [see]: not a definition, a quote\n\n")
    assert [(link.href, document.text[link.start:link.start + 7]) for link in document.links] == [
        ("#fsrmpath", "fs.rm()"), ("#file-system-flags", "the fla")]
    assert document.text[document.anchors["fsrmpath"]:].startswith("## `fs.rm(path)`")
    assert [document.text[b.start:b.end] for b in document.blocks][-1] == "> [see]: not a definition, a quote"


BOOTSTRAP_MODAL = """## Live demo

Toggle a working modal demo by clicking the button below. See [tooltips]({{< docsref "/components/tooltips" >}})
and [the sizes]({{< relref "forms.md#sizing" >}}).

{{< example >}}
<button type="button" class="btn btn-primary" data-toggle="modal" data-target="#exampleModal">
  Launch demo modal
</button>

<div class="modal fade" id="exampleModal" tabindex="-1" aria-labelledby="exampleModalLabel" aria-hidden="true">
  <div class="modal-dialog">
    <div class="modal-header">
      <h5 class="modal-title" id="exampleModalLabel">Modal title</h5>
    </div>
    <div class="modal-body">
      {{< placeholder width="100%" height="180" >}}
    </div>
  </div>
</div>
{{< /example >}}

{{< highlight js >}}
$('#myModal').on('shown.bs.modal', function () { $('#myInput').trigger('focus') })
{{< /highlight >}}

{{< callout info >}}
Only one modal at a time.
{{< /callout >}}

## Usage

The modal plugin toggles your hidden content on demand.
"""


def test_hugo_link_shortcodes_are_links_and_live_demos_are_code() -> None:
    """Bootstrap's docs (Hugo): a link written ``{{< docsref "/path" >}}`` (Hugo's ``ref``/``relref``) is a
    Markdown link to its path, so it is indexed and resolved; a pair of shortcode lines around raw HTML
    (``{{< example >}}``, a live demo) or around ``highlight``'s code is a fenced code block, so the
    demo's heading ("Modal title", eight times in modal.md) opens no section; an admonition's pair stays
    its label."""
    document = parse_markdown(BOOTSTRAP_MODAL)
    document.check()
    assert [section.heading for section in document.sections[1:]] == ["Live demo", "Usage"]
    assert [link.href for link in document.links] == ["/components/tooltips", "forms.md#sizing"]
    assert document.text[document.links[0].start:].startswith("tooltips](/components/tooltips)")
    code = [document.text[b.start:b.end] for b in document.blocks if b.kind == "code"]
    assert len(code) == 2
    assert code[0].startswith("```html\n<button") and code[0].endswith("</div>\n```")
    assert '<h5 class="modal-title" id="exampleModalLabel">Modal title</h5>' in code[0]
    assert '{{< placeholder width="100%" height="180" >}}' in code[0]  # code is kept as written
    assert code[1] == "```js\n$('#myModal').on('shown.bs.modal', function () { $('#myInput').trigger('focus') })\n```"
    assert "Callout:\nOnly one modal at a time." in document.text
    assert "{{<" not in document.text.replace(code[0], "")


def test_a_shortcode_pair_around_markdown_is_not_code() -> None:
    """A pair whose body is Markdown (Kubernetes' tabs) or template code stays text, and an unclosed
    shortcode line is blank as before."""
    document = parse_markdown('{{< tabs name="install" >}}\n{{% tab name="kubectl" %}}\nRun **kubectl**.\n'
                              '{{% /tab %}}\n{{< /tabs >}}\n\n{{< example >}}\n<div class="x">Never closed</div>\n')
    document.check()
    assert not any(b.kind == "code" for b in document.blocks)
    assert "Run **kubectl**." in document.text and "Never closed" in document.text and "{{<" not in document.text


def test_an_inline_shortcodes_template_is_code_outside_raw_html() -> None:
    """Hugo's inline shortcodes (``{{< flex.inline >}}``, Bootstrap's class lists drawn from site data)
    hold a Go template, not text: a code block; the same pair inside a raw HTML block is left to the
    HTML reader (a fence there would be text of the block)."""
    document = parse_markdown(
        "## Enable flex behaviors\n\n{{< markdown >}}\n{{< flex.inline >}}\n{{- range $.Site.Data.breakpoints }}\n"
        "- `.d{{ .abbr }}-flex`\n{{- end -}}\n{{< /flex.inline >}}\n{{< /markdown >}}\n\n"
        '<div class="row">\n  {{< colors.inline >}}\n  {{- range $.Site.Data.colors }}\n'
        '  <div class="swatch-{{ .name }}">{{ .hex }}</div>\n  {{ end -}}\n  {{< /colors.inline >}}\n</div>\n')
    document.check()
    code = [document.text[b.start:b.end] for b in document.blocks if b.kind == "code"]
    assert code == ["```go-html-template\n{{- range $.Site.Data.breakpoints }}\n- `.d{{ .abbr }}-flex`\n"
                    "{{- end -}}\n```"]
    assert "```" not in document.text.replace(code[0], "") and "{{<" not in document.text


API_DOCUMENTER_PAGE = ("<!-- Do not edit this file. It is automatically generated by API Documenter. -->\n\n"
                       "[Home](./index.md) &gt; [clew-budgets](./clew-budgets.md) &gt; "
                       "[Budget](./clew-budgets.budget.md) &gt; [spend](./clew-budgets.budget.spend.md)\n" + """
## Budget.spend() method

Spend one unit.

**Signature:**

```typescript
spend(kind: "tool" | "tokens", amount?: number): boolean;
```
""")
"""api-documenter 7 (npm @microsoft/api-documenter, ``api-documenter markdown`` of api-extractor's model of a module
written for the tests): ``clew-budgets.budget.spend.md`` as written."""


def test_api_documenters_breadcrumbs_are_not_text() -> None:
    """Every page API Documenter writes opens with its breadcrumbs, a line of links joined by "&gt;", read as the
    page's first paragraph (task R7); its title is its first heading, a "##" (R6's rule)."""
    document = parse_markdown(API_DOCUMENTER_PAGE)
    assert document.title == "Budget.spend() method"
    assert document.text.startswith("## Budget.spend() method\n\nSpend one unit.")
    assert "Home" not in document.text and "&gt;" not in document.text
    assert [link.href for link in document.links] == []
    same_line_elsewhere = parse_markdown(API_DOCUMENTER_PAGE.split("\n", 1)[1])  # no generator comment: kept
    assert same_line_elsewhere.text.lstrip().startswith("[Home](./index.md) &gt; [clew-budgets]")
