"""The one glob of document keys: a filter's ``path`` (``clew.corpus.access.Path``, matched in DuckDB) and
``--exclude``'s and ``.clewignore``'s patterns (``clew.corpus.ingest.sources.deciding_pattern``, matched here)
read a pattern the same way, through :func:`glob_regex`.

A glob is matched whole, from the key's start, case-sensitive: ``*`` is any run of characters, ``/`` included
(``**`` too), a ``**/`` that is a whole folder also none (``**/index.md`` is the root's ``index.md`` too;
``a**/b`` is ``a*/b``, as in ``.gitignore``); ``?`` one character;
``[abc]``, ``[a-z]``, ``[!abc]`` one of them or none of them, as ``fnmatch`` reads them (a ``]`` first in the
class is one of them; a range whose ends are reversed holds nothing); a ``[`` that no ``]`` closes is itself; a
pattern naming a folder takes everything below it (``v2.0`` and ``v2.0/`` match ``v2.0/install.html``); a
leading or trailing ``/`` is left out.
"""

from __future__ import annotations

import string

MAX_GLOB_CHARS = 1_000
"""The longest glob taken."""


def glob_regex(glob: str) -> str:
    """The regular expression (RE2 and Python's ``re`` alike; matched whole: DuckDB's ``regexp_full_match``,
    ``re.fullmatch``) of ``glob`` (see the module docstring); an empty or too long glob is a ``ValueError``."""
    if not glob.strip("/ "):
        raise ValueError("the path glob is empty (every document: leave path out)")
    if len(glob) > MAX_GLOB_CHARS:
        raise ValueError(f"the path glob takes at most {MAX_GLOB_CHARS} characters, got {len(glob)}")
    pattern, out, i = glob.strip("/"), [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i) and (i == 0 or pattern[i - 1] == "/"):  # a whole folder: 'a**/b' is 'a*/b'
            out.append("(?:.*/)?")
            i += 3
        elif pattern[i] in "*?":
            out.append(".*" if pattern[i] == "*" else ".")
            i += 1
        elif pattern[i] == "[" and (end := _class_end(pattern, i)) > 0:
            out.append(_class(pattern[i + 1:end]))
            i = end + 1
        else:
            out.append(_escaped(pattern[i]))
            i += 1
    return "(?s)" + "".join(out) + "(?:/.*)?"


def _class_end(pattern: str, start: int) -> int:
    """The index of the ``]`` that closes the class opened at ``start`` (a ``]`` right after ``[`` or ``[!``
    is in the class), or -1."""
    at = start + 1 + pattern.startswith("!", start + 1)
    at += pattern.startswith("]", at)
    return pattern.find("]", at)


def _class(body: str) -> str:
    """A character class of a glob's class ``body`` (between ``[`` and ``]``)."""
    negated = body.startswith("!")
    body, items, k = body[negated:], [], 0
    while k < len(body):
        if k + 2 < len(body) and body[k + 1] == "-":
            if body[k] <= body[k + 2]:
                items.append(f"{_escaped(body[k])}-{_escaped(body[k + 2])}")
            k += 3
        else:
            items.append(_escaped(body[k]))
            k += 1
    if not items:  # only reversed ranges: nothing, or anything when negated
        return "." if negated else "[^\\s\\S]"
    return f"[{'^' if negated else ''}{''.join(items)}]"


def _escaped(char: str) -> str:
    return "\\" + char if char in string.punctuation else char
