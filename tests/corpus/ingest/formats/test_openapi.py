"""OpenAPI and Swagger descriptions read by ``formats.openapi`` (task O1): the real descriptions in
tests/fixtures/openapi (Swagger 2.0 and OpenAPI 3.1 petstores of openapi-spec-validator, an excerpt of the Dialogporten
API's OpenAPI 3.0 description), and bad input built to break a reader."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from clew.agent.units import passage_units
from clew.corpus.ingest.formats import openapi
from clew.corpus.ingest.formats.openapi import EXAMPLE_VALUES, nested, output_limit, parse_openapi
from clew.corpus.ingest.parsed import ParsedDocument, UnreadableDocument

FIXTURES = Path(__file__).parents[3] / "fixtures" / "openapi"


def read(name: str) -> ParsedDocument:
    parsed = parse_openapi((FIXTURES / name).read_text(encoding="utf-8"))
    parsed.check()
    return parsed


def section_text(parsed: ParsedDocument, heading: str) -> str:
    at = [index for index, section in enumerate(parsed.sections) if section.heading == heading]
    assert at, heading
    blocks = [parsed.text[b.start:b.end] for b in parsed.blocks if b.section == at[0]]
    return "\n".join(blocks)


def test_swagger_2_reads_its_operations_under_their_tags_and_its_definitions() -> None:
    parsed = read("petstore-v2.yaml")
    assert parsed.title == "Swagger Petstore 1.0.0"
    assert [(s.heading, s.level) for s in parsed.sections[1:5]] == [
        ("Swagger Petstore 1.0.0", 1), ("pets", 2), ("GET /pets", 3), ("Parameters", 4)]
    listing = section_text(parsed, "Parameters")
    assert "| limit | query | integer (int32) | no | How many items to return at one time (max 100) |" in listing
    header = [parsed.text[b.start:b.end] for b in parsed.blocks if b.kind == "table_header"][0]
    assert header == "| Name | In | Type | Required | Description |\n| --- | --- | --- | --- | --- |"
    assert "Base URL: `http://petstore.swagger.io/v1`" in parsed.text
    # a response's schema is a link to the schema's section
    assert parsed.anchors["schema-Pets"] == parsed.sections[[s.heading for s in parsed.sections].index("Pets")].start
    assert "#schema-Pets" in {link.href for link in parsed.links}
    assert "| id | integer (int64) | yes |  |" in section_text(parsed, "Pet")
    assert not parsed.warnings


def test_openapi_3_1_reads_responses_by_content_type() -> None:
    parsed = read("petstore-v31.yaml")
    assert "GET /pets/{petId}" in [s.heading for s in parsed.sections]
    assert "| default | unexpected error | [Error](#schema-Error) (`application/json`) |" in parsed.text
    assert "#schema-Error" in {link.href for link in parsed.links}


def test_dialogporten_s_operation_names_its_scope_its_body_and_its_412_response() -> None:
    parsed = read("dialogporten.json")
    assert parsed.title == "Dialogporten v1"
    post = section_text(parsed, "POST /api/v1/serviceowner/dialogs")
    assert post.startswith("### POST /api/v1/serviceowner/dialogs\nCreates a new dialog\n"
                           "The dialog is created with the given configuration.")
    assert "Security: [JWTBearerAuth](#security-JWTBearerAuth)" in post
    assert "security-JWTBearerAuth" in parsed.anchors
    headings = [s.heading for s in parsed.sections]
    responses = [parsed.text[b.start:b.end] for b in parsed.blocks
                 if b.kind == "table_row" and parsed.heading_path(b.section)[-2:] == [
                     "POST /api/v1/serviceowner/dialogs", "Responses"]]
    assert ('| 401 | Missing or invalid authentication token. Requires a Maskinporten-token with the scope '
            '"digdir:dialogporten.serviceprovider". |  |' in responses)
    put_responses = [parsed.text[b.start:b.end] for b in parsed.blocks if b.kind == "table_row" and
                     parsed.heading_path(b.section)[-2] == "PUT /api/v1/serviceowner/dialogs/{dialogId}"]
    assert any(row.startswith("| 412 | The supplied If-Match header did not match the current Revision value")
               and "[ProblemDetails](#schema-ProblemDetails) (`application/problem+json`)" in row
               for row in put_responses)
    assert "| if-Match | header | string (guid), nullable | no |  |" in section_text(parsed, "Parameters")
    body = section_text(parsed, "Request body")
    assert body == ("#### Request body\nContent type `application/json` (required): "
                    "[V1ServiceOwnerDialogsCommandsCreate_DialogCommand](#schema-V1ServiceOwnerDialogsCommandsCreate_DialogCommand)")
    assert "#schema-V1ServiceOwnerDialogsCommandsCreate_DialogCommand" in {link.href for link in parsed.links}
    assert headings.index("Schemas") < headings.index("V1ServiceOwnerDialogsQueriesGet_Dialog")
    dialog = section_text(parsed, "V1ServiceOwnerDialogsQueriesGet_Dialog")
    assert dialog.startswith("### V1ServiceOwnerDialogsQueriesGet_Dialog\nType: object\n"
                             "| Property | Type | Required | Description |\n| --- | --- | --- | --- |\n"
                             "| createdAt | string (date-time) | no | The date and time when the dialog was created. |")
    assert section_text(parsed, "DialogsEntities_DialogStatus").startswith(
        "### DialogsEntities_DialogStatus\nType: string, one of `New`, `InProgress`, `Draft`")
    assert not parsed.warnings


CREATE = """swagger: "2.0"
info: {title: Engine, version: "1.53"}
paths:
  /containers/create:
    post:
      summary: Create a container
      parameters:
        - name: body
          in: body
          description: Container to create
          required: true
          schema:
            type: object
            properties:
              Image: {type: string, description: The name of the image to use.}
  /containers/{id}/update:
    post:
      parameters:
        - {name: update, in: body, schema: {type: object}}
"""
"""Docker Engine API 1.53's POST /containers/create, its body parameter required (task U37's A1), cut down."""


def test_a_required_request_body_says_so_on_its_schema_s_line() -> None:
    # "Required." was a paragraph of its own: the chunker left it a passage alone, cut from the body's description
    # and schema (task X23, rule R1)
    parsed = parse_openapi(CREATE)
    parsed.check()
    bodies = [s for s, section in enumerate(parsed.sections) if section.heading == "Request body"]
    texts = ["\n".join(parsed.text[b.start:b.end] for b in parsed.blocks if b.section == s) for s in bodies]
    assert texts[0].startswith("#### Request body\nContainer to create\nSchema (required): object\n| Property |")
    assert "Required." not in parsed.text
    assert texts[1].startswith("#### Request body\nSchema: object")  # not required: nothing said


def test_an_operation_s_parameters_and_responses_are_introduced_by_its_name() -> None:
    # a row quoted alone did not say whose it was: "| 409 | container is not running |" of POST /containers/{id}/kill
    # read as the answer to a question on DELETE /containers/{id} (task X23, rule R2; U37's A3)
    parsed = read("petstore-v2.yaml")
    listing = section_text(parsed, "Parameters")
    assert listing.startswith("#### Parameters\nParameters of `GET /pets`:\n| Name | In | Type | Required |")
    responses = section_text(parsed, "Responses")
    assert responses.startswith("#### Responses\nResponses of `GET /pets`:\n| Status | Description | Schema |")
    row = next(u for u in passage_units(listing, "e", 0) if u.kind == "row")
    assert row.intro is not None and row.intro.own == "Parameters of `GET /pets`:"


def test_a_description_s_headings_go_under_the_section_it_describes() -> None:
    text = "Intro\n\n# Authentication\n\n```\n# not a heading\n```\n\n## Scopes\n"
    assert nested(text, 3) == "Intro\n\n#### Authentication\n\n```\n# not a heading\n```\n\n##### Scopes\n"
    assert nested("### Deep", 1) == "### Deep"


DEPRECATED = """openapi: 3.0.3
info: {title: Shop, version: "2"}
externalDocs: {url: "https://example.org/docs", description: The shop's guide}
paths:
  /orders:
    get:
      deprecated: true
      summary: List orders
      parameters:
        - {name: page, in: query, deprecated: true, schema: {type: integer}, description: The page}
        - $ref: '#/components/parameters/Missing'
      responses:
        '200':
          description: The orders
          content:
            application/json:
              schema: {type: array, items: {$ref: '#/components/schemas/Order'}}
              example: [{id: 1}]
components:
  schemas:
    Order:
      type: object
      required: [id]
      properties:
        id: {type: integer}
        next: &node
          type: object
          properties:
            child: *node
"""


def test_deprecated_operations_and_parameters_say_so_and_a_dangling_ref_warns() -> None:
    parsed = parse_openapi(DEPRECATED)
    parsed.check()
    operation = section_text(parsed, "GET /orders")
    assert "Deprecated: this operation may be removed." in operation
    assert "| page | query | integer | no | Deprecated. The page |" in section_text(parsed, "Parameters")
    assert parsed.warnings == ["the $ref '#/components/parameters/Missing' names nothing in the description "
                               "(a dangling reference)"]
    assert "https://example.org/docs" in {link.href for link in parsed.links}
    assert '```json\n[\n  {\n    "id": 1\n  }\n]\n```' in parsed.text.replace("Response 200 example", "")
    # a schema holding itself (a YAML alias) is written MAX_DEPTH rows deep, not forever
    order = section_text(parsed, "Order")
    assert "| next.child.child.child.child.child | object | no |" in order
    assert "child.child.child.child.child.child" not in order


LAUGHS = "".join(f"x-l{n}: &l{n} [{', '.join([f'*l{n - 1}' if n else 'lol'] * 9)}]\n" for n in range(9))
"""Billion laughs: nine lists of nine aliases of the list before, 9^9 strings in a few hundred bytes."""
OBJECTS = "".join(f"x-o{n}: &o{n} {{type: object, properties: {{{', '.join(f'p{m}: *o{n - 1}' for m in range(9))}}}}}\n"
                  for n in range(1, 9))
"""The same of schemas: an object of nine properties, each the object before."""
BOMB = ("openapi: 3.0.0\ninfo: {title: Bomb, version: '1'}\npaths: {}\n" + LAUGHS + "x-o0: &o0 {type: string}\n"
        + OBJECTS + "components:\n  schemas:\n    Laughs: {type: object, example: *l8}\n    Objects: *o8\n")


def test_a_yaml_bomb_of_aliases_is_read_within_its_bound() -> None:
    started = time.monotonic()
    parsed = parse_openapi(BOMB)
    assert time.monotonic() - started < 30  # about 4 s: the Markdown reader on 512 KiB of table rows
    assert parsed.title == "Bomb 1"
    assert len(parsed.text) <= 512 * 1024
    laughs = section_text(parsed, "Laughs")  # its example cut at EXAMPLE_VALUES values
    assert 0 < laughs.count('"lol"') < EXAMPLE_VALUES and laughs.endswith('  "..."\n]\n```')
    assert parsed.warnings == [
        "the description writes more than 524,288 characters of Markdown (twice its size, at least 512 KiB, at most "
        "16 MiB; aliases or references repeating one part many times?): the rest is left out; written: 0 of 0 "
        "operations, 1 of 2 schemas"]


def test_references_repeating_one_part_are_written_within_the_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    # a shared parameter of a long description, referenced by every operation, is written again in each: 33 KB of
    # description would write 1.2 MB; the operations written before the bound are kept whole and the warning says so
    monkeypatch.setattr(openapi, "MIN_OUTPUT", 16 * 1024)
    operations = "".join(f"  /items/{n}:\n    get:\n      operationId: get{n}\n      parameters:\n"
                         f"      - $ref: '#/components/parameters/Page'\n" for n in range(300))
    spec = ("openapi: 3.0.0\ninfo: {title: Items, version: '1'}\npaths:\n" + operations + "components:\n"
            "  parameters:\n    Page:\n      {name: page, in: query, schema: {type: integer}, description: '"
            + "The page of results to return. " * 130 + "'}\n")
    parsed = parse_openapi(spec)
    assert len(parsed.text) <= 2 * len(spec)
    assert "| page | query | integer | no | The page of results to return." in parsed.text.split("GET /items/1")[0]
    written = sum(section.heading.startswith("GET /items/") for section in parsed.sections)
    assert 10 < written < 300
    assert parsed.warnings == [
        f"the description writes more than {2 * len(spec):,} characters of Markdown (twice its size, at least 16 KiB, "
        "at most 16 MiB; aliases or references repeating one part many times?): the rest is left out; written: "
        f"{written - 1} of 300 operations, 0 of 0 schemas"]  # the last operation begun, cut in its table
    # a description at the 16 MiB text limit wrote 32 MiB: twice what the Markdown reader reads from a file (160 s)
    assert output_limit(16 * 1024 * 1024) == output_limit(10**9) == openapi.MAX_OUTPUT == 16 * 1024 * 1024
    assert output_limit(100) == openapi.MIN_OUTPUT and output_limit(5_000_000) == 10_000_000


def test_a_bound_reached_before_the_operations_counts_them_all() -> None:
    # servers repeating one long description by an alias fill the bound before any operation is written: the
    # warning said "written: 0 of 0 operations", as if the description had none (review V14)
    servers = "".join("  - *server\n" for _ in range(200))
    spec = ("openapi: 3.0.0\ninfo: {title: T, version: '1'}\nx-server: &server\n  url: https://example.com/\n"
            "  description: '" + "word " * 2000 + "'\nservers:\n" + servers + "paths:\n"
            + "".join(f"  /{name}:\n    get:\n      summary: {name}\n      responses: {{'200': {{description: ok}}}}\n"
                      for name in ("a", "b")))
    parsed = parse_openapi(spec)
    assert "GET /a" not in parsed.text
    assert parsed.warnings == [
        "the description writes more than 524,288 characters of Markdown (twice its size, at least 512 KiB, at most "
        "16 MiB; aliases or references repeating one part many times?): the rest is left out; written: 0 of 2 "
        "operations, 0 of 0 schemas"]


def test_aliases_of_a_bomb_in_an_enum_a_description_or_a_type_are_written_cut() -> None:
    # each value of an enum, and a name, type or description that is a list, was written whole (str): 9^8 strings
    # for one enum value, gigabytes of memory and minutes before the bound on what is written was met
    spec = ("openapi: 3.0.0\ninfo: {title: Laughs, version: '1'}\npaths: {}\n" + LAUGHS + "components:\n  schemas:\n"
            "    Enum:\n      type: object\n      required: [code, *l8]\n      properties:\n"
            "        code: {type: string, enum: *l8}\n        kind: {type: *l8, description: *l8}\n")
    started = time.monotonic()
    parsed = parse_openapi(spec)
    assert time.monotonic() - started < 10  # 0.1 s
    assert parsed.warnings == []
    rows = section_text(parsed, "Enum")
    code = next(line for line in rows.split("\n") if line.startswith("| code |"))
    assert code.count('`[[[[[[[["lol", "lol"') == 9 and code.endswith("| yes |  |")  # a list in required names none
    assert len(code) < 30 * 400 and len(rows) < 30 * 1000


def test_a_number_or_mapping_where_a_list_is_looked_for_reads_as_none() -> None:
    # each was a TypeError or KeyError: the description 'could not be read (TypeError: 'int' object is not iterable)'
    spec = (
        "openapi: 3.0.0\ninfo: {title: Odd, version: '1'}\nservers: 5\ntags: 5\nsecurity: [{key: 5}]\n"
        "paths: {/pets: {parameters: 5, get: {tags: {a: 1}, summary: List the pets, parameters: 5}}}\n"
        "components: {schemas: {Pet: {allOf: 5, properties: {name: {type: string}}}}}\n"
    )
    parsed = parse_openapi(spec)
    assert "List the pets" in section_text(parsed, "GET /pets")
    assert "| name | string | no |" in section_text(parsed, "Pet")
    swagger = "swagger: '2.0'\ninfo: {title: Odd, version: '1'}\nhost: api.example.org\nschemes: 5\npaths: {}\n"
    assert "Base URL: `https://api.example.org`" in parse_openapi(swagger).text


def test_invalid_yaml_and_a_mapping_without_openapi_are_unreadable() -> None:
    with pytest.raises(UnreadableDocument, match="not valid YAML or JSON"):
        parse_openapi("openapi: 3.0.0\ninfo: [unclosed\n")
    with pytest.raises(UnreadableDocument, match="no openapi or swagger key"):
        parse_openapi('{"components": {"openapi": "3.0.0"}}')
    # JSON nested past Python's recursion limit, as YAML so nested is (it was a RecursionError, named as such)
    with pytest.raises(UnreadableDocument, match="JSON nested too deep to read"):
        parse_openapi('{"openapi": "3.0.0", "x": ' + "[" * 100_000 + "]" * 100_000 + "}")


def test_a_lead_line_quotes_a_path_holding_a_pipe_or_a_backtick_as_code() -> None:
    # the lead line put the path as a table cell writes it: a pipe read `\|` in the code span, a backtick ended it
    # (review V15's leftover, task L2)
    spec = (
        "openapi: 3.0.0\ninfo: {title: Odd, version: '1'}\npaths:\n"
        "  '/a|b': {get: {parameters: [{name: q, in: query}], responses: {'200': {description: ok}}}}\n"
        "  '/c`d': {get: {parameters: [{name: q, in: query}], responses: {'200': {description: ok}}}}\n"
    )
    parsed = parse_openapi(spec)
    parsed.check()
    assert "Parameters of `GET /a|b`:\n" in parsed.text
    assert "Responses of `GET /a|b`:\n" in parsed.text
    assert "Parameters of ``GET /c`d``:\n" in parsed.text
    assert "Responses of ``GET /c`d``:\n" in parsed.text
