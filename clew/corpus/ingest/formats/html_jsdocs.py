"""The HTML reader's rules for the documentation generators JavaScript projects publish with:
Docusaurus 3, VitePress 1 and Starlight (Astro) (``clew.corpus.ingest.formats.html``; measured on
the npm dev set rendered by each, see docs/measurements/generators-2026-12-06.md).

- Their chrome around the page (navbar, sidebar, breadcrumbs, "On this page", "Edit this page",
  the pager, the footer) is already dropped by the reader's landmarks (``nav``, ``header``,
  ``footer``, ``aside`` outside the content) and Docusaurus's classes in ``html_rules.DROP_CLASSES``.
  What lies inside the content, and only these generators write, is in ``html_generators.GENERATOR_CLASSES``
  (chrome in a page whose ``<meta name="generator">`` names the generator): VitePress's
  ``span.lang``, the language name ("bash") over each code block, and ``div.line-numbers-wrapper``, its
  line numbers where asked for ("1", "2", ... beside the code); Starlight's ``a.sl-anchor-link``,
  the permalink beside each heading whose hidden text read "Section titled “Synopsis”", and its
  ``span.sr-only`` texts for screen readers ("Terminal window" over a shell example).
- Docusaurus writes a versioned site's banner ("This is unreleased documentation ...") and badge
  ("Version: 1.0") and an unlisted page's banner inside ``main``, above the article: chrome of the
  ``docusaurus`` generator.
- A VitePress page whose Markdown has no ``h1`` (its title only in the front matter) has no ``h1``: its
  title is the ``<title>``, "npm-ci | npm Docs", less the site's name, read from the nav bar
  (:func:`site_name_box`) as other sites' chrome ``h1``.
- Their admonitions: VitePress's ``div.tip.custom-block`` (also ``info``, ``details``; VuePress
  writes the same) labelled by ``p.custom-block-title``, Starlight's ``aside.starlight-aside``
  labelled by ``p.starlight-aside__title`` (``html_rules.ADMONITION_CLASSES``, ``LABEL_CLASSES``).
- A content tab set writes all its tab labels first, in a tab list, and then the tabs' panels:
  Docusaurus's ``div.tabs-container`` (``ul[role=tablist] > li[role=tab]``, then
  ``div[role=tabpanel]``), Starlight's ``starlight-tabs`` (``a[role=tab]``, ``div[role=tabpanel]``)
  and VitePress's code group ``div.vp-code-group`` (``div.tabs > label``, then ``div.blocks`` of
  code blocks); MkDocs Material's content tabs (pymdown-extensions' ``tabbed``, its alternate style:
  ``div.tabbed-set``, ``div.tabbed-labels > label``, then ``div.tabbed-content > div.tabbed-block``;
  html_rules.DROP_CLASSES has the Python themes' chrome, task R1); Sphinx's sphinx-tabs extension
  (``div.sphinx-tabs``, ``div[role=tablist] > button[role=tab]``, then ``div[role=tabpanel]``, any
  theme: Flask's "macOS/Linux" and "Windows" shell commands, task U23); Quarto's Bootstrap tab sets
  (``div.panel-tabset``, ``ul.nav-tabs[role=tablist] > li > a[role=tab]``, then ``div.tab-content >
  div.tab-pane[role=tabpanel]``: a list "R", "Python", "Julia" over the three examples, task U33). Read as
  written, "Another port"
  and "Client configuration" stood together above both code blocks. :func:`tab_panels` moves each
  label to the start of its panel, as a paragraph of its own, so that each tab reads as its label,
  then its content.
"""

from __future__ import annotations

from clew.corpus.ingest.formats.html_events import classes, text_element
from clew.corpus.ingest.formats.html_rules import _SKIPPED, _VOID, Event, _attr

_TAB_SET_CLASSES = frozenset({"tabs-container", "vp-code-group", "tabbed-set", "sphinx-tabs", "panel-tabset"})
_TAB_SET_TAGS = frozenset({"starlight-tabs"})
_TAB_LISTS = frozenset({"tabs", "tabbed-labels"})
"""A tab list without ARIA roles: VitePress's ``div.tabs``, pymdown-extensions' ``div.tabbed-labels``."""
_PANEL_BOXES = frozenset({"blocks", "tabbed-content"})
"""The box of the panels without ARIA roles, each child a panel: VitePress's ``div.blocks``,
pymdown-extensions' ``div.tabbed-content`` (of ``div.tabbed-block``)."""


def _role(attrs: list[tuple[str, str | None]]) -> str:
    return (_attr(attrs, "role") or "").lower()


def site_name_box(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    """VitePress's ``div.VPNavBarTitle``, the site's name in the nav bar: the reader takes it, as a chrome
    ``h1``, for the name a ``<title>`` may end with ("npm-ci | npm Docs" is the page "npm-ci" where the
    Markdown has no ``h1``: VitePress writes the front matter's title only into the ``<title>``). MkDocs Material's
    first ``div.md-header__topic`` likewise (the second, ``data-md-component="header-topic"``, is the page's): its
    ``<title>`` "Loading - Griffe" is the page "Loading" where the ``h1`` says "Loading APIs" (task U25). And
    Bootstrap's ``a.navbar-brand``, where MkDocs' own ``mkdocs`` theme writes the site's name: "Library Reference -
    Python-Markdown" is the page "Library Reference" over the ``h1`` "Using Markdown as a Python Library" (task U27)."""
    names = classes(attrs)
    if tag == "a":
        return "navbar-brand" in names
    return tag == "div" and ("vpnavbartitle" in names or ("md-header__topic" in names and not any(
        name == "data-md-component" for name, _ in attrs)))


def tab_panels_start(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    """Whether an element starts a tab set of these generators (its labels before its panels)."""
    return tag in _TAB_SET_TAGS or (tag == "div" and not _TAB_SET_CLASSES.isdisjoint(classes(attrs)))


def tab_panels(events: list[Event]) -> list[Event]:
    """The events of a tab set (:func:`tab_panels_start`, its start to its end) without its tab list,
    each label (its text) a paragraph at the start of its panel; unchanged when the labels and the
    panels do not pair up one to one. Tab sets nested in a panel are left as they are."""
    labels: list[str] = []
    panels: list[int] = []  # where each panel's start event is in `kept`
    kept: list[Event] = []
    depth = 0
    tab_list = 0  # the depth of the tab list while inside it, else 0
    label: list[str] | None = None
    label_depth = 0
    blocks = 0  # the depth of VitePress's div.blocks while inside it, else 0
    panel = 0  # the depth of the panel while inside one, else 0
    skipped = 0  # the depth of an svg, script or style inside the tab list, else 0
    for event in events:
        kind, tag, attrs = event
        opens = kind == "start" and tag not in _VOID
        depth += opens
        if tab_list:
            if opens and tag in _SKIPPED and not skipped:
                skipped = depth
            elif opens and label is None and (_role(attrs) == "tab" or tag == "label"):
                label, label_depth = [], depth
            elif kind == "data" and label is not None and not skipped:
                label.append(tag)
        elif opens and not panel and depth > 1 and (
                _role(attrs) == "tablist" or (tag == "div" and not _TAB_LISTS.isdisjoint(classes(attrs)))):
            tab_list = depth
        elif opens and not panel and (_role(attrs) == "tabpanel" or (blocks and depth == blocks + 1)):
            panel = depth
            panels.append(len(kept))
            kept.append(event)
        elif opens and not panel and depth > 1 and tag == "div" and not _PANEL_BOXES.isdisjoint(classes(attrs)):
            blocks = depth
            kept.append(event)
        else:
            kept.append(event)
        if kind == "end" and tag not in _VOID:
            if label is not None and depth == label_depth:
                labels.append(" ".join(" ".join(label).split()))
                label = None
            skipped = 0 if depth == skipped else skipped
            tab_list = 0 if depth == tab_list else tab_list
            panel = 0 if depth == panel else panel
            blocks = 0 if depth == blocks else blocks
            depth -= 1
    if not panels or len(labels) != len(panels):
        return events
    for at, text in reversed(list(zip(panels, labels, strict=True))):
        if text:
            kept[at + 1:at + 1] = text_element("p", text)
    return kept
