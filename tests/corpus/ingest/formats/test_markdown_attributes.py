"""Markdown as site generators extend it (kramdown, Pandoc, attr_list, Docusaurus, Hugo) and headings
with nothing under them."""

from __future__ import annotations

from clew.corpus.ingest.formats.markdown import parse_markdown
from tests.corpus.ingest.formats.documents import outline


def test_heading_ids_and_kramdown_attribute_lists() -> None:
    """A heading's attribute list (``{#id}``: Pandoc, kramdown, Docusaurus, Hugo; ``{: #id}``: attr_list,
    MkDocs) names it and is not part of its name; kramdown's attribute lists on lines of their own
    (``{: .note}``, ``{:toc}``, a heading's ``{: #id}`` on the line after it, Jekyll's docs) and at the
    start of a paragraph are not text."""
    document = parse_markdown(
        "# Themes\n\n## Installing a gem-based theme {#installing-a-theme}\n\nRun bundle.\n\n"
        "### C# {: #csharp .lang}\n\nText.\n\n## Bug Fixes\n{: #bug-fixes-v4-0-0}\n\n* fix one\n\n"
        "{: .note .info}\nIf you see a warning, ignore it.\n\n{: .note} To switch part of your config.\n\n"
        "Text.\n{: .warning}\n\n{:toc}\n\nSee [the theme](#installing-a-theme).\n")
    document.check()
    assert outline(document)[1:] == [("Themes", 1, 0), ("Installing a gem-based theme", 2, 1), ("C#", 3, 2),
                                      ("Bug Fixes", 2, 1)]
    assert document.sections[2].anchors == ["installing-a-theme", "installing-a-gem-based-theme"]
    assert document.sections[3].anchors[0] == "csharp"
    assert document.sections[4].anchors == ["bug-fixes", "bug-fixes-v4-0-0"]
    assert document.text[document.anchors["bug-fixes-v4-0-0"]:].startswith("## Bug Fixes\n\n* fix one")
    texts = [document.text[b.start:b.end] for b in document.blocks if b.kind != "heading"]
    assert "If you see a warning, ignore it." in texts and "To switch part of your config." in texts
    assert "Text." in texts and "{:" not in document.text
    assert [link.href for link in document.links] == ["#installing-a-theme"]


def test_shortcode_lines_inside_an_html_table_keep_the_table_whole() -> None:
    """Bootstrap's docs (Hugo): a line holding two shortcodes around text is not one shortcode line, and a
    shortcode line inside a raw HTML table is not a blank line that would end the HTML block there (the
    rest of the table, indented, was read as a code block of tags)."""
    document = parse_markdown(
        "## Headings\n\n<table>\n  <thead>\n    <tr>\n      <th>Heading</th>\n      <th>Example</th>\n    </tr>\n"
        "  </thead>\n  <tbody>\n    <tr>\n      <td>\n        {{< markdown >}}`h1`{{< /markdown >}}\n      </td>\n"
        '      <td><span class="h1">h1. Bootstrap heading</span></td>\n    </tr>\n    <tr>\n      <td>\n'
        '        {{< partial "heading-two.md" >}}\n      </td>\n      <td><span class="h2">h2. Bootstrap heading</span>'
        "</td>\n    </tr>\n  </tbody>\n</table>\n\nAfter the table.\n")
    document.check()
    rows = [(b.kind, document.text[b.start:b.end]) for b in document.blocks if b.table is not None]
    assert rows == [("table_header", "| Heading | Example |\n| --- | --- |"),
                    ("table_row", "| h1 | h1. Bootstrap heading |"),  # the pair reads as what it holds
                    ("table_row", "|  | h2. Bootstrap heading |")]
    assert not any(b.kind == "code" for b in document.blocks)
    assert "</td>" not in document.text and "<!--" not in document.text
    last = document.blocks[-1]
    assert (last.kind, document.text[last.start:last.end]) == ("paragraph", "After the table.")


def test_a_heading_with_nothing_under_it_is_a_paragraph_of_the_section_around_it() -> None:
    """Node.js's cli.md lists the V8 options it documents as headings in a row with nothing under them:
    each is a line of the section around them (anchors kept), not an empty section. A heading whose
    text or subsections follow, and a document's last heading, stay sections."""
    source = ("# Command-line API\n\n## Options\n\n### `--jitless`\n\nDisable runtime allocation.\n\n"
              "## Useful V8 options\n\nA small set of V8 options are documented here:\n\n<!-- v8-options start -->\n\n"
              "### `--expose-gc`\n\n### `--jitless`\n\n### `--prof`\n\n"
              '<a id="--max-old-space-sizesize-in-megabytes"></a>\n\n### `--max-old-space-size=SIZE` (in MiB)\n\n'
              "Sets the max memory size.\n\n## Environment variables\n\n### `FORCE_COLOR=[1, 2, 3]`\n\nColors.\n\n"
              "## Last\n")
    document = parse_markdown(source)
    document.check()
    assert outline(document)[1:] == [
        ("Command-line API", 1, 0), ("Options", 2, 1), ("--jitless", 3, 2), ("Useful V8 options", 2, 1),
        ("--max-old-space-size=SIZE (in MiB)", 3, 4), ("Environment variables", 2, 1),
        ("FORCE_COLOR=[1, 2, 3]", 3, 6), ("Last", 2, 1)]
    v8 = [(b.kind, document.text[b.start:b.end]) for b in document.blocks if b.section == 4]
    assert v8 == [("heading", "## Useful V8 options"),
                  ("paragraph", "A small set of V8 options are documented here:"),
                  ("paragraph", "### `--expose-gc`"), ("paragraph", "### `--jitless`"), ("paragraph", "### `--prof`")]
    assert document.text[document.anchors["--expose-gc"]:].startswith("### `--expose-gc`")
    assert document.text[document.anchors["--jitless-1"]:].startswith("### `--jitless`\n\n### `--prof`")
    assert document.sections[5].anchors == ["--max-old-space-sizesize-in-mib"]
    # an HTML heading too: Fastify's guides open with a centred <h1> over their own "#" heading
    guide = parse_markdown('<h1 align="center">Fastify</h1>\n\n# Database\n\nPlugins for databases.\n')
    guide.check()
    assert outline(guide)[1:] == [("Database", 1, 0)]
    assert [(b.kind, guide.text[b.start:b.end]) for b in guide.blocks] == [
        ("paragraph", "# Fastify"), ("heading", "# Database"), ("paragraph", "Plugins for databases.")]
    assert guide.blocks[0].section == 0 and guide.title == "Database"  # the banner's heading after it (task R16)


def test_liquid_tags_read_as_a_reader_of_the_built_page_sees_them() -> None:
    """Jekyll's docs: tag lines ({% raw %}, {% include %}, {% if %}) and comments are not text, inline tags
    neither ({% link %} and {% post_url %} read as their path), a {% highlight %} pair is a code block,
    and code keeps the tags it shows, as does a raw HTML table the tag lines sat in."""
    source = ("# Assets\n\n{% raw %}\n```liquid\n{% for x in site.static_files %}\n  {{ x.path }}\n{% endfor %}\n```\n"
              "{% endraw %}\n\n{% highlight ruby %}\ndef foo\n  puts 'foo'\nend\n{% endhighlight %}\n\n"
              "{% include docs_contents_mobile.html %}\n\n"
              "## Sorting {%- include docs_version_badge.html version=\"4.0\" -%}\n\n"
              "Use {% raw %}{{ page.title }}{% endraw %}, see [setup]({% link _docs/setup.md %}).\n\n"
              "Wrap it in `{% raw %}` and `{% endraw %}`.\n\n"
              "{% comment %}\nHidden from readers.\n{% endcomment %}\n\n"
              "<table>\n<tr><td>a</td><td>\n{% if site.x %}\n  b\n{% endif %}\n</td></tr>\n"
              "<tr><td>c</td><td>d</td></tr>\n</table>\n")
    document = parse_markdown(source)
    document.check()
    blocks = [(b.kind, document.text[b.start:b.end]) for b in document.blocks]
    assert blocks == [
        ("heading", "# Assets"),
        ("code", "```liquid\n{% for x in site.static_files %}\n  {{ x.path }}\n{% endfor %}\n```"),
        ("code", "```ruby\ndef foo\n  puts 'foo'\nend\n```"),
        ("heading", "## Sorting"),
        ("paragraph", "Use {{ page.title }}, see [setup](_docs/setup.md)."),
        ("paragraph", "Wrap it in `{% raw %}` and `{% endraw %}`."),
        ("table_row", "| a | b |"), ("table_row", "| c | d |")]
    assert [s.heading for s in document.sections[1:]] == ["Assets", "Sorting"]
    assert [link.href for link in document.links] == ["_docs/setup.md"]
