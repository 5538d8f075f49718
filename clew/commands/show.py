"""Short human listings of tool results (``clew <tool>`` without ``--json``)."""

from __future__ import annotations

import re
import shlex
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeGuard

from pydantic import BaseModel
from rich.table import Table
from rich.text import Text

from clew.commands.common import err, out, plural
from clew.navigation.models import Item, NeighborsResult, SliceResult

if TYPE_CHECKING:
    from clew.corpus.search.api import SearchResult


def _is_search(result: BaseModel) -> TypeGuard[SearchResult]:
    """A search result? (Not importing the search code to ask: where it was never loaded, the
    result cannot be one, so ``clew nav`` does not load it.)"""
    api = sys.modules.get("clew.corpus.search.api")
    return api is not None and isinstance(result, api.SearchResult)


def _show_item(item: Item, version_status: str | None = None) -> None:
    """A passage in full under one line: its id, the document and headings it is in, its pages."""
    path = " › ".join([item.document_key, *item.heading_path])
    if span := item.location.page_span():
        path += f"  {span}"
    cut = " (cut)" if item.text_truncated else ""
    note = {"superseded": "  (superseded: a newer version exists)",
            "removed": "  (removed: the document was retired; its id still resolves)"}.get(version_status or "", "")
    out.print(Text(item.evidence_id, style="bold") + Text(f"  {path}  [{item.kind}]{cut}")
              + Text(note, style="yellow"))
    out.print(Text(_passage_text(item.text)))
    out.print()


_LEADING_BLANK_LINES = re.compile(r"(?:[ \t]*+\n)+")


def _passage_text(text: str) -> str:
    """A passage's text without the blank lines around it (a Markdown passage whose first lines are left out, an
    MDX import or an autodoc line, opens with them: ten blank lines over Starlette's first passage, task U10); the
    first line's indentation stays. (``rstrip``, not a pattern: ``\\s+\\Z`` rescans a run of blanks from each of
    them, quadratic in it.)"""
    lead = _LEADING_BLANK_LINES.match(text)
    return text[lead.end() if lead else 0:].rstrip()


def show(result: BaseModel, query: str | None = None) -> None:
    """``result`` for a reader; ``query`` (a search's) picks the part of each hit's text shown."""
    status = getattr(result, "status", "ok")
    detail = getattr(result, "detail", None)
    if status not in ("ok",) and (detail or not hasattr(result, "evidence")):  # each id says its own status
        err.print(f"{status}: {detail}" if detail else status, markup=False)
    if _is_search(result):
        _show_search(result, query)
    elif isinstance(result, NeighborsResult):
        for n in result.neighbors:
            out.print(Text(f"{n.distance}  {n.score:.3f}  {n.relationship} ({n.direction})  ")
                      + Text(n.id, style="bold") + Text(f"  {n.name}"))
        for u in result.unresolved:
            err.print(f"unresolved {u.id}: {u.status}", markup=False)
    elif isinstance(result, SliceResult):
        for p in result.passages:  # as clew fetch heads a passage: its document, headings and pages (task U5)
            path = " › ".join([*([result.document_key] if result.document_key else []),
                               *([p.breadcrumb.replace(" > ", " › ")] if p.breadcrumb else [])])
            if span := p.location.page_span():
                path += f"  {span}"
            out.print(Text(p.evidence_id, style="bold") + Text(f"  {p.index + 1}/{p.total}  {path}"))
            out.print(Text(_passage_text(p.text)))
            out.print()
    elif hasattr(result, "evidence"):
        for entry in result.evidence:
            if entry.item is not None:
                _show_item(entry.item, entry.version_status)
            else:
                err.print(f"{entry.id}: {entry.status}" + (f" ({entry.detail})" if entry.detail else "")
                          + _not_a_passage(entry.id), markup=False)
    for item in getattr(result, "items", []):
        _show_item(item, getattr(result, "version_status", None))
    if getattr(result, "truncated", False):
        err.print(f"truncated ({getattr(result, 'truncation_reason', None) or 'limit'})", markup=False)


def _not_a_passage(value: str) -> str:
    """What reads a section's or document's id, which ``clew fetch`` does not: ``clew outline``
    lists sections by such ids, and one copied from there was only "malformed (expected a passage
    id ...)" (task U4). A document's key where an id was meant (``clew fetch nodejs/timers.html``,
    task U8), or its title (task S1): ``clew outline`` lists its passages' ids."""
    from clew.corpus.ids import decode
    from clew.errors import MalformedEvidenceId

    try:
        kind = decode(value).kind
    except MalformedEvidenceId:
        return "" if value.startswith("ev") or not value.strip() else (
            f"; if it is a document's key or title, clew outline {shlex.quote(value)} lists its passages' ids")
    return "" if kind == "c" else (f"; a {'section' if kind == 's' else 'document'} id: clew slice {value} "
                                   "reads its first passages")


SNIPPET_CHARS = 160
"""Characters of a hit's text that ``clew search`` shows (whitespace collapsed)."""
_ADORNMENT = re.compile(r"([=~^+*#\"'.:_-])\1{2,}")
_FENCE = re.compile(r"^[ \t]*(?:`{3,}|~{3,})[\w+.-]*[ \t]*$", re.MULTILINE)
"""A code fence's line (```` ``` ````, ```` ```python ````): the snippet is one line, where the marks are no block
(yard-doc's hit read "``` $ yard server --reload ``` Note that ...", task U12)."""
SNIPPET_LEAD = 40
"""Characters kept before the first matching word when the snippet cannot start at the text's start."""


def snippet(text: str, query: str | None, size: int = SNIPPET_CHARS, heading: str | None = None) -> str:
    """``size`` characters of ``text`` that show why it matched ``query``: its start when the first
    word holding a query term is in view there (or no word holds one: a vector hit), else from a
    word boundary about ``SNIPPET_LEAD`` characters before that word, marked ``… `` as cut.

    A first line that only repeats ``heading`` (the hit's section, shown above the snippet), as
    ``### Variadic option`` or a man page's ``SHARE_HISTORY <K>``, is left out when text follows it, and
    so are the lines around it that adorn it as a title in source text (``OPTIONS`` over ``-------``:
    a git page's hit read "------- -a:: --all:: ...")."""
    from clew.corpus.tokenize import tokenize  # only a search's listing needs it

    first, _, rest = text.strip().partition("\n")
    if heading and _ADORNMENT.fullmatch(first) and rest.strip():  # a reStructuredText title's overline
        first, _, rest = rest.strip().partition("\n")
    if heading and rest.strip() and _plain(first.lstrip("#")) == _plain(heading):
        text = rest
        under, _, after = rest.partition("\n")
        if _ADORNMENT.fullmatch(under.strip()) and after.strip():  # its underline (reStructuredText, AsciiDoc)
            text = after
    flat = " ".join(_FENCE.sub("", text).split())
    terms = set(tokenize(query)) if query else set()
    at = 0
    for word in flat.split(" ") if terms and len(flat) > size else ():
        if terms.intersection(tokenize(word)):
            if at + len(word) <= size:
                break
            start = flat.rfind(" ", 0, max(0, at - SNIPPET_LEAD)) + 1
            return "… " + flat[start:start + size - 2]
        at += len(word) + 1
    return flat[:size]


def _plain(line: str) -> str:
    """A heading as it reads: no Markdown emphasis or code marks, whitespace collapsed."""
    return " ".join(line.translate(str.maketrans("", "", "`*_")).split())


def search_table(result: SearchResult, width: int, query: str | None = None) -> Table:
    """The hits as a table for a terminal ``width`` columns wide, every cell plain text.

    Evidence ids are never cut. The last column holds where each hit is, on a line of its own
    (the document key and its heading path, shortened from the left to fit: see ``place``),
    then its text from where it first matches ``query`` (``snippet``); both wrap, so neither the
    key nor the last heading is cut.
    """
    table = Table("#", "score", "evidence id", "document › section, text")
    widest = max((len(hit.evidence_id) for hit in result.hits), default=11)
    ranks = max((len(str(hit.rank)) for hit in result.hits), default=1)
    room = max(12, width - 13 - ranks - 5 - widest)  # 5 borders and 2 spaces of padding for each of 4 columns
    for column in table.columns[:3]:
        column.no_wrap = True
    table.columns[2].min_width = widest
    table.columns[3].overflow = "fold"
    for hit in result.hits:
        cell = Text(place(hit.document_key, hit.heading_path, room), style="bold") + Text(
            "\n" + snippet(hit.text, query, heading=hit.heading_path[-1] if hit.heading_path else None))
        table.add_row(Text(str(hit.rank)), Text(f"{hit.score:.3f}"), Text(hit.evidence_id), cell)
    return table


def place(key: str, heading_path: Sequence[str], room: int) -> str:
    """``key › heading › heading`` when it fits in ``room`` columns; else the headings are cut from
    the left (``key › … › section › subsection``), keeping the key and at least the last heading."""
    for kept in range(len(heading_path), 0, -1):
        shown = " › ".join([key, *(["…"] if kept < len(heading_path) else []), *heading_path[-kept:]])
        if len(shown) <= room or kept == 1:
            return shown
    return key


def _show_search(result: SearchResult, query: str | None) -> None:
    if result.hits:  # no empty table for a search that found nothing
        out.print(search_table(result, out.width, query))
    out.print(f"{plural(len(result.hits), 'hit')} (limit {result.limit}, mode {result.mode})", highlight=False)
