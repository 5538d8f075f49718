"""Where an evaluation set lives and which of its corpus files to ingest (shared by the eval benchmarks).

A set is named on the command line either by a bare name, which means ``../shared/evals/<name>`` (the
shared dev sets ``sqlite-docs`` and ``npm-docs``), or by a path to its folder (``evals/docbook-pg``,
relative to the working directory or to the repository root, or absolute). The folder holds ``corpus/``
and ``questions.jsonl``. The ingest glob is taken from what ``corpus/`` holds: one file suffix gives
``*<suffix>`` for a flat folder and ``**/*<suffix>`` for a nested one (``*.html``, ``**/*.md``); mixed
suffixes give ``**/*``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from clew.corpus.documents import list_documents
from clew.corpus.reader import Passage, Scope, passage_of
from clew.corpus.store import Corpus

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "evals"


@dataclass(frozen=True, slots=True)
class EvalSet:
    name: str  # the folder's own name: the report's key
    folder: Path

    @property
    def corpus(self) -> Path:
        return self.folder / "corpus"

    @property
    def glob(self) -> str:
        files = [p for p in self.corpus.rglob("*") if p.is_file()]
        suffixes = {p.suffix for p in files}
        if len(suffixes) != 1:
            return "**/*"
        flat = all(p.parent == self.corpus for p in files)
        return ("*" if flat else "**/*") + suffixes.pop()

    def questions(self) -> list[dict]:
        lines = (self.folder / "questions.jsonl").read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line.strip()]


def resolve(spec: str) -> EvalSet:
    """The set named by ``spec`` (a bare name or a folder path); a clear error when it is not there."""
    if "/" in spec or spec.startswith("."):
        path = Path(spec).expanduser()
        candidates = [path] if path.is_absolute() else [Path.cwd() / path, ROOT / path]
    else:
        candidates = [SHARED / spec]
    for folder in candidates:
        if (folder / "corpus").is_dir() and (folder / "questions.jsonl").is_file():
            return EvalSet(folder.resolve().name, folder.resolve())
    tried = ", ".join(dict.fromkeys(str(c) for c in candidates))
    raise SystemExit(f"no evaluation set {spec!r}: looked for corpus/ and questions.jsonl in {tried}")


def resolve_all(specs: str) -> list[EvalSet]:
    """The comma-separated ``--sets`` value, resolved in order."""
    names = [s.strip() for s in specs.split(",") if s.strip()]
    if not names:
        raise SystemExit("--sets is empty: give set names (sqlite-docs) or folders (evals/<name>), comma-separated")
    return [resolve(name) for name in names]


def current_passages(corpus: Corpus, collection: str) -> Iterator[tuple[str, int, Passage]]:
    """Every current passage of ``collection``, document by document in reading order: its document's
    key, its ordinal and the passage (the walk benchmarks' view of a whole ingested set)."""
    scope = Scope(corpus, collection=collection)
    for info in list_documents(scope):
        doc = scope.document_by_key(info.key)
        if doc is not None:
            for ordinal in range(len(doc.skeleton.chunks)):
                yield info.key, ordinal, passage_of(doc, ordinal)
