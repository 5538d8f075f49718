"""Markdown as documentation sites write it: MDX, directive containers, Hugo shortcodes.

Both are rewritten line by line before the Markdown parser reads them; every line stays a line,
so that what the parser maps to lines still holds. Code (fenced and indented blocks, code spans)
is left as written.

- MDX (``.mdx``): an ESM statement (``import``/``export`` at the start of a top-level line, up
  to the next blank line) is blanked, and so is a line that holds only component tags
  (``<Tabs>``, ``<TabItem value="npm" label="npm">``, ``</Tabs>``: a component's name starts
  with a capital); a component tag inside a line of text is removed and its text kept
  (``<Highlight>Widgets</Highlight> are great`` reads ``Widgets are great``).
- Directive containers (Docusaurus and VitePress admonitions, in ``.md`` files too):
  ``:::tip Use the latest version`` (also ``::: tip``, ``:::note[Title]``) reads ``Tip: Use the
  latest version``, its body follows, and the closing ``:::`` line is blank.
- Hugo shortcodes (Kubernetes' and Docker's docs): a line holding only an admonition's shortcode
  (``{{< note >}}``, ``{{% warning %}}``) reads ``Note:`` (nothing when the admonition has no title
  and no text of its own, only shortcodes such as a ``{{< partial >}}``, or opens with a heading,
  which titles it); a line holding only another shortcode (``{{< tabs >}}``, ``{{< /note >}}``,
  ``{{< codenew file="pod.yaml" >}}``) is blank (inside a raw HTML block, an HTML comment: a blank
  line would end the block); an inline shortcode with a ``text`` argument reads as that text (``{{<
  glossary_tooltip text="Pods" term_id="pod" >}}`` is ``Pods``), and a link shortcode (Hugo's
  ``ref`` and ``relref``, Bootstrap's ``docsref``) as its path, so ``[modal]({{< docsref
  "/components/modal" >}})`` is a Markdown link to ``/components/modal``, resolved as any other; a
  pair opened and closed on one line reads as what it holds (``{{< markdown >}}`<h1>`{{< /markdown
  >}}``; inside raw HTML rendered to HTML, as Hugo renders it). Other inline shortcodes stay as
  written. A pair of shortcode lines around raw HTML (Bootstrap's ``{{< example >}}``: a live demo
  whose source the site shows beside it), around ``{{< highlight lang >}}`` or around an inline
  shortcode's template (``{{< flex.inline >}}``: ``{{- range $.Site.Data.breakpoints }}`` ...) is a
  fenced code block, the two lines its fences: the demo's headings ("Modal title") open no section
  and its filler is no text of the page; an admonition's pair stays as above.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from markdown_it import MarkdownIt
from markdown_it.token import Token

_PARSER = MarkdownIt("commonmark")
_ESM = re.compile(r"(?:import|export)\b")
_COMPONENT = re.compile(r"</?[A-Z][\w.]*(?:\s(?:[^<>{}\"']|\"[^\"]*\"|'[^']*'|\{[^{}]*\})*)?/?>")
_CONTAINER = re.compile(r"[ \t]{0,3}:{3,}[ \t]*([A-Za-z][\w-]*)?[ \t]*(?:\[([^\]]*)\])?(.*)$")
_CLOSE = re.compile(r"[ \t]{0,3}:{3,}[ \t]*$")


def mdx_to_markdown(text: str) -> str:
    """``text`` (MDX, front matter taken off) without its ESM statements and component tags (see above)."""
    code = code_lines(text)
    lines = text.split("\n")
    in_esm = False
    for number, line in enumerate(lines):
        if number in code:
            in_esm = False
            continue
        if in_esm or (_ESM.match(line) and not line.startswith(("import:", "export:"))):
            in_esm = bool(line.strip())
            lines[number] = ""
            continue
        lines[number] = _outside_code_spans(line, lambda part: _COMPONENT.sub("", part))
        if line.strip() and not lines[number].strip():
            lines[number] = ""
    return directive_containers("\n".join(lines), code)


def directive_containers(text: str, code: set[int] | None = None) -> str:
    """``text`` with its directive containers' fence lines read as labels (see the module docstring)."""
    return _outside_code(text, (":::",), _container_line, code)


def _container_line(line: str) -> str:
    if _CLOSE.fullmatch(line):
        return ""
    opened = _CONTAINER.fullmatch(line)
    if opened is None or not opened.group(1):
        return line
    title = " ".join(part.strip() for part in (opened.group(2) or "", opened.group(3)) if part.strip())
    label = opened.group(1).replace("-", " ").capitalize()
    return f"{label}: {title}" if title else f"{label}:"


_ADMONITIONS = frozenset("note tip info warning caution danger important attention hint callout alert".split())
_SHORTCODE_LINE = re.compile(r"[ \t]*\{\{([<%])[ \t]*(/?)[ \t]*([\w-]+)((?:[^}]|\}(?!\}))*?)\1?[>%]\}\}[ \t]*")
"""A line that is one shortcode: its arguments never cross a ``}}`` (``{{< markdown >}}`x`{{< /markdown >}}``
is two shortcodes around text, not one)."""
_SHORTCODE_TEXT = re.compile(r"""\{\{[<%][ \t]*[\w-]+[^{}]*?\btext=(?:"([^"]*)"|'([^']*)')[^{}]*?[>%]\}\}""")
_TITLE = re.compile(r"""\btitle=(?:"([^"]*)"|'([^']*)')""")
_LINK_SHORTCODE = re.compile(
    r"""\{\{([<%])[ \t]*(?:docsref|relref|ref)[ \t]+(?:"([^"]*)"|'([^']*)'|([^\s"'{}<>%]+))[ \t]*\1?[>%]\}\}""")
_RAW_HTML = re.compile(r"[ \t]*<[A-Za-z!]")
_BACKTICKS = re.compile(r"`+")
_HEADING = re.compile(r" {0,3}#{1,6}(?:[ \t]|$)")
_PAIRED = re.compile(r"\{\{([<%])[ \t]*([\w-]+)(?![\w.-])[^{}]*?[>%]\}\}(.*?)\{\{[<%][ \t]*/[ \t]*\2[ \t]*[>%]\}\}")
QUOTES = "\"'"
MAX_DEMO_LINES = 2000
"""Lines at most between a shortcode line and the line that closes it, for the pair to be a demo."""


def hugo_shortcodes(text: str, code: set[int] | None = None) -> str:
    """``text`` with its Hugo shortcodes read as the module docstring says. A shortcode line blanked
    inside a raw HTML block (a ``{{< partial >}}`` in a table cell) is an HTML comment instead: a
    blank line would end the block there, and CommonMark would read the rest of the table, indented,
    as a code block of tags."""
    if "{{<" not in text and "{{%" not in text:
        return text
    tokens = _PARSER.parse(text)
    code = code_lines(text, tokens) if code is None else code
    demos = _demo_blocks(text, tokens, code)
    if demos != text:
        text, tokens = demos, _PARSER.parse(demos)
        code = code_lines(text, tokens)
    text = _paired_inline(text, code, {n for t in tokens if t.type == "html_block" and t.map for n in range(*t.map)})
    rewritten = _outside_code(text, ("{{<", "{{%"), _shortcode_line, code)
    bare = _bare_admonitions(text.split("\n"), code)
    if bare:
        rewritten = "\n".join("" if number in bare else line for number, line in enumerate(rewritten.split("\n")))
    html = {n for t in tokens if t.type == "html_block" and t.map for n in range(t.map[0] + 1, t.map[1])}
    if not html:
        return rewritten
    before, lines = text.split("\n"), rewritten.split("\n")
    for number in html:
        if number < len(lines) and before[number].strip() and not lines[number].strip():
            lines[number] = "<!-- -->"
    return "\n".join(lines)


def _demo_blocks(text: str, tokens: list[Token], code: set[int]) -> str:
    """``text`` with each pair of shortcode lines around raw HTML, around ``highlight``'s code or around an
    inline shortcode's template made the fences of a code block (see the module docstring); the lines
    between stay as written. A pair that opens inside a raw HTML block is left alone: a fence there
    would be text of the block."""
    html = {n for t in tokens if t.type == "html_block" and t.map for n in range(*t.map)}
    lines = text.split("\n")
    number = 0
    while number < len(lines):
        opened = None if number in code or number in html else _SHORTCODE_LINE.fullmatch(lines[number])
        number += 1
        if opened is None or opened.group(2) or opened.group(3).lower() in _ADMONITIONS:
            continue
        name = opened.group(3).lower()
        template = opened.group(4).startswith(".inline")  # Hugo's inline shortcode: its body is a template
        close = _closing_line(lines, number, name)
        body = lines[number:close] if close is not None else []
        first = next((line for line in body if line.strip()), "")
        if close is None or any(n in code for n in range(number, close)) or not (
                name == "highlight" or template or _RAW_HTML.match(first)):
            continue
        fence = "`" * max([3, *(len(run) + 1 for line in body for run in _BACKTICKS.findall(line))])
        language = "go-html-template" if template else "html"
        if name == "highlight" and opened.group(4).split():
            language = opened.group(4).split()[0]
        indent = lines[number - 1][: len(lines[number - 1]) - len(lines[number - 1].lstrip())]
        lines[number - 1], lines[close] = f"{indent}{fence}{language.strip(QUOTES)}", indent + fence
        number = close + 1
    return "\n".join(lines)


def _paired_inline(text: str, code: set[int], html: set[int]) -> str:
    """``text`` with each shortcode pair opened and closed on one line (``{{< markdown >}}`<h1></h1>`{{<
    /markdown >}}``, Hugo's ``markdownify`` idiom) read as what it holds, outside code: its Markdown as
    written, or inside a raw HTML block (the ``html`` lines) rendered to HTML, as Hugo renders it there
    (a code span's tags are its text, not tags)."""
    if "{{</" not in text.replace(" ", "") and "{{%/" not in text.replace(" ", ""):
        return text
    lines = text.split("\n")
    for number, line in enumerate(lines):
        if number in code or "{{" not in line:
            continue

        def inner(found: re.Match[str], line: str = line, number: int = number) -> str:
            if found.group(2).lower() in _ADMONITIONS or line.count("`", 0, found.start()) % 2:
                return found.group(0)
            return _PARSER.renderInline(found.group(3)) if number in html else found.group(3)

        lines[number] = _PAIRED.sub(inner, line)
    return "\n".join(lines)


def _bare_admonitions(lines: list[str], code: set[int]) -> set[int]:
    """The lines of admonition shortcodes without a title whose label would say nothing: the admonition
    holds no text (only shortcode lines: Bootstrap's ``{{< partial "callout-info-sanitizer.md" >}}``,
    a file outside the pages) or opens with a heading, which titles it (a ``Callout:`` line alone in
    the section before that heading)."""
    bare: set[int] = set()
    for number, line in enumerate(lines):
        opened = None if number in code or "{{" not in line else _SHORTCODE_LINE.fullmatch(line)
        if (opened is None or opened.group(2) or opened.group(3).lower() not in _ADMONITIONS
                or _TITLE.search(opened.group(4))):
            continue
        close = _closing_line(lines, number + 1, opened.group(3).lower())
        body = [text for text in lines[number + 1:close] if text.strip()] if close is not None else []
        if close is not None and (not body or all(_SHORTCODE_LINE.fullmatch(text) for text in body)
                                  or _HEADING.match(body[0])):
            bare.add(number)
    return bare


def _closing_line(lines: list[str], start: int, name: str) -> int | None:
    """The number of the line that closes the shortcode ``name`` opened just before ``start`` (the same
    name opened again in between is closed first), or None within ``MAX_DEMO_LINES``."""
    depth = 0
    for number in range(start, min(len(lines), start + MAX_DEMO_LINES)):
        found = _SHORTCODE_LINE.fullmatch(lines[number])
        if found is None or found.group(3).lower() != name:
            continue
        if not found.group(2):
            depth += 1
        elif depth:
            depth -= 1
        else:
            return number
    return None


def _shortcode_line(line: str) -> str:
    alone = _SHORTCODE_LINE.fullmatch(line)
    if alone is None:
        return _outside_code_spans(line, _inline_shortcodes, marker="{{")
    closing, name, arguments = alone.group(2), alone.group(3).lower(), alone.group(4)
    if closing or name not in _ADMONITIONS:
        return ""
    title = _TITLE.search(arguments)
    label = name.capitalize()
    return f"{label}: {title.group(1) or title.group(2)}" if title else f"{label}:"


def _outside_code(text: str, markers: tuple[str, ...], rewrite: Callable[[str], str], code: set[int] | None) -> str:
    """``text`` with ``rewrite`` applied to each line outside code blocks that holds one of ``markers``
    (``code``: the code lines, when the caller knows them)."""
    if not any(marker in text for marker in markers):
        return text
    code = code_lines(text) if code is None else code
    lines = text.split("\n")
    for number, line in enumerate(lines):
        if number not in code and any(marker in line for marker in markers):
            lines[number] = rewrite(line)
    return "\n".join(lines)


def _text_argument(found: re.Match[str]) -> str:
    return found.group(1) if found.group(1) is not None else found.group(2)


def _inline_shortcodes(part: str) -> str:
    """A shortcode with a ``text`` argument as its text, a link shortcode as its path."""
    part = _SHORTCODE_TEXT.sub(_text_argument, part)
    return _LINK_SHORTCODE.sub(lambda found: next(g for g in found.groups()[1:] if g is not None), part)


def code_lines(text: str, tokens: list[Token] | None = None) -> set[int]:
    """The numbers of the lines inside fenced and indented code blocks (``tokens``: the text's, when parsed)."""
    lines: set[int] = set()
    for token in _PARSER.parse(text) if tokens is None else tokens:
        if token.type in ("fence", "code_block") and token.map is not None:
            lines.update(range(*token.map))
    return lines


def _outside_code_spans(line: str, change: Callable[[str], str], marker: str = "<") -> str:
    """``line`` with ``change`` applied to what lies outside its backtick code spans (a line
    without ``marker`` is returned as it is)."""
    if marker not in line:
        return line
    parts = line.split("`")
    if len(parts) % 2 == 0:  # an unmatched backtick: no code span to keep apart
        return change(line)
    return "`".join(change(part) if index % 2 == 0 else part for index, part in enumerate(parts))
