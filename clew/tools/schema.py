"""Tool schemas as a model reads them: pydantic's JSON schema without what says nothing, meaning the same.

Most clients put every tool's schema before their model on every turn, so each token of a schema is paid
on every turn (``benchmarks/mcp_listing.py`` counts them). ``compact`` keeps what a validator checks and
what a model reads, and drops or rewrites the rest:

- pydantic's generated ``title``s (a model reads descriptions; a title repeats the field's name);
- ``"default": null`` (a field left out is null);
- ``$defs`` no property reaches (a hidden field's models), and a def used once, which is written where it
  is used (its name and the ``$ref`` say nothing there; a field's description replaces the def's, which
  repeats it);
- ``anyOf`` over branches of one type each, with keywords that constrain that type alone, written as one
  ``"type": [...]``: ``{"anyOf": [{"type": "string", "maxLength": 9}, {"type": "null"}]}`` is
  ``{"type": ["string", "null"], "maxLength": 9}``.

The same values validate against the compacted schema as against pydantic's.
"""

from __future__ import annotations

import json
import re
from typing import Any

_ONE_TYPE = {
    "null": frozenset(), "boolean": frozenset(),
    "string": frozenset({"maxLength", "minLength", "pattern", "format"}),
    "integer": frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}),
    "number": frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}),
    "array": frozenset({"items", "maxItems", "minItems", "uniqueItems"}),
    "object": frozenset({"properties", "additionalProperties", "required", "maxProperties", "minProperties"}),
}
"""Per JSON type, the keywords that constrain values of that type only."""
_SAYS_NOTHING = frozenset({"type", "description", "default"})
_REF = re.compile(r'"\$ref": "#/\$defs/([^"]+)"')
_WRAP = re.compile(r"(?<=\S)\n(?![\n\-*] |\n)")


def unwrap(text: str) -> str:
    """A docstring's hard-wrapped lines joined (paragraphs and list items kept): a line break in JSON is an
    escape a tokenizer does not merge with the next word, where a space is."""
    return _WRAP.sub(" ", text)


def compact(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` (a pydantic JSON schema) as described above."""
    defs: dict[str, Any] = schema.get("$defs", {})
    root = {k: v for k, v in schema.items() if k != "$defs"}
    uses = _uses(root, defs)
    inline = {name for name, count in uses.items() if count == 1 and not _cyclic(name, defs)}
    body = _rewrite(root, defs, inline)
    kept = {name: _rewrite(defs[name], defs, inline) for name in defs if name in uses and name not in inline}
    return {**({"$defs": kept} if kept else {}), **body}


def _refs(schema: Any) -> list[str]:
    return _REF.findall(json.dumps(schema))


def _uses(root: dict[str, Any], defs: dict[str, Any]) -> dict[str, int]:
    """How often each def reached from ``root`` is referenced (by ``root`` and by the reached defs)."""
    uses: dict[str, int] = {}
    pending = [root]
    while pending:
        for name in _refs(pending.pop()):
            if name in defs:
                uses[name] = uses.get(name, 0) + 1
                if uses[name] == 1:
                    pending.append(defs[name])
    return uses


def _cyclic(name: str, defs: dict[str, Any]) -> bool:
    seen: set[str] = set()
    pending = list(_refs(defs[name]))
    while pending:
        ref = pending.pop()
        if ref == name:
            return True
        if ref not in seen and ref in defs:
            seen.add(ref)
            pending.extend(_refs(defs[ref]))
    return False


def _rewrite(schema: Any, defs: dict[str, Any], inline: set[str]) -> Any:
    if isinstance(schema, list):
        return [_rewrite(v, defs, inline) for v in schema]
    if not isinstance(schema, dict):
        return schema
    kept = {k: unwrap(v) if k == "description" and isinstance(v, str) else _rewrite(v, defs, inline)
            for k, v in schema.items()
            if not (k == "title" and isinstance(v, str)) and not (k == "default" and v is None)}
    ref = kept.get("$ref")
    if isinstance(ref, str) and ref.removeprefix("#/$defs/") in inline:
        body = _rewrite(defs[ref.removeprefix("#/$defs/")], defs, inline)
        kept = {**body, **{k: v for k, v in kept.items() if k != "$ref"}}
    branches = kept.get("anyOf")
    if isinstance(branches, list):
        merged = _one_type_each(branches)
        if merged is not None:
            return {**merged, **{k: v for k, v in kept.items() if k != "anyOf"}}
    return kept


def _one_type_each(branches: list[Any]) -> dict[str, Any] | None:
    """``anyOf`` ``branches`` as one schema, where each is of one type of its own and constrains it alone."""
    types: list[str] = []
    merged: dict[str, Any] = {}
    for branch in branches:
        kind = branch.get("type") if isinstance(branch, dict) else None
        if not isinstance(kind, str) or kind not in _ONE_TYPE or kind in types:
            return None
        own = set(branch) - _SAYS_NOTHING
        if not own <= _ONE_TYPE[kind] or own & set(merged):
            return None
        types.append(kind)
        merged.update({k: v for k, v in branch.items() if k in own or (k == "description" and k not in merged)})
    if {"integer", "number"} <= set(types) and set(merged) & _ONE_TYPE["number"]:
        return None  # a bound of one would bind the other
    return {**merged, "type": types}
