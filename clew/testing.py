"""Fake models for tests: no network, no keys, the same ``Model`` protocol as the real client.

``ScriptedModel`` replays a queue of replies, one per call, and records what it was asked::

    from clew.testing import ScriptedModel, reply_text, reply_tool_call

    model = ScriptedModel([
        reply_tool_call("search", {"query": "wal checkpoints"}),
        reply_text("Checkpoints run when the WAL reaches 1000 pages [ev1:c:3:1:7]."),
    ])
    ...  # run the agent with ``model``
    assert model.requests[1].tools is not None
    assert model.remaining == 0

An entry is a ``ModelReply`` (replayed exactly as given), a ``dict`` of reply fields (what the
helpers below build; usage is filled in), or an exception instance (raised instead of
replying, e.g. ``ModelError("scripted", "down", retryable=True, attempts=4)``). Asking for
more replies than were scripted raises ``ScriptExhausted``.

``FunctionModel(fn)`` answers each call with ``fn(messages, tools)`` (sync or async), for
replies that depend on what the model is shown.

``recorded_statements()`` records every statement run through ``Corpus.cursor()`` while it is
open (how many statements a read costs)::

    with recorded_statements() as statements:
        navigate_document_tree(scope, TreeArgs(evidence_id=evidence_id, relation="parent"))
    assert len(statements) == 1

Usage for dict replies is counted with ``clew.budgets.tokens.count_tokens``: input tokens over
the JSON of the messages, output tokens over the JSON of the reply's content and tool calls.
Tool calls without an id get ``call_<request>_<position>``, both counted from 1.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import duckdb
from pydantic import BaseModel

from clew.agent.model import ModelReply, ToolCall
from clew.budgets.tokens import count_tokens
from clew.corpus.store import Corpus
from clew.errors import ScriptExhausted

__all__ = [
    "FunctionModel",
    "ModelRequest",
    "ScriptExhausted",
    "ScriptedModel",
    "recorded_statements",
    "reply_text",
    "reply_tool_call",
    "reply_tool_calls",
]

ReplyFn = Callable[[list[dict[str, Any]], "list[dict[str, Any]] | None"], Any]


@dataclass(frozen=True)
class ModelRequest:
    """One call a fake model received: a JSON copy of the messages and tools, as they were."""

    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] | None
    tool_choice: str | None


def reply_text(text: str) -> dict[str, Any]:
    """A reply that answers in text and calls no tool."""
    return {"content": text, "tool_calls": []}


def reply_tool_call(
    name: str, arguments: dict[str, Any] | str, id: str | None = None, *, content: str | None = None  # noqa: A002
) -> dict[str, Any]:
    """A reply with one tool call. ``arguments`` as a dict is sent as JSON; a string is sent
    as it is (so malformed arguments can be scripted)."""
    return reply_tool_calls([_tool_call(name, arguments, id)], content=content)


def reply_tool_calls(
    calls: Iterable[ToolCall | dict[str, Any] | tuple[str, dict[str, Any] | str]], *, content: str | None = None
) -> dict[str, Any]:
    """A reply with several tool calls, each a ``ToolCall``, a ``{"name", "arguments"[, "id"]}``
    dict or a ``(name, arguments)`` pair."""
    built = []
    for call in calls:
        if isinstance(call, ToolCall):
            built.append(call.model_dump())
        elif isinstance(call, dict):
            built.append(_tool_call(call["name"], call.get("arguments", {}), call.get("id")))
        elif isinstance(call, tuple) and len(call) == 2:
            built.append(_tool_call(call[0], call[1]))
        else:
            raise TypeError(f"a tool call is a ToolCall, a dict or a (name, arguments) pair, not {call!r}")
    return {"content": content, "tool_calls": built}


def _tool_call(name: str, arguments: dict[str, Any] | str, id: str | None = None) -> dict[str, Any]:  # noqa: A002
    text = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
    return {"id": id, "name": name, "arguments": text}


def _json_default(value: object) -> object:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    raise TypeError(f"a model message must be JSON, and {type(value).__name__} is not: {value!r}")


def _complete_reply(
    entry: ModelReply | dict[str, Any], name: str, messages_json: str, request_number: int
) -> ModelReply:
    """A full ``ModelReply`` from a scripted entry: a dict gets ids and usage filled in."""
    if isinstance(entry, ModelReply):
        return entry
    if not isinstance(entry, dict):
        raise TypeError(f"{name!r}: a reply is a ModelReply or a dict, not {type(entry).__name__}")
    content = entry.get("content")
    calls = [
        {**call, "id": call.get("id") or f"call_{request_number}_{position}"}
        for position, call in enumerate(_as_dicts(entry.get("tool_calls") or []), start=1)
    ]
    fields = {
        # counted only when the entry does not give them (a fake standing for a remote model may)
        "input_tokens": entry["input_tokens"] if "input_tokens" in entry else count_tokens(messages_json),
        "output_tokens": entry["output_tokens"] if "output_tokens" in entry else count_tokens(
            json.dumps({"content": content, "tool_calls": calls}, ensure_ascii=False)),
        "cost_usd": None,
        "model": name,
        **entry,
        "content": content,
        "tool_calls": calls,
    }
    return ModelReply.model_validate(fields)


def _as_dicts(calls: Sequence[ToolCall | dict[str, Any]]) -> list[dict[str, Any]]:
    return [call.model_dump() if isinstance(call, ToolCall) else dict(call) for call in calls]


class _Recorder:
    """What both fakes share: recording each request as a JSON copy."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.requests: list[ModelRequest] = []

    def _record(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None, tool_choice: str | None
    ) -> str:
        """Record the request; returns the messages' JSON (what input tokens are counted on)."""
        messages_json = json.dumps(messages, ensure_ascii=False, default=_json_default)
        tools_copy = None if tools is None else json.loads(json.dumps(tools, default=_json_default))
        self.requests.append(ModelRequest(json.loads(messages_json), tools_copy, tool_choice))
        return messages_json


class ScriptedModel(_Recorder):
    """Replays ``replies`` in order, one per call; see the module docstring."""

    def __init__(self, replies: Iterable[ModelReply | dict[str, Any] | BaseException], name: str = "scripted") -> None:
        super().__init__(name)
        self._script = list(replies)
        for position, entry in enumerate(self._script, start=1):
            if isinstance(entry, dict):
                _complete_reply(entry, name, "", position)  # a malformed reply fails here, not mid-run
            elif not isinstance(entry, (ModelReply, BaseException)):
                raise TypeError(
                    f"scripted reply {position} is a ModelReply, a dict or an exception, not {type(entry).__name__}"
                )

    @property
    def remaining(self) -> int:
        """How many scripted replies have not been asked for yet."""
        return max(0, len(self._script) - len(self.requests))

    async def complete(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None = None,
        *,
        tool_choice: str | None = None,
    ) -> ModelReply:
        messages_json = self._record(messages, tools, tool_choice)
        asked = len(self.requests)
        if asked > len(self._script):
            raise ScriptExhausted(self.name, asked, len(self._script))
        entry = self._script[asked - 1]
        if isinstance(entry, BaseException):
            raise entry
        return _complete_reply(entry, self.name, messages_json, asked)


class FunctionModel(_Recorder):
    """Answers each call with ``fn(messages, tools)``: a ``ModelReply`` or a reply dict,
    returned or awaited. Exceptions from ``fn`` propagate as they are."""

    def __init__(self, fn: ReplyFn, name: str = "function") -> None:
        super().__init__(name)
        self.fn = fn

    async def complete(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None = None,
        *,
        tool_choice: str | None = None,
    ) -> ModelReply:
        messages_json = self._record(messages, tools, tool_choice)
        result = self.fn(messages, tools)
        if inspect.isawaitable(result):
            result = await result
        return _complete_reply(result, self.name, messages_json, len(self.requests))


class _RecordingCursor:
    """A DuckDB cursor that appends each statement it executes to a list."""

    def __init__(self, cursor: duckdb.DuckDBPyConnection, log: list[str]) -> None:
        self._cursor = cursor
        self._log = log

    def execute(self, sql: str, *args: object) -> duckdb.DuckDBPyConnection:
        self._log.append(sql)
        return self._cursor.execute(sql, *args)

    def __getattr__(self, name: str) -> object:
        return getattr(self._cursor, name)


@contextmanager
def recorded_statements() -> Iterator[list[str]]:
    """Every statement run through ``Corpus.cursor()`` inside the block, in order (not thread-safe)."""
    log: list[str] = []
    real = Corpus.cursor
    setattr(Corpus, "cursor", lambda self: _RecordingCursor(real(self), log))  # a stand-in of another type
    try:
        yield log
    finally:
        setattr(Corpus, "cursor", real)
