"""Scoped reads: passages built from the structure cache equal the stored rows."""

import json
from pathlib import Path

from clew.corpus.access import Principal
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.reader import Passage, Scope
from clew.corpus.store import Corpus
from tests.conftest import FIXTURES, write_files


def stored_rows(corpus: Corpus, doc: int, version: int) -> list[Passage]:
    """The chunk rows exactly as ingestion stored them, read with plain SQL."""
    rows = corpus.cursor().execute(
        """SELECT c.document_id, c.version, c.ordinal, col.name, d.key, d.current_version, c.kind, c.start_offset,
                  c.end_offset, c.node, c.sections, c.table_node, c.header, c.heading_path, c.body, c.token_count,
                  v.fields
           FROM chunks c JOIN documents d ON d.id = c.document_id JOIN collections col ON col.id = d.collection_id
           JOIN document_versions v ON v.document_id = c.document_id AND v.version = c.version
           WHERE c.document_id = ? AND c.version = ? ORDER BY c.ordinal""", [doc, version]).fetchall()
    return [Passage(d, v, o, col, key, cur, kind, start, end, node, tuple(secs), table, header, tuple(path), body,
                    tokens, json.loads(fields) if fields else {})
            for d, v, o, col, key, cur, kind, start, end, node, secs, table, header, path, body, tokens, fields in rows]


def test_cached_passages_equal_the_stored_rows(tmp_path: Path) -> None:
    db = tmp_path / "c.duckdb"
    with Corpus(db) as corpus:
        ingest_paths(corpus, [FIXTURES / "markdown", FIXTURES / "html" / "handbook.html"], chunk_tokens=48)
        ids = [r for r in corpus.cursor().execute("SELECT id, current_version FROM documents ORDER BY id").fetchall()]
    with Corpus(db, read_only=True) as cold, Corpus(db, read_only=True) as warm:
        warm_scope = Scope(warm)
        warm_scope.documents(ids)  # loads every version's structure into the cache
        for doc, version in ids:
            stored = stored_rows(cold, doc, version)
            assert stored and warm_scope.passages(doc, version) == stored
            assert [p.fields for p in warm_scope.passages(doc, version)] == [p.fields for p in stored]
            assert warm_scope.passages(doc, version, [1, 0, 99]) == [p for p in stored if p.ordinal in (0, 1)]


def test_cached_passages_still_apply_the_scope(tmp_path: Path) -> None:
    folder = write_files(tmp_path / "docs", {"open.md": "---\nacl: [staff]\n---\n# Open\n\nVisible text.\n",
                                            "closed.md": "---\nacl: [dba]\n---\n# Closed\n\nSecret text.\n"})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder], chunk_tokens=64)
        closed = corpus.cursor().execute("SELECT id, current_version FROM documents WHERE key = 'closed.md'").fetchone()
        Scope(corpus).documents([closed])  # cached by an unrestricted reader
        staff = Scope(corpus, Principal(name="staff", row_filter={"term": {"acl": "staff"}}))
        assert staff.passages(*closed) == [] and staff.passages_by_ids([f"ev1:c:{closed[0]}:{closed[1]}:0"]) == {}
        assert Scope(corpus).passages(*closed)[0].body.strip().endswith("Secret text.")


def test_reads_everything_only_when_no_document_is_left_out(tmp_path: Path) -> None:
    folder = write_files(tmp_path / "docs", {"a.md": "---\nacl: [staff]\n---\n# A\n\nText.\n"})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder], collection="one", chunk_tokens=64)
        assert Scope(corpus).reads_everything() and Scope(corpus, collection="one").reads_everything()
        assert not Scope(corpus, Principal(name="s", row_filter={"term": {"acl": "staff"}})).reads_everything()
        assert not Scope(corpus, filter={"term": {"acl": "staff"}}).reads_everything()
        ingest_paths(corpus, [folder], collection="two", chunk_tokens=64)  # a write: the cached answer is renewed
        assert Scope(corpus).reads_everything() and not Scope(corpus, collection="one").reads_everything()
        assert not Scope(corpus, Principal(name="p", collections=frozenset({"two"}))).reads_everything()


def test_a_version_a_scope_holds_is_read_again_after_a_write(tmp_path: Path) -> None:
    """``Scope.document`` keeps what it found for the walk's repeated asks, until the corpus is written."""
    folder = write_files(tmp_path / "docs", {"a.md": "# A\n\nFirst text.\n"})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder])
        scope = Scope(corpus)
        doc_id = corpus.cursor().execute("SELECT id FROM documents").fetchone()[0]
        first = scope.document(doc_id, 1)
        assert first is not None and first.current_version == 1
        assert scope.document(doc_id, 1) is first  # held
        write_files(folder, {"a.md": "# A\n\nSecond text.\n"})
        ingest_paths(corpus, [folder])
        again = scope.document(doc_id, 1)
        assert again is not None and again is not first and again.current_version == 2  # superseded since
        assert scope.document(doc_id, 2) is not None and scope.document(doc_id, 3) is None


def test_versions_read_together_are_held_for_document(tmp_path: Path) -> None:
    """What ``documents`` reads (a search's hits, read in one batch) ``document`` answers from
    without reading again, until the corpus is written; versions read with a caller's current
    versions are not kept."""
    folder = write_files(tmp_path / "docs", {"a.md": "# A\n\nFirst text.\n", "b.md": "# B\n\nOther text.\n"})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder])
        keys = [(int(d), 1) for (d,) in corpus.cursor().execute("SELECT id FROM documents ORDER BY id").fetchall()]
        scope = Scope(corpus)
        read = scope.documents(keys)
        assert [scope.document(*key) for key in keys] == [read[key] for key in keys]  # the same objects
        other = Scope(corpus)
        given = other.documents(keys[:1], {keys[0][0]: 1})
        assert other.document(*keys[0]) is not given[keys[0]]  # read again, then held
        write_files(folder, {"a.md": "# A\n\nSecond text.\n"})
        ingest_paths(corpus, [folder])
        again = scope.document(*keys[0])
        assert again is not None and again is not read[keys[0]] and again.current_version == 2


def test_a_passage_is_built_once_and_again_when_its_document_moves_on(tmp_path: Path) -> None:
    """``passage_of`` keeps what it built with the version's structure; a newer version of the
    document makes it build the passage again, superseded now, equal otherwise."""
    folder = write_files(tmp_path / "docs", {"a.md": "# A\n\nFirst text.\n"})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder])
        doc_id = corpus.cursor().execute("SELECT id FROM documents").fetchone()[0]
        evidence_id = f"ev1:c:{doc_id}:1:0"
        first = Scope(corpus).passage(evidence_id)
        assert first is not None and not first.superseded and "First text." in first.text
        assert Scope(corpus).passage(evidence_id) is first  # another scope, the same structure: kept
        write_files(folder, {"a.md": "# A\n\nSecond text.\n"})
        ingest_paths(corpus, [folder])
        again = Scope(corpus).passage(evidence_id)
        assert again is not None and again is not first and again.superseded and again.current_version == 2
        assert (again.text, again.heading_path, again.fields) == (first.text, first.heading_path, first.fields)
