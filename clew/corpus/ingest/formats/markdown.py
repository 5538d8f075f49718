"""Markdown: CommonMark plus GFM tables, parsed with markdown-it-py.

The document text is the source itself (newlines normalised), so every span points at the markdown as written, except
for top-level blocks that hold raw HTML (an HTML block, or inline HTML such as ``<kbd>``, ``<br>``, ``<a href>`` in a
paragraph, list or heading): markdown-it renders those to HTML and the HTML reader (``clew.corpus.ingest.formats.html``)
reads it, so their stored text is what a reader sees, never tags: table rows with their header, a unit per long
definition-list term, ``<details>`` as one block labelled by its ``<summary>`` (a container where it holds headings,
which open sections), an image as its alt text, headings (``<h2>``) opening sections by their level like Markdown's.
That rendering replaces their source in the text. An HTML block that leaves an element open (``<details>``, ``<div
align="center">`` before Markdown) is read with the blocks up to the one that closes it (alone, when none does;
``markdown_html``). markdown-it reports the source lines of each block (``Token.map``); spans are those lines, trimmed
of surrounding whitespace (code keeps its indentation).

Only top-level blocks become :class:`Block` s: a list contributes one ``list_item`` per item (nested lists stay inside
their item), a table one ``table_header`` (header line plus delimiter line) and one ``table_row`` per body row;
thematic breaks and link reference definitions contribute none. Only top-level headings open sections; a heading inside
a list or a blockquote is part of that block, and one with nothing under it before the next heading of its level is a
paragraph. The title is the front matter's ``title``, else the first ``#`` heading, else a heading of any level that
opens the page (none: the file's name, ``prepare.name_title``); a centred banner's ``h1`` over the page gives way to the
heading right after it (``html_titles.banner_title``).

Admonitions are one ``paragraph`` block of the section they sit in, their label included: a GitHub alert is a
blockquote (``> [!NOTE]``), and an MkDocs admonition (``!!! note "Title"``, or the collapsible ``???`` / ``???+``)
takes the indented lines after its marker, blank lines between them included (CommonMark alone reads an indented body
after a blank line as code); so does an MkDocs content tab (``=== "pip"``), whose body is prose and code as written.
One whose body holds raw HTML is rendered and read by the HTML reader instead, as ``Label: text``.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from html import escape as html_escape

import yaml
from markdown_it import MarkdownIt
from markdown_it.token import Token

from clew.corpus.ingest.formats.html import parse_html
from clew.corpus.ingest.formats.html_titles import banner_title
from clew.corpus.ingest.formats.markdown_deflist import GITHUB_ALERT, definition_list_html
from clew.corpus.ingest.formats.markdown_demo import live_demo
from clew.corpus.ingest.formats.markdown_html import end_tags, has_html, html_anchors, html_stop, html_tokens
from clew.corpus.ingest.formats.markdown_inline import (
    HEADING_ATTRIBUTES,
    IAL_ID,
    IAL_LINE,
    IAL_PREFIX,
    github_slug,
    heading_attributes,
    inline_text,
    link_labels,
    overload_name,
    read_needed_inlines,
    reference_definitions,
)
from clew.corpus.ingest.formats.markdown_myst import glossary_closed
from clew.corpus.ingest.formats.markdown_source import as_commonmark
from clew.corpus.ingest.formats.text import line_span, line_starts, normalize_newlines, root_section, trim_span
from clew.corpus.ingest.parsed import Block, BlockKind, Link, ParsedDocument, Section, Table

_BLOCK_KINDS: dict[str, BlockKind] = {
    "heading_open": "heading",
    "paragraph_open": "paragraph",
    "blockquote_open": "paragraph",
    "html_block": "paragraph",
    "fence": "code",
    "code_block": "code",
}
_FRONT_MATTER = re.compile(r"---[ \t]*\n(.*?\n)(?:---|\.\.\.)[ \t]*(?:\n|$)", re.DOTALL)
_LISTS = ("bullet_list_open", "ordered_list_open")
_HTML_HEADING = re.compile(r"<h[1-6][\s>]", re.IGNORECASE)
_ADMONITION_LABEL = re.compile(r"(?:!!!|\?\?\?\+?|===[+!]?)[ \t]+([\w-]+)?(?:[ \t]*\"([^\"]*)\")?")
_INDENT = re.compile(r"\A(?: {1,4}|\t)")

_ADMONITION = re.compile(r"(?:!!!|\?\?\?\+?|===[+!]?)[ \t]+[\w\"-]")
"""The marker line of an MkDocs admonition (``!!! note``, ``??? tip "Title"``, ``???+ danger``) or
content tab (``=== "pip"``, pymdownx.tabbed): its indented body is its text, not a code block."""


class _Markdown(MarkdownIt):
    """markdown-it that leaves link targets as written (no percent-encoding, no punycode)."""

    def normalizeLink(self, url: str) -> str:  # noqa: N802  (markdown-it's name)
        return url


_PARSER = _Markdown("commonmark").enable("table")
_PARSER.core.ruler.at("inline", read_needed_inlines)


def parse_markdown(source: str, *, mdx: bool = False, targets: dict[str, str] | None = None) -> ParsedDocument:
    """Parse CommonMark (with GFM tables) into blocks, sections, tables, links and anchors.

    A YAML front matter block (``---`` lines around a mapping, at the top) becomes the document's fields, not text;
    the dialects it is written in are read first (``markdown_source``: MDX, MyST, wikilinks (``targets``), MDN's ...).
    """
    fields, text = split_front_matter(normalize_newlines(source))
    text = as_commonmark(text, mdx=mdx, slug=fields.get("slug"), targets=targets)
    builder = _Builder(text)
    lines = text.split("\n")
    groups = list(_top_level_groups(_PARSER.parse(text)))
    # what needs a character the text lacks is not looked for: a link reference definition ("]:"), raw HTML ("<")
    definitions = reference_definitions(lines, groups) if "]:" in text else []
    index = 0
    read = 0  # the source lines read so far
    ends = end_tags(groups) if "<" in text else {}
    while index < len(groups):
        while definitions and definitions[0][0] < read:
            definitions.pop(0)  # inside an HTML element or an admonition: rendered or kept with it
        while definitions and definitions[0][1] <= (groups[index][0].map or (0, 0))[0]:
            builder.drop_lines(*definitions.pop(0))
        html_end = html_stop(groups, index, ends) if builder.raw_html and builder.holds(groups[index], "<") else None
        stop = None if html_end is not None else _admonition_stop(lines, groups[index])
        if html_end is not None and live_demo(lines, groups, index, html_end):  # not text (markdown_demo)
            builder.drop_lines((groups[index][0].map or (0, 0))[0], (groups[html_end - 1][0].map or (0, 0))[1])
            last = html_end
        elif html_end is not None:
            builder.add_html(groups[index:html_end])
            last = html_end
        elif stop is None:
            builder.add(groups[index])
            last = index + 1
        else:
            last = index + 1
            while last < len(groups) and (groups[last][0].map or (stop, stop))[0] < stop:
                stop = max(stop, (groups[last][0].map or (stop, stop))[1])
                last += 1
            builder.add_admonition(groups[index:last], stop)
        if last == index + 1:  # one group (most): no slice to walk
            read = max(read, stop or 0, (groups[index][0].map or (0, 0))[1])
        else:
            read = max(read, stop or 0, *((group[0].map or (0, 0))[1] for group in groups[index:last]))
        index = last
    for span in definitions:
        if span[0] >= read:
            builder.drop_lines(*span)
    titled = isinstance(fields.get("title"), str) and bool(str(fields["title"]).strip())
    document = builder.document(any_heading=not titled)
    if not titled:  # a banner over the page: the heading after it titles it (html_titles.banner_title)
        document = banner_title(document, text)
    if fields:
        document.fields = {**document.fields, **fields}
        if titled:
            document.title = document.sections[0].heading = str(fields["title"]).strip()
    return document


def parse_mdx(source: str) -> ParsedDocument:
    """Parse MDX (``.mdx``: Markdown with ESM lines and JSX components) as Markdown; see ``parse_markdown``."""
    return parse_markdown(source, mdx=True)


def split_front_matter(text: str) -> tuple[dict[str, object], str]:
    """``(fields, rest)``; text without a well-formed YAML mapping on top is returned whole."""
    match = _FRONT_MATTER.match(text)
    if match is None:
        return {}, text
    try:
        fields = yaml.safe_load(match.group(1))
    except yaml.YAMLError:
        return {}, text
    if not isinstance(fields, dict) or not all(isinstance(k, str) for k in fields):
        return {}, text
    return fields, text[match.end() :]


def _top_level_groups(tokens: Sequence[Token]) -> Iterator[Sequence[Token]]:
    """Each top-level block's tokens: an opening token through its matching close. A block opens at each
    token of level 0 that closes nothing (markdown-it gives a closing token its opening one's level):
    found with one test a token, not by summing every token's nesting."""
    firsts = [index for index, token in enumerate(tokens) if not token.level and token.nesting >= 0]
    for first, stop in zip(firsts, [*firsts[1:], len(tokens)]):
        yield tokens[first:stop]


def _admonition_title(label: str) -> str:
    """An admonition's label as the HTML reader knows one (``html_rules.LABEL_CLASSES``)."""
    return f'<p class="admonition-title">{html_escape(label)}</p>' if label else ""


def _admonition_stop(lines: list[str], group: Sequence[Token]) -> int | None:
    """The line after an MkDocs admonition's body, when ``group`` is a paragraph that starts with its marker."""
    first = group[0]
    if first.type != "paragraph_open" or first.map is None or not _ADMONITION.match(lines[first.map[0]]):
        return None
    stop = line = first.map[1]
    while line < len(lines) and (not lines[line].strip() or lines[line].startswith(("    ", "\t"))):
        line += 1
        if lines[line - 1].strip():
            stop = line
    return stop


@dataclass(slots=True)
class _Region:
    start: int
    end: int
    text: str
    new_start: int = 0


class _Builder:
    """Collects one document's parts while its top-level token groups are fed in order."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = line_starts(text)
        self.raw_html = "<" in text
        """Whether the text may hold raw HTML at all (every HTML token holds a "<"): a block's lines are
        searched for one only when it does."""
        self.blocks: list[Block] = []
        self.sections: list[Section] = [root_section()]
        self.tables: list[Table] = []
        self.links: list[Link] = []
        self.anchors: dict[str, int] = {}
        self.slug_counts: dict[str, int] = {}
        self.title: str | None = None
        self.current = 0  # the innermost open section
        self.regions: list[_Region] = []
        """Raw HTML blocks replaced by their rendering; what lies inside one is at offsets into its text."""
        self.in_region: dict[tuple[str, int], int] = {}
        """(kind, index) of a block, section or link -> the region its offsets are relative to."""
        self.region_anchors: list[tuple[str, int, int]] = []
        self.repairs: list[str] = []

    def document(self, *, any_heading: bool = False) -> ParsedDocument:
        if self.regions:
            self.rewrite()
        if self.title is None and any_heading and self.blocks and self.blocks[0].kind == "heading":
            # no "#": a heading that opens the page ("## Bundling yargs", R6), not one after text (U10's Starlette)
            self.title = next((section.heading for section in self.sections[1:] if section.heading), None)
        self.sections[0].heading = self.title or ""
        fields: dict[str, object] = {"title": self.title} if self.title is not None else {}
        return ParsedDocument(
            text=self.text,
            blocks=self.blocks,
            sections=self.sections,
            tables=self.tables,
            links=self.links,
            anchors=self.anchors,
            title=self.title,
            fields=fields,
            repairs=list(dict.fromkeys(self.repairs)),
        )

    @property
    def current_section(self) -> int:
        return self.current

    def add(self, group: Sequence[Token]) -> None:
        first = group[0]
        if first.map is None:
            return
        if (dl := definition_list_html(group, _PARSER.options)) is not None:  # MDN's `- : `
            return self.add_rendered((first.map[0], first.map[1]), dl, headings=False, slugs=False)
        kind = _BLOCK_KINDS.get(first.type)
        added = len(self.blocks)
        if first.type == "heading_open":
            self.add_heading(group, first.map)
        elif kind is not None:
            span = self.drop_attribute_lists(first.map) if first.type == "paragraph_open" else (*first.map, 0)
            block = self.add_block(span[:2], kind) if span is not None else None
            if block is not None and span is not None and span[2] and block.start + span[2] < block.end:
                block.start += span[2]  # "{: .note} Text": the list before the text is dropped
        elif first.type in _LISTS:
            for token in group:
                if token.type == "list_item_open" and token.level == first.level + 1 and token.map:
                    self.add_block(token.map, "list_item")
        elif first.type == "table_open":
            self.add_table(group)
        starts = [block.start for block in self.blocks[added:]] or [self.starts[first.map[0]]]
        self.add_links(group, starts)
        if not self.raw_html or not self.holds(group, "<"):  # no raw HTML, so no <a id>
            return
        for name, offset in html_anchors(self.text, self.starts, group):
            self.add_anchor(name, offset)
            if first.type == "heading_open" and name not in self.sections[-1].anchors:
                self.sections[-1].anchors.append(name)

    def add_admonition(self, groups: Sequence[Sequence[Token]], stop: int) -> None:
        """An MkDocs admonition: its marker and body (``groups``, up to line ``stop``) as one paragraph.
        A body that holds raw HTML is read by the HTML reader (``Label: text``, no tags left)."""
        first = groups[0][0].map[0] if groups[0][0].map else 0
        lines = self.text[self.starts[first]:self.starts[stop] if stop < len(self.starts) else len(self.text)]
        marker, _, body = lines.partition("\n")
        body = "\n".join(_INDENT.sub("", line) for line in body.split("\n"))
        body_tokens = _PARSER.parse(body)
        if any(has_html([token]) for token in body_tokens):
            label = _ADMONITION_LABEL.match(marker.strip())
            title = (label.group(2) or label.group(1).capitalize()) if label else ""
            body_html = _PARSER.renderer.render(body_tokens, _PARSER.options, {})
            html = f'<div class="admonition">{_admonition_title(title)}{body_html}</div>'
            headings = any(token.type == "heading_open" for token in body_tokens)
            self.add_rendered((first, stop), html, headings=headings, slugs=False)
            return
        block = self.add_block((first, stop), "paragraph")
        starts = [block.start if block is not None else self.starts[first]]
        for group in groups:
            self.add_links(group, starts)
            for name, offset in html_anchors(self.text, self.starts, group):
                self.add_anchor(name, offset)

    def add_block(self, lines: Sequence[int], kind: BlockKind, table: int | None = None) -> Block | None:
        start, end = line_span(self.text, self.starts, lines[0], lines[1])
        start, end = trim_span(self.text, start, end, left=kind != "code")
        if start >= end:
            return None
        block = Block(start=start, end=end, kind=kind, section=self.current_section, table=table,
                      indivisible=kind == "code")
        self.blocks.append(block)
        return block

    def add_heading(self, group: Sequence[Token], lines: Sequence[int]) -> None:
        inline = next((token for token in group if token.type == "inline"), None)
        rendered, ids = heading_attributes(inline_text(inline.children or []) if inline is not None else "")
        heading = " ".join(rendered.split())
        level = int(group[0].tag[1:])
        if self.join_overload(heading, level, lines):
            return
        self.close_empty(level)
        parent = self.current_section
        while parent != 0 and self.sections[parent].level >= level:
            parent = self.sections[parent].parent or 0
        section = Section(heading=heading, level=level, parent=parent, start=0)
        self.sections.append(section)
        self.current = len(self.sections) - 1
        block = self.add_block(lines, "heading")
        section.start = block.start if block is not None else self.starts[lines[0]]
        for name in ids or []:  # the heading's own id ({#link}), then its GitHub slug
            section.anchors.append(name)
            self.add_anchor(name, section.start)
        written = None if ids is None else HEADING_ATTRIBUTES.search(self.text, self.starts[lines[0]],
                                                                     self.line_end(lines[0]))
        if written is not None and not (self.regions and self.regions[-1].end > written.start()):
            self.regions.append(_Region(written.start(), written.end(), ""))  # not text: {#link} named it
        slug = self.unique_slug(github_slug(rendered))
        if slug:
            section.anchors.append(slug)
            self.add_anchor(slug, section.start)
        if level == 1 and heading and self.title is None:
            self.title = heading

    def join_overload(self, heading: str, level: int, lines: Sequence[int]) -> bool:
        """An API's overloads written as headings one after the other, the text under the last
        (Node.js: ``## http.get(options[, callback])`` then ``## http.get(url[, options][, callback])``):
        a heading right after one of its level that names the same function (the same text before
        ``(``) and has nothing under it yet joins it, as ``dt`` groups do in HTML: one heading
        block over both lines, one section named by both (``a, b``) with both anchors. Return
        whether it did."""
        name = overload_name(heading)
        previous = self.sections[self.current]
        if (not name or self.current == 0 or len(self.sections) - 1 != self.current or previous.level != level
                or not self.blocks or self.blocks[-1].kind != "heading" or self.blocks[-1].start != previous.start
                or overload_name(previous.heading) != name
                or ("block", len(self.blocks) - 1) in self.in_region):  # a heading of rendered HTML
            return False
        start, end = line_span(self.text, self.starts, lines[0], lines[1])
        start, end = trim_span(self.text, start, end)
        if start >= end:
            return False
        self.blocks[-1].end = end
        previous.heading += ", " + heading
        slug = self.unique_slug(github_slug(heading))
        if slug:
            previous.anchors.append(slug)
            self.add_anchor(slug, start)
        return True

    def close_empty(self, level: int) -> None:
        """A heading with nothing under it (no text, no subsection), closed by a heading of its level
        or above (``level``), opens no section: it is a paragraph of the section around it, its anchor
        kept. Node.js's ``cli.md`` lists the V8 options it documents elsewhere as 13 headings in a row
        (``### `--jitless` ``), each an empty section a walk visited for nothing; now they are lines of
        their section's text, and a link to one still lands on its line."""
        section, region = self.sections[self.current], self.in_region.get(("section", self.current))
        if (self.current == 0 or len(self.sections) - 1 != self.current or section.level < level
                or not self.blocks or self.blocks[-1].kind != "heading" or self.blocks[-1].start != section.start
                or self.in_region.get(("block", len(self.blocks) - 1)) != region):  # offsets into one text
            return
        self.in_region.pop(("section", self.current), None)
        self.current = section.parent or 0
        self.blocks[-1].kind = "paragraph"
        self.blocks[-1].section = self.current
        self.sections.pop()

    def add_table(self, group: Sequence[Token]) -> None:
        index = len(self.tables)
        self.tables.append(Table(section=self.current_section))
        in_body = False
        for token in group:
            in_body = in_body or token.type == "tbody_open"
            if token.map is None:
                continue
            if token.type == "thead_open":
                delimiter_stop = token.map[1] + 1
                self.add_block((token.map[0], delimiter_stop), "table_header", table=index)
            elif token.type == "tr_open" and in_body:
                self.add_block(token.map, "table_row", table=index)

    def add_html(self, groups: Sequence[Sequence[Token]]) -> None:
        """Top-level blocks that hold raw HTML, read as the HTML markdown-it renders them to (with the
        Markdown between their tags) by the HTML reader: their rendering replaces their source in the
        text (``add_rendered``). A GitHub alert (``> [!NOTE]``) is an admonition there too."""
        tokens = html_tokens(groups)
        first, last = groups[0][0].map, groups[-1][0].map
        if first is None or last is None:
            return
        html = definition_list_html(tokens, _PARSER.options) or _PARSER.renderer.render(tokens, _PARSER.options, {})
        if groups[0][0].type == "blockquote_open":
            alert = GITHUB_ALERT.match(html)
            if alert is not None:
                label = _admonition_title(alert.group(1).capitalize())
                html = f'<blockquote class="admonition">{label}<p>{html[alert.end():]}'
        headings = any(token.type == "heading_open" for token in tokens)
        self.add_rendered((first[0], last[1]), html, headings=headings, slugs=groups[0][0].type == "heading_open")

    def add_rendered(self, lines: tuple[int, int], html: str, *, headings: bool, slugs: bool) -> None:
        """``html`` read by the HTML reader in place of the source ``lines``. Its headings open sections
        by their level, like Markdown headings (with ``slugs``, a Markdown heading's: it keeps its GitHub
        slug); a definition-list term's section sits under the section around it. A ``<details>`` is
        one block labelled by its ``<summary>`` unless ``headings`` or the HTML hold a heading."""
        start, end = trim_span(self.text, *line_span(self.text, self.starts, lines[0], lines[1]))
        rendered = parse_html(html, embedded=True, collapsible=not (headings or _HTML_HEADING.search(html)))
        self.repairs.extend(rendered.repairs)
        if not rendered.text:  # a comment, or tags without text: their blank lines go with them
            self.current = glossary_closed(self.sections, self.current, html, start)  # (markdown_myst)
            while end < len(self.text) and self.text[end] == "\n":
                end += 1
        region = len(self.regions)
        self.regions.append(_Region(start, end, rendered.text))
        mapped = {0: self.current}
        for index, section in enumerate(rendered.sections[1:], start=1):
            inside, term = section.parent or 0, not rendered.text.startswith("#", section.start)
            if inside == 0 and not term:  # a heading
                level, parent = section.level, self.current
                while parent != 0 and self.sections[parent].level >= level:
                    parent = self.sections[parent].parent or 0
            else:
                parent = mapped[inside]  # a term on top: under the section around its list, as its siblings
                level = self.sections[parent].level + section.level - rendered.sections[inside].level
            self.in_region[("section", len(self.sections))] = region
            mapped[index] = len(self.sections)
            self.sections.append(Section(section.heading, level, parent, section.start, list(section.anchors),
                                         section.end))
            if section.end is None and not term:  # what follows a definition list is not its last term's
                self.current = mapped[index]
            if level == 1 and section.heading and self.title is None:
                self.title = section.heading
            if slugs:
                slug = self.unique_slug(github_slug(section.heading))
                if slug:
                    self.sections[-1].anchors.append(slug)
                    self.region_anchors.append((slug, region, section.start))
        tables = len(self.tables)
        self.tables.extend(Table(section=mapped[table.section], title=table.title) for table in rendered.tables)
        for position, block in enumerate(rendered.blocks):
            previous = rendered.blocks[position - 1] if position else None
            if (block.kind == "list_item" and previous is not None and previous.kind == "list_item"
                    and rendered.text[block.start - 1] == "\n" and rendered.text[block.start] == " "):
                self.blocks[-1].end = block.end  # a nested item stays in its item, as in a Markdown list
                continue
            start = block.start
            while block.kind == "list_item" and rendered.text[start] == " ":
                start += 1  # an item nested in one without text of its own
            self.in_region[("block", len(self.blocks))] = region
            self.blocks.append(Block(start, block.end, block.kind, mapped[block.section],
                                     None if block.table is None else tables + block.table, block.indivisible))
        for link in rendered.links:
            self.in_region[("link", len(self.links))] = region
            self.links.append(Link(start=link.start, href=link.href))
        self.region_anchors.extend((name, region, offset) for name, offset in rendered.anchors.items())

    def drop_attribute_lists(self, lines: Sequence[int]) -> tuple[int, int, int] | None:
        """A paragraph's lines less the kramdown attribute lists on lines of their own before or after its
        text (``{: .note}``, ``{: #id}``, ``{:toc}``: Jekyll's and GitHub Pages' Markdown), which are not
        text, and how long one that opens its first line is (``{: .note} Text``); None when nothing is
        left. A paragraph of attribute lists right after a heading names it: its ``#id`` is an anchor."""
        first, stop = lines[0], lines[1]
        if first < stop and self.text.find("{:", self.starts[first], self.line_end(stop - 1)) < 0:
            return first, stop, 0  # every attribute list opens with "{:"
        while first < stop and IAL_LINE.fullmatch(self.text, self.starts[first], self.line_end(first)):
            first += 1
        while stop > first and IAL_LINE.fullmatch(self.text, self.starts[stop - 1], self.line_end(stop - 1)):
            stop -= 1
        section = self.sections[self.current]
        if (stop == first and self.blocks and self.blocks[-1].kind == "heading" and self.current
                and self.blocks[-1].start == section.start and ("section", self.current) not in self.in_region):
            for name in IAL_ID.findall(self.text, self.starts[lines[0]], self.line_end(lines[1] - 1)):
                section.anchors.append(name)
                self.add_anchor(name, section.start)
        for line in [*range(lines[0], first), *range(max(stop, first), lines[1])]:  # the line, not blanks after
            if not (self.regions and self.regions[-1].end > self.starts[line]):
                end = self.starts[line + 1] if line + 1 < len(self.starts) else len(self.text)
                self.regions.append(_Region(self.starts[line], end, ""))
        if stop == first:
            return None
        opening = IAL_PREFIX.match(self.text, self.starts[first], self.line_end(first))
        if opening is not None and not (self.regions and self.regions[-1].end > opening.start()):
            self.regions.append(_Region(opening.start(1), opening.end(), ""))
        return first, stop, (opening.end() - opening.start(1)) if opening is not None else 0

    def holds(self, group: Sequence[Token], char: str) -> bool:
        """Whether the source lines of a top-level block hold ``char`` (True when it has no lines)."""
        lines = group[0].map
        if lines is None or lines[1] <= lines[0]:
            return True
        return self.text.find(char, self.starts[lines[0]], self.line_end(lines[1] - 1)) >= 0

    def line_end(self, line: int) -> int:
        """Where source line ``line`` ends (before its newline)."""
        return self.starts[line + 1] - 1 if line + 1 < len(self.starts) else len(self.text)

    def drop_lines(self, first: int, stop: int) -> None:
        """Leave source lines ``[first, stop)`` and the blank lines after them out of the text."""
        start, end = line_span(self.text, self.starts, first, stop)
        while end < len(self.text) and self.text[end] == "\n":
            end += 1
        if self.regions and self.regions[-1].end > start:
            return  # inside a region already rendered
        self.regions.append(_Region(start, end, ""))

    def rewrite(self) -> None:
        """Put each region's rendering in place of its source and move every offset to match."""
        parts, at, moved = [], 0, 0
        ends, shifts = [], []
        for region in self.regions:
            parts.append(self.text[at:region.start])
            region.new_start = region.start + moved
            parts.append(region.text)
            moved += len(region.text) - (region.end - region.start)
            at = region.end
            ends.append(region.end)
            shifts.append(moved)
        parts.append(self.text[at:])
        self.text = "".join(parts)

        def shift(offset: int) -> int:
            passed = bisect_right(ends, offset)  # regions wholly before the offset
            return offset + (shifts[passed - 1] if passed else 0)

        def place(kind: str, index: int, offset: int) -> int:
            region = self.in_region.get((kind, index))
            return shift(offset) if region is None else self.regions[region].new_start + offset

        for index, block in enumerate(self.blocks):
            block.start, block.end = place("block", index, block.start), place("block", index, block.end)
        for index, section in enumerate(self.sections):
            if index:
                section.start = place("section", index, section.start)
            if section.end is not None:
                section.end = place("section", index, section.end)
        for index, link in enumerate(self.links):
            link.start = place("link", index, link.start)
        self.anchors = {name: shift(offset) for name, offset in self.anchors.items()}
        for name, in_region, offset in self.region_anchors:
            self.anchors.setdefault(name, self.regions[in_region].new_start + offset)

    def unique_slug(self, slug: str) -> str:
        """``slug``, or ``slug-1``, ``slug-2``, ... when taken (github-slugger's rule)."""
        if not slug:
            return ""
        candidate = slug
        while candidate in self.slug_counts:
            self.slug_counts[slug] += 1
            candidate = f"{slug}-{self.slug_counts[slug]}"
        self.slug_counts[candidate] = 0
        return candidate

    def add_anchor(self, name: str, offset: int) -> None:
        self.anchors.setdefault(name, offset)

    def add_links(self, group: Sequence[Token], block_starts: list[int]) -> None:
        """A :class:`Link` per ``link_open``, placed where its text is found in the source.

        Each link's text is searched for in its inline's lines, after the previous link's:
        first right after its opening bracket (``[`` or ``<``), then bare. A label that is
        not found (empty, or written with entities or markup) gets its block's start.
        """
        cursor = 0
        for inline in group:
            if inline.type != "inline" or inline.map is None or ("[" not in inline.content
                                                                 and "<" not in inline.content):
                continue  # a link is written with "[" or, autolinked, "<" (linkify is off)
            low, high = line_span(self.text, self.starts, *inline.map)
            cursor = max(cursor, low)
            for link_open, label in link_labels(inline.children or []):
                offset = -1
                if label:
                    for prefix in ("<" if link_open.markup == "autolink" else "[", ""):
                        found = self.text.find(prefix + label, cursor, high)
                        if found >= 0:
                            offset = found + len(prefix)
                            cursor = offset + len(label)
                            break
                if offset < 0:  # the last block starting by the inline's end (bisect: a list may hold 100,000 items)
                    offset = block_starts[max(bisect_right(block_starts, high) - 1, 0)]
                self.links.append(Link(start=offset, href=str(link_open.attrs.get("href") or "")))
