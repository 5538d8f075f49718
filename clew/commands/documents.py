"""Document commands: ``clew ls``, ``clew outline``, ``clew rm``."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from clew.commands.common import (
    CollectionOption, DbOption, JsonOption, collection as resolve_collection, command, database, fail, out, respond,
)
from clew.corpus.documents import OutlineNode, list_documents, outline, remove_documents
from clew.corpus.reader import Scope
from clew.corpus.store import Corpus

app = typer.Typer(rich_markup_mode=None)  # plain help: see clew.cli


@command(app, "ls", example="clew ls --db docs.duckdb --collection docs")
def ls_command(db: DbOption = None,
               collection: Annotated[str | None, typer.Option(help="Only this collection (default: all).")] = None,
               removed: Annotated[bool, typer.Option("--removed", help="Also list retired documents.")] = False,
               as_json: JsonOption = False) -> None:
    """List documents: key, version, chunks, size and format."""
    with Corpus(database(db), read_only=True) as corpus:
        rows = list_documents(Scope(corpus, collection=collection), include_removed=removed)

    def show() -> None:
        table = Table("collection", "key", "version", "status", "format", "chunks", "tokens", "chars", "pages",
                      "title")
        for row in rows:
            table.add_row(Text(row.collection), Text(row.key), str(row.version), row.status, row.format,
                          str(row.chunks), str(row.tokens), str(row.chars), str(row.pages or ""),
                          Text(row.title or ""))
        out.print(table)

    respond({"documents": [row.model_dump() for row in rows]}, show)


@command(app, "outline", example="clew outline guide.md --db docs.duckdb")
def outline_command(key: Annotated[str, typer.Argument(help="Document key.")], db: DbOption = None,
                    collection: CollectionOption = None, as_json: JsonOption = False) -> None:
    """Show a document's section tree with passage counts (no such document: exit status 1)."""
    with Corpus(database(db), read_only=True) as corpus:
        tree = outline(Scope(corpus, collection=resolve_collection(corpus, collection)), key)
    if tree is None:
        raise fail(f"no current document with key {key!r}", code=1)

    def show() -> None:
        root = Tree(_label(tree))

        def add(parent: Tree, node: OutlineNode) -> None:
            for child in node.children:
                add(parent.add(_label(child)), child)

        add(root, tree)
        out.print(root)

    respond(tree, show)


def _label(node: OutlineNode) -> Text:
    return Text(node.heading or f"({node.kind})") + Text(
        f"  {node.kind}, {node.passages} passages, {node.tokens} tokens, {node.id}", style="dim")


@command(app, "rm", example="clew rm old/guide.md --db docs.duckdb")
def rm_command(keys: Annotated[list[str], typer.Argument(help="Document keys to retire.")], db: DbOption = None,
               collection: CollectionOption = None, as_json: JsonOption = False) -> None:
    """Retire documents: no longer searched or navigated; their evidence ids still resolve (superseded).
    A key not found: exit status 1 (the others are retired)."""
    with Corpus(database(db)) as corpus:
        scope = Scope(corpus, collection=resolve_collection(corpus, collection, otherwise="default"))
        report = remove_documents(corpus, scope, keys)

    def show() -> None:
        for key in report.removed:
            out.print(Text(f"retired {key}"))
        for key in report.missing:
            out.print(Text("not found ", style="yellow") + Text(key))

    respond(report, show, status="unavailable" if report.missing else "ok")
