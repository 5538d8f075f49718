"""Field-targeted search: a query matched against one field instead of the passage text.

``field`` names what is searched:

- ``text`` (or None): the passage text, by BM25 (the ordinary search);
- ``heading``: each passage's heading path; every passage under a matching heading is a hit;
- anything else: a top-level document field (front-matter ``title``, ``status``, a JSONL
  record's field); a string or a list of strings. A matching document's hit is its first
  passage, so that it can be read on from there.

The query and the field are tokenized as the index tokenizes text (``tokenize``). A hit's
score is the share of the query's terms the field holds (1.0: all); at least one must match.
Ties keep reading order (document, then passage). The scope's collection, row filter and
the exclusions apply as in every search; only current versions are searched.
"""

from __future__ import annotations

import json
from typing import Any

from clew.corpus.reader import Scope
from clew.corpus.tokenize import TOKEN, tokenize

HEADING = "heading"
TEXT = "text"


def field_search(scope: Scope, query: str, field: str, *, limit: int,
                 exclude_chunks: list[tuple[int, int, int]] = (),  # type: ignore[assignment]
                 exclude_document_keys: list[str] = ()) -> list[tuple[int, int, int, float]]:  # type: ignore[assignment]
    """The best ``limit`` (document, version, ordinal, score) whose ``field`` matches ``query``."""
    terms = set(tokenize(query))
    if not terms:
        return []
    needles = sorted({*terms, *(raw for raw in TOKEN.findall(query.lower()) if len(raw) > 1)})
    if field == HEADING:
        value, key, first = "array_to_string(c.heading_path, ' ')", [], ""
    else:
        value, key, first = "CAST(v.fields ->> ? AS VARCHAR)", [field], " AND c.ordinal = 0"
    params: list[Any] = [*key]  # the SELECT's value, then each LIKE's, in the order they appear
    for needle in needles:
        params.extend([*key, f"%{needle}%"])
    params.extend([*key, *key])
    # LIKE reads the stored text, which keeps what tokenize folds (a ligature's "\ufb01les" holds no "file"):
    # a value with a character past ASCII (more bytes than characters) goes to the tokenized check as it is.
    matches = " OR ".join([*(f"lower({value}) LIKE ?" for _ in needles), f"strlen({value}) <> length({value})"])
    predicate = scope.predicate(params)
    excluded = ""
    if exclude_document_keys:
        excluded = " AND d.key NOT IN (SELECT unnest(?::VARCHAR[]))"
        params.append(list(exclude_document_keys))
    sql = f"""SELECT c.document_id, c.version, c.ordinal, {value} FROM chunks c
              JOIN documents d ON c.document_id = d.id AND c.version = d.current_version{first}
              JOIN collections col ON col.id = d.collection_id
              JOIN document_versions v ON v.document_id = d.id AND v.version = d.current_version
              WHERE ({matches}) AND {predicate}{excluded}
              ORDER BY c.document_id, c.ordinal"""
    skipped = set(exclude_chunks)
    scored: list[tuple[int, int, int, float]] = []
    for document, version, ordinal, raw in scope.cursor().execute(sql, params).fetchall():
        if (document, version, ordinal) in skipped:
            continue
        held = set(tokenize(_text(raw)))
        share = len(terms & held) / len(terms)
        if share > 0:
            scored.append((int(document), int(version), int(ordinal), share))
    scored.sort(key=lambda row: -row[3])  # stable: reading order within a score
    return scored[:limit]


def _text(raw: object) -> str:
    """A field's value as text: a JSON list of strings is joined, anything else kept as written."""
    if isinstance(raw, str) and raw.startswith("["):
        try:
            values = json.loads(raw)
        except json.JSONDecodeError:
            return raw
        if isinstance(values, list):
            return " ".join(str(v) for v in values)
    return "" if raw is None else str(raw)
