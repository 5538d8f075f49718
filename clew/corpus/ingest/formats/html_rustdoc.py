"""rustdoc's page titles: every ``<title>`` ends with " - Rust" ("BTreeMap in std::collections - Rust",
rustdoc 1.63 to today's; "std::collections::BTreeMap - Rust" before 1.53; a crate's "std - Rust"), the
language's name after what the page is, as a site's name after a page's. :func:`rustdoc_title` leaves it out
(task R11): the title says what the page is, "BTreeMap in std::collections".

An implemented trait's method carries the first sentence of the trait's documentation and a link "Read more" to
the rest (``<a href="../../core/clone/trait.Clone.html#tymethod.clone">Read more</a>``, no class): a link of the
page's chrome, not its text. Debian's rust-doc 1.63, alloc: 8,245 of them on 137 of its 208 pages ("Returns a copy
of the value. Read more" under every ``clone``), each passage of a trait's methods saying it again (task S1).
:func:`read_more_dropped` leaves them out of a page rustdoc wrote, before it is parsed."""

from __future__ import annotations

import re

_SUFFIX = " - Rust"
_GENERATOR = '<meta name="generator" content="rustdoc">'
_READ_MORE = re.compile(r" ?<a href=\"[^\"<>]*\">Read more</a>")


def rustdoc_title(title: str | None) -> str | None:
    """``title`` less rustdoc's " - Rust" at its end, if what stands before it is not blank."""
    if title is not None and title.endswith(_SUFFIX) and title[: -len(_SUFFIX)].strip():
        return title[: -len(_SUFFIX)].rstrip()
    return title


def read_more_dropped(text: str) -> str:
    """``text`` without the "Read more" links of a page rustdoc wrote (its generator meta in the first 3,000
    characters); another page as it is."""
    if _GENERATOR not in text[:3000] or "Read more</a>" not in text:
        return text
    return _READ_MORE.sub("", text)
