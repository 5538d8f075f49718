"""Human output of a retrieval result: status, answer, citations and the walk as a tree."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text
from rich.tree import Tree

from clew.agent.result import RetrievalResult


def walk_tree(result: RetrievalResult) -> Tree:
    """Visited passages under the passage they were reached from (seeds at the top); a passage
    reached by opening a section hangs under the passage whose section it was."""
    root = Tree("[bold]walk[/bold]")
    nodes: dict[str, Tree] = {}
    came_from = {s.chosen[0]: s.tree_navigation.branched_from for s in result.steps
                 if s.state == "visit" and s.chosen and s.tree_navigation is not None}
    for hit in result.hits:
        label = Text(f"{hit.evidence_id}  ") + Text(hit.document_key, style="cyan") + Text(
            f" › {' › '.join(hit.heading_path[-2:])}  ") + Text(
            f"{hit.via}{'' if hit.depth is None else f', depth {hit.depth}'}"
            f"{'' if hit.step is None else f', step {hit.step}'}, {hit.tokens} tokens", style="dim")
        origin, seen = hit.origin, set()
        while origin is not None and origin not in nodes and origin not in seen:  # up through opened nodes
            seen.add(origin)
            origin = came_from.get(origin)
        parent = nodes.get(origin) if origin else None
        nodes[hit.evidence_id] = (parent or root).add(label)
    return root


def print_result(console: Console, result: RetrievalResult) -> None:
    colour = {"ok": "green", "incomplete": "yellow", "failed": "red"}[result.status]
    console.print(Text(f"status: {result.status}", style=colour) + Text(f"  stop: {result.stop_reason}"
                                                                        + (f"  ({result.detail})" if result.detail
                                                                           else "")))
    if result.generation is not None:
        label = "extract (quoted from the evidence, no model)" if result.generation.kind == "extract" else "answer"
        console.print(Text(f"{label}:\n" if "\n" in result.generation.answer else f"{label}: ", style="bold")
                      + Text(result.generation.answer))
        cited = ", ".join(c.evidence_id for c in result.generation.citations) or "none"
        console.print(Text("citations: ", style="bold") + Text(cited))
        for removed in result.generation.removed_citations:
            console.print(Text("removed citation ", style="yellow") + Text(f"{removed.evidence_id}: {removed.reason}"))
    for instruction in result.instructions:
        console.print(Text(f"instruction ({instruction.source}): {instruction.text}", style="dim"))
    console.print(walk_tree(result))
    u = result.usage
    console.print(Text(f"{u.iterations} iterations, {u.tool_calls} tool calls, {u.context_tokens} context tokens, "
                       f"{u.model_calls} model calls", style="dim"))
