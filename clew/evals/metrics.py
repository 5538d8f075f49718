"""Per-question metrics and their aggregation. Pure functions over plain values.

Retrieval: ``evidence_found`` (each gold phrase, normalised substring of a returned passage),
``recall_at_k``, ``reciprocal_rank`` and ``ndcg_at_k`` (over a ranked list of document keys
against qrels; gain = relevance grade, discount = log2(rank + 1)).
Answers: ``exact_match`` and ``token_f1`` with the SQuAD normalisation (lowercase, drop punctuation
and the articles a/an/the, collapse whitespace), and ``answer_found`` (a gold answer inside the
prediction, as whole words: ``answer_words``), best over the gold answers.
Distribution: ``percentile`` interpolates linearly between closest ranks (numpy's default).
"""

from __future__ import annotations

import math
import re
import string
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from clew.evals.matching import matches, normalize

_CITATION = re.compile(r"\s*\[ev1:[^\[\]\s]*\]")


def without_citations(answer: str) -> str:
    """An answer's text with its ``[ev1:...]`` citations taken out (what is scored)."""
    return _CITATION.sub("", answer)


def evidence_found(phrases: Sequence[str], texts: Iterable[str]) -> list[bool]:
    """For each gold phrase, whether it occurs in one of ``texts`` (the dev set's matching rule)."""
    normalized = [normalize(t) for t in texts]
    return [any(matches(phrase, text) for text in normalized) for phrase in phrases]


def recall(found: Sequence[bool]) -> float | None:
    return sum(found) / len(found) if found else None


def dedupe(keys: Iterable[str]) -> list[str]:
    """Keys in first-seen order (a ranked list of passages to a ranked list of documents)."""
    return list(dict.fromkeys(keys))


def recall_at_k(ranked: Sequence[str], relevant: Iterable[str], k: int) -> float | None:
    gold = set(relevant)
    if not gold:
        return None
    return len(gold & set(ranked[:k])) / len(gold)


def reciprocal_rank(ranked: Sequence[str], relevant: Iterable[str]) -> float:
    gold = set(relevant)
    for rank, key in enumerate(ranked, start=1):
        if key in gold:
            return 1.0 / rank
    return 0.0


def ndcg_at_k(ranked: Sequence[str], qrels: dict[str, int], k: int = 10) -> float | None:
    ideal = sorted((g for g in qrels.values() if g > 0), reverse=True)[:k]
    if not ideal:
        return None
    dcg = sum(qrels.get(key, 0) / math.log2(rank + 1) for rank, key in enumerate(ranked[:k], start=1))
    idcg = sum(g / math.log2(rank + 1) for rank, g in enumerate(ideal, start=1))
    return dcg / idcg


_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = str.maketrans("", "", string.punctuation)


def squad_normalize(text: str) -> str:
    return " ".join(_ARTICLES.sub(" ", text.lower().translate(_PUNCT)).split())


_RANGE = re.compile(r"\bbetween (\d[\d.,]*) and (?=\d)|(?<=\d)[-\u2013](?=\d)")
_JOINED = re.compile(r"(?<=\d)[.,](?=\d)|['-]")
_SEPARATORS = str.maketrans({c: " " for c in string.punctuation if c not in "_'-"})


def answer_words(text: str) -> str:
    """The SQuAD normalisation with identifiers kept as a reader reads them: ``_`` is part of a word and
    other punctuation parts words ('functools.cmp_to_key(func)' -> 'functools cmp_to_key func', where
    SQuAD's 'functoolscmptokeyfunc' holds no word 'cmptokey'), except inside a number ('3.5',
    '4,294,950,911') and a word's apostrophe or hyphen ("don't", 'built-in'), which are dropped as SQuAD
    drops them. A number range reads one way: 'between 3 and 11', '3-11' and '3\u201311' are '3 to 11'."""
    text = _RANGE.sub(lambda m: f"{m.group(1) or ''} to ", text.lower())
    text = _JOINED.sub("", text).translate(_SEPARATORS)
    return " ".join(_ARTICLES.sub(" ", text).split())


def exact_match(prediction: str, answers: Sequence[str]) -> float | None:
    if not answers:
        return None
    return float(any(squad_normalize(prediction) == squad_normalize(a) for a in answers))


def _f1(prediction: str, answer: str) -> float:
    pred, gold = squad_normalize(prediction).split(), squad_normalize(answer).split()
    common = sum((Counter(pred) & Counter(gold)).values())
    if not pred or not gold:
        return float(pred == gold)
    if common == 0:
        return 0.0
    precision, rec = common / len(pred), common / len(gold)
    return 2 * precision * rec / (precision + rec)


_LIST = re.compile(r"\s*(?<!\d),\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+")
LIST_GAP_WORDS = 8
"""Most words a list answer's items may have between them in the text (a bullet's short gloss)."""
LIST_ITEM_WORDS = 2
"""Most words in one item of a list answer (a name, a term); a longer clause makes a sentence, matched whole."""


def _pattern(gold: str) -> re.Pattern[str] | None:
    """A gold answer as whole words; a list of three or more ('A, B, C and D') as its items in that order,
    each item whole and of ``LIST_ITEM_WORDS`` words at most, at most ``LIST_GAP_WORDS`` words apart (a
    bulleted list, with or without glosses)."""
    parts = [answer_words(item) for item in _LIST.split(gold)] if re.search(r"(?<!\d),", gold) else []
    if len(parts) >= 3 and all(parts) and all(len(part.split()) <= LIST_ITEM_WORDS for part in parts):
        gap = f"(?: \\S+){{0,{LIST_GAP_WORDS}}} "
        return re.compile(" " + gap.join(map(re.escape, parts)) + " ")
    words = answer_words(gold)
    return re.compile(re.escape(f" {words} ")) if words else None


def answer_found(prediction: str, answers: Sequence[str]) -> float | None:
    """1.0 when a gold answer occurs in the prediction as whole words, both through ``answer_words``:
    'cmp_to_key' is in 'functools.cmp_to_key(func)', 'key' is not, nor '5' in '3.5'; a list answer
    ('INT, INTEGER, REAL and ANY') is found as its items in order, a few words apart at most."""
    if not answers:
        return None
    text = f" {answer_words(prediction)} "
    return float(any(p.search(text) for p in map(_pattern, answers) if p))


def token_f1(prediction: str, answers: Sequence[str]) -> float | None:
    if not answers:
        return None
    return max(_f1(prediction, a) for a in answers)


def citation_precision(cited: Sequence[str], supporting: Iterable[str]) -> float | None:
    """Share of cited evidence ids that are supporting (hold gold evidence); None without citations."""
    if not cited:
        return None
    good = set(supporting)
    return sum(c in good for c in cited) / len(cited)


def percentile(values: Sequence[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    position = (len(ordered) - 1) * p / 100
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def mean(values: Iterable[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return sum(present) / len(present) if present else None


def aggregate(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Aggregate result rows of one system (see ``clew.evals.runner`` for the row fields).

    Evidence recall pools phrases (found phrases / all phrases); rates are shares of
    questions; a failed question (``status == "error"``) counts as finding nothing.
    """
    found = [f for row in rows for f in row.get("evidence_found", [])]
    incomplete = [row for row in rows if row["status"] != "ok"]
    reasons = Counter(row.get("stop_reason") or row["status"] for row in incomplete)
    tokens = [row["context_tokens"] for row in rows if row["status"] != "error"]
    latency = [row["latency_s"] for row in rows if row["status"] != "error"]
    costs = [row["model_cost_usd"] for row in rows if row.get("model_cost_usd") is not None]
    out: dict[str, Any] = {
        "questions": len(rows),
        "evidence_recall": recall(found),
        "all_evidence_rate": mean(
            float(all(row["evidence_found"])) if row.get("evidence_found") else None for row in rows
        ),
        "recall_at_10": mean(row.get("recall_at_10") for row in rows),
        "mrr": mean(row.get("mrr") for row in rows),
        "ndcg_at_10": mean(row.get("ndcg_at_10") for row in rows),
        "exact_match": mean(row.get("exact_match") for row in rows),
        "f1": mean(row.get("f1") for row in rows),
        "citation_precision": mean(row.get("citation_precision") for row in rows),
        # the answer (the extract without a model) against the evidence the passages hold
        "answer_retention": recall([f for row in rows for f in row.get("answer_phrases") or []]),
        "answer_containment": mean(row.get("answer_contained") for row in rows),
        "p50_answer_tokens": percentile([row["answer_tokens"] for row in rows if row.get("answer_tokens") is not None],
                                        50),
        "mean_context_tokens": mean(tokens),
        "p50_context_tokens": percentile(tokens, 50),
        "p95_context_tokens": percentile(tokens, 95),
        "mean_tool_calls": mean(row.get("tool_calls") for row in rows),
        "mean_iterations": mean(row.get("iterations") for row in rows),
        "p50_latency_s": percentile(latency, 50),
        "p95_latency_s": percentile(latency, 95),
        "model_input_tokens": sum(row.get("model_input_tokens") or 0 for row in rows),
        "model_output_tokens": sum(row.get("model_output_tokens") or 0 for row in rows),
        "model_cost_usd": sum(costs) if costs else None,
        "incomplete_rate": len(incomplete) / len(rows) if rows else None,
        "incomplete_reasons": dict(sorted(reasons.items())),
        "failed": sum(row["status"] == "error" for row in rows),
    }
    return out
