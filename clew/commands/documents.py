"""Document commands: ``clew ls``, ``clew outline``, ``clew rm``."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table
from rich.tree import Tree

from clew.commands.common import DbOption, JsonOption, fail, out, require_db
from clew.corpus.documents import OutlineNode, list_documents, outline, remove_documents
from clew.corpus.reader import Scope
from clew.corpus.store import Corpus
from clew.errors import ClewError

app = typer.Typer()

CollectionOption = Annotated[str | None, typer.Option(help="Only this collection.")]


@app.command("ls")
def ls_command(db: DbOption, collection: CollectionOption = None,
               removed: Annotated[bool, typer.Option("--removed", help="Also list retired documents.")] = False,
               as_json: JsonOption = False) -> None:
    """List documents: key, version, chunks, size and format."""
    require_db(db)
    try:
        with Corpus(db, read_only=True) as corpus:
            rows = list_documents(Scope(corpus, collection=collection), include_removed=removed)
    except ClewError as error:
        raise fail(error) from error
    if as_json:
        print(json.dumps({"documents": [row.model_dump() for row in rows]}))
        return
    table = Table("collection", "key", "version", "status", "format", "chunks", "tokens", "chars", "pages", "title")
    for row in rows:
        table.add_row(row.collection, escape(row.key), str(row.version), row.status, row.format, str(row.chunks),
                      str(row.tokens), str(row.chars), str(row.pages or ""), escape(row.title or ""))
    out.print(table)


@app.command("outline")
def outline_command(key: Annotated[str, typer.Argument(help="Document key.")], db: DbOption,
                    collection: CollectionOption = None, as_json: JsonOption = False) -> None:
    """Show a document's section tree with passage counts."""
    require_db(db)
    try:
        with Corpus(db, read_only=True) as corpus:
            tree = outline(Scope(corpus, collection=collection), key)
    except ClewError as error:
        raise fail(error) from error
    if tree is None:
        raise fail(f"no current document with key {key!r}")
    if as_json:
        print(tree.model_dump_json())
        return
    root = Tree(_label(tree))

    def add(parent: Tree, node: OutlineNode) -> None:
        for child in node.children:
            add(parent.add(_label(child)), child)

    add(root, tree)
    out.print(root)


def _label(node: OutlineNode) -> str:
    heading = escape(node.heading or f"({node.kind})")
    return f"{heading}  [dim]{node.kind}, {node.passages} passages, {node.tokens} tokens, {node.id}[/dim]"


@app.command("rm")
def rm_command(keys: Annotated[list[str], typer.Argument(help="Document keys to retire.")], db: DbOption,
               collection: Annotated[str, typer.Option(help="Collection of the documents.")] = "default",
               as_json: JsonOption = False) -> None:
    """Retire documents: no longer searched or navigated; their evidence ids still resolve (superseded)."""
    require_db(db)
    try:
        with Corpus(db) as corpus:
            report = remove_documents(corpus, Scope(corpus, collection=collection), keys)
    except ClewError as error:
        raise fail(error) from error
    if as_json:
        print(report.model_dump_json())
    else:
        for key in report.removed:
            out.print(f"retired {escape(key)}", highlight=False)
        for key in report.missing:
            out.print(f"[yellow]not found[/yellow] {escape(key)}", highlight=False)
    if report.missing:
        raise typer.Exit(code=1)
