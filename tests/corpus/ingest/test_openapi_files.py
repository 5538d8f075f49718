"""OpenAPI descriptions among the files of an ingest (task O1): a ``.json``, ``.yaml`` or ``.yml`` file is read as
one where its bytes hold an ``openapi``/``swagger`` key, else skipped as a file of a type clew does not read, as before;
questions on the descriptions of tests/fixtures/openapi found in their operations' and schemas' sections."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from clew.corpus.ingest import source_file
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.source_file import read_source
from clew.corpus.ingest.sources import FileLimits, format_of
from clew.corpus.search.api import search
from clew.corpus.store import Corpus

FIXTURES = Path(__file__).parents[2] / "fixtures" / "openapi"


def test_only_openapi_descriptions_are_read_of_json_and_yaml_files(tmp_path: Path) -> None:
    files = {"package.json": '{"name": "x", "version": "1.0.0"}', "mkdocs.yml": "site_name: X\nnav: []\n",
             "_config.yml": "title: X\n", "swagger.json": (FIXTURES / "dialogporten.json").read_text()}
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    assert {format_of(tmp_path / name) for name in files} == {"openapi"}
    read_as = {name: read_source(tmp_path / name, name) for name in files}
    assert {name: problem.unread_type for name, (_, problem) in read_as.items() if problem} == {
        "package.json": ".json", "mkdocs.yml": ".yml", "_config.yml": ".yml"}
    assert read_as["mkdocs.yml"][1] is not None
    assert read_as["mkdocs.yml"][1].message == "unsupported file type '.yml': not an OpenAPI description"
    source, _ = read_as["swagger.json"]
    assert source is not None and source.format == "openapi"


def test_a_description_over_the_text_limit_is_skipped_naming_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                                 ) -> None:
    spec = tmp_path / "openapi.yaml"
    spec.write_text((FIXTURES / "petstore-v31.yaml").read_text())
    source, problem = read_source(spec, "openapi.yaml", FileLimits(text_bytes=1024))
    assert source is None and problem is not None
    assert problem.message.startswith("2,718 bytes is over the 1,024 bytes limit for text files (openapi)")
    # one whose keys are sorted holds its swagger key last, past the limit: it was counted as a .json clew does not read
    (tmp_path / "swagger.json").write_text('{"definitions": {"Pet": {"description": "' + "x" * 2000 + '"}}, '
                                           '"info": {"title": "Pets", "version": "1"}, "paths": {}, "swagger": "2.0"}')
    source, problem = read_source(tmp_path / "swagger.json", "swagger.json", FileLimits(text_bytes=1024))
    assert source is None and problem is not None and problem.unread_type is None
    assert problem.message.startswith("2,119 bytes is over the 1,024 bytes limit for text files (openapi)")
    # an OpenAPI 3 description sorted by key holds 'openapi' after its components, in its middle: neither in the
    # first bytes read (up to the limit) nor in the last 64 KiB, it was counted as a .json clew does not read
    (tmp_path / "openapi.json").write_text('{"components": {"schemas": {"Pet": {"description": "' + "x" * 2000
                                           + '"}}}, "info": {"title": "Pets", "version": "1"}, "openapi": "3.0.3", '
                                           '"paths": {"/pets": {"description": "' + "y" * 70_000 + '"}}}')
    source, problem = read_source(tmp_path / "openapi.json", "openapi.json", FileLimits(text_bytes=1024))
    assert source is None and problem is not None and problem.unread_type is None
    assert problem.message.startswith("72,161 bytes is over the 1,024 bytes limit for text files (openapi)")
    # of a file past OPENAPI_SCAN, the key is looked for in its first OPENAPI_SCAN bytes and its last OPENAPI_TAIL
    monkeypatch.setattr(source_file, "OPENAPI_SCAN", 4096)
    source, problem = read_source(tmp_path / "swagger.json", "swagger.json", FileLimits(text_bytes=1024))
    assert source is None and problem is not None and problem.unread_type is None  # in the tail
    source, problem = read_source(tmp_path / "openapi.json", "openapi.json", FileLimits(text_bytes=1024))
    assert source is None and problem is not None and problem.unread_type is None  # in the first 4096 bytes
    (tmp_path / "late.json").write_text('{"components": {"x": "' + "x" * 10_000 + '"}, "openapi": "3.0.3", "paths": {'
                                        '"x": "' + "y" * 70_000 + '"}}')
    source, problem = read_source(tmp_path / "late.json", "late.json", FileLimits(text_bytes=1024))
    assert source is None and problem is not None and problem.unread_type == ".json"  # in neither: counted by type
    # a JSON file past the limit that is no description (a site's search index) and an empty one are of a type clew
    # does not read, as before, not files that failed to read
    (tmp_path / "search_index.json").write_text('{"docs": [' + '{"text": "x"}, ' * 200 + '{}]}')
    (tmp_path / "empty.json").write_text("")
    for name in ("search_index.json", "empty.json"):
        source, problem = read_source(tmp_path / name, name, FileLimits(text_bytes=1024))
        assert source is None and problem is not None and problem.unread_type == ".json"


@pytest.fixture
def corpus(tmp_path: Path) -> Iterator[Corpus]:
    with Corpus(tmp_path / "corpus.duckdb") as corpus:
        yield corpus


def test_questions_on_a_folder_of_descriptions_are_found_in_their_sections(tmp_path: Path,
                                                                               corpus: Corpus) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for name in ("dialogporten.json", "petstore-v2.yaml"):
        (docs / name).write_text((FIXTURES / name).read_text())
    (docs / "package.json").write_text('{"name": "@digdir/dialogporten-schema", "license": "ISC"}')
    report = ingest_paths(corpus, [docs], chunk_tokens=200)
    assert report.documents == 2
    assert [(Path(p.path).name, p.unread_type) for p in report.problems] == [("package.json", ".json")]
    asked = {
        "which scope does POST /api/v1/serviceowner/dialogs need": (
            "POST /api/v1/serviceowner/dialogs", "digdir:dialogporten.serviceprovider"),
        "what does the 412 response of PUT dialogs mean": (
            "PUT /api/v1/serviceowner/dialogs/{dialogId}", "If-Match header did not match"),
        "what fields does the V1ServiceOwnerDialogsQueriesGet_Dialog schema have": (
            "V1ServiceOwnerDialogsQueriesGet_Dialog", "| createdAt | string (date-time) |"),
    }
    for question, (heading, words) in asked.items():
        hits = search(corpus, {"query": question}).hits[:3]
        assert hits[0].document_key == "dialogporten.json" and heading in hits[0].heading_path, question
        assert any(words in hit.text for hit in hits if heading in hit.heading_path), question
