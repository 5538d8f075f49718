"""Requests per second and latency of the REST API, printed as JSON.

Builds a generated Markdown corpus (``benchmarks/corpus_gen.py``), starts ``clew serve`` on
127.0.0.1 as a separate process (with one API key, so authentication is measured too), and
drives ``POST /v1/tools/navigate_document_tree`` and ``POST /v1/tools/search`` from an async httpx loop with
``--concurrency`` requests in flight, for ``--seconds`` each after a short warm-up. Starting
passages and queries are drawn at random from the corpus. Usage::

    python benchmarks/server.py --chunks 20000 --concurrency 16 --seconds 10
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))

from corpus_gen import write_markdown_corpus  # noqa: E402

from clew.corpus.ingest.api import ingest_paths  # noqa: E402
from clew.corpus.ingest.chunking import DEFAULT_CHUNK_TOKENS  # noqa: E402
from clew.corpus.store import Corpus  # noqa: E402

KEY = "bench-key-0001"
RELATIONS = ["parent", "siblings", "children", "previous", "next"]


def build(folder: Path, chunks: int) -> tuple[Path, list[str], list[str]]:
    """The corpus file, some passage ids, and some query words taken from passages."""
    source = folder / "md"
    source.mkdir()
    write_markdown_corpus(source, chunks)
    db = folder / "bench.duckdb"
    with Corpus(db) as corpus:
        ingest_paths(corpus, [source], glob="*.md", chunk_tokens=DEFAULT_CHUNK_TOKENS)
        rows = corpus.cursor().execute(
            "SELECT document_id, version, ordinal, body FROM chunks USING SAMPLE 2000 ROWS").fetchall()
    ids = [f"ev1:c:{d}:{v}:{o}" for d, v, o, _ in rows]
    words = [w for *_, body in rows for w in body.split() if w.isalpha() and len(w) > 4]
    return db, ids, words


def start_server(db: Path, folder: Path, port: int, config_text: str | None = None) -> subprocess.Popen:
    """``clew serve`` on 127.0.0.1:``port`` with ``config_text`` (default: one key, ``KEY``, that reads
    everything) as its clew.toml in ``folder``; returns once /healthz answers."""
    config = folder / "clew.toml"
    default = f'[principals.bench]\n\n[[api_keys]]\nkey = "{KEY}"\nprincipal = "bench"\n'
    config.write_text(config_text if config_text is not None else default, encoding="utf-8")
    process = subprocess.Popen(
        [sys.executable, "-m", "clew.cli", "serve", "--db", str(db), "--config", str(config), "--port", str(port)],
        stderr=subprocess.DEVNULL, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return process
        except httpx.TransportError:
            time.sleep(0.2)
    process.kill()
    raise TimeoutError("the server did not start")


async def load(url: str, path: str, bodies: list[dict], concurrency: int, seconds: float, warmup: float) -> dict:
    latencies: list[float] = []
    errors = 0
    rng = random.Random(11)

    async def worker(client: httpx.AsyncClient, until: float, record: bool) -> None:
        nonlocal errors
        while time.perf_counter() < until:
            body = rng.choice(bodies)
            started = time.perf_counter()
            response = await client.post(path, json=body)
            elapsed = time.perf_counter() - started
            if record:
                if response.status_code == 200:
                    latencies.append(elapsed)
                else:
                    errors += 1

    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=url, headers={"Authorization": f"Bearer {KEY}"}, limits=limits,
                                 timeout=60) as client:
        until = time.perf_counter() + warmup
        await asyncio.gather(*(worker(client, until, False) for _ in range(concurrency)))
        started = time.perf_counter()
        until = started + seconds
        await asyncio.gather(*(worker(client, until, True) for _ in range(concurrency)))
        wall = time.perf_counter() - started
    ordered = sorted(latencies)

    def pct(p: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000, 2) if ordered else float("nan")

    return {"requests": len(latencies), "errors": errors, "requests_per_s": round(len(latencies) / wall, 1),
            "p50_ms": pct(0.50), "p99_ms": pct(0.99),
            "mean_ms": round(statistics.fmean(ordered) * 1000, 2) if ordered else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chunks", type=int, default=20_000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="clew-bench-server-") as tmp:
        folder = Path(tmp)
        started = time.perf_counter()
        db, ids, words = build(folder, args.chunks)
        built = time.perf_counter() - started
        rng = random.Random(5)
        navigate = [{"evidence_id": i, "relation": rng.choice(RELATIONS), "limit": 5, "max_chars": 4000} for i in ids]
        search = [{"query": " ".join(rng.sample(words, 2)), "limit": 10, "max_chars": 500} for _ in range(500)]
        server = start_server(db, folder, args.port)
        url = f"http://127.0.0.1:{args.port}"
        try:
            results = {
                "/v1/tools/navigate_document_tree": asyncio.run(
                    load(url, "/v1/tools/navigate_document_tree", navigate, args.concurrency, args.seconds, args.warmup)
                ),
                "/v1/tools/search": asyncio.run(
                    load(url, "/v1/tools/search", search, args.concurrency, args.seconds, args.warmup)
                ),
            }
        finally:
            server.terminate()
            server.wait(30)
    print(
        json.dumps(
            {
                "chunks": args.chunks,
                "concurrency": args.concurrency,
                "seconds": args.seconds,
                "build_seconds": round(built, 1),
                "cpus": os.cpu_count(),
                "server": "clew serve (uvicorn, 1 worker)",
                "load_generator": "httpx.AsyncClient",
                "endpoints": results,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
