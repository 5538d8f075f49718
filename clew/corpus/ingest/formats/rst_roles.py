"""reStructuredText's interpreted text roles read as Sphinx shows them, for its reader (``lightmarkup``).

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
"""

from __future__ import annotations

import re

_ROLE = re.compile(r"(?<![\w`:]):((?:[a-z][\w+.-]*:)*[a-z][\w+.-]*):`([^`]+)`(?!`)")
_TITLED = re.compile(r"((?:.*\S)?)\s*<([^<>]+)>\s*$")  # not "(.*?)\s*": quadratic in blanks
_CODE_DOMAINS = ("py:", "c:", "cpp:", "js:", "rst:")
_CODE = frozenset("func class meth mod attr exc data obj const confval envvar option program file samp command kbd code"
                  " code-py type member var macro".split())
_KEPT = frozenset({"doc", "ref"})


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
