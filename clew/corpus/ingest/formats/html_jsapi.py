"""The pages of two generators of JavaScript API references, made into the HTML the reader reads well before they
are parsed (``html_more.restructured``): documentation.js 14 (its default HTML theme) and ESDoc 1.1 (its standard
plugin's theme). docs/measurements/generators-2026-12-06.md has what was checked (tasks R7, U17).
"""

from __future__ import annotations

import re

DOCJS = "<div id='split-left' class='overflow-auto fs0 height-viewport-100'>"
_DOCJS_MEMBER = re.compile(
    r'<div class="clearfix small pointer toggle-sibling">\s*<div class="py1 contain">\s*<a class=\'icon pin-right py1'
    r' dark-link caret-right\'>\u25b8</a>\s*<span class=\'code strong strong truncate\'>((?:[^<]|<(?!/span>))*+)</span>'
    r'\s*</div>\s*</div>')
"""documentation.js 14: the sidebar (``div#split-left``: the project's name, a filter box, a list of every name,
"Need help reading this?") is navigation; each class's member ("Instance Members") is a ``div.toggle-sibling``
holding a caret link "\u25b8" and the member's name, read as a paragraph "\u25b8 spend(kind, amount)" above its text:
an ``h4`` of the name instead (task R7)."""
_DOCJS_UNNAMED = re.compile(r"<title>\s*+\|\s*+([^<|]++)</title>")
"""documentation.js titles its page "<name> <version> | Documentation"; built without a name (``documentation build
lodash.js -f html``, no ``--project-name`` and no package.json beside it) "| Documentation", which ``clew ls``,
the outline and every hit showed (task U17): "Documentation" then."""
_DOCJS_LABEL = re.compile(r"<div class='py1 quiet mt1 prose-big'>(Parameters|Properties|Returns|Related)</div>")
_DOCJS_INLINE_END = re.compile(r"<(?:/?(?:div|section|p|pre|ul|ol|table)\b)")
_DIV_TAG = re.compile(r"<(/?)div\b")
"""documentation.js labels a member's parts with a ``div.prose-big`` ("Parameters", "Properties", "Returns",
"Related") over the part (the parameters' ``div``, the return type and its sentence as inline text), read as a
paragraph "Returns" above "Array: Returns the new array of chunks.", which an extract quoted alone (lodash 4.17.21's
API, task U17). Each is a field list, as docutils' and javadoc's are: "Returns: Array: Returns the new array of
chunks.", "Parameters: array (Array) The array to process." ("Example" and "Throws" stay labels: a code block and a
list take no field's name)."""

ESDOC = '<body class="layout-container" data-ice="rootContainer">'
_ESDOC_SOURCE = re.compile(r'<span data-ice="source">(?:\| )?<span><a href="[^"]*">source</a></span></span>')
"""ESDoc 1.1: a link "source" into the source page at the end of every member's heading ("public spend(kind: string,
amount: number): boolean source") and beside the class's kind ("public class | source"), as TypeDoc's "Defined in";
taken out (task R7)."""
_ESDOC_NOTICE = re.compile(
    r'(<div class="header-notice">(?:[^<]|<(?!/?div\b)|<div\b[^>]*+>(?:[^<]|<(?!/?div\b))*+</div>)*+</div>)'
    r'(\s*+<div class="self-detail detail">\s*+)(<h1\b[^>]*+>(?:[^<]|<(?!/?h1\b))*+</h1>)')
"""ESDoc writes a class page's import line and kind (``div.header-notice``: "import DateTime from
'luxon/src/datetime.js'", "public class") above the class's ``h1``: a passage of its own before the title, with no
heading, on every class page (luxon 2.5.2's 25, task U17). After the title instead, as its first paragraphs, as
javadoc's package line is read."""
_ESDOC_TITLE = re.compile(r'<title data-ice="title">([^<]*?) \| ([^<|]*+)</title>')
"""ESDoc titles every page "<page> | <project>": a class page "DateTime | luxon" over its ``h1`` "DateTime", read as
the ``h1``; the others "Home | luxon", "Reference | luxon", "Source | luxon", "Variable | luxon" in ``clew ls``, the
outline and every hit (task U17). The page's name is the title; the home page's is the project's ("luxon")."""
_ESDOC_SUMMARY = re.compile(r'(<table class="summary" data-ice="summary">)((?:[^<]|<(?!/?table\b))*+)</table>')
_ESDOC_EMPTY_LAST = re.compile(r"<td>\s*+</td>(\s*+</tr>)")
"""ESDoc's summary tables ("Method Summary", a class's members, the index of functions) have a third column for the
member's version, empty unless its comment gives one: "| public | toISO(opts: Object): string. Returns ... |  |"
under a head row of one cell across the three, "| Public Methods |  |  |" (luxon 2.5.2's summaries: 25 class pages
and the indexes; task U17). Where it is empty in every row the column is left out, and the head row spans two."""


def documentation_js(text: str) -> str:
    """A documentation.js page as the reader should read it (the rules above)."""
    text = text.replace(DOCJS, DOCJS[:-1] + ' role="navigation">', 1)
    text = _DOCJS_UNNAMED.sub(r"<title>\1</title>", _DOCJS_MEMBER.sub(r'<h4 class="toggle-sibling">\1</h4>', text),
                              count=1)
    parts: list[str] = []
    done = 0
    for label in _DOCJS_LABEL.finditer(text):
        if label.start() < done:  # inside the last part taken: left as it is
            continue
        start = len(text) - len(text[label.end():].lstrip())
        end = _div_end(text, start) if text.startswith("<div", start) else _inline_end(text, start)
        parts += [text[done:label.start()], f'<dl class="field-list"><dt>{label[1]}</dt><dd>', text[start:end],
                  "</dd></dl>"]
        done = end
    return "".join(parts) + text[done:]


def _div_end(text: str, start: int) -> int:
    """Where the ``div`` that starts at ``start`` ends (after its ``</div>``; the text's end if it is not closed)."""
    depth = 0
    for tag in _DIV_TAG.finditer(text, start):
        depth += -1 if tag[1] else 1
        if depth == 0:
            close = text.find(">", tag.end())
            return len(text) if close < 0 else close + 1  # a file cut inside the closing tag
    return len(text)


def _inline_end(text: str, start: int) -> int:
    """Where the inline text from ``start`` ends: at the next block's tag."""
    block = _DOCJS_INLINE_END.search(text, start)
    return len(text) if block is None else block.start()


def esdoc(text: str) -> str:
    """An ESDoc page as the reader should read it (the rules above)."""
    text = _ESDOC_TITLE.sub(lambda title: f"<title>{title[2] if title[1] == 'Home' else title[1]}</title>", text,
                            count=1)
    text = _ESDOC_SUMMARY.sub(_summary, text)
    return _ESDOC_NOTICE.sub(r"\2\3\1", _ESDOC_SOURCE.sub("", text), count=1)


def _summary(table: re.Match[str]) -> str:
    """An ESDoc summary table without its third column where that is empty in every row."""
    body = table[2]
    if len(_ESDOC_EMPTY_LAST.findall(body)) != body.count("</tr>") - 1:  # the head row and every member's
        return table[0]
    body = _ESDOC_EMPTY_LAST.sub(r"\1", body).replace('colspan="3"', 'colspan="2"', 1)
    return f"{table[1]}{body}</table>"
