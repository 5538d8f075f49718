"""Whether a passage reads as prose: one rule for where a reader starts a page, shared by ingest
(a link without ``#fragment`` lands there) and the tree walk (the opening of a linked page).
Kept light: navigation imports it without the chunker or the token encoding."""

from __future__ import annotations

import re

PROSE_WORDS = 12
_CODE = re.compile(r"```.*?(```|$)", re.S)
_HEADING = re.compile(r"^#+ .*$", re.M)


def reads_as_prose(text: str) -> bool:
    """``PROSE_WORDS`` words or more outside code blocks and heading lines: a passage a reader
    starts a page with (not a synopsis of commands, a list of contents or a bare heading)."""
    return len(_HEADING.sub("", _CODE.sub("", text)).split()) >= PROSE_WORDS
