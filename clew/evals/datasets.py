"""Evaluation datasets: clew's QA JSONL, multi-hop paragraph QA, and BEIR.

Every loader returns a :class:`Dataset`; a line (or item) that cannot become a question is a
:class:`LineProblem` with its 1-based line number, never silently dropped. ``load`` raises
:class:`DatasetError` listing every problem unless ``strict=False``.

- ``clew``: one JSON object per line: ``id, question, answers, evidence, sources, kind`` (the
  shared dev set's format). Gold = the evidence phrases (matched by ``clew.evals.matching``).
- ``multihop``: ``question / answer / paragraphs[title, paragraph_text, is_supporting]``, as a
  JSON array or one object per line. The corpus is built from the paragraphs, one document
  per title (distinct paragraphs in first-seen order, joined by blank lines); gold = the
  supporting paragraphs' texts (as evidence phrases) and titles (as sources).
- ``beir``: a folder with ``corpus.jsonl`` (``_id, title, text``), ``queries.jsonl``
  (``_id, text``) and ``qrels/*.tsv`` (``query-id, corpus-id, score`` with a header). Only
  queries with a positive qrel are questions; gold = the qrels (document keys).
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from clew.errors import DatasetError

Format = Literal["clew", "multihop", "beir"]
FORMATS: tuple[str, ...] = ("clew", "multihop", "beir")


@dataclass(frozen=True)
class Question:
    id: str
    question: str
    kind: str = "all"
    answers: tuple[str, ...] = ()
    evidence: tuple[str, ...] = ()
    """Gold phrases: found when one occurs in a returned passage (normalised substring)."""
    sources: tuple[str, ...] = ()
    qrels: dict[str, int] = field(default_factory=dict)
    """Graded relevance of document keys (BEIR); empty elsewhere."""

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "question": self.question, "kind": self.kind, "answers": list(self.answers),
                "evidence": list(self.evidence), "sources": list(self.sources), "qrels": dict(self.qrels)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Question:
        """The inverse of ``as_dict`` (how executors ship questions to other processes)."""
        return cls(id=data["id"], question=data["question"], kind=data["kind"], answers=tuple(data["answers"]),
                   evidence=tuple(data["evidence"]), sources=tuple(data["sources"]), qrels=dict(data["qrels"]))


@dataclass(frozen=True)
class LineProblem:
    path: str
    line: int
    """1-based line number (item number for a JSON array)."""
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


@dataclass
class Dataset:
    format: str
    questions: list[Question]
    problems: list[LineProblem] = field(default_factory=list)
    documents: list[dict[str, Any]] = field(default_factory=list)
    """Corpus documents built by the loader (``key, title, text``); empty for ``clew``."""

    def write_corpus(self, folder: Path) -> Path:
        """Write ``documents`` as ``folder/corpus.jsonl`` (what ``ingest_paths`` reads)."""
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "corpus.jsonl"
        with path.open("w", encoding="utf-8") as handle:
            for doc in self.documents:
                handle.write(json.dumps(doc, ensure_ascii=False) + "\n")
        return path


class _Bad(Exception):
    """Why one line cannot become a question (internal: becomes a LineProblem)."""


def _json_lines(path: Path, problems: list[LineProblem]) -> list[tuple[int, Any]]:
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rows.append((number, json.loads(line)))
        except json.JSONDecodeError as error:
            problems.append(LineProblem(str(path), number, f"not JSON: {error.msg}"))
    return rows


def _text(obj: dict[str, Any], name: str, *aliases: str) -> str:
    for key in (name, *aliases):
        value = obj.get(key)
        if value is not None:
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                value = str(value)
            if not isinstance(value, str) or not value.strip():
                raise _Bad(f"{key} must be a non-blank string, not {value!r}")
            return value
    raise _Bad(f"missing field {name!r}")


def _strings(obj: dict[str, Any], name: str, *, required: bool) -> tuple[str, ...]:
    value = obj.get(name)
    if value is None:
        if required:
            raise _Bad(f"missing field {name!r}")
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise _Bad(f"{name} must be a list of non-blank strings")
    if required and not value:
        raise _Bad(f"{name} is empty")
    return tuple(value)


def _unique(questions: list[tuple[int, Question]], path: Path, problems: list[LineProblem]) -> list[Question]:
    seen: dict[str, int] = {}
    kept = []
    for number, q in questions:
        if q.id in seen:
            problems.append(LineProblem(str(path), number, f"duplicate id {q.id!r} (first on line {seen[q.id]})"))
            continue
        seen[q.id] = number
        kept.append(q)
    return kept


ANSWER_NAMES = ("expected", "expected_answer", "answer", "ground_truth", "reference")
"""What harnesses name an expected answer; a line holding one of these without ``evidence`` is told
where each goes (task U20: a harness's ``{"id", "question", "expected"}``)."""


def load_clew(path: Path) -> Dataset:
    problems: list[LineProblem] = []
    parsed = []
    for number, obj in _json_lines(path, problems):
        try:
            if not isinstance(obj, dict):
                raise _Bad("not a JSON object")
            if "evidence" not in obj and (unread := next((k for k in ANSWER_NAMES if k in obj), None)):
                raise _Bad(f"missing field 'evidence' (the gold phrases a returned passage must hold); {unread!r} "
                           "is not read: expected answers go in 'answers', a list (clew batch answers questions "
                           "without gold)")
            parsed.append((number, Question(
                id=_text(obj, "id"), question=_text(obj, "question"), kind=obj.get("kind") or "all",
                answers=_strings(obj, "answers", required=False), evidence=_strings(obj, "evidence", required=True),
                sources=_strings(obj, "sources", required=False),
            )))
        except _Bad as error:
            problems.append(LineProblem(str(path), number, str(error)))
    return Dataset("clew", _unique(parsed, path, problems), problems)


def load_questions(path: Path) -> Dataset:
    """Questions without gold (``clew batch``): one ``{"id", "question"}`` object per line."""
    problems: list[LineProblem] = []
    parsed = []
    for number, obj in _json_lines(path, problems):
        try:
            if not isinstance(obj, dict):
                raise _Bad("not a JSON object")
            parsed.append((number, Question(id=_text(obj, "id"), question=_text(obj, "question"),
                                            kind=str(obj.get("kind") or "all"))))
        except _Bad as error:
            problems.append(LineProblem(str(path), number, str(error)))
    return Dataset("questions", _unique(parsed, path, problems), problems)


def load_multihop(path: Path) -> Dataset:
    problems: list[LineProblem] = []
    raw = path.read_text(encoding="utf-8")
    if raw.lstrip().startswith("["):
        try:
            items = list(enumerate(json.loads(raw), start=1))
        except json.JSONDecodeError as error:
            return Dataset("multihop", [], [LineProblem(str(path), error.lineno, f"not JSON: {error.msg}")])
    else:
        items = _json_lines(path, problems)
    documents: dict[str, list[str]] = {}
    parsed = []
    for number, obj in items:
        try:
            if not isinstance(obj, dict):
                raise _Bad("not a JSON object")
            qid = _text(obj, "id", "_id")
            paragraphs = obj.get("paragraphs")
            if not isinstance(paragraphs, list) or not paragraphs:
                raise _Bad("paragraphs must be a non-empty list")
            gold_text, gold_titles, found = [], [], []
            for position, p in enumerate(paragraphs, start=1):
                if not isinstance(p, dict):
                    raise _Bad(f"paragraph {position} is not an object")
                try:
                    title, text = _text(p, "title"), _text(p, "paragraph_text")
                except _Bad as error:
                    raise _Bad(f"paragraph {position}: {error}") from None
                found.append((title, text))
                if p.get("is_supporting") is True:
                    gold_text.append(text)
                    if title not in gold_titles:
                        gold_titles.append(title)
            if not gold_text:
                raise _Bad("no paragraph has is_supporting: true")
            answer = obj.get("answer")
            answers = [answer] if isinstance(answer, str) else []
            answers += [a for a in obj.get("answer_aliases") or [] if isinstance(a, str)]
            parsed.append(
                (
                    number,
                    Question(
                        id=qid,
                        question=_text(obj, "question"),
                        kind=str(obj.get("kind") or obj.get("type") or "all"),
                        answers=tuple(answers),
                        evidence=tuple(gold_text),
                        sources=tuple(gold_titles),
                    ),
                )
            )
            for title, text in found:
                texts = documents.setdefault(title, [])
                if text not in texts:
                    texts.append(text)
        except _Bad as error:
            problems.append(LineProblem(str(path), number, str(error)))
    docs = [{"key": title, "title": title, "text": "\n\n".join(texts)} for title, texts in documents.items()]
    return Dataset("multihop", _unique(parsed, path, problems), problems, docs)


def load_beir(folder: Path) -> Dataset:
    problems: list[LineProblem] = []
    docs = []
    corpus_path, queries_path = folder / "corpus.jsonl", folder / "queries.jsonl"
    for number, obj in _json_lines(corpus_path, problems):
        try:
            if not isinstance(obj, dict):
                raise _Bad("not a JSON object")
            key, text = _text(obj, "_id"), _text(obj, "text")
            title = obj.get("title") if isinstance(obj.get("title"), str) else ""
            docs.append({"key": key, "title": title, "text": f"{title}\n\n{text}" if title else text})
        except _Bad as error:
            problems.append(LineProblem(str(corpus_path), number, str(error)))
    qrels: dict[str, dict[str, int]] = {}
    for tsv in sorted((folder / "qrels").glob("*.tsv")):
        with tsv.open(encoding="utf-8", newline="") as handle:
            for number, row in enumerate(csv.reader(handle, delimiter="\t"), start=1):
                if number == 1 and row and row[0] == "query-id":
                    continue
                if not row or not any(cell.strip() for cell in row):
                    continue
                try:
                    if len(row) != 3:
                        raise _Bad(f"expected 3 tab-separated columns, got {len(row)}")
                    qrels.setdefault(row[0], {})[row[1]] = int(row[2])
                except (ValueError, _Bad) as error:
                    problems.append(LineProblem(str(tsv), number, str(error)))
    parsed = []
    for number, obj in _json_lines(queries_path, problems):
        try:
            if not isinstance(obj, dict):
                raise _Bad("not a JSON object")
            qid = _text(obj, "_id")
            judged = qrels.get(qid, {})
            if any(score > 0 for score in judged.values()):
                parsed.append((number, Question(id=qid, question=_text(obj, "text"), qrels=dict(judged),
                                                sources=tuple(k for k, s in judged.items() if s > 0))))
        except _Bad as error:
            problems.append(LineProblem(str(queries_path), number, str(error)))
    return Dataset("beir", _unique(parsed, queries_path, problems), problems, docs)


def load(path: str | Path, format: str = "clew", *, strict: bool = True) -> Dataset:  # noqa: A002
    """Load a dataset (a format of ``FORMATS``, or ``questions`` for gold-less batch input); with ``strict`` (the
        default) any malformed line raises ``DatasetError``."""
    loaders = {"clew": load_clew, "multihop": load_multihop, "beir": load_beir, "questions": load_questions}
    if format not in loaders:
        from clew.errors import InputError

        raise InputError("format", f"unknown dataset format {format!r}; use one of {', '.join(FORMATS)}")
    dataset = loaders[format](Path(path))
    if strict and dataset.problems:
        raise DatasetError(dataset.problems)
    return dataset
