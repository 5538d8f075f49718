"""Navigation commands: ``clew nav | read | grep | expand | slice | fetch``.

Each opens the corpus read-only, calls the same function the agent's tool calls, and prints
the result model as JSON (``--json``) or as a short listing. Exit status: 0 for ``ok`` and
``no_match``, 1 when the start is ``unavailable``, ``malformed`` or the read ``failed``,
2 for bad input.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from pydantic import BaseModel
from rich.markup import escape

from clew.commands.common import DbOption, JsonOption, err, fail, out, require_db
from clew.corpus.reader import Scope
from clew.corpus.store import Corpus
from clew.errors import ClewError
from clew.navigation.evidence import EvidenceLedger, fetch_evidence
from clew.navigation.graph import expand_neighbors
from clew.navigation.models import Item, NeighborsResult, SliceResult
from clew.navigation.reading import grep, read
from clew.navigation.slices import fetch_slice
from clew.navigation.tree import navigate_document_tree

app = typer.Typer()

CollectionOption = Annotated[str | None, typer.Option(help="Read only inside this collection.")]
MaxCharsOption = Annotated[int, typer.Option("--max-chars", help="Character budget over the returned text.")]


def _run(db: Path, collection: str | None, as_json: bool, call: Callable[[Scope], BaseModel]) -> None:
    require_db(db)
    try:
        with Corpus(db, read_only=True) as corpus:
            result = call(Scope(corpus, collection=collection))
    except ClewError as error:
        raise fail(error) from error
    if as_json:
        print(result.model_dump_json())
    else:
        _show(result)
    status = getattr(result, "status", "ok")
    if status not in ("ok", "no_match"):
        raise typer.Exit(code=1)


def _show_item(item: Item) -> None:
    path = " > ".join(item.heading_path) or item.document_key
    cut = " (cut)" if item.text_truncated else ""
    out.print(f"[bold]{item.evidence_id}[/bold]  {escape(path)}  {escape(f'[{item.kind}]')}{cut}", highlight=False)
    out.print(item.text, markup=False, highlight=False)
    out.print()


def _show(result: BaseModel) -> None:
    status = getattr(result, "status", "ok")
    if status not in ("ok",):
        err.print(f"{status}: {getattr(result, 'detail', None) or ''}", markup=False)
    if isinstance(result, NeighborsResult):
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
        for entry in result.evidence:  # type: ignore[attr-defined]
            if entry.item is not None:
                _show_item(entry.item)
            else:
                err.print(f"{entry.id}: {entry.status} {entry.detail or ''}", markup=False)
    for item in getattr(result, "items", []):
        _show_item(item)
    if getattr(result, "truncated", False):
        err.print(f"truncated ({getattr(result, 'truncation_reason', None) or 'limit'})", markup=False)


@app.command("nav")
def nav_command(
    evidence_id: Annotated[str, typer.Argument(help="A passage id (ev1:c:...).")],
    relation: Annotated[str, typer.Argument(help="parent | siblings | children | previous | next | table_context")],
    db: DbOption,
    limit: Annotated[int, typer.Option(help="Most passages (1-50).")] = 10,
    max_chars: MaxCharsOption = 12000,
    collection: CollectionOption = None,
    as_json: JsonOption = False,
) -> None:
    """Move from a passage to its section, siblings, children, neighbours or table."""
    _run(db, collection, as_json, lambda s: navigate_document_tree(s, evidence_id, relation, limit, max_chars))


@app.command("read")
def read_command(
    document: Annotated[str, typer.Argument(help="A document key or any evidence id of the version.")],
    db: DbOption,
    start: Annotated[int | None, typer.Option(help="First character offset.")] = None,
    end: Annotated[int | None, typer.Option(help="End offset (exclusive).")] = None,
    top_k: Annotated[int, typer.Option("--top-k", help="Most passages (1-50).")] = 20,
    max_chars: MaxCharsOption = 12000,
    collection: CollectionOption = None,
    as_json: JsonOption = False,
) -> None:
    """Read a document's passages inside a character range."""
    _run(db, collection, as_json, lambda s: read(s, document, start, end, top_k, max_chars))


@app.command("grep")
def grep_command(
    document: Annotated[str, typer.Argument(help="A document key or any evidence id of the version.")],
    pattern: Annotated[str, typer.Argument(help="Text to find (case-insensitive).")],
    db: DbOption,
    mode: Annotated[str, typer.Option(help="phrase: the whole pattern; term: every token.")] = "phrase",
    top_k: Annotated[int, typer.Option("--top-k", help="Most passages (1-50).")] = 5,
    max_chars: MaxCharsOption = 12000,
    collection: CollectionOption = None,
    as_json: JsonOption = False,
) -> None:
    """Find the passages of one document that contain a pattern."""
    _run(db, collection, as_json, lambda s: grep(s, document, pattern, mode, top_k, max_chars))


@app.command("expand")
def expand_command(
    ids: Annotated[list[str], typer.Argument(help="Seed evidence ids (at most 8 are used).")],
    db: DbOption,
    relationship: Annotated[
        list[str] | None, typer.Option("--relationship", help="Edge type or graph to follow (repeatable).")] = None,
    neighbor_type: Annotated[
        list[str] | None, typer.Option("--type", help="chunk | section | table | document (repeatable).")] = None,
    depth: Annotated[int, typer.Option(help="Hops (1-3).")] = 1,
    limit: Annotated[int, typer.Option(help="Most neighbours (1-24).")] = 8,
    content_max_chars: Annotated[int, typer.Option("--content-max-chars", help="Characters of content each.")] = 500,
    incoming: Annotated[bool, typer.Option(help="Also walk edges pointing at a vertex.")] = True,
    collection: CollectionOption = None,
    as_json: JsonOption = False,
) -> None:
    """Walk graph edges (reading order, sections, links, user graphs) from seed ids."""
    _run(db, None, as_json, lambda s: expand_neighbors(
        s, ids, relationship or None, neighbor_type or None, depth, limit, content_max_chars, incoming, collection))


@app.command("slice")
def slice_command(
    evidence_id: Annotated[str, typer.Argument(help="A passage, section or document id.")],
    db: DbOption,
    window: Annotated[int, typer.Option(help="Passages in the slice (1-64).")] = 3,
    max_chars: MaxCharsOption = 18000,
    collection: CollectionOption = None,
    as_json: JsonOption = False,
) -> None:
    """A window of consecutive passages around a passage, or a document's first passages."""
    _run(db, collection, as_json, lambda s: fetch_slice(s, evidence_id, window, max_chars))


@app.command("fetch")
def fetch_command(
    ids: Annotated[list[str], typer.Argument(help="Passage ids (ev1:c:...).")],
    db: DbOption,
    max_chars: MaxCharsOption = 12000,
    collection: CollectionOption = None,
    as_json: JsonOption = False,
) -> None:
    """Read passages in full (as the agent does before it may cite them)."""
    _run(db, collection, as_json, lambda s: fetch_evidence(s, ids, max_chars, EvidenceLedger()))
