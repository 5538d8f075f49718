import json

import duckdb
import pytest

from clew.corpus.access import Principal, compile_filter, parse_field_expression, parse_filter
from clew.errors import InputError
from tests.conftest import python_output

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


NOT_FINITE = [
    ({"range": {"year": {"lt": float("nan")}}}, "range.year.lt", "nan"),
    ({"range": {"year": {"gte": float("-inf")}}}, "range.year.gte", "-inf"),
    ({"term": {"year": float("nan")}}, "term.year", "nan"),
    ({"terms": {"year": [2021, float("inf")]}}, "terms.year.1", "inf"),
    ({"bool": {"must_not": [{"range": {"year": {"gt": float("nan")}}}]}}, "bool.must_not.0.range.year.gt", "nan"),
    ('{"range": {"year": {"lt": NaN}}}', "range.year.lt", "nan"),  # JSON text as Python's json reads it
]


@pytest.mark.parametrize(("flt", "where", "value"), NOT_FINITE, ids=[w for _, w, _ in NOT_FINITE])
def test_nan_and_infinities_in_a_filter_are_errors_naming_where(flt: object, where: str, value: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_filter(flt, field="queries.0.filter")
    assert caught.value.field == "queries.0.filter"
    assert caught.value.message == f"malformed filter at {where}: must be a finite number, not {value}"


def test_a_nan_bound_compared_in_sql_would_grant_every_row(con: duckdb.DuckDBPyConnection) -> None:
    """Why NaN is refused: DuckDB orders NaN above every number, so ``lt = nan`` matches every numeric row."""
    assert con.execute("SELECT count(*) FROM v WHERE (fields->>'year')::DOUBLE < 'nan'::DOUBLE").fetchone() == (2,)
    assert matching(con, {"range": {"year": {"lt": 1e308}}}) == [1, 2]


def test_a_request_refuses_nan_in_its_filters_and_a_cli_expression_keeps_nan_as_text() -> None:
    from clew.agent.request import parse_request

    for query in ({"collection": "c", "filter": {"range": {"year": {"lt": float("nan")}}}},
                  {"collection": "c", "filter_query": {"term": float("inf"), "field": "year"}}):
        with pytest.raises(InputError) as caught:
            parse_request({"query": "q", "queries": [query]})
        assert caught.value.field.startswith("queries.0.filter") and "must be a finite number" in caught.value.message
    assert parse_field_expression("year=nan").term == {"year": "nan"}
    assert parse_field_expression("year=inf").term == {"year": "inf"}
    assert parse_field_expression("year=2.5").term == {"year": 2.5}


def test_a_model_with_a_filter_field_builds_the_filter_union_only_when_a_filter_is_parsed() -> None:
    code = ("from clew.corpus import access\nfrom clew.corpus.search.api import SearchRequest\n"
            "access.Principal(name='a')\nSearchRequest(query='q')\n"
            "before = access._filter_adapter.cache_info().currsize\n"
            "request = SearchRequest(query='q', filter={'term': {'status': 'published'}})\n"
            "print(before, access._filter_adapter.cache_info().currsize, type(request.filter).__name__)")
    assert python_output(code).split() == ["0", "1", "Term"]


def test_should_terms_on_one_field_compile_to_one_in_list_that_matches_the_same_rows(
        con: duckdb.DuckDBPyConnection) -> None:
    should = [{"term": {"acl": f"team{i}"}} for i in range(97)] + [
        {"term": {"acl": "sre"}}, {"terms": {"acl": ["dba", "sre"]}}, {"term": {"year": 2019}}]
    flt = {"bool": {"should": should}}
    params: list[object] = []
    sql = compile_filter(parse_filter(flt), params)
    assert sql.count(" IN ") == 2  # one IN-list for acl, one for year
    assert matching(con, flt) == [1, 2, 3]


def test_clauses_are_counted_over_the_whole_filter() -> None:
    inner = {"bool": {"should": [{"term": {"a": i}} for i in range(100)]}}
    assert parse_filter({"bool": {"must": [inner] * 9}})  # 909 clauses in all
    with pytest.raises(InputError) as caught:
        parse_filter({"bool": {"must": [inner] * 10}})
    assert caught.value.field == "filter" and "at most 1000 clauses in all" in caught.value.message
    assert "got 1010" in caught.value.message
