"""Evidence that may be cited: ``fetch_evidence``, ``check_citations`` and the run's ledger.

Navigation and search output is not citable: it may be a preview, a cut, or a passage the
model never saw in full. A passage becomes citable in a run when ``fetch_evidence`` returns
it *in full* (within ``max_chars``), which records it in the run's :class:`EvidenceLedger`.
``check_citations`` then says, per id, whether it can be cited: it must be well formed, still
exist and be readable in the caller's scope, and have been fetched in full in this run.

Only passage ids (``ev1:c:...``) are evidence; a section or document id is ``malformed``
here (use ``fetch_slice`` to read those). A missing and a denied passage are both
``unavailable``. At most 50 ids per call (more is an input error naming ``ids``).
"""

from __future__ import annotations

from typing import Annotated

import duckdb
from pydantic import Field

from clew.budgets.bounds import Clamp
from clew.corpus import ids as evidence_ids
from clew.corpus.reader import Scope
from clew.corpus.structure import int_list
from clew.errors import CorpusError, MalformedEvidenceId
from clew.navigation.ledger import EvidenceLedger
from clew.navigation.models import (
    UNAVAILABLE,
    CitationReport,
    CitationVerdict,
    EvidenceEntry,
    EvidenceResult,
    InCollection,
    NonBlank,
    Status,
)
from clew.navigation.passages import PASSAGE_ONLY, fit, item

MAX_IDS = 50


class FetchArgs(InCollection):
    ids: list[NonBlank] = Field(min_length=1, max_length=MAX_IDS)
    """Passage ids (ev1:c:...) to read in full; at most 50."""
    max_chars: Annotated[int, Clamp(1, 50_000)] = 12000
    """Character budget over all passages."""


class CitationArgs(InCollection):
    ids: list[NonBlank] = Field(min_length=1, max_length=MAX_IDS)
    """Passage ids an answer cites; at most 50."""


Decoded = list[tuple[str, evidence_ids.EvidenceId | None, str | None]]
"""(id as given, its passage id or None, why not)."""


def _decode(values: list[str]) -> tuple[Decoded, list[tuple[int, int]]]:
    decoded: list[tuple[str, evidence_ids.EvidenceId | None, str | None]] = []
    for value in values:
        try:
            one = evidence_ids.decode(value)
        except MalformedEvidenceId as error:
            decoded.append((value, None, error.message))
            continue
        decoded.append((value, one, None) if one.kind == "c" else (value, None, PASSAGE_ONLY))
    return decoded, [(d.document, d.version) for _, d, _ in decoded if d is not None]


def fetch_evidence(scope: Scope, args: FetchArgs, ledger: EvidenceLedger | None = None) -> EvidenceResult:
    """Read passages in full and record them as fetched, so that they may be cited.

    A passage cut by max_chars is returned but not recorded; fetch it again on its own.
    """
    max_chars = args.clamped()["max_chars"]
    decoded, versions = _decode(args.ids)
    try:
        docs = scope.documents(versions)
    except duckdb.Error as error:
        detail = f"the corpus could not be read: {error}"
        return EvidenceResult(status="failed", applied={"max_chars": max_chars},
                              evidence=[EvidenceEntry(id=v, status="unavailable", detail=detail) for v in args.ids])
    removed = _removed(scope, {doc.document_id for doc in docs.values() if doc.superseded})
    entries: list[EvidenceEntry] = []
    left = max_chars
    for value, one, problem in decoded:
        if one is None:
            entries.append(EvidenceEntry(id=value, status="malformed", detail=problem))
            continue
        doc = docs.get((one.document, one.version))
        if doc is None or one.ordinal is None or one.ordinal >= len(doc.skeleton.chunks):
            entries.append(EvidenceEntry(id=value, status="unavailable", detail=UNAVAILABLE))
            continue
        full = item(doc, one.ordinal)
        kept, cut = fit([full], left)
        if cut:
            entries.append(EvidenceEntry(id=value, status="ok", item=kept[0] if kept else None, recorded=False,
                                         version_status="removed" if doc.document_id in removed
                                         else doc.version_status,
                                         detail=f"over max_chars ({max_chars}): not recorded; fetch it on its own"))
            left = 0
            continue
        left -= len(full.text)
        if ledger is not None:
            ledger.record(full.evidence_id, len(full.text))
        entries.append(EvidenceEntry(id=value, status="ok", item=full, recorded=ledger is not None,
                                     version_status="removed" if doc.document_id in removed
                                     else doc.version_status))
    statuses = {e.status for e in entries}
    status: Status = "ok" if "ok" in statuses else "unavailable" if "unavailable" in statuses else "malformed"
    return EvidenceResult(status=status, evidence=entries, applied={"max_chars": max_chars})


def _removed(scope: Scope, document_ids: set[int]) -> set[int]:
    """Those of ``document_ids`` that were retired: their current version has no row."""
    if not document_ids:
        return set()
    rows = scope.cursor().execute(
        f"""SELECT d.id FROM documents d LEFT JOIN document_versions v
                ON v.document_id = d.id AND v.version = d.current_version
            WHERE d.id IN ({int_list(sorted(document_ids))}) AND v.version IS NULL""").fetchall()
    return {int(row[0]) for row in rows}


def check_citations(scope: Scope, args: CitationArgs, ledger: EvidenceLedger) -> CitationReport:
    """Say which ids may be cited: fetched in full in this run, existing and readable."""
    decoded, versions = _decode(args.ids)
    try:
        docs = scope.documents(versions)
    except duckdb.Error as error:  # no verdict without the store: say so, do not guess
        raise CorpusError(f"the corpus could not be read: {error}") from error
    verdicts: list[CitationVerdict] = []
    for value, one, _ in decoded:
        if one is None:
            verdicts.append(CitationVerdict(id=value, citable=False, reason="malformed"))
            continue
        doc = docs.get((one.document, one.version))
        if doc is None or one.ordinal is None or one.ordinal >= len(doc.skeleton.chunks):
            verdicts.append(CitationVerdict(id=value, citable=False, reason="unavailable"))
        elif not ledger.fetched(str(one)):
            verdicts.append(CitationVerdict(id=value, citable=False, reason="not_fetched"))
        else:
            verdicts.append(CitationVerdict(id=value, citable=True, reason="ok"))
    citable = [str(v.id) for v in verdicts if v.citable]
    return CitationReport(all_citable=len(citable) == len(verdicts), citable=citable, verdicts=verdicts)
