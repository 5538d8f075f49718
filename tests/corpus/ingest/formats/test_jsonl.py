from __future__ import annotations

from pathlib import Path

from clew.corpus.ingest.formats.jsonl import JsonlProblem, parse_jsonl

FIXTURES = Path(__file__).parents[3] / "fixtures" / "jsonl"


def read(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def test_handbook_records() -> None:
    records, problems = parse_jsonl(read("handbook.jsonl"))
    assert problems == []
    assert [(r.line, r.key) for r in records] == [(1, "battery-policy"), (3, "map-refresh"), (4, "42")]
    battery, refresh, record_42 = (r.document for r in records)
    for document in (battery, refresh, record_42):
        document.check()
    assert battery.fields == {"title": "Battery policy", "status": "approved", "acl": ["ops"]}
    assert battery.title == "Battery policy"
    assert [battery.text[b.start : b.end] for b in battery.blocks] == [
        "Charge robots below 20 percent.",
        "Swap packs every 500 cycles.",
    ]
    assert refresh.fields == {}
    assert refresh.title is None
    assert record_42.title is None  # a blank title is kept as a field, not as the title
    assert record_42.fields == {"title": "   "}


def test_every_problem_has_its_line_and_field() -> None:
    records, problems = parse_jsonl(read("broken.jsonl"))
    assert [(r.line, r.key) for r in records] == [(1, "ok-1"), (11, "ok-3")]
    assert [p.line for p in problems] == [2, 3, 4, 5, 6, 7, 9, 10]
    messages = {p.line: p.message for p in problems}
    assert messages[2].startswith("invalid JSON: ")
    assert messages[3] == "expected a JSON object, got an array"
    assert messages[4] == "missing key field 'key' (or \"id\")"
    assert messages[5] == "key field 'key' is blank"
    assert messages[6] == "missing text field 'text'"
    assert messages[7] == "text field 'text' must be a string, got a number"
    assert messages[9] == "duplicate key 'ok-1' in field 'key' (first used on line 1)"
    assert messages[10] == "key field 'key' must be a string or an integer, got a boolean"


def test_custom_fields_and_no_id_fallback() -> None:
    source = "\n".join(
        ['{"slug": "a", "body": "Alpha."}', '{"id": "b", "body": "Beta."}', '{"slug": "c", "text": "Gamma."}']
    )
    records, problems = parse_jsonl(source, key_field="slug", text_field="body")
    assert [(r.line, r.key) for r in records] == [(1, "a")]
    assert problems == [
        JsonlProblem(line=2, message="missing key field 'slug'"),
        JsonlProblem(line=3, message="missing text field 'body'"),
    ]
    assert records[0].document.fields == {}


def test_key_wins_over_id_and_id_stays_a_field() -> None:
    records, problems = parse_jsonl('{"key": "k", "id": "i", "text": "x"}')
    assert problems == []
    assert records[0].key == "k"
    assert records[0].document.fields == {"id": "i"}


def test_id_fallback_is_checked_like_a_key() -> None:
    source = '{"id": "", "text": "x"}\n{"id": 7, "text": "y"}\n{"key": "7", "text": "z"}'
    records, problems = parse_jsonl(source)
    assert [(r.line, r.key) for r in records] == [(2, "7")]
    assert problems == [
        JsonlProblem(line=1, message="key field 'id' is blank"),
        JsonlProblem(line=3, message="duplicate key '7' in field 'key' (first used on line 2)"),
    ]


def test_crlf_blank_lines_and_non_finite_numbers() -> None:
    source = '{"key": "a", "text": "one\\r\\ntwo"}\r\n\r\n   \r\n{"key": "b", "text": "x", "score": NaN}\r\n'
    records, problems = parse_jsonl(source)
    assert [(r.line, r.key) for r in records] == [(1, "a")]
    assert records[0].document.text == "one\ntwo"
    assert problems == [JsonlProblem(line=4, message="invalid JSON: NaN is not valid JSON")]


def test_line_separator_inside_a_string_is_not_a_line_break() -> None:
    records, problems = parse_jsonl('{"key": "a", "text": "before\u2028after"}\n{"key": "b", "text": "next"}')
    assert problems == []
    assert [(r.line, r.key) for r in records] == [(1, "a"), (2, "b")]
    assert records[0].document.text == "before\u2028after"


def test_empty_source() -> None:
    assert parse_jsonl("") == ([], [])
