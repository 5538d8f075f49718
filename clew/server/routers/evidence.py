"""Evidence a client fetches and cites over REST: ``GET /v1/evidence/{id}`` and
``POST /v1/citations/check``.

REST keeps no session, so ``/v1/citations/check`` takes the ids the caller fetched in full
(``fetched``) and builds the ledger from them. Both are 403 for a key that may not use
``fetch_evidence`` / ``check_citations``.
"""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from clew.corpus.access import Principal
from clew.navigation.ledger import EvidenceLedger
from clew.navigation.models import CitationReport, EvidenceResult
from clew.server.routers.common import answer, context, permitted, principal_of, served
from clew.surface import surface

router = APIRouter(tags=["evidence"])


class CitationRequest(BaseModel):
    ids: list[str] = Field(description="Passage ids an answer cites; at most 50.")
    fetched: list[str] = Field(default_factory=list, description=(
        "Ids the caller's run fetched in full (GET /v1/evidence/{id}); only these can be cited."))
    collection: str | None = Field(None, description="Read only inside this collection.")


@router.get("/v1/evidence/{evidence_id}", response_model=EvidenceResult, summary="fetch_evidence")
async def evidence(request: Request, evidence_id: str, max_chars: int = 12000, collection: str | None = None,
                   principal: Principal = Depends(principal_of)) -> JSONResponse:
    """Read one passage in full (what a run does before it may cite it); 404 when it is unavailable."""
    permitted("fetch_evidence", principal)
    arguments = {"ids": [evidence_id], "max_chars": max_chars, **({"collection": collection} if collection else {})}
    return answer(await surface.acall("fetch_evidence", arguments, context(served(request), principal)))


@router.post("/v1/citations/check", response_model=CitationReport, summary="check_citations")
async def citations(
    request: Request, body: CitationRequest, principal: Principal = Depends(principal_of)
) -> JSONResponse:
    """Say which ids may be cited: readable here, and among the ids the caller fetched in full."""
    permitted("check_citations", principal)
    ledger = EvidenceLedger()
    for value in body.fetched:
        ledger.record(value, 0)
    arguments = {"ids": body.ids, **({"collection": body.collection} if body.collection else {})}
    return answer(await surface.acall("check_citations", arguments, context(served(request), principal, ledger=ledger)))
