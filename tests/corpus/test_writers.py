"""A writer with a row filter never replaces, supersedes or learns of a document it cannot read.

The decision (README, Security): writing a key whose latest version the writer may not read is
refused for that document (reported as skipped, nothing written), the same answer whatever the
bytes; the rest of the upload lands. Everything the report counts is counted over what the
writer may read, so a link to a denied key reads exactly like a link to a missing one.
"""

from __future__ import annotations

from pathlib import Path

from clew.corpus.access import Principal, parse_filter
from clew.corpus.ingest import REFUSED_WRITE, IngestReport, ingest_paths
from clew.corpus.search.api import search
from clew.corpus.store import Corpus

DRAFT = "---\ntitle: HR\nstatus: draft\n---\n# Salary bands\n\nThe zanzibarite salary bands are confidential.\n"
WRITER = Principal(name="writer", collections=frozenset({"public"}),
                   row_filter=parse_filter({"term": {"status": "published"}}))


def published(body: str) -> str:
    return f"---\nstatus: published\n---\n# Note\n\n{body}\n"


def make_corpus(folder: Path) -> Corpus:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "hr.md").write_text(DRAFT, encoding="utf-8")
    (folder / "index.md").write_text(published("The public index page."), encoding="utf-8")
    corpus = Corpus(folder / "corpus.duckdb")
    ingest_paths(corpus, [folder / "hr.md", folder / "index.md"], collection="public", chunk_tokens=160)
    return corpus


def upload(corpus: Corpus, folder: Path, files: dict[str, str], principal: Principal | None = WRITER) -> IngestReport:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return ingest_paths(corpus, [folder / name for name in files], collection="public", chunk_tokens=160,
                        principal=principal)


def seen(report: IngestReport) -> dict:
    """The report without its times, each problem's path reduced to the file's name."""
    shown = report.model_dump(exclude={"seconds": True, "file_compacted": {"seconds"}})
    for problem in shown["problems"]:
        problem["path"] = Path(problem["path"]).name
    return shown


def owner_finds(corpus: Corpus, word: str) -> list[str]:
    return [h.document_key for h in search(corpus, {"query": word, "collection": "public"}).hits]


def test_a_writer_cannot_supersede_a_draft_it_cannot_read(tmp_path: Path) -> None:
    with make_corpus(tmp_path / "c") as corpus:
        report = upload(corpus, tmp_path / "up", {"hr.md": published("Nothing to see here."),
                                                   "faq.md": published("Questions and answers.")})
        assert report.versions_created == 1  # faq.md landed
        assert report.skipped == 1 and report.unchanged == 0
        assert [(Path(p.path).name, p.message, p.skipped) for p in report.problems] == [("hr.md", REFUSED_WRITE, True)]
        assert owner_finds(corpus, "zanzibarite") == ["hr.md"]  # the owner still finds the draft
        row = corpus.cursor().execute("SELECT current_version FROM documents WHERE key = 'hr.md'").fetchone()
        assert row == (1,)
        assert "zanzibarite" not in report.model_dump_json()


def test_the_exact_bytes_of_a_denied_document_get_the_same_refusal(tmp_path: Path) -> None:
    with make_corpus(tmp_path / "c") as corpus:
        same = upload(corpus, tmp_path / "same", {"hr.md": DRAFT})
        other = upload(corpus, tmp_path / "other", {"hr.md": DRAFT.replace("confidential", "secret")})
        assert same.unchanged == 0
        assert seen(same) == seen(other)


def test_a_retired_draft_does_not_come_back_under_a_writer(tmp_path: Path) -> None:
    from clew.corpus.documents import remove_documents
    from clew.corpus.reader import Scope

    with make_corpus(tmp_path / "c") as corpus:
        remove_documents(corpus, Scope(corpus, Principal(), "public"), ["hr.md"])
        report = upload(corpus, tmp_path / "up", {"hr.md": published("Taken over.")})
        assert report.skipped == 1 and report.versions_created == 0


def test_a_link_to_a_denied_key_reads_as_a_link_to_a_missing_one(tmp_path: Path) -> None:
    reports = []
    for target in ("hr.md", "gone.md"):
        with make_corpus(tmp_path / target) as corpus:
            reports.append(upload(corpus, tmp_path / target / "up", {"note.md": published(f"See [it]({target}).")}))
    denied, missing = reports
    assert denied.links_resolved == 0 and denied.links_dangling == 1
    assert seen(denied) == seen(missing)


def test_links_between_readable_documents_still_count_for_the_writer(tmp_path: Path) -> None:
    with make_corpus(tmp_path / "c") as corpus:
        report = upload(corpus, tmp_path / "up", {"note.md": published("See [the index](index.md).")})
        assert (report.links_resolved, report.links_dangling) == (1, 0)


def test_an_unrestricted_writer_keeps_the_full_report(tmp_path: Path) -> None:
    with make_corpus(tmp_path / "c") as corpus:
        report = upload(corpus, tmp_path / "up", {"note.md": published("See [hr](hr.md)."), "hr.md": DRAFT},
                        principal=None)
        assert (report.links_resolved, report.unchanged, report.skipped) == (1, 1, 0)


def test_prune_by_a_writer_retires_and_names_only_what_it_can_read(tmp_path: Path) -> None:
    with make_corpus(tmp_path / "c") as corpus:
        (tmp_path / "c" / "old.md").write_text(published("An old public page."), encoding="utf-8")
        ingest_paths(corpus, [tmp_path / "c" / "old.md"], collection="public", chunk_tokens=160)
        folder = tmp_path / "site"
        folder.mkdir()
        (folder / "index.md").write_text(published("The public index page."), encoding="utf-8")
        report = ingest_paths(corpus, folder, collection="public", chunk_tokens=160, prune=True, principal=WRITER)
        assert report.retired == ["old.md"]  # hr.md (a draft it cannot read) is neither retired nor named
        assert "hr.md" not in report.model_dump_json()
        assert owner_finds(corpus, "zanzibarite") == ["hr.md"]
        current = corpus.cursor().execute(
            "SELECT d.key FROM documents d JOIN document_versions v ON v.document_id = d.id "
            "AND v.version = d.current_version ORDER BY d.key").fetchall()
        assert current == [("hr.md",), ("index.md",)]
        unrestricted = ingest_paths(corpus, folder, collection="public", chunk_tokens=160, prune=True)
        assert unrestricted.retired == ["hr.md"]
