import json

import duckdb
import pytest

from clew.corpus.access import Principal, compile_filter, parse_field_expression, parse_filter
from clew.errors import InputError

ROWS = {
    1: {"status": "published", "acl": ["oncall", "sre"], "year": 2021, "meta": {"team": "a"}, "date": "2024-05-01"},
    2: {"status": "draft", "acl": ["dba"], "year": 2019, "date": "2023-01-10"},
    3: {"status": "published", "acl": "dba", "owner": None},
    4: {},
}


@pytest.fixture(scope="module")
def con() -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    con.execute("CREATE TABLE v (id INTEGER, fields JSON)")
    for key, fields in ROWS.items():
        con.execute("INSERT INTO v VALUES (?, ?)", [key, json.dumps(fields)])
    return con


def matching(con: duckdb.DuckDBPyConnection, flt: object) -> list[int]:
    params: list[object] = []
    sql = compile_filter(parse_filter(flt), params)
    return [r[0] for r in con.execute(f"SELECT id FROM v WHERE {sql} ORDER BY id", params).fetchall()]


@pytest.mark.parametrize(
    ("flt", "expected"),
    [
        ({"term": {"status": "published"}}, [1, 3]),
        ({"term": {"acl": "dba"}}, [2, 3]),  # a list field contains the term; a scalar equals it
        ({"terms": {"acl": ["sre", "dba"]}}, [1, 2, 3]),
        ({"term": {"year": 2019}}, [2]),
        ({"range": {"year": {"gte": 2020}}}, [1]),
        ({"range": {"year": {"gt": 2000, "lt": 2020}}}, [2]),
        ({"range": {"date": {"gte": "2024-01-01"}}}, [1]),
        ({"exists": {"field": "owner"}}, []),  # null counts as missing
        ({"exists": {"field": "acl"}}, [1, 2, 3]),
        ({"term": {"meta.team": "a"}}, [1]),
        ({"bool": {"must": [{"term": {"status": "published"}}], "must_not": [{"term": {"acl": "dba"}}]}}, [1]),
        ({"bool": {"must_not": [{"term": {"acl": "dba"}}]}}, [1, 4]),  # missing fields do not match, so NOT keeps them
        ({"bool": {"should": [{"term": {"year": 2019}}, {"term": {"acl": "sre"}}]}}, [1, 2]),
        ({"bool": {}}, [1, 2, 3, 4]),
    ],
)
def test_filters(con: duckdb.DuckDBPyConnection, flt: dict, expected: list[int]) -> None:
    assert matching(con, flt) == expected


@pytest.mark.parametrize(
    ("flt", "message"),
    [
        ({"term": {"a": 1, "b": 2}}, "exactly one field"),
        ({"terms": {"acl": []}}, "at least one value"),
        ({"range": {"year": {}}}, "at least one of gt"),
        ({"range": {"year": {"gt": 1, "lt": "z"}}}, "all numbers or all strings"),
        ({"term": {"bad name; drop": 1}}, "invalid field name"),
        ({"match": {"a": 1}}, "malformed filter"),
        ("{not json", "not valid JSON"),
    ],
)
def test_malformed_filters_name_the_field(flt: object, message: str) -> None:
    with pytest.raises(InputError, match=message) as caught:
        parse_filter(flt, field="queries[0].filter")
    assert caught.value.field == "queries[0].filter"


def test_cli_field_expressions() -> None:
    assert parse_field_expression("status=published").term == {"status": "published"}
    assert parse_field_expression("year=2021").term == {"year": 2021}
    for bad in ("status", "=x", "status=", "a b=c"):
        with pytest.raises(InputError, match="FIELD=VALUE"):
            parse_field_expression(bad)


def test_principal_is_immutable_and_checks() -> None:
    principal = Principal(name="ops", collections=frozenset({"runbooks"}), tools=frozenset({"tree_search"}))
    assert principal.may_read_collection("runbooks") and not principal.may_read_collection("hr")
    assert principal.may_use("tree_search") and not principal.may_use("graph_search")
    assert Principal().may_read_collection("anything") and Principal().may_use("graph_search")
    with pytest.raises(ValueError, match="frozen"):
        principal.name = "root"  # type: ignore[misc]
