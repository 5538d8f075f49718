"""What a run returns, and the step records it streams."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field

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
    "max_depth",
    "model_stuck",
    "timeout",
]
StepActor = Literal["ranked", "model", "controller", "request"]
Trust = Literal["untrusted"]


class EvidenceHit(BaseModel):
    """A passage the run visited or fetched. Document text is always untrusted data."""

    evidence_id: str
    document_key: str
    collection: str
    heading_path: list[str]
    kind: str
    text: str
    score: float | None = None
    depth: int | None = None
    step: int | None = None
    via: str = Field(description="How it was reached: seed, children, next, link, tool name, ...")
    origin: str | None = Field(None, description="The evidence id it was reached from.")
    fetched: bool = Field(False, description="Fetched in full, so it may be cited.")
    trust: Trust = "untrusted"
    tokens: int = 0
    fields: dict[str, Any] = Field(default_factory=dict, description="Document fields named by the query's projection.")

    @classmethod
    def of(cls, passage: Passage, *, via: str, fetched: bool, tokens: int, fields: list[str] | None,
           score: float | None = None, depth: int | None = None, step: int | None = None,
           origin: str | None = None) -> EvidenceHit:
        """The one conversion from an in-process passage to what a run returns."""
        return cls(
            evidence_id=passage.evidence_id, document_key=passage.document_key, collection=passage.collection,
            heading_path=list(passage.heading_path), kind=passage.kind, text=passage.text, score=score, depth=depth,
            step=step, via=via, origin=origin, fetched=fetched, tokens=tokens,
            fields={name: passage.fields[name] for name in fields or () if name in passage.fields},
        )


class Instruction(BaseModel):
    text: str
    source: str = Field(description="'request' or the document key whose instruction_field it came from.")
    origin: Literal["request", "document"] = Field(
        "document", description="Where it came from: the request, or a visited document (then source is its key).")


class Citation(BaseModel):
    evidence_id: str
    valid: bool
    reason: str | None = None


class Generation(BaseModel):
    kind: Literal["extract", "model"] = Field(
        description="'extract': sentences quoted from the evidence (no model); 'model': a model's answer.")
    answer: str
    citations: list[Citation]
    model: str | None = Field(None, description="None for the extractive answer (no model).")
    removed_citations: list[Citation] = Field(default_factory=list)


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


class UsageReport(BaseModel):
    iterations: int
    tool_calls: int
    context_tokens: int
    model_calls: int
    model_input_tokens: int
    model_output_tokens: int
    model_cost_usd: float | None
    retries: int


class RetrievalResult(BaseModel):
    status: Status
    stop_reason: StopReason
    detail: str | None = None
    hits: list[EvidenceHit]
    generation: Generation | None
    instructions: list[Instruction]
    steps: list[Step]
    usage: UsageReport
    applied: dict[str, Any]
