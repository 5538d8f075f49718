"""JSON Lines: one document per line, ``{"key": ..., "text": ..., other fields}``.

Every non-blank line either becomes a :class:`JsonlRecord` or is reported as a
:class:`JsonlProblem` with its 1-based line number; a bad line never stops the others.
The text is parsed as plain text (:func:`clew.corpus.ingest.formats.text.parse_text`); every
other top-level field is kept in ``document.fields``, and a string ``title`` field is
also the document's title.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from clew.corpus.ingest.formats.text import parse_text
from clew.corpus.ingest.parsed import ParsedDocument


@dataclass(frozen=True, slots=True)
class JsonlRecord:
    line: int
    """1-based line number in the source."""
    key: str
    document: ParsedDocument


@dataclass(frozen=True, slots=True)
class JsonlProblem:
    line: int
    """1-based line number in the source."""
    message: str


class _LineError(Exception):
    """Why one line cannot become a record (internal: becomes a :class:`JsonlProblem`)."""


def parse_jsonl(
    source: str, *, key_field: str = "key", text_field: str = "text"
) -> tuple[list[JsonlRecord], list[JsonlProblem]]:
    """Parse every non-blank line of ``source``; return the records and the problems.

    The key is ``key_field`` (a non-blank string, or an integer, kept as its decimal
    string); with the default ``key_field="key"``, a record without ``"key"`` uses its
    ``"id"``. Keys must be unique within the file: a repeated key is a problem on the
    later line, and the first record stands.
    """
    records: list[JsonlRecord] = []
    problems: list[JsonlProblem] = []
    first_lines: dict[str, int] = {}
    # Split on "\n" only: a raw U+2028 may sit inside a JSON string, so no splitlines().
    for number, line in enumerate(source.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            key, key_name, text, fields = _read_line(line, key_field, text_field)
        except _LineError as error:
            problems.append(JsonlProblem(line=number, message=str(error)))
            continue
        if key in first_lines:
            message = f"duplicate key {key!r} in field {key_name!r} (first used on line {first_lines[key]})"
            problems.append(JsonlProblem(line=number, message=message))
            continue
        first_lines[key] = number
        document = parse_text(text)
        document.fields = fields
        title = fields.get("title")
        document.title = title if isinstance(title, str) and title.strip() else None
        records.append(JsonlRecord(line=number, key=key, document=document))
    return records, problems


def _reject_constant(name: str) -> object:
    raise ValueError(f"{name} is not valid JSON")


def _read_line(line: str, key_field: str, text_field: str) -> tuple[str, str, str, dict[str, object]]:
    """The key, the field it came from, the text, and every other top-level field."""
    try:
        value = json.loads(line, parse_constant=_reject_constant)
    except ValueError as error:  # json.JSONDecodeError is a ValueError
        raise _LineError(f"invalid JSON: {error}") from None
    except RecursionError:
        raise _LineError("invalid JSON: nested too deeply") from None
    if not isinstance(value, dict):
        raise _LineError(f"expected a JSON object, got {_json_type(value)}")
    key_name = "id" if key_field == "key" and "key" not in value and "id" in value else key_field
    if key_name not in value:
        fallback = ' (or "id")' if key_field == "key" else ""
        raise _LineError(f"missing key field {key_field!r}{fallback}")
    raw_key = value[key_name]
    if isinstance(raw_key, int) and not isinstance(raw_key, bool):
        key = str(raw_key)
    elif isinstance(raw_key, str) and raw_key.strip():
        key = raw_key
    elif isinstance(raw_key, str):
        raise _LineError(f"key field {key_name!r} is blank")
    else:
        raise _LineError(f"key field {key_name!r} must be a string or an integer, got {_json_type(raw_key)}")
    if text_field not in value:
        raise _LineError(f"missing text field {text_field!r}")
    text = value[text_field]
    if not isinstance(text, str):
        raise _LineError(f"text field {text_field!r} must be a string, got {_json_type(text)}")
    fields = {name: item for name, item in value.items() if name not in (key_name, text_field)}
    return key, key_name, text, fields


def _json_type(value: object) -> str:
    """The JSON name of a decoded value's type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"
