"""What every command that calls a model shares: ``--model``, ``--model-option``, ``--config``.

The model comes from ``--model``, else the configuration's ``model`` (``--config FILE`` or
``CLEW_MODEL``); its options from the configuration's ``[model_options]`` (and
``CLEW_MODEL_OPTIONS__*``) with each ``--model-option KEY=VALUE`` on top.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from clew.agent.model import Model, model_from_name
from clew.agent.model_options import ModelOptions

ModelOption = Annotated[str | None, typer.Option(help="litellm model string, e.g. openai/<name> for an "
                                                      "OpenAI-compatible server (default: the config's model).")]
ModelOptionsOption = Annotated[list[str] | None, typer.Option(
    "--model-option", metavar="KEY=VALUE", help="A model option (api_base, api_key_env, temperature, max_tokens, "
    "timeout_seconds, retries, tool_choice, extra.NAME); repeat for more.")]
ConfigOption = Annotated[Path | None, typer.Option("--config", help="clew.toml to read model and model_options "
                                                                    "from.")]


def configured_model(name: str | None, pairs: list[str] | None, config: Path | None) -> tuple[Model | None,
                                                                                            ModelOptions]:
    """The model the command line and the configuration name (None: none), and its options."""
    from clew.server.config import load_config

    settings = load_config(config)
    options = settings.model_options.with_options(pairs or [])
    return model_from_name(name or settings.model, options), options
