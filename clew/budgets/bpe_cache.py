"""The token encoding's merge ranks cached on disk in a form that loads fast.

tiktoken builds ``cl100k_base`` from a text file of 100,256 base64 lines (litellm's copy,
``clew._offline``), decoding and hashing it on every load: 110-200 ms of each process that
counts tokens (a cold ``clew ask`` quoting its extract, an ingest). The ranks are written once,
after that first load, as one block of bytes and where each token starts in it (no pickle:
nothing in the file is executed), beside the pattern, the special tokens and an open-addressing
hash table from a token's bytes (CRC-32) to its rank. tiktoken's encoding is built from the
block (30 ms to read back, then 40-140 ms for tiktoken to build it); :class:`RankTable` looks
ranks up in the file as it is, with nothing built (``clew.budgets.ascii_bpe`` counts short ASCII
texts with it). The folder is ``CLEW_CACHE_DIR``, else ``$XDG_CACHE_HOME/clew``, else
``~/.cache/clew``. A missing, partial or unreadable file is ignored (and written again); a folder
that cannot be written is left as it is.
"""

from __future__ import annotations

import array
import json
import logging
import os
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import tiktoken

logger = logging.getLogger(__name__)

MAGIC = b"clew-bpe-ranks-2\n"
"""Then the header's size (4 bytes, little-endian), the JSON header (padded with spaces to a
multiple of 4 bytes), ``ranks + 1`` token starts, ``slots`` hash slots (rank + 1, 0 for empty;
all unsigned 32-bit little-endian), and the tokens' bytes in rank order."""


def cache_dir() -> Path:
    folder = os.environ.get("CLEW_CACHE_DIR")
    if folder:
        return Path(folder)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "clew"


def cache_path(name: str) -> Path:
    return cache_dir() / f"{name}.tiktoken-ranks"


@dataclass(frozen=True, slots=True)
class RankTable:
    """The cached ranks of one encoding, looked up in place (no dictionary of 100,000 tokens built)."""

    name: str
    pat_str: str
    special_tokens: dict[str, int]
    starts: memoryview
    """Where each rank's token starts in ``blob`` (one more entry: the blob's end)."""
    slots: memoryview
    blob: bytes

    def __len__(self) -> int:
        return len(self.starts) - 1

    def rank(self, token: bytes) -> int | None:
        """The rank of ``token``, None when it is not one of the encoding's tokens."""
        starts, slots, blob = self.starts, self.slots, self.blob
        mask = len(slots) - 1
        slot = zlib.crc32(token) & mask
        while entry := slots[slot]:
            if blob[starts[entry - 1]:starts[entry]] == token:
                return int(entry) - 1
            slot = (slot + 1) & mask
        return None

    def ranks(self) -> dict[bytes, int]:
        """Every token and its rank (what tiktoken builds an encoding from)."""
        ends = self.starts.tolist()
        blob = self.blob
        return {blob[a:b]: rank for rank, (a, b) in enumerate(zip(ends, ends[1:], strict=False))}


def load(name: str) -> tiktoken.Encoding:
    """The encoding ``name`` (a tiktoken name), from the cache where it holds it, else from tiktoken
    (and then cached)."""
    import tiktoken

    cached = read_table(name)
    if cached is not None:
        return tiktoken.Encoding(name=name, pat_str=cached.pat_str, mergeable_ranks=cached.ranks(),
                                 special_tokens=cached.special_tokens)
    from tiktoken_ext.openai_public import ENCODING_CONSTRUCTORS  # type: ignore[import-untyped]

    spec = ENCODING_CONSTRUCTORS[name]()
    _write(cache_path(name), spec)
    return tiktoken.Encoding(**spec)


def read_table(name: str) -> RankTable | None:
    """The cached ranks of ``name``; None when the cache does not hold them whole (or this machine
    is big-endian: the file is little-endian, and read in place)."""
    path = cache_path(name)
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if sys.byteorder != "little" or not data.startswith(MAGIC):
        return None
    try:
        start = len(MAGIC) + 4
        head_size = int.from_bytes(data[len(MAGIC):start], "little")
        head = json.loads(data[start:start + head_size])
        count, slot_count = int(head["ranks"]), int(head["slots"])
        first = start + head_size
        blob_start = first + 4 * (count + 1 + slot_count)
        if head["name"] != name or first % 4 or blob_start > len(data) or slot_count & (slot_count - 1):
            return None
        view = memoryview(data)
        starts = view[first:first + 4 * (count + 1)].cast("I")
        blob = data[blob_start:]
        if starts[0] != 0 or starts[count] != len(blob):
            return None
        return RankTable(name, str(head["pat_str"]), dict(head["special_tokens"]), starts,
                         view[first + 4 * (count + 1):blob_start].cast("I"), blob)
    except (ValueError, KeyError, TypeError) as error:
        logger.debug("ignoring the token cache %s: %s", path, error)
        return None


def _write(path: Path, spec: dict[str, Any]) -> None:
    import tempfile  # only a process that writes the cache imports it

    ranks: dict[bytes, int] = spec["mergeable_ranks"]
    ordered = sorted(ranks, key=ranks.__getitem__)
    if [ranks[token] for token in ordered] != list(range(len(ordered))):
        return  # ranks with gaps: not this format's (tiktoken's own encodings have none)
    if sys.byteorder != "little":
        return  # read in place: a little-endian file only
    slot_count = 1 << (2 * len(ordered)).bit_length()  # at most half full
    slots = array.array("I", bytes(4 * slot_count))
    for rank, token in enumerate(ordered):
        slot = zlib.crc32(token) & (slot_count - 1)
        while slots[slot]:
            slot = (slot + 1) & (slot_count - 1)
        slots[slot] = rank + 1
    starts = array.array("I", [0])
    for token in ordered:
        starts.append(starts[-1] + len(token))
    head = json.dumps({"name": spec["name"], "pat_str": spec["pat_str"], "special_tokens": spec["special_tokens"],
                       "ranks": len(ordered), "slots": slot_count}).encode()
    head += b" " * (-(len(MAGIC) + 4 + len(head)) % 4)  # the arrays after it start at a multiple of 4
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(MAGIC + len(head).to_bytes(4, "little") + head + starts.tobytes() + slots.tobytes()
                          + b"".join(ordered))
            os.replace(temporary, path)  # whole or not at all: a reader never sees a part
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as error:
        logger.debug("cannot cache the token ranks in %s: %s", path, error)
