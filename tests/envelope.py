"""Reading the JSON envelope every ``--json`` command prints (``clew.commands.common``)."""

import json
from typing import Any

KEYS = {"status", "exit_code", "command", "result", "applied", "error"}


def envelope(stdout: str) -> dict[str, Any]:
    body = json.loads(stdout)
    assert set(body) == KEYS, body
    return body


def result(stdout: str) -> Any:
    """The envelope's ``result``: what the Python API returns."""
    return envelope(stdout)["result"]
