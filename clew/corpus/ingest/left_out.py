"""The lines that tell what an ingest left out of a folder and how to take it back in (``clew.corpus.ingest.sources``
decides what is left out; each function here words one kind of it)."""

from __future__ import annotations

from pathlib import PurePosixPath

from clew.corpus.ingest.peek import GENERATED_SIGNS

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


SIGN_FOLDERS = {"javadoc source": "src-html", "Haddock source": "src", "rustdoc source": "src",
                "ESDoc source": "file"}
"""The folder a generator writes the files of a sign (``clew.corpus.ingest.peek.GENERATED_SIGNS``) into: the name
that takes them back (``--exclude '!src-html'``)."""
SIGN_NAMES = {"Doxygen source": "*_source.html"}
"""The name a generator gives every file of a sign it writes into no folder of its own: the pattern that takes them
all back (Doxygen's sources sit beside their headers' pages, ``d6/d97/_s_d_l__atomic_8h_source.html``)."""


def generated(left: dict[str, list[str]]) -> str:
    """Generated files: their keys, by the pattern (``GENERATED``) or the sign (``GENERATED_SIGNS``) that told
    them. The example names what was left out first (task S1: it was '!_sources' whatever was): the pattern, or
    for a sign the folder its generator writes (``SIGN_FOLDERS``) where the file is in one, else the name its
    generator gives them all (``SIGN_NAMES``), else its file name."""
    total = sum(len(keys) for keys in left.values())
    what = ", ".join(f"{len(keys)} {pattern}" if len(keys) > 1 or "*" in pattern or "." not in pattern else pattern
                     for pattern, keys in left.items())
    first, keys = next(iter(left.items()))
    example = first
    if first in {name for name, _, _ in GENERATED_SIGNS}:
        *folders, name = PurePosixPath(keys[0]).parts
        example = SIGN_FOLDERS[first] if SIGN_FOLDERS.get(first) in folders else SIGN_NAMES.get(first, name)
    return (f"{total} generated file{'s' if total > 1 else ''} (a documentation tool's indexes, search page, sources "
            f"or assets: {what}) not ingested; take them in with --exclude '!NAME' or a '!NAME' line in "
            f"{IGNORE_FILE} (e.g. '!{example}')")


def assets(keys: list[str]) -> str:
    """A site's text files in its asset folders (``sources.site_assets``), by key."""
    count, name = len(keys), PurePosixPath(keys[0]).name
    return (f"{count} text file{'s' if count > 1 else ''} in a site's asset folders (licences and notes of the "
            f"scripts, styles and fonts its pages load: {some(keys)}) not ingested: not pages of the site; take one "
            f"in with --exclude '!{name}' or a '!{name}' line in {IGNORE_FILE}")


def licences(keys: list[str]) -> str:
    """The licences a generator writes beside a site's pages (``sources.site_licences``), by key."""
    count, name = len(keys), PurePosixPath(keys[0]).name
    return (f"{count} licence file{'s' if count > 1 else ''} a documentation tool wrote beside its pages "
            f"({some(keys)}) not ingested: not pages of the site; take one in with --exclude '!{name}' or a '!{name}' "
            f"line in {IGNORE_FILE}")


def downloads(keys: list[str]) -> str:
    """The sources of a site's pages that it offers for download (``downloads.page_downloads``), by key."""
    count, name = len(keys), PurePosixPath(keys[0]).name
    return (f"{count} page source{'s' if count > 1 else ''} a site offers for download (_downloads/: a file named as "
            f"a page of the site, whose text is that page's: {some(keys)}) not ingested: the page is; take one in "
            f"with --exclude '!{name}' or a '!{name}' line in {IGNORE_FILE}")


_BROWSER_KINDS = (  # why, what one is and what many are, what it holds
    ("redirect", "redirect page", "redirect pages", "only a refresh to another page"),
    ("noindex", "page marked noindex by the site", "pages marked noindex by the site", "<meta name=robots>"),
    ("compilation", "all-in-one page", "all-in-one pages", "the other pages' text again"),
    ("contents", "table of contents", "tables of contents", "the other pages' headings again"),
    ("listing", "list of posts", "lists of posts", "other pages' articles again"),
    ("links", "list of links", "lists of links", "only links to the site's pages"),
    ("navigation", "site navigation file", "site navigation files", "a Docsify sidebar or navbar: links to the other "
     "pages"),
    ("shell", "Docsify page shell", "Docsify page shells", "the page Docsify fills with the Markdown beside it"),
    ("notfound", "not-found page", "not-found pages", "the page a server answers a missing one with"),
    ("mirror", "mirror tool's index page", "mirror tool's index pages", "HTTrack's list of the sites it saved"),
    ("autoindex", "folder listing", "folder listings", "a web server's list of a folder's files"),
    ("mathjax", "MathJax copy", "MathJax copies", "a GAPDoc chapter again, its formulas for MathJax"),
)


def browser(pages: list[tuple[str, str]]) -> str:
    """Pages for browsers: ``(key, why)``, why ``redirect``, ``noindex``, ``compilation``, ``contents``,
    ``listing``, ``links``, ``navigation``, ``shell``, ``notfound``, ``mirror``, ``autoindex`` or ``mathjax``."""
    parts, examples = [], []
    for why, one, many, holds in _BROWSER_KINDS:
        keys = [key for key, reason in pages if reason == why]
        if keys:
            parts.append(f"{len(keys)} {one if len(keys) == 1 else many} ({holds}: {some(keys)})")
            examples.append(keys[0])
    example = PurePosixPath(examples[-1]).name  # the last kind's first page: a table of contents before the rest
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
    """The includes a page's text left out (``missed``, from ``includes.expand`` or ``man_pages.include_pages``;
    ``fmt``: the page's format)."""
    what = "--8<-- snippet" if fmt == "markdown" else ".so" if fmt == "man" else "include::"
    return f"{len(missed)} {what} line{'s' if len(missed) > 1 else ''} not read, left out: {some(missed)}"


def man_aliases(pairs: list[tuple[str, str]]) -> str:
    """Man pages that are aliases of others (``man_pages``): ``(alias, page)`` by key."""
    count = len(pairs)
    shown = some([f"{alias} -> {page}" for alias, page in pairs])
    return (f"{count} man page alias{'es' if count > 1 else ''} (a page that is only '.so' of another, or a link to "
            f"another: {shown}) not ingested: each stands for the page it names, and a reference to it links there; "
            f"take one in with --exclude '!NAME' or a '!NAME' line in {IGNORE_FILE}")
