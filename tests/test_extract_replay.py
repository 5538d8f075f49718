"""``benchmarks/extract_replay.py``: the extract replayed on a dumped pack gives the extract's figures, says
why each held phrase it leaves out was left out, and lists the questions whose extract changed."""

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from clew.agent.generate import CITATION, extractive_answer
from clew.evals.metrics import evidence_found

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "extract_replay.py"
QUESTION = "What is the default cache size in pages?"
PASSAGES = [
    [
        "ev1:c:1:1:0",
        "The page cache holds recently read pages. The default cache size is 2000 pages. "
        "Unrelated trailing words appear here without overlap.",
        2.0,
        ["Caching"],
    ],
    ["ev1:c:2:1:0", "A larger cache size needs more memory for its pages.", 1.0, ["Memory"]],
]
PHRASES = [
    "The default cache size is 2000 pages",
    "needs more memory for its pages",
    "trailing words appear here",
    "holds recently read pages. The default",
    "not in the pack at all",
]


@pytest.fixture(scope="module")
def replay_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("extract_replay", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["extract_replay"] = module
    spec.loader.exec_module(module)
    return module


def _dump(tmp_path: Path) -> tuple[Path, Path]:
    folder = tmp_path / "tiny"
    (folder / "corpus").mkdir(parents=True)
    (folder / "corpus" / "a.md").write_text("# Caching\n")
    question = {"id": "t-1", "question": QUESTION, "answers": ["2000 pages"], "evidence": PHRASES, "kind": "fact"}
    (folder / "questions.jsonl").write_text(json.dumps(question) + "\n")
    dump = tmp_path / "dump.jsonl"
    dump.write_text(
        json.dumps({"set": "tiny", "id": "t-1", "question": QUESTION, "answers": ["2000 pages"], "evidence": PASSAGES})
        + "\n"
    )
    return folder, dump


def _run(module: ModuleType, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str) -> dict:
    monkeypatch.setattr(sys, "argv", ["extract_replay.py", *args])
    module.main()
    return json.loads(capsys.readouterr().out)


def test_figures_are_the_extracts(
    replay_module: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, dump = _dump(tmp_path)
    out = tmp_path / "before.jsonl"
    report = _run(replay_module, capsys, monkeypatch, str(dump), "--sets", str(folder), "--out", str(out))
    generation = extractive_answer(
        QUESTION, [(e, t) for e, t, _, _ in PASSAGES], paths={e: p for e, _, _, p in PASSAGES}
    )
    assert generation is not None
    text = CITATION.sub("", generation.answer)
    held = [p for p, f in zip(PHRASES, evidence_found(PHRASES, [t for _, t, _, _ in PASSAGES]), strict=True) if f]
    assert len(held) == 4  # the last phrase is in no passage
    kept = sum(evidence_found(held, [text]))
    assert report["sets"]["tiny"]["phrases"] == [kept, 4]
    assert report["sets"]["tiny"]["answers"] == [1, 1]
    row = json.loads(out.read_text())
    assert row["answer"] == generation.answer and row["kept"] == kept


def test_why_and_what_changed(
    replay_module: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, dump = _dump(tmp_path)
    out = tmp_path / "before.jsonl"
    _run(replay_module, capsys, monkeypatch, str(dump), "--sets", str(folder), "--out", str(out))
    # room for the best unit alone: the other passage's sentence is reached and does not fit
    report = _run(
        replay_module,
        capsys,
        monkeypatch,
        str(dump),
        "--sets",
        str(folder),
        "--extract-tokens",
        "5",
        "--against",
        str(out),
        "--why",
    )
    causes = {w["phrase"]: w["cause"] for w in report["why"]}
    assert causes == {
        "needs more memory for its pages": "reached, not chosen",
        "trailing words appear here": "scores 0",
        "holds recently read pages. The default": "no unit",
    }
    reached = next(w for w in report["why"] if w["cause"] == "reached, not chosen")
    assert reached["rank"] == 1 and reached["passage_quoted"] is False and reached["quoted_ranks"] == [0]
    assert report["sets"]["tiny"]["phrases"] == [1, 4]
    assert [(c["id"], c["kept"][1]) for c in report["changed"]] == [("t-1", 1)]
    assert report["changed"][0]["kept"][0] > 1
