"""What the HTML reader holds back until it ends (``clew.corpus.ingest.formats.html``): a table,
whose cells are a row of data or a frame around blocks only what follows its start can tell
(``html_layout.TableShape``); a table of contents (``html_rules.page_toc_start``); an ``ol reversed``
without ``start``, whose first number is its number of items (``html_parts.reversed_items``); a tab set
of Docusaurus, VitePress, Starlight or MkDocs Material, whose labels come before all its panels
(``html_jsdocs.tab_panels``); pdoc's page and Haddock's declarations, whose members' names are no headings
(``html_pdoc.pdoc_page``, ``html_haddock.haddock_declarations``); a heading's permalink (``a.header-anchor``), which
VuePress 2 wraps around the heading's text (:func:`heading_link`); Quarto's folded code cell and code tools' menu
(``html_quarto.quarto_chrome``).
The reader replays the held events once the element they open has ended, with those facts known
(:class:`ReadAhead`, the parser under the reader).
"""

from __future__ import annotations

from collections.abc import Callable
from html.parser import HTMLParser

from clew.corpus.ingest.formats.html_haddock import haddock_declarations, haddock_interface
from clew.corpus.ingest.formats.html_jsdocs import _TAB_SET_TAGS, tab_panels, tab_panels_start
from clew.corpus.ingest.formats.html_layout import TableShape, table_shapes
from clew.corpus.ingest.formats.html_marks import callout_list, is_callout_table
from clew.corpus.ingest.formats.html_members import (
    declaration,
    definition,
    definition_start,
    is_declaration_table,
    is_labels_table,
    is_member_table,
    labelled_declaration,
    member_table,
)
from clew.corpus.ingest.formats.html_parts import counts_down, reversed_items
from clew.corpus.ingest.formats.html_pdoc import pdoc_main, pdoc_page
from clew.corpus.ingest.formats.html_quarto import quarto_chrome, quarto_chrome_start
from clew.corpus.ingest.formats.html_rules import PERMALINK_TEXTS, Event, page_toc, page_toc_start
from clew.corpus.ingest.formats.html_sweep import (
    badge_start,
    classifier_start,
    edit_link,
    edit_link_start,
    separator,
    separator_start,
    toc_list_start,
)

READ_AHEAD_TAGS = frozenset({"table", "div", "ol", "ul", "main", "span", "p", "a", "details", *_TAB_SET_TAGS})
"""The only tags whose start :func:`read_ahead_start` may hold: the rest skip its checks (most tags of a page)."""


def read_ahead_start(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    """Whether a start tag begins events the reader holds (see the module's docstring): a table, a ``div``
    that is a table of contents, a counted-down list (``html_parts.counts_down``) or an element
    :func:`rewritten_start` rewrites. A link (the commonest of these tags) is asked only whether it is an edit link
    or a heading's permalink."""
    if tag == "a":  # most links: no href of an editor ("/edit/") and no permalink's class, answered here
        for name, value in attrs:
            if name == "href" and value is not None and "edit/" in value and edit_link_start(tag, attrs):
                return True
        return heading_link_start(tag, attrs)
    return tag in READ_AHEAD_TAGS and (tag == "table" or (tag == "div" and page_toc_start(attrs))
                                       or counts_down(tag, attrs) or rewritten_start(tag, attrs))


def rewritten_start(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    """Whether an element is read ahead to be rewritten: a tab set (``html_jsdocs.tab_panels_start``),
    pdoc's page (``html_pdoc.pdoc_main``), a list that is a table of contents (``html_sweep.toc_list_start``),
    Haddock's declarations (``html_haddock.haddock_interface``), a ``span.sep`` (``html_sweep.separator_start``),
    Doxygen's "Definition at line ..." (``html_members.definition_start``), a link to edit the page
    (``html_sweep.edit_link_start``), a badge (``html_sweep.badge_start``), a definition's type
    (``html_sweep.classifier_start``) or Quarto's chrome (``html_quarto.quarto_chrome_start``)."""
    return (tab_panels_start(tag, attrs) or pdoc_main(tag, attrs) or toc_list_start(tag, attrs)
            or haddock_interface(tag, attrs) or separator_start(tag, attrs) or definition_start(tag, attrs)
            or edit_link_start(tag, attrs) or badge_start(tag, attrs) or classifier_start(tag, attrs)
            or quarto_chrome_start(tag, attrs))


_HEADING_LINK = "header-anchor"


def heading_link_start(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    """A heading's permalink of class ``header-anchor`` (markdown-it-anchor's: VuePress, VitePress), chrome
    (``html_rules.DROP_CLASSES``) where it holds a glyph; read ahead to tell (:func:`heading_link`)."""
    return tag == "a" and any(name == "class" and _HEADING_LINK in (value or "").split() for name, value in attrs)


def heading_link(events: list[Event]) -> list[Event]:
    """The held events of a ``header-anchor`` link: as they are where it holds a glyph ("#" before VuePress 1's
    headings, a zero-width space after VitePress's: ``PERMALINK_TEXTS``), dropped by its class; else (VuePress 2's
    ``<h1><a class="header-anchor" href="#x"><span>Title</span></a></h1>``, every heading's whole text, task U26)
    the link without that class, read as the heading's text. One with a glyph among its parts or a label of its own
    (``aria-label``, ``aria-hidden``) is a permalink too: markdown-it-anchor's ``linkAfterHeader``, a hidden
    "Permalink to ..." and an ``aria-hidden`` "#" after the heading, read 'Permalink to "Install" #' (task V7)."""
    parts = [text for kind, text, _ in events if kind == "data"]
    _, tag, attrs = events[0]
    if (" ".join("".join(parts).split()) in PERMALINK_TEXTS or any(part.strip() in PERMALINK_TEXTS - {""}
                                                                   for part in parts)
            or any(name in ("aria-label", "aria-hidden") for name, _ in attrs)):
        return events
    kept = [(name, " ".join(c for c in (value or "").split() if c != _HEADING_LINK) if name == "class" else value)
            for name, value in attrs]
    return [("start", tag, kept), *events[1:]]


class HeldEvents:
    """The events held since a table, a table of contents or a counted list started."""

    def __init__(self) -> None:
        self.events: list[Event] | None = None
        self.decided = False
        """The next start is a replayed one: what it needed to know is known, it is not held again."""
        self._open = 0  # elements of the held tag open among the held events
        self._tag = "table"  # the tag whose end ends the held events: table, div (a table of contents) or ol

    @property
    def holding(self) -> bool:
        return self.events is not None

    def hold(self, event: Event) -> tuple[bool, list[Event] | None]:
        """Whether ``event`` was held, and the held events when it ended what they open (to replay)."""
        kind, tag, _ = event
        if self.events is None:  # a table, a table of contents or a counted list starts
            if self.decided:
                self.decided = False
                return False, None
            self.events, self._open, self._tag = [], 0, tag
        self.events.append(event)
        if kind in ("start", "end") and tag == self._tag:
            self._open += 1 if kind == "start" else -1
            if self._open == 0:
                return True, self.release()
        return True, None

    def release(self) -> list[Event] | None:
        """The held events to replay (a Doxygen member summary or declaration rewritten first: ``html_members``), or
        None for a table of contents that only leads into its own page (``html_rules.page_toc``) and for a link
        to edit the page (``html_sweep.edit_link``; a heading left with nothing but it goes with it, Hugo's "Last
        updated: <date>");
        nothing is held afterwards."""
        events, self.events = self.events or [], None
        if events and is_member_table(events[0]):
            return member_table(events)
        if events and is_declaration_table(events[0]):
            return declaration(events)
        if events and is_labels_table(events[0]):
            return labelled_declaration(events)
        if events and definition_start(events[0][1], events[0][2]):
            self.decided = True  # read (rewritten as a field or as it is): not held again
            return definition(events)
        if events and events[0][1] == "table" and is_callout_table(events):
            return callout_list(events)
        if events and tab_panels_start(events[0][1], events[0][2]):
            self.decided = True  # the tab set is read: not held again
            return tab_panels(events)
        if events and quarto_chrome_start(events[0][1], events[0][2]):
            self.decided = True  # read without its chrome: not held again
            return quarto_chrome(events)
        if events and pdoc_main(events[0][1], events[0][2]):
            self.decided = True  # the page is read: not held again
            return pdoc_page(events)
        if events and haddock_interface(events[0][1], events[0][2]):
            self.decided = True
            return haddock_declarations(events)
        if events and separator_start(events[0][1], events[0][2]):
            if separator(events):
                return [("data", " ", [])]
            self.decided = True  # a span.sep with text is read as it is: not held again
        if events and heading_link_start(events[0][1], events[0][2]):
            held = heading_link(events)
            self.decided = held is events  # a permalink, dropped by its class: not held again
            return held
        if events and badge_start(events[0][1], events[0][2]):
            self.decided = True  # read with a space before it, a word of its own: not held again
            return [("data", " ", []), *events]
        if events and classifier_start(events[0][1], events[0][2]):
            self.decided = True  # read after " : ", as the style sheet shows it: not held again
            return [("data", " : ", []), *events]
        if events and edit_link_start(events[0][1], events[0][2]):
            if edit_link(events):
                return None  # "Improve this page": left out, as a table of contents into the page is
            self.decided = True  # a link in a sentence is read as it is: not held again
        if events and (events[0][1] == "div" or toc_list_start(events[0][1], events[0][2])):
            if page_toc(events):
                return None
            self.decided = True  # the table of contents is read: not held again
        return events


class ReadAhead(HTMLParser):
    """``html.parser`` with the held events (:class:`HeldEvents`) of a table, a table of contents or a
    counted list, and their replay through the reader's callbacks once what they open has ended."""

    def __init__(self, dropped: Callable[[], None]) -> None:
        HTMLParser.__init__(self, convert_charrefs=True)
        self._dropped = dropped  # called where a table of contents or an edit link is dropped
        self._ahead = HeldEvents()  # a table, a table of contents or a counted list read ahead
        self._items_counted: int | None = None  # the ol reversed starting now: its number of items
        self._shape: TableShape | None = None  # of the table starting now

    def _read_ahead(self, event: Event) -> bool:
        """Hold ``event`` while a table, a table of contents or a counted list is read ahead
        (:class:`HeldEvents`); replay the held events when it ends. Whether it was held."""
        held, events = self._ahead.hold(event)
        if held and not self._ahead.holding:  # it ended: replayed, or dropped (a table of contents)
            self._replay(events)
        return held

    def _replay(self, events: list[Event] | None) -> None:
        """Read the held events, each table start with its shape decided and each reversed list's
        start with its number of items (none is held twice)."""
        if events is None:
            self._dropped()
            return
        shapes = iter(table_shapes(events))
        counts = iter(reversed_items(events))
        for kind, tag, attrs in events:
            if kind == "data":
                self.handle_data(tag)
            elif kind == "end":
                self.handle_endtag(tag)
            else:
                if tag == "table":
                    self._ahead.decided, self._shape = True, next(shapes)
                elif kind == "start" and counts_down(tag, attrs):
                    self._ahead.decided, self._items_counted = True, next(counts)
                (self.handle_starttag if kind == "start" else self.handle_startendtag)(tag, attrs)
                self._items_counted = None
        self._ahead.decided = False
