"""MyST Markdown (Sphinx's Markdown: click's and many Python projects' ``docs/*.md``), as Sphinx renders it.

Rewritten line by line before the Markdown parser reads the text; every line stays a line (see
``dialects``). Only a text that holds a role or a directive is rewritten; code is left as written.

- A role, ``{name}`content```, reads as Sphinx shows it: a cross-reference to code (``{func}`confirm```,
  ``{class}`~click.Context```, ``{meth}`Context.invoke```) as the code span ```confirm```, ```Context```
  (a leading ``~`` shows the last dotted name, ``!`` nothing); ``{ref}``, ``{doc}``, ``{term}``,
  ``{numref}`` and ``{any}`` as their title (``{ref}`Counting <counting>``` is "Counting") or target.
  Read as written, "the {func}`confirm` function" was quoted with its markup. A ``{ref}`` to a label of
  this page is a link to it, and a ``{doc}`` to a page beside this one (``{doc}`quickstart```, not
  ``/quickstart``) a link to its ``.md`` file.
- A target, ``(label)=`` on a line of its own, is not text: over a heading it names the heading
  (``# Options {#options}``, an anchor of the page).
- A directive fence, ````` ```{name} arguments `````: an admonition (``{note}``, ``{warning}``,
  ``{versionadded} 8.0``, ``{admonition} Title``, ...) is its label and its body, text rather than a
  code block ("Note:", "Version added: 8.0", "Title"); ``{code-block} python`` (``{code}``,
  ``{sourcecode}``) a code block in that language; a directive that shows no text of its own
  (``{toctree}``, ``{contents}``, ``{currentmodule}``, ``{include}``, ``{literalinclude}``, ``{image}``,
  ``{figure}``) is not text. Its option lines (``:caption: Example``) are not text either. Any other
  directive (``{eval-rst}``, whose body is reStructuredText) stays a code block. The colon form,
  ``:::{note}``, reads as a directive container (``:::note``, see ``dialects``).
- A glossary (````` ```{glossary} `````, ``:::{glossary}``) is its entries, each term a heading one level under
  the heading above it and its description (unindented) that heading's text, as the HTML reader reads a long
  definition list; the description stays Markdown, so its code spans and links stay (``_glossaries``). Its closing
  fence is written as an HTML comment, ``GLOSSARY_END``, where the Markdown reader ends the terms' sections
  (:func:`glossary_closed`): text after the glossary is the section's around it, not its last term's.
"""

from __future__ import annotations

import re

from clew.corpus.ingest.parsed import Section

_ROLE = re.compile(r"\{([a-z][\w:+.-]*)\}(`+)(.+?)(?<!`)\2(?!`)")
_TICKS = re.compile(r"`+")
_TARGET = re.compile(r"\(([\w.:-]+)\)=")
_HEADING = re.compile(r" {0,3}#{1,6}[ \t]")
_TEXT_ROLES = frozenset("ref doc term numref any download keyword option envvar".split())
_TITLED = re.compile(r"((?:.*\S)?)\s*<([^<>]+)>\s*$", re.S)  # not "(.*?)\s*": quadratic in blanks
_FENCE = re.compile(r"^([ \t]{0,3})(`{3,}|~{3,})\{([\w-]+)\}[ \t]*((?:[^ \t](?:.*[^ \t])?)?)[ \t]*$")
_COLON_FENCE = re.compile(r"^([ \t]{0,3}:{3,})\{([\w-]+)\}")
_OPTION = re.compile(r"^[ \t]*:[\w-]+:(?:[ \t].*)?$")
_GLOSSARY = re.compile(r"^ {0,3}(`{3,}|~{3,}|:{3,})\{glossary\}[ \t]*$")
GLOSSARY_END = "<!-- the glossary's terms end, level "
"""A glossary's closing fence as :func:`_glossaries` writes it, the level of its terms after it: a comment (no text)
at which the Markdown reader ends the terms' sections (:func:`glossary_closed`)."""
_ADMONITIONS = {
    "note": "Note", "tip": "Tip", "hint": "Hint", "important": "Important", "warning": "Warning",
    "caution": "Caution", "attention": "Attention", "danger": "Danger", "error": "Error", "seealso": "See also",
    "versionadded": "Version added", "versionchanged": "Version changed", "deprecated": "Deprecated",
    "admonition": "",
}
_CODE = frozenset({"code-block", "code", "sourcecode"})
_HIDDEN = frozenset("toctree contents currentmodule module include literalinclude image figure autosummary".split())


def myst(text: str) -> str:
    """``text`` with its MyST roles and directive fences read as Sphinx renders them (see the module's doc)."""
    if "}`" not in text and "```{" not in text and ":::{" not in text and "~~~{" not in text and ")=" not in text:
        return text
    lines = text.split("\n")
    _glossaries(lines)
    labels = _targets(lines)
    fence: str | None = None  # the open code fence's marker (a plain fence, or a directive kept as code)
    stack: list[str] = []  # the markers of the admonition fences open around this line
    options = False  # the lines right after a directive's fence line: its options (":caption: x")
    opening = -1  # the line of a code directive's fence, moved down over its options (each line stays a line)
    for number, line in enumerate(lines):
        if options:
            if _OPTION.match(line):
                lines[number] = ""
                if opening >= 0:
                    lines[number], lines[opening], opening = lines[opening], "", number
                continue
            options, opening = False, -1
        stripped = line.strip()
        if fence is not None:  # inside code: as written, up to its closing fence
            if stripped and set(stripped) == {fence[0]} and len(stripped) >= len(fence):
                fence = None
            continue
        if stack and stripped and set(stripped) == {stack[-1][0]} and len(stripped) >= len(stack[-1]):
            stack.pop()
            lines[number] = ""
            continue
        directive = _FENCE.match(line)
        if directive is not None:
            indent, marker, name, arguments = directive.groups()
            options = True
            if name in _ADMONITIONS:
                label = _ADMONITIONS[name]
                lines[number] = f"{indent}{label}: {arguments}".rstrip() if label else f"{indent}{arguments}"
                stack.append(marker)
            elif name in _CODE:
                lines[number], fence, opening = f"{indent}{marker}{arguments}", marker, number
            elif name in _HIDDEN:
                _hide(lines, number, marker)
            else:
                fence = marker
            continue
        if stripped.startswith(("```", "~~~")):
            fence = stripped[: len(stripped) - len(stripped.lstrip(stripped[0]))]
            continue
        colon = _COLON_FENCE.match(line)
        if colon is not None:
            line = lines[number] = f"{colon.group(1)}{colon.group(2)}{line[colon.end():]}"
            options = True
        if "}`" in line:
            lines[number] = _roles(line, labels)
    return "\n".join(lines)


def _glossaries(lines: list[str]) -> None:
    """Each glossary (````` ```{glossary} ````` or ``:::{glossary}``) rewritten as Sphinx shows it, a term with its
    description a unit: the term lines (a line not indented; several in a row name one entry) a heading one level
    under the heading above the glossary, its description (the indented lines after it) that heading's text,
    unindented by its first line's indent (Markdown, so its code spans and links stay); the fences and options
    (``:sorted:``) not text."""
    level, fence, number = 1, "", 0
    while number < len(lines):
        line = lines[number]
        stripped = line.strip()
        if fence:
            if stripped and set(stripped) == {fence[0]} and len(stripped) >= len(fence):
                fence = ""
        elif (opening := _GLOSSARY.match(line)) is not None:
            number = _glossary(lines, number, opening.group(1), min(level + 1, 6))
            continue
        elif stripped.startswith(("```", "~~~")):
            fence = stripped[: len(stripped) - len(stripped.lstrip(stripped[0]))]
        elif _HEADING.match(line):
            level = len(stripped) - len(stripped.lstrip("#"))
        number += 1


def _glossary(lines: list[str], first: int, marker: str, level: int) -> int:
    """Rewrite the glossary opening at line ``first`` (``_glossaries``); the line after its closing fence."""
    lines[first] = ""
    number = first + 1
    while number < len(lines) and _OPTION.match(lines[number]):
        lines[number] = ""
        number += 1
    term, indent, inner = -1, 0, ""  # the entry's heading line, its description's indent, an open code fence
    for number in range(number, len(lines)):
        line = lines[number]
        stripped = line.strip()
        if (not inner and stripped and set(stripped) == {marker[0]} and len(stripped) >= len(marker)
                and len(line) - len(stripped) < 4):  # not a directive's inside the entry (attrs' :::{note})
            lines[number] = f"{GLOSSARY_END}{level} -->"
            return number + 1
        if not stripped:
            continue
        if not line[0].isspace() and not inner:  # a term: a heading, or the entry's other name
            if term >= 0 and number == term + 1:
                lines[term] += f", {stripped}"
                lines[number] = ""
            else:
                lines[number] = f"{'#' * level} {stripped}"
            term, indent = number, -1
            continue
        if indent < 0:
            indent = len(line) - len(line.lstrip())
        lines[number] = line[min(indent, len(line) - len(line.lstrip())):]
        if stripped.startswith(("```", "~~~")):
            run = stripped[: len(stripped) - len(stripped.lstrip(stripped[0]))]
            inner = "" if inner and run[0] == inner[0] and len(run) >= len(inner) else inner or run
    return len(lines)


def glossary_closed(sections: list[Section], current: int, html: str, at: int) -> int:
    """The section open after the raw ``html`` at ``at``: where it is a glossary's end (``GLOSSARY_END``), the one
    around its terms, whose sections end there; else ``current``."""
    if not html.startswith(GLOSSARY_END):
        return current
    level = int(html[len(GLOSSARY_END):].split()[0])
    while current and sections[current].level >= level:
        sections[current].end = at if sections[current].end is None else sections[current].end
        current = sections[current].parent or 0
    return current


def _hide(lines: list[str], number: int, marker: str) -> None:
    """Blank a directive that shows no text: its fence line, body and closing fence."""
    lines[number] = ""
    for index in range(number + 1, len(lines)):
        stripped = lines[index].strip()
        lines[index] = ""
        if stripped and set(stripped) == {marker[0]} and len(stripped) >= len(marker):
            return


def _targets(lines: list[str]) -> set[str]:
    """The labels of the page's targets, ``(label)=`` on a line of its own, each line rewritten: over a
    heading, the heading's attribute (``# Options {#options}``, an anchor of the page), else nothing
    (read as written, "(options)=" was a paragraph of its own over click's every page)."""
    labels: set[str] = set()
    for number, line in enumerate(lines):
        found = _TARGET.fullmatch(line.strip())
        if found is None or line[:1].isspace():
            continue
        label = found.group(1)
        labels.add(label.lower())
        lines[number] = ""
        following = next((i for i in range(number + 1, len(lines)) if lines[i].strip()), None)
        if following is not None and _HEADING.match(lines[following]) and "{#" not in lines[following]:
            lines[following] = f"{lines[following].rstrip()} {{#{label.lower()}}}"
    return labels


def _roles(line: str, labels: set[str]) -> str:
    """``line`` with its roles read (a role in a code span, ```.text-{color}```, is code and stays)."""
    parts: list[str] = []
    at = 0
    while at < len(line):
        role = _ROLE.match(line, at) if line[at] == "{" and (at == 0 or not line[at - 1].isalnum()) else None
        if role is not None:
            parts.append(_role(role, labels))
            at = role.end()
        elif line[at] == "`":  # a code span (to the next run of as many backticks), else the run itself
            ticks = len(line) - at - len(line[at:].lstrip("`"))
            close = next((m for m in _TICKS.finditer(line, at + ticks) if len(m.group()) == ticks), None)
            stop = close.end() if close is not None else at + ticks
            parts.append(line[at:stop])
            at = stop
        else:
            parts.append(line[at])
            at += 1
    return "".join(parts)


def _role(found: re.Match[str], labels: set[str]) -> str:
    name, content = found.group(1).rsplit(":", 1)[-1], found.group(3).strip()
    titled = _TITLED.match(content)
    target = titled.group(2).strip() if titled else content
    shown = titled.group(1) or target if titled else content
    if name == "ref" and target.lower() in labels:  # a label of this page: a link to its anchor
        return f"[{shown}](#{target.lower()})"
    if name == "doc" and not target.startswith("/") and " " not in target:  # a page beside this one
        return f"[{shown}]({target}.md)"
    if name in _TEXT_ROLES:
        return shown
    content = titled.group(1) or titled.group(2) if titled else content
    if content.startswith("~"):
        content = content[1:].rsplit(".", 1)[-1]
    content = content.lstrip("!")
    ticks = "``" if "`" in content else "`"
    return f"{ticks}{content}{ticks}"
