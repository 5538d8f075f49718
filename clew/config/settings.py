"""The configuration every command and server reads: ``clew.toml``, with environment variables on top.

::

    database = "corpus.duckdb"
    default_collection = "docs"
    model = "openai/gpt-4o-mini"          # omit: the extractive answer, no model
    allowed_hosts = ["clew.internal"]     # Host names besides loopback and the bound address
    max_parse_seconds = 120               # an uploaded PDF or DOCX parsing longer is skipped

    [model_options]                       # how to reach it (see clew.config.model_options)
    api_base = "http://127.0.0.1:8080/v1"
    temperature = 0

    [budgets]                             # defaults for requests that do not set them
    max_internal_iterations = 12
    max_tool_calls = 20
    context_budget_tokens = 8192
    timeout_seconds = 600

    [principals.support]
    models = ["ollama/llama3"]            # generators it may name besides model (default: none)
    collections = ["docs"]                # omit: every collection
    row_filter = { term = { status = "published" } }
    tools = ["search", "navigate_document_tree", "fetch_evidence", "tree_search"]   # omit: all

    [[api_keys]]
    key = "change-me"
    principal = "support"

Every command finds the file without ``--config``: ``$CLEW_CONFIG`` names it, else
``clew.toml`` in the working folder is read when present (``clew.commands.common.find_config``).
A relative ``database`` in a file is relative to the file's folder.

Environment variables prefixed ``CLEW_`` override the file (``CLEW_DATABASE``,
``CLEW_MODEL``, ``CLEW_MODEL_OPTIONS__API_BASE``, ``CLEW_BUDGETS__MAX_TOOL_CALLS``; nested
fields with ``__``). Every error names the field (``principals.support.row_filter``), so
that ``clew config check FILE`` can say what to fix.
"""

from __future__ import annotations

import os
import tomllib
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict, TomlConfigSettingsSource

from clew.budgets.bounds import bounds
from clew.budgets.limits import Limits
from clew.config.hosts import split_host
from clew.config.model_options import ModelOptions
from clew.corpus.access import INGEST_PERMISSION, WALK_PERMISSIONS, Principal, RowFilter
from clew.corpus.ingest.parsed import MAX_PARSE_SECONDS
from clew.errors import InputError, field_error, input_error_from
from clew.navigation.models import NonBlank
from clew.tools.builtin import registry


def permission_names() -> list[str]:
    """Every permission a principal's ``tools`` may name: the tools, the walks and ``ingest``."""
    return sorted({*registry.names(), *WALK_PERMISSIONS.values(), INGEST_PERMISSION})


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _bounded(name: str, **constraints: Any) -> Any:
    """A budget field inside the range a request is clamped to (the ``Clamp`` of the run's
    :class:`~clew.budgets.limits.Limits` field, which the request's field shares), with its
    default: a configured default outside the range is an error naming the field."""
    bound, default = bounds(Limits)[name], Limits.model_fields[name].default
    return Field(default, ge=bound.low, le=bound.high, description=f"{bound.low}-{bound.high}", **constraints)


class Budgets(_Strict):
    """Budgets a retrieval request gets when it sets none, inside the bounds a request is clamped to."""

    max_internal_iterations: int = _bounded("max_internal_iterations")
    max_tool_calls: int = _bounded("max_tool_calls")
    context_budget_tokens: int = _bounded("context_budget_tokens")
    timeout_seconds: float = _bounded("timeout_seconds", allow_inf_nan=False)


class PrincipalConfig(_Strict):
    collections: list[str] | None = None
    """Collections this principal may read (None: every collection)."""
    row_filter: RowFilter | None = None
    """Only documents whose fields match are readable."""
    tools: list[str] | None = None
    """Tool permissions (tool names, tree_search, graph_search, ingest); None: all."""
    models: list[str] = Field(default_factory=list)
    """Models (litellm strings, ``provider/model``) a retrieval may name as its generator besides
    the configured ``model``; anything else is 403 and never contacted. Default: only ``model``."""

    @field_validator("tools")
    @classmethod
    def _known(cls, value: list[str] | None) -> list[str] | None:
        known = permission_names()
        for name in value or ():
            if name not in known:
                raise ValueError(f"unknown tool permission {name!r}; known: {', '.join(known)}")
        return value

    @field_validator("models")
    @classmethod
    def _models(cls, value: list[str]) -> list[str]:
        for name in value:
            if not name.strip():
                raise ValueError("a model name must not be blank")
        return value


class ApiKey(_Strict):
    key: SecretStr
    principal: str

    @field_validator("key")
    @classmethod
    def _long_enough(cls, value: SecretStr) -> SecretStr:
        if len(value.get_secret_value().strip()) < 8:
            raise ValueError("an API key needs at least 8 characters")
        return value


_TOML: ContextVar[Path | None] = ContextVar("clew_toml", default=None)


class ServerConfig(BaseSettings):
    """Everything the commands and the servers read from ``clew.toml`` and ``CLEW_*``."""

    model_config = SettingsConfigDict(env_prefix="CLEW_", env_nested_delimiter="__", extra="forbid", frozen=True)

    database: Path | None = None
    """The DuckDB corpus file (``--db`` overrides it)."""
    default_collection: NonBlank | None = None
    """Collection searched when a request names none."""
    model: NonBlank | None = None
    """litellm model string used when a retrieval request names no generator (None: no model)."""
    model_options: ModelOptions = Field(default_factory=ModelOptions)
    """How to reach the model: api_base, api_key_env, temperature, ... (``clew.config.model_options``)."""
    budgets: Budgets = Field(default_factory=Budgets)
    principals: dict[str, PrincipalConfig] = Field(default_factory=dict)
    api_keys: list[ApiKey] = Field(default_factory=list)
    allowed_hosts: list[str] = Field(default_factory=list)
    """Host names the servers answer to besides loopback and the bound address (``name`` any port,
    ``name:port``, ``*`` any host): see ``clew.server.guard``."""
    max_parse_seconds: float = Field(MAX_PARSE_SECONDS, gt=0, le=3600)
    """Seconds one uploaded PDF or DOCX file may take to parse (``clew ingest --max-parse-seconds``
    for a folder): past them its parse process is ended and the file skipped with the reason, the
    rest of the upload stored (``clew.corpus.ingest.parse_process``)."""

    @field_validator("allowed_hosts")
    @classmethod
    def _hosts(cls, value: list[str]) -> list[str]:
        for entry in value:
            if entry != "*" and split_host(entry) is None:
                raise ValueError(f"{entry!r} is not a host name (name or name:port, or *)")
        return value

    @model_validator(mode="after")
    def _keys_name_principals(self) -> ServerConfig:
        seen: set[str] = set()
        for index, entry in enumerate(self.api_keys):
            if entry.principal not in self.principals:
                raise field_error(f"api_keys.{index}.principal", f"no principal named {entry.principal!r} "
                                  f"(principals: {', '.join(sorted(self.principals)) or 'none'})")
            secret = entry.key.get_secret_value()
            if secret in seen:
                raise field_error(f"api_keys.{index}.key", "the same key is listed twice")
            seen.add(secret)
        return self

    @classmethod
    def settings_customise_sources(
        cls, settings_cls: type[BaseSettings], init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource, dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        path = _TOML.get()
        sources: list[PydanticBaseSettingsSource] = [init_settings, env_settings]
        if path is not None:
            sources.append(TomlConfigSettingsSource(settings_cls, toml_file=path))
        return tuple(sources)

    def request_defaults(self) -> dict[str, Any]:
        """What a retrieval request gets when it leaves these out: the budgets, the model, the collection."""
        defaults: dict[str, Any] = self.budgets.model_dump(exclude_unset=True)  # a ranked walk has its own
        if self.model is not None:
            defaults["generator"] = self.model
        if self.default_collection is not None:
            defaults["queries"] = [{"collection": self.default_collection}]
        return defaults

    def tool_defaults(self, tool: str) -> dict[str, Any]:
        """Arguments a tool call gets when it leaves them out: search looks in the default collection."""
        if tool == "search" and self.default_collection is not None:
            return {"collection": self.default_collection}
        return {}

    def principal_for_key(self, key: str | None) -> Principal | None:
        """The principal a key authenticates, or None (compared in constant time per key)."""
        import hmac

        if not key:
            return None
        found = None
        for entry in self.api_keys:
            if hmac.compare_digest(entry.key.get_secret_value().encode(), key.encode()):
                found = entry.principal
        return None if found is None else self.principal(found)

    def principal(self, name: str | None = None) -> Principal:
        """The configured principal ``name``; None: the local one, who ``clew serve --no-auth`` and
        ``clew mcp`` without ``--principal`` read as (every collection, every tool).

        The one place a principal is built from the configuration (an API key's, ``--principal``'s,
        the local one): each may name the configured ``model`` as its generator, and a configured
        principal its own ``models`` besides; an unknown name is an input error naming it."""
        configured = frozenset([self.model] if self.model else [])
        if name is None:
            return Principal(name="local", models=configured)
        entry = self.principals.get(name)
        if entry is None:
            raise InputError("principal", f"no principal named {name!r} in the config "
                             f"(principals: {', '.join(sorted(self.principals)) or 'none'})")
        return Principal(
            name=name,
            collections=None if entry.collections is None else frozenset(entry.collections),
            row_filter=entry.row_filter,
            tools=None if entry.tools is None else frozenset(entry.tools),
            models=configured | frozenset(entry.models),
        )


def load_config(path: str | Path | None = None, **overrides: Any) -> ServerConfig:
    """Read ``path`` (None: no file, defaults and ``CLEW_*`` only); errors name the field."""
    file = None if path is None else Path(path)
    if file is not None:
        try:
            tomllib.loads(file.read_text(encoding="utf-8"))
        except OSError as error:
            raise InputError("config", f"{file}: cannot read: {error.strerror or error}") from error
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
            raise InputError("config", f"{file}: not valid TOML: {error}") from error
    token = _TOML.set(file)
    try:
        config = ServerConfig(**overrides)
    except ValidationError as error:
        raise input_error_from(error, model=ServerConfig) from error
    finally:
        _TOML.reset(token)
    from_file = file is not None and "database" not in overrides and not os.environ.get("CLEW_DATABASE")
    if from_file and config.database is not None and not config.database.is_absolute():
        return config.model_copy(update={"database": file.parent / config.database})  # type: ignore[union-attr]
    return config
