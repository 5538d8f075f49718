"""``POST /v1/collections/{name}/documents``: ingest uploaded files or JSON records.

Needs the ``ingest`` permission and the collection among the key's readable ones (403),
and a corpus opened read-write (409). An uploaded PDF or DOCX that parses for longer than the
configured ``max_parse_seconds`` is skipped with the reason, and the rest of the upload stored.
Uploads (and removals) take turns, one writing at a time (``clew.server.reading.Writers``).
"""

from __future__ import annotations

import json
import re
import tempfile
from functools import partial
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, Field
from starlette.datastructures import UploadFile

from clew.corpus.access import INGEST_PERMISSION, Principal
from clew.corpus.ingest.chunking import DEFAULT_CHUNK_TOKENS
from clew.corpus.ingest.parsed import ParseBounds
from clew.corpus.ingest.report import IngestReport
from clew.corpus.ingest.sources import FileLimits
from clew.errors import Forbidden, InputError, ReadOnlyCorpus
from clew.server.reading import writers_of
from clew.server.routers.common import principal_of, served

router = APIRouter(tags=["ingest"])
MAX_UPLOAD_FILES = 256
_UNSAFE = re.compile(r"[\\\x00-\x1f\x7f]")
_NAME_BYTES = 255
_KEY_CHARS = 1024


class RecordsRequest(BaseModel):
    records: list[dict[str, Any]] = Field(description='JSON records: {"key": ..., "text": ..., other fields}.')


@router.post("/v1/collections/{name}/documents", response_model=IngestReport, summary="ingest",
             openapi_extra={"requestBody": {"content": {
                 "application/json": {"schema": RecordsRequest.model_json_schema()},
                 "multipart/form-data": {"schema": {"type": "object", "properties": {
                     "files": {"type": "array", "items": {"type": "string", "format": "binary"}}}}}}}})
async def ingest(name: str, request: Request, chunk_tokens: int = DEFAULT_CHUNK_TOKENS,
                 merge_sections: bool = False, principal: Principal = Depends(principal_of)) -> IngestReport:
    """Ingest uploaded files (multipart `files`, each keyed by the relative name the client sent:
    a re-upload with unchanged content creates no version) or JSON `records` into a collection.

    An uploaded file's key and source are its file name as sent, a relative path (`guide.md`,
    `ops/runbook.md`); a name that is absolute, has a `..`, `.` or
    empty part, a hidden part, a backslash or a control character is refused (400, field
    `files`). Uploading the same name again with the same content creates no version; changed
    content makes the next version, as `clew ingest` does for a path. A JSON record's source is
    `records.jsonl:N`, its place in the request.
    """
    app = served(request)
    corpus = app.corpus
    if not principal.may_use(INGEST_PERMISSION) or not principal.may_read_collection(name):
        raise Forbidden(INGEST_PERMISSION, f"this key may not add documents to {name!r}")
    if corpus.read_only:
        raise ReadOnlyCorpus("the server opened the corpus read-only")
    if not 16 <= chunk_tokens <= 8192:
        raise InputError("chunk_tokens", "must be 16-8192")
    from clew.corpus.ingest.api import ingest_paths  # the write path (readers, chunker): loaded by the first upload

    with tempfile.TemporaryDirectory(prefix="clew-upload-") as tmp:
        await _write_upload(request, Path(tmp))
        # in turn with the other writers: its reads outside a transaction must not meet another's file rewrite
        limits = FileLimits(parse=ParseBounds(app.config.max_parse_seconds))
        report = await writers_of(request.app).write(partial(
            ingest_paths, corpus, [tmp], collection=name, chunk_tokens=chunk_tokens, merge_sections=merge_sections,
            principal=principal, keys_as_sources=True, limits=limits))
    for problem in report.problems:
        problem.path = problem.path.removeprefix(tmp).lstrip("/")
    return report


def upload_key(filename: str | None) -> str:
    """The key (and source) of an uploaded file: the name the client sent, a relative path
    (``guide.md``, ``ops/runbook.md``); a name that cannot be one is a 400 naming ``files``."""
    name = (filename or "").strip()
    if not name:
        raise InputError("files", "a file was uploaded without a file name")
    if _UNSAFE.search(name):
        raise InputError("files", f"file name {name!r} has a backslash or a control character")
    parts = name.split("/")
    if name.startswith("/") or re.match(r"[A-Za-z]:", name):
        raise InputError("files", f"file name {name!r} is an absolute path: send it relative (e.g. {parts[-1]!r})")
    if any(part in ("", ".", "..") for part in parts):
        raise InputError("files", f"file name {name!r} has an empty, '.' or '..' part")
    if any(part.startswith(".") for part in parts):
        raise InputError("files", f"file name {name!r} has a part that starts with '.' (a hidden file)")
    if any(len(part.encode("utf-8")) > _NAME_BYTES for part in parts) or len(name) > _KEY_CHARS:
        raise InputError("files", f"file name {name[:60]!r}... is too long ({_NAME_BYTES} bytes a part, "
                                  f"{_KEY_CHARS} characters in all)")
    return name


async def _write_upload(request: Request, folder: Path) -> None:
    """Uploaded files (multipart) or JSON records, written where ``ingest_paths`` reads them."""
    kind = request.headers.get("content-type", "")
    if kind.startswith("multipart/form-data"):
        async with request.form(max_files=MAX_UPLOAD_FILES) as form:
            files = [value for _, value in form.multi_items() if isinstance(value, UploadFile)]
            if not files:
                raise InputError("files", "no files were uploaded")
            for upload in files:
                name = upload_key(upload.filename)
                target_path = folder / name
                try:
                    target_path.parent.mkdir(parents=True, exist_ok=True)
                    target_path.touch(exist_ok=False)
                except (FileExistsError, NotADirectoryError) as error:
                    raise InputError("files", f"{name!r} is uploaded twice (or is both a file and a folder)") from error
                with target_path.open("wb") as target:  # in pieces: an upload is never held whole
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
