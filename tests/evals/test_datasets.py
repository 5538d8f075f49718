"""Loaders: clew QA JSONL, multi-hop paragraphs, BEIR; malformed lines reported with line numbers."""

import json
from pathlib import Path
from types import ModuleType

import pytest

from clew.evals.datasets import DatasetError, load
from clew.evals.matching import matches, normalize
from tests.conftest import SQLITE_DOCS, needs_sqlite_docs
from tests.modules import load_module

GOOD = {"id": "q1", "question": "How long are logs kept?", "answers": ["30 days"],
        "evidence": ["Robot logs are kept for 30 days."], "sources": ["acme-notes.md"], "kind": "exact_term"}


def write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_clew_format_loads(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "q.jsonl", [json.dumps(GOOD), "", json.dumps({**GOOD, "id": "q2", "kind": "table"})])
    dataset = load(path)
    assert [q.id for q in dataset.questions] == ["q1", "q2"]
    assert dataset.questions[0].evidence == ("Robot logs are kept for 30 days.",)
    assert dataset.questions[1].kind == "table"
    assert dataset.problems == []


def test_malformed_lines_are_reported_with_their_numbers(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "q.jsonl", [
        json.dumps(GOOD),
        '{"id": "q2", "question": ',  # line 2: cut short
        json.dumps({**GOOD, "id": "q3", "evidence": []}),  # line 3: no gold
        json.dumps({**GOOD, "id": "q4", "question": "  "}),  # line 4: blank question
        json.dumps(GOOD),  # line 5: duplicate id
        "[1, 2]",  # line 6: not an object
    ])
    with pytest.raises(DatasetError) as caught:
        load(path)
    assert [(p.line, p.message.split(" ")[0]) for p in caught.value.problems] == [
        (2, "not"), (3, "evidence"), (4, "question"), (6, "not"), (5, "duplicate")]
    assert f"{path}:2: not JSON" in str(caught.value)
    assert "duplicate id 'q1' (first on line 1)" in str(caught.value)
    lenient = load(path, strict=False)
    assert [q.id for q in lenient.questions] == ["q1"]
    assert len(lenient.problems) == 5


MULTIHOP = [
    {"id": "m1", "question": "Where was the author of Foo born?", "answer": "Paris",
     "paragraphs": [
         {"title": "Foo", "paragraph_text": "Foo is a novel by Ann Bell.", "is_supporting": True},
         {"title": "Ann Bell", "paragraph_text": "Ann Bell was born in Paris.", "is_supporting": True},
         {"title": "Bar", "paragraph_text": "Bar is a river.", "is_supporting": False},
     ]},
    {"id": "m2", "question": "What is Bar?", "answer": "a river",
     "paragraphs": [
         {"title": "Bar", "paragraph_text": "Bar is a river.", "is_supporting": True},
         {"title": "Bar", "paragraph_text": "Bar flows north.", "is_supporting": False},
     ]},
]


@pytest.mark.parametrize("as_array", [True, False])
def test_multihop_builds_one_document_per_title(tmp_path: Path, as_array: bool) -> None:
    path = tmp_path / "mh.json"
    path.write_text(json.dumps(MULTIHOP) if as_array else "\n".join(json.dumps(m) for m in MULTIHOP))
    dataset = load(path, "multihop")
    first = dataset.questions[0]
    assert first.evidence == ("Foo is a novel by Ann Bell.", "Ann Bell was born in Paris.")
    assert first.sources == ("Foo", "Ann Bell")
    assert first.answers == ("Paris",)
    assert dataset.documents == [
        {"key": "Foo", "title": "Foo", "text": "Foo is a novel by Ann Bell."},
        {"key": "Ann Bell", "title": "Ann Bell", "text": "Ann Bell was born in Paris."},
        {"key": "Bar", "title": "Bar", "text": "Bar is a river.\n\nBar flows north."},
    ]
    written = dataset.write_corpus(tmp_path / "corpus")
    assert len(written.read_text().splitlines()) == 3


def test_multihop_malformed_items(tmp_path: Path) -> None:
    bad = [
        MULTIHOP[0],
        {"id": "m2", "question": "q?", "paragraphs": [{"title": "T", "paragraph_text": "x", "is_supporting": False}]},
        {"id": "m3", "question": "q?", "paragraphs": [{"title": "T"}]},
    ]
    path = tmp_path / "mh.jsonl"
    path.write_text("\n".join(json.dumps(b) for b in bad))
    with pytest.raises(DatasetError) as caught:
        load(path, "multihop")
    assert [(p.line, p.message) for p in caught.value.problems] == [
        (2, "no paragraph has is_supporting: true"), (3, "paragraph 1: missing field 'paragraph_text'")]


def make_beir(folder: Path, qrels_lines: list[str]) -> Path:
    (folder / "qrels").mkdir(parents=True)
    write_lines(folder / "corpus.jsonl", [json.dumps({"_id": "d1", "title": "Tea", "text": "Tea is brewed."}),
                                          json.dumps({"_id": "d2", "text": "Coffee is roasted."})])
    write_lines(folder / "queries.jsonl", [json.dumps({"_id": "1", "text": "how is tea made"}),
                                           json.dumps({"_id": "2", "text": "unjudged"})])
    write_lines(folder / "qrels" / "test.tsv", qrels_lines)
    return folder


def test_beir_layout(tmp_path: Path) -> None:
    dataset = load(make_beir(tmp_path / "beir", ["query-id\tcorpus-id\tscore", "1\td1\t2", "1\td2\t0"]), "beir")
    assert [(q.id, q.qrels, q.sources) for q in dataset.questions] == [("1", {"d1": 2, "d2": 0}, ("d1",))]
    assert dataset.documents[0] == {"key": "d1", "title": "Tea", "text": "Tea\n\nTea is brewed."}


def test_beir_malformed_qrels_row(tmp_path: Path) -> None:
    folder = make_beir(tmp_path / "beir", ["query-id\tcorpus-id\tscore", "1\td1\t2", "1\td2", "1\td2\tmany"])
    with pytest.raises(DatasetError) as caught:
        load(folder, "beir")
    assert [p.line for p in caught.value.problems] == [3, 4]
    assert caught.value.problems[0].path.endswith("test.tsv")


def _verify_module() -> ModuleType:
    return load_module("sqlite_docs_verify", SQLITE_DOCS / "verify.py")


@needs_sqlite_docs
def test_clew_matcher_agrees_with_verify_py_on_every_phrase() -> None:
    verify = _verify_module()
    dataset = load(SQLITE_DOCS / "questions.jsonl")
    # Each page's normalised blocks, joined by a line break. A normalised phrase holds no line break
    # (normalize turns every run of whitespace into one space; asserted below), so it occurs in the
    # joined text exactly when it occurs inside one block: the same question as asking every block
    # in turn, answered with one search per page instead of one normalisation per block (13 s -> 3 s).
    pages = {}
    for path in sorted((SQLITE_DOCS / "corpus").glob("*.html")):
        blocks = verify.extract_blocks(path.read_text(encoding="utf-8"))
        pages[path.name] = ("\n".join(verify.normalize(b) for b in blocks), "\n".join(normalize(b) for b in blocks))
    checked = 0
    for question in dataset.questions:
        for phrase in question.evidence:
            theirs_phrase = verify.normalize(phrase)
            assert normalize(phrase) == theirs_phrase and "\n" not in theirs_phrase
            for name, (theirs, ours) in pages.items():
                assert matches(phrase, ours) == (theirs_phrase in theirs), (question.id, phrase, name)
            checked += 1
    assert checked == 98  # the README's count
