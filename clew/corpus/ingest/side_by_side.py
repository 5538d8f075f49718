"""A documentation's versions, or its languages, side by side in the folder ingested (``latest/config.html``,
``v1.1/config.html``, ``v2.0/config.html``): each page's near-copies then share every search and pack, and a
question about one version is answered from all (Flask's documentation at three releases, task U31). The ingest
report says so (``IngestReport.side_by_side``), with the way to ask one.
"""

from __future__ import annotations

MIN_SHARED_PAGES = 5
"""Pages of one path under several top folders that make the ingest say how to ask one folder."""


def side_by_side(keys: list[str]) -> str | None:
    """One line when at least half of the documents read (``keys``) lie under several top folders by one path, and
    ``MIN_SHARED_PAGES`` paths or more do; None otherwise."""
    tops: dict[str, set[str]] = {}
    for key in keys:
        top, sep, rest = key.partition("/")
        if sep:
            tops.setdefault(rest, set()).add(top)
    shared = {rest: found for rest, found in tops.items() if len(found) > 1}
    copies = sum(len(found) for found in shared.values())
    if len(shared) < MIN_SHARED_PAGES or 2 * copies < len(keys):
        return None
    folders = sorted(set().union(*shared.values()))
    named = ", ".join(f"{top}/" for top in folders[:3]) + (f" and {len(folders) - 3} more" if len(folders) > 3 else "")
    return (f"{len(shared):,} pages lie under {named} alike (versions or languages side by side?): search and ask "
            f"take passages of each; to ask one, pass --filter path={folders[0]} (search, ask, batch), or ingest each "
            "folder into a --collection of its own (docs/guides/documents.md, 'Several versions of one documentation')")
