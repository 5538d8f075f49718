"""``make demo``: ingest the shipped runbooks, then answer three questions with the agent.

One by a ranked tree walk, one by a graph walk along the ``workflow`` graph, and one whose
tool-call budget runs out (``status: incomplete``, with what it found).

No key, no server: everything runs in this process on a DuckDB file in a temporary folder
(or ``--db FILE`` to keep it).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.tree import Tree

from clew.agent.api import retrieve_sync
from clew.commands.render import print_result
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.chunking import DEFAULT_CHUNK_TOKENS
from clew.corpus.ingest.edges import ingest_edges
from clew.corpus.store import Corpus
from clew.demo import DEMO_CORPUS, DEMO_EDGES

console = Console(soft_wrap=True, emoji=False)  # text prints as written (":smile:" too); width: the terminal's


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


QUESTIONS: list[tuple[str, dict[str, Any]]] = [
    ("ranked tree walk", {
        "query": "Who is paged for a SEV2 incident, and how fast must the first update go out?",
        "queries": [{"collection": "runbooks", "limit": 5}],
        "steps": {"retrieval": {"navigation": {
            "strategy": "tree", "selection": "ranked", "max_depth": 2, "beam_width": 3,
            "instruction_field": "agent_instructions"}}},
    }),
    ("graph walk along the workflow graph", {
        "query": "The primary database is down: which runbooks follow, and when should I roll back?",
        "queries": [{"collection": "runbooks", "limit": 5}],
        "steps": {"retrieval": {"navigation": {
            "strategy": "graph", "selection": "ranked", "index": "workflow", "edge_types": ["next"],
            "direction": "out", "max_steps": 3}}},
    }),
    ("a budget that runs out", {
        "query": "Everything about incidents, failover, replicas, deploys and rollbacks",
        "queries": [{"collection": "runbooks", "limit": 10}],
        "max_tool_calls": 3,
        "steps": {"retrieval": {"navigation": {"strategy": "tree", "selection": "ranked"}}},
    }),
]


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
        for title, request in QUESTIONS:
            console.rule(title)
            console.print(f"[bold]question:[/bold] {request['query']}")
            print_result(console, retrieve_sync(request, corpus=corpus))


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
