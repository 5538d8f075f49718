import pytest

from clew.corpus.reader import Scope
from clew.corpus.store import Corpus
from clew.errors import InputError
from clew.navigation.evidence import CitationArgs, FetchArgs, check_citations, fetch_evidence
from clew.navigation.ledger import EvidenceLedger
from clew.navigation.slices import SliceArgs, fetch_slice
from clew.navigation.tree import TreeArgs, navigate_document_tree
from clew.tools.builtin import registry
from clew.tools.registry import ToolContext
from tests.navigation.conftest import chunk_rows


@pytest.fixture
def rows(guide: Corpus) -> list[tuple]:
    return chunk_rows(guide, "guide.md")


def test_slice_centred_on_a_passage(scope: Scope, rows: list[tuple]) -> None:
    ids = [r[0] for r in rows]
    result = fetch_slice(scope, SliceArgs(id=ids[5]))
    assert [p.evidence_id for p in result.passages] == ids[4:7]
    assert [(p.index, p.total) for p in result.passages] == [(4, 11), (5, 11), (6, 11)]
    assert result.parent_id == ids[0].rsplit(":", 1)[0].replace(":c:", ":d:")
    assert result.passages[0].breadcrumb == "Guide > Usage"
    assert (result.sliced, result.covers_parent, result.truncated) == (True, False, False)
    # at the ends the window shifts inwards
    assert [p.index for p in fetch_slice(scope, SliceArgs(id=ids[0], window=4)).passages] == [0, 1, 2, 3]
    assert [p.index for p in fetch_slice(scope, SliceArgs(id=ids[-1], window=4)).passages] == [7, 8, 9, 10]


def test_slice_of_a_document_or_section(scope: Scope, rows: list[tuple]) -> None:
    doc = rows[0][0].rsplit(":", 1)[0].replace(":c:", ":d:")
    whole = fetch_slice(scope, SliceArgs(id=doc, window=64))
    assert [p.evidence_id for p in whole.passages] == [r[0] for r in rows] and whole.covers_parent is True
    assert whole.applied == {"window": 64, "content_max_chars": 18000}
    section = fetch_slice(scope, SliceArgs(id=doc.replace(":d:", ":s:") + ":5", window=2))  # Usage
    assert [p.index for p in section.passages] == [3, 4]
    cut = fetch_slice(scope, SliceArgs(id=doc, window=64, content_max_chars=30))
    assert cut.truncated is True and cut.covers_parent is False and sum(len(p.text) for p in cut.passages) == 30


def test_slice_of_a_document_key_reads_its_current_version(scope: Scope, rows: list[tuple]) -> None:
    """A document's key where an id was meant (``clew slice tcl/lsort.html``, task U9; ``read`` and ``grep``
    take one): its current version's first passages, as its document id gives; an unknown key is unavailable, and
    says it is a key (a title typed for a key, ``clew slice 'Tags Overview'``, read "no readable passage has this id";
    task U12)."""
    doc = rows[0][0].rsplit(":", 1)[0].replace(":c:", ":d:")
    by_key = fetch_slice(scope, SliceArgs(id="guide.md", window=4))
    assert by_key == fetch_slice(scope, SliceArgs(id=doc, window=4))
    assert [p.evidence_id for p in by_key.passages] == [r[0] for r in rows[:4]] and by_key.document_key == "guide.md"
    missing = fetch_slice(scope, SliceArgs(id="no/such.md"))
    assert (missing.status, missing.detail, missing.passages) == (
        "unavailable", "no readable document has this key", [])
    assert fetch_slice(scope, SliceArgs(id="ev1:x")).status == "malformed"
    assert fetch_slice(scope, SliceArgs(id="ev1:c:999:1:0")).detail == "no readable passage has this id"


def test_single_passage_document_is_not_sliced(scope: Scope, guide: Corpus) -> None:
    (only,) = chunk_rows(guide, "secret.md")
    result = fetch_slice(scope, SliceArgs(id=only[0], window=5))
    assert (result.sliced, result.covers_parent, len(result.passages)) == (False, True, 1)


def test_fetch_records_only_full_passages(scope: Scope, rows: list[tuple]) -> None:
    ledger = EvidenceLedger()
    a, b, c = rows[0][0], rows[3][0], rows[9][0]
    # navigation output is not citable until fetched
    seen = navigate_document_tree(scope, TreeArgs(evidence_id=a, relation="next")).items[0].evidence_id
    assert check_citations(scope, CitationArgs(ids=[seen]), ledger).verdicts[0].reason == "not_fetched"
    first = "Guide\n\nIntro paragraph of the guide, which says what the guide is for."  # rows[0][5], as items show it
    budget = len(first) + 10
    result = fetch_evidence(scope, FetchArgs(ids=[a, b, "ev1:c:999:1:0", "junk", c], max_chars=budget), ledger=ledger)
    entries = {str(e.id): e for e in result.evidence}
    assert entries[a].recorded is True and entries[a].item.text == first
    assert entries[b].recorded is False and entries[b].item.text_truncated is True and len(entries[b].item.text) == 10
    assert entries[c].recorded is False and entries[c].item is None
    assert entries["ev1:c:999:1:0"].status == "unavailable" and entries["junk"].status == "malformed"
    assert ledger.ids == [a]
    report = check_citations(scope, CitationArgs(ids=[a, b, "ev1:c:999:1:0", "junk"]), ledger)
    assert [(v.citable, v.reason) for v in report.verdicts] == [
        (True, "ok"), (False, "not_fetched"), (False, "unavailable"), (False, "malformed")]
    assert report.citable == [a] and report.all_citable is False
    fetch_evidence(scope, FetchArgs(ids=[b]), ledger=ledger)
    assert check_citations(scope, CitationArgs(ids=[a, b]), ledger).all_citable is True


def test_evidence_bad_input(scope: Scope) -> None:
    # a tool's arguments are validated once, where they come in (the registry, for every front end)
    for tool, arguments, field in (("fetch_evidence", {"ids": []}, "ids"),
                                   ("fetch_evidence", {"ids": ["ev1:c:1:1:0"] * 51}, "ids"),
                                   ("fetch_evidence", {"ids": [" "]}, "ids.0"),
                                   ("check_citations", {"ids": "ev1:c:1:1:0"}, "ids"),
                                   ("fetch_slice", {"id": "ev1:c:1:1:0", "window": "3"}, "window")):
        with pytest.raises(InputError) as caught:
            registry.call(tool, arguments, ToolContext(scope, EvidenceLedger()))
        assert caught.value.field == field
    assert fetch_evidence(scope, FetchArgs(ids=["ev1:d:1:1"])).evidence[0].status == "malformed"
    assert fetch_slice(scope, SliceArgs(id="ev1:c:1:1:0", window=1000)).applied["window"] == 64
