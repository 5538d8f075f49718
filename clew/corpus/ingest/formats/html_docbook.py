"""DocBook XSL's book index made into what the reader leaves out, before the page is parsed
(``html_more.restructured``; task R21).

A book's index (``div.index``: a letter's ``h3``, then a ``dt`` per term, each "term, link to the section that treats
it") on a page of its own (PostgreSQL's ``bookindex.html``) is left out of ingest as a generated index, as Sphinx's
``genindex.html`` is (``peek.GENERATED_SIGNS``, task G1): its terms read as a passage are noise for a question, and
its links lead nowhere the pages' own do not. A book written as one page holds the same index at its end: it is
marked as navigation there (``role="navigation"``, which the reader drops as it drops every navigation landmark).
Where the index is the page's own content (``bookindex.html`` taken back with ``!bookindex.html``), it stays.
"""

from __future__ import annotations

import re

from clew.corpus.ingest.peek import GENERATED_SIGNS

_DOCBOOK = re.compile(r'<meta name="generator" content="DocBook XSL')
_INDEX = '<div class="index"'
_INDEX_PAGE = next(sign for name, _, sign in GENERATED_SIGNS if name == "DocBook index")


def docbook_index_dropped(text: str) -> str:
    """``text`` with a DocBook XSL book's index marked as navigation, unless the index is what the page holds."""
    at = text.find(_INDEX)
    if at < 0 or not _DOCBOOK.search(text[:3000]) or _INDEX_PAGE.search(text[: at + len(_INDEX)]):
        return text
    return text[:at] + _INDEX + ' role="navigation"' + text[at + len(_INDEX):]
