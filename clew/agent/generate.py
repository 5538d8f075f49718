"""Answers: extractive without a model, model answers with checked citations.

The extractive answer (the embedded default) never invents text: it quotes the sentences
of fetched evidence that share the most query terms, each followed by its citation. A model
answer's citations are checked: only ids fetched in full in this run (and still readable)
stay; the others are removed from the text and reported.
"""

from __future__ import annotations

import re

from clew.agent.result import Citation, Generation
from clew.corpus.search.tokenize import tokenize

CITATION = re.compile(r"\[(ev1:[csd]:\d+:\d+(?::\d+)?)\]")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9`\"'(])")
MAX_SENTENCES = 3


def extractive_answer(question: str, evidence: list[tuple[str, str]]) -> Generation | None:
    """Quote the best sentences of ``(evidence_id, text)`` pairs; None without evidence."""
    terms = set(tokenize(question))
    scored: list[tuple[float, int, str, str]] = []
    for order, (evidence_id, text) in enumerate(evidence):
        for sentence in _units(text):
            clean = " ".join(sentence.split()).strip("#- ")
            if len(clean) < 12:
                continue
            overlap = len(terms & set(tokenize(clean)))
            if overlap:
                scored.append((-overlap / (1 + len(clean) / 400), order, clean, evidence_id))
    if not scored:
        return None
    chosen = sorted(scored)[:MAX_SENTENCES]
    chosen.sort(key=lambda item: item[1])  # back in evidence order
    answer = " ".join(f"{sentence} [{evidence_id}]" for _, _, sentence, evidence_id in chosen)
    citations = list(dict.fromkeys(evidence_id for *_, evidence_id in chosen))
    return Generation(answer=answer, citations=[Citation(evidence_id=c, valid=True) for c in citations], model=None)


def _units(text: str) -> list[str]:
    """Sentences of prose (wrapped lines rejoined); each table row with the table's header row."""
    header: str | None = None
    units: list[str] = []
    paragraph: list[str] = []

    def flush() -> None:
        if paragraph:
            units.extend(_SENTENCE.split(" ".join(paragraph)))
            paragraph.clear()

    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("|"):
            flush()
            if header is None:
                header = stripped
            elif not stripped.startswith("| ---"):
                units.append(f"{header} {stripped}")
        elif not stripped or stripped.startswith(("#", "- ", "* ")) or stripped[:3].rstrip(".").isdigit():
            flush()
            if stripped and not stripped.startswith("#"):  # headings are context, not answers
                paragraph.append(stripped)
                flush()
        else:
            paragraph.append(stripped)
    flush()
    return units


def check_answer(answer: str, citable: set[str], model: str) -> Generation:
    """Keep the citations of evidence fetched in full; strip and report the rest."""
    kept: list[Citation] = []
    removed: list[Citation] = []
    seen: set[str] = set()
    for match in CITATION.finditer(answer):
        evidence_id = match.group(1)
        if evidence_id in seen:
            continue
        seen.add(evidence_id)
        if evidence_id in citable:
            kept.append(Citation(evidence_id=evidence_id, valid=True))
        else:
            removed.append(Citation(evidence_id=evidence_id, valid=False, reason="not fetched in full in this run"))
    bad = {c.evidence_id for c in removed}
    text = CITATION.sub(lambda m: "" if m.group(1) in bad else m.group(0), answer)
    return Generation(answer=" ".join(text.split()), citations=kept, model=model, removed_citations=removed)
