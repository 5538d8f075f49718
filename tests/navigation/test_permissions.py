"""Every tool: a denied document never appears, is never a route, and answers like a missing one."""

from collections.abc import Callable
from pathlib import Path

import pytest

from clew.corpus.access import Principal, parse_filter
from clew.corpus.ingest.edges import ingest_edges
from clew.corpus.reader import Scope
from clew.corpus.store import Corpus
from clew.errors import UnknownCollection
from clew.navigation.evidence import CitationArgs, FetchArgs, check_citations, fetch_evidence
from clew.navigation.graph import ExpandArgs, expand_neighbors
from clew.navigation.ledger import EvidenceLedger
from clew.navigation.reading import GetChunkArgs, GrepArgs, NavigateArgs, ReadArgs, get_chunk, grep, navigate, read
from clew.navigation.slices import SliceArgs, fetch_slice
from clew.navigation.tree import TreeArgs, navigate_document_tree
from tests.conftest import Prebuilt, write_files
from tests.navigation.conftest import GUIDE, build_guide

NOT_DRAFT = Principal(name="reader", row_filter=parse_filter({"bool": {"must_not": [{"term": {"status": "draft"}}]}}))

# Each tool called with one id (``{id}``) or document reference (``{doc}``).
CALLS: dict[str, Callable[[Scope, str, str], object]] = {
    "navigate_document_tree": lambda s, i, d: navigate_document_tree(s, TreeArgs(evidence_id=i, relation="next")),
    "get_chunk": lambda s, i, d: get_chunk(s, GetChunkArgs(evidence_id=i)),
    "navigate": lambda s, i, d: navigate(s, NavigateArgs(document=d, start_offset=0, end_offset=0)),
    "read": lambda s, i, d: read(s, ReadArgs(document=d)),
    "grep": lambda s, i, d: grep(s, GrepArgs(document=d, pattern="launch")),
    "expand_neighbors": lambda s, i, d: expand_neighbors(s, ExpandArgs(ids=[i])),
    "fetch_slice": lambda s, i, d: fetch_slice(s, SliceArgs(id=i)),
    "fetch_evidence": lambda s, i, d: fetch_evidence(s, FetchArgs(ids=[i]), ledger=EvidenceLedger()),
    "check_citations": lambda s, i, d: check_citations(s, CitationArgs(ids=[i]), EvidenceLedger()),
}


def secret_id(corpus: Corpus) -> int:
    return corpus.cursor().execute("SELECT id FROM documents WHERE key = 'secret.md'").fetchone()[0]


@pytest.mark.parametrize("tool", sorted(CALLS))
def test_denied_answers_exactly_like_missing(guide: Corpus, tool: str) -> None:
    scope = Scope(guide, NOT_DRAFT)
    sid = secret_id(guide)
    denied = CALLS[tool](scope, f"ev1:c:{sid}:1:0", "secret.md").model_dump_json()
    missing = CALLS[tool](scope, "ev1:c:9999:1:0", "never-was.md").model_dump_json()
    assert denied.replace(f"ev1:c:{sid}:1:0", "X").replace("secret.md", "Y") == \
        missing.replace("ev1:c:9999:1:0", "X").replace("never-was.md", "Y")
    assert "unavailable" in denied and "launch" not in denied.lower()
    # the same call may read it without the filter
    assert "unavailable" not in CALLS[tool](Scope(guide), f"ev1:c:{sid}:1:0", "secret.md").model_dump_json()


def build_guide_and_hr(folder: Path) -> None:
    """The guide's corpus (``build_guide``) and pay.md in a second collection, ``hr``."""
    from clew.corpus.ingest.api import ingest_paths

    build_guide(folder)
    with Corpus(folder / "guide.duckdb") as corpus:
        ingest_paths(corpus, [write_files(folder / "hr", {"pay.md": "# Pay\n\nThe launch bonus is secret.\n"})],
                     collection="hr", chunk_tokens=40)


@pytest.mark.parametrize("tool", sorted(CALLS))
def test_other_collections_are_invisible(tmp_path: Path, prebuilt: Prebuilt, tool: str) -> None:
    # built once a session and copied (an ingest a tool, eleven, took about 1.5 s of CPU)
    with Corpus(prebuilt(build_guide_and_hr, tmp_path) / "guide.duckdb") as guide:
        pay = guide.cursor().execute("SELECT id FROM documents WHERE key = 'pay.md'").fetchone()[0]
        scope = Scope(guide, Principal(collections=frozenset({"docs"})))
        denied = CALLS[tool](scope, f"ev1:c:{pay}:1:0", "pay.md").model_dump_json()
    assert "unavailable" in denied and "bonus" not in denied


def test_denied_documents_are_never_routes(guide: Corpus) -> None:
    """public -> secret -> guide (links) and public -> secret -> guide (a user graph)."""
    ingest_edges(guide, '{"graph": "flow", "src": "public.md", "dst": "secret.md", "type": "next"}\n'
                        '{"graph": "flow", "src": "secret.md", "dst": "guide.md", "type": "next"}\n', collection="docs")
    pub = guide.cursor().execute("SELECT id FROM documents WHERE key = 'public.md'").fetchone()[0]
    seed = [f"ev1:c:{pub}:1:1"]  # the passage without links; the user graph joins its key
    for follow in (["flow"], ["links_to"]):
        seeds = seed if follow == ["flow"] else [f"ev1:c:{pub}:1:0"]
        opened = expand_neighbors(Scope(guide), ExpandArgs(ids=seeds, relationship_types=follow, depth=2,
            include_incoming=False))
        assert {n.metadata["document_key"] for n in opened.neighbors} >= {"secret.md", "guide.md"}
        walked = expand_neighbors(Scope(guide, NOT_DRAFT), ExpandArgs(ids=seeds, relationship_types=follow,
            depth=3, include_incoming=False))
        keys = {n.metadata["document_key"] for n in walked.neighbors}
        assert "secret.md" not in keys
        if follow == ["flow"]:
            assert keys == set()  # the guide was reachable only through the secret plan
        assert "secret" not in walked.model_dump_json().lower()


def test_a_collection_argument_never_widens(guide: Corpus) -> None:
    scope = Scope(guide, collection="docs")
    with pytest.raises(UnknownCollection):
        expand_neighbors(scope, ExpandArgs(ids=["ev1:c:1:1:0"], collection="hr"))
    with pytest.raises(UnknownCollection):
        Scope(guide, Principal(collections=frozenset({"docs"})), collection="hr")


def test_row_filter_applies_to_every_version(tmp_path: Path, guide: Corpus) -> None:
    """A key whose new version is a draft: the old, published version stays readable on its own terms."""
    from clew.corpus.ingest.api import ingest_paths

    folder = write_files(tmp_path / "v", {"doc.md": "---\nstatus: published\n---\n# Doc\n\n" + GUIDE})
    ingest_paths(guide, [folder], collection="docs", chunk_tokens=40)
    write_files(folder, {"doc.md": "---\nstatus: draft\n---\n# Doc\n\nDraft text.\n"})
    ingest_paths(guide, [folder], collection="docs", chunk_tokens=40)
    doc = guide.cursor().execute("SELECT id FROM documents WHERE key = 'doc.md'").fetchone()[0]
    scope = Scope(guide, NOT_DRAFT)
    old = navigate_document_tree(scope, TreeArgs(evidence_id=f"ev1:c:{doc}:1:0", relation="next"))
    # its status is computed over what it may read: the draft that superseded it is not there to it
    assert old.status == "ok" and old.version_status == "current"
    assert navigate_document_tree(scope, TreeArgs(evidence_id=f"ev1:c:{doc}:2:0",
        relation="next")).status == "unavailable"
    assert read(scope, ReadArgs(document="doc.md")).status == "unavailable"  # the current version is a draft
