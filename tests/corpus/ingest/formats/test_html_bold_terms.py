"""A paragraph holding only a bold name over a blockquote is a term and its definition (task R10, issue 36): SQLite's
compile.html writes its 195 compile-time options so (``<p><b>NAME</b></p><blockquote>...</blockquote>``), and they
were paragraphs of one long section. docs/measurements/walk-2026-12-05.md says what was measured."""

from __future__ import annotations

from clew.corpus.ingest.formats.html import parse_html
from clew.corpus.ingest.formats.html_terms import bold_terms

_TEXT = "This option sets a bound on what the library does. " * 30


def _options(count: int, *, name: str = "SQLITE_OPT_{i}=<i>N</i>") -> str:
    """SQLite's shape: an empty named anchor, the bold name alone in a paragraph, its description in a blockquote."""
    return "".join(f'<a name="opt_{i}"></a>\n<p><b>{name.format(i=i)}</b></p><blockquote><p>\n  Option {i}. {_TEXT}\n'
                   "</p></blockquote>" for i in range(count))


def test_bold_names_over_blockquotes_are_terms_each_a_section_named_by_its_anchor() -> None:
    page = (f"<h1>Compile-time Options</h1><h2>Size limits</h2><p>Intro.</p>{_options(6)}"
            "<p>After the options.</p><h2>Other</h2><p>None.</p>")
    document = parse_html(page)
    document.check()
    limits = next(i for i, s in enumerate(document.sections) if s.heading == "Size limits")
    terms = [s for s in document.sections if s.parent == limits]
    assert [s.heading for s in terms] == [f"SQLITE_OPT_{i}=N" for i in range(6)]
    assert all(s.level == 3 and s.anchors == [f"opt_{i}"] for i, s in enumerate(terms))
    assert document.anchors["opt_3"] == terms[3].start
    assert document.text[terms[3].start:].startswith("SQLITE_OPT_3=N\n\nOption 3. This option")
    after = next(b for b in document.blocks if document.text[b.start:b.end] == "After the options.")
    assert after.section == limits
    # the text is what it was read as before (a blockquote with anything in its tag is not the shape): only the
    # sections changed
    assert document.text == parse_html(page.replace("<blockquote>", "<blockquote >")).text


def test_a_bold_or_strong_id_and_a_code_name_name_the_term() -> None:
    entries = "".join(f'<p><strong id="flag-{i}"><code>--flag-{i}</code></strong></p>\n<blockquote><p>{_TEXT}</p>'
                      "</blockquote>\n" for i in range(5))
    document = parse_html(f"<h1>Flags</h1>{entries}")
    terms = [s for s in document.sections if s.level == 2]
    assert [(s.heading, s.anchors) for s in terms] == [(f"--flag-{i}", [f"flag-{i}"]) for i in range(5)]


def test_a_blockquote_holding_a_blockquote_is_one_definition() -> None:
    """SQLITE_DQS's description holds its table of settings in a blockquote of its own: the list goes on after it."""
    nested = _options(2) + ('<a name="dqs"></a>\n<p><b>SQLITE_DQS=<i>N</i></b></p><blockquote><p>Settings.</p>'
                            "<blockquote><table><tr><th>N<th>DDL<tr><td>3<td>yes</table></blockquote>"
                            f"<p>{_TEXT}</p></blockquote>") + _options(2, name="SQLITE_LATER_{i}")
    document = parse_html(f"<h1>Options</h1>{nested}")
    assert [s.heading for s in document.sections if s.level == 2] == [
        "SQLITE_OPT_0=N", "SQLITE_OPT_1=N", "SQLITE_DQS=N", "SQLITE_LATER_0", "SQLITE_LATER_1"]
    dqs = next(i for i, s in enumerate(document.sections) if s.heading == "SQLITE_DQS=N")
    assert [t.section for t in document.tables] == [dqs]


def test_a_short_run_stays_text_as_a_short_definition_list_does() -> None:
    """Node.js's assert page: a label over a stability note, once."""
    page = "<h1>Asserts</h1><p><strong>Legacy assertion mode</strong></p>\n<blockquote>\n" \
           "<p>Stability: 3 - Legacy.</p>\n</blockquote>\n<p>Tests for deep equality.</p>"
    document = parse_html(page)
    assert [s.heading for s in document.sections] == ["Asserts", "Asserts"]
    assert document.text == "# Asserts\n\nLegacy assertion mode\n\nStability: 3 - Legacy.\n\nTests for deep equality."
    assert bold_terms(page).count("<dt>") == 1  # read as a list of one term, which is text (TERM_UNITS_CHARS)


def test_near_misses_are_left_as_they_are() -> None:
    near_misses = [
        # bold inside a sentence, then a blockquote
        f"<p><b>SQLITE_OPT</b> sets a bound.</p><blockquote><p>{_TEXT}</p></blockquote>",
        # a blockquote after a paragraph of text
        f"<p>SQLITE_OPT sets a bound.</p><blockquote><p>{_TEXT}</p></blockquote>",
        # a bold paragraph followed by a paragraph, not a blockquote
        f"<p><b>SQLITE_OPT</b></p><p>{_TEXT}</p>",
        # bold holding a link (SQLite's recommended options: a name that leads to its entry)
        f'<p><b><a href="#opt">SQLITE_OPT</a></b></p><blockquote><p>{_TEXT}</p></blockquote>',
        # a classed blockquote (an admonition)
        f'<p><b>Note</b></p><blockquote class="note"><p>{_TEXT}</p></blockquote>',
        # a list item's first paragraph over its sub-list (a Sphinx changelog): the item's line
        "<ul><li><p><strong>BugFixes</strong></p>\n<blockquote><div><ul><li><p>Removed ORIG_HEAD</p></li></ul></div>"
        "</blockquote></li></ul>",
        # an empty bold
        f"<p><b> </b></p><blockquote><p>{_TEXT}</p></blockquote>",
    ]
    for page in near_misses:
        assert bold_terms(page) == page
        document = parse_html("<h1>Options</h1>" + page * 6)
        assert [s.heading for s in document.sections] == ["Options", "Options"]
