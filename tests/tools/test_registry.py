import asyncio
import json
import os
from pathlib import Path

import pytest

from clew.corpus.access import Principal
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.reader import Scope
from clew.corpus.store import Corpus
from clew.errors import InputError
from clew.navigation.models import NavigationResult
from clew.tools import Registry, ToolContext, registry
from tests.conftest import FIXTURES, Prebuilt, python_output

SNAPSHOT = Path(__file__).parent / "snapshots" / "tool_schemas.json"
NAVIGATION_TOOLS = {"navigate_document_tree", "get_chunk", "navigate", "read", "grep", "expand_neighbors",
                    "fetch_slice", "fetch_evidence", "check_citations"}


def build_acme(folder: Path) -> None:
    """acme-notes.md in notes (merge_sections, 160 tokens), built once a session (``prebuilt``) for every test."""
    with Corpus(folder / "acme.duckdb") as corpus:
        ingest_paths(corpus, [FIXTURES / "markdown" / "acme-notes.md"], collection="notes", chunk_tokens=160,
                     merge_sections=True)


@pytest.fixture
def context(tmp_path: Path, prebuilt: Prebuilt) -> ToolContext:
    corpus = Corpus(prebuilt(build_acme, tmp_path) / "acme.duckdb")
    yield ToolContext(Scope(corpus))
    corpus.close()


def test_schemas_match_the_snapshot() -> None:
    """Regenerate deliberately: CLEW_UPDATE_SNAPSHOTS=1 pytest tests/tools/test_registry.py"""
    schemas = registry.schemas()
    text = json.dumps(schemas, indent=2, sort_keys=True) + "\n"
    if os.environ.get("CLEW_UPDATE_SNAPSHOTS") == "1":
        SNAPSHOT.write_text(text)
    assert text == SNAPSHOT.read_text(), "tool schemas changed; regenerate the snapshot if that was intended"


def test_every_navigation_tool_is_registered_with_a_description() -> None:
    assert NAVIGATION_TOOLS <= set(registry.names())
    for schema in registry.schemas():
        function = schema["function"]
        assert schema["type"] == "function" and function["description"]
        assert function["parameters"]["type"] == "object" and function["parameters"]["additionalProperties"] is False
        for name, prop in function["parameters"]["properties"].items():
            assert prop.get("description"), f"{function['name']}.{name} has no description"


def test_call_validates_and_dispatches(context: ToolContext) -> None:
    result = registry.call("navigate_document_tree", {"evidence_id": "ev1:c:1:1:0", "relation": "parent"}, context)
    assert isinstance(result, NavigationResult) and len(result.items) == 2
    as_text = registry.call(
        "navigate_document_tree", '{"evidence_id": "ev1:c:1:1:0", "relation": "next", "max_chars": 80}', context
    )
    assert as_text.truncation_reason == "chars"
    for args, field in (({"evidence_id": "ev1:c:1:1:0", "relation": "up"}, "relation"),
                        ({"evidence_id": "ev1:c:1:1:0"}, "relation"),
                        ({"evidence_id": "ev1:c:1:1:0", "relation": "next", "extra": 1}, "extra"),
                        ('{"evidence_id": ', "arguments"),
                        (["ev1:c:1:1:0"], "arguments")):
        with pytest.raises(InputError) as caught:
            registry.call("navigate_document_tree", args, context)
        assert caught.value.field == field, caught.value


def test_evidence_goes_through_the_run_ledger(context: ToolContext) -> None:
    assert registry.call("check_citations", {"ids": ["ev1:c:1:1:2"]}, context).all_citable is False
    fetched = registry.call("fetch_evidence", {"ids": ["ev1:c:1:1:2"]}, context)
    assert fetched.evidence[0].recorded is True and context.ledger.ids == ["ev1:c:1:1:2"]
    assert registry.call("check_citations", {"ids": ["ev1:c:1:1:2"]}, context).all_citable is True


def test_unpermitted_tools_look_unknown(context: ToolContext) -> None:
    limited = ToolContext(Scope(context.scope.corpus, Principal(tools=frozenset({"get_chunk", "fetch_evidence"}))))
    assert [s["function"]["name"] for s in registry.schemas(limited)] == ["fetch_evidence", "get_chunk"]
    errors = []
    for name in ("expand_neighbors", "no_such_tool"):
        with pytest.raises(InputError) as caught:
            registry.call(name, {"ids": ["ev1:c:1:1:0"]}, limited)
        errors.append(str(caught.value).replace(repr(name), "NAME"))
    assert errors[0] == errors[1] and caught.value.field == "name"


def test_async_call(context: ToolContext) -> None:
    result = asyncio.run(registry.acall("get_chunk", {"evidence_id": "ev1:c:1:1:1"}, context))
    assert result.items[0].kind == "table"


def test_a_name_registers_once() -> None:
    from clew.navigation.reading import GetChunkArgs, get_chunk

    local = Registry()
    local.add(get_chunk, GetChunkArgs)
    with pytest.raises(ValueError, match="already registered"):
        local.add(get_chunk, GetChunkArgs)


def test_a_tool_takes_its_argument_model_whole() -> None:
    from clew.navigation.reading import GetChunkArgs, ReadResult

    def get_chunk(scope: object, evidence_id: str, max_chars: int = 12000) -> ReadResult:
        """Arguments restated as parameters: the registry refuses it."""
        raise AssertionError("never called")

    with pytest.raises(TypeError, match=r"a tool is fn\(scope, args: GetChunkArgs\[, ledger\]\); get_chunk takes "
                                        r"\(scope, evidence_id, max_chars\)"):
        Registry().add(get_chunk, GetChunkArgs)


def test_a_declared_tool_loads_its_module_on_first_use_only() -> None:
    code = ("import sys, json\nfrom clew.tools.builtin import registry\nnames = registry.names()\n"
            "before = sorted(m for m in sys.modules if m.startswith('clew.navigation.'))\n"
            "tool = registry.get('fetch_slice')\n"
            "after = sorted(m for m in sys.modules if m.startswith(('clew.navigation.', 'clew.tools.search')))\n"
            "print(json.dumps([names, before, after, tool.name]))")
    names, before, after, name = json.loads(python_output(code))
    assert len(names) == 10 and "fetch_slice" in names and name == "fetch_slice"
    assert before == ["clew.navigation.docstrings", "clew.navigation.ledger", "clew.navigation.models"]
    assert "clew.navigation.slices" in after
    assert not {"clew.navigation.graph", "clew.navigation.evidence", "clew.tools.search"} & set(after)


def test_a_declaration_is_one_tool_in_every_registry_that_holds_it() -> None:
    local = Registry()
    local.declare("clew.navigation.reading", "get_chunk", "GetChunkArgs")
    local.declare("clew.navigation.reading", "grep", "GrepArgs", name="find")
    wider = local.extended()
    assert local.names() == ["find", "get_chunk"] and wider.get("get_chunk") is local.get("get_chunk")
    assert [t.name for t in local.tools()] == ["get_chunk", "find"]
    assert local.get("find").arguments.__name__ == "GrepArgs"
    with pytest.raises(ValueError, match="already registered"):
        local.declare("clew.navigation.reading", "get_chunk", "GetChunkArgs")


def test_a_search_hit_goes_straight_to_navigate_and_read(context: ToolContext) -> None:
    hit = registry.call("search", {"query": "Daniel Okafor"}, context).hits[0]
    assert (hit.version, hit.start_offset < hit.end_offset) == (1, True)
    after = registry.call("navigate", {"document": hit.evidence_id, "start_offset": hit.start_offset,
                                       "end_offset": hit.end_offset}, context)
    assert after.items[0].location.char_start >= hit.end_offset
    same = registry.call("read", {"document": hit.document_key, "start": hit.start_offset, "end": hit.end_offset},
                         context)
    assert [i.evidence_id for i in same.items] == [hit.evidence_id]


def test_every_reading_tool_takes_a_collection_and_stays_in_it(context: ToolContext) -> None:
    for tool in registry.tools():
        assert "collection" in tool.arguments.model_fields, tool.name
    with pytest.raises(InputError) as caught:
        registry.call("read", {"document": "acme-notes.md", "collection": "nosuch"}, context)
    assert caught.value.field == "collection"
    narrowed = ToolContext(Scope(context.scope.corpus, collection="notes"))
    with pytest.raises(InputError):  # a scope never widens: another collection reads as unknown
        registry.call("get_chunk", {"evidence_id": "ev1:c:1:1:0", "collection": "other"}, narrowed)
    assert registry.call("get_chunk", {"evidence_id": "ev1:c:1:1:0", "collection": "notes"}, narrowed).status == "ok"
