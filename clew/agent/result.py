"""What a run returns, and the step records it streams."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

Status = Literal["ok", "incomplete", "failed"]
StopReason = Literal[
    "answered", "exhausted_frontier", "max_internal_iterations", "max_tool_calls", "context_budget",
    "no_evidence", "model_error", "store_error", "permission_denied", "max_steps", "max_depth",
]
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


class Instruction(BaseModel):
    text: str
    source: str = Field(description="'request' or the document key whose instruction_field it came from.")


class Citation(BaseModel):
    evidence_id: str
    valid: bool
    reason: str | None = None


class Generation(BaseModel):
    answer: str
    citations: list[Citation]
    model: str | None = Field(None, description="None for the extractive answer (no model).")
    removed_citations: list[Citation] = Field(default_factory=list)


class Step(BaseModel):
    """One state transition: what was offered, chosen and spent."""

    index: int
    state: str
    next_state: str
    offered: list[str] = Field(default_factory=list)
    chosen: list[str] = Field(default_factory=list)
    chosen_by: Literal["ranked", "model", "controller", "request"] | None = None
    tool: str | None = None
    detail: str | None = None
    refused: bool = False
    tool_calls: int = 0
    context_tokens: int = 0
    iterations: int = 0


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
