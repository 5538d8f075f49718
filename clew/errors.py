"""Every error clew raises on purpose.

::

    ClewError
    ├── InputError                 bad input from a caller; ``field`` names what was wrong
    │   ├── MalformedEvidenceId    an id that cannot be decoded (``value``)
    │   └── UnknownCollection      a collection that does not exist or may not be read
    ├── CorpusError                the DuckDB store
    │   └── SchemaVersionError     the file was written by a newer clew
    ├── ModelError                 a model call failed after its retries, or was refused
    │                              (``model``, ``retryable``, ``attempts``)
    └── ScriptExhausted            a ``clew.testing`` fake was asked more than was scripted

Files that are empty, binary or undecodable are not errors: ingestion skips them and
reports them (``IngestReport.problems``).
"""

from __future__ import annotations


class ClewError(Exception):
    """Base of every error clew raises on purpose."""


class InputError(ClewError, ValueError):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class MalformedEvidenceId(InputError):
    def __init__(self, value: object, message: str) -> None:
        super().__init__("evidence_id", f"malformed evidence id {value!r}: {message}")
        self.value = value


class UnknownCollection(InputError):
    def __init__(self, name: str) -> None:
        super().__init__("collection", f"unknown collection {name!r}")
        self.name = name


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


def input_error_from(error: Exception, prefix: str = "") -> InputError:
    """Turn a pydantic ``ValidationError`` into an ``InputError`` naming the first bad field."""
    details = getattr(error, "errors", None)
    if not callable(details) or not details():
        return InputError(prefix or "input", str(error))
    first = details()[0]
    parts = [str(part) for part in first.get("loc", ()) if part != "__root__"]
    named = (first.get("ctx") or {}).get("field")
    if named:  # a model-level check that names the offending field (see ``field_error``)
        parts.append(str(named))
    path = ".".join(parts)
    field = ".".join(p for p in (prefix, path) if p) or "input"
    message = first.get("msg", "invalid value").removeprefix("Value error, ")
    return InputError(field, message)


def field_error(field: str, message: str) -> Exception:
    """For pydantic model validators: an error that ``input_error_from`` reports at ``field``."""
    from pydantic_core import PydanticCustomError

    return PydanticCustomError("clew_field", message, {"field": field})


class ModelError(ClewError):
    """A model call that failed: after its last retry, on an error not worth retrying, or
    refused before it was made (``attempts`` is 0 then)."""

    def __init__(self, model: str, message: str, retryable: bool = False, attempts: int = 0) -> None:
        super().__init__(f"{model}: {message}")
        self.model = model
        self.message = message
        self.retryable = retryable
        self.attempts = attempts


class ScriptExhausted(ClewError):
    """A scripted fake model (``clew.testing``) was asked for more replies than it was given."""

    def __init__(self, model: str, asked: int, scripted: int) -> None:
        super().__init__(
            f"{model!r} was asked for reply {asked} but only {scripted} were scripted"
        )
        self.model = model
        self.asked = asked
        self.scripted = scripted
