"""Pseudo-relevance feedback (query expansion from the best hits) and weighted text scores."""

from pathlib import Path

import pytest

from clew.corpus.ingest import ingest_paths
from clew.corpus.reader import Scope
from clew.corpus.search.bm25 import score_texts, term_idf
from clew.corpus.search.feedback import feedback_terms
from clew.corpus.store import Corpus
from tests.conftest import write_files


@pytest.fixture
def scope(tmp_path: Path) -> Scope:
    folder = write_files(tmp_path / "docs", {
        "a.md": "# Journals\n\nA hot journal is rolled back before the reader starts.\n",
        "b.md": "# Locks\n\nA hot journal needs a reserved lock and a pending lock.\n",
        "c.md": "# Checkpoints\n\nCheckpoints copy pages back into the database file.\n"})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder], chunk_tokens=64)
        yield Scope(corpus)


def test_expansion_weights_by_hand(scope: Scope) -> None:
    texts = ["hot lock", "lock file", "reader"]  # words the stemmer keeps as they are
    idf, _ = term_idf(scope, ["hot", "lock", "file", "reader"])
    # each term: its idf over the passage's length, summed over the top two passages
    relevance = {"hot": idf["hot"] / 2, "lock": idf["lock"] / 2 + idf["lock"] / 2, "file": idf["file"] / 2}
    strongest = max(relevance.values())
    weights = feedback_terms(scope, "journal", texts, docs=2, terms=3, weight=0.5)
    assert weights == pytest.approx({"journal": 1.0, **{t: 0.5 * v / strongest for t, v in relevance.items()}})
    assert "reader" not in weights  # only the top ``docs`` texts feed the expansion


def test_expansion_keeps_the_best_terms_and_never_reweighs_the_query(scope: Scope) -> None:
    weights = feedback_terms(scope, "hot journal", ["hot journal lock lock pending reserved"], terms=2, weight=0.3)
    assert weights["hot"] == weights["journal"] == 1.0
    added = {t: w for t, w in weights.items() if t not in ("hot", "journal")}
    assert len(added) == 2 and max(added.values()) == pytest.approx(0.3)


def test_no_weight_or_no_texts_means_the_query_alone(scope: Scope) -> None:
    assert feedback_terms(scope, "hot journal", ["lock pages"], weight=0) == {"hot": 1.0, "journal": 1.0}
    assert feedback_terms(scope, "hot journal", []) == {"hot": 1.0, "journal": 1.0}


def test_weighted_scores(scope: Scope) -> None:
    texts = ["Journals\nA hot journal is rolled back.", "Locks\nA reserved lock."]
    plain = score_texts(scope, "hot lock", texts)
    assert score_texts(scope, {"hot": 1.0, "lock": 1.0}, texts) == pytest.approx(plain)
    doubled = score_texts(scope, {"hot": 2.0, "lock": 1.0}, texts)
    assert doubled[0] == pytest.approx(2 * plain[0]) and doubled[1] == pytest.approx(plain[1])
    assert score_texts(scope, {}, texts) == [0.0, 0.0]
