"""A quoted passage's section title, where it names what the section defines (task X27, rule T3).

MkDocs Material's PyMdown pages title a section by the option it describes ("Dedent Subsections" over
``dedent_subsections is a recent option ...``, "Relaxed Headers" over ``The relaxed_headers option ...``),
mdBook's by a flag (``--exact``), Undici's by a member (``interceptors.decompress([opts])``): the title is
the name a reader asks for, and the section's sentences may not write it. Any title over every quoted
passage costs its line in the extract's 250 tokens and pushed more units out than it gave (T1, T1b: pdf-docs
-6 phrases): only a title naming a thing as code names it is written.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

_CODE_NAME = re.compile(r"^-|[A-Za-z_]\(|[A-Za-z][._][A-Za-z]")
"""An option ("--exact"), a call ("interceptors.decompress([opts])") or a dotted or snake_case name, its marks
between letters: not a section's number ("20.8.2. When to Log") nor a version ("9.5")."""
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")
MAX_WORDS = 4
"""A title of more words than this is a heading's sentence, not a name."""


def section_title(path: Sequence[str], text: str) -> str:
    """The last element of a passage's heading ``path`` when it names what the passage defines, as code
    names it: an option, a call or member (``_CODE_NAME``), or two to ``MAX_WORDS`` words that ``text``
    writes joined by "_" or "-" ("Dedent Subsections" and ``dedent_subsections``); else ""."""
    if len(path) < 2:  # a page's own title: the page, not a thing in it
        return ""
    title = path[-1].strip()
    if not title or len(title.split()) > MAX_WORDS:
        return ""
    if _CODE_NAME.search(title):
        return title
    words = [w.lower() for w in _WORD.findall(title)]
    if len(words) < 2 or len(title.split()) < 2:  # "Auto-Linking" is written as it is joined
        return ""
    lowered = text.lower()
    return title if any(joint.join(words) in lowered for joint in ("_", "-")) else ""


def once(passages: Iterable[str], titles: Mapping[str, str]) -> dict[str, str]:
    """Each of ``passages`` (evidence ids in the extract's order) and the title its quote opens with: its own
    (``titles``), unless a passage before it wrote the same one (two passages of ``PRAGMA wal_checkpoint``)."""
    written: dict[str, str] = {}
    for evidence_id in passages:
        title = titles.get(evidence_id, "")
        written[evidence_id] = "" if title and title in written.values() else title
    return written
