"""Patterns that read a line (or a page) in time linear in its length: each of these took time quadratic
(or worse) in a run of blanks, dashes, tags or separators (0.2-10 s at 8,000 characters, minutes to hours at
200,000: a hang on an odd file). Run in a child process, so that a regression fails the test rather than
hanging the run; each result is checked against what the earlier pattern matched on the same input."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = r"""
from clew.agent.generate import _NUMBERED
from clew.agent.identifiers import _CAMEL, _HUMP
from clew.corpus.documents import _SITE_PREFIX, _SITE_SUFFIX
from clew.corpus.ingest.formats.html_jsapi import _ESDOC_EMPTY_LAST
from clew.corpus.ingest.formats.pdf import _BULLET_GLYPH, _LETTER_HYPHEN
from clew.corpus.ingest.formats.pdf_hyphens import _BREAK, _COMPOUND, _HYPHEN, _NOTE, _SPACED, _SPLIT
from clew.corpus.ingest.formats.pdf_notes import _NOTE_LINE, _RAISED
from clew.corpus.ingest.sources import _LICENCE_NAME
from clew.agent.source_blocks import _ALERT
from clew.commands.show import _passage_text
from clew.corpus.ingest.peek import _HEADING, generator_named
from clew.corpus.ingest.formats.html_man import _LINE_BREAK, _OPEN_BEFORE_BREAK, _RULE, _SECTION
from clew.corpus.ingest.formats.html_more import _JAVADOC_PACKAGE, _TEXINFO_LETTERS, _YARD_TITLE, _texinfo_title
from clew.corpus.ingest.formats.html_more import _JSDOC_OPTIONAL, _QDOC_CODE, _QDOC_MEMBERS
from clew.corpus.ingest.formats.html_jsapi import _DOCJS_UNNAMED, _ESDOC_NOTICE, _ESDOC_TITLE, documentation_js, esdoc
from clew.corpus.ingest.formats.markdown_blocks import _FENCE
from clew.corpus.ingest.formats.pdf_hyphens import _LAST
from clew.corpus.ingest.includes import _RST_OPTION, _SNIPPET_SECTION, snippet_part
from clew.commands.show import _FENCE as _SNIPPET_FENCE
from clew.agent.line_shapes import _ALNUM, _CELL, _GAP, _RULE as _DASHES, _WORDS
from clew.corpus.ingest.formats.html_blocks import _ITEM_MARK
from clew.corpus.ingest.formats.html_more import _ASCIIDOCTOR_BREAK, _TEXINFO_NOTES
from clew.corpus.ingest.formats.html_generators import _TEXINFO_INDEX
from clew.corpus.ingest.formats.html_titles import _ORG_SUBTITLE, _PANDOC_TITLE, ORG, PANDOC
from clew.agent.units import _MARKS, _SETTING
from clew.corpus.ingest.formats.pdf_columns import _WORD
from clew.tools.schema import _REF, _WRAP
from clew.corpus.ingest.formats.pdf import _ICON, _MONO_FONT, _TEX_TYPEWRITER
from clew.corpus.ingest.formats.pdf_layout import index_entry
from clew.agent.units import _ITEM as _UNIT_ITEM

n = 200_000
blanks = " " * n
print(_ALERT.fullmatch("[!NOTE] a" + blanks + "b").group(2)[-1], flush=True)
print(_ALERT.fullmatch("[!NOTE]" + blanks + "\n") is None, flush=True)
print(_FENCE.fullmatch("/// tip | a" + blanks + "b").group(4)[-1], flush=True)
print(_FENCE.fullmatch("///" + blanks + "!") is None, flush=True)
print(_RST_OPTION.match("   :lines: 1" + blanks + "2").group(3)[-1], flush=True)
print(_RST_OPTION.match("   :lines:" + blanks + "\nx") is None, flush=True)
print(_SNIPPET_SECTION.search("-" * n + "8<") is None, flush=True)
print(snippet_part("a" + ":1,2" * (n // 4) + "/x")[1:], flush=True)
print(snippet_part("a" + ":1,1" * (n // 4) + ":1:1:1")[1][:4], flush=True)
print(_SECTION.search("<h2>a" + blanks + "b<x") is None, flush=True)
print(_RULE.sub("", "<p>" + blanks + "x" + "_" * n + "x") == "<p>" + blanks + "x" + "_" * n + "x", flush=True)
print(len(_LINE_BREAK.split(blanks + "x")), flush=True)
print(_OPEN_BEFORE_BREAK.search("<b>" * n + "x") is None, flush=True)
print(len(list(_HEADING.finditer("<dl>" + "<dt>term x<dd>desc y" * (n // 10)))), flush=True)
print(repr(_passage_text("\n\n  a" + blanks + "b" + blanks)[-3:]), flush=True)
print(_YARD_TITLE.search("<title>" + blanks + "&mdash;" + blanks) is None, flush=True)
print(_JAVADOC_PACKAGE.search('<div class="subTitle">x</div><h1>' * (n // 30)) is None, flush=True)
print(len(_SNIPPET_FENCE.sub("", "```" + "a" * n + blanks + "x")), flush=True)
print(_TEXINFO_LETTERS.search('<table><tr><th valign="top">Jump to: &nbsp; </th>' * (n // 10)) is None, flush=True)
settitles = '<h1 class="settitle"' * (n // 4) + '<h1 class="settitle">x</h1>' + '<h1 class="top"' * (n // 4)
print(len(_texinfo_title(settitles)) == len(settitles), flush=True)
print(_JSDOC_OPTIONAL.search("a" * n + '<span class="x">opt</span>') is None, flush=True)
print(_ESDOC_NOTICE.search(('<div class="header-notice"><div class="import-path">' + "x" * 50) * (n // 100)) is None,
      flush=True)
print(_DOCJS_UNNAMED.search("<title>|" + blanks + "x") is None, flush=True)
labels = "<div class='py1 quiet mt1 prose-big'>Parameters</div><div>" * (n // 50)
print(documentation_js(labels).count("<dt>"), flush=True)
print(_ESDOC_TITLE.search('<title data-ice="title">' + " | x" * (n // 4)) is None, flush=True)
print(len(esdoc('<table class="summary" data-ice="summary"><td>' * (n // 40))) > n, flush=True)
print(_QDOC_CODE.search('<pre class="cpp">' * (n // 17) + "x") is None, flush=True)
print(_QDOC_MEMBERS.search('<ul>\n<li><a href="' + "-members" * (n // 8)) is None, flush=True)
print(_CAMEL.search("a" + "A" * n + "_") is None, flush=True)
print(len(_CAMEL.findall("aB" * (n // 2))), flush=True)
print(_LAST.search("a" * n + "\xadx") is None, _LAST.search("x " + "a" * n + "\xad").start(), flush=True)
print(_NUMBERED.match(blanks + "1") is None, len(_HUMP.findall("A" * n + "a")), flush=True)
print(_SITE_PREFIX.search(" -" * (n // 2) + "x") is None, _SITE_SUFFIX.search(blanks + "x") is None, flush=True)
print(_ESDOC_EMPTY_LAST.search("<td>" + blanks + "</td>" + blanks) is None, len(_BULLET_GLYPH.findall("•" + blanks)),
      flush=True)
print(_LETTER_HYPHEN.search("a-" * (n // 2) + "x") is None, len(_SPLIT.findall("a\xad" * (n // 2))), flush=True)
print(len(_COMPOUND.findall("a-" * (n // 2))), len(_NOTE.findall("aA" * (n // 2))), flush=True)
print(len(_RAISED.findall("a\r\n1" + blanks)), _LICENCE_NAME.search("-licens" * (n // 7)) is None, flush=True)
print(_NOTE_LINE.search("\n" + blanks + "1") is None, _NOTE_LINE.search("1" + blanks + "1") is None,
      len(_NOTE_LINE.findall("\r\n12" * (n // 4))), flush=True)
print(generator_named("<meta " * (n // 6)), generator_named("<meta name=generator " + "content= " * (n // 10)),
      generator_named("<!-- Generated by" + blanks), flush=True)
print(len(_BREAK.split("\r" * n + "\n")), len(_HYPHEN.findall("\ufffe" * n)), flush=True)
print(_SPACED.search("A" * n + " a") is None, len(_SPACED.findall("A " * (n // 2))), flush=True)
print(_DASHES.fullmatch("-" * n + blanks + "x") is None, _DASHES.fullmatch(blanks + "-" * n + blanks) is not None,
      len(_GAP.split(blanks + "x")), flush=True)
print(len(_CELL.findall("a " * (n // 2))), _CELL.findall(blanks + "x"), _WORDS.fullmatch("a" + blanks + "1") is None,
      _ALNUM.search("|-" * (n // 2)) is None, flush=True)
print(_ITEM_MARK.match("1" * n + "x") is None,
      _TEXINFO_NOTES.search('<h4 class="footnotes-heading">' * (n // 30)) is None,
      _ASCIIDOCTOR_BREAK.search("&#8230;" * (n // 7)) is None,
      _TEXINFO_INDEX.fullmatch("index-" + "a" * n + "-") is None, flush=True)
print(ORG.search('<meta name="generator" content="Org' * (n // 35)) is None,
      PANDOC.search('<meta name="generator" content="pando' * (n // 37)) is None,
      _ORG_SUBTITLE.search(('<h1 class="title">' + "x" * 10 + "<br />" + blanks[:20]) * (n // 50)) is None,
      _PANDOC_TITLE.match(blanks + '<h1 class="title">' + "</h" * n) is None, flush=True)
print(_MARKS.fullmatch("." * n + "!") is None, _SETTING.fullmatch("a_" * (n // 2) + "!") is None,
      _SETTING.fullmatch("A" * n + "_" + "1" * n) is not None, flush=True)
print(len(_WRAP.sub(" ", "a\n" * (n // 2))), _REF.findall('"$ref": "#/$defs/' * (n // 17)) == [],
      len(_WORD.findall(blanks + "x")), flush=True)
print(index_entry("a" * 2 * n + ",x 5"), index_entry("a" * 2 * n + ", 5"), _ICON.fullmatch("\ue000 " * n + "x") is None,
      _MONO_FONT.search("t1x" * n) is None, _TEX_TYPEWRITER.search("t1x" * n) is None,
      _UNIT_ITEM.match("\u2022" + blanks + "x") is not None, flush=True)
print(index_entry("a, " + "1, " * (n // 3) + "1", 100), index_entry("a, " + "1, " * (n // 3) + "1000", 100), flush=True)
from clew.corpus.ingest.formats.pdf_order import _LAYERED, LIST_MARKER as _MARKER
print(_MARKER.fullmatch("(" + "1" * n + ".") is None, _LAYERED.search("Weasy" * n) is None, flush=True)
from clew.corpus.ingest.browser_pages import _HREF
print(len(_HREF.findall("href='>" * n)), len(_HREF.findall("href=" + "x" * n + " href")), flush=True)
from clew.corpus.ingest.formats.pdf_layout import ADMONITION_LABEL
print(ADMONITION_LABEL.fullmatch("Note" * n + ":") is None, ADMONITION_LABEL.fullmatch("Note:") is not None, flush=True)
from clew.corpus.ingest.formats.man import _RAW_REFERENCE
from clew.corpus.ingest.formats.roff_html import _REFERENCE as _MAN_REFERENCE
print(_RAW_REFERENCE.search("a." * (n // 2)) is None, _MAN_REFERENCE.search("<b>a.</b>" * (n // 8) + "a." * n) is None,
      flush=True)
"""

EXPECTED = ["b", "True", "b", "True", "2", "True", "True", "(None, None)", ":1:1", "True", "True", "1", "True", "0",
            "'  b'", "True", "True", str(3 + 2 * 200_000 + 1), "True", "True", "True", "True", "True", "1", "True",
            "True", "True", "True", "True", "1", "True 2", "True 2",
            "True True", "True 0", "True 99999", "1 100000", "0 True", "True True 0", "None content= None",
            "200001 200000", "True 50000", "True True 2", "1 ['x'] True True", "True True True True",
            "True True True True", "True True True", "200000 True 1",
            "False True True True True True", "True False", "True True", "200000 1", "True True", "True True"]


def test_line_patterns_take_time_linear_in_a_line() -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stdout.splitlines()) == (0, EXPECTED), done.stderr


def test_the_rewritten_patterns_match_as_before_on_ordinary_lines() -> None:
    """The same matches as the earlier patterns on the lines they were written for."""
    from clew.agent.source_blocks import _ALERT
    from clew.corpus.ingest.formats.html_man import _LINE_BREAK, _OPEN_BEFORE_BREAK, _RULE, _SECTION
    from clew.corpus.ingest.formats.markdown_blocks import _FENCE
    from clew.corpus.ingest.includes import _RST_OPTION, _SNIPPET_SECTION, snippet_part

    alert = _ALERT.fullmatch("[!new] ## New in 12.0  ")
    assert alert is not None and alert.groups() == ("new", "New in 12.0")
    fence = _FENCE.fullmatch("  /// tip | 9.10 New Approach ")
    assert fence is not None and fence.groups() == ("  ", "///", "tip", "9.10 New Approach")
    option = _RST_OPTION.match("   :lines: 3-5  ")
    assert option is not None and option.groups() == ("   ", "lines", "3-5")
    section = _SNIPPET_SECTION.search(";--8<-- [start: intro]")
    assert section is not None and section.groups() == (";", "--8<-- [start: intro]", "start", "intro")
    assert [snippet_part(name) for name in ("docs/a.md:3:5", "a.md::3", "a.md:1:3,5:6", "a.md:intro", "a:b/c.md")] == [
        ("docs/a.md", ":3:5", None), ("a.md", "::3", None), ("a.md", ":1:3,5:6", None), ("a.md", None, "intro"),
        ("a:b/c.md", None, None)]
    heading = _SECTION.search('<h2>NAME  <a name="NAME"></a>')
    assert heading is not None and heading.group(1) == "NAME"
    assert _RULE.sub("", "<p>" + "_" * 30 + "</p>\n<p>text " + "_" * 25 + "</p>") == "<p>text</p>"
    assert _LINE_BREAK.split("lsort \t<br>\n list<br>x") == ["lsort", "list", "x"]
    assert _OPEN_BEFORE_BREAK.sub(r"<br>\1", "a <b><i> <br>b") == "a <br><b><i>b"
    from clew.corpus.ingest.formats.html_more import _JSDOC_OPTIONAL
    opt = '<span class="signature-attributes">opt</span>'
    assert _JSDOC_OPTIONAL.sub(r"[\1]", f"applyEach(fns, &hellip;args{opt}, callback{opt})") == (
        "applyEach(fns, [&hellip;args], [callback])")
    from clew.agent.identifiers import _CAMEL
    assert _CAMEL.findall("Qt::SkipEmptyParts, fromISO(x) getElementById HTML SQLITE_BUSY Returns x86 iOS") == [
        "SkipEmptyParts", "fromISO", "getElementById", "HTML", "iOS"]
    from clew.corpus.ingest.formats.pdf_hyphens import _LAST
    last = _LAST.search("the luaotfload\xadblack\xad")
    assert last is not None and last.group(1) == "black"


def test_the_title_list_and_pdf_line_patterns_match_ordinary_lines() -> None:
    """What the patterns of site parts, numbered items, camelCase parts, ESDoc's empty cells, PDF bullets, hyphens,
    margin notes, raised marks and licence names were written for still matches."""
    from clew.agent.generate import _NUMBERED
    from clew.agent.identifiers import _HUMP
    from clew.corpus.documents import _SITE_PREFIX, _SITE_SUFFIX
    from clew.corpus.ingest.formats.html_jsapi import _ESDOC_EMPTY_LAST
    from clew.corpus.ingest.formats.pdf import _BULLET_GLYPH, _LETTER_HYPHEN
    from clew.corpus.ingest.formats.pdf_hyphens import _COMPOUND, _NOTE, _SPLIT
    from clew.corpus.ingest.formats.pdf_notes import _NOTE_LINE, _RAISED
    from clew.corpus.ingest.sources import _LICENCE_NAME

    numbered = _NUMBERED.match("12. Then")
    assert numbered is not None and numbered[1] == "12" and _NUMBERED.match("1.5 x") is None
    assert _HUMP.findall("fromISOString2") == ["from", "ISO", "String", "2"]
    assert [bool(_SITE_PREFIX.search(text)) for text in ("gtk – 4.0: ", "docs: ", "sqlite ")] == [True, True, False]
    assert [bool(_SITE_SUFFIX.match(text)) for text in (" - rust", " (apache commons lang 3.12.0 api)", " query")] == [
        True, True, False]
    assert _ESDOC_EMPTY_LAST.sub(r"\1", "<td>a</td><td> </td>\n</tr>") == "<td>a</td>\n</tr>"
    assert [bool(_BULLET_GLYPH.match(text)) for text in ("● Fast", "●")] == [True, False]
    assert [bool(_LETTER_HYPHEN.search(text)) for text in ("pre-", "1999-")] == [True, False]
    assert _SPLIT.findall("con\xaddensed word") == [("con", "densed")]
    assert _COMPOUND.findall("luaotfload-blacklist.cnf, pre-1999") == ["luaotfload-blacklist", "pre-1999"]
    assert [found.start() for found in _NOTE.finditer("so youNew in")] == [6]
    from clew.corpus.ingest.formats.pdf_hyphens import _SPACED
    assert _SPACED.findall("the X TEEX-style, A BC and I am") == ["X TEEX", "A BC"]
    assert _RAISED.findall("Live,17 or") == _RAISED.findall("Live,\r\n17 or") == ["17"]
    assert [found.span() for found in _RAISED.finditer("setting2 R2 x1234 a 5 b,\r\n17 or a\r\n3\n")] == [
        (7, 8), (10, 11), (26, 28)]  # what the two look-behinds first found (task P5 put the digit first)
    assert [found.start() for found in _NOTE.finditer("A GNUplot X\ufffeY (Z")] == [3, 4, 12, 15]
    assert _NOTE_LINE.findall("x\n 13The tool\r\n2\r\nits note\n2nd\n1234 no") == ["13", "2", "2"]
    assert [bool(_LICENCE_NAME.search(name)) for name in ("FiraSans-LICENSE", "COPYING", "licensed-fonts")] == [
        True, True, False]
    from clew.corpus.ingest.peek import generator_named
    heads = ['<meta charset="utf-8"><meta name="generator" content="rustdoc">',
             '<meta content="Doxygen 1.9.4" name="generator"/>', "<!-- Generated by javadoc (11.0.16) -->",
             "<META NAME='Generator' CONTENT='Sphinx'>",
             '<meta name="generator" content="mkdocs-1.5.3, mkdocs-material-9.4.6">',
             '<meta name="description" content="x"><title>x</title>',
             '<!-- Generated by Doxygen 1.9.4 --><meta name="generator" content="x">']
    assert [generator_named(head) for head in heads] == ["rustdoc", "Doxygen", "javadoc", "Sphinx", "mkdocs-1.5.3",
                                                         None, "Doxygen"]


def test_the_drawn_table_list_item_and_title_patterns_match_ordinary_lines() -> None:
    """What the patterns added on 2026-12-07 were written for (drawn tables, an admonition's list item, Asciidoctor's
    breaks, Texinfo's notes and indexes, Org's and pandoc's titles) still matches."""
    from clew.agent.line_shapes import _ALNUM, _CELL, _GAP, _RULE, _WORDS
    from clew.corpus.ingest.formats.html_blocks import _ITEM_MARK
    from clew.corpus.ingest.formats.html_generators import _TEXINFO_INDEX
    from clew.corpus.ingest.formats.html_more import _ASCIIDOCTOR_BREAK, _TEXINFO_NOTES
    from clew.corpus.ingest.formats.html_titles import _ORG_SUBTITLE, _PANDOC_TITLE, ORG, PANDOC

    assert [bool(_RULE.fullmatch(line)) for line in ("  ------------", "--", "-- x")] == [True, False, False]
    assert _GAP.split("Field       Meaning  of it") == ["Field", "Meaning", "of it"]
    assert _CELL.findall("   B...C  = B ^F C   G H") == ["B...C", "= B ^F C", "G H"]
    assert [bool(_WORDS.fullmatch(cell)) for cell in ("Expanded arguments", "<m2>")] == [True, False]
    assert [bool(_ALNUM.search(line)) for line in ("|---->|", "|-- a", "_")] == [False, True, False]
    assert [bool(_ITEM_MARK.match(line, 2)) for line in ("  - item", "  12. item", "  Note: x")] == [True, True, False]
    assert _ASCIIDOCTOR_BREAK.sub(r"\1", "%sh{&#8230;&#8203;} a&#8212;&#8203;b &#8203;") == (
        "%sh{&#8230;} a&#8212;b &#8203;")
    assert _TEXINFO_NOTES.sub(r"<h2>\1</h2>", '<h4 class="footnotes-heading">Footnotes</h4>') == "<h2>Footnotes</h2>"
    assert [bool(_TEXINFO_INDEX.fullmatch(name)) for name in ("index-bt", "index-entry-id")] == [True, False]
    assert bool(ORG.search('<meta name="generator" content="Org Mode" />'))
    assert bool(PANDOC.search('<meta name="generator" content="pandoc" />'))
    org = _ORG_SUBTITLE.search(
        '<h1 class="title">The Org Manual<br />\n<span class="subtitle">Release 9.5</span>\n</h1>')
    assert org is not None and org.groups() == ("<h1 class=\"title\">The Org Manual", "Release 9.5")
    title = _PANDOC_TITLE.match('\n<h1 class="title">A <em>b</em></h1>\n<p class="author">C</p>')
    assert title is not None and title.group().endswith("</em></h1>")
    from clew.corpus.ingest.formats.pdf_columns import _WORD
    from clew.tools.schema import _REF, _WRAP

    assert _WRAP.sub(" ", "A line\nwrapped.\n\n- item\n- two\n* three") == "A line wrapped.\n\n- item\n- two\n* three"
    assert _REF.findall('{"$ref": "#/$defs/Principal", "b": {"$ref": "#/$defs/Scope"}}') == ["Principal", "Scope"]
    assert _WORD.findall(" a  bc ") == ["a", "bc"]
    from clew.agent.units import _ITEM as _UNIT_ITEM
    from clew.corpus.ingest.formats.pdf import _ICON, _MONO_FONT, _TEX_TYPEWRITER
    from clew.corpus.ingest.formats.pdf_layout import index_entry

    assert [index_entry(line) for line in ("why3-prove command line option, 65", "--timelimit, 65, 70–72", "é, 3",
                                           "12, 65", "Knuth, D. E. 1997", "term, 65,", "_, 3")] == [
        True, True, True, False, False, False, False]
    assert _ICON.fullmatch("\uf05a") and not _ICON.fullmatch("\uf05a Note")
    assert _MONO_FONT.search("NewTXTT-t1xbtt") and _TEX_TYPEWRITER.search("t1xtt")
    assert not _TEX_TYPEWRITER.search("ptmr")
    assert [bool(_UNIT_ITEM.match(line)) for line in ("\u2022 Languages (lang)", "- a", "\u2022x", "2) b")] == [
        True, True, False, True]


TAB_SCRIPT = r"""
from clew.corpus.ingest.formats.dialects import _TAB_LABEL, _TAB_VALUE, _tab_label
n = 200_000
print(_TAB_LABEL.search(' label="' * (n // 8)) is None, _TAB_VALUE.search(" value='" * (n // 8)) is None, flush=True)
print(_TAB_LABEL.search(' label="' + "a" * n) is None, repr(_tab_label("<TabItem" + " x" * n + ">")), flush=True)
"""


def test_the_mdx_tab_label_patterns_take_time_linear_in_a_line() -> None:
    """A tab's label and value (task U24), on runs of openings (each closing the one before) and on a tag of
    200,000 attributes."""
    from clew.corpus.ingest.formats.dialects import _TAB_LABEL, _TAB_VALUE

    done = subprocess.run([sys.executable, "-c", TAB_SCRIPT], capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stdout.splitlines()) == (0, ["False False", "True ''"]), done.stderr
    label = _TAB_LABEL.search('<TabItem value="js" label="JavaScript">')
    value = _TAB_VALUE.search("<TabItem value='py'>")
    assert label is not None and label.group(1) == "JavaScript"
    assert value is not None and value.group(2) == "py"


DIFF_SCRIPT = r"""
from clew.corpus.ingest.formats.html_diff import _EC_LINE, _SHIKI_LINE, diff_marks
n = 200_000
print(_EC_LINE.search('<div class="ec-line ' * (n // 20)) is None, _SHIKI_LINE.search('<span class="line ' * (n // 18))
      is None, flush=True)
print(len(diff_marks('<span class="line diff ' + "a " * n + '">')), flush=True)
"""


def test_the_diff_line_patterns_take_time_linear_in_a_page() -> None:
    """Expressive Code's and Shiki's line openings (task U24), on runs of openings that never close."""
    done = subprocess.run([sys.executable, "-c", DIFF_SCRIPT], capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stdout.splitlines()) == (0, ["True True", str(2 * 200_000 + 25)]), done.stderr


NAME_AND_HOLDER_SCRIPT = r"""
import duckdb
from clew.agent.declarations import _WRITTEN, HEADING_NAME
from clew.corpus.ingest.browser_pages import _OWN_WORD
from clew.corpus.store import held_by
n = 800_000
print(HEADING_NAME.fullmatch("a" * n + "!") is None and HEADING_NAME.fullmatch("a-/" * (n // 3) + "!") is None,
      HEADING_NAME.fullmatch("Class: `" + "a" * n) is None,
      HEADING_NAME.fullmatch("`a` (" + "a" * n) is None, _WRITTEN.match(" " * n) is None,
      _WRITTEN.match("Class: " * (n // 7))[1], _OWN_WORD.search("a1" * (n // 2)) is None, flush=True)
print(held_by(duckdb.IOException("Conflicting lock is held in " * (n // 28))) is None,
      held_by(duckdb.IOException("Conflicting lock is held in " + " (PID 1" * (n // 7) + "x")) is None,
      held_by(duckdb.IOException("Conflicting lock is held in " + "p" * n + " (PID 7).")) is not None, flush=True)
"""


def test_a_heading_s_name_and_a_held_file_s_holder_take_time_linear_in_a_line() -> None:
    """A heading that names one thing and the name it writes (``clew.agent.declarations.HEADING_NAME``, ``_WRITTEN``,
    task X19; with X20's names joined by "/", ``a-/a-/...``), a word of a page's own
    (``clew.corpus.ingest.browser_pages._OWN_WORD``, task R15) and the process
    named by DuckDB's refusal of a file another one holds (``clew.corpus.store.held_by``, task H2), at 800,000
    characters: held_by's pattern, searched for anywhere, was quadratic in a message repeating DuckDB's words
    (80,000 characters 1.1 s, 200,000 6.9 s, these past the 60 s; review V5)."""
    from clew.agent.declarations import HEADING_NAME

    done = subprocess.run([sys.executable, "-c", NAME_AND_HOLDER_SCRIPT], capture_output=True, text=True, timeout=60,
                          check=False)
    assert (done.returncode, done.stdout.splitlines()) == (0, ["True True True True Class: True", "True True True"]), (
        done.stderr)
    assert [bool(HEADING_NAME.fullmatch(heading)) for heading in (
        "bodyLimit", "`level` (String)", "Class: RetryAgent", "Event: 'close'", "Getting started",
        "import/extensions", "import/", "Import/extensions")] == [True, True, True, True, False, True, False, False]


CLASS_SCRIPT = r"""
from clew.corpus.ingest.browser_pages import _CLASS
n = 200_000
print(len(list(_CLASS.finditer('<p class="' + "a " * n))), len(list(_CLASS.finditer("class=" * n))),
      len(list(_CLASS.finditer("<li class='" * n))), flush=True)
"""


def test_the_class_attribute_pattern_takes_time_linear_in_a_page() -> None:
    """A page's ``class`` attributes, read for a list of posts' hAtom marks (``browser_pages._CLASS``, task U25), on a
    value that never closes, a run of ``class=`` and of quotes that open values; and what it matches on a page."""
    from clew.corpus.ingest.browser_pages import _CLASS

    done = subprocess.run([sys.executable, "-c", CLASS_SCRIPT], capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stdout.splitlines()) == (0, ["0 0 100000"]), done.stderr
    page = '<li><article class="hentry"><abbr class = \'published x\' title="2026">'
    assert [found[2] for found in _CLASS.finditer(page)] == ["hentry", "published x"]


HUGO_SCRIPT = r"""
from clew.corpus.ingest.formats.html_hugo import hugo_theme_chrome
n = 600_000
print(len(hugo_theme_chrome("<h2>See Also</h2><ul>" + '<li><a href="/p/">Page</a></li>' * n + "</ul>")),
      len(hugo_theme_chrome("<h2>See Also</h2><ul>" + '<li><a href="/p/">Page</a></li>' * n + "<li>x</li></ul>")),
      len(hugo_theme_chrome("<header>" * n + "<h1>a</h1>")), flush=True)
"""


def test_hugo_s_related_pages_are_read_in_time_linear_in_a_page() -> None:
    """Hugo's related pages (``html_hugo.hugo_theme_chrome``, task R15): a ``<ul>`` of links under "See Also" was read
    by cutting each item off the rest of the list, quadratic in the list (80,000 items 2.3 s; these 600,000 past the
    60 s before; review V6 of c80a9bd). A list of links only goes; one with an item of text stays."""
    done = subprocess.run([sys.executable, "-c", HUGO_SCRIPT], capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stdout.split()) == (0, ["0", str(21 + 31 * 600_000 + 15), str(8 * 600_000 + 10)]), (
        done.stderr)


BANNER_SCRIPT = r"""
from clew.corpus.ingest.formats.html_titles import _banner
n = 400_000
print(_banner("<h1>a</h1><!--" * (n // 14)) is None, _banner("<h1>a</h1><!-- -->" * (n // 18)) is not None,
      _banner("<!--<h1>a</h1>-->" * (n // 17) + '<h1 align="center">a</h1>\n<!---->\n<h2>b</h2>').group(4), flush=True)
"""


def test_a_banner_is_looked_for_in_time_linear_in_a_page() -> None:
    """A banner (``html_titles._banner``, task R16) was tried at every ``h1``, those inside a comment too, each try
    reading the comments after it: ``<h1>a</h1><!--`` repeated took time quadratic in the page (70,000 characters
    2.7 s, 140,000 10.3 s, 280,000 42 s, these 400,000 past the 60 s; review V6 of f50c6c0). An ``h1`` inside a
    comment is not tried."""
    done = subprocess.run([sys.executable, "-c", BANNER_SCRIPT], capture_output=True, text=True, timeout=60,
                          check=False)
    assert (done.returncode, done.stdout.split()) == (0, ["True", "True", "a"]), done.stderr


HOME_SCRIPT = r"""
from clew.corpus.ingest.formats.html_titles import _HOME, _site_named
n = 200_000
print(_HOME.search('href="' + "../" * (n // 3)) is None, _HOME.search("href='" + "../" * (n // 3) + "index.html'")
      is not None, _site_named('<a class="title" href="' + "../" * (n // 3) + '">', "a"), flush=True)
"""


def test_a_relative_link_home_is_read_in_time_linear_in_a_page() -> None:
    """The link home as a mirror rewrites it (``../index.html``, ``html_titles._HOME``, task U29) on a run of
    ``../`` that never closes, and on one that does."""
    done = subprocess.run([sys.executable, "-c", HOME_SCRIPT], capture_output=True, text=True, timeout=60,
                          check=False)
    assert (done.returncode, done.stdout.split()) == (0, ["True", "True", "False"]), done.stderr


LISTING_SCRIPT = r"""
from clew.corpus.ingest.peek import _LISTING
n = 200_000
print(_LISTING.search("<title>" + " " * n + "Index of") is None, _LISTING.search("<title>" * (n // 7)) is None,
      _LISTING.search("<TITLE>\n Directory listing for /a/</TITLE>").group(1), flush=True)
"""


def test_a_folder_listing_s_title_is_read_in_time_linear_in_a_page() -> None:
    """A web server's folder listing (``peek._LISTING``, task U29) on a run of blanks and of ``<title>``s."""
    done = subprocess.run([sys.executable, "-c", LISTING_SCRIPT], capture_output=True, text=True, timeout=60,
                          check=False)
    assert (done.returncode, done.stdout.split()) == (0, ["True", "True", "Directory", "listing", "for", "/"]), (
        done.stderr)
