"""The token encoding's merge ranks cached on disk in a form that loads fast.

tiktoken builds ``cl100k_base`` from a text file of 100,256 base64 lines (litellm's copy,
``clew._offline``), decoding and hashing it on every load: 110-200 ms of each process that
counts tokens (a cold ``clew ask`` quoting its extract, an ingest). The ranks are written once,
after that first load, as one block of bytes and their lengths (30 ms to read back, no pickle:
nothing in the file is executed), beside the pattern and special tokens. The folder is
``CLEW_CACHE_DIR``, else ``$XDG_CACHE_HOME/clew``, else ``~/.cache/clew``. A missing, partial or
unreadable file is ignored (and written again); a folder that cannot be written is left as it is.
"""

from __future__ import annotations

import array
import itertools
import json
import logging
import os
import sys
import tempfile
from pathlib import Path

import tiktoken

logger = logging.getLogger(__name__)

MAGIC = b"clew-bpe-ranks-1\n"


def cache_dir() -> Path:
    folder = os.environ.get("CLEW_CACHE_DIR")
    if folder:
        return Path(folder)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "clew"


def cache_path(name: str) -> Path:
    return cache_dir() / f"{name}.tiktoken-ranks"


def load(name: str) -> tiktoken.Encoding:
    """The encoding ``name`` (a tiktoken name), from the cache where it holds it, else from tiktoken
    (and then cached)."""
    path = cache_path(name)
    cached = _read(path, name)
    if cached is not None:
        return cached
    from tiktoken_ext.openai_public import ENCODING_CONSTRUCTORS  # type: ignore[import-untyped]

    spec = ENCODING_CONSTRUCTORS[name]()
    _write(path, spec)
    return tiktoken.Encoding(**spec)


def _read(path: Path, name: str) -> tiktoken.Encoding | None:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    try:
        if not data.startswith(MAGIC):
            return None
        start = len(MAGIC) + 4
        head_size = int.from_bytes(data[len(MAGIC):start], "little")
        head = json.loads(data[start:start + head_size])
        count = int(head["ranks"])
        lengths = array.array("H")
        lengths.frombytes(data[start + head_size:start + head_size + 2 * count])
        if sys.byteorder != "little":
            lengths.byteswap()
        blob = data[start + head_size + 2 * count:]
        if head["name"] != name or len(lengths) != count or sum(lengths) != len(blob):
            return None
        ends = list(itertools.accumulate(lengths))
        ranks = {blob[a:b]: rank for rank, (a, b) in enumerate(zip([0, *ends[:-1]], ends, strict=True))}
        return tiktoken.Encoding(name=name, pat_str=head["pat_str"], mergeable_ranks=ranks,
                                 special_tokens=head["special_tokens"])
    except (ValueError, KeyError, TypeError) as error:
        logger.debug("ignoring the token cache %s: %s", path, error)
        return None


def _write(path: Path, spec: dict) -> None:  # type: ignore[type-arg]
    ranks: dict[bytes, int] = spec["mergeable_ranks"]
    ordered = sorted(ranks, key=ranks.__getitem__)
    if [ranks[token] for token in ordered] != list(range(len(ordered))):
        return  # ranks with gaps: not this format's (tiktoken's own encodings have none)
    lengths = array.array("H", [len(token) for token in ordered])
    if sys.byteorder != "little":
        lengths.byteswap()
    head = json.dumps({"name": spec["name"], "pat_str": spec["pat_str"], "special_tokens": spec["special_tokens"],
                       "ranks": len(ordered)}).encode()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(MAGIC + len(head).to_bytes(4, "little") + head + lengths.tobytes() + b"".join(ordered))
            os.replace(temporary, path)  # whole or not at all: a reader never sees a part
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as error:
        logger.debug("cannot cache the token ranks in %s: %s", path, error)
