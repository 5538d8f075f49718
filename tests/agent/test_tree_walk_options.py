"""A walk's seed search is the search ``clew search`` runs: where the question writes a command-line option,
its first hits do not depend on the limit asked (task W4)."""

from pathlib import Path

from clew.agent.api import retrieve_sync
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.reader import Scope
from clew.corpus.search.api import SearchRequest, search_passages
from clew.corpus.store import Corpus

from ..conftest import write_files

QUESTION = "What does frob -x do?"
# frob(1)'s -x passage holds the option as written; thirty passages of another page repeat the question's
# words and hold only -X, so BM25 (which folds -x and -X into one term) ranks them all above it.
FROB = """---
title: frob(1)
---

### -x

Enables the extra mode.
"""
OTHER = "---\ntitle: widget(1)\n---\n\n" + "".join(
    f"### Case {i}\n\nfrob frob does frob -X frob -X, frob case {i}.\n\n" for i in range(30))


def _corpus(tmp_path: Path) -> Corpus:
    folder = write_files(tmp_path / "man", {"frob.md": FROB, "widget.md": OTHER})
    corpus = Corpus(tmp_path / "c.duckdb")
    ingest_paths(corpus, [folder], collection="docs")
    return corpus


def test_the_first_hits_of_an_option_question_do_not_depend_on_the_limit(tmp_path: Path) -> None:
    with _corpus(tmp_path) as corpus:
        scope = Scope(corpus, collection="docs")

        def first(limit: int) -> list[str]:
            found, _ = search_passages(scope, SearchRequest(query=QUESTION, mode="bm25", limit=limit))
            return [f.passage.evidence_id for f in found[:5]]

        wide = first(100)
        assert scope.passages_by_ids(wide[:1])[wide[0]].document_key == "frob.md"  # the option as written
        assert first(5) == wide  # before: frob(1)'s -x passage, 31st by BM25, was outside a 20-row window


def test_the_walks_seed_hits_follow_the_option_rule(tmp_path: Path) -> None:
    with _corpus(tmp_path) as corpus:
        scope = Scope(corpus, collection="docs")
        found, _ = search_passages(scope, SearchRequest(query=QUESTION, mode="bm25", limit=100))
        result = retrieve_sync({"query": QUESTION, "include_steps": True, "context_budget_tokens": 1000,
                                "queries": [{"collection": "docs"}],
                                "steps": {"retrieval": {"navigation": {"strategy": "tree", "selection": "ranked"}}}},
                               corpus=corpus)
        seeds = next(step.offered for step in result.steps if step.state == "seed")
        assert len(seeds) < 20  # the walk asks for fewer hits than the search's least window
        assert seeds[0] == found[0].passage.evidence_id  # frob(1)'s -x: the walk's first seed, as clew search's
