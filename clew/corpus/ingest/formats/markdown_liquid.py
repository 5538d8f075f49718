"""Liquid and Jinja tags in Markdown (Jekyll and GitHub Pages sites, Eleventy, Nunjucks), for the
Markdown reader (``clew.corpus.ingest.formats.markdown``): what a reader of the built page sees.

Rewritten line by line before the Markdown parser reads the text; every line stays a line. Code
(fenced and indented blocks, code spans) is left as written.

- ``{% highlight ruby %}`` ... ``{% endhighlight %}`` (Jekyll's code blocks) is a fenced code block,
  the two tag lines its fences (```` ```ruby ````), so the code in it is code, not paragraphs.
- A line that holds only tags (``{% raw %}``, ``{% endraw %}``, ``{% include note.html %}``,
  ``{% if site.x %}``, ``{%- assign a = b -%}``) is blank: the tags print nothing a reader sees
  (inside a raw HTML block, an HTML comment: a blank line would end the block). So are the lines
  from ``{% comment %}`` to ``{% endcomment %}``.
- Inline, ``{% link _docs/x.md %}`` and ``{% post_url 2020-01-01-x %}`` read as their path, so a
  Markdown link written with them leads where it says; other inline tags are not text either
  (``{% raw %}{{ page.title }}{% endraw %}`` reads ``{{ page.title }}``; an ``{% include %}``'s
  output is not in the file).
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt

from clew.corpus.ingest.formats.dialects import code_lines

_PARSER = MarkdownIt("commonmark")
_TAG = r"(?<!\{)\{%-?\s*(?:[^%]|%(?!\}))*?-?%\}"
_TAGS_LINE = re.compile(r"[ \t]*" + _TAG + r"(?:[ \t]*" + _TAG + r")*[ \t]*")
_HIGHLIGHT = re.compile(r"([ \t]*)\{%-?\s*highlight\s+([\w+#.-]+)[^%]*-?%\}[ \t]*")
_END_HIGHLIGHT = re.compile(r"[ \t]*\{%-?\s*endhighlight\s*-?%\}[ \t]*")
_COMMENT = re.compile(r"[ \t]*\{%-?\s*comment\s*-?%\}.*")
_END_COMMENT = re.compile(r".*\{%-?\s*endcomment\s*-?%\}[ \t]*")
_INLINE_TAG = re.compile(r"(?<!\{)\{%-?\s*(?:(?:link|post_url)\s+([^\s%]+)\s*-?%\}|(?:[^%]|%(?!\}))*?-?%\})")
_BACKTICKS = re.compile(r"`+")
MAX_BLOCK_LINES = 2000
"""Lines at most between a ``highlight`` or ``comment`` tag and the tag that ends it."""


def liquid_tags(text: str) -> str:
    """``text`` with its Liquid (Jinja) tags read as the module docstring says."""
    if "{%" not in text:
        return text
    lines = text.split("\n")
    _highlights(lines, code_lines("\n".join(lines)))
    tokens = _PARSER.parse("\n".join(lines))
    code = code_lines("", tokens)
    html = {n for t in tokens if t.type == "html_block" and t.map for n in range(t.map[0] + 1, t.map[1])}
    number = 0
    while number < len(lines):
        line = lines[number]
        if number in code or "{%" not in line:
            number += 1
            continue
        if _COMMENT.fullmatch(line):
            end = next((n for n in range(number, min(len(lines), number + MAX_BLOCK_LINES))
                        if _END_COMMENT.fullmatch(lines[n])), None)
            if end is not None and not any(n in code for n in range(number, end + 1)):
                for n in range(number, end + 1):
                    lines[n] = "<!-- -->" if n in html else ""
                number = end + 1
                continue
        if _TAGS_LINE.fullmatch(line):
            lines[number] = "<!-- -->" if number in html else ""
        else:
            lines[number] = _outside_code_spans(line)
        number += 1
    return "\n".join(lines)


def _outside_code_spans(line: str) -> str:
    """``line`` with its inline tags read (see the module docstring) where they are not in a code span:
    `` `{% raw %}` `` shows the tag."""
    parts = line.split("`")
    if len(parts) % 2 == 0:  # an unmatched backtick: no code span to keep apart
        parts = [line]
    return "`".join(part if index % 2 else _INLINE_TAG.sub(lambda found: found.group(1) or "", part)
                    for index, part in enumerate(parts))


def _highlights(lines: list[str], code: set[int]) -> None:
    """Make each ``highlight`` / ``endhighlight`` pair of lines outside code the fences of a code block."""
    number = 0
    while number < len(lines):
        opened = None if number in code else _HIGHLIGHT.fullmatch(lines[number])
        number += 1
        if opened is None:
            continue
        close = next((n for n in range(number, min(len(lines), number + MAX_BLOCK_LINES))
                      if _END_HIGHLIGHT.fullmatch(lines[n])), None)
        if close is None or any(n in code for n in range(number, close)):
            continue
        body = lines[number:close]
        fence = "`" * max([3, *(len(run) + 1 for line in body for run in _BACKTICKS.findall(line))])
        lines[number - 1], lines[close] = f"{opened.group(1)}{fence}{opened.group(2)}", opened.group(1) + fence
        number = close + 1
