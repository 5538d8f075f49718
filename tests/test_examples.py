"""Every script in examples/ runs, as a user runs it (a fresh interpreter), with a fake or scripted
model: none of them calls a remote model, and none needs a key."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT, write_files

EXAMPLES = ROOT / "examples"
QUESTION = "What error rate means a deploy should be rolled back?"
DOCS = {
    "backups.md": "# Backups\n\n## Restore\n\nRestore the latest backup with `backupctl restore --latest`, then "
                  "check the row counts.\n",
    "alerts.md": "# Alerts\n\n## Paging\n\nA disk alert pages the storage on-call.\n",
}
TESTED = {"batch_qa.py", "mcp_client.py", "langchain_chain.py", "llama_index_query_engine.py", "pydantic_ai_agent.py",
          "openai_agents_agent.py"}


NO_NETWORK = """import socket

_connect = socket.socket.connect


def _loopback_only(self, address):
    host = address[0] if isinstance(address, tuple) else address
    if self.family != socket.AF_UNIX and not (str(host).startswith("127.") or host in ("localhost", "::1")):
        raise ConnectionRefusedError(f"an example may not reach the network ({address!r})")
    return _connect(self, address)


socket.socket.connect = _loopback_only
"""
"""A sitecustomize for the examples' processes (and the servers they start): loopback only."""


def run(script: str, *args: str | Path, cwd: Path) -> str:
    site = cwd / "site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(NO_NETWORK)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, str(EXAMPLES / script), *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-4000:]
    return done.stdout


def test_an_example_cannot_reach_the_network(tmp_path: Path) -> None:
    script = tmp_path / "reach.py"
    script.write_text("import socket\nsocket.create_connection(('192.0.2.1', 80), timeout=5)\n")
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "sitecustomize.py").write_text(NO_NETWORK)
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(tmp_path / "site")})
    assert "an example may not reach the network (('192.0.2.1', 80))" in done.stderr, done.stderr


def test_every_example_is_run_here() -> None:
    assert {path.name for path in EXAMPLES.glob("*.py")} == TESTED


def test_batch_qa_answers_every_question_of_a_folder(tmp_path: Path) -> None:
    docs = write_files(tmp_path / "docs", DOCS)
    questions = tmp_path / "questions.txt"
    questions.write_text("How do I restore the latest backup?\n\nWho is paged for a disk alert?\n")
    lines = [json.loads(line) for line in run("batch_qa.py", docs, questions, cwd=tmp_path).splitlines()]
    assert lines[0] == {"documents": 2, "chunks": 2, "skipped": 0}
    assert [line["question"] for line in lines[1:]] == ["How do I restore the latest backup?",
                                                       "Who is paged for a disk alert?"]
    assert "backupctl restore --latest" in lines[1]["answer"] and "storage on-call" in lines[2]["answer"]
    assert all(line["citations"] and line["stop"].startswith("ok") for line in lines[1:])
    assert set(tmp_path.iterdir()) == {docs, questions, tmp_path / "site"}  # the corpus was a temporary file


def test_mcp_client_searches_fetches_and_may_cite(tmp_path: Path) -> None:
    out = run("mcp_client.py", cwd=tmp_path)
    tools = out.splitlines()[0]
    assert tools.startswith("tools: ") and {"search", "fetch_evidence", "check_citations", "retrieve"} <= set(
        tools.removeprefix("tools: ").split(", "))
    assert "deploy-rollback.md  Rolling back a deploy" in out
    assert ": ok\n" in out and ": True\n" in out and "retrieve: ok," in out


def test_langchain_chain_shows_the_model_the_walks_passages(tmp_path: Path) -> None:
    out = run("langchain_chain.py", cwd=tmp_path)
    assert out.startswith("answer: (a scripted answer")
    shown = [line.strip() for line in out.splitlines() if line.startswith("  [ev1:")]
    assert len(shown) >= 3 and shown[0].split("] ")[1].startswith("deploy-rollback.md: Rolling back a deploy")


def test_llama_index_query_engine_reads_the_walks_passages(tmp_path: Path) -> None:
    out = run("llama_index_query_engine.py", cwd=tmp_path)
    assert "evidence_id: ev1:" in out and "document_key: deploy-rollback.md" in out
    sources = out.split("sources:\n")[1].splitlines()
    assert len(sources) >= 3 and "deploy-rollback.md: Rolling back a deploy" in sources[0]


def test_pydantic_ai_agent_calls_clew_and_cites_what_it_returned(tmp_path: Path) -> None:
    docs = write_files(tmp_path / "docs", DOCS)
    out = run("pydantic_ai_agent.py", docs, "How do I restore the latest backup?", cwd=tmp_path)
    answer, calls = out.splitlines()
    assert answer.startswith("answer: Restore the latest backup with `backupctl restore --latest`")
    assert answer.endswith("]") and "[ev1:c:" in answer
    assert calls == "tool calls: search_docs({'query': 'How do I restore the latest backup?'})"
    default = run("pydantic_ai_agent.py", cwd=tmp_path)
    assert "error rate" in default.splitlines()[0] and "[ev1:c:" in default


def test_openai_agents_agent_calls_clew_and_cites_what_it_returned(tmp_path: Path) -> None:
    docs = write_files(tmp_path / "docs", DOCS)
    out = run("openai_agents_agent.py", docs, "Who is paged for a disk alert?", cwd=tmp_path)
    answer, calls = out.splitlines()
    assert answer.startswith("answer: A disk alert pages the storage on-call. [ev1:c:")
    assert calls == 'tool calls: search_docs({"query": "Who is paged for a disk alert?"})'
