"""``clew serve``, ``clew mcp`` and ``clew config check`` as commands and as subprocesses."""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from typer.testing import CliRunner

from clew.cli import app
from clew.config.settings import load_config
from clew.corpus.reader import Scope
from clew.corpus.store import Corpus
from clew.navigation.tree import TreeArgs, navigate_document_tree
from clew.server.mcp import build_server
from clew.server.rest import create_app
from tests.envelope import result as result_of

from .conftest import ACME, ADMIN, auth, free_port, wait_for_mcp_http

runner = CliRunner()
CLEW = [sys.executable, "-m", "clew.cli"]
NAV = {"evidence_id": ACME[0], "relation": "next", "limit": 3, "max_chars": 4000}


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONUNBUFFERED": "1"}


# -- clew config check ----------------------------------------------------------------------

def test_config_check_accepts_a_good_file(config_path: Path) -> None:
    result = runner.invoke(app, ["config", "check", str(config_path)])
    assert result.exit_code == 0, result.output
    assert "ok (3 principals, 3 API keys)" in result.stdout


@pytest.mark.parametrize(("text", "field"), [
    ("[principals.a]\nrow_filter = { tern = { x = 1 } }\n", "principals.a.row_filter"),
    ("[principals.a]\ntools = ['serch']\n", "principals.a.tools"),
    ("[[api_keys]]\nkey = 'long-enough-key'\nprincipal = 'ghost'\n", "api_keys.0.principal"),
    ("[principals.a]\n[[api_keys]]\nkey = 'short'\nprincipal = 'a'\n", "api_keys.0.key"),
    ("[budgets]\nmax_tool_calls = 'many'\n", "budgets.max_tool_calls"),
    ("[budgets]\ncontext_budget_tokens = -5\n", "budgets.context_budget_tokens"),
    ("[budgets]\nmax_tool_calls = 21\n", "budgets.max_tool_calls"),
    ("[budgets]\nmax_internal_iterations = 0\n", "budgets.max_internal_iterations"),
    ("[budgets]\ntimeout_seconds = nan\n", "budgets.timeout_seconds"),
    ("[budgets]\ntimeout_seconds = inf\n", "budgets.timeout_seconds"),
    ("[principals.a]\nrow_filter = { range = { year = { lt = nan } } }\n", "principals.a.row_filter"),
    ("[principals.a]\nrow_filter = { range = { year = { gte = -inf } } }\n", "principals.a.row_filter"),
    ("[principals.a]\nrow_filter = { term = { score = nan } }\n", "principals.a.row_filter"),
    ("[principals.a]\nrow_filter = { bool = { must = [ { terms = { score = [1, inf] } } ] } }\n",
     "principals.a.row_filter"),
    ("databse = 'x.duckdb'\n", "databse"),
    ("default_collection = = 1\n", "config"),
])
def test_config_check_names_the_bad_field(tmp_path: Path, text: str, field: str) -> None:
    path = tmp_path / "clew.toml"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["config", "check", str(path)])
    assert result.exit_code == 2
    assert f"error: {field}:" in " ".join(result.stderr.split())


EXTRA = "Extra inputs are not permitted; did you mean"


@pytest.mark.parametrize(("text", "said"), [
    ("databse = 'x.duckdb'\n", f"databse: {EXTRA} 'database'?"),
    ("[budgets]\nmax_tool_call = 5\n", f"budgets.max_tool_call: {EXTRA} 'max_tool_calls'?"),
    ("[model_options]\nmax_token = 64\n", f"model_options.max_token: {EXTRA} 'max_tokens'?"),
])
def test_config_check_names_the_key_meant(tmp_path: Path, text: str, said: str) -> None:
    path = tmp_path / "clew.toml"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["config", "check", str(path)])
    assert result.exit_code == 2 and f"error: {said}" in " ".join(result.stderr.split()), result.stderr


def test_environment_overrides_the_file(config_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLEW_DEFAULT_COLLECTION", "from-env")
    monkeypatch.setenv("CLEW_BUDGETS__MAX_TOOL_CALLS", "7")
    config = load_config(config_path)
    assert (config.default_collection, config.budgets.max_tool_calls) == ("from-env", 7)


# -- clew serve: refusals, and the lock a second writer meets ------------------------------

def test_serve_refuses_no_auth_off_loopback(db_path: Path) -> None:
    result = runner.invoke(app, ["serve", "--db", str(db_path), "--host", "0.0.0.0", "--no-auth"])
    assert result.exit_code == 2 and "loopback" in result.stderr


def test_serve_refuses_to_run_without_keys(db_path: Path) -> None:
    result = runner.invoke(app, ["serve", "--db", str(db_path)])
    assert result.exit_code == 2 and "no API keys" in result.stderr


def wait_healthy(url: str, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 30
    with httpx.Client(timeout=1) as http:  # one for the wait (a client's SSL context is about 20 ms of CPU)
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise AssertionError(f"the server exited: {process.stderr.read() if process.stderr else ''}")
            try:
                if http.get(f"{url}/healthz").status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.1)
    raise TimeoutError(url)


def test_a_separate_ingest_meets_a_clear_lock_error_while_the_server_holds_the_file(
        db_path: Path, config_path: Path, acme_path: Path, tmp_path: Path) -> None:
    port = free_port()
    server = subprocess.Popen([*CLEW, "serve", "--db", str(db_path), "--config", str(config_path),
                               "--port", str(port)], env=env(), stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, server)
        other = tmp_path / "other.md"
        other.write_text("# Other\n\nA second writer.\n", encoding="utf-8")
        # the second writer in this process (a process other than the server's, as a user's second command is)
        ingest = runner.invoke(app, ["ingest", str(other), "--db", str(db_path), "--collection", "notes"])
        assert ingest.exit_code == 3  # a store failure
        assert "lock" in ingest.stderr.lower() and "cannot open the corpus" in ingest.stderr
        # the server goes on serving, and nothing was written
        response = httpx.post(f"{url}/v1/tools/read", json={"document": "other.md"}, headers=auth(ADMIN), timeout=10)
        assert response.status_code == 404
        response = httpx.post(f"{url}/v1/tools/navigate_document_tree", json=NAV, headers=auth(ADMIN), timeout=10)
        assert response.status_code == 200
    finally:
        server.terminate()
        server.wait(20)
        if server.stderr:
            server.stderr.close()
    # once the server is gone the same ingest goes through (in this process: no other one holds the file now)
    done = runner.invoke(app, ["ingest", str(tmp_path / "other.md"), "--db", str(db_path), "--collection", "notes"])
    assert done.exit_code == 0, done.output


# -- clew mcp over stdio ---------------------------------------------------------------------

def test_mcp_over_stdio_navigates_and_writes_only_protocol_to_stdout(db_path: Path, tmp_path: Path) -> None:
    stdout_copy = tmp_path / "stdout.jsonl"
    command = " ".join(shlex.quote(part) for part in [*CLEW, "mcp", "--db", str(db_path)])
    params = StdioServerParameters(command="sh", args=["-c", f"{command} | tee {shlex.quote(str(stdout_copy))}"],
                                   env=env())

    async def go() -> tuple[dict, bool]:
        async with Client(stdio_client(params)) as client:
            result = await client.call_tool("navigate_document_tree", NAV)
            failing = await client.call_tool("navigate_document_tree", {**NAV, "relation": "cousins"})
            return result.structured_content, failing.is_error

    navigated, failed = asyncio.run(go())
    assert failed
    assert navigated["status"] == "ok" and [i["evidence_id"] for i in navigated["items"]] == [ACME[1]]
    assert navigated["applied"] == {"limit": 3, "max_chars": 4000}
    lines = [line for line in stdout_copy.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert lines and all(json.loads(line).get("jsonrpc") == "2.0" for line in lines)


def test_mcp_over_stdio_starts_without_the_rest_module(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``clew mcp``'s stdio server needs nothing of the REST app (FastAPI and its routers: about 0.1 s of
    a start's CPU); an import of it here fails (None in sys.modules), so the command would exit 3."""
    monkeypatch.setitem(sys.modules, "clew.server.rest", None)
    result = CliRunner().invoke(app, ["mcp", "--db", str(db_path)], input="")  # stdin at its end: the session ends
    assert result.exit_code == 0, result.output


# -- one fixture, four front ends, the same navigation ---------------------------------------

def test_navigation_is_identical_through_python_cli_rest_and_mcp(db_path: Path, config_path: Path) -> None:
    cli = runner.invoke(app, ["nav", ACME[0], "next", "--limit", "3", "--max-chars", "4000", "--db", str(db_path),
                              "--json"])
    assert cli.exit_code == 0, cli.output
    through_cli = result_of(cli.stdout)
    with Corpus(db_path, read_only=True) as corpus:
        through_python = navigate_document_tree(Scope(corpus), TreeArgs(**NAV)).model_dump(mode="json")
        with TestClient(create_app(corpus, load_config(config_path))) as client:
            through_rest = client.post("/v1/tools/navigate_document_tree", json=NAV, headers=auth(ADMIN)).json()

        async def mcp() -> dict:
            async with Client(build_server(corpus)) as session:
                return (await session.call_tool("navigate_document_tree", NAV)).structured_content

        through_mcp = asyncio.run(mcp())
    assert through_python["items"] and through_python == through_cli == through_rest == through_mcp


def test_mcp_over_streamable_http_on_loopback(db_path: Path) -> None:
    from mcp.client.streamable_http import streamable_http_client

    refused = runner.invoke(app, ["mcp", "--db", str(db_path), "--transport", "http", "--host", "0.0.0.0"])
    assert refused.exit_code == 2 and "loopback" in refused.stderr
    port = free_port()
    server = subprocess.Popen([*CLEW, "mcp", "--db", str(db_path), "--transport", "http", "--port", str(port)],
                              env=env(), stderr=subprocess.PIPE, text=True)
    try:
        wait_for_mcp_http(port, server)
        said = server.stderr.readline()  # type: ignore[union-attr]
        assert said.startswith(f"clew: serving MCP (streamable HTTP) for {db_path} at http://127.0.0.1:{port}/mcp")

        async def go() -> dict:
            async with Client(streamable_http_client(f"http://127.0.0.1:{port}/mcp")) as client:
                return (await client.call_tool("navigate_document_tree", NAV)).structured_content

        navigated = asyncio.run(go())
        assert [i["evidence_id"] for i in navigated["items"]] == [ACME[1]]
    finally:
        server.terminate()
        server.wait(20)
        if server.stderr:
            server.stderr.close()


def test_a_read_only_server_lets_readers_in_and_keeps_writers_out(db_path: Path, config_path: Path,
                                                                   tmp_path: Path) -> None:
    port = free_port()
    server = subprocess.Popen([*CLEW, "serve", "--db", str(db_path), "--config", str(config_path), "--port", str(port),
                               "--read-only"], env=env(), stderr=subprocess.PIPE, text=True)
    try:
        wait_healthy(f"http://127.0.0.1:{port}", server)
        # the reader and the writer in this process, a process other than the server's
        reader = runner.invoke(app, ["stats", "--db", str(db_path), "--json"])
        assert reader.exit_code == 0, reader.output
        assert {c["name"] for c in result_of(reader.stdout)["collections"]} == {"notes", "private"}
        other = tmp_path / "other.md"
        other.write_text("# Other\n\nA writer.\n", encoding="utf-8")
        writer = runner.invoke(app, ["ingest", str(other), "--db", str(db_path)])
        assert writer.exit_code == 3 and "lock" in writer.stderr.lower()
    finally:
        server.terminate()
        server.wait(20)
        if server.stderr:
            server.stderr.close()
