"""A queries[] entry may leave its collection out where the caller reads one collection (task Q3):
over REST on a real uvicorn on 127.0.0.1 and in an MCP client session, as in Python."""

from __future__ import annotations

from pathlib import Path

import httpx

from clew.config.settings import load_config
from clew.corpus.access import Principal
from clew.corpus.store import Corpus
from clew.server.rest import create_app

from .conftest import ADMIN, CONFIG, auth
from .test_caller import call
from .test_rest_live import Served

NOTES_KEY = "notes-walker-0001"
NOTES_ONLY = Principal(name="notes-reader", collections=["notes"])
REQUEST = {"query": "Who owns Orion Maps?", "queries": [{"limit": 5}]}


def test_rest_fills_a_query_entry_with_the_one_readable_collection(corpus: Corpus, tmp_path: Path) -> None:
    path = tmp_path / "notes.toml"
    path.write_text(CONFIG + f'\n[principals.walker]\ncollections = ["notes"]\n\n[[api_keys]]\nkey = "{NOTES_KEY}"\n'
                    'principal = "walker"\n', encoding="utf-8")
    with Served(create_app(corpus, load_config(path))) as served, \
            httpx.Client(base_url=served.url, timeout=30) as client:
        filled = client.post("/v1/agents/retrieval", json=REQUEST, headers=auth(NOTES_KEY))
        several = client.post("/v1/tools/retrieve", json=REQUEST, headers=auth(ADMIN))
    assert filled.status_code == 200, filled.text
    result = filled.json()
    assert result["applied"]["collection"] == "notes" and result["applied"]["query_limits"] == [5]
    assert result["hits"] and "private" not in filled.text  # the collection it may not read is never named
    assert several.status_code == 400, several.text
    assert "queries.0.collection" in several.text and "2 collections (notes, private)" in several.text


def test_mcp_fills_a_query_entry_with_the_one_readable_collection(corpus: Corpus) -> None:
    called = call(corpus, REQUEST, NOTES_ONLY)
    assert not called.is_error, called.content[0].text
    assert called.structured_content["applied"]["collection"] == "notes" and called.structured_content["hits"]
    assert "private" not in called.content[0].text
    several = call(corpus, REQUEST)  # the local principal reads notes and private
    assert several.is_error
    assert "queries.0.collection" in several.content[0].text and "notes, private" in several.content[0].text
