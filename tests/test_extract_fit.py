"""``benchmarks/extract_fit.py``: its features reproduce the shipped extract, and its fits learn.

The script fits the extract's unit score on the packs ``benchmarks/extract.py --dump`` writes;
here small packs of real questions of three sets stand in for a dump (a gold phrase in one sentence,
sentences that share more of the question's words around it).
"""

import importlib.util
import json
import math
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from clew.agent import generate
from tests.conftest import needs_sqlite_docs

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "extract_fit.py"


@pytest.fixture(scope="module")
def fit_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("extract_fit", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["extract_fit"] = module  # dataclasses resolve their module by name
    spec.loader.exec_module(module)
    return module


GOLD = {
    "sqlite-007": [
        ("d:lang_createtable:1", "CREATE TABLE AS SELECT statements create a table from a SELECT. The new table "
         "has one column for each column of the SELECT result, and the expression of each column is used "
         "as it is. A CREATE TABLE AS SELECT table has no PRIMARY KEY and no constraints of any kind."),
        ("d:lang_createtable:2", "The declared type of each column is determined by the expression affinity of "
         "the corresponding expression in the result set of the SELECT statement. An expression with "
         "NUMERIC affinity gets the declared type \"NUM\"."),
    ],
    "npm-001": [
        ("d:npm-stage:1", "npm stage lists, approves and rejects staged packages. Each npm stage subcommand "
         "works on the staged package that npm stage publish created, and each subcommand prints what it did."),
        ("d:npm-stage:2", "npm stage approve: Prompts for 2FA to publish the staged package. npm stage reject: "
         "Prompts for 2FA to permanently remove the staged package."),
    ],
    "pg-001": [
        ("d:limits:1", "PostgreSQL has limits on the size of a table, a row and a field. A table or an index "
         "cannot hold more rows than fit in its pages, and a table can have at most 1600 columns."),
        ("d:limits:2", "The maximum relation size is 32 TB, with the default BLCKSZ of 8192 bytes. A larger "
         "block size raises it."),
    ],
}
SETS = {"sqlite": "sqlite-docs", "npm": "npm-docs", "pg": "evals/postgresql-docs"}


def write_dump(path: Path, named: bool = True, titled: bool = False) -> Path:
    """A dump of ``GOLD``'s packs, each row naming its set (as extract.py writes it) unless not ``named``; each
    passage with its document's title (as extract.py writes it since task X28) when ``titled``."""
    rows = []
    for qid, evidence in GOLD.items():
        spec = SETS[qid.split("-")[0]]
        folder = Path(__file__).resolve().parents[1 if spec.startswith("evals/") else 2] / (
            spec if spec.startswith("evals/") else f"shared/evals/{spec}")
        lines = (folder / "questions.jsonl").read_text().splitlines()
        gold = next(q for q in map(json.loads, lines) if q["id"] == qid)
        rows.append({**({"set": folder.name} if named else {}), "id": qid, "question": gold["question"],
                     "evidence": [[e, text, 1.0 / (1 + k), ["Page", f"Section {k}"],
                                   *([e.split(":")[1]] if titled else [])]
                                  for k, (e, text) in enumerate(evidence)]})
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def load(module: ModuleType, path: Path, specs: str = ",".join(SETS.values())) -> dict:
    return module.load(path, module.resolve_all(specs))


@needs_sqlite_docs
def test_the_shipped_weights_give_the_shipped_extract(fit_module: ModuleType, tmp_path: Path) -> None:
    packs = load(fit_module, write_dump(tmp_path / "dump.jsonl"))
    assert {name: len(group) for name, group in packs.items()} == {"sqlite-docs": 1, "npm-docs": 1,
                                                                   "postgresql-docs": 1}
    shipped = fit_module.Model(np.array([fit_module.SHIPPED.get(f, 0.0) for f in fit_module.FEATURES]),
                               keep=generate.KEEP)
    for pack in [p for group in packs.values() for p in group]:
        assert pack.held, pack.id  # each pack holds a gold phrase
        for budget in (40, 80, 250):
            assert fit_module.run(pack, shipped, max_tokens=budget) == fit_module.run(pack, None, max_tokens=budget)


@needs_sqlite_docs
def test_the_examples_label_the_units_that_hold_a_gold_phrase(fit_module: ModuleType, tmp_path: Path) -> None:
    packs = load(fit_module, write_dump(tmp_path / "dump.jsonl"))
    pack = packs["sqlite-docs"][0]
    record: list = []
    fit_module.run(pack, None, record)
    [(x, y)] = fit_module.examples([pack])
    assert x.shape == (len(record), len(fit_module.FEATURES))
    holders = [unit.text for (_, unit), labels in zip(record, y, strict=True) if labels.any()]
    assert holders and all("expression affinity" in text or "NUMERIC" in text for text in holders)
    assert not y.all()  # the distractor sentences hold no gold phrase


@needs_sqlite_docs
def test_a_listwise_fit_ranks_the_holders_first_on_its_training_packs(fit_module: ModuleType,
                                                                       tmp_path: Path) -> None:
    packs = load(fit_module, write_dump(tmp_path / "dump.jsonl"))
    data = fit_module.examples([p for group in packs.values() for p in group])
    model = fit_module.fit(data, 0.001, "listwise", 1.0)
    assert all(math.isfinite(w) for w in model.weights)
    for x, y in data:
        scores = [model.score(row) for row in x]
        best = max(range(len(scores)), key=scores.__getitem__)
        assert y[best].any(), (scores, y.tolist())
    pulled = fit_module.fit(data, 1e6, "listwise", 1.0)  # a pull this strong keeps the shipped weights
    prior = np.array([fit_module.SHIPPED.get(f, 0.0) for f in fit_module.FEATURES])
    assert np.allclose(pulled.weights - np.eye(len(prior))[fit_module.FEATURES.index("length")], prior, atol=1e-3)


@needs_sqlite_docs
def test_each_set_is_held_out_once_and_the_rest_train(fit_module: ModuleType, tmp_path: Path) -> None:
    packs = load(fit_module, write_dump(tmp_path / "dump.jsonl"))
    folds = fit_module.splits(packs)
    assert [[p.id for p in test] for _, test in folds] == [["sqlite-007"], ["npm-001"], ["pg-001"]]
    assert [sorted(p.id for p in train) for train, _ in folds] == [
        ["npm-001", "pg-001"], ["pg-001", "sqlite-007"], ["npm-001", "sqlite-007"]]
    one = {"sqlite-docs": packs["sqlite-docs"] * 5}  # one set: 5 folds of its questions
    assert [(len(train), len(test)) for train, test in fit_module.splits(one)] == [(4, 1)] * 5


@needs_sqlite_docs
def test_a_row_without_its_set_is_found_by_its_id_and_a_set_not_named_is_refused(fit_module: ModuleType,
                                                                                  tmp_path: Path) -> None:
    unnamed = load(fit_module, write_dump(tmp_path / "old.jsonl", named=False))
    assert {name: [p.id for p in group] for name, group in unnamed.items()} == {
        "sqlite-docs": ["sqlite-007"], "npm-docs": ["npm-001"], "postgresql-docs": ["pg-001"]}
    with pytest.raises(SystemExit, match=r"line 3: question 'pg-001' of set 'postgresql-docs' is not in --sets "
                                         r"\(sqlite-docs, npm-docs\)"):
        load(fit_module, write_dump(tmp_path / "dump.jsonl"), "sqlite-docs,npm-docs")


@needs_sqlite_docs
def test_a_dump_with_document_titles_loads_them_and_one_without_loads_none(fit_module: ModuleType,
                                                                           tmp_path: Path) -> None:
    titled = load(fit_module, write_dump(tmp_path / "titled.jsonl", titled=True))
    old = load(fit_module, write_dump(tmp_path / "old.jsonl"))
    assert titled["npm-docs"][0].titles == {"d:npm-stage:1": "npm-stage", "d:npm-stage:2": "npm-stage"}
    assert [p.titles for group in old.values() for p in group] == [{}, {}, {}]
    assert [(p.evidence, p.paths) for group in titled.values() for p in group] == [
        (p.evidence, p.paths) for group in old.values() for p in group]


def test_a_knob_is_moved_for_the_run_and_put_back(fit_module: ModuleType) -> None:
    path, length = generate.PATH, generate.LENGTH
    with fit_module.knob("PATH", 0.0), fit_module.knob("LENGTH", 20.0):
        assert (generate.PATH, generate.LENGTH) == (0.0, 20)
        assert isinstance(generate.LENGTH, int)  # a knob keeps its type
    assert (generate.PATH, generate.LENGTH) == (path, length)


@needs_sqlite_docs
def test_only_features_that_move_the_same_way_on_every_training_set_are_freed(fit_module: ModuleType,
                                                                               tmp_path: Path) -> None:
    packs = load(fit_module, write_dump(tmp_path / "dump.jsonl"))
    features = fit_module.FEATURES
    prior = np.array([fit_module.SHIPPED.get(f, 0.0) + (f == "length") for f in features])
    moves = {name: np.sign(fit_module.fit(fit_module.examples(group), 0.3, "listwise", 1.0).weights - prior)
             for name, group in packs.items()}
    agree = tuple(f for i, f in enumerate(features) if len({m[i] for m in moves.values()} - {0.0}) == 1
                  and 0.0 not in {m[i] for m in moves.values()})
    assert fit_module.agreeing(packs, "listwise", 1.0) == agree
    assert set(agree) < set(features)  # three sets of one question each disagree somewhere
    assert set(fit_module.agreeing(packs, "listwise", 1.0, among=("share", "walk", "row"))) <= {"share", "walk", "row"}
    twice = {"a": packs["sqlite-docs"], "b": packs["sqlite-docs"]}  # a set agrees with itself on every move
    moved = tuple(f for f, m in zip(features, moves["sqlite-docs"], strict=True) if m)
    assert fit_module.agreeing(twice, "listwise", 1.0) == moved
