"""Which models a principal may name as a retrieval's generator (``models`` in ``clew.toml``;
default: only the configured ``model``): anything else is the same 403 as any other denial,
over REST (a real uvicorn on 127.0.0.1), MCP and the Python API, and no model is built or called."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp.client.client import Client
from mcp.server.mcpserver.exceptions import ToolError
from typer.testing import CliRunner

import clew.agent.api
import clew.server.mcp
from clew.agent.api import retrieve_sync
from clew.config.settings import ServerConfig, load_config
from clew.corpus.store import Corpus
from clew.errors import Forbidden
from clew.server.mcp import build_server
from clew.server.rest import create_app
from clew.testing import FunctionModel, reply_text
from tests.agent.test_prose_server import Prose, serving_prose

from .conftest import free_port
from .test_rest_live import Served

CONFIG = """
model = "openai/gpt-4o-mini"

[principals.plain]

[principals.local_models]
models = ["ollama/llama3"]

[[api_keys]]
key = "plain-key-0001"
principal = "plain"

[[api_keys]]
key = "local-key-0001"
principal = "local_models"
"""
ASK: dict[str, Any] = {"query": "Who owns the Orion Planner?", "queries": [{"collection": "notes"}],
                       "steps": {"retrieval": {"navigation": {"strategy": "tree", "selection": "ranked"}},
                                 "generation": {}}}
DENIED = {"error": "forbidden", "message": "this key may not use model 'ollama/llama3'",
          "detail": "this key may not use model 'ollama/llama3'"}


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every model the agent builds from a generator name (none may be built for a refused one)."""
    names: list[str] = []
    real = clew.agent.api.model_from_name

    def recording(spec: str | None, *args: Any, **kwargs: Any) -> Any:
        names.append(str(spec))
        return real(spec, *args, **kwargs)

    monkeypatch.setattr(clew.agent.api, "model_from_name", recording)
    return names


@pytest.fixture
def answering() -> FunctionModel:
    return FunctionModel(lambda messages, tools: reply_text("Daniel Okafor owns it."), name="fake")


@pytest.fixture
def settings(tmp_path: Path) -> ServerConfig:
    path = tmp_path / "clew.toml"
    path.write_text(CONFIG, encoding="utf-8")
    return load_config(path)


@pytest.fixture
def served(corpus: Corpus, settings: ServerConfig, answering: FunctionModel) -> Iterator[Served]:
    port = free_port()
    with Served(create_app(corpus, settings, model=answering, bind=("127.0.0.1", port)), port) as running:
        yield running


def post(served: Served, key: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(f"{served.url}/v1/agents/retrieval", json=body, timeout=60,
                      headers={"Authorization": f"Bearer {key}"})


def test_a_model_outside_the_principals_list_is_403_and_never_built_or_called(
        served: Served, built: list[str], answering: FunctionModel) -> None:
    for generator in ("ollama/llama3", {"provider": "ollama", "model": "llama3"}):
        for stream in (False, True):
            response = post(served, "plain-key-0001", {**ASK, "generator": generator, "stream": stream})
            assert (response.status_code, response.json()) == (403, DENIED), response.text
    other = post(served, "local-key-0001", {**ASK, "generator": "anthropic/claude-3-haiku"})
    assert other.status_code == 403
    assert other.json()["detail"] == "this key may not use model 'anthropic/claude-3-haiku'"
    assert built == [] and answering.requests == []


def test_the_configured_model_and_the_principals_own_models_are_allowed(
        served: Served, answering: FunctionModel) -> None:
    default = post(served, "plain-key-0001", ASK)  # the server's model fills in the generator
    assert default.status_code == 200, default.text
    assert post(served, "plain-key-0001", {**ASK, "generator": "openai/gpt-4o-mini"}).status_code == 200
    own = post(served, "local-key-0001", {**ASK, "generator": {"provider": "ollama", "model": "llama3"}})
    assert own.status_code == 200, own.text
    assert len(answering.requests) == 3


def test_no_auth_and_mcp_read_as_a_principal_with_only_the_configured_model(
        corpus: Corpus, settings: ServerConfig, built: list[str]) -> None:
    port = free_port()
    with Served(create_app(corpus, settings, auth=False, bind=("127.0.0.1", port)), port) as local:
        response = httpx.post(f"{local.url}/v1/agents/retrieval", json={**ASK, "generator": "ollama/llama3"})
        assert (response.status_code, response.json()) == (403, DENIED)
    server = build_server(corpus, settings)
    with pytest.raises(ToolError, match="this key may not use model 'ollama/llama3'"):
        asyncio.run(server.call_tool("retrieve", {**ASK, "generator": "ollama/llama3"}))
    assert settings.principal("local_models").models == frozenset({"ollama/llama3", "openai/gpt-4o-mini"})
    assert settings.principal("plain").models == frozenset({"openai/gpt-4o-mini"})
    assert built == []


def test_the_python_api_refuses_a_model_the_requests_principal_may_not_use(
        corpus: Corpus, built: list[str], answering: FunctionModel) -> None:
    principal = {"name": "p", "models": ["openai/gpt-4o-mini"]}
    with pytest.raises(Forbidden) as caught:
        retrieve_sync({**ASK, "generator": "ollama/llama3", "principal": principal}, corpus=corpus, model=answering)
    assert (caught.value.permission, str(caught.value)) == ("model", DENIED["detail"])
    assert built == [] and answering.requests == []
    allowed = retrieve_sync({**ASK, "generator": "openai/gpt-4o-mini", "principal": principal}, corpus=corpus,
                            model=answering)
    assert allowed.status in ("ok", "incomplete") and len(answering.requests) == 1
    anyone = retrieve_sync({**ASK, "generator": "ollama/llama3"}, corpus=corpus, model=answering)  # no list: any
    assert anyone.status in ("ok", "incomplete")


def test_a_blank_model_in_the_config_names_the_field(tmp_path: Path) -> None:
    from clew.errors import InputError

    path = tmp_path / "clew.toml"
    path.write_text("[principals.a]\nmodels = [' ']\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_config(path)
    assert caught.value.field == "principals.a.models"


def test_clew_mcp_principal_may_use_the_configured_model_as_rest_allows_it(
        db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with serving_prose() as prose_server:
        _mcp_and_rest_answer_with_the_configured_model(db_path, tmp_path, prose_server, monkeypatch)


def _mcp_and_rest_answer_with_the_configured_model(db_path: Path, tmp_path: Path, prose_server: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """``clew mcp --principal plain`` runs in this process (``CliRunner``): the command reads the config, opens the
    corpus and builds its server as a user's does, and the server, where it would serve over stdio, answers this
    test's client in memory. The stdio process is other tests' (test_mcp_listing_live.py, test_mcp_ledger_live.py,
    test_surfaces.py); a process of its own here imported litellm for its model, 3.5 s of CPU."""
    # the configured model is a real OpenAI-compatible server on 127.0.0.1; "plain" names no models of its own
    config_path = tmp_path / "clew.toml"
    config_path.write_text(CONFIG.replace('model = "openai/gpt-4o-mini"',
                                          f'model = "openai/prose"\n[model_options]\napi_base = "{prose_server}"\n'
                                          "retries = 0\n"), encoding="utf-8")
    asked = {**ASK, "generator": "openai/prose"}

    async def over_mcp(server: Any) -> tuple[list[Any], list[Any]]:
        async with Client(server) as client:
            named = await client.call_tool("retrieve", asked)
            other = await client.call_tool("retrieve", {**ASK, "generator": "ollama/llama3"})
            return [named.is_error, named.structured_content], [other.is_error, other.content[0].text]

    answered: list[tuple[list[Any], list[Any]]] = []
    built_by_the_command = clew.server.mcp.build_server

    def serving_in_memory(*args: Any, **kwargs: Any) -> Any:
        server = built_by_the_command(*args, **kwargs)

        def run(transport: str) -> None:
            assert transport == "stdio"
            answered.append(asyncio.run(over_mcp(server)))

        server.run = run
        return server

    from clew.cli import app

    monkeypatch.setattr(clew.server.mcp, "build_server", serving_in_memory)
    monkeypatch.setattr(logging.root, "handlers", list(logging.root.handlers))  # the command configures logging
    monkeypatch.setattr(logging.root, "level", logging.root.level)
    ran = CliRunner().invoke(app, ["mcp", "--db", str(db_path), "--config", str(config_path), "--principal", "plain"])
    assert ran.exit_code == 0 and ran.stdout == "", ran.output  # over stdio nothing but the protocol is written
    [((named_error, by_mcp), (other_error, other_text))] = answered  # the server served once
    assert not named_error, by_mcp
    assert by_mcp["status"] == "ok" and len(Prose.calls) == 1  # the configured model was asked for the answer
    assert Prose.calls[0]["model"] == "prose" and by_mcp["generation"]["fallback"]  # its prose cited nothing
    assert other_error and "this key may not use model 'ollama/llama3'" in other_text  # its own list still binds
    with Corpus(db_path, read_only=True) as corpus:
        port = free_port()
        with Served(create_app(corpus, load_config(config_path), bind=("127.0.0.1", port)), port) as rest:
            response = post(rest, "plain-key-0001", asked)
    assert response.status_code == 200, response.text
    assert {k: response.json()[k] for k in ("status", "hits", "generation")} == {
        k: by_mcp[k] for k in ("status", "hits", "generation")}
    assert len(Prose.calls) == 2  # the same model asked once more, over REST


def test_clew_mcp_names_an_unknown_principal(db_path: Path, config_path: Path) -> None:
    from clew.cli import app

    ran = CliRunner().invoke(app, ["mcp", "--db", str(db_path), "--config", str(config_path), "--principal", "ghost"])
    assert ran.exit_code == 2
    assert "no principal named 'ghost' in the config (principals: admin, narrow, reader)" in ran.stderr
