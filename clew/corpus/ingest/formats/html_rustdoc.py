"""rustdoc's page titles: every ``<title>`` ends with " - Rust" ("BTreeMap in std::collections - Rust",
rustdoc 1.63 to today's; "std::collections::BTreeMap - Rust" before 1.53; a crate's "std - Rust"), the
language's name after what the page is, as a site's name after a page's. :func:`rustdoc_title` leaves it out
(task R11): the title says what the page is, "BTreeMap in std::collections"."""

from __future__ import annotations

_SUFFIX = " - Rust"


def rustdoc_title(title: str | None) -> str | None:
    """``title`` less rustdoc's " - Rust" at its end, if what stands before it is not blank."""
    if title is not None and title.endswith(_SUFFIX) and title[: -len(_SUFFIX)].strip():
        return title[: -len(_SUFFIX)].rstrip()
    return title
