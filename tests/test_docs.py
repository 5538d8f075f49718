"""The documentation site's generated parts (scripts/docs_hooks.py) come from the code as it stands,
and every page under docs/ is in the site's nav. ``make test`` builds the whole site with
``mkdocs build --strict``; these checks need no mkdocs."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

import pytest
import yaml

import clew
from clew.cli import COMMANDS
from clew.surface import surface
from tests.modules import load_module

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def hooks() -> ModuleType:
    return load_module("docs_hooks", ROOT / "scripts" / "docs_hooks.py")


def nav_pages(entries: list[object]) -> list[str]:
    pages: list[str] = []
    for entry in entries:
        values = entry.values() if isinstance(entry, dict) else [entry]
        for value in values:
            pages += nav_pages(value) if isinstance(value, list) else [str(value)]
    return pages


def test_the_cli_reference_has_every_command_s_own_help() -> None:
    text = hooks()._cli()
    for name, entry in COMMANDS.items():
        if entry.hidden:  # an alias: named beside the command it stands for
            assert f"`clew {name}`" in text
        else:
            assert f"## clew {name}\n" in text and f"Usage: clew {name} " in text
    assert "--context-tokens" in text and "--max-text-mib" in text  # options of ask and ingest, as typer shows them


def test_the_tool_schemas_are_each_tool_s_own() -> None:
    text = hooks()._tool_schemas()
    for tool in surface.tools():
        assert f"### `{tool.name}`" in text
    assert '"maxLength": 10000' in text  # a bound of search's query, from its model


def test_the_rest_reference_lists_every_route_of_the_app() -> None:
    rows = hooks()._rest().splitlines()[2:]
    routes = {(row.split(" | ")[0].strip("| "), row.split("`")[1]) for row in rows}
    assert {("POST", f"/v1/tools/{name}") for name in surface.names() if name != "retrieve"} <= routes
    assert {("POST", "/v1/agents/retrieval"), ("GET", "/healthz"),
            ("DELETE", "/v1/collections/{name}/documents")} <= routes


def test_the_python_reference_documents_every_public_name() -> None:
    text = hooks()._python_api()
    documented = set(re.findall(r"^## `clew\.(\w+)`", text, re.M))
    assert documented == set(clew.__all__) - {"__version__"}
    assert "async def asearch(corpus: Corpus, request: SearchRequest | dict[str, Any]" in text


def test_every_page_is_in_the_nav_and_every_nav_entry_is_a_page() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    listed = nav_pages(config["nav"])
    pages = sorted(str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md"))
    assert sorted(listed) == pages
    for page in pages:
        assert (DOCS / page).read_text().startswith("# "), f"{page} has no title"


def test_a_page_s_markers_are_replaced_and_an_unknown_one_stops_the_build() -> None:
    module = hooks()
    rendered = module.on_page_markdown("# x\n\n<!-- generated:cli -->\n")
    assert "## clew ingest\n" in rendered and "generated:" not in rendered
    with pytest.raises(ValueError, match="unknown marker <!-- generated:clii -->; known: cli, tool-schemas"):
        module.on_page_markdown("# x\n\n<!-- generated:clii -->\n")
