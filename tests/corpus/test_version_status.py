"""A version's status (current, superseded, removed) is computed over the versions the caller may
read: a newer version hidden by its row filter reads exactly as no newer version at all."""

from __future__ import annotations

from pathlib import Path

from clew.corpus.access import Principal, parse_filter
from clew.corpus.documents import remove_documents
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.reader import Scope
from clew.corpus.store import Corpus
from clew.navigation.evidence import FetchArgs, fetch_evidence

READER = Principal(name="reader", row_filter=parse_filter({"term": {"status": "published"}}))


def page(status: str, body: str) -> str:
    return f"---\nstatus: {status}\n---\n# Salary bands\n\n{body}\n"


def corpus_of(tmp: Path, versions: list[str]) -> Corpus:
    """hr.md ingested once per entry of ``versions`` (each a status), every text different."""
    tmp.mkdir(parents=True)
    corpus = Corpus(tmp / "c.duckdb")
    for number, status in enumerate(versions, start=1):
        (tmp / "hr.md").write_text(page(status, "The bands are reviewed each year." + " Again." * number))
        ingest_paths(corpus, [tmp / "hr.md"], collection="docs")
    return corpus


def status_of(corpus: Corpus, version: int, principal: Principal = READER) -> tuple[str, str | None]:
    entry = fetch_evidence(Scope(corpus, principal), FetchArgs(ids=[f"ev1:c:1:{version}:0"])).evidence[0]
    return entry.status, entry.version_status


def test_a_hidden_newer_version_reads_as_no_newer_version(tmp_path: Path) -> None:
    with corpus_of(tmp_path / "hidden", ["published", "draft"]) as hidden, \
            corpus_of(tmp_path / "alone", ["published"]) as alone:
        assert status_of(hidden, 1) == status_of(alone, 1) == ("ok", "current")
        assert status_of(hidden, 2) == status_of(alone, 2) == ("unavailable", None)
        assert status_of(hidden, 1, Principal()) == ("ok", "superseded")  # its owner sees the draft


def test_a_readable_newer_version_still_supersedes(tmp_path: Path) -> None:
    with corpus_of(tmp_path / "c", ["published", "published", "draft"]) as corpus:
        assert [status_of(corpus, v) for v in (1, 2, 3)] == [("ok", "superseded"), ("ok", "current"),
                                                               ("unavailable", None)]


def test_a_retired_document_reads_removed_only_when_its_last_version_is_readable(tmp_path: Path) -> None:
    with corpus_of(tmp_path / "public", ["published", "published"]) as public, \
            corpus_of(tmp_path / "draft", ["published", "draft"]) as draft:
        for corpus in (public, draft):
            remove_documents(corpus, Scope(corpus, Principal(), "docs"), ["hr.md"])
        assert status_of(public, 1) == ("ok", "removed")
        assert status_of(draft, 1) == ("ok", "current")  # its removed last version was hidden: as if never written
