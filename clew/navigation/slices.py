"""``fetch_slice``: a window of consecutive passages around a passage, or a document's first.

- a passage id (``ev1:c:...``): the ``window`` passages centred on it (shifted inwards at
  either end of the document);
- a section or table id (``ev1:s:...``): the window starting at the node's first passage;
- a document id (``ev1:d:...``), a document's key or the title of exactly one readable document (its
  current version, as ``read`` and ``grep`` take one: ``clew slice tcl/lsort.html``, task U9; ``clew
  slice 'Tags Overview'``, task S1): its first ``window`` passages.

``parent_id`` is the document version (``ev1:d:...``) the slice was cut from: what a
citation of the slice as a whole names. ``sliced`` is false when the document is a single
passage, ``covers_parent`` true when the returned passages are the whole document, in full.
``content_max_chars`` is a budget over all passages (the first that does not fit is cut, the
rest dropped, ``truncated`` set). window 1-64 and content_max_chars 1-50000 are clamped.
"""

from __future__ import annotations

from typing import Annotated

from clew.budgets.bounds import Clamp
from clew.corpus.reader import Scope
from clew.navigation.models import InCollection, NonBlank, SlicePassage, SliceResult
from clew.navigation.passages import fit, item, open_document


class SliceArgs(InCollection):
    id: NonBlank
    """A passage, section or document evidence id, or a document's key or unique title (its current version)."""
    window: Annotated[int, Clamp(1, 64)] = 3
    """Passages in the slice."""
    content_max_chars: Annotated[int, Clamp(1, 50_000)] = 18000
    """Character budget over the slice."""


def fetch_slice(scope: Scope, args: SliceArgs) -> SliceResult:
    """Fetch a window of consecutive passages centred on a passage, or a document's (or section's) first passages."""
    applied = args.clamped()
    window, max_chars = applied["window"], applied["content_max_chars"]
    opened = open_document(scope, args.id)
    if opened.doc is None:
        return SliceResult(status=opened.status, detail=opened.detail, applied=applied)
    doc, sk = opened.doc, opened.doc.skeleton
    total = len(sk.chunks)
    if opened.kind == "c":
        first = max(0, min(opened.ordinal - (window - 1) // 2, total - window))  # type: ignore[operator]
    elif opened.kind == "s":
        first = sk.nodes[opened.ordinal].first_chunk or 0  # type: ignore[index]
    else:
        first = 0
    ordinals = range(first, min(total, first + window))
    items, cut = fit((item(doc, o) for o in ordinals), max_chars)
    passages = [
        SlicePassage(evidence_id=one.evidence_id, index=o, total=total, breadcrumb=" > ".join(one.heading_path),
                     kind=one.kind, text=one.text, text_truncated=one.text_truncated, location=one.location)
        for o, one in zip(ordinals, items, strict=False)
    ]
    return SliceResult(
        status="ok" if passages else "no_match",
        parent_id=doc.evidence_id,
        document_key=doc.key,
        passages=passages,
        sliced=total > 1,
        covers_parent=not cut and len(passages) == total,
        version_status=doc.version_status,
        truncated=cut,
        detail=None if passages else "the document has no passages",
        applied=applied,
    )
