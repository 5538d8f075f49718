"""Server commands: ``clew serve`` (REST), ``clew mcp`` (MCP), ``clew config check``.

``clew serve`` opens the corpus read-write once (``--read-only`` to refuse uploads) and
holds it while it runs. DuckDB allows one read-write process per file, so a separate
``clew ingest`` against the same file fails at once with a lock error (exit status 3) and
changes nothing; ingest through ``POST /v1/collections/{name}/documents`` instead, or stop
the server first. ``clew mcp`` opens the corpus read-only, so that several MCP clients (each
starting its own ``clew mcp``) can read one file side by side.
"""

from __future__ import annotations

import logging
import signal
import sys
from collections.abc import Callable
from enum import Enum
from pathlib import Path
from types import FrameType
from typing import Annotated

import typer
from rich.text import Text

from clew.commands.common import DbOption, command, database, err, fail, out, plural, settings

app = typer.Typer(rich_markup_mode=None)  # plain help: see clew.cli


class Action(str, Enum):
    check = "check"


class Transport(str, Enum):
    stdio = "stdio"
    http = "http"


class _Stopped(Exception):
    """SIGTERM reached a server: it stops as after Ctrl-C, leaving through the ``with`` blocks."""


def _until_stopped(run: Callable[[], None]) -> None:
    """Run a uvicorn server until it stops; a SIGTERM (``kill PID``, a service manager) ends it as
    Ctrl-C does. uvicorn shuts down gracefully on SIGTERM, then raises the signal again; with its
    default action the process died there, before the corpus closed and before the exit handlers
    ended the PDF/DOCX parse worker an upload had started (the resource tracker then printed
    "There appear to be 6 leaked semaphore objects" after ``kill``). Exit status 0: a stop asked for."""
    def stop(signum: int, frame: FrameType | None) -> None:
        raise _Stopped

    before = signal.signal(signal.SIGTERM, stop)
    try:
        run()
    except _Stopped:
        pass
    finally:
        signal.signal(signal.SIGTERM, before)


def _server_extra(*modules: str) -> None:
    """Stop naming the ``server`` extra when one of the ``modules`` (those of it the command runs) is missing
    (clew.extras). ``clew serve`` asks for no ``mcp``: the REST server uses none of it, and its import (the
    SDK's types, pydantic models built at import) was 0.3 s of CPU of the server's start; ``clew mcp`` asks for
    no FastAPI, which only the REST server runs (0.2 s)."""
    from clew.extras import require

    for module in modules:
        require(module, "server")


@command(app, example="clew serve --db docs.duckdb --no-auth --port 8080")
def serve(
    db: DbOption = None,
    host: Annotated[str, typer.Option(help="Address to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port to bind.")] = 8080,
    no_auth: Annotated[bool, typer.Option("--no-auth", help="Serve without API keys (loopback only).")] = False,
    read_only: Annotated[bool, typer.Option("--read-only", help="Open the corpus read-only (no uploads).")] = False,
) -> None:
    """Serve the REST API (FastAPI + uvicorn) over one corpus."""
    _server_extra("fastapi", "uvicorn", "python_multipart")
    import uvicorn

    from clew.corpus.store import Corpus
    from clew.server.rest import create_app, require_loopback_for_no_auth

    config = settings()
    if no_auth:
        require_loopback_for_no_auth(host)
    elif not config.api_keys:
        raise fail("no API keys in the config (api_keys entries); or pass --no-auth on a loopback address")
    path = database(db, exists=read_only)
    corpus = Corpus(path, read_only=read_only)
    err.print(f"clew: serving {path} on http://{host}:{port} ({'no auth' if no_auth else 'API keys'})",
              highlight=False)
    with corpus:
        app = create_app(corpus, config, auth=not no_auth, bind=(host, port))
        _until_stopped(lambda: uvicorn.run(app, host=host, port=port, log_level="warning"))


@command(app, "mcp", example="clew mcp --db docs.duckdb")
def mcp_command(
    db: DbOption = None,
    transport: Annotated[Transport, typer.Option(help="stdio (default) or http (streamable HTTP, loopback).")] =
    Transport.stdio,
    principal: Annotated[str | None, typer.Option(help="Read as this principal of the config (default: all).")] = None,
    host: Annotated[str, typer.Option(help="Address to bind (http).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port to bind (http).")] = 8081,
) -> None:
    """Serve the tools over MCP. Over stdio nothing but the protocol is written to stdout."""
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, force=True)
    _server_extra("mcp", "uvicorn")
    from clew.corpus.store import Corpus
    from clew.server.mcp import build_server

    config = settings()
    path = database(db)
    chosen = config.principal(principal)  # as REST builds an API key's: the configured model allowed
    if transport is Transport.http:
        # here only: the REST module imports FastAPI and every router, which stdio needs none of
        from clew.server.rest import require_loopback_for_no_auth

        require_loopback_for_no_auth(host)  # the MCP endpoint has no API keys: loopback only
    corpus = Corpus(path, read_only=True)
    with corpus:
        server = build_server(corpus, config, principal=chosen)
        if transport is Transport.stdio:
            server.run("stdio")
        else:
            import uvicorn

            from clew.server.guard import mcp_security

            security = mcp_security(host, port, config.allowed_hosts)
            app = server.streamable_http_app(host=host, transport_security=security)
            err.print(f"clew: serving MCP (streamable HTTP) for {path} at http://{host}:{port}/mcp "
                      f"(no API keys: loopback only; Ctrl-C stops it)", highlight=False)
            _until_stopped(lambda: uvicorn.run(app, host=host, port=port, log_level="warning"))


@command(app, "config", example="clew config check clew.toml", config=False)
def config_command(
    action: Annotated[Action, typer.Argument(help="check: validate the file.")],
    file: Annotated[Path | None, typer.Argument(
        help="The clew.toml to check (default: $CLEW_CONFIG, else ./clew.toml).")] = None,
) -> None:
    """Validate a clew.toml; a bad one names the field (exit status 2)."""
    from clew.commands.common import find_config
    from clew.config.settings import load_config

    path = find_config(file)
    if path is None:
        raise fail("no clew.toml here and CLEW_CONFIG is not set: name the file to check")
    loaded = load_config(path)
    out.print(Text(f"{path}: ok ({plural(len(loaded.principals), 'principal')}, "
                   f"{plural(len(loaded.api_keys), 'API key')})"))
