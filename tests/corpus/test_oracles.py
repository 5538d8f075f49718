"""Denied is indistinguishable from missing in time: each pair of requests is timed interleaved,
many rounds, and the medians must lie within 20% of each other (a loaded machine slows both)."""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from clew.corpus.access import Principal, parse_filter
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.reader import Scope
from clew.corpus.search.api import search
from clew.corpus.search.bm25 import bm25_search
from clew.corpus.store import Corpus
from clew.navigation.evidence import FetchArgs, fetch_evidence
from clew.navigation.reading import ReadArgs, read

SECRETS = 40
READER = Principal(name="reader", row_filter=parse_filter({"term": {"status": "published"}}))


def tag(i: int) -> str:
    """Letters only: the tokenizer keeps a word with digits apart from its digits."""
    return chr(97 + i // 26) + chr(97 + i % 26)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Corpus]:
    folder = tmp_path_factory.mktemp("oracles")
    records = [{"key": f"secret-{i}.txt", "status": "draft", "text": f"Draft {i} mentions quokka{tag(i)} in passing."}
               for i in range(SECRETS)]
    records += [{"key": f"public-{i}.txt", "status": "published", "text": f"Public note {i} about harbour tides."}
                for i in range(SECRETS)]
    (folder / "records.jsonl").write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    with Corpus(folder / "c.duckdb") as opened:
        ingest_paths(opened, [folder / "records.jsonl"], collection="notes", chunk_tokens=64)
        yield opened


def median_gap(first: Callable[[int], object], second: Callable[[int], object], rounds: int = 30) -> float:
    """|median(first) - median(second)| / the larger median, over interleaved calls with a varying argument."""
    times: tuple[list[int], list[int]] = ([], [])
    for _ in range(rounds):
        for i in range(SECRETS):
            for side, call in ((0, first), (1, second)) if i % 2 else ((1, second), (0, first)):
                started = time.perf_counter_ns()
                call(i)
                times[side].append(time.perf_counter_ns() - started)
    a, b = statistics.median(times[0]), statistics.median(times[1])
    return abs(a - b) / max(a, b)


def denied_ids(corpus: Corpus) -> list[str]:
    rows = corpus.cursor().execute("SELECT id FROM documents WHERE key LIKE 'secret-%' ORDER BY id").fetchall()
    return [f"ev1:c:{doc}:1:0" for (doc,) in rows]


def test_read_by_a_denied_key_takes_as_long_as_by_a_missing_key(corpus: Corpus) -> None:
    scope = Scope(corpus, READER, "notes")
    denied = read(scope, ReadArgs(document="secret-1.txt")).model_dump()
    assert denied == read(scope, ReadArgs(document="nothing-1.txt")).model_dump()
    assert median_gap(lambda i: read(scope, ReadArgs(document=f"secret-{i}.txt")),
                      lambda i: read(scope, ReadArgs(document=f"nothing-{i}.txt"))) < 0.2


def test_fetching_a_denied_id_takes_as_long_as_a_missing_id(corpus: Corpus) -> None:
    scope = Scope(corpus, READER, "notes")
    denied = denied_ids(corpus)
    missing = [f"ev1:c:{9000 + i}:1:0" for i in range(SECRETS)]
    shown = fetch_evidence(scope, FetchArgs(ids=[denied[0]])).model_dump()
    assert shown["evidence"][0].pop("id") == denied[0]
    absent = fetch_evidence(scope, FetchArgs(ids=[missing[0]])).model_dump()
    assert absent["evidence"][0] == {**shown["evidence"][0], "id": missing[0]}
    assert median_gap(lambda i: fetch_evidence(scope, FetchArgs(ids=[denied[i]])),
                      lambda i: fetch_evidence(scope, FetchArgs(ids=[missing[i]]))) < 0.2


def test_a_word_only_in_denied_rows_costs_what_a_word_nowhere_costs(corpus: Corpus) -> None:
    scope = Scope(corpus, READER, "notes")
    assert bm25_search(scope, "quokkaab", limit=10) == bm25_search(scope, "nowhereab", limit=10) == []
    assert median_gap(lambda i: bm25_search(scope, f"quokka{tag(i)}", limit=10),
                      lambda i: bm25_search(scope, f"nowhere{tag(i)}", limit=10)) < 0.2


def test_from_held_postings_too(corpus: Corpus, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same pair on a read-only copy whose postings are held in memory (a search service's path)."""
    import shutil

    from clew.corpus.search import postings

    corpus.cursor().execute("CHECKPOINT")
    shutil.copy(corpus.path, tmp_path / "held.duckdb")
    monkeypatch.setattr(postings, "WARM_QUERIES", 0)
    with Corpus(tmp_path / "held.duckdb", read_only=True) as held:
        scope = Scope(held, READER, "notes")
        assert bm25_search(scope, "harbour", limit=3) and postings.loaded_postings(held) is not None
        assert bm25_search(scope, "quokkaab", limit=10) == bm25_search(scope, "nowhereab", limit=10) == []
        assert postings.loaded_postings(held).readers  # type: ignore[union-attr]
        assert median_gap(lambda i: bm25_search(scope, f"quokka{tag(i)}", limit=10),
                          lambda i: bm25_search(scope, f"nowhere{tag(i)}", limit=10)) < 0.2


def scores(corpus: Corpus, principal: Principal, query: str) -> list[tuple[str, float]]:
    hits = search(corpus, {"query": query, "collection": "notes", "limit": 20}, principal).hits
    return [(h.document_key, round(h.score, 9)) for h in hits]


def test_denied_rows_do_not_move_a_restricted_readers_scores(tmp_path: Path) -> None:
    """The same published notes, with and without drafts full of the query's words: the reader's
    scores are equal; an unrestricted caller's (corpus-wide statistics) move, as before."""
    public = [{"key": f"p{i}.txt", "status": "published", "text": f"Harbour tides note {i}." + " tides" * i}
              for i in range(6)]
    drafts = [{"key": f"d{i}.txt", "status": "draft", "text": "harbour harbour harbour " * (i + 1)} for i in range(9)]
    found = []
    for name, records in (("without", public), ("with", public + drafts)):
        (tmp_path / f"{name}.jsonl").write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
        with Corpus(tmp_path / f"{name}.duckdb") as corpus:
            ingest_paths(corpus, [tmp_path / f"{name}.jsonl"], collection="notes", chunk_tokens=64)
            found.append((scores(corpus, READER, "harbour tides"), scores(corpus, Principal(), "harbour tides")))
    (reader_without, all_without), (reader_with, all_with) = found
    assert len(reader_without) == 6 and reader_with == reader_without
    assert [s for k, s in all_with if k.startswith("p")] != [s for _, s in all_without]
