"""A near-copy of a passage the pack holds, from another document, is not taken (task U31): a documentation's versions
side by side (``latest/``, ``v1.1/``, ``v2.0/``) put the same paragraph, a word apart, in every pack three times."""

from __future__ import annotations

import asyncio
from pathlib import Path

from clew.agent.api import retrieve
from clew.agent.evidence import NEAR_COPY_MIN_PAIRS, WORD_PAIRS_CACHED, Pack, word_pairs
from clew.agent.result import EvidenceHit
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.store import Corpus

from ..conftest import write_files

SHARED = ("The development server reloads the application when its code changes and shows an interactive debugger "
          "for unhandled exceptions; never run it in production, where a WSGI server such as {server} serves it.")


def test_a_near_copy_from_another_version_is_not_taken_and_the_step_says_so(tmp_path: Path) -> None:
    pages = {f"{version}/server.md": f"# Development server\n\n## Reloading\n\n{SHARED.format(server=server)}\n\n"
                                     f"## Python\n\nFlask {version} supports Python {python} and newer.\n"
             for version, server, python in (("v1", "Gunicorn", "3.5"), ("v2", "uWSGI", "3.6"), ("v3", "Waitress",
                                                                                                   "3.8"))}
    folder = write_files(tmp_path / "site", pages)
    with Corpus(tmp_path / "site.duckdb") as corpus:
        ingest_paths(corpus, [folder], collection="docs", chunk_tokens=120)
        result = asyncio.run(retrieve({
            "query": "development server reloads debugger production Python versions", "include_steps": True,
            "queries": [{"collection": "docs"}],
            "steps": {"retrieval": {"navigation": {"strategy": "tree", "selection": "ranked"}}}}, corpus=corpus))
    reloading = [h for h in result.hits if "reloads the application" in h.text]
    assert len(reloading) == 1, [h.document_key for h in reloading]  # three before: a word apart, not the same text
    assert any(s.detail and s.detail.startswith(f"a near-copy of {reloading[0].evidence_id}") for s in result.steps)
    python = sorted(h.text.strip().split("\n")[-1] for h in result.hits if "supports Python" in h.text)
    assert python == [f"Flask {v} supports Python {p} and newer." for v, p in (("v1", "3.5"), ("v2", "3.6"),
                                                                               ("v3", "3.8"))]  # short: each kept


def hit(key: str, ordinal: int, text: str) -> EvidenceHit:
    return EvidenceHit(evidence_id=f"ev1:c:{key}:1:{ordinal}", document_key=key, collection="docs", heading_path=[],
                       text=text)


def test_a_near_copy_is_of_another_document_and_long_enough() -> None:
    pack = Pack()
    pack.take(hit("a", 0, SHARED.format(server="Gunicorn")))
    assert len(word_pairs(SHARED)) >= NEAR_COPY_MIN_PAIRS
    assert pack.near_copy_of(SHARED.format(server="uWSGI"), "b") == "ev1:c:a:1:0"
    assert pack.near_copy_of(SHARED.format(server="uWSGI"), "a") is None  # the same document's
    assert pack.near_copy_of("the development server reloads the application", "b") is None  # short
    assert pack.near_copy_of(SHARED[:90] + " Only in this version: a new reloader.", "b") is None
    pack.give_back("ev1:c:a:1:0")
    assert pack.near_copy_of(SHARED.format(server="uWSGI"), "b") is None  # given back: takeable again


def test_the_word_pairs_kept_between_walks_stay_a_few_megabytes() -> None:
    """A server runs walk after walk: the cache of passages' word pairs is bounded, not a tenth of its memory."""
    word_pairs.cache_clear()
    for n in range(WORD_PAIRS_CACHED + 50):
        word_pairs(SHARED.format(server=f"server{n}"))
    info = word_pairs.cache_info()
    assert info.currsize == info.maxsize == WORD_PAIRS_CACHED <= 1024
