"""``clew search``."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from clew.commands.common import DbOption, JsonOption, fail, out, require_db
from clew.corpus.access import Bool, BoolSpec, parse_field_expression
from clew.corpus.search.api import DEFAULT_LIMIT, search
from clew.corpus.store import Corpus
from clew.errors import ClewError

app = typer.Typer()


@app.command("search")
def search_command(
    query: Annotated[str, typer.Argument(help="Words, identifiers, error codes, numbers.")],
    db: DbOption,
    collection: Annotated[str | None, typer.Option(help="Collection to search (default: all).")] = None,
    mode: Annotated[str, typer.Option(help="bm25, vector or hybrid.")] = "bm25",
    limit: Annotated[int, typer.Option(help="Hits to return (clamped to 1-100).")] = DEFAULT_LIMIT,
    filters: Annotated[list[str] | None, typer.Option("--filter", help="FIELD=VALUE on document fields; repeatable (all must hold).")] = None,
    model: Annotated[str | None, typer.Option(help="Embedding model for vector/hybrid.")] = None,
    max_chars: Annotated[int, typer.Option(help="Characters of text per hit.")] = 4000,
    as_json: JsonOption = False,
) -> None:
    """Search a corpus; with --json prints {"hits": [...], "limit": applied, "mode": ...}."""
    require_db(db)
    try:
        terms = [parse_field_expression(expression) for expression in filters or ()]
        flt = terms[0] if len(terms) == 1 else (Bool(bool=BoolSpec(must=terms)) if terms else None)
        with Corpus(db, read_only=True) as corpus:
            result = search(corpus, {
                "query": query, "collection": collection, "mode": mode, "limit": limit, "filter": flt,
                "embedding_model": model, "max_chars": max_chars,
            })
    except ClewError as error:
        raise fail(error) from error
    if as_json:
        print(result.model_dump_json())
        return
    table = Table("rank", "score", "evidence id", "document", "section", "text")
    for column in table.columns[3:]:
        column.no_wrap, column.overflow, column.max_width = True, "ellipsis", 60
    for hit in result.hits:
        snippet = " ".join(hit.text.split())[:120]
        table.add_row(str(hit.rank), f"{hit.score:.3f}", hit.evidence_id, hit.document_key,
                      " > ".join(hit.heading_path[-2:]), snippet)
    out.print(table)
    out.print(f"{len(result.hits)} hits (limit {result.limit}, mode {result.mode})")
