"""KumaScript macros in MDN Web Docs' Markdown (``{{domxref("Window.alert()")}}``), for the Markdown reader
(``clew.corpus.ingest.formats.markdown``): what a reader of the built page sees.

Rewritten line by line before the Markdown parser reads the text; every line stays a line. Code
(fenced and indented blocks, code spans) is left as written. Only the macros MDN's builder knows are
read (its names, any case, ``-`` as ``_``): ``{{Name}}`` or ``{{Name(args)}}``, or ``{{ Name(args) }}`` with
spaces around a call of such a name. A template expression in prose (``{{ title }}``, ``{{name}}``,
``{{ url_for('x') }}``) names no macro and stays as written, as the page shows it; so does an escaped
macro (``\\{{Compat}}``, MDN's way to show one).

- A cross-reference (``domxref``, ``jsxref``, ``HTMLElement``, ``CSSxRef``, ``glossary``, ``httpheader``,
  ``SVGAttr``, ...) is its display text (the second argument when given, else the first, in code where
  MDN shows code) as a link to the page it names. The link is written to the page's source folder
  (``/en-US/docs/Web/API/Window/alert`` is ``web/api/window/alert``), relative to the linking page's
  own folder (its front matter's ``slug``), so the link edge resolves wherever the MDN tree is rooted;
  without a slug, site-absolute (``/web/api/window/alert``). In a raw HTML block it is an ``<a>``. On
  such a page with a slug, MDN's own links (``[alert()](/en-US/docs/Web/API/Window/alert)``) are written
  to the page's folder the same way (``../alert``), so they resolve too.
- ``{{optional_inline}}``, ``{{ReadOnlyInline}}`` and ``{{SecureContext_Inline}}`` are their badge's label
  (``Optional``, ``Read only``, ``Secure context``); ``{{rfc(7230)}}`` is ``RFC 7230`` linked to the RFC.
- Every other macro (sidebars, banners, ``{{Compat}}``, ``{{Specifications}}``, ``{{EmbedLiveSample(...)}}``,
  icon badges such as ``{{Deprecated_Inline}}``) prints chrome, a table built from data not in the
  source, or an icon: nothing. A line that holds only such macros is blank (inside a raw HTML block,
  an HTML comment: a blank line would end the block).
"""

from __future__ import annotations

import html
import posixpath
import re
from collections.abc import Callable
from urllib.parse import unquote

from markdown_it import MarkdownIt

_PARSER = MarkdownIt("commonmark").disable("inline")
"""Blocks only: the code blocks and raw HTML blocks are all it is asked (half the time of a full parse)."""
_ARGUMENT = r"""\s*(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`|[-\w.]+)?\s*"""
_MACRO = re.compile(r"(?<!\\)\{\{(?:([A-Za-z][\w-]*)(\((?:" + _ARGUMENT + r"(?:," + _ARGUMENT + r")*)\))?"
                    r"|[ \t]+([A-Za-z][\w-]*)[ \t]*(\((?:" + _ARGUMENT + r"(?:," + _ARGUMENT + r")*)\))[ \t]*)\}\}")
_ARGUMENTS = re.compile(r"""\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`|[-\w.]+)?\s*(?:,|$)""")
_ESCAPE = re.compile(r"\\(.)")
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>])")
_BACKTICKS = re.compile(r"`+")
_DOCS_LINK = re.compile(r"""(\]\(|\bhref=")/[a-z]{2}(?:-[A-Za-z]{2,})?/docs/([^)\s"#?]+)((?:#[^)\s"]*)?)(?=[)"\s])""")
"""A link to a page of MDN as the site serves it (``](/en-US/docs/Web/API/Window#events)``), in Markdown or HTML."""

_LABELS = {"optional_inline": "Optional", "readonlyinline": "Read only", "securecontext_inline": "Secure context"}
_SILENT = frozenset(
    "accessibilitysidebar addonsidebar addonsidebarmain apilistalpha apiref availableinworkers compat css_ref "
    "cssinfo cssref csssyntax csssyntaxraw defaultapisidebar deprecated_header deprecated_inline "
    "embedghlivesample embedlivesample embedyoutube experimental_inline experimentalbadge "
    "firefox_for_developers glossarydisambiguation glossarysidebar htmlsidebar inheritancediagram "
    "interactiveexample js_property_attributes jsfiddleembed jsref jssidebar landingpagelistsubpages "
    "learnsidebar listgroups listsubpages listsubpagesforsidebar mathmlref mdnsidebar next nextmenu "
    "non_standard_header non_standard_inline previous previousmenu previousmenunext previousnext pwasidebar "
    "quicklinkswithsubpages securecontext_header seecompattable specifications subpageswithsummaries svginfo "
    "svgref webassemblysidebar webextallcompattables webextallexamples webextexamples xsltref xsltsidebar".split())
"""MDN's macros that print no text (MDN's builder, rari, registers these names)."""

_JS_OPERATORS = frozenset("null typeof this new delete void in instanceof await yield super async_function "
                          "function class new.target import.meta".split())
_JS_STATEMENTS = frozenset("const let var if...else for for...of for...in for_await...of while do...while "
                           "try...catch switch return break continue throw label export import async_function "
                           "function class debugger with empty block".split())
_JS_SECTIONS = frozenset("Global_Objects Statements Operators Functions Classes Errors Lexical_grammar Strict_mode "
                         "Iteration_protocols Template_literals Trailing_commas Regular_expressions "
                         "Deprecated_and_obsolete_features".split())
"""The sections of MDN's JavaScript reference: ``{{jsxref("Statements/for...of")}}`` names its page there."""


def kumascript_macros(text: str, slug: object = None) -> str:
    """``text`` with its MDN macros read as the module docstring says; ``slug``: the page's front matter
    ``slug`` (``Web/API/Document``), the folder its links are written relative to."""
    if "{{" not in text or not any(_known(found) for found in _MACRO.finditer(text)):
        return text
    here = _folder(slug) if isinstance(slug, str) and slug.strip() else None
    tokens = _PARSER.parse(text)
    code = {n for t in tokens if t.type in ("fence", "code_block") and t.map for n in range(*t.map)}
    html_lines = {n for t in tokens if t.type == "html_block" and t.map for n in range(*t.map)}
    lines = text.split("\n")
    for number, line in enumerate(lines):
        if number in code or ("{{" not in line and (here is None or "/docs/" not in line)):
            continue
        in_html = number in html_lines
        rewritten = _outside_code_spans(line, lambda part: _MACRO.sub(lambda m: _render(m, here, in_html), part))
        if here is not None and "/docs/" in rewritten:
            rewritten = _outside_code_spans(rewritten, lambda part: _DOCS_LINK.sub(lambda m: _docs_link(m, here), part))
        if rewritten != line and not rewritten.strip():
            rewritten = "<!-- -->" if in_html else ""
        lines[number] = rewritten
    return "\n".join(lines)


def _docs_link(found: re.Match[str], here: str) -> str:
    return found.group(1) + posixpath.relpath(_folder(unquote(found.group(2))), here) + found.group(3)


def _known(found: re.Match[str]) -> bool:
    name = (found.group(1) or found.group(3)).lower().replace("-", "_")
    return name in _SILENT or name in _LABELS or name in _LINKS or name in ("rfc", "livesamplelink", "echo")


def _render(found: re.Match[str], here: str | None, in_html: bool) -> str:
    """What the macro ``found`` prints, as Markdown (as HTML in a raw HTML block)."""
    if not _known(found):
        return found.group(0)
    name = (found.group(1) or found.group(3)).lower().replace("-", "_")
    args = _arguments(found.group(2) or found.group(4) or "")
    first = args[0] if args else ""
    if name in _LABELS:
        return _LABELS[name]
    if name == "echo":
        return html.escape(first) if in_html else _markdown_text(first)
    if name == "livesamplelink":  # a link to the live sample shown full screen: its text
        label = args[1] if len(args) > 1 else ""
        return html.escape(label) if in_html else _markdown_text(label)
    if name == "rfc":
        number = re.sub(r"\D", "", first)
        section = args[2] if len(args) > 2 else ""
        label = f"RFC {number}" + (f", section {section}" if section else "") + (f": {args[1]}" if len(args) > 1
                                                                                 and args[1] else "")
        href = f"https://datatracker.ietf.org/doc/html/rfc{number}" + (f"#section-{section}" if section else "")
        return _link(label, href, code=False, in_html=in_html) if number else ""
    if name not in _LINKS or not first:
        return ""
    path, display, code = _LINKS[name](args)
    target, _, fragment = path.partition("#")
    folder = _folder(target)
    href = posixpath.relpath(folder, here) if here is not None else "/" + folder
    return _link(display, href + (f"#{fragment}" if fragment else ""), code=code, in_html=in_html)


def _arguments(call: str) -> list[str]:
    """A macro's arguments as strings (an empty argument is ``""``), quotes and escapes read."""
    inner = call[1:-1]
    if not inner.strip():
        return []
    values = []
    for found in _ARGUMENTS.finditer(inner):
        if found.end() == found.start():
            break
        value = found.group(1) or ""
        if value[:1] in ("'", '"', "`"):
            value = _ESCAPE.sub(r"\1", value[1:-1])
        values.append(value)
    return values


def _folder(slug: str) -> str:
    """The source folder of an MDN page (MDN's ``url_to_folder_path``): ``Web/CSS/Reference/Selectors/:is``
    is ``web/css/reference/selectors/_colon_is``."""
    folder = slug.strip().strip("/").replace("*", "_star_").replace("::", "_doublecolon_")
    return folder.replace(":", "_colon_").replace("?", "_question_").lower()


def _link(display: str, href: str, *, code: bool, in_html: bool) -> str:
    text = html.unescape(display)
    if in_html:
        inner = f"<code>{html.escape(text, quote=False)}</code>" if code else html.escape(text, quote=False)
        return f'<a href="{html.escape(href)}">{inner}</a>'
    if code:
        fence = "`" * (max((len(run) for run in _BACKTICKS.findall(text)), default=0) + 1)
        padded = f" {text} " if text.startswith("`") or text.endswith("`") else text
        label = f"{fence}{padded}{fence}"
    else:
        label = _markdown_text(text)
    return f"[{label}]({href.replace(' ', '%20').replace('(', '%28').replace(')', '%29')})"


def _markdown_text(text: str) -> str:
    return _MARKDOWN_SPECIAL.sub(r"\\\1", html.unescape(text))


def _outside_code_spans(line: str, change: Callable[[str], str]) -> str:
    parts = line.split("`")
    if len(parts) % 2 == 0:  # an unmatched backtick: no code span to keep apart
        return change(line)
    return "`".join(change(part) if index % 2 == 0 else part for index, part in enumerate(parts))


def _anchored(display: str, anchor: str, separator: str = ".") -> tuple[str, str]:
    """``display`` and the fragment for an ``anchor`` argument (MDN shows ``Name.anchor``)."""
    anchor = anchor.lstrip("#")
    return (f"{display}{separator}{anchor}", f"#{anchor}") if anchor else (display, "")


def _code(args: list[str], position: int = 3) -> bool:
    """Whether the display is code: MDN's ``nocode`` argument (any value but an empty one) turns it off."""
    return len(args) <= position or args[position] in ("", "0", "false")


def _at(args: list[str], position: int) -> str:
    return args[position] if len(args) > position else ""


def _domxref(args: list[str]) -> tuple[str, str, bool]:
    api = args[0].replace(" ", "_").replace("()", "").replace(".prototype.", ".").replace(".", "/")
    display, fragment = _anchored(_at(args, 1) or args[0], _at(args, 2))
    return f"Web/API/{api}{fragment}", display, _code(args)


def _jsxref(args: list[str]) -> tuple[str, str, bool]:
    bare, _, embedded = args[0].partition("#")
    display, fragment = _at(args, 1) or bare, "#" + (embedded or _at(args, 2)).lstrip("#")
    name = bare.replace("()", "").replace(".prototype.", ".")
    if "/" not in name:
        name = re.sub(r"(?<!\.)\.(?!\.)", "/", name)
        if name in _JS_OPERATORS:
            name = f"Operators/{name}"
        elif name in _JS_STATEMENTS:
            name = f"Statements/{name}"
        else:
            name = f"Global_Objects/{name}"
    elif name.split("/")[0] not in _JS_SECTIONS:  # Temporal/PlainDate, Promise/Promise: a global object's page
        name = f"Global_Objects/{name}"
    return f"Web/JavaScript/Reference/{name}{fragment if fragment != '#' else ''}", display, _code(args)


def _cssxref(args: list[str]) -> tuple[str, str, bool]:
    name, _, embedded = html.unescape(args[0]).partition("#")
    display = _at(args, 1) or name.rsplit("/", 1)[-1]
    fragment = "#" + (embedded or _at(args, 2)).lstrip("#")
    slug = name.removeprefix("<").removesuffix(">").removesuffix("()")
    if name.startswith("Reference/"):
        path = name
    elif name.startswith(":"):  # :hover, :is(), ::picker()
        path = f"Reference/Selectors/{slug}"
    elif name.startswith("@"):  # @media, @font-face/font-family
        path = f"Reference/At-rules/{slug}"
    elif name.startswith("<") or name.endswith("()") or "/" in name:  # <length>, calc(), transform-function/skew
        path = f"Reference/Values/{slug}"
    else:
        path = f"Reference/Properties/{slug}"
    return f"Web/CSS/{path}{fragment if fragment != '#' else ''}", display, True


def _element(base: str, lower: bool = False) -> Callable[[list[str]], tuple[str, str, bool]]:
    def element(args: list[str]) -> tuple[str, str, bool]:
        name = args[0].lower() if lower else args[0]
        display, anchor = _at(args, 1), _at(args, 2).lstrip("#")
        return f"{base}{name}" + (f"#{anchor}" if anchor else ""), display or f"<{name}>", not display
    return element


def _http(base: str) -> Callable[[list[str]], tuple[str, str, bool]]:
    def http(args: list[str]) -> tuple[str, str, bool]:
        display, fragment = _anchored(_at(args, 1) or args[0], _at(args, 2))
        return f"{base}{args[0]}{fragment}", display, _code(args)
    return http


def _plain(base: str, *, code: bool = True, spaces: bool = False) -> Callable[[list[str]], tuple[str, str, bool]]:
    def plain(args: list[str]) -> tuple[str, str, bool]:
        target = " ".join(args[0].split()).replace(" ", "_") if spaces else args[0]
        return f"{base}{target}", _at(args, 1) or args[0], code
    return plain


def _webextapiref(args: list[str]) -> tuple[str, str, bool]:
    api = args[0].replace(" ", "_").replace("()", "").replace(".", "/")
    display, fragment = _anchored(_at(args, 1) or args[0], _at(args, 2), "#")
    return f"Mozilla/Add-ons/WebExtensions/API/{api}{fragment}", display, _code(args)


_LINKS: dict[str, Callable[[list[str]], tuple[str, str, bool]]] = {
    "domxref": _domxref,
    "jsxref": _jsxref,
    "cssxref": _cssxref,
    "htmlelement": _element("Web/HTML/Reference/Elements/"),
    "svgelement": _element("Web/SVG/Reference/Element/"),
    "mathmlelement": _element("Web/MathML/Reference/Element/", lower=True),
    "svgattr": _plain("Web/SVG/Reference/Attribute/"),
    "httpheader": _http("Web/HTTP/Reference/Headers/"),
    "httpmethod": _http("Web/HTTP/Reference/Methods/"),
    "httpstatus": _http("Web/HTTP/Reference/Status/"),
    "csp": _plain("Web/HTTP/Reference/Headers/Content-Security-Policy/"),
    "glossary": _plain("Glossary/", code=False, spaces=True),
    "webextapiref": _webextapiref,
}
"""The cross-reference macros: the page each names (its slug, ``#fragment`` included), its display text,
and whether MDN shows that text as code."""
