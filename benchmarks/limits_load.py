"""Does a request at a limit stall other clients? Their search p50, idle and beside one, as JSON.

Builds a generated Markdown corpus (``benchmarks/corpus_gen.py``), starts ``clew serve`` on
127.0.0.1 (``benchmarks/server.py``), and measures the latency of ``--clients`` clients searching
one word each (``POST /v1/tools/search``) for ``--seconds``: first with nothing else running
(idle), then, for each heavy request below, while one more client sends that request in a loop.
The heavy requests sit at each list and text limit of ``clew/budgets/bounds.py`` (a query of
10,000 characters, 1,000 ``exclude_ids``, 1,000 ``exclude_document_keys``, a ``terms`` filter of
1,000 values, 100 ``should`` term clauses, 1,000 clauses in one filter), and past them (100,001
``exclude_ids``, a 2.2 MB body; 5,001 ``should`` clauses: answered 400). ``ratio`` is the
clients' p50 beside the heavy request over their idle p50 (the issue's target: within 2x).
Usage::

    python benchmarks/limits_load.py --chunks 20000 --clients 4 --seconds 5
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))

from server import KEY, build, start_server  # noqa: E402

from clew.budgets.bounds import MAX_CLAUSES, MAX_FILTER_CLAUSES, MAX_LIST_ITEMS, MAX_QUERY_CHARS  # noqa: E402


def heavy_requests(ids: list[str], words: list[str]) -> dict[str, dict[str, Any]]:
    base = {"query": "section", "limit": 10}
    wide = MAX_FILTER_CLAUSES // MAX_CLAUSES - 1  # bool lists of 100 term clauses, 1,000 clauses in all
    return {
        "query_10000_chars": {**base, "query": " ".join(words)[:MAX_QUERY_CHARS]},
        "exclude_ids_1000": {**base, "exclude_ids": (ids * MAX_LIST_ITEMS)[:MAX_LIST_ITEMS]},
        "exclude_document_keys_1000": {**base, "exclude_document_keys": [f"k{i}.md" for i in range(MAX_LIST_ITEMS)]},
        "terms_1000_values": {**base, "filter": {"terms": {"status": [f"v{i}" for i in range(MAX_LIST_ITEMS)]}}},
        "should_100_terms": {**base, "filter": {"bool": {"should": [{"term": {"status": f"v{i}"}}
                                                                    for i in range(MAX_CLAUSES)]}}},
        "filter_1000_clauses": {**base, "filter": {"bool": {"must": [
            {"bool": {"should": [{"term": {"status": f"v{i}"}} for i in range(MAX_CLAUSES - 1)]}}] * wide}}},
        "exclude_ids_100001_refused": {**base, "exclude_ids": (ids * 100_001)[:100_001]},
        "should_5001_refused": {**base, "filter": {"bool": {"should": [{"term": {"status": f"v{i}"}}
                                                                       for i in range(5_001)]}}},
    }


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


async def measure(url: str, words: list[str], clients: int, seconds: float, heavy: dict[str, Any] | None) -> dict:
    headers = {"Authorization": f"Bearer {KEY}"}
    light: list[float] = []
    loud: list[float] = []
    statuses: Counter[int] = Counter()
    errors = 0
    stop = time.monotonic() + seconds
    rng = random.Random(5)

    async def client(http: httpx.AsyncClient) -> None:
        nonlocal errors
        while True:  # one request at least, however late the loop starts
            started = time.perf_counter()
            response = await http.post("/v1/tools/search", json={"query": rng.choice(words), "limit": 10},
                                       headers=headers)
            light.append(time.perf_counter() - started)
            errors += response.status_code != 200
            if time.monotonic() >= stop:
                break

    async def noisy(http: httpx.AsyncClient, body: dict[str, Any]) -> None:
        while True:
            started = time.perf_counter()
            response = await http.post("/v1/tools/search", json=body, headers=headers)
            loud.append(time.perf_counter() - started)
            statuses[response.status_code] += 1
            if time.monotonic() >= stop:
                break

    async with httpx.AsyncClient(base_url=url, timeout=120) as http:
        tasks = [client(http) for _ in range(clients)] + ([noisy(http, heavy)] if heavy is not None else [])
        await asyncio.gather(*tasks)
    out = {"requests": len(light), "errors": errors, "p50_ms": round(statistics.median(light) * 1000, 2),
           "p95_ms": round(percentile(light, 0.95) * 1000, 2)}
    if heavy is not None:
        out["heavy"] = {"requests": len(loud), "statuses": dict(statuses),
                        "p50_ms": round(statistics.median(loud) * 1000, 2) if loud else None}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=20_000)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--port", type=int, default=8767)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db, ids, words = build(Path(tmp), args.chunks)
        server = start_server(db, Path(tmp), args.port)
        try:
            url = f"http://127.0.0.1:{args.port}"
            asyncio.run(measure(url, words, args.clients, min(args.seconds, 1.0), None))  # warm-up
            idle = asyncio.run(measure(url, words, args.clients, args.seconds, None))
            beside: dict[str, Any] = {}
            for name, body in heavy_requests(ids, words).items():
                got = asyncio.run(measure(url, words, args.clients, args.seconds, body))
                got["ratio"] = round(got["p50_ms"] / idle["p50_ms"], 2)
                beside[name] = got
        finally:
            server.terminate()
            server.wait(30)
    print(json.dumps({"chunks": args.chunks, "clients": args.clients, "seconds": args.seconds, "idle": idle,
                      "beside": beside, "worst_ratio": max(b["ratio"] for b in beside.values())}, indent=2))


if __name__ == "__main__":
    main()
