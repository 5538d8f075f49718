"""The HTML reader's rule for Haddock's module pages (``clew.corpus.ingest.formats.html``; GHC 9.0's Haddock,
Debian's libghc-*-doc, Hackage; task R3's sweep: docs/measurements/generators-2026-12-06.md).

Haddock writes a module's declarations in ``div#interface`` as ``div.top`` boxes, each a signature
(``p.src``, its name an ``a.def`` whose id is the name with a namespace: ``v:splitOn``, ``t:Splitter``)
and its documentation, under the module's own section headings (``h1``-``h3``). No declaration has a
heading, so a section held every declaration under it. :func:`haddock_interface` rewrites the held events
of ``div#interface``: each ``div.top``'s signature is preceded by a heading holding the declaration's name,
one level below the section heading before it, as pdoc's members got (``html_pdoc``).
"""

from __future__ import annotations

from clew.corpus.ingest.formats.html_events import Parents, classes, follow, text_element
from clew.corpus.ingest.formats.html_rules import _VOID, Event, _attr

_NAMESPACES = ("v:", "t:")
"""The prefixes of a declaration's id: a value (function) or a type (class, data type)."""


def haddock_interface(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    """Whether an element is Haddock's ``div#interface`` (read ahead and rewritten)."""
    return tag == "div" and _attr(attrs, "id") == "interface"


def _name(events: list[Event], at: int) -> str | None:
    """The declaration's name: the text of the first ``a.def`` of the signature that starts at ``at``, when
    its id has a namespace (None if it has none before it ends). Not the id less its namespace: Haddock
    writes a character other than a letter, digit, ``:``, ``_`` or ``.`` in it as ``-NN-`` (aeson's
    ``eitherDecode'`` is ``v:eitherDecode-39-``, ``(.:?)`` is ``v:.:-63-``; task U7)."""
    for start in range(at + 1, len(events)):
        kind, tag, attrs = events[start]
        if kind == "end" and tag == "p":
            return None
        if kind == "start" and tag == "a" and "def" in classes(attrs):
            if not (_attr(attrs, "id") or "").startswith(_NAMESPACES):
                return None
            text = []
            for kind, data, _ in events[start + 1:]:
                if kind == "end" and data == "a":
                    break
                if kind == "data":
                    text.append(data)
            return "".join(text).strip() or None
    return None


def haddock_declarations(events: list[Event]) -> list[Event]:
    """The events of ``div#interface`` rewritten as the module docstring says."""
    out: list[Event] = []
    parents: Parents = []
    level = 1  # the level of the last section heading
    for at, event in enumerate(events):
        kind, tag, attrs = event
        opens = kind == "start" and tag not in _VOID
        if opens and tag in ("h1", "h2", "h3", "h4", "h5") and not (_attr(attrs, "class") or ""):
            level = int(tag[1])
        if opens and tag == "p" and "src" in classes(attrs) and parents:
            top = parents[-1]
            name = _name(events, at) if top[0] == "div" and "top" in classes(top[1]) else None
            if name is not None:
                out.extend(text_element(f"h{min(level + 1, 6)}", name))
        follow(parents, event)
        out.append(event)
    return out
