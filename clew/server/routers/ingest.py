"""``POST /v1/collections/{name}/documents``: ingest uploaded files or JSON records.

Needs the ``ingest`` permission and the collection among the key's readable ones (403),
and a corpus opened read-write (409). An uploaded PDF or DOCX that parses for longer than the
configured ``max_parse_seconds`` is skipped with the reason, and the rest of the upload stored.
"""

from __future__ import annotations

import asyncio
import json
import re
import tempfile
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, Field
from starlette.datastructures import UploadFile

from clew.corpus.access import INGEST_PERMISSION, Principal
from clew.corpus.ingest.api import IngestReport, ingest_paths
from clew.corpus.ingest.chunking import DEFAULT_CHUNK_TOKENS
from clew.corpus.ingest.parsed import ParseBounds
from clew.corpus.ingest.sources import FileLimits
from clew.errors import Forbidden, InputError, ReadOnlyCorpus
from clew.server.routers.common import principal_of, served

router = APIRouter(tags=["ingest"])
MAX_UPLOAD_FILES = 256
_SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


class RecordsRequest(BaseModel):
    records: list[dict[str, Any]] = Field(description='JSON records: {"key": ..., "text": ..., other fields}.')


@router.post("/v1/collections/{name}/documents", response_model=IngestReport, summary="ingest",
             openapi_extra={"requestBody": {"content": {
                 "application/json": {"schema": RecordsRequest.model_json_schema()},
                 "multipart/form-data": {"schema": {"type": "object", "properties": {
                     "files": {"type": "array", "items": {"type": "string", "format": "binary"}}}}}}}})
async def ingest(name: str, request: Request, chunk_tokens: int = DEFAULT_CHUNK_TOKENS,
                 merge_sections: bool = False, principal: Principal = Depends(principal_of)) -> IngestReport:
    """Ingest uploaded files (multipart ``files``) or JSON ``records`` into a collection."""
    app = served(request)
    corpus = app.corpus
    if not principal.may_use(INGEST_PERMISSION) or not principal.may_read_collection(name):
        raise Forbidden(INGEST_PERMISSION, f"this key may not add documents to {name!r}")
    if corpus.read_only:
        raise ReadOnlyCorpus("the server opened the corpus read-only")
    if not 16 <= chunk_tokens <= 8192:
        raise InputError("chunk_tokens", "must be 16-8192")
    with tempfile.TemporaryDirectory(prefix="clew-upload-") as tmp:
        await _write_upload(request, Path(tmp))
        report = await asyncio.to_thread(ingest_paths, corpus, [tmp], collection=name, chunk_tokens=chunk_tokens,
                                         merge_sections=merge_sections, principal=principal,
                                         limits=FileLimits(parse=ParseBounds(app.config.max_parse_seconds)))
    for problem in report.problems:
        problem.path = problem.path.removeprefix(tmp).lstrip("/")
    return report


async def _write_upload(request: Request, folder: Path) -> None:
    """Uploaded files (multipart) or JSON records, written where ``ingest_paths`` reads them."""
    kind = request.headers.get("content-type", "")
    if kind.startswith("multipart/form-data"):
        async with request.form(max_files=MAX_UPLOAD_FILES) as form:
            files = [value for _, value in form.multi_items() if isinstance(value, UploadFile)]
            if not files:
                raise InputError("files", "no files were uploaded")
            for upload in files:
                name = _SAFE_NAME.sub("_", Path(upload.filename or "").name).lstrip(".")
                if not name:
                    raise InputError("files", "a file has no usable name")
                if (folder / name).exists():
                    raise InputError("files", f"{name!r} is uploaded twice")
                with (folder / name).open("wb") as target:  # in pieces: an upload is never held whole
                    while piece := await upload.read(1 << 20):
                        target.write(piece)
        return
    try:
        data = json.loads(await request.body())
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise InputError("records", f"not valid JSON: {error}") from error
    if not isinstance(data, dict) or not isinstance(data.get("records"), list) or not data["records"]:
        raise InputError("records", 'expected {"records": [...]} (or multipart files)')
    for index, record in enumerate(data["records"]):
        if not isinstance(record, dict):
            raise InputError(f"records.{index}", "expected an object")
    lines = "\n".join(json.dumps(record, ensure_ascii=False) for record in data["records"])
    (folder / "records.jsonl").write_text(lines + "\n", encoding="utf-8")
