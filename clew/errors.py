"""Every error clew raises on purpose.

::

    ClewError                      HTTP  exit  what it means
    ├── InputError                 400   2     bad input from a caller; ``field`` names what was wrong,
    │   │                                      ``errors`` lists every problem of the input at once
    │   ├── MalformedEvidenceId    400   2     an id that cannot be decoded (``value``)
    │   ├── UnknownCollection      404   1     a collection that does not exist or may not be read
    │   ├── UnknownDocument        404   1     no current document of this key that may be read (``did_you_mean``)
    │   └── UnknownTool            404   2     no such tool (MCP: also a tool the principal may not use)
    ├── Unauthorized               401   2     no API key, or a wrong one
    ├── Forbidden                  403   2     the principal may not use this tool or model (``permission``),
    │                                          or a browser's cross-origin request
    ├── MisdirectedHost            421   2     a Host header the server does not answer to (DNS rebinding)
    ├── UnsupportedMediaType       415   2     a body that is not JSON on a JSON route
    ├── ReadOnlyCorpus             409   3     a write to a corpus opened read-only
    ├── CorpusError                503   3     the DuckDB store
    │   ├── SchemaVersionError     503   3     the file was written by a newer clew
    │   └── StoreFailure           503   3     a write (or the file's checkpoint) failed: a full disk, an I/O
    │                                          error; the transaction was rolled back (``path``, ``cause``)
    ├── ModelError                 502   3     a model call failed after its retries, or was refused
    │                                          (``model``, ``retryable``, ``attempts``)
    ├── BudgetExhausted            503   3     a run's budget ran out (``reason``; runs end ``incomplete``)
    ├── IllegalTransition          500   3     the controller refused a transition not in its table
    ├── DatasetError               400   2     an eval dataset with malformed lines (``problems``)
    ├── MissingExtra               501   2     an optional part that is not installed (``extra`` names it)
    └── ScriptExhausted            500   3     a ``clew.testing`` fake was asked more than was scripted

Each class carries its HTTP status (``http_status``), its command-line exit status
(``exit_code``: 1 nothing found or unavailable, 2 bad input, 3 store or model failure; see
``clew.commands.common``), its ``kind`` and ``payload()``, the JSON body the REST API answers
with: ``error_body``'s ``{"error": kind, "message": text, ..., "detail": text}`` on every status
(``detail`` repeats ``message`` for the clients that read it); the CLI's JSON envelope carries
``{"kind", "message", "field"}`` and the MCP server answers a tool error with ``str(error)``.
The front ends map errors nowhere else.
Files that are empty, binary or undecodable are not errors: ingestion
skips them and reports them (``IngestReport.problems``).
"""

from __future__ import annotations

from typing import Any, Literal


class ClewError(Exception):
    """Base of every error clew raises on purpose."""

    http_status = 503
    exit_code = 3
    kind = "failed"

    def payload(self) -> dict[str, Any]:
        """The JSON body of a REST answer carrying this error (``error_body``)."""
        return error_body(self.kind, str(self))


def error_body(kind: str, message: str, **more: Any) -> dict[str, Any]:
    """The one shape of a REST error body, on every status: ``error`` (the kind: ``input``,
    ``unauthorized``, ``forbidden``, ``unavailable``, ``store_unavailable``, ...), ``message`` (the
    text to read), what else the error names (``field``, ``errors``, ``did_you_mean``), and ``detail``,
    the same text as ``message``, kept for the clients that read FastAPI's name for it."""
    return {"error": kind, "message": message, **more, "detail": message}


class InputError(ClewError, ValueError):
    http_status = 400
    exit_code = 2
    kind = "input"

    def __init__(self, field: str, message: str, others: list[tuple[str, str]] | None = None) -> None:
        self.errors = [(field, message), *(others or ())]
        """Every problem found in the input, (field, message), the first being ``field``."""
        super().__init__("; ".join(f"{f}: {m}" for f, m in self.errors))
        self.field = field
        self.message = message

    def payload(self) -> dict[str, Any]:
        more: dict[str, Any] = {"field": self.field}
        if len(self.errors) > 1:
            more["errors"] = [{"field": f, "message": m} for f, m in self.errors]
        return error_body(self.kind, self.message, **more)


class MalformedEvidenceId(InputError):
    def __init__(self, value: object, message: str) -> None:
        super().__init__("evidence_id", f"malformed evidence id {value!r}: {message}")
        self.value = value


class UnknownCollection(InputError):
    """A collection that does not exist or may not be read: the same answer."""

    http_status = 404
    exit_code = 1
    kind = "unavailable"

    def __init__(self, name: str) -> None:
        super().__init__("collection", f"unknown collection {name!r}")
        self.name = name


class UnknownDocument(InputError):
    """No current document of this key (or title) that the principal may read; ``did_you_mean`` lists the
    keys meant, among readable documents only."""

    http_status = 404
    exit_code = 1
    kind = "unavailable"

    def __init__(self, key: str, message: str, did_you_mean: list[str]) -> None:
        super().__init__("key", message)
        self.key = key
        self.did_you_mean = did_you_mean

    def payload(self) -> dict[str, Any]:
        return error_body(self.kind, self.message, field=self.field, did_you_mean=self.did_you_mean)


class UnknownTool(InputError):
    """No tool of this name, or (to a model, and over MCP) one the principal may not use: the same words."""

    http_status = 404

    def __init__(self, name: object, known: list[str]) -> None:
        super().__init__("name", f"unknown tool {name!r}; tools: {', '.join(known)}")
        self.name = name


class Unauthorized(ClewError):
    http_status = 401
    exit_code = 2
    kind = "unauthorized"


class Forbidden(ClewError):
    """The principal may not use a tool (REST answers 403; MCP reads it as an unknown tool)."""

    http_status = 403
    exit_code = 2
    kind = "forbidden"

    def __init__(self, permission: str, message: str | None = None) -> None:
        super().__init__(message or f"this key may not use {permission}")
        self.permission = permission


class MisdirectedHost(ClewError):
    """A request naming a host the server does not answer to (``clew.server.guard``)."""

    http_status = 421
    exit_code = 2
    kind = "misdirected"


class UnsupportedMediaType(ClewError):
    """A request body that is not JSON on a route that reads JSON (``clew.server.guard``)."""

    http_status = 415
    exit_code = 2
    kind = "unsupported_media_type"


class ReadOnlyCorpus(ClewError):
    http_status = 409
    kind = "read_only"


class CorpusError(ClewError):
    """A failure of the DuckDB store."""


class SchemaVersionError(CorpusError):
    def __init__(self, path: str, found: int, supported: int) -> None:
        super().__init__(
            f"{path} uses corpus schema version {found}, but this clew reads up to version "
            f"{supported}; upgrade clew to open it"
        )
        self.path = path
        self.found = found
        self.supported = supported


class StoreFailure(CorpusError):
    """The store failed under a write: DuckDB raised (a full disk, an I/O error, a file-size
    limit) and the transaction was rolled back, so nothing of it is stored. The CLI exits 3."""

    def __init__(self, path: str, cause: BaseException, doing: str = "a write",
                 kept: str = "it was rolled back") -> None:
        reason = " ".join(str(cause).split()) or type(cause).__name__
        super().__init__(f"{path}: {doing} failed: {reason}; {kept}")
        self.path = path
        self.cause = cause


def input_error_from(error: object, prefix: str = "", model: object = None) -> InputError:
    """Turn a pydantic ``ValidationError`` into an ``InputError`` naming every bad field (the first as ``field``).

    With the validated ``model`` (a pydantic model class), an unknown field also names the field
    meant where one is close (``limt: Extra inputs are not permitted; did you mean 'limit'?``)."""
    details = getattr(error, "errors", None)
    if not callable(details) or not details():
        return InputError(prefix or "input", str(error))
    found = [_located(one, prefix, model) for one in details()]
    unique = list(dict.fromkeys(found))
    return InputError(*unique[0], others=unique[1:])


def _located(detail: dict[str, Any], prefix: str, model: object = None) -> tuple[str, str]:
    parts = [str(part) for part in detail.get("loc", ()) if part != "__root__"]
    named = (detail.get("ctx") or {}).get("field")
    if named:  # a model-level check that names the offending field (see ``field_error``)
        parts.append(str(named))
    path = ".".join(parts)
    field = ".".join(p for p in (prefix, path) if p) or "input"
    message = detail.get("msg", "invalid value").removeprefix("Value error, ")
    if detail.get("type") == "extra_forbidden" and parts:
        meant = _meant(parts[-1], _model_at(model, parts[:-1]))
        if meant:
            message += f"; did you mean {' or '.join(repr(name) for name in meant)}?"
    return field, message


def field_meant(given: str, known: list[str]) -> list[str]:
    """The known field names a caller most likely meant by ``given`` (a typo, a case slip, or a part
    of the name: ``budget`` for ``context_budget_tokens``); at most three, closest first."""
    import difflib

    wanted = given.casefold()
    close = difflib.get_close_matches(wanted, [name.casefold() for name in known], n=3, cutoff=0.75)
    parts = [name for name in known if len(wanted) >= 4 and wanted in name.casefold()] if not close else []
    chosen = [name for lower in close for name in known if name.casefold() == lower] + parts
    return list(dict.fromkeys(chosen))[:3]


def _meant(given: str, model: object) -> list[str]:
    """The fields of ``model`` meant by ``given``; else those of a model one level down, named where they
    live (``queries[].limit`` for a request's top-level ``limit``)."""
    fields = _fields(model)
    here = field_meant(given, list(fields))
    if here or not fields:
        return here
    below: dict[str, str] = {}
    for name, info in fields.items():
        inner, many = _model_in(info.annotation)
        for leaf in _fields(inner):
            below.setdefault(leaf, f"{name}[].{leaf}" if many else f"{name}.{leaf}")
    return [below[leaf] for leaf in field_meant(given, list(below))]


def _fields(model: object) -> dict[str, Any]:
    fields = getattr(model, "model_fields", None)
    return fields if isinstance(fields, dict) else {}


def _model_at(model: object, path: list[str]) -> object:
    """``model``, or the nested model at ``path`` (None where it is not a model)."""
    for part in path:
        if part.isdigit():  # an item of a list: the list's annotation already gave its model
            continue
        info = _fields(model).get(part)
        if info is None:
            return None
        model = _model_in(info.annotation)[0]
    return model


def _model_in(annotation: object) -> tuple[object, bool]:
    """The pydantic model an annotation holds (``Filters``, ``Filters | None``, ``list[Query]``), else None;
    and whether it holds a list of them."""
    import typing

    if hasattr(annotation, "model_fields"):
        return annotation, False
    for arg in typing.get_args(annotation):
        found, many = _model_in(arg)
        if found is not None:
            return found, many or typing.get_origin(annotation) in (list, tuple)
    return None, False


def field_error(field: str, message: str) -> Exception:
    """For pydantic model validators: an error that ``input_error_from`` reports at ``field``."""
    from pydantic_core import PydanticCustomError

    return PydanticCustomError("clew_field", message, {"field": field})


class ModelError(ClewError):
    """A model call that failed: after its last retry, on an error not worth retrying, or
    refused before it was made (``attempts`` is 0 then)."""

    http_status = 502

    def __init__(self, model: str, message: str, retryable: bool = False, attempts: int = 0) -> None:
        super().__init__(f"{model}: {message}")
        self.model = model
        self.message = message
        self.retryable = retryable
        self.attempts = attempts


BudgetReason = Literal["max_internal_iterations", "max_tool_calls", "context_budget"]


class BudgetExhausted(ClewError):
    """A run's budget ran out (``reason``: max_internal_iterations, max_tool_calls, context_budget)."""

    def __init__(self, reason: BudgetReason, message: str) -> None:
        super().__init__(message)
        self.reason: BudgetReason = reason


class IllegalTransition(ClewError):
    """The controller was asked for a transition its table does not have (a bug, never input)."""

    http_status = 500

    def __init__(self, source: Any, target: Any) -> None:
        super().__init__(f"illegal transition {getattr(source, 'value', source)} -> {getattr(target, 'value', target)}")
        self.source = source
        self.target = target


class DatasetError(ClewError):
    """A dataset with malformed lines; ``problems`` lists every one with its line number."""

    http_status = 400
    exit_code = 2
    kind = "input"

    def __init__(self, problems: list[Any]) -> None:
        shown = "\n".join(f"  {p}" for p in problems[:20])
        more = f"\n  ... and {len(problems) - 20} more" if len(problems) > 20 else ""
        super().__init__(f"{len(problems)} malformed dataset line(s):\n{shown}{more}")
        self.problems = problems


class ScriptExhausted(ClewError):
    """A scripted fake model (``clew.testing``) was asked for more replies than it was given."""

    http_status = 500

    def __init__(self, model: str, asked: int, scripted: int) -> None:
        super().__init__(
            f"{model!r} was asked for reply {asked} but only {scripted} were scripted"
        )
        self.model = model
        self.asked = asked
        self.scripted = scripted


class MissingExtra(ClewError):
    """Code that needs an optional dependency that is not installed; ``extra`` names the extra
    that installs it (``pip install -e '.[server]'``, see ``clew.extras``)."""

    http_status = 501
    exit_code = 2

    def __init__(self, extra: str, purpose: str, module: str) -> None:
        super().__init__(f"{purpose} needs the {extra!r} extra ({module} is not installed): "
                         f"pip install -e '.[{extra}]' from a clone, or pip install 'clew[{extra}]'")
        self.extra = extra
        self.module = module
