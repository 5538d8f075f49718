"""Evidence matching, exactly as the shared dev set's README and verify.py define it.

``normalize``: casefold, curly quotes to straight ones, every run of Unicode whitespace
(NBSP included) to one space, stripped. A phrase matches a text when its normalised form is
a substring of the text's normalised form. A pipe escaped as a pipe table writes it in a cell
(``\\|``) reads as the ``|`` a reader sees, on both sides: a phrase copied from a rendered table
cell (``string | element | false``) matches the stored row, and one copied from the Markdown
source matches too.
"""

from __future__ import annotations

import re

_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'",
                         "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"'})
_SPACE = re.compile(r"\s+")


def normalize(text: str) -> str:
    return _SPACE.sub(" ", text.casefold().translate(_QUOTES).replace("\\|", "|")).strip()


def matches(phrase: str, normalized_text: str) -> bool:
    """True when ``phrase`` occurs in ``normalized_text`` (already passed through ``normalize``)."""
    return normalize(phrase) in normalized_text
