"""Human output of a retrieval result: the answer, why the run stopped, the evidence (the walk with --steps)."""

from __future__ import annotations

import math

from rich.console import Console
from rich.text import Text
from rich.tree import Tree

from clew.agent.brief import absent_line
from clew.agent.result import EvidenceHit, RetrievalResult, answer_label
from clew.commands.common import plural, print_wrapped
from clew.commands.show import place


def walk_tree(result: RetrievalResult) -> Tree:
    """Visited passages under the passage they were reached from (seeds at the top); a passage
    reached by opening a section hangs under the passage whose section it was."""
    root = Tree("[bold]walk[/bold]")
    nodes: dict[str, Tree] = {}
    came_from = {s.chosen[0]: s.tree_navigation.branched_from for s in result.steps or []
                 if s.state == "visit" and s.chosen and s.tree_navigation is not None}
    for hit in result.hits:
        label = Text(f"{hit.evidence_id}  ") + Text(hit.document_key, style="cyan") + Text(
            f" › {' › '.join(hit.heading_path[-2:])}  ") + Text(
            f"{hit.via}{'' if hit.depth is None else f', depth {hit.depth}'}"
            f"{'' if hit.step is None else f', step {hit.step}'}"
            f"{'' if hit.tokens is None else ', ' + plural(hit.tokens, 'token')}", style="dim")
        origin, seen = hit.origin, set()
        while origin is not None and origin not in nodes and origin not in seen:  # up through opened nodes
            seen.add(origin)
            origin = came_from.get(origin)
        parent = nodes.get(origin) if origin else None
        nodes[hit.evidence_id] = (parent or root).add(label)
    return root


FLAGS = {"context_budget_tokens": "--context-tokens", "max_tool_calls": "--max-tool-calls",
         "max_internal_iterations": "--max-iterations", "timeout_seconds": "--timeout", "max_steps": "--max-steps",
         "beam_width": "--beam-width"}
"""How ``clew ask`` spells the request fields a stop line names."""
MAX_LINES = 30
"""Rows the default ``clew ask`` output fits in (80 columns: 30 lines)."""
MAX_ANSWER_LINES = 18
"""Rows of the answer ``clew ask`` prints (a longer one says how much was left: --json, --steps)."""
MAX_EVIDENCE_LINES = 12
"""Evidence passages ``clew ask`` lists, one line each (the cited ones first), within what the
answer leaves of ``MAX_LINES``; --json shows all."""


def evidence_line(hit: EvidenceHit, width: int) -> Text:
    """One passage in ``width`` columns: id, document, the last two headings of its path and its
    pages. Where that is too long the first of the two headings goes (``key › … › heading``,
    ``place``), so that the pages still show; what is still too long is cut with an ellipsis."""
    span = hit.location.page_span() if hit.location is not None else ""
    where = f"  {span}" if span else ""
    head = f"{hit.evidence_id}  "
    path = place(hit.document_key, hit.heading_path[-2:], width - len(head) - len(where))
    line = Text(head) + Text(hit.document_key, style="cyan") + Text(path[len(hit.document_key):] + where)
    line.truncate(width, overflow="ellipsis")
    return line


def rows(line: str, width: int) -> int:
    """Terminal rows ``line`` takes at ``width`` columns."""
    return max(1, math.ceil(len(line) / width))


def answer_lines(answer: str, width: int, room: int) -> list[str]:
    """The answer's lines that fit ``room`` terminal rows; a longer answer ends with a line saying
    how much was left out (``--json`` has it all)."""
    lines = answer.splitlines()
    if sum(rows(line, width) for line in lines) <= room:
        return lines
    kept: list[str] = []
    used = 1
    for line in lines:
        if used + rows(line, width) > room:
            break
        kept.append(line)
        used += rows(line, width)
    return [*kept, f"… {len(lines) - len(kept)} more line(s) of the answer (--json shows it all)"]


def print_result(console: Console, result: RetrievalResult, *, steps: bool = False) -> None:
    """The answer first, then one line on why the run stopped, then the evidence (``steps``: the walk too).

    Without ``steps`` the whole fits ``MAX_LINES`` rows of the console: the answer takes up to
    ``MAX_ANSWER_LINES``, the evidence (one line per passage, the cited first) what is left."""
    colour = {"ok": "green", "incomplete": "yellow", "failed": "red"}[result.status]
    gen = result.generation
    width = max(20, console.width)
    stop = result.stop_line(FLAGS)
    notes = [f"instruction ({i.source}): {i.text}" for i in result.instructions]
    used = sum(rows(line, width) for line in (stop, *notes))
    if gen is not None:
        label = answer_label(gen)
        shown = gen.answer.splitlines() if steps else answer_lines(gen.answer, width, MAX_ANSWER_LINES)
        if len(shown) == 1:  # a one-line answer sits beside its label
            shown = [f"{label}: {shown[0]}"]
            console.print(Text(f"{label}: ", style="bold") + Text(shown[0][len(label) + 2:]))
        else:
            shown = [f"{label}:", *shown]
            console.print(Text(shown[0], style="bold"))
            console.print(Text("\n".join(shown[1:])))
        for removed in gen.removed_citations:
            console.print(Text("removed citation ", style="yellow") + Text(f"{removed.evidence_id}: {removed.reason}"))
        if (absent := absent_line(gen)) is not None:
            console.print(Text(absent, style="yellow"))
            used += rows(absent, width)
        used += len(gen.removed_citations) + sum(rows(line, width) for line in shown)
    console.print(Text(stop, style=colour))
    for note in notes:
        console.print(Text(note, style="dim"))
    if steps and result.steps is not None:
        print_wrapped(console, walk_tree(result))
        u = result.usage
        console.print(Text(f"{plural(u.iterations, 'iteration')}, {plural(u.tool_calls, 'tool call')}, "
                           f"{plural(u.context_tokens, 'context token')}, {plural(u.model_calls, 'model call')}",
                           style="dim"))
        return
    cited = {c.evidence_id for c in gen.citations} if gen is not None else set()
    room = max(1, min(MAX_EVIDENCE_LINES, MAX_LINES - used - 1))
    listed = sorted(result.hits, key=lambda h: h.evidence_id not in cited)[:room]  # stable: walk order
    if listed:
        seed = result.applied.get("seed_mode")  # BM25 unless the collection's vectors seeded the walk
        console.print(Text(f"evidence ({plural(len(result.hits), 'passage')}" + (
            f", seeded by {seed} search" if seed in ("hybrid", "vector") else "") + (
            f", {len(listed)} shown; --json lists all" if len(listed) < len(result.hits) else "") + "):",
            style="bold"))
    for hit in listed:
        console.print(evidence_line(hit, width))
