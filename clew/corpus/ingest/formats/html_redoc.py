"""Redoc 2's API reference pages (redoc-cli 0.13, ``@redocly/cli`` 1.x ``build-docs``: one page, rendered on the
server, holding a whole OpenAPI description), made into the HTML the reader reads well before they are parsed, as
``html_scala_typedoc.api_pages`` makes others (task U35: the Dialogporten API's description from the npm package
@digdir/dialogporten-schema 1.40.0, 23 paths, by redoc-cli 0.13.21 with Redoc 2.0.0 and by ``@redocly/cli`` 1.25.0
with Redoc 2.1.5). docs/measurements/generators-2026-12-06.md has what was checked.

Redoc writes three kinds of content inside ``<button>`` elements, which the reader drops with all they hold
(``html_rules.DROP_TAGS``):

- each operation's method and path (``span.http-verb`` "get", then "/api/v1/serviceowner/dialogs"), in the right
  panel after the operation's responses: no passage named an endpoint. It is a paragraph ``GET /api/v1/...`` (code)
  right after the operation's ``h2``, where a reader of the page sees it beside the title;
- each response's status code and description ("401" over "Missing or invalid authentication token. Requires a
  Maskinporten-token with the scope ..."; Redoc 2.0 writes the description in a ``span``, 2.1 in a ``div``): only the
  heading "Responses" was left. It is a paragraph that opens with the code;
- the name of a parameter or property whose schema is an object or array, a toggle that shows its fields
  (``button[aria-label="expand properties"]``, in Redoc 2.1 ``"expand continuationToken"``): its row of the
  parameters' table had no name ("continuationToken", "orderBy"). It is the name, as a leaf's is.

The other buttons (a JSON sample's folding toggles, "Copy") stay dropped. A JSON sample (``div.redoc-json``: its
objects and arrays nested lists, each member an item) read as lists ("- "status": 400"); it is a JSON code block.
The menu of operations at the page's left (``div.menu-content``: every operation as "getGets a list of dialogs",
"API docs by Redocly"; the page's first two passages) is navigation, and the link to the description under the
title ("Download OpenAPI specification:Download") is left out. Redoc 3 (``@redocly/cli`` 2) renders only the
description's overview on the server; its operations are drawn in the browser from the embedded description.
"""

from __future__ import annotations

import bisect
import re

_REDOC = 'redoc-wrap"'
_BUTTON = re.compile(r"<button\b([^>]*)>((?:[^<]|<(?!/?button\b))*+)</button>")
_ENDPOINT = re.compile(r'<span type="\w+" class="[^"]*\bhttp-verb\b[^"]*">(\w+)</span><span\b[^>]*>([^<]*)</span>')
_RESPONSE = re.compile(r"(<strong\b[^>]*>(?:[^<]|<(?!/strong>))*+</strong>)(\s*<(?:span|div)\b[^>]*>\s*<p>)")
_EXPAND = re.compile(r'aria-label="expand [^"]+"')
_MENU = re.compile(r'<div class="[^"]*\bmenu-content"')
_DOWNLOAD = re.compile(r"<p>Download OpenAPI specification(?:<!-- -->)?:<a download=[^>]*>Download</a></p>")
_JSON = re.compile(r'<div class="redoc-json"><code>((?:[^<]|<(?!/code>))*+)</code></div>')
_TAG = re.compile(r"(<[^>]*>)")
_HEADING_END = re.compile("</h2>")


def redoc_page(text: str) -> str:
    """``text`` with Redoc 2's endpoints, responses and expandable names readable (see the module), where Redoc
    wrote it; else ``text``."""
    if _REDOC not in text:
        return text
    text = _DOWNLOAD.sub("", _MENU.sub(r'\g<0> role="navigation"', text, count=1), count=1)
    text = _JSON.sub(_json_sample, text)
    edits: list[tuple[int, int, str]] = []  # (start, end, what replaces text[start:end]), apart from each other
    heading_ends = [found.end() for found in _HEADING_END.finditer(text)]  # found once: a page without h2 is linear
    for found in _BUTTON.finditer(text):
        endpoint = _ENDPOINT.search(found[2])
        if endpoint is not None:  # the operation's method and path, under its title (the last h2 before it)
            before = bisect.bisect_right(heading_ends, found.start())
            if before:
                line = f"<p><code>{endpoint[1].upper()} {endpoint[2]}</code></p>"
                edits.append((heading_ends[before - 1], heading_ends[before - 1], line))
        elif _EXPAND.search(found[1]):
            edits.append((found.start(), found.end(), found[2]))
        elif "<strong" in found[2]:  # a response: its code opens its description
            edits.append((found.start(), found.end(), "<div>" + _RESPONSE.sub(r"\2\1 ", found[2], count=1) + "</div>"))
    parts: list[str] = []
    done = 0
    for start, end, replacement in sorted(edits):
        parts += [text[done:start], replacement]
        done = end
    return "".join(parts) + text[done:]


def _json_sample(found: re.Match[str]) -> str:
    """A JSON sample Redoc writes as nested lists (``ul.obj``, ``ul.array``, an ``li`` per member), as the code it
    shows: a member a line, indented two spaces a level; its folding toggles (``button.collapser``) not text."""
    parts: list[str] = []
    depth = 0
    for piece in _TAG.split(found[1]):
        if not piece.startswith("<"):
            parts.append(piece)
        elif piece.startswith("<ul"):
            depth += 1
        elif piece == "</ul>":
            depth -= 1
            parts.append("\n" + "  " * depth)
        elif piece.startswith("<li"):
            parts.append("\n" + "  " * depth)
    return '<pre><code class="language-json">' + "".join(parts) + "</code></pre>"
