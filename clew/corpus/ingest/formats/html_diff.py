"""A code block's diff lines with their mark, before the page is parsed (``html_more.restructured``; task U24).

Expressive Code (Starlight's code blocks) marks a removed line ``div.ec-line.del`` and an added one ``.ins``; Shiki's
diff notation (VitePress' ``// [!code --]`` and ``// [!code ++]``) ``span.line.diff.remove`` and ``.add``. The style
sheet draws the ``-`` and ``+`` in a gutter, so the text held both lines as one run of code, the old beside the new
("const logger = pino()" then "const logger = pino({ level: 'debug' })"). Each such line now opens with ``- `` or
``+ ``, as a unified diff marks it.
"""

from __future__ import annotations

import re

EXPRESSIVE_CODE = '<div class="ec-line '
SHIKI_DIFF = " diff "
_EC_LINE = re.compile(r'<div class="ec-line ([^"<>]*)"><div class="code">')
_SHIKI_LINE = re.compile(r'<span class="line ([^"<>]*)">')
_MARKS = {"del": "- ", "ins": "+ ", "remove": "- ", "add": "+ "}


def diff_marks(text: str) -> str:
    """The page with each removed or added code line opening with its mark (see the module docstring)."""
    if EXPRESSIVE_CODE in text:
        text = _EC_LINE.sub(lambda line: line.group(0) + _mark(line.group(1).split(), ("del", "ins")), text)
    if SHIKI_DIFF in text:
        text = _SHIKI_LINE.sub(lambda line: line.group(0) + _mark(
            line.group(1).split(), ("remove", "add")) if "diff" in line.group(1).split() else line.group(0), text)
    return text


def _mark(classes: list[str], names: tuple[str, str]) -> str:
    return next((_MARKS[name] for name in names if name in classes), "")
