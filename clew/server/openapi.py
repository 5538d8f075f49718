"""The OpenAPI document of ``clew serve`` (``/openapi.json``): FastAPI's, plus each tool's request
schema and the error bodies of the statuses each route can answer.

Every error is one body (``clew.errors.error_body``), declared as the ``Error`` component; malformed
input (400) is its ``InputError`` form (``field`` always, ``errors`` when there are several). Which
statuses a route declares follows from what answers it:

- every route: 403 and 421 (``clew.server.guard``: a cross-origin request, a ``Host`` it does not
  answer to) and 503 (``clew.server.storage``: the store cannot be read);
- a route that takes input: 400; one with a JSON body: 415 (not JSON);
- a route behind an API key: 401, 404 (an unknown or unreadable collection or document, or a tool's
  result whose status is ``unavailable``, sent with its result body), 500 (a DuckDB error of the call);
- a route that writes (``POST`` and ``DELETE`` of documents): 409 (the corpus was opened read-only).
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from clew.server.routers.common import component
from clew.surface import surface

ERROR: dict[str, Any] = {
    "type": "object", "required": ["error", "message", "detail"],
    "description": "Every error's body, on every status (clew.errors.error_body): error names the kind "
                   "(unauthorized, forbidden, unavailable, store_unavailable, ...), message is the text to read; "
                   "detail is the same text, kept for the clients that read it.",
    "properties": {
        "error": {"type": "string"},
        "message": {"type": "string"},
        "detail": {"type": "string", "description": "The same text as message (kept for compatibility)."},
        "field": {"type": "string", "description": "The input that was wrong (400; 404 of a collection or key)."},
        "did_you_mean": {"type": "array", "items": {"type": "string"},
                         "description": "The document keys meant (404 of a document's outline)."},
        "status": {"type": "string", "const": "unavailable", "description": "503 store_unavailable only."},
    },
}

INPUT_ERROR: dict[str, Any] = {
    "type": "object", "required": ["error", "field", "message", "detail"],
    "description": "Malformed input (400): the field named and what is wrong with it (InputError.payload); "
                   "errors lists every problem when there are several; detail is message again (compatibility).",
    "properties": {
        "error": {"type": "string", "const": "input"},
        "field": {"type": "string"},
        "message": {"type": "string"},
        "errors": {"type": "array", "items": {"type": "object", "required": ["field", "message"], "properties": {
            "field": {"type": "string"}, "message": {"type": "string"}}}},
        "detail": {"type": "string"},
    },
}

RESULT_404 = ("/v1/tools/", "/v1/evidence/", "/v1/citations/")
"""The routes that send a tool's result whose status is ``unavailable`` with 404 (``routers.common.answer``)."""

_WHY = {
    "400": "Malformed input", "401": "No API key, or a wrong one", "403": "Refused: a tool or permission the key "
    "may not use, or a cross-origin request", "404": "Unavailable: an unknown or unreadable collection or document",
    "409": "The corpus was opened read-only", "415": "A body that is not JSON", "421": "A Host the server does not "
    "answer to", "500": "A store error of this call", "503": "The store cannot be read now (Retry-After)",
}


def openapi(app: FastAPI) -> dict[str, Any]:
    """FastAPI's document, plus each tool's request schema (their bodies are read as JSON by the
    tools themselves, so that their errors are the tools' own) and every route's error bodies."""
    if app.openapi_schema is None:
        from fastapi.openapi.utils import get_openapi

        document = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
        schemas = document.setdefault("components", {}).setdefault("schemas", {})
        for tool in surface.tools():
            request = tool.arguments.model_json_schema(ref_template="#/components/schemas/{model}")
            for name, schema in request.pop("$defs", {}).items():
                schemas.setdefault(name, schema)
            for hidden in tool.hidden:
                request.get("properties", {}).pop(hidden, None)
            schemas[component(tool.name)] = request
        declare_errors(document)
        app.openapi_schema = document
    return app.openapi_schema


def declare_errors(document: dict[str, Any]) -> None:
    """Each operation's error statuses with their bodies (see the module), in place of FastAPI's 422, which
    none sends (``_validation_error`` answers FastAPI's own checks as the 400)."""
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    schemas["Error"], schemas["InputError"] = ERROR, INPUT_ERROR
    for path, operations in document.get("paths", {}).items():
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            responses.pop("422", None)
            result = responses.get("200") if path.startswith(RESULT_404) else None
            for status in statuses(path, method, operation):
                responses[status] = _response(status, result)
    for unused in ("HTTPValidationError", "ValidationError"):
        schemas.pop(unused, None)


def statuses(path: str, method: str, operation: dict[str, Any]) -> list[str]:
    """The error statuses an operation can answer (see the module)."""
    found = {"403", "421", "503"}
    if "requestBody" in operation or operation.get("parameters"):
        found.add("400")
    if "requestBody" in operation:
        found.add("415")
    if operation.get("security"):
        found |= {"401", "404", "500"}
    if path == "/v1/collections/{name}/documents" and method in ("post", "delete"):
        found.add("409")
    return sorted(found)


def _response(status: str, ok: dict[str, Any] | None) -> dict[str, Any]:
    """The response of ``status``: an error body; a 404 of a route in ``RESULT_404`` also the route's result."""
    schema: dict[str, Any] = {"$ref": f"#/components/schemas/{'InputError' if status == '400' else 'Error'}"}
    why = _WHY[status]
    result = ((ok or {}).get("content") or {}).get("application/json", {}).get("schema")
    if status == "404" and result:  # a tool's result with status unavailable is sent as it is, with 404
        schema = {"anyOf": [result, schema]}
        why += ", or the tool's result with status unavailable"
    return {"description": why, "content": {"application/json": {"schema": schema}}}
