"""Document commands: ``clew ls``, ``clew outline``, ``clew rm``."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.text import Text
from rich.tree import Tree

from clew.commands.common import (
    CollectionOption,
    DbOption,
    JsonOption,
    command,
    database,
    fail,
    out,
    plural,
    print_wrapped,
    respond,
    say_compacted,
)
from clew.commands.common import (
    collection as resolve_collection,
)
from clew.corpus.documents import OutlineNode, keys_meant, list_documents, outline_or_keys_meant, remove_documents
from clew.corpus.reader import Scope
from clew.corpus.store import Corpus

app = typer.Typer(rich_markup_mode=None)  # plain help: see clew.cli
TITLE_ROOM = 30
"""The columns ``clew ls`` keeps for titles beside the keys (narrower consoles permitting)."""


@command(app, "ls", example="clew ls --db docs.duckdb --collection docs")
def ls_command(db: DbOption = None,
               collection: Annotated[str | None, typer.Option(help="Only this collection (default: all).")] = None,
               removed: Annotated[bool, typer.Option("--removed", help="Also list retired documents.")] = False,
               as_json: JsonOption = False) -> None:
    """List documents: key, chunks, pages and title (--json: version, status, format, tokens, size)."""
    with Corpus(database(db), read_only=True) as corpus:
        rows = list_documents(Scope(corpus, collection=collection), include_removed=removed)

    def show() -> None:
        """One line per document, grouped by collection: the key whole (what outline, fetch and rm
        take), then chunks, pages and the title, cut to the console's width; --json has every column.
        A key too long to leave the titles ``TITLE_ROOM`` columns stands on a line of its own, its
        numbers and title on the next, and the key column is as wide as the longest key that fits:
        long keys never squeeze the titles."""
        paged = any(row.pages for row in rows)
        numbers = 2 + 6 + (7 if paged else 0)  # "  chunks" and "  pages"
        for name in dict.fromkeys(row.collection for row in rows):
            mine = [row for row in rows if row.collection == name]
            out.print(Text(f"{name}: {plural(len(mine), 'document')}", style="bold"))
            most = out.width - numbers - 2 - TITLE_ROOM  # the widest key column that leaves the titles room
            keys = max([len("key"), *(len(r.key) for r in mine if len(r.key) <= most)])
            head = f"{'key':<{keys}}  {'chunks':>6}" + ("  pages" if paged else "")
            room = max(0, out.width - len(head) - 2)
            out.print(Text(head + ("  title" if room else ""), style="dim"))
            for row in mine:
                title = (row.title or "") + ("" if row.status == "current" else f" ({row.status})")
                if len(row.key) > keys:
                    out.print(Text(row.key))  # whole, as the terminal wraps it: the key people copy
                shown = row.key if len(row.key) <= keys else ""
                line = f"{shown:<{keys}}  {row.chunks:>6}" + (f"  {row.pages or '':>5}" if paged else "")
                cut = title if len(title) <= room else title[:max(0, room - 1)] + "…"
                out.print(Text(line + (f"  {cut}" if room and cut else "")))

    respond({"documents": [row.model_dump() for row in rows]}, show)


@command(app, "outline", example="clew outline guide.md --db docs.duckdb")
def outline_command(key: Annotated[str, typer.Argument(help="Document key (or the title of one document).")],
                    db: DbOption = None,
                    collection: CollectionOption = None, as_json: JsonOption = False) -> None:
    """Show a document's section tree with passage counts (no such document: exit status 1)."""
    with Corpus(database(db), read_only=True) as corpus:
        scope = Scope(corpus, collection=resolve_collection(corpus, collection))
        tree, near = outline_or_keys_meant(scope, key)
    if tree is None:
        hint = f"did you mean {' or '.join(near)}?" if near else "clew ls lists the keys"
        raise fail(f"no current document with key {key!r} ({hint})", code=1)

    def show() -> None:
        root = Tree(_label(tree))

        def add(parent: Tree, node: OutlineNode) -> None:
            for child in node.children:
                add(parent.add(_label(child)), child)

        add(root, tree)
        print_wrapped(out, root)

    respond(tree, show)


def _label(node: OutlineNode) -> Text:
    return Text(node.heading or f"({node.kind})") + Text(
        f"  {node.kind}, {plural(node.passages, 'passage')}, {plural(node.tokens, 'token')}, {node.id}", style="dim")


@command(app, "rm", example="clew rm old/guide.md --db docs.duckdb")
def rm_command(keys: Annotated[list[str], typer.Argument(help="Document keys to retire.")], db: DbOption = None,
               collection: CollectionOption = None, as_json: JsonOption = False) -> None:
    """Retire documents: no longer searched or navigated; their evidence ids still resolve (superseded).
    A key not found: exit status 1 (the others are retired)."""
    with Corpus(database(db)) as corpus:
        scope = Scope(corpus, collection=resolve_collection(corpus, collection, otherwise="default"))
        report = remove_documents(corpus, scope, keys)
        meant = {key: keys_meant(scope, key) for key in report.missing}

    def show() -> None:
        say_compacted(report.file_compacted)
        for key in report.removed:
            out.print(Text(f"retired {key}"))
        for key in report.missing:
            near = meant[key]
            hint = f" (did you mean {' or '.join(near)}?)" if near else ""
            out.print(Text("not found ", style="yellow") + Text(key + hint))

    respond(report, show, status="unavailable" if report.missing else "ok")
