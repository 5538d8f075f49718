"""reStructuredText's interpreted text roles and Sphinx's version notes read as Sphinx shows them, for its
reader (``lightmarkup``).

A role names what it marks up (``:func:`confirm```, ``:class:`~jinja2.Environment```); written into the
page's text as it stands, an answer quoted the markup ("the :class:`CoverageBuilder`"). Each role on a
line outside code is written again as the built page shows it:

- a cross-reference to code (Python's ``:func:``, ``:class:``, ``:meth:``, ``:mod:``, ``:attr:``,
  ``:exc:``, ``:data:``, ``:obj:``, ``:const:``, any domain's ``:py:...:``, ``:c:...:``, ``:cpp:...:``,
  ``:js:...:``, ``:rst:...:``, and ``:confval:``, ``:envvar:``, ``:option:``, ``:program:``, ``:file:``,
  ``:samp:``, ``:command:``, ``:kbd:``, ``:code:``, ``:code-py:``) as a literal, ````confirm````: its title
  where it has one (``:func:`the function <f>```), the last dotted name after a ``~``
  (``:class:`~jinja2.Environment``` is ````Environment````), a ``!`` left out;
- ``:pep:`8``` and ``:rfc:`2616``` as "PEP 8" and "RFC 2616";
- any other role (``:term:``, ``:abbr:``, ``:guilabel:``, ``:dfn:``, ``:sup:``) as its title or text;
- ``:doc:`` and ``:ref:`` stay as written: the reader links them (``lightmarkup``).

A version note's directive line reads as Sphinx 7.3 and later write it: ``.. versionadded:: 7.2`` is "Added in
version 7.2.", ``.. versionchanged:: 2.0 Text`` "Changed in version 2.0: Text", ``.. deprecated::`` "Deprecated
since version", ``.. versionremoved::`` "Removed in version"; its indented body goes on from it.

An object description's option and field lines (``:type: int``, ``:param x: text``) read as Sphinx shows them
(:func:`field_line`), a field a line: "Type: int", "Parameter x: text".
"""

from __future__ import annotations

import re

_ROLE = re.compile(r"(?<![\w`:]):((?:[a-z][\w+.-]*:)*[a-z][\w+.-]*):`([^`]+)`(?!`)")
_TITLED = re.compile(r"((?:.*\S)?)\s*<([^<>]+)>\s*$")  # not "(.*?)\s*": quadratic in blanks
_CODE_DOMAINS = ("py:", "c:", "cpp:", "js:", "rst:")
_CODE = frozenset("func class meth mod attr exc data obj const confval envvar option program file samp command kbd code"
                  " code-py type member var macro".split())
_KEPT = frozenset({"doc", "ref"})
_VERSION = re.compile(
    r"^(\s*)\.\.[ \t]+(versionadded|versionchanged|deprecated|versionremoved)::[ \t]+(\S+)[ \t]*(.*?)\s*$")
_VERSION_LABELS = {"versionadded": "Added in version", "versionchanged": "Changed in version",
                   "deprecated": "Deprecated since version", "versionremoved": "Removed in version"}


def version_note(line: str) -> str:
    """``line`` as Sphinx shows it where it opens a version note (see the module's doc), else as it is."""
    found = _VERSION.match(line) if ".. " in line else None
    if found is None:
        return line
    indent, name, version, text = found.groups()
    return f"{indent}{_VERSION_LABELS[name]} {version}" + (f": {text}" if text else ".")


def role_text(line: str) -> str:
    """``line`` with its roles as Sphinx shows them (see the module's doc)."""
    return _ROLE.sub(_shown, line) if ":`" in line else line


def _shown(found: re.Match[str]) -> str:
    name, content = found.group(1), found.group(2)
    if name in _KEPT:
        return found.group(0)
    titled = _TITLED.match(content)
    if titled is not None and titled.group(1):
        shown = titled.group(1)
    else:
        shown = content.lstrip("!")
        if shown.startswith("~"):
            shown = shown[1:].rsplit(".", 1)[-1]
    if name in ("pep", "rfc"):
        return f"{name.upper()} {shown}"
    if name in _CODE or name.startswith(_CODE_DOMAINS):
        return f"``{shown}``"
    return shown


_FIELD = re.compile(r"^(\s*):([a-zA-Z][\w-]*)((?:[ \t]+[^:\s][^:]*?)?)[ \t]*:(?:[ \t]+(.*?))?[ \t]*$")
_FLAGS = frozenset("noindex no-index noindexentry no-index-entry nocontentsentry no-contents-entry no-typesetting"
                   " abstractmethod async classmethod staticmethod final".split())
_FIELD_LABELS = {"param": "Parameter", "parameter": "Parameter", "arg": "Parameter", "argument": "Parameter",
                 "key": "Keyword", "keyword": "Keyword", "kwarg": "Keyword", "kwparam": "Keyword",
                 "raises": "Raises", "raise": "Raises", "except": "Raises", "exception": "Raises",
                 "var": "Variable", "ivar": "Variable", "cvar": "Variable", "returns": "Returns",
                 "return": "Returns", "rtype": "Return type", "vartype": "Type of"}


def field_line(line: str) -> str:
    """An option or field line of an object description's body as Sphinx shows it: ``:type: int`` is
    "Type: int", ``:default: 0`` "Default: 0", ``:param x: text`` "Parameter x: text", ``:param int x:``
    "Parameter x (int):", ``:type x: int`` "Type of x: int", ``:rtype: str`` "Return type: str"; a flag
    (``:noindex:``) is left out (an empty line); any other line as it is."""
    found = _FIELD.match(line) if line.lstrip().startswith(":") else None
    if found is None:
        return line
    indent, name, argument, value = found.group(1), found.group(2).lower(), found.group(3).split(), found.group(4)
    if name in _FLAGS and not argument and not value:
        return ""
    if name == "type" and argument:
        label = "Type of " + " ".join(argument)
    elif len(argument) >= 2 and _FIELD_LABELS.get(name) in ("Parameter", "Keyword"):
        label = f"{_FIELD_LABELS[name]} {argument[-1]} ({' '.join(argument[:-1])})"
    else:
        label = " ".join([_FIELD_LABELS.get(name, name.replace("-", " ").capitalize()), *argument])
    return f"{indent}{label}:" + (f" {value}" if value else "")
