"""``make demo``: ingest the shipped runbooks into a fresh corpus and show what was recorded.

No key, no server: everything runs in this process on a DuckDB file in a temporary folder
(or ``--db FILE`` to keep it).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from rich.console import Console
from rich.tree import Tree

from clew.corpus.chunking import DEFAULT_CHUNK_TOKENS
from clew.corpus.edges import ingest_edges
from clew.corpus.ingest import ingest_paths
from clew.corpus.store import Corpus
from clew.demo import DEMO_CORPUS, DEMO_EDGES

console = Console(soft_wrap=True)


def show_structure(corpus: Corpus, key: str) -> None:
    cur = corpus.cursor()
    nodes = cur.execute(
        """SELECT n.ordinal, n.parent, n.kind, n.heading, n.first_chunk, n.last_chunk FROM nodes n
           JOIN documents d ON d.id = n.document_id AND n.version = d.current_version
           WHERE d.key = ? ORDER BY n.ordinal""",
        [key],
    ).fetchall()
    trees: dict[int, Tree] = {}
    for ordinal, parent, kind, heading, first, last in nodes:
        label = f"[bold]{heading or key}[/bold]" if kind != "table" else "[cyan]table[/cyan]"
        label += f"  [dim]chunks {first}-{last}[/dim]"
        trees[ordinal] = Tree(label) if parent is None else trees[parent].add(label)
    console.print(trees[0])


def run(db: Path) -> None:
    with Corpus(db) as corpus:
        report = ingest_paths(corpus, [DEMO_CORPUS], collection="runbooks", chunk_tokens=DEFAULT_CHUNK_TOKENS)
        edges = ingest_edges(corpus, DEMO_EDGES.read_text(), collection="runbooks")
        console.rule("ingested")
        console.print(
            f"{report.versions_created} documents, {report.chunks} chunks, links: {report.links_resolved} resolved, "
            f"{report.links_dangling} dangling; {edges.edges} workflow edges"
        )
        console.rule("structure of incident-response.md")
        show_structure(corpus, "incident-response.md")
        console.rule("a table chunk keeps its header")
        body = corpus.cursor().execute(
            "SELECT header, body FROM chunks c JOIN documents d ON d.id = c.document_id "
            "WHERE d.key = 'incident-response.md' AND c.kind = 'table' LIMIT 1"
        ).fetchone()
        console.print(body[1].strip(), markup=False)
        console.rule("links between runbooks")
        for src_key, dst_ref in corpus.cursor().execute(
            """SELECT d.key, e.dst_ref FROM edges e JOIN documents d ON e.src LIKE 'ev1:c:' || d.id || ':%'
               WHERE e.graph = 'links' ORDER BY d.key, e.dst_ref"""
        ).fetchall():
            console.print(f"{src_key} -> {dst_ref}")
        console.rule("stats")
        for row in corpus.stats():
            console.print(row)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m clew.demo")
    parser.add_argument("--db", type=Path, help="keep the demo corpus in this DuckDB file")
    args = parser.parse_args()
    if args.db:
        run(args.db)
        return
    with tempfile.TemporaryDirectory() as tmp:
        run(Path(tmp) / "demo.duckdb")


if __name__ == "__main__":
    main()
