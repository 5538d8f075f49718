"""Can a restricted reader tell a denied read from a missing one by its time, on cold caches? JSON.

Builds a corpus of ``--documents`` published and as many draft records (``ingest_paths``), starts
``clew serve`` on 127.0.0.1 with two API keys: an admin and a reader whose row filter hides the
drafts. Each round, the admin uploads one small file (a write: the corpus's caches of what
exists and who may read it start over, as they do on a busy server), then the reader sends one
probe for a denied row (a draft) or a missing one (never stored), as many of each in random
order, and its time is recorded:

- ``fetch``: ``GET /v1/evidence/{id}`` of a draft's first passage, or of a document id past any
  stored one (both answer 404 with the same body);
- ``read``: ``POST /v1/tools/read`` of a draft's key, or of a key never stored (both 404).

Per probe it prints each side's median, quartiles and their difference, and how often a simple
classifier tells them apart: one threshold on the time (and which side is slower), chosen on the
first half of the rounds and scored on the second (``holdout_accuracy``; 0.5 is a coin), and the
best threshold's accuracy over all rounds (``best_accuracy``, an upper bound). Usage::

    python benchmarks/oracle_timing.py --documents 500 --rounds 400
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))

from server import start_server  # noqa: E402

from clew.corpus.ingest.api import ingest_paths  # noqa: E402
from clew.corpus.store import Corpus  # noqa: E402

ADMIN, READER = "oracle-admin-0001", "oracle-reader-0001"
CONFIG = f"""default_collection = "notes"

[principals.admin]

[principals.reader]
row_filter = {{ term = {{ status = "published" }} }}

[[api_keys]]
key = "{ADMIN}"
principal = "admin"

[[api_keys]]
key = "{READER}"
principal = "reader"
"""


def build(folder: Path, documents: int) -> tuple[Path, list[str]]:
    """The corpus file and the first passage id of every draft."""
    records = []
    for i in range(documents):
        body = " ".join(f"note{i} harbour tides paragraph {j}." for j in range(20))
        records.append({"key": f"draft-{i}.txt", "status": "draft", "text": f"Draft {i}. {body}"})
        records.append({"key": f"public-{i}.txt", "status": "published", "text": f"Public {i}. {body}"})
    source = folder / "records.jsonl"
    source.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    db = folder / "oracle.duckdb"
    with Corpus(db) as corpus:
        ingest_paths(corpus, [source], collection="notes", chunk_tokens=64)
        rows = corpus.cursor().execute(
            "SELECT id, current_version FROM documents WHERE key LIKE 'draft-%' ORDER BY id").fetchall()
    return db, [f"ev1:c:{doc}:{version}:0" for doc, version in rows]


def probe(http: httpx.Client, kind: str, denied: bool, i: int, drafts: list[str],
          documents: int) -> tuple[httpx.Response, str]:
    """The reader's request, and the id or key it names."""
    headers = {"Authorization": f"Bearer {READER}"}
    if kind == "fetch":
        evidence = drafts[i % len(drafts)] if denied else f"ev1:c:{10_000_000 + i}:1:0"
        return http.get(f"/v1/evidence/{evidence}", headers=headers), evidence
    key = f"draft-{i % documents}.txt" if denied else f"absent-{i}.txt"
    return http.post("/v1/tools/read", json={"document": key}, headers=headers), key


def quartiles(values: list[float]) -> dict[str, float]:
    q1, q2, q3 = statistics.quantiles(values, n=4)
    return {"p25_ms": round(q1 * 1000, 3), "p50_ms": round(q2 * 1000, 3), "p75_ms": round(q3 * 1000, 3)}


def threshold(samples: list[tuple[float, bool]]) -> tuple[float, bool]:
    """The cut and direction (denied is slower: True) that classify ``samples`` best."""
    best = (0.0, float("-inf"), True)
    cuts = sorted({t for t, _ in samples})
    for cut in cuts:
        right = sum((t > cut) == denied for t, denied in samples)
        for slower, hits in ((True, right), (False, len(samples) - right)):
            if hits > best[1]:
                best = (cut, hits, slower)
    return best[0], best[2]


def accuracy(samples: list[tuple[float, bool]], cut: float, slower: bool) -> float:
    return sum(((t > cut) == denied) == slower for t, denied in samples) / len(samples)


def measure(url: str, kind: str, rounds: int, drafts: list[str], documents: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    samples: list[tuple[float, bool]] = []
    bodies: dict[bool, set[str]] = {True: set(), False: set()}
    statuses: dict[bool, set[int]] = {True: set(), False: set()}
    sides = [i % 2 == 0 for i in range(rounds)]  # as many denied as missing probes, in random order
    rng.shuffle(sides)
    with httpx.Client(base_url=url, timeout=60) as http:
        for i, denied in enumerate(sides):
            upload = http.post("/v1/collections/notes/documents", headers={"Authorization": f"Bearer {ADMIN}"},
                               files=[("files", (f"bump-{kind}-{i}.md", f"# Bump {i}\n\nround {i}\n".encode(),
                                                 "text/markdown"))])
            upload.raise_for_status()
            started = time.perf_counter()
            response, named = probe(http, kind, denied, i, drafts, documents)
            samples.append((time.perf_counter() - started, denied))
            statuses[denied].add(response.status_code)
            bodies[denied].add(response.text.replace(named, "<named>"))
    half = len(samples) // 2
    cut, slower = threshold(samples[:half])
    best_cut, best_slower = threshold(samples)
    denied_t = [t for t, d in samples if d]
    missing_t = [t for t, d in samples if not d]
    return {
        "denied": {"n": len(denied_t), "statuses": sorted(statuses[True]), **quartiles(denied_t)},
        "missing": {"n": len(missing_t), "statuses": sorted(statuses[False]), **quartiles(missing_t)},
        "median_gap_ms": round((statistics.median(denied_t) - statistics.median(missing_t)) * 1000, 3),
        "same_body": bodies[True] == bodies[False] and len(bodies[True]) == 1,
        "holdout_accuracy": round(accuracy(samples[half:], cut, slower), 3),
        "best_accuracy": round(accuracy(samples, best_cut, best_slower), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=500, help="published records, and as many drafts")
    parser.add_argument("--rounds", type=int, default=400, help="probes per kind, each after an upload")
    parser.add_argument("--port", type=int, default=8768)
    parser.add_argument("--warmup", type=int, default=20,
                        help="fetch probes (each after an upload) before the measured ones: imports, first statements")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="clew-oracle-") as tmp:
        db, drafts = build(Path(tmp), args.documents)
        server = start_server(db, Path(tmp), args.port, CONFIG)
        try:
            url = f"http://127.0.0.1:{args.port}"
            if args.warmup:
                measure(url, "fetch", args.warmup, drafts, args.documents, 0)  # warm-up: imports, first statements
            probes = {kind: measure(url, kind, args.rounds, drafts, args.documents, seed)
                      for seed, kind in enumerate(("fetch", "read"), start=1)}
        finally:
            server.terminate()
            server.wait(30)
    print(json.dumps({"documents": args.documents, "rounds": args.rounds, "cpus": os.cpu_count(),
                      "probes": probes}, indent=2))


if __name__ == "__main__":
    main()
