"""A question's two words that the documentation writes as one, and the reverse (``compounds``)."""

from pathlib import Path

import pytest

from clew.corpus.ingest.api import ingest_paths
from clew.corpus.reader import Scope
from clew.corpus.search.api import search
from clew.corpus.search.bm25 import bm25_search, score_texts
from clew.corpus.search.compounds import JOIN_WEIGHT, query_terms
from clew.corpus.search.index import document_title, index_text
from clew.corpus.store import Corpus

PAGES = {
    "format.md": "# Text formatting\n\nWrap text in two tildes to draw a strikethrough line across it.\n",
    "strike.md": "# Strikes\n\nA strike on the server stops every worker until the next release.\n",
    "through.md": "# Passing through\n\nRequests pass through the proxy unchanged.\n",
    "files.md": "# Naming\n\nEach file name must be unique within its directory.\n",
    "names.md": "# Names\n\nA name identifies a user.\n",
    "other.md": "# Other\n\nThe file holds the settings.\n",
    "modes.md": "# Modes\n\nA read-only database refuses writes.\n",
    "write.md": "# Writes\n\nOnly the owner may read the database log.\n",
}


def _corpus(tmp_path: Path, pages: dict[str, str]) -> Corpus:
    folder = tmp_path / "docs"
    folder.mkdir()
    for name, text in pages.items():
        (folder / name).write_text(text)
    corpus = Corpus(tmp_path / "c.duckdb")
    ingest_paths(corpus, [folder], chunk_tokens=220)
    return corpus


def test_two_words_find_the_compound_and_a_compound_finds_the_two_words(tmp_path: Path) -> None:
    with _corpus(tmp_path, PAGES) as corpus:
        joined = search(corpus, {"query": "strike through text"})
        assert joined.hits[0].document_key == "format.md"
        assert joined.applied["expanded"] == {"strikethrough": "strike through"}
        split = search(corpus, {"query": "filename"})
        assert split.hits[0].document_key == "files.md"
        assert split.applied["expanded"] == {"file": "filename", "name": "filename"}
        hyphened = search(corpus, {"query": "readonly database"})
        assert hyphened.hits[0].document_key == "modes.md"
        assert hyphened.applied["expanded"] == {"read-only": "readonly"}
        spaced = search(corpus, {"query": "read only database"})
        assert spaced.hits[0].document_key == "modes.md" and spaced.applied["expanded"] == {"read-only": "read only"}


def test_the_join_weighs_a_part_of_the_rarer_word_and_the_walks_scorer_agrees(tmp_path: Path) -> None:
    with _corpus(tmp_path, PAGES) as corpus:
        scope = Scope(corpus)
        asked = query_terms(scope, "strike through")
        assert asked.weights["strikethrough"] == JOIN_WEIGHT * max(asked.weights["strike"], asked.weights["through"])
        hits = bm25_search(scope, "strike through", limit=5)
        assert len(hits) == 3
        passages = [scope.passages(h.document_id, h.version, [h.ordinal])[0] for h in hits]
        texts = [index_text(p.heading_path, p.header, p.body, document_title(p.fields)) for p in passages]
        assert score_texts(scope, "strike through", texts) == pytest.approx([h.score for h in hits])


def test_no_change_when_the_vocabulary_holds_no_compound(tmp_path: Path) -> None:
    pages = {k: v for k, v in PAGES.items() if k not in ("format.md", "modes.md")}
    pages["kept.md"] = "# Kept\n\nThe filename is kept.\n"  # held as written: not split into file + name
    with _corpus(tmp_path, pages) as corpus:
        scope = Scope(corpus)
        for query in ("strike through", "filename server", "read only"):
            asked = query_terms(scope, query)
            assert asked.expanded == {}
            assert "expanded" not in search(corpus, {"query": query}).applied
        assert set(query_terms(scope, "strike through").weights) == {"strike", "through"}
