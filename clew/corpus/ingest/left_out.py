"""The lines that tell what an ingest left out of a folder and how to take it back in (``clew.corpus.ingest.sources``
decides what is left out; each function here words one kind of it)."""

from __future__ import annotations

from pathlib import PurePosixPath

IGNORE_FILE = ".clewignore"


def some(keys: list[str], shown: int = 3) -> str:
    """The first ``shown`` of ``keys``, and how many more."""
    more = len(keys) - shown
    return ", ".join(keys[:shown]) + (f" and {more} more" if more > 0 else "")


def hidden(keys: list[str]) -> str:
    """Hidden files and folders (``.snippets/``), by key."""
    name = next(part for part in PurePosixPath(keys[0]).parts if part.startswith("."))
    return (f"{len(keys)} hidden file{'s' if len(keys) > 1 else ''} (a name that starts with '.', as MkDocs leaves "
            f"out: {some(keys)}) not ingested; take them in with --exclude '!{name}' or a '!{name}' line in "
            f"{IGNORE_FILE}")


def generated(counts: dict[str, int]) -> str:
    """Generated files, counted by the pattern or the sign that told them."""
    total = sum(counts.values())
    what = ", ".join(f"{count} {pattern}" if count > 1 or "*" in pattern or "." not in pattern else pattern
                     for pattern, count in counts.items())
    return (f"{total} generated file{'s' if total > 1 else ''} (a documentation tool's indexes, search page, sources "
            f"or assets: {what}) not ingested; take them in with --exclude '!NAME' or a '!NAME' line in "
            f"{IGNORE_FILE} (e.g. '!_sources')")


def browser(pages: list[tuple[str, str]]) -> str:
    """Pages for browsers: ``(key, why)``, why ``redirect``, ``noindex``, ``compilation`` or ``contents``."""
    redirects = [key for key, why in pages if why == "redirect"]
    noindex = [key for key, why in pages if why == "noindex"]
    compilations = [key for key, why in pages if why == "compilation"]
    contents = [key for key, why in pages if why == "contents"]
    parts = []
    if redirects:
        parts.append(f"{len(redirects)} redirect page{'s' if len(redirects) > 1 else ''} (only a refresh to another "
                     f"page: {some(redirects)})")
    if noindex:
        parts.append(f"{len(noindex)} page{'s' if len(noindex) > 1 else ''} marked noindex by the site "
                     f"(<meta name=robots>: {some(noindex)})")
    if compilations:
        parts.append(f"{len(compilations)} all-in-one page{'s' if len(compilations) > 1 else ''} (the other "
                     f"pages' text again: {some(compilations)})")
    if contents:
        parts.append(f"{len(contents)} table{'s' if len(contents) > 1 else ''} of contents (the other pages' "
                     f"headings again: {some(contents)})")
    example = PurePosixPath((contents or compilations or noindex or redirects)[0]).name
    listed = f"{', '.join(parts[:-1])} and {parts[-1]}" if len(parts) > 1 else parts[0]
    return (f"{listed} not ingested: pages for browsers, not documents of their own; take one in with "
            f"--exclude '!{example}' or a '!{example}' line in {IGNORE_FILE}")


def partials(held: list[tuple[str, str]]) -> str:
    """Partials: ``(key, the key of a page that includes it)``."""
    count, example = len(held), PurePosixPath(held[0][0]).name
    where = some([f"{key} in {page}" for key, page in held])
    kinds = {PurePosixPath(page).suffix.lower() for _, page in held}
    markup = "reStructuredText" if kinds == {".rst"} else "Markdown" if kinds <= {".md", ".markdown", ".mdown"} \
        else "AsciiDoc"
    return (f"{count} {markup} partial{'s' if count > 1 else ''} (files pages include whole, their text read where "
            f"the page includes it: {where}) not ingested as documents of their own; take one in with --exclude "
            f"'!{example}' or a '!{example}' line in {IGNORE_FILE}")


def includes(fmt: str, missed: list[str]) -> str:
    """The includes a page's text left out (``missed``, from ``includes.expand``; ``fmt``: the page's format)."""
    what = "--8<-- snippet" if fmt == "markdown" else "include::"
    return f"{len(missed)} {what} line{'s' if len(missed) > 1 else ''} not read, left out: {some(missed)}"
