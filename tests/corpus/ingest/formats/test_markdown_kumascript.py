"""MDN Web Docs' Markdown: KumaScript macros read as the built page shows them (``markdown_kumascript``)."""

from __future__ import annotations

from clew.corpus.ingest.formats.markdown import parse_markdown
from clew.corpus.ingest.formats.markdown_kumascript import kumascript_macros
from clew.corpus.ingest.prepare import resolve_href

PAGE = """---
title: Window.alert() method
short-title: alert()
slug: Web/API/Window/alert
page-type: web-api-instance-method
browser-compat: api.Window.alert
---

{{APIRef}}

{{SecureContext_Header}}{{SeeCompatTable}}

`window.alert()` instructs the browser to display a dialog, like {{domxref("Window.confirm()")}} and
{{domxref("Window/prompt", "prompt()")}} do; it returns {{jsxref("undefined")}} (see {{glossary("modal")}}).

### Parameters

- `message` {{optional_inline}}
  - : A string, or an object converted with {{jsxref("Object.prototype.toString()")}}.
- `legacy` {{deprecated_inline}}
  - : Ignored. See the {{HTMLElement("dialog")}} element and {{CSSxRef("color")}}.

| Header | Meaning |
| ------ | ------- |
| {{httpheader("Accept")}} | the types, {{HTTPHeader("Accept", "an anchor", "#syntax")}} |

<table>
  <tr><td>{{domxref("Window.confirm()", "confirm")}}</td></tr>
  <tr><td>{{Deprecated_Inline}}</td></tr>
</table>

{{EmbedLiveSample("examples", 200, 100)}}

In a template, `{{domxref("Window.alert()")}}` is written as it is.

```js
// {{jsxref("Array")}} stays in code
```

A Vue template shows {{ message }} and {{name}}, Jinja {{ url_for('index') }}.

## Specifications

{{Specifications}}
"""


def test_cross_references_read_as_links_to_their_pages() -> None:
    """An xref macro is its display text (the second argument, else the first; in code where MDN shows
    code) linked to its page's source folder, relative to the page's own folder (front matter ``slug``)."""
    document = parse_markdown(PAGE)
    document.check()
    text = document.text
    assert "like [`Window.confirm()`](../confirm) and\n[`prompt()`](../prompt) do" in text
    assert "returns [`undefined`](../../../javascript/reference/global_objects/undefined)" in text
    assert "(see [modal](../../../../glossary/modal))" in text
    # in a definition list (``- : ``), read as MDN's <dl>: the link's text, its target among the links
    assert "converted with Object.prototype.toString().\n" in text and "See the <dialog> element and color." in text
    assert {"../../../javascript/reference/global_objects/object/tostring", "../../../html/reference/elements/dialog",
            "../../../css/reference/properties/color"} <= {link.href for link in document.links}
    key = "web/api/window/alert/index.md"  # where MDN keeps the page: links resolve to the folders' index pages
    hrefs = [resolve_href(key, link.href) for link in document.links]
    assert hrefs[:3] == ["web/api/window/confirm", "web/api/window/prompt",
                         "web/javascript/reference/global_objects/undefined"]
    assert "web/http/reference/headers/accept#syntax" in hrefs


def test_badges_banners_and_sections_are_not_text() -> None:
    """Banners, sidebars, live samples and data tables print no text (a line of them is blank); a badge
    with a label (``Optional``) is its label, an icon badge nothing."""
    text = parse_markdown(PAGE).text
    assert "{{APIRef" not in text and "SeeCompatTable" not in text and "Specifications}}" not in text
    assert "EmbedLiveSample" not in text and "deprecated_inline" not in text.lower()
    assert "\nmessage Optional\n" in text and "\nlegacy\n" in text  # definition-list terms (``markdown_deflist``)
    assert "## Specifications\n\n" in text


def test_macros_in_tables() -> None:
    """In a GFM table cell an xref is a Markdown link; in a raw HTML table an ``<a>`` the HTML reader reads."""
    document = parse_markdown(PAGE)
    text = document.text
    assert "| [`Accept`](../../../http/reference/headers/accept) |" in text
    assert "[`an anchor.syntax`](../../../http/reference/headers/accept#syntax)" in text
    assert "confirm" in text and "<td>" not in text and "Deprecated" not in text
    assert document.links[-1].href == "../confirm"  # the HTML table's link


def test_code_and_template_expressions_stay_as_written() -> None:
    """Macros in a code span or a code block, and template expressions in prose (``{{ message }}``,
    ``{{name}}``, ``{{ url_for('index') }}``: no MDN macro) are text as written."""
    text = parse_markdown(PAGE).text
    assert 'In a template, `{{domxref("Window.alert()")}}` is written as it is.' in text
    assert '// {{jsxref("Array")}} stays in code' in text
    assert "A Vue template shows {{ message }} and {{name}}, Jinja {{ url_for('index') }}." in text
    jinja = "# Page\n\nHello {{ user }}, {{title}}.\n\n{% raw %}{{ page.title }}{% endraw %}\n"
    assert kumascript_macros(jinja) == jinja
    escaped = "Write \\{{Compat}} where the table goes.\n"  # MDN's writing guide: the macro shown, not run
    assert kumascript_macros(escaped) == escaped


def test_without_a_slug_links_are_site_absolute_and_spaced_calls_are_read() -> None:
    """Without front matter a link is site-absolute (the collection's root is MDN's ``files/en-us``); a call
    of an MDN macro with spaces inside the braces (``{{ domxref("X") }}``, as some MDN pages write it) is read."""
    text = kumascript_macros('See {{ domxref("Range.extractContents()") }} and {{rfc(7230, "HTTP", 3)}}.\n'
                             '{{ APIRef("DOM") }}\n')
    assert text == ("See [`Range.extractContents()`](/web/api/range/extractcontents) and "
                    "[RFC 7230, section 3: HTTP](https://datatracker.ietf.org/doc/html/rfc7230#section-3).\n\n")


def test_mdn_links_are_written_to_the_folders_of_their_pages() -> None:
    """On an MDN page (a macro and a ``slug``), MDN's own links to ``/en-US/docs/...`` are written relative to
    the page's folder as the macros' links are, in Markdown and in raw HTML; a link in code stays."""
    page = ("---\nslug: Web/API/Window/confirm\n---\n\n{{APIRef}}\n\n"
            "See [alert](/en-US/docs/Web/API/Window/alert#syntax) and `[x](/en-US/docs/X)`."
            "\n\n<table><tr><td><a href=\"/en-US/docs/Web/CSS/:hover\">hover</a></td></tr>"
            "</table>\n")
    document = parse_markdown(page)
    assert "See [alert](../alert#syntax) and `[x](/en-US/docs/X)`." in document.text
    key = "files/en-us/web/api/window/confirm/index.md"
    assert [resolve_href(key, link.href) for link in document.links] == [
        "files/en-us/web/api/window/alert#syntax", "files/en-us/web/css/_colon_hover"]
    plain = "See [alert](/en-US/docs/Web/API/Window/alert).\n"  # no MDN macro: not read as MDN's
    assert kumascript_macros(plain, "Web/API/Window/confirm") == plain


def test_css_references_by_the_shape_of_their_name() -> None:
    """``CSSxRef`` names a selector (``:``), an at-rule (``@``), a value (``<type>``, ``f()``, ``group/member``)
    or else a property, under MDN's CSS reference (its builder looks the page up; the shape is what a reader
    of the source has)."""
    text = kumascript_macros('{{cssxref(":is()")}} {{cssxref("@font-face/font-family", "font-family")}} '
                             '{{CSSxRef("transform-function/skew")}} {{cssxref("&lt;length&gt;")}} '
                             '{{cssxref("color")}}')
    assert text == ("[`:is()`](/web/css/reference/selectors/_colon_is) "
                    "[`font-family`](/web/css/reference/at-rules/@font-face/font-family) "
                    "[`skew`](/web/css/reference/values/transform-function/skew) "
                    "[`<length>`](/web/css/reference/values/length) [`color`](/web/css/reference/properties/color)")
