"""``benchmarks/extract_fit.py``: its features reproduce the shipped extract, and its fits learn.

The script fits the extract's unit score on the packs ``benchmarks/extract.py --dump`` writes;
here two small packs of real dev-set questions stand in for a dump (a gold phrase in one sentence,
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
}


def write_dump(path: Path) -> Path:
    sets = {"sqlite": "sqlite-docs", "npm": "npm-docs"}
    rows = []
    for qid, evidence in GOLD.items():
        questions = Path(__file__).resolve().parents[2] / "shared" / "evals" / sets[qid.split("-")[0]]
        lines = (questions / "questions.jsonl").read_text().splitlines()
        gold = next(q for q in map(json.loads, lines) if q["id"] == qid)
        rows.append({"id": qid, "question": gold["question"],
                     "evidence": [[e, text, 1.0 / (1 + k), ["Page", f"Section {k}"]]
                                  for k, (e, text) in enumerate(evidence)]})
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


@needs_sqlite_docs
def test_the_shipped_weights_give_the_shipped_extract(fit_module: ModuleType, tmp_path: Path) -> None:
    packs = fit_module.load(write_dump(tmp_path / "dump.jsonl"))
    assert [len(packs[name]) for name in fit_module.SETS] == [1, 1]
    shipped = fit_module.Model(np.array([fit_module.SHIPPED.get(f, 0.0) for f in fit_module.FEATURES]),
                               keep=generate.KEEP)
    for pack in packs["sqlite-docs"] + packs["npm-docs"]:
        assert pack.held, pack.id  # each pack holds a gold phrase
        for budget in (40, 80, 250):
            assert fit_module.run(pack, shipped, max_tokens=budget) == fit_module.run(pack, None, max_tokens=budget)


@needs_sqlite_docs
def test_the_examples_label_the_units_that_hold_a_gold_phrase(fit_module: ModuleType, tmp_path: Path) -> None:
    packs = fit_module.load(write_dump(tmp_path / "dump.jsonl"))
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
    packs = fit_module.load(write_dump(tmp_path / "dump.jsonl"))
    data = fit_module.examples(packs["sqlite-docs"] + packs["npm-docs"])
    model = fit_module.fit(data, 0.001, "listwise", 1.0)
    assert all(math.isfinite(w) for w in model.weights)
    for x, y in data:
        scores = [model.score(row) for row in x]
        best = max(range(len(scores)), key=scores.__getitem__)
        assert y[best].any(), (scores, y.tolist())
    pulled = fit_module.fit(data, 1e6, "listwise", 1.0)  # a pull this strong keeps the shipped weights
    prior = np.array([fit_module.SHIPPED.get(f, 0.0) for f in fit_module.FEATURES])
    assert np.allclose(pulled.weights - np.eye(len(prior))[fit_module.FEATURES.index("length")], prior, atol=1e-3)
