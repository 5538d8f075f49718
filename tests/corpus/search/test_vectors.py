from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pytest
from typer.testing import CliRunner

from clew.cli import app
from clew.corpus.access import Principal, parse_filter
from clew.corpus.embedders import HashingEmbedder
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.reader import Scope
from clew.corpus.search import embedding
from clew.corpus.search.embedded import default_model, embedded_models
from clew.corpus.search.embedding import embed_missing
from clew.corpus.search.index import index_text
from clew.corpus.search.vectors import vector_search
from clew.corpus.store import Corpus
from clew.errors import InputError, MalformedEvidenceId, ModelError, UnknownCollection
from tests.conftest import Prebuilt
from tests.envelope import result as result_of

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "markdown"
HASHING = HashingEmbedder()

POLICIES = {
    "laptops.md": ("ops", "# Laptops\n\nLaptops are replaced every three years by the ops team.\n"),
    "batteries.md": ("ops", "# Batteries\n\nRobot battery packs are replaced after 500 charge cycles.\n"),
    "salaries.md": ("hr", "# Salaries\n\nSalary reviews happen every year; battery of interviews for managers.\n"),
    "hiring.md": ("hr", "# Hiring\n\nEvery hire is interviewed twice; robot battery knowledge is a plus.\n"),
}


def write_policies(folder: Path, changed: str | None = None) -> Path:
    folder.mkdir(exist_ok=True)
    for name, (team, body) in POLICIES.items():
        text = body + (f"\n{changed}\n" if changed and name == "batteries.md" else "")
        (folder / name).write_text(f"---\nacl: [{team}]\nteam: {team}\n---\n{text}", encoding="utf-8")
    return folder


def build_corpus(folder: Path) -> None:
    with Corpus(folder / "c.duckdb") as corpus:
        ingest_paths(corpus, [FIXTURES], collection="docs", chunk_tokens=64)
        ingest_paths(corpus, [write_policies(folder / "policies")], collection="policies", chunk_tokens=64)


@pytest.fixture
def corpus(tmp_path: Path, prebuilt: Prebuilt) -> Iterator[Corpus]:
    """The Markdown fixtures and POLICIES (in tmp_path/policies), in the test's own copy of c.duckdb."""
    corpus = Corpus(prebuilt(build_corpus, tmp_path) / "c.duckdb")
    yield corpus
    corpus.close()


def chunk_keys(corpus: Corpus, collection: str | None = None) -> set[tuple[int, int, int]]:
    rows = corpus.cursor().execute(
        """SELECT c.document_id, c.version, c.ordinal FROM chunks c
           JOIN documents d ON d.id = c.document_id AND d.current_version = c.version
           JOIN collections col ON col.id = d.collection_id WHERE ? IS NULL OR col.name = ?""",
        [collection, collection]).fetchall()
    return set(rows)


def keys_of(corpus: Corpus, *document_keys: str) -> set[int]:
    rows = corpus.cursor().execute("SELECT id FROM documents WHERE key IN (SELECT unnest(?::VARCHAR[]))",
                                   [list(document_keys)]).fetchall()
    return {r[0] for r in rows}


def query(text: str) -> np.ndarray:
    return HASHING.embed([text])[0]


# -- index text ----------------------------------------------------------------------------

def test_index_text_is_heading_path_then_passage_text() -> None:
    assert index_text(["Guide", "Setup"], "", "Run it.") == "Guide > Setup\nRun it."
    assert index_text(["Notes"], "| a | b |\n| - | - |", "| 1 | 2 |") == "Notes\n| a | b |\n| - | - |\n| 1 | 2 |"
    assert index_text([], "", "Loose text.") == "Loose text."


# -- embed_missing -------------------------------------------------------------------------

def test_embed_missing_fills_every_current_chunk_once(corpus: Corpus) -> None:
    seen: list[tuple[int, int]] = []
    report = embed_missing(corpus, HASHING, batch_size=3, progress=lambda done, total: seen.append((done, total)))
    total = len(chunk_keys(corpus))
    assert (report.model, report.dimensions, report.chunks, report.embedded, report.already_embedded) == (
        "hashing", 384, total, total, 0)
    assert seen[0] == (0, total) and seen[-1] == (total, total)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)
    stored = corpus.cursor().execute("SELECT document_id, version, ordinal FROM embeddings").fetchall()
    assert set(stored) == chunk_keys(corpus) and len(stored) == total

    again = embed_missing(corpus, HASHING)
    assert (again.embedded, again.already_embedded) == (0, total)


def test_embed_missing_embeds_the_indexed_text(corpus: Corpus) -> None:
    ingest_paths(corpus, [FIXTURES / "acme-notes.md"], collection="small", chunk_tokens=16)
    embed_missing(corpus, HASHING)
    rows = corpus.cursor().execute(
        """SELECT c.heading_path, c.header, c.body, json_extract_string(v.fields, '$.title'), e.vector
           FROM chunks c JOIN embeddings e USING (document_id, version, ordinal)
           JOIN document_versions v USING (document_id, version)""").fetchall()
    assert any(header for _, header, _, _, _ in rows)  # table chunks repeat their header rows
    assert any(title and path[0] != title for path, _, _, title, _ in rows)  # a title the path lacks leads it
    for path, header, body, title, vector in rows:
        expected = HASHING.embed([index_text(path, header, body, title)])[0]
        assert np.allclose(np.array(vector, dtype=np.float32), expected)
    norms = [
        n
        for (n,) in corpus.cursor().execute("SELECT sqrt(list_dot_product(vector, vector)) FROM embeddings").fetchall()
    ]
    assert np.allclose(norms, 1.0, atol=1e-5)


def test_embed_missing_per_collection_and_per_model(corpus: Corpus) -> None:
    report = embed_missing(corpus, HASHING, collection="policies")
    assert report.embedded == len(chunk_keys(corpus, "policies")) and report.collection == "policies"
    assert embedded_models(corpus, "docs") == {}
    small = embed_missing(corpus, HashingEmbedder(64))
    assert small.embedded == len(chunk_keys(corpus))
    assert embedded_models(corpus) == {"hashing": report.embedded, "hashing:64": small.embedded}
    assert default_model(corpus) == "hashing:64" and default_model(corpus, "policies") == "hashing"
    with pytest.raises(UnknownCollection):
        embed_missing(corpus, HASHING, collection="nope")


def test_a_changed_document_gets_vectors_for_its_new_version_only(corpus: Corpus, tmp_path: Path) -> None:
    embed_missing(corpus, HASHING)
    ingest_paths(corpus, [write_policies(tmp_path / "policies", changed="Packs are recycled.")],
                 collection="policies", chunk_tokens=64)
    report = embed_missing(corpus, HASHING)
    (doc,) = keys_of(corpus, "batteries.md") or keys_of(corpus, str(tmp_path / "policies" / "batteries.md"))
    new = {k for k in chunk_keys(corpus) if k[0] == doc}
    assert {k[1] for k in new} == {2} and report.embedded == len(new)


def test_embed_missing_refuses_mismatched_or_broken_embedders(corpus: Corpus) -> None:
    embed_missing(corpus, HASHING, collection="docs")

    resized = HashingEmbedder(32)
    resized.name = "hashing"
    with pytest.raises(InputError, match="384-dimensional") as raised:
        embed_missing(corpus, resized, collection="policies")
    assert raised.value.field == "model"

    class Broken(HashingEmbedder):
        def embed(self, texts: list[str]) -> np.ndarray:
            return np.zeros((len(texts), 3), dtype=np.float32)

    broken = Broken(16)
    with pytest.raises(ModelError, match="shape"):
        embed_missing(corpus, broken)
    assert broken.name not in embedded_models(corpus)
    with pytest.raises(InputError):
        embed_missing(corpus, HASHING, batch_size=0)


def test_an_interrupted_run_keeps_finished_batches(corpus: Corpus) -> None:
    class Failing(HashingEmbedder):
        calls = 0

        def embed(self, texts: list[str]) -> np.ndarray:
            Failing.calls += 1
            if Failing.calls == 2:
                raise ModelError(self.name, "gone")
            return super().embed(texts)

    with pytest.raises(ModelError):
        embed_missing(corpus, Failing(), batch_size=2)
    assert embedded_models(corpus) == {"hashing": 2}
    assert embed_missing(corpus, HASHING).embedded == len(chunk_keys(corpus)) - 2


class _Watching(HashingEmbedder):
    """Records, at each model call, how many vectors the corpus holds (what was committed)."""

    def __init__(self, corpus: Corpus, fail_at: int | None = None) -> None:
        super().__init__()
        self.corpus, self.fail_at, self.stored = corpus, fail_at, []

    def embed(self, texts: list[str]) -> np.ndarray:
        self.stored.append(sum(embedded_models(self.corpus).values()))
        if len(self.stored) == self.fail_at:
            raise ModelError(self.name, "gone")
        return super().embed(texts)


def test_vectors_are_committed_in_groups_larger_than_a_model_batch(corpus: Corpus,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embedding, "COMMIT_ROWS", 4)
    monkeypatch.setattr(embedding, "COMMIT_SECONDS", 3600.0)
    watching = _Watching(corpus)
    report = embed_missing(corpus, watching, batch_size=2)
    assert watching.stored[:4] == [0, 0, 4, 4], "a commit once four vectors wait, not after every batch of two"
    assert report.embedded == len(chunk_keys(corpus)) == sum(embedded_models(corpus).values())


def test_vectors_are_committed_once_a_second_has_passed(corpus: Corpus, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embedding, "COMMIT_SECONDS", 0.0)
    watching = _Watching(corpus)
    embed_missing(corpus, watching, batch_size=2)
    assert watching.stored[:3] == [0, 2, 4]


def test_a_failing_run_commits_what_it_embedded_before_the_error(corpus: Corpus,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embedding, "COMMIT_ROWS", 1000)
    monkeypatch.setattr(embedding, "COMMIT_SECONDS", 3600.0)
    with pytest.raises(ModelError, match="gone"):
        embed_missing(corpus, _Watching(corpus, fail_at=3), batch_size=2)
    assert embedded_models(corpus) == {"hashing": 4}, "the two batches before the error are kept"


def test_a_store_failure_while_keeping_them_leaves_the_first_error_to_the_caller(
        corpus: Corpus, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    def broken(*args: object) -> None:
        raise duckdb.IOException("No space left on device")

    monkeypatch.setattr(embedding, "COMMIT_ROWS", 1000)
    monkeypatch.setattr(embedding, "_insert", broken)
    with caplog.at_level("WARNING", logger="clew.corpus.search.embedding"), pytest.raises(ModelError, match="gone"):
        embed_missing(corpus, _Watching(corpus, fail_at=2), batch_size=2)
    assert any("2 vector(s) embedded before the error were not stored" in r.getMessage() for r in caplog.records)
    assert embedded_models(corpus) == {}


def test_embed_missing_on_a_read_only_file(corpus: Corpus) -> None:
    path = corpus.path
    corpus.close()
    with Corpus(path, read_only=True) as read_only, pytest.raises(InputError, match="read-only"):
        embed_missing(read_only, HASHING)


# -- vector_search -------------------------------------------------------------------------

def build_embedded(folder: Path) -> None:
    """``build_corpus`` with every chunk embedded by HASHING: once a session (``prebuilt``), not once a test."""
    build_corpus(folder)
    with Corpus(folder / "c.duckdb") as corpus:
        embed_missing(corpus, HASHING)


@pytest.fixture
def embedded(tmp_path: Path, prebuilt: Prebuilt) -> Iterator[Corpus]:
    """The test's own copy of the embedded corpus."""
    corpus = Corpus(prebuilt(build_embedded, tmp_path) / "c.duckdb")
    yield corpus
    corpus.close()


def brute_force(
    corpus: Corpus, vector: np.ndarray, collection: str | None = None
) -> list[tuple[tuple[int, int, int], float]]:
    keys = chunk_keys(corpus, collection)
    rows = (
        corpus.cursor()
        .execute("SELECT document_id, version, ordinal, vector FROM embeddings WHERE model = 'hashing'")
        .fetchall()
    )
    scored = [
        ((d, v, o), float(np.array(vec, dtype=np.float32) @ vector)) for d, v, o, vec in rows if (d, v, o) in keys
    ]
    return sorted(scored, key=lambda item: (-item[1], item[0][0], item[0][2]))


def test_vector_search_is_exact(embedded: Corpus) -> None:
    vector = query("robot battery packs replaced")
    hits = vector_search(Scope(embedded), vector, model="hashing", limit=5)
    expected = brute_force(embedded, vector)[:5]
    assert [h[:3] for h in hits] == [key for key, _ in expected]
    assert np.allclose([h[3] for h in hits], [score for _, score in expected], atol=1e-5)
    assert [h[3] for h in hits] == sorted((h[3] for h in hits), reverse=True)


def test_a_chunk_finds_itself_first(embedded: Corpus) -> None:
    path, header, body, key = (
        embedded.cursor()
        .execute(
            "SELECT heading_path, header, body, [document_id, version, ordinal] FROM chunks ORDER BY document_id, "
            "ordinal LIMIT 1"
        )
        .fetchone()
    )
    (top, *_) = vector_search(Scope(embedded), query(index_text(path, header, body)), model="hashing", limit=3)
    assert list(top[:3]) == key and top[3] == pytest.approx(1.0, abs=1e-5)


def test_vector_search_limit_and_collection(embedded: Corpus) -> None:
    vector = query("robot battery")
    assert len(vector_search(Scope(embedded), vector, model="hashing", limit=2)) == 2
    everything = vector_search(Scope(embedded), vector, model="hashing", limit=100)
    assert {h[:3] for h in everything} == chunk_keys(embedded)
    docs = vector_search(Scope(embedded, collection="docs"), vector, model="hashing", limit=100)
    assert {h[:3] for h in docs} == chunk_keys(embedded, "docs")
    with pytest.raises(InputError) as raised:
        vector_search(Scope(embedded), vector, model="hashing", limit=0)
    assert raised.value.field == "limit"


def test_row_filters_apply_inside_the_query(embedded: Corpus) -> None:
    vector = query("robot battery replaced")
    ops = Principal(name="ops", row_filter=parse_filter({"term": {"acl": "ops"}}))
    unrestricted = vector_search(Scope(embedded, collection="policies"), vector, model="hashing", limit=2)
    hits = vector_search(Scope(embedded, ops, "policies"), vector, model="hashing", limit=2)
    ops_docs = keys_of(embedded, *(k for k in _policy_keys(embedded) if "laptops" in k or "batteries" in k))
    assert len(hits) == 2 and {h[0] for h in hits} <= ops_docs
    assert {h[0] for h in unrestricted} - ops_docs  # without the filter an hr document ranks in the top 2
    # a caller's filter narrows the same way
    hr = vector_search(Scope(embedded, collection="policies", filter=parse_filter({"term": {"team": "hr"}})), vector,
                       model="hashing", limit=10)
    assert hr and not {h[0] for h in hr} & ops_docs


def test_a_principal_who_may_read_nothing_gets_nothing_and_no_error(embedded: Corpus) -> None:
    nobody = Principal(name="nobody", row_filter=parse_filter({"term": {"acl": "nobody"}}))
    assert vector_search(Scope(embedded, nobody), query("robot battery"), model="hashing", limit=10) == []
    other = Principal(name="other", collections=frozenset({"docs"}))
    hits = vector_search(Scope(embedded, other), query("robot battery"), model="hashing", limit=100)
    assert {h[:3] for h in hits} == chunk_keys(embedded, "docs")


def test_exclusions_apply_before_the_limit(embedded: Corpus) -> None:
    vector = query("robot battery replaced")
    scope = Scope(embedded, collection="policies")
    top = vector_search(scope, vector, model="hashing", limit=3)
    first = f"ev1:c:{top[0][0]}:{top[0][1]}:{top[0][2]}"
    without_first = vector_search(scope, vector, model="hashing", limit=3, exclude_ids=[first, "ev1:d:999:1"])
    assert [h[:3] for h in without_first[:2]] == [h[:3] for h in top[1:]] and len(without_first) == 3
    keys = _policy_keys(embedded)
    battery_key = next(k for k in keys if "batteries" in k)
    without_doc = vector_search(scope, vector, model="hashing", limit=10, exclude_document_keys=[battery_key])
    assert without_doc and keys_of(embedded, battery_key).isdisjoint(h[0] for h in without_doc)
    assert len(without_doc) == len(chunk_keys(embedded, "policies")) - len(keys_of(embedded, battery_key))
    with pytest.raises(MalformedEvidenceId):
        vector_search(scope, vector, model="hashing", limit=3, exclude_ids=["nope"])


def test_superseded_versions_are_not_searched(embedded: Corpus, tmp_path: Path) -> None:
    ingest_paths(embedded, [write_policies(tmp_path / "policies", changed="Packs are recycled.")],
                 collection="policies", chunk_tokens=64)
    vector = query("robot battery packs replaced")
    hits = vector_search(Scope(embedded, collection="policies"), vector, model="hashing", limit=10)
    assert {h[:3] for h in hits} < chunk_keys(embedded, "policies")  # the new version has no vectors yet
    assert all(h[1] == 1 for h in hits)
    embed_missing(embedded, HASHING)
    hits = vector_search(Scope(embedded, collection="policies"), vector, model="hashing", limit=10)
    assert {h[:3] for h in hits} == chunk_keys(embedded, "policies")


def test_no_embeddings_for_the_model_is_a_clear_error(corpus: Corpus) -> None:
    with pytest.raises(
        InputError, match=r"has no embeddings for model 'hashing'; run `clew embed --db FILE --model hashing`"
    ) as raised:
        vector_search(Scope(corpus), query("robot"), model="hashing", limit=3)
    assert raised.value.field == "mode"
    embed_missing(corpus, HASHING, collection="docs")
    with pytest.raises(InputError, match="collection 'policies' has no embeddings"):
        vector_search(Scope(corpus, collection="policies"), query("robot"), model="hashing", limit=3)
    with pytest.raises(InputError, match="model 'other'"):
        vector_search(Scope(corpus), query("robot"), model="other", limit=3)


def test_a_file_without_the_embeddings_table(corpus: Corpus) -> None:
    corpus.cursor().execute("DROP TABLE embeddings")
    assert default_model(corpus) is None
    with pytest.raises(InputError, match="no embeddings"):
        vector_search(Scope(corpus), query("robot"), model="hashing", limit=3)
    assert embed_missing(corpus, HASHING).embedded == len(chunk_keys(corpus))


def test_query_vector_problems(embedded: Corpus) -> None:
    assert vector_search(Scope(embedded), np.zeros(384, dtype=np.float32), model="hashing", limit=3) == []
    with pytest.raises(InputError) as raised:
        vector_search(Scope(embedded), np.ones(10), model="hashing", limit=3)
    assert raised.value.field == "query_vector"
    with pytest.raises(InputError):
        vector_search(Scope(embedded), np.full(384, np.nan), model="hashing", limit=3)
    hits = vector_search(Scope(embedded), (query("robot battery") * 7).tolist(), model="hashing", limit=1)
    assert hits[0][3] <= 1.0 + 1e-5  # the query is normalised: the score is a cosine


def _policy_keys(corpus: Corpus) -> list[str]:
    return [
        k
        for (k,) in corpus.cursor()
        .execute("SELECT d.key FROM documents d JOIN collections c ON c.id = d.collection_id WHERE c.name = 'policies'")
        .fetchall()
    ]


# -- CLI -----------------------------------------------------------------------------------

runner = CliRunner()


@pytest.fixture
def db(corpus: Corpus) -> Path:
    path = Path(corpus.path)
    corpus.close()
    return path


def test_cli_embed_json_then_nothing_left(db: Path) -> None:
    result = runner.invoke(app, ["embed", "--db", str(db), "--model", "hashing", "--json"])
    assert result.exit_code == 0, result.output
    report = result_of(result.stdout)
    assert report["model"] == "hashing" and report["embedded"] == report["chunks"] > 0
    again = runner.invoke(app, ["embed", "--db", str(db), "--model", "hashing", "--json", "--batch-size", "2"])
    assert result_of(again.stdout)["embedded"] == 0


def test_cli_embed_summary_for_one_collection(db: Path) -> None:
    result = runner.invoke(app, ["embed", "--db", str(db), "--model", "hashing:64", "--collection", "policies"])
    assert result.exit_code == 0, result.output
    assert "chunks embedded with hashing:64 (64 dimensions), 0 already had vectors" in result.stdout


@pytest.mark.parametrize(
    ("args", "message", "code"),
    [
        (["--collection", "nope"], "unknown collection 'nope'", 1),
        (["--model", "hashing:x"], "hashing:DIMENSIONS", 2),
    ],
)
def test_cli_embed_errors(db: Path, args: list[str], message: str, code: int) -> None:
    result = runner.invoke(app, ["embed", "--db", str(db), "--model", "hashing", *args])
    assert result.exit_code == code
    assert message in result.output


def test_cli_embed_missing_file_and_missing_extra(tmp_path: Path, db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = runner.invoke(app, ["embed", "--db", str(tmp_path / "none.duckdb")])
    assert result.exit_code == 2 and "no such corpus file" in result.output
    monkeypatch.setattr(
        "clew.corpus.embedders.dense_extra_missing", lambda: "torch is not installed (install 'clew[dense]')"
    )
    result = runner.invoke(app, ["embed", "--db", str(db)])  # minilm is the default
    assert result.exit_code == 2 and "'minilm' cannot run" in result.output and "clew[dense]" in result.output


# -- the in-memory matrix against the SQL path ----------------------------------------------


def both_paths(scope: Scope, vector: np.ndarray, monkeypatch: pytest.MonkeyPatch, **kwargs: Any) -> tuple[list, list]:
    from clew.corpus.search import matrix

    memory = vector_search(scope, vector, model="hashing", **kwargs)
    monkeypatch.setenv("CLEW_VECTOR_MEMORY_MB", "0")  # too small for any matrix: the SQL path
    matrix._matrices.clear()
    sql = vector_search(scope, vector, model="hashing", **kwargs)
    monkeypatch.delenv("CLEW_VECTOR_MEMORY_MB")
    matrix._matrices.clear()
    return memory, sql


def test_a_one_off_vector_query_does_not_build_the_matrix(embedded: Corpus) -> None:
    from clew.corpus.search import matrix

    assert vector_search(Scope(embedded), query("robot battery"), model="hashing", limit=3)
    assert not matrix._matrices.get(embedded)  # the first WARM_QUERIES queries are answered in SQL
    for _ in range(matrix.WARM_QUERIES):
        vector_search(Scope(embedded), query("robot battery"), model="hashing", limit=3)
    assert matrix._matrices.get(embedded)


@pytest.mark.parametrize("text", ["robot battery packs replaced", "route planning dependencies", "salary review"])
def test_the_in_memory_matrix_ranks_like_the_sql_query(embedded: Corpus, text: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from clew.corpus.search import matrix
    from clew.corpus.search.matrix import matrix_for

    monkeypatch.setattr(matrix, "WARM_QUERIES", 0)

    vector = query(text)
    ops = Principal(name="ops", row_filter=parse_filter({"term": {"acl": "ops"}}))
    first = vector_search(Scope(embedded), vector, model="hashing", limit=1)[0]
    cases = [
        (Scope(embedded), {"limit": 8}),
        (Scope(embedded, collection="policies"), {"limit": 3}),
        (Scope(embedded, ops), {"limit": 5}),
        (Scope(embedded), {"limit": 6, "exclude_ids": [f"ev1:c:{first[0]}:{first[1]}:{first[2]}"],
                           "exclude_document_keys": ["laptops.md"]}),
    ]
    assert matrix_for(embedded, "hashing") is not None
    for scope, kwargs in cases:
        memory, sql = both_paths(scope, vector, monkeypatch, **kwargs)
        assert [m[:3] for m in memory] == [s[:3] for s in sql] and memory
        assert [m[3] for m in memory] == pytest.approx([s[3] for s in sql], abs=1e-5)


def test_the_matrix_is_rebuilt_after_a_write(embedded: Corpus, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from clew.corpus.search import matrix
    from clew.corpus.search.matrix import matrix_for

    monkeypatch.setattr(matrix, "WARM_QUERIES", 0)

    before = matrix_for(embedded, "hashing")
    folder = tmp_path / "more"
    folder.mkdir()
    (folder / "drones.md").write_text("# Drones\n\nDrone propellers are inspected weekly.\n")
    ingest_paths(embedded, [folder], collection="docs", chunk_tokens=64)
    embed_missing(embedded, HASHING)
    after = matrix_for(embedded, "hashing")
    assert after is not before and len(after.documents) == len(before.documents) + 1
    (top, *_) = vector_search(Scope(embedded), query("Drones\nDrone propellers are inspected weekly."),
                              model="hashing", limit=1)
    assert top[0] in keys_of(embedded, "drones.md")


def test_embeddings_embed_the_document_title_as_the_index_does(corpus: Corpus, tmp_path: Path) -> None:
    page = tmp_path / "npm-access.md"
    page.write_text("---\ntitle: npm-access\n---\n\n### Description\n\nSets the level on packages.\n")
    ingest_paths(corpus, [page], collection="small", chunk_tokens=64)
    embed_missing(corpus, HASHING)
    ((path, header, body, vector),) = corpus.cursor().execute(
        """SELECT c.heading_path, c.header, c.body, e.vector FROM chunks c JOIN embeddings e
           USING (document_id, version, ordinal) WHERE c.body LIKE '%Sets the level%'""").fetchall()
    assert np.allclose(np.array(vector, dtype=np.float32),
                       HASHING.embed([index_text(path, header, body, "npm-access")])[0])
    assert not np.allclose(np.array(vector, dtype=np.float32), HASHING.embed([index_text(path, header, body)])[0])
