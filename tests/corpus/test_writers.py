"""A writer with a row filter never replaces, supersedes or learns of a document it cannot read.

The decision (docs/security.md): a key whose latest version the writer may not read is not
written, whatever the bytes; the rest of the upload lands. The writer's report withholds every
count that depends on what the corpus holds (``withheld``), so a key it may not write, an
absent key it wrote, a link to a denied key and a link to a missing one all read the same.
"""

from __future__ import annotations

from pathlib import Path

from clew.corpus.access import Principal, parse_filter
from clew.corpus.ingest.api import IngestReport, ingest_paths
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
        assert report.withheld and (report.documents, report.skipped, report.problems) == (2, 0, [])
        assert owner_finds(corpus, "questions") == ["faq.md"]  # faq.md landed
        assert owner_finds(corpus, "zanzibarite") == ["hr.md"]  # the owner still finds the draft
        row = corpus.cursor().execute("SELECT current_version FROM documents WHERE key = 'hr.md'").fetchone()
        assert row == (1,)
        assert "zanzibarite" not in report.model_dump_json()


def test_a_key_the_writer_may_not_write_answers_as_an_absent_key_it_wrote(tmp_path: Path) -> None:
    reports = []
    for name, held in (("hidden", ["hr.md", "index.md"]), ("absent", ["index.md"])):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "hr.md").write_text(DRAFT, encoding="utf-8")
        (folder / "index.md").write_text(published("The public index page."), encoding="utf-8")
        with Corpus(folder / "corpus.duckdb") as corpus:
            ingest_paths(corpus, [folder / key for key in held], collection="public", chunk_tokens=160)
            reports.append(upload(corpus, folder / "up", {"hr.md": published("Mine now. See [it](index.md).")}))
    hidden, absent = reports
    assert seen(hidden) == seen(absent)
    assert (hidden.documents, hidden.versions_created, hidden.skipped, hidden.withheld) == (1, 0, 0, True)


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
        upload(corpus, tmp_path / "up", {"hr.md": published("Taken over.")})
        current = corpus.cursor().execute(
            "SELECT count(*) FROM documents d JOIN document_versions v ON v.document_id = d.id "
            "AND v.version = d.current_version WHERE d.key = 'hr.md'").fetchone()
        assert current == (0,)  # still retired


def test_a_link_to_a_denied_key_reads_as_a_link_to_a_missing_one(tmp_path: Path) -> None:
    reports = []
    for target in ("hr.md", "gone.md"):
        with make_corpus(tmp_path / target) as corpus:
            reports.append(upload(corpus, tmp_path / target / "up", {"note.md": published(f"See [it]({target}).")}))
    denied, missing = reports
    assert denied.withheld and (denied.links_resolved, denied.links_dangling) == (0, 0)
    assert seen(denied) == seen(missing)


def test_links_between_readable_documents_still_resolve_for_the_writer(tmp_path: Path) -> None:
    with make_corpus(tmp_path / "c") as corpus:
        upload(corpus, tmp_path / "up", {"note.md": published("See [the index](index.md).")})
        resolved = corpus.cursor().execute(
            "SELECT count(*) FROM edges e JOIN documents d ON d.id = e.document_id "
            "WHERE e.graph = 'links' AND d.key = 'note.md' AND e.dst IS NOT NULL").fetchone()
        assert resolved == (1,)


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
        # hr.md (a draft it cannot read) is neither retired nor named
        assert report.retired == ["old.md"] and report.withheld
        assert "hr.md" not in report.model_dump_json()
        assert owner_finds(corpus, "zanzibarite") == ["hr.md"]
        current = corpus.cursor().execute(
            "SELECT d.key FROM documents d JOIN document_versions v ON v.document_id = d.id "
            "AND v.version = d.current_version ORDER BY d.key").fetchall()
        assert current == [("hr.md",), ("index.md",)]
        unrestricted = ingest_paths(corpus, folder, collection="public", chunk_tokens=160, prune=True)
        assert unrestricted.retired == ["hr.md"]
