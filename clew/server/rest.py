"""The REST front end: a FastAPI app over the tool registry and the agent.

``create_app(corpus, config)`` builds the app; ``clew serve`` runs it with uvicorn. Every
handler is a thin call: tool endpoints validate their body against the tool's own argument
model (plus ``collection``, and ``filter`` for search), call ``registry.acall`` inside the
authenticated principal's scope, and map the tool's status onto HTTP:

- ``ok`` / ``no_match``: 200 with the tool's result model;
- ``unavailable`` (a row that does not exist *or* may not be read, the same answer), and an
  unknown or unreadable collection: 404 ``{"error": "unavailable", "detail": ...}``;
- malformed input (wrong type, blank string, unknown enum, an id that does not decode):
  400 ``{"error": "input", "field": ..., "message": ...}``;
- out-of-range bounds are clamped by the tools and reported in ``applied``, never an error;
- no API key, or a wrong one: 401.

The authenticated principal replaces whatever ``principal`` a retrieval request carries: a
caller can never widen its own permissions. The corpus is opened once by the caller; each
tool call takes its own cursor (``Scope.cursor``) on a worker thread.
"""

import asyncio
import ipaddress
import json
import re
import tempfile
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from fastapi import Body, Depends, FastAPI, Request, Security
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer
from fastapi.sse import EventSourceResponse, format_sse_event
from pydantic import BaseModel, Field, create_model

from clew.agent.model import Model
from clew.agent.request import RetrievalRequest, parse_request
from clew.agent.result import RetrievalResult
from clew.agent.stream import stream
from clew.corpus.access import Filter, Principal
from clew.corpus.chunking import DEFAULT_CHUNK_TOKENS
from clew.corpus.ingest import IngestReport, ingest_paths
from clew.corpus.reader import Scope
from clew.corpus.store import Corpus
from clew.errors import ClewError, InputError, UnknownCollection, input_error_from
from clew.navigation.evidence import EvidenceLedger
from clew.corpus.search.api import SearchResult
from clew.navigation.models import (
    CitationReport, EvidenceResult, NavigationResult, NeighborsResult, ReadResult, SliceResult,
)
from clew.server.config import INGEST_PERMISSION, ServerConfig
from clew.server.documents_api import add_document_routes
from clew.server.sse import KEEPALIVE_SECONDS, with_keepalive
from clew.tools import ToolContext, registry

API_VERSION = "v1"
MAX_UPLOAD_FILES = 256

TOOL_ROUTES: dict[str, tuple[str, str]] = {
    # path: (tool, the argument a malformed id is reported at)
    "/v1/search": ("search", "query"),
    "/v1/navigate": ("navigate_document_tree", "evidence_id"),
    "/v1/read": ("read", "document"),
    "/v1/grep": ("grep", "document"),
    "/v1/search/expand": ("expand_neighbors", "ids"),
    "/v1/search/slice": ("fetch_slice", "id"),
}
RESULT_MODELS: dict[str, type[BaseModel]] = {
    "search": SearchResult, "navigate_document_tree": NavigationResult, "read": ReadResult, "grep": ReadResult,
    "expand_neighbors": NeighborsResult, "fetch_slice": SliceResult,
}


class ApiError(Exception):
    def __init__(self, status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        super().__init__(body)
        self.status = status
        self.body = body
        self.headers = headers


def input_error(error: InputError) -> ApiError:
    if isinstance(error, UnknownCollection):  # missing and unreadable collections alike
        return ApiError(404, {"error": "unavailable", "field": "collection", "detail": error.message})
    return ApiError(400, {"error": "input", "field": error.field, "message": error.message})


def respond(result: BaseModel, id_field: str) -> BaseModel:
    """The result, or the HTTP error its status stands for."""
    status = getattr(result, "status", "ok")
    detail = getattr(result, "detail", None)
    if status == "unavailable":
        raise ApiError(404, {"error": "unavailable", "detail": detail})
    if status == "malformed":
        raise ApiError(400, {"error": "input", "field": id_field, "message": detail or "malformed"})
    if status == "failed":
        raise ApiError(503, {"error": "failed", "detail": detail})
    return result


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def require_loopback_for_no_auth(host: str) -> None:
    """``--no-auth`` serves every row to anyone who can connect: loopback only."""
    if not is_loopback(host):
        raise InputError("host", f"--no-auth is allowed only on a loopback address (127.0.0.1, ::1), not {host!r}")


def _body_model(tool: str) -> type[BaseModel]:
    arguments = registry.get(tool).arguments
    extra: dict[str, Any] = {}
    if "collection" not in arguments.model_fields:
        extra["collection"] = (str | None, Field(None, description="Read only inside this collection."))
    if tool == "search":
        extra["filter"] = (Filter | None, Field(None, description="Filter on document fields."))
    name = "".join(part.title() for part in tool.split("_")) + "Request"
    return create_model(name, __base__=arguments, __doc__=registry.get(tool).description, **extra)


class CitationRequest(BaseModel):
    ids: list[str] = Field(description="Passage ids an answer cites; at most 50.")
    fetched: list[str] = Field(default_factory=list, description=(
        "Ids the caller's run fetched in full (GET /v1/evidence/{id}); only these can be cited."))


class RecordsRequest(BaseModel):
    records: list[dict[str, Any]] = Field(description='JSON records: {"key": ..., "text": ..., other fields}.')


def create_app(corpus: Corpus, config: ServerConfig | None = None, *, auth: bool = True,
               model: Model | None = None, keepalive_seconds: float = KEEPALIVE_SECONDS) -> FastAPI:
    """The REST app over ``corpus``. ``auth=False`` serves as an all-reading local principal
    (``clew serve --no-auth``, loopback only); ``model`` overrides the configured one (tests);
    a streamed run sends a keep-alive comment after ``keepalive_seconds`` without an event."""
    config = config or ServerConfig()
    app = FastAPI(title="clew", version=API_VERSION, description=__doc__)
    bearer = HTTPBearer(auto_error=False, description="Authorization: Bearer KEY")
    api_key = APIKeyHeader(name="X-API-Key", auto_error=False)

    def principal_of(credentials: HTTPAuthorizationCredentials | None = Security(bearer),
                     header_key: str | None = Security(api_key)) -> Principal:
        if not auth:
            return Principal(name="local")
        key = credentials.credentials if credentials is not None else header_key
        found = config.principal_for_key(key)
        if found is None:
            raise ApiError(401, {"error": "unauthorized", "detail": "a valid API key is required"
                                 " (Authorization: Bearer KEY or X-API-Key)"}, {"WWW-Authenticate": "Bearer"})
        return found

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, error: ApiError) -> JSONResponse:
        return JSONResponse(error.body, status_code=error.status, headers=error.headers)

    @app.exception_handler(InputError)
    async def _input_error(request: Request, error: InputError) -> JSONResponse:
        return await _api_error(request, input_error(error))

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, error: RequestValidationError) -> JSONResponse:
        errors = error.errors()
        if errors and errors[0].get("type") == "json_invalid":
            return await _api_error(request, ApiError(400, {"error": "input", "field": "body",
                                                            "message": f"not valid JSON: {errors[0].get('msg')}"}))
        named = input_error_from(_WithoutBody(errors))
        return await _api_error(request, input_error(named))

    def scope(principal: Principal, collection: str | None, flt: Filter | None = None) -> Scope:
        try:
            return Scope(corpus, principal, collection, flt)
        except InputError as error:
            raise input_error(error) from error

    for path, (tool, id_field) in TOOL_ROUTES.items():
        app.add_api_route(path, _tool_endpoint(tool, id_field, config, scope, principal_of), methods=["POST"],
                          response_model=_result_model(tool), summary=tool,
                          description=registry.get(tool).description)

    @app.get("/v1/evidence/{evidence_id}", response_model=EvidenceResult, summary="fetch_evidence")
    async def evidence(evidence_id: str, max_chars: int = 12000, collection: str | None = None,
                       principal: Principal = Depends(principal_of)) -> BaseModel:
        """Read one passage in full (what a run does before it may cite it)."""
        context = ToolContext(scope(principal, collection))
        result = await _call("fetch_evidence", {"ids": [evidence_id], "max_chars": max_chars}, context)
        respond(result.evidence[0], "evidence_id")  # type: ignore[attr-defined]  # 404 / 400 for that id
        return result

    @app.post("/v1/citations/check", response_model=CitationReport, summary="check_citations")
    async def citations(body: CitationRequest, collection: str | None = None,
                        principal: Principal = Depends(principal_of)) -> BaseModel:
        """Say which ids may be cited: readable here, and among the ids the caller fetched in full."""
        ledger = EvidenceLedger()
        for value in body.fetched:
            ledger.record(value, 0)
        return await _call("check_citations", {"ids": body.ids}, ToolContext(scope(principal, collection), ledger))

    @app.post("/v1/agents/retrieval", response_model=RetrievalResult, summary="retrieve",
              openapi_extra={"requestBody": {"required": True, "description": "A RetrievalRequest; "
                             "'stream': true answers with Server-Sent Events (one 'step' event per step, then "
                             "one 'result').", "content": {"application/json": {
                                 "schema": {"$ref": "#/components/schemas/RetrievalRequest"}}}}})
    async def retrieval(body: Any = Body(...), principal: Principal = Depends(principal_of)) -> Any:
        """Run the retrieval agent. ``"stream": true`` streams one event per step, then the result."""
        request = _retrieval_request(body, principal, config)
        if not request.stream:
            return await _retrieve(request, corpus, model, config)
        events = stream(request, corpus=corpus, model=model, model_options=config.model_options)
        try:  # a request the run refuses at once (e.g. an unknown collection) is an HTTP error, not a stream
            first = await anext(events)
        except InputError as error:
            raise input_error(error) from error

        async def sse() -> AsyncIterator[bytes]:
            yield format_sse_event(event=first.type, data_str=first.model_dump_json())
            async for event in events:
                yield format_sse_event(event=event.type, data_str=event.model_dump_json())

        return EventSourceResponse(with_keepalive(sse(), keepalive_seconds))

    @app.post("/v1/collections/{name}/documents", response_model=IngestReport, summary="ingest",
              openapi_extra={"requestBody": {"content": {
                  "application/json": {"schema": RecordsRequest.model_json_schema()},
                  "multipart/form-data": {"schema": {"type": "object", "properties": {
                      "files": {"type": "array", "items": {"type": "string", "format": "binary"}}}}}}}})
    async def ingest(name: str, request: Request, chunk_tokens: int = DEFAULT_CHUNK_TOKENS,
                     merge_sections: bool = False, principal: Principal = Depends(principal_of)) -> IngestReport:
        """Ingest uploaded files (multipart ``files``) or JSON ``records`` into a collection."""
        if not principal.may_use(INGEST_PERMISSION) or not principal.may_read_collection(name):
            raise ApiError(403, {"error": "forbidden", "detail": f"this key may not add documents to {name!r}"})
        if corpus.read_only:
            raise ApiError(409, {"error": "read_only", "detail": "the server opened the corpus read-only"})
        if not 16 <= chunk_tokens <= 8192:
            raise ApiError(400, {"error": "input", "field": "chunk_tokens", "message": "must be 16-8192"})
        with tempfile.TemporaryDirectory(prefix="clew-upload-") as tmp:
            await _write_upload(request, Path(tmp))
            report = await asyncio.to_thread(ingest_paths, corpus, [tmp], collection=name, chunk_tokens=chunk_tokens,
                                             merge_sections=merge_sections)
        for problem in report.problems:
            problem.path = problem.path.removeprefix(tmp).lstrip("/")
        return report

    add_document_routes(app, corpus, principal_of)

    @app.get("/healthz", summary="health")
    async def healthz() -> dict[str, str]:
        """Liveness: the corpus answers a query."""
        await asyncio.to_thread(lambda: corpus.cursor().execute("SELECT 1").fetchone())
        return {"status": "ok"}

    app.openapi = lambda: _openapi(app)  # type: ignore[method-assign]
    return app


def _openapi(app: FastAPI) -> dict[str, Any]:
    """FastAPI's document, plus the RetrievalRequest schema (its body is read as JSON by hand,
    so that the ``principal`` it may carry is dropped before validation)."""
    if app.openapi_schema is None:
        from fastapi.openapi.utils import get_openapi

        document = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
        schemas = document.setdefault("components", {}).setdefault("schemas", {})
        request = RetrievalRequest.model_json_schema(ref_template="#/components/schemas/{model}")
        for name, schema in request.pop("$defs", {}).items():
            schemas.setdefault(name, schema)
        schemas["RetrievalRequest"] = request
        app.openapi_schema = document
    return app.openapi_schema


class _WithoutBody:
    """Validation errors of a request, located as the fields a caller sent (no body/query prefix)."""

    def __init__(self, errors: Any) -> None:
        self._errors = [{**e, "loc": _located(tuple(e.get("loc", ())))} for e in errors]

    def errors(self) -> list[dict[str, Any]]:
        return self._errors


def _located(loc: tuple[Any, ...]) -> tuple[Any, ...]:
    return loc[1:] if loc[:1] in (("body",), ("query",), ("path",), ("header",)) else loc


async def _call(tool: str, values: dict[str, Any], context: ToolContext) -> BaseModel:
    try:
        return await registry.acall(tool, values, context)
    except InputError as error:
        raise input_error(error) from error
    except ClewError as error:
        raise ApiError(503, {"error": "failed", "detail": str(error)}) from error


def _result_model(tool: str) -> type[BaseModel]:
    return RESULT_MODELS[tool]


def _tool_endpoint(tool: str, id_field: str, config: ServerConfig, scope: Callable[..., Scope],
                   principal_of: Callable[..., Principal]) -> Callable[..., Any]:
    body_model = _body_model(tool)
    own = set(body_model.model_fields) - set(registry.get(tool).arguments.model_fields)

    async def endpoint(body: body_model, principal: Principal = Depends(principal_of)) -> Any:  # type: ignore[valid-type]
        if not principal.may_use(tool):
            raise ApiError(403, {"error": "forbidden", "detail": f"this key may not use {tool}"})
        collection = getattr(body, "collection", None)
        if tool == "search" and collection is None:
            collection = config.default_collection
        flt = getattr(body, "filter", None) if tool == "search" else None
        values = body.model_dump(exclude=own, exclude_unset=True)
        return respond(await _call(tool, values, ToolContext(scope(principal, collection if "collection" in own
                                                                   else None, flt))), id_field)

    endpoint.__name__ = tool
    return endpoint


def _retrieval_request(body: Any, principal: Principal, config: ServerConfig) -> RetrievalRequest:
    if not isinstance(body, dict):
        raise ApiError(400, {"error": "input", "field": "request", "message": "expected a JSON object"})
    body = {k: v for k, v in body.items() if k != "principal"}  # the key decides who asks, never the body
    for name, value in config.budgets.model_dump().items():
        body.setdefault(name, value)
    if config.model is not None:
        body.setdefault("generator", config.model)
    if config.default_collection is not None:
        body.setdefault("queries", [{"collection": config.default_collection}])
    try:
        request = parse_request(body)
    except InputError as error:
        raise input_error(error) from error
    return request.model_copy(update={"principal": principal})


async def _retrieve(request: RetrievalRequest, corpus: Corpus, model: Model | None,
                    config: ServerConfig) -> RetrievalResult:
    from clew.agent.api import retrieve

    try:
        return await retrieve(request, corpus=corpus, model=model, model_options=config.model_options)
    except InputError as error:
        raise input_error(error) from error


_SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


async def _write_upload(request: Request, folder: Path) -> None:
    """Uploaded files (multipart) or JSON records, written where ``ingest_paths`` reads them."""
    kind = request.headers.get("content-type", "")
    if kind.startswith("multipart/form-data"):
        async with request.form(max_files=MAX_UPLOAD_FILES) as form:
            files = [value for _, value in form.multi_items() if hasattr(value, "filename")]
            if not files:
                raise ApiError(400, {"error": "input", "field": "files", "message": "no files were uploaded"})
            for upload in files:
                name = _SAFE_NAME.sub("_", Path(upload.filename or "").name).lstrip(".")
                if not name:
                    raise ApiError(400, {"error": "input", "field": "files", "message": "a file has no usable name"})
                if (folder / name).exists():
                    raise ApiError(400, {"error": "input", "field": "files", "message": f"{name!r} is uploaded twice"})
                (folder / name).write_bytes(await upload.read())
        return
    try:
        data = json.loads(await request.body())
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ApiError(400, {"error": "input", "field": "records", "message": f"not valid JSON: {error}"}) from error
    if not isinstance(data, dict) or not isinstance(data.get("records"), list) or not data["records"]:
        raise ApiError(400, {"error": "input", "field": "records", "message": "expected {\"records\": [...]} "
                             "(or multipart files)"})
    for index, record in enumerate(data["records"]):
        if not isinstance(record, dict):
            raise ApiError(400, {"error": "input", "field": f"records.{index}", "message": "expected an object"})
    lines = "\n".join(json.dumps(record, ensure_ascii=False) for record in data["records"])
    (folder / "records.jsonl").write_text(lines + "\n", encoding="utf-8")
