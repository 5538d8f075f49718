"""One file read into a ``Source`` (``read_source``): its format by suffix, the size limits of its kind
(``FileLimits``), its bytes decoded (UTF-8, else the charset an HTML page declares, else replaced and said),
the includes of AsciiDoc, reStructuredText and Markdown pages expanded, a split GNU Info manual's parts joined after its
index file (``info_parts``); a file that cannot be read says why
(a ``Problem``). A gzip file (``changelog.html.gz``) is read as the format of its name without ``.gz``, decompressed
a piece at a time up to the same limit (``peek.read_gzip``). What files an ingest reads is
``clew.corpus.ingest.sources``'s."""

from __future__ import annotations

import gzip
import os
import zlib
from pathlib import Path, PurePosixPath

from clew.corpus.ingest import left_out
from clew.corpus.ingest.doc_names import documentation_name, not_text
from clew.corpus.ingest.formats.html_charset import declared_charset
from clew.corpus.ingest.formats.info import indirect_parts, info_targets
from clew.corpus.ingest.formats.man import ROFF_HEAD, is_roff, man_targets
from clew.corpus.ingest.formats.man import declared_coding as man_coding
from clew.corpus.ingest.formats.openapi import is_openapi
from clew.corpus.ingest.includes import expand
from clew.corpus.ingest.info_parts import declared_coding, join_parts, manual_of_part, unnamed_part
from clew.corpus.ingest.man_pages import include_pages
from clew.corpus.ingest.peek import read_at_most, read_gzip, read_name
from clew.corpus.ingest.sources import BINARY_FORMATS, MIB, FileLimits, Problem, Source, format_of


def read_source(file: Path, key: str, limits: FileLimits | None = None, targets: dict[str, str] | None = None
                ) -> tuple[Source | None, Problem | None]:
    """Read one file; a skipped file gives ``(None, problem)``; past its ``limits`` a file is skipped unread.
    ``targets``: a reStructuredText page's ``Found.targets``; a man page's or an Info manual's, of which those it
    references are kept (``formats.man.man_targets``, ``formats.info.info_targets``)."""
    name = str(file)
    fmt = format_of(file)
    if fmt is None and (manual := manual_of_part(file.name)) is not None:
        if (why := unnamed_part(file, manual)) is not None:
            return None, Problem(name, why, True)
        return None, Problem(name, f"a part of the split Info manual {manual}, whose index file ({manual} or "
                                   f"{manual}.gz) is not beside it: not ingested; a part is read with its index file",
                             True)
    if fmt is None:
        suffix = file.suffix or "(none)"
        return None, Problem(name, f"unsupported file type {suffix!r}", True, unread_type=suffix)
    limits = limits or FileLimits()
    limit, option = limits.for_format(fmt)
    gzipped = read_name(file.name) != file.name
    try:
        with file.open("rb") as handle:
            if gzipped:
                data = read_gzip(handle, limit + 1)
                size = len(data)
            else:
                data = read_at_most(handle, limit + 1)  # never more than the limit, even if the file grows meanwhile
                size = max(len(data), os.fstat(handle.fileno()).st_size)
    except (gzip.BadGzipFile, EOFError, zlib.error) as error:
        return None, Problem(name, f"not a readable gzip file ({str(error) or 'it ends early'}): not ingested", True)
    except OSError as error:
        return None, Problem(name, f"cannot read: {error.strerror or error}", True)
    if fmt == "openapi" and not is_openapi(data) and not (
            len(data) > limit and not gzipped and _holds_openapi(file, len(data))):
        # a package.json, mkdocs.yml, however large: not read, as before
        suffix = PurePosixPath(read_name(file.name)).suffix
        return None, Problem(name, f"unsupported file type {suffix!r}: not an OpenAPI description", True,
                             unread_type=suffix)
    if len(data) > limit:
        kind = "binary" if fmt in BINARY_FORMATS else "text"
        what = f"decompressed, more than {_size(limit)}, which" if gzipped else _size(size)
        return None, Problem(name, f"{what} is over the {_size(limit)} limit for {kind} files ({fmt}): "
                                   f"not ingested; split the file or raise the limit ({option})", True)
    if not data.strip():
        return None, Problem(name, "empty file", True)
    if fmt in BINARY_FORMATS:
        return Source(key, name, fmt, data, limits.parse), None
    if fmt == "man" and not is_roff(data[:ROFF_HEAD].decode("utf-8", "replace")):
        suffix = PurePosixPath(read_name(file.name)).suffix
        what = "binary (NUL bytes)" if b"\x00" in data[:8192] else "its first lines are not roff: no .TH, .Dd or .so"
        return None, Problem(name, f"unsupported file type {suffix!r}: named as a man page, but {what}", True,
                             unread_type=suffix, named_as=True)
    if fmt == "text" and documentation_name(read_name(file.name)) and (why := not_text(data)) is not None:
        return None, Problem(name, f"unsupported file type {file.suffix or '(none)'!r}: named as documentation, but "
                                   f"{why}", True, unread_type=file.suffix or "(none)", named_as=True)
    if b"\x00" in data[:8192] and fmt != "info":  # an Info file's index markers hold NULs: its reader strips them
        if fmt != "html" or not data.lstrip().startswith(b"<") or data.count(b"\x00") * 1000 > len(data):
            return None, Problem(name, "binary file (NUL bytes)", True)
        data = data.replace(b"\x00", b"")  # a page's rare NUL character, as browsers read it: none (javadoc 17's)
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        content = data.decode("utf-8")
        problem = None
    except UnicodeDecodeError as error:
        # a page in the encoding it declares; an Info file in its trailer's (coding: iso-8859-1), a man page
        # in its first line's (.\" -*- coding: latin-1 -*-)
        charset = declared_charset(data) if fmt == "html" else declared_coding(data) if fmt == "info" else (
            man_coding(data) if fmt == "man" else None)
        content = data.decode(charset or "utf-8", errors="replace")
        bad = content.count("\ufffd")
        where = f"declared {charset}" if charset else f"UTF-8 (first bad byte at {error.start})"
        problem = None if charset and not bad else Problem(
            name, f"not valid {where}; replaced {bad} undecodable byte(s)", False)
    if fmt in ("asciidoc", "rst", "text", "markdown", "man"):
        content, missed = (include_pages(content, file, key, limit) if fmt == "man"
                           else expand(content, file, key, limits.text_bytes, fmt))
        if missed:
            note = left_out.includes(fmt, missed)
            problem = Problem(name, f"{problem.message}; {note}", False) if problem else Problem(
                name, note, False, warning=True)
    if fmt == "info" and indirect_parts(content) is not None:
        content, missed, parts = join_parts(file, content, limit, _read_part, declared_coding(data) or "utf-8")
        if not parts:
            return None, Problem(name, f"the index file of a split Info manual, none of whose parts is beside it "
                                       f"({'; '.join(missed)}): not ingested", True)
        if len(content) > limit:
            return None, Problem(name, f"with its parts, more than {_size(limit)}, which is over the {_size(limit)} "
                                       f"limit for text files (info): not ingested; raise the limit ({option})", True)
        if missed:
            note = "; ".join(missed)
            problem = Problem(name, f"{problem.message}; {note}", False) if problem else Problem(
                name, note, False, warning=True)
    lines = content.count("\n") + (not content.endswith("\n")) if fmt == "markdown" else 0
    if lines > limits.markdown_lines:
        return None, Problem(name, f"{lines:,} lines is over the {limits.markdown_lines:,}-line limit for Markdown "
                                   "files: not ingested; split the file or raise the limit (--max-markdown-lines)",
                             True)
    if fmt == "man":
        targets = man_targets(content, key, targets or {})
    if fmt == "info":
        targets = info_targets(content, key, targets or {})
    return Source(key, name, fmt, content, targets=tuple(sorted((targets or {}).items()))), problem


def _read_part(path: Path, size: int) -> bytes:
    """At most ``size`` bytes of a split Info manual's part (decompressed, for ``x.info-1.gz``)."""
    with path.open("rb") as handle:
        return read_gzip(handle, size) if path.name.lower().endswith(".gz") else read_at_most(handle, size)


def _size(count: int) -> str:
    whole = f" ({count // MIB} MiB)" if count >= MIB and count % MIB == 0 else ""
    return f"{count:,} bytes{whole}"


OPENAPI_SCAN = 256 * MIB
"""The bytes of a JSON or YAML file past the text limit in which an OpenAPI key is looked for; of a larger file, its
first ``OPENAPI_SCAN`` bytes and its last ``OPENAPI_TAIL``."""
OPENAPI_TAIL = 64 * 1024
SCAN_PIECE = 4 * MIB


def _holds_openapi(file: Path, start: int) -> bool:
    """Whether ``file`` (a ``.json``, ``.yaml`` or ``.yml`` file past the text limit, whose first ``start`` bytes
    hold no OpenAPI key) holds one further on: a description sorted by key holds ``swagger`` last (Kubernetes'
    ``swagger.json``) and ``openapi`` after its ``components``, in its middle; one past the limit is then skipped
    naming the limit, not counted as a file of a type clew does not read. Read a piece at a time (``is_openapi``
    looks for the words before it matches: 30 ms for 73 MB), each piece with the end of the one before."""
    try:
        with file.open("rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            handle.seek(max(0, start - 256))
            carry = b""
            while (left := min(size, OPENAPI_SCAN) - handle.tell()) > 0:
                piece = carry + handle.read(min(SCAN_PIECE, left))
                if is_openapi(piece):
                    return True
                if len(piece) == len(carry):
                    break
                carry = piece[-256:]
            if size <= OPENAPI_SCAN:
                return False
            handle.seek(size - OPENAPI_TAIL)
            return is_openapi(handle.read(OPENAPI_TAIL))
    except OSError:
        return False
