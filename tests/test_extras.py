"""clew.extras: a missing optional dependency is an error that names the extra installing it."""

import pytest

from clew.errors import ClewError, MissingExtra
from clew.extras import EXTRAS, require


def test_a_missing_module_names_its_extra_and_the_command() -> None:
    with pytest.raises(MissingExtra) as raised:
        require("clew_no_such_module", "plot")
    error = raised.value
    assert (error.extra, error.module, error.http_status) == ("plot", "clew_no_such_module", 501)
    assert str(error) == ("the recall_vs_tokens.png plot of clew eval needs the 'plot' extra (clew_no_such_module "
                          "is not installed): pip install -e '.[plot]' from a clone, or pip install 'clew[plot]'")
    assert isinstance(error, ClewError)


def test_an_installed_module_is_returned_and_an_unknown_extra_is_a_bug() -> None:
    assert require("json", "server").__name__ == "json"
    assert set(EXTRAS) == {"server", "plot", "ray", "dense", "langchain", "llama-index"}
    with pytest.raises(ValueError, match="unknown extra 'gui'"):
        require("clew_no_such_module", "gui")


def test_reading_the_configuration_needs_no_server_extra() -> None:
    """Every command reads clew.toml; checking its allowed_hosts must not import starlette (server extra)."""
    import subprocess
    import sys

    code = ("import sys\nfrom clew.config.settings import ServerConfig\n"
            "ServerConfig(allowed_hosts=['docs.example:8080', '*'])\n"
            "print(sorted(m for m in ('starlette', 'fastapi', 'uvicorn', 'mcp') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
