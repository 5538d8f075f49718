"""What every command that calls a model shares: ``--model`` and ``--model-option``.

The model comes from ``--model``, else the configuration's ``model`` (``--config FILE``,
``$CLEW_CONFIG`` or ``./clew.toml``, and ``CLEW_MODEL``); its options from the
configuration's ``[model_options]`` (and ``CLEW_MODEL_OPTIONS__*``) with each
``--model-option KEY=VALUE`` on top.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from clew.commands.common import configured, current, log

if TYPE_CHECKING:
    from clew.agent.model import Model
    from clew.config.model_options import ModelOptions
    from clew.config.settings import ServerConfig

ModelOption = Annotated[str | None, typer.Option(help="litellm model string, e.g. openai/<name> for an "
                                                      "OpenAI-compatible server (default: the config's model).")]
ModelOptionsOption = Annotated[list[str] | None, typer.Option(
    "--model-option", metavar="KEY=VALUE", help="A model option (api_base, api_key_env, temperature, max_tokens, "
    "timeout_seconds, retries, tool_choice, extra.NAME); repeat for more.")]


def configured_model(name: str | None, pairs: list[str] | None,
                     config: Path | None = None) -> tuple[Model | None, ModelOptions]:
    """The model the command line and the configuration name (None: none), and its options.

    ``config`` is the file to read; None reads the running command's configuration (found as
    ``clew.commands.common.configured`` finds it)."""
    from clew.agent.model import model_from_name
    from clew.config.model_options import ModelOptions

    # configured() is None when there is no file and no CLEW_* setting: the settings code is not even loaded
    loaded = configured() if config is None else _load(config)
    options = (loaded.model_options if loaded is not None else ModelOptions()).with_options(pairs or [])
    chosen = name or (loaded.model if loaded is not None else None)
    if chosen is not None:
        log.info("model: %s", chosen)
        current().applied["model"] = chosen
    return model_from_name(chosen, options), options


def _load(config: Path) -> ServerConfig:
    from clew.config.settings import load_config

    return load_config(config)
