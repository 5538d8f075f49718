"""Foreign content (``svg``, ``math``) that the HTML reader skips (``clew.corpus.ingest.formats.html``),
passed over without ``html.parser`` tokenizing it.

The reader drops an ``svg`` or ``math`` element with everything inside, and a tag inside it only matters
where it ends the skip (a nested one of the same tag, ``html_rules._BREAKS_SVG``: the HTML algorithm's
breakout) or starts a read-ahead (``html_ahead.READ_AHEAD_TAGS``); ``html.parser`` would still parse every
tag and attribute inside. The SQLite pages' syntax diagrams are inline SVG: 58% of their tags (44,000 of
77,000 start tags: ``path``, ``polygon``, ``text``), about half of the parser's time on them.

:meth:`ForeignSkip.past` goes straight to the element's end tag where the standard parser would reach it
with nothing the reader reads in between: what lies between is plain text and well-formed tags (ASCII
names, quoted attribute values, ASCII whitespace), none of them a tag named above or a raw-text element
(``script``, ``style``, whose text the parser reads in its own way), and no comment, declaration or
processing instruction. The parser tokenizes such text at the same boundaries, so it reaches that end
tag in the same state, and the reader's callbacks would have ignored each of its events. Anything else
is parsed as before. The same parse, tested: ``tests/corpus/ingest/formats/test_html_foreign.py``.
"""

from __future__ import annotations

import re

from clew.corpus.ingest.formats.html_ahead import READ_AHEAD_TAGS
from clew.corpus.ingest.formats.html_rules import _BREAKS_SVG, _SKIPPED

FOREIGN_TAGS = frozenset({"svg", "math"})
"""Skipped elements whose content is tags (``html_rules._SKIPPED``; ``script`` and ``style`` are raw text,
which the parser already passes over)."""
RAW_TEXT = frozenset("script style textarea title xmp iframe noembed noframes noscript plaintext".split())
"""Elements whose text a parser may read as raw text (the standard parser: ``script`` and ``style``;
the HTML algorithm: the others), never passed over."""
_HEEDED = _BREAKS_SVG | _SKIPPED | READ_AHEAD_TAGS | RAW_TEXT
"""Tags that the reader does not ignore inside skipped foreign content, or that the parser reads in a mode of
their own."""

_WS = r"[ \t\n\r\f]"
_NAME = r"[a-zA-Z][-.a-zA-Z0-9:_]*+"
_HEEDED_NAME = "|".join(sorted(map(re.escape, _HEEDED)))
_IGNORED = re.compile(
    rf"""(?:[^<]++
    |<(?!(?i:{_HEEDED_NAME})[ \t\n\r\f/>]){_NAME}
        (?:{_WS}++[-.a-zA-Z0-9:_]++(?:{_WS}*+={_WS}*+(?:"[^"]*+"|'[^']*+'))?+)*+{_WS}*+/?>
    |</{_NAME}{_WS}*+>
    )*+""",
    re.ASCII | re.VERBOSE,
)
"""Text and well-formed tags, none named in ``_HEEDED`` (possessive: linear in the text it reads)."""
_ENDS = {tag: re.compile(rf"</(?i:{tag})[ \t\n\r\f/>]", re.ASCII) for tag in FOREIGN_TAGS}


class ForeignSkip:
    """Where the parser goes on after a skipped foreign element's start tag (one per parsed page: it
    remembers where the next end tag is, so that a page of many unclosed elements is searched once)."""

    def __init__(self) -> None:
        self._text = ""
        self._ends: dict[str, tuple[int, int]] = {}
        """Tag -> (from, at): the first end tag in ``_text`` at or after ``from`` is at ``at`` (-1: none)."""

    def past(self, rawdata: str, start: int, tag: str) -> int:
        """Where the parser goes on after the start tag of a skipped ``tag`` that ends at ``start``: its
        end tag where all before it is ignored (see the module's docstring), else ``start``."""
        if tag not in FOREIGN_TAGS:
            return start
        if rawdata is not self._text:  # the parser's buffer: one string while a page is fed
            self._text, self._ends = rawdata, {}
        searched, at = self._ends.get(tag, (-1, -1))
        if searched < 0 or start < searched or (0 <= at < start):
            found = _ENDS[tag].search(rawdata, start)
            searched, at = start, -1 if found is None else found.start()
            self._ends[tag] = (searched, at)
        if at < 0:
            return start
        read = _IGNORED.match(rawdata, start, at)
        return at if read is not None and read.end() == at else start
