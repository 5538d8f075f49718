"""Short human listings of tool results (``clew <tool>`` without ``--json``)."""

from __future__ import annotations

from pydantic import BaseModel
from rich.markup import escape
from rich.table import Table

from clew.commands.common import err, out
from clew.corpus.search.api import SearchResult
from clew.navigation.models import Item, NeighborsResult, SliceResult


def _show_item(item: Item) -> None:
    path = " > ".join(item.heading_path) or item.document_key
    cut = " (cut)" if item.text_truncated else ""
    out.print(f"[bold]{item.evidence_id}[/bold]  {escape(path)}  {escape(f'[{item.kind}]')}{cut}", highlight=False)
    out.print(item.text, markup=False, highlight=False)
    out.print()


def show(result: BaseModel) -> None:
    status = getattr(result, "status", "ok")
    if status not in ("ok",):
        err.print(f"{status}: {getattr(result, 'detail', None) or ''}", markup=False)
    if isinstance(result, SearchResult):
        _show_search(result)
    elif isinstance(result, NeighborsResult):
        for n in result.neighbors:
            out.print(f"{n.distance}  {n.score:.3f}  {n.relationship} ({n.direction})  [bold]{n.id}[/bold]  "
                      f"{escape(n.name)}", highlight=False)
        for u in result.unresolved:
            err.print(f"unresolved {u.id}: {u.status}", markup=False)
    elif isinstance(result, SliceResult):
        for p in result.passages:
            out.print(f"[bold]{p.evidence_id}[/bold]  {p.index + 1}/{p.total}  {escape(p.breadcrumb)}", highlight=False)
            out.print(p.text, markup=False, highlight=False)
            out.print()
    elif hasattr(result, "evidence"):
        for entry in result.evidence:
            if entry.item is not None:
                _show_item(entry.item)
            else:
                err.print(f"{entry.id}: {entry.status} {entry.detail or ''}", markup=False)
    for item in getattr(result, "items", []):
        _show_item(item)
    if getattr(result, "truncated", False):
        err.print(f"truncated ({getattr(result, 'truncation_reason', None) or 'limit'})", markup=False)


def _show_search(result: SearchResult) -> None:
    table = Table("rank", "score", "evidence id", "document", "section", "text")
    for column in table.columns[3:]:
        column.no_wrap, column.overflow, column.max_width = True, "ellipsis", 60
    for hit in result.hits:
        snippet = " ".join(hit.text.split())[:120]
        table.add_row(str(hit.rank), f"{hit.score:.3f}", hit.evidence_id, hit.document_key,
                      " > ".join(hit.heading_path[-2:]), snippet)
    out.print(table)
    out.print(f"{len(result.hits)} hits (limit {result.limit}, mode {result.mode})")
