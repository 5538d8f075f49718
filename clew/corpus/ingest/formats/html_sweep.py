"""Chrome of more documentation generators, for ``html_rules._dropped_class`` (task R3's sweep, issue 36):
elements that are chrome by more than a class name alone, as man pages by mandoc, Haddock and Hugo (its
Chroma highlighter) write them, TypeDoc's chrome classes; and for ``html_ahead``, lists that are a page's
table of contents. docs/measurements/generators-2026-12-06.md has what was checked.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

NOT_LINK_CLASSES = frozenset({"permalink"})
"""Chrome classes on any element but a link (an ``href``): Doxygen's ``span.permalink`` around a member's
"◆" link. mandoc (``-Thtml``, man pages as HTML) writes ``a.permalink`` around the whole text of every
heading and option term (``<h1 class="Sh"><a class="permalink" href="#NAME">NAME</a></h1>``, ``<dt><a
class="permalink" href="#c"><b>-c</b>, <b>--create</b></a></dt>``), which were lost with it; a heading's
link that holds only a glyph (``html_rules.PERMALINK_TEXTS``) is dropped as every heading permalink is."""

SOURCE_LINK = re.compile(r"(?:^|/)src(?:/[^/#]+\.html)?(?:#|$)")
"""Where Haddock's "Source" link beside every declaration and instance method (``a.link``) leads: the
module's colourised source in the package's ``src/`` folder (``src/Data.List.Split.Internals.html#splitOn``;
for another package's class method, that package's ``src`` folder itself).
80 of the 3,474 words of a module's page; a link of class ``link`` elsewhere is text."""

UNSELECTABLE = re.compile(r"(?:^|;)\s*user-select\s*:\s*none\s*(?:;|$)", re.IGNORECASE)
"""An inline style that keeps a reader from selecting (and copying) the element's text: what a page
shows but is not part of what it says. Hugo's highlighter (Chroma, with its default inline styles) writes
each code line's number so (``<span style="...;user-select:none;...">1</span>``), beside the line
(``linenos=inline``: "1[budgets]") or as a column of its own (``linenos=table``: a code block "1 2 3" before
the example); with classes instead (``noClasses = false``) they are ``span.ln`` / ``span.lnt``, chrome
of the ``hugo`` generator (``html_generators.GENERATOR_CLASSES``)."""


CHROME_CLASSES = frozenset(
    # TypeDoc 0.26 (default theme; every class of it starts "tsd-"): the breadcrumbs above the title, the site
    # menu and the Settings box ("Member Visibility", "Protected", "Theme") beside it, "On This Page", "Defined
    # in budgets.ts:42" under every member, a member's flags glued to its name in its heading ("Readonlyleft")
    "tsd-breadcrumb tsd-navigation tsd-page-navigation tsd-sources tsd-tag"
    # qdoc (Qt's reference, Debian's qt*-doc-html): the breadcrumbs above every page ("Qt 5.15 | Qt Core | C++
    # Classes | QTimer | Qt 5.15.8 Reference Documentation")
    " navigationbar"
    # Doxygen's search/*.html pages: the search box's "Loading... Searching... No Matches" (div.SRStatus), all the
    # text they hold, so that such a page is skipped as empty; search/nomatches.html names no generator
    " srstatus".split()
)
"""Chrome classes of the generators of this sweep, beside ``html_rules.DROP_CLASSES``."""


HIDDEN_CLASS = "d-none"
"""Bootstrap's class for an element shown at no width (``d-none`` with no ``d-md-block`` beside it): pkgdown 2's
source file's name under every page's title (``div.d-none.name``: "colwise.Rmd", "across.Rd"; task U32)."""
_SHOWN_AT = re.compile(r"d-(?:sm|md|lg|xl|xxl|print)-(?:inline|(?:inline-)?(?:block|flex|grid)|table(?:-row|-cell)?)")
"""A class that shows an element from a width on (or in print), with any display Bootstrap 5 names
(``d-md-block``, ``d-md-inline-block``, ``d-lg-table-cell``); ``d-print-none`` shows nothing."""
PKGDOWN_SOURCE = "dont-index"
"""pkgdown's class for what its search leaves out: on a ``small``, the "Source: vignettes/colwise.Rmd" link to the
repository under every page's title; on a ``div``, a reference page's See also, which stays."""


def swept_chrome(classes: list[str], href: str | None, style: str | None, tag: str = "") -> bool:
    """Whether an element ``tag`` of these classes, ``href`` and ``style`` is chrome by the rules above."""
    if not CHROME_CLASSES.isdisjoint(classes) or (tag == "small" and PKGDOWN_SOURCE in classes):
        return True
    if HIDDEN_CLASS in classes and not any(_SHOWN_AT.fullmatch(name) for name in classes):
        return True
    if not NOT_LINK_CLASSES.isdisjoint(classes) and href is None:
        return True
    if classes == ["link"] and SOURCE_LINK.search(href or ""):
        return True
    return style is not None and UNSELECTABLE.search(style) is not None


TOC_LIST_IDS = frozenset({"index"})
"""Ids of a list that is a page's table of contents: pod2html's ``ul#index`` above NAME."""
TOC_LIST_CLASSES = frozenset({"toc", "tofc"})
"""Classes of a list that is a table of contents: HeVeA's ``ul.toc`` under its "Contents" heading, LaTeX2HTML's
``ul.TofC`` (task R4)."""


def toc_list_start(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    """A ``ul`` or ``ol`` that is a table of contents by its id or class (read ahead: dropped, as a ``div`` of
    ``html_rules.TOC_CLASSES`` is, where all its links lead into its own page, ``html_rules.page_toc``)."""
    if tag not in ("ul", "ol"):
        return False
    values = dict(attrs)
    classes = (values.get("class") or "").lower().split()
    return (values.get("id") or "") in TOC_LIST_IDS or not TOC_LIST_CLASSES.isdisjoint(classes)


def separator_start(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    """A ``span.sep``: read ahead, and where it is empty (its separator drawn by the style sheet) read as a
    space. gi-docgen writes a page's heading as ``<a>Json</a><span class="sep"></span><a>Parser</a><span
    class="sep"></span>load_from_data``, which read "JsonParserload_from_data", one word."""
    return tag == "span" and "sep" in (dict(attrs).get("class") or "").lower().split()


def separator(events: Sequence[tuple[str, str, object]]) -> bool:
    """Whether the held events of a ``span.sep`` (:func:`separator_start`; ``html_rules.Event``, which this
    module cannot import: html_rules imports it) are an empty one, to be read as one space."""
    return len(events) <= 2 and all(kind != "data" or not text.strip() for kind, text, _ in events)


EDIT_LABELS = frozenset(
    {"improve this page", "edit this page", "edit on github", "edit on gitlab", "edit this page on github",
     "suggest an edit"})
"""What a link to edit the page's source says (casefolded, its spaces collapsed): Jekyll's documentation site writes
"Improve this page" above every page's title (``div.improve > a``, an icon before it), Hugo's (gohugoioTheme) under
every page, after its "Last updated" date (task U22); each was a passage of its own, the first of Jekyll's pages."""


def edit_link_start(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    """A link into a repository's editor (GitHub's ``/<owner>/<repo>/edit/...``, GitLab's ``.../-/edit/...``): read
    ahead, and left out where it only says :data:`EDIT_LABELS` (:func:`edit_link`). Such a link in a sentence
    ("Go ahead and edit it", "Please add it to the list.") is text."""
    if tag != "a":
        return False
    href = next((value for name, value in attrs if name == "href"), None) or ""
    if not href.startswith(("https://", "http://")) or "edit/" not in href:
        return False  # host, owner, repository, "edit" (urlsplit raises on a host such as "[:PORT_NUMBER]")
    parts = href.split("://", 1)[1].partition("#")[0].partition("?")[0].split("/")
    return len(parts) > 4 and (parts[3] == "edit" or parts[3:5] == ["-", "edit"])


def edit_link(events: Sequence[tuple[str, str, object]]) -> bool:
    """Whether the held events of a link :func:`edit_link_start` holds say only one of :data:`EDIT_LABELS`."""
    text = " ".join("".join(text for kind, text, _ in events if kind == "data").split()).casefold()
    return text in EDIT_LABELS


def badge_start(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    """A badge (``span.badge``, ``span.version-badge``: a class ``badge`` or ending ``-badge``), read ahead to be read
    as a word of its own: Jekyll's documentation writes ``<h2>Theme Variables<span class="version-badge" title="This
    feature is available starting version 4.3.0">4.3.0</span></h2>``, the style sheet spacing it, which read
    "Theme Variables4.3.0", one word glued to the version (task U22)."""
    if tag != "span":
        return False
    return any(name == "badge" or name.endswith("-badge") for name in (dict(attrs).get("class") or "").lower().split())


def classifier_start(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    """docutils' ``span.classifier`` (a definition's type: numpydoc's and napoleon's parameters), read ahead to be
    read after " : ", which the style sheet draws (Sphinx's basic.css ``.classifier:before``): numpydoc writes
    ``<dt><strong>lower</strong><span class="classifier">bool, default: False</span></dt>``, which read "lowerbool,
    default: False", the name glued to its type (841 of 841 scipy.linalg pages, task S2's sweep)."""
    return tag == "span" and "classifier" in (dict(attrs).get("class") or "").split()
