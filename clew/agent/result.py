"""What a run returns, and the step records it streams."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field, PrivateAttr

from clew.budgets.bounds import bounds
from clew.budgets.limits import Limits
from clew.corpus.location import Location
from clew.corpus.search.index import document_title

if TYPE_CHECKING:
    from clew.corpus.reader import Passage

Status = Literal["ok", "incomplete", "failed"]
StopReason = Literal[
    "answered",
    "exhausted_frontier",
    "max_internal_iterations",
    "max_tool_calls",
    "context_budget",
    "no_evidence",
    "model_error",
    "store_error",
    "permission_denied",
    "max_steps",
    "timeout",
]
StepActor = Literal["ranked", "model", "controller", "request"]
Trust = Literal["untrusted"]


def _absent(value: object) -> bool:
    return value is None or value == {}


def _empty(value: object) -> bool:
    return not value


class EvidenceHit(BaseModel):
    """A passage the run visited or fetched. Document text is always untrusted data.

    By default a hit is the evidence itself; how the walk reached it (``via``, ``depth``,
    ``step``, ``origin``, ``tokens``) comes with ``include_steps``, like the steps.
    """

    evidence_id: str
    document_key: str
    collection: str
    heading_path: list[str]
    kind: Literal["text", "table"] = Field("text", exclude_if=lambda kind: kind == "text",
                                           description="table: rows of a table under their header (absent: text).")
    text: str
    score: float | None = Field(None, exclude_if=_absent)
    location: Location | None = Field(None, exclude_if=_absent,
                                      description="Character offsets and, for paged formats, page numbers.")
    fetched: bool = Field(True, exclude_if=lambda fetched: fetched, description="Fetched in full, so it may be "
                          "cited (absent: true); false for a passage a free run's tool only showed.")
    trust: Trust = "untrusted"
    fields: dict[str, Any] = Field(default_factory=dict, exclude_if=_absent,
                                   description="Document fields named by the query's projection.")
    via: str | None = Field(None, exclude_if=_absent, description="How it was reached: seed, children, links, a "
                            "tool's name, ... (include_steps)")
    depth: int | None = Field(None, exclude_if=_absent, description="Tree depth it was taken at (include_steps).")
    step: int | None = Field(None, exclude_if=_absent, description="Graph move it was taken at (include_steps).")
    origin: str | None = Field(None, exclude_if=_absent, description="The evidence id it was reached from "
                               "(include_steps).")
    tokens: int | None = Field(None, exclude_if=_absent, description="Its tokens, as charged (include_steps).")
    _title: str | None = PrivateAttr(None)  # its document's title (not returned)

    @property
    def document_title(self) -> str | None:
        """Its document's title (``title`` field) when it has one, not returned: ``benchmarks/extract.py --dump``
        writes it, for a rule on the page a question names (task X28)."""
        return self._title

    @classmethod
    def of(cls, passage: Passage, *, via: str, fetched: bool, tokens: int, fields: list[str] | None,
           score: float | None = None, depth: int | None = None, step: int | None = None,
           origin: str | None = None) -> EvidenceHit:
        """The one conversion from an in-process passage to what a run returns."""
        hit = cls(
            evidence_id=passage.evidence_id, document_key=passage.document_key, collection=passage.collection,
            heading_path=list(passage.heading_path), kind="table" if passage.kind == "table" else "text",
            text=passage.text,
            score=None if score is None else round(score, 3), depth=depth, step=step, via=via, origin=origin,
            fetched=fetched, tokens=tokens, location=Location.of(passage),
            fields={name: passage.fields[name] for name in fields or () if name in passage.fields},
        )
        hit._title = document_title(passage.fields)
        return hit

    def lean(self) -> EvidenceHit:
        """The hit without the walk's record of it (what a result carries unless include_steps)."""
        return self.model_copy(update={"via": None, "depth": None, "step": None, "origin": None, "tokens": None})


class Instruction(BaseModel):
    text: str
    source: str = Field(description="'request' or the document key whose instruction_field it came from.")
    origin: Literal["request", "document"] = Field(
        "document", description="Where it came from: the request, or a visited document (then source is its key).")


class Citation(BaseModel):
    evidence_id: str
    valid: bool
    reason: str | None = Field(None, exclude_if=_absent, description="Why it is not valid (absent: it is).")
    page_numbers: list[int] = Field(default_factory=list, exclude_if=_empty, description="The cited passage's "
                                    "pages, where its format has them (absent: it has none).")


class Generation(BaseModel):
    kind: Literal["extract", "model"] = Field(
        description="'extract': sentences quoted from the evidence (no model); 'model': a model's answer.")
    answer: str
    citations: list[Citation]
    model: str | None = Field(None, exclude_if=_absent, description="The model that wrote the answer (absent: "
                              "the extractive answer, no model).")
    removed_citations: list[Citation] = Field(default_factory=list, exclude_if=_empty,
                                              description="Citations taken out of a model's answer (absent: none).")
    unsupported: list[str] = Field(default_factory=list, exclude_if=_empty, description="Sentences of a model's "
                                   "answer dropped: they cited no evidence fetched in full, or their cited evidence "
                                   "lacks their terms (absent: none).")
    repetition_cut: bool = Field(False, exclude_if=lambda cut: not cut,
                                 description="A model's answer repeated itself and was cut there (absent: false).")
    fallback: str | None = Field(None, exclude_if=_absent, description="Set when the extract stands in for a "
                                 "model's answer that cited no evidence fetched in full (kind is then 'extract'), "
                                 "saying why.")
    absent_terms: list[str] = Field(default_factory=list, exclude_if=_empty, description="Words of the question, "
                                    "as written, that neither the evidence nor any passage the caller may read "
                                    "holds (stemmed as the search matches): the evidence cannot speak to them. "
                                    "Information, not a stop: the answer is still given (absent: none).")


def answer_label(generation: Generation) -> str:
    """What a person or a model is told the answer is: a model's, or quoted from the evidence."""
    if generation.kind == "model":
        return "answer"
    if generation.fallback is not None:
        return "extract (quoted from the evidence: the model's answer cited none of it)"
    return "extract (quoted from the evidence, no model)"


class TreeNavigation(BaseModel):
    """A move in the tree: the depth it reached and the node it branched from."""

    depth: int
    branched_from: str | None = Field(
        None, description="The node or passage whose children offered it (None: a start)."
    )


class GraphNavigation(BaseModel):
    """A move along a graph: which move of the walk it was (0: the start)."""

    step: int
    relationship: str | None = Field(None, description="graph:type of the edge followed (None: the start).")


class FloorSwap(BaseModel):
    """The walk's floor at its end (``clew.agent.floor``): a hit of the seed search's flat pack that the
    walk lacked took the room of the walk's lowest-worth takes."""

    taken: str = Field(description="The seed hit taken in (its evidence id; its hit says via: floor).")
    rank: int = Field(description="Its rank in the seed search (1: the best).")
    worth: float = Field(description="Its worth on the walk's scale (the score its hit carries).")
    displaced: list[str] = Field(default_factory=list, description="The takes it replaced, lowest worth first "
                                 "(empty: it fitted the room left).")


class Step(BaseModel):
    """One state transition: what was offered, chosen and spent."""

    index: int
    state: str
    next_state: str
    offered: list[str] = Field(default_factory=list)
    chosen: list[str] = Field(default_factory=list)
    chosen_by: StepActor | None = None
    tool: str | None = None
    detail: str | None = None
    refused: bool = False
    tool_calls: int = 0
    context_tokens: int = 0
    iterations: int = 0
    tree_navigation: TreeNavigation | None = None
    graph_navigation: GraphNavigation | None = None
    parsed_from: Literal["text"] | None = Field(None, description="'text' when the model wrote its tool call "
                                                "as JSON in its reply instead of a structured call.")
    floor: list[FloorSwap] = Field(default_factory=list, exclude_if=_empty, description="The swaps the walk's "
                                   "floor made when the walk ended, one per seed hit taken in (absent: none).")


class StepSummary(BaseModel):
    """What the walk did, in a few numbers (every step: ``include_steps``, or the stream)."""

    steps: int = Field(description="State transitions the run made.")
    tool_calls: dict[str, int] = Field(default_factory=dict, description="Tool calls by tool.")
    depth_reached: int | None = Field(None, description="The deepest tree depth or graph move visited.")
    candidates_left: int = Field(0, description="Candidates the walk had found and not taken when it stopped.")


class UsageReport(BaseModel):
    iterations: int
    tool_calls: int
    context_tokens: int
    model_calls: int = Field(0, exclude_if=_empty, description="Model calls made (absent: none).")
    model_input_tokens: int = Field(0, exclude_if=_empty, description="absent: 0")
    model_output_tokens: int = Field(0, exclude_if=_empty, description="absent: 0")
    model_cost_usd: float | None = Field(None, exclude_if=_absent, description="What litellm priced the model "
                                         "calls at (absent: no model called, or no price known).")
    retries: int = Field(0, exclude_if=_empty, description="Model or store retries (absent: none).")


StopKey = tuple[Status, StopReason]
STOPS: dict[StopKey, tuple[str, str]] = {
    # (status, stop_reason): (what it means for the caller, what to change to get more)
    ("ok", "exhausted_frontier"): (
        "The walk took every candidate it found that fit; nothing it could reach was left.",
        "Nothing is left to walk: ask differently, or widen the walk (beam_width, max_depth, a hybrid seed)."),
    ("ok", "answered"): (
        "A free run's model said it was done, and its answer cites evidence fetched in full.",
        "Nothing: the model chose to stop."),
    ("ok", "max_steps"): (
        "A graph walk made its max_steps moves.",
        "Raise max_steps (up to 20)."),
    ("incomplete", "context_budget"): (
        "The evidence filled the context budget while candidates were left (summary.candidates_left counts them; "
        "the detail says what did not fit). "
        "The evidence so far is returned.",
        "Raise context_budget_tokens."),
    ("incomplete", "max_tool_calls"): (
        "The tool calls ran out while the context had room: nodes were left unopened or links unfollowed.",
        "Raise max_tool_calls (20 at most); at 20, a narrower walk spends fewer (beam_width, follow_links false)."),
    ("incomplete", "max_internal_iterations"): (
        "The walk used all its iterations (a model turn each in an agentic walk or a free run; a passage taken or "
        "a node opened in a ranked walk).",
        "Raise max_internal_iterations (100 at most); a ranked walk that sets none gets one per 20 tokens of "
        "context_budget_tokens (at least 100), so a larger budget raises it."),
    ("incomplete", "timeout"): (
        "The run took longer than timeout_seconds; the evidence so far is returned.",
        "Raise timeout_seconds, or use a faster model."),
    ("incomplete", "no_evidence"): (
        "Nothing readable matched: the seed search found nothing the caller may read, the start named no "
        "readable document, or a model's answer cited no evidence fetched in full.",
        "Check the query, the collection, filters and permissions, and start_key."),
    ("failed", "model_error"): (
        "The model failed after its retries (configuration, network, or a per-attempt timeout).",
        "Check the model settings (api_base, key, timeout), or run without a generator."),
    ("failed", "store_error"): (
        "The corpus could not be read.",
        "Check the database file: its path, the disk, another process writing it."),
    ("failed", "permission_denied"): (
        "The caller may not make this walk (tree_search or graph_search permission).",
        "Use a principal with the walk's permission."),
}
"""Every (status, stop_reason) pair a run can end with; docs/concepts/stop-reasons.md shows this table."""


def stops_table() -> str:
    """``STOPS`` as a Markdown table (docs/concepts/stop-reasons.md shows it; a test keeps the two equal)."""
    rows = ["| status | stop_reason | what it means | to get more |", "| --- | --- | --- | --- |"]
    rows += [f"| {s} | {r} | {meaning} | {change} |" for (s, r), (meaning, change) in STOPS.items()]
    return "\n".join(rows)


class RetrievalResult(BaseModel):
    status: Status = Field(description="ok, incomplete (a budget ran out or nothing matched: the evidence so "
                           "far is returned) or failed.")
    stop_reason: StopReason = Field(description="Why the run ended; every (status, stop_reason) pair:\n"
                                    + "\n".join(f"{s} / {r}: {m} {c}" for (s, r), (m, c) in STOPS.items()))
    detail: str | None = None
    hits: list[EvidenceHit]
    generation: Generation | None
    instructions: list[Instruction]
    summary: StepSummary
    steps: list[Step] | None = Field(None, exclude_if=_absent, description="Every step, when the request set "
                                     "include_steps (the stream always sends them).")
    usage: UsageReport
    applied: dict[str, Any]

    def stop_line(self, names: Mapping[str, str] | None = None) -> str:
        """One line on why the run stopped and what raises it. ``names`` spells request fields the
        way a surface does (the CLI: ``{"context_budget_tokens": "--context-tokens"}``)."""
        def name(field: str) -> str:
            return (names or {}).get(field, field)

        a, u, left = self.applied, self.usage, self.summary.candidates_left
        cap = bounds(Limits)["max_internal_iterations"].high  # a ranked walk on small passages can reach it
        budget = a.get("context_budget_tokens", 0)
        said = {
            "context_budget": f"context budget full ({u.context_tokens:,} of {budget:,} tokens), {left:,} candidate"
                              f"{'' if left == 1 else 's'} left; {name('context_budget_tokens')} raises it",
            "max_tool_calls": f"tool calls ran out ({u.tool_calls} of {a.get('max_tool_calls')}) with "
                              f"{u.context_tokens:,} of {budget:,} context tokens used; " + (
                                  f"{name('max_tool_calls')} raises it" if a.get("max_tool_calls", 20) < 20 else
                                  f"20 is the cap: a narrower walk ({name('beam_width')}) spends fewer"),
            "max_internal_iterations": f"iterations ran out ({u.iterations} of {a.get('max_internal_iterations')})"
                                       f" with {u.context_tokens:,} of {budget:,} context tokens used; " + (
                                           f"{name('max_internal_iterations')} raises it"
                                           if a.get("max_internal_iterations", cap) < cap else f"{cap} is the cap"
                                           if a.get("max_internal_iterations", cap) == cap else
                                           f"a ranked walk's bound follows {name('context_budget_tokens')}"),
            "timeout": f"took longer than {a.get('timeout_seconds', 0):g} s; {name('timeout_seconds')} raises it",
            "exhausted_frontier": f"the walk took everything it found ({u.context_tokens:,} of {budget:,} tokens)",
            "max_steps": f"the graph walk made its {a.get('max_steps')} moves; {name('max_steps')} raises it",
            "answered": "the model finished",
        }
        return f"{self.status}: {said.get(self.stop_reason) or self.detail or self.stop_reason.replace('_', ' ')}"
