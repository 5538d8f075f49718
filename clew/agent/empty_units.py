"""Units that say nothing read alone (``clew.agent.generate`` scores them 0): a list item ending in ":" that
introduces nothing quoted with it, and a short sentence that only points elsewhere. Quoted, they took the room of
units that answer (task X21's J1: npm's "`npm diff --diff=<pkg-name>` (in a package directory):" and "See
[`scope`](/using-npm/scope)." were quoted 8 and 7 times on its dev set, holding no evidence phrase)."""

from __future__ import annotations

from clew.agent.line_shapes import SEE
from clew.agent.units import SENTENCE, Unit

POINTER_WORDS = 12
"""A sentence that only points elsewhere (``SEE``) of at most this many words says nothing itself; a longer one
may (git's "See pull.rebase, branch.<name>.rebase and branch.autoSetupRebase if you want to make git pull always
use --rebase instead of merging.")."""


def says_nothing(unit: Unit) -> bool:
    """A list item that is a label, one sentence ending in ":", with nothing it introduces (its body or its code is
    not in the unit; an item that says something before its ":" is no label: PostgreSQL's "The query must reference
    only columns stored in the index. For example, ... these queries could use index-only scans:"), or a sentence
    that only points elsewhere of at most ``POINTER_WORDS`` words."""
    if unit.kind == "item":
        return unit.own.endswith(":") and not unit.follow and len(SENTENCE.split(unit.own)) == 1
    return SEE.fullmatch(unit.own) is not None and len(unit.own.split()) <= POINTER_WORDS
