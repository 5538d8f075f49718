"""The Ray executor (clew[ray]) on a local Ray instance with 2 CPUs gives the local executor's rows;
``benchmarks/ray_ingest.py`` ingests over Ray Data on the same instance.

One local Ray serves the module: a cluster's start costs about 4.5 s of CPU in its own processes
(GCS, raylet, agents, prestarted workers), so the benchmark script connects to this one
(``--address``) rather than starting its own.
"""

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from clew.corpus.store import Corpus
from clew.evals.datasets import Question
from clew.evals.runner import run_eval
from clew.evals.systems import SYSTEMS
from tests.test_benchmarks import run

ray = pytest.importorskip("ray", reason="the optional extra clew[ray] is not installed (make test installs it)")
# Ray warns about its own deprecated settings while it starts; not our code
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:ray")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[str]:
    """The address (its GCS's host:port) of a local Ray of 2 CPUs started for this module."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield ray.get_runtime_context().gcs_address
    ray.shutdown()


def rows_without_latency(path: Path) -> list[dict]:
    return [{k: v for k, v in json.loads(line).items() if k != "latency_s"} for line in path.read_text().splitlines()]


def test_ray_matches_local(local_ray: str, notes_db: Path, questions: list[Question], tmp_path: Path) -> None:
    from clew.evals.ray_executor import RayExecutor

    systems = [SYSTEMS["bm25"], SYSTEMS["tree-ranked"], SYSTEMS["graph-ranked"]]
    # one actor: each is a worker process of its own (about 2.3 s of CPU to start, import and open the corpus);
    # the CLI's run below (--concurrency 2) has two
    with Corpus(notes_db, read_only=True) as corpus:
        local = asyncio.run(run_eval(questions, systems, corpus, tmp_path / "local", budget_tokens=300))
        remote = asyncio.run(run_eval(questions, systems, corpus, tmp_path / "ray", budget_tokens=300,
                                      executor=RayExecutor(str(notes_db), budget_tokens=300, concurrency=1)))
    assert rows_without_latency(tmp_path / "ray" / "results.jsonl") == rows_without_latency(
        tmp_path / "local" / "results.jsonl"
    )
    for name in local["systems"]:
        assert remote["systems"][name]["evidence_recall"] == local["systems"][name]["evidence_recall"]


def test_cli_executor_ray(local_ray: str, notes_db: Path, questions_file: Path, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from clew.cli import app

    args = [
        "eval",
        str(questions_file),
        "--db",
        str(notes_db),
        "--systems",
        "bm25,tree-ranked",
        "--budget-tokens",
        "300",
    ]
    runner = CliRunner()
    assert runner.invoke(app, [*args, "--out", str(tmp_path / "local")]).exit_code == 0
    result = runner.invoke(app, [*args, "--out", str(tmp_path / "ray"), "--executor", "ray", "--concurrency", "2"])
    assert result.exit_code == 0, result.output
    assert rows_without_latency(tmp_path / "ray" / "results.jsonl") == rows_without_latency(
        tmp_path / "local" / "results.jsonl"
    )


def test_ray_ingest_stores_the_same_chunks_as_the_plain_ingest(local_ray: str, tmp_path: Path) -> None:
    """``benchmarks/ray_ingest.py`` at a tiny scale, on this module's Ray (it runs the other tests'
    settings: 2 CPUs, no dashboard)."""
    out = run("ray_ingest.py", "--chunks", "200", "--cpus", "2", "--address", local_ray, cwd=tmp_path)
    generated = out["generated_markdown"]
    assert generated["same_chunks"] is True and generated["stored_documents"] == 10
    for name in ("plain_workers_1", "plain_workers_auto", "ray"):
        assert (generated[name]["documents"], generated[name]["chunks"], generated[name]["skipped"]) == (10, 200, 0)
        assert generated[name]["seconds"] > 0 and generated[name]["driver_cpu_seconds"] >= 0
    assert generated["ray"]["children_cpu_seconds"] > 0  # the Ray tasks' work is done outside the driver
    assert set(generated["ray_over_plain_workers_1"]) == {"seconds", "driver_cpu_seconds"}
    assert out["cpus"] == 2 and out["ray_init_seconds"] > 0 and out["address"] == local_ray
