"""javadoc 17 and YARD 0.9.28 as Debian bookworm ships their pages (libcommons-lang3-java-doc 3.12.0, yard-doc
0.9.28), each as a small page of the shape the generator writes (task U12, a new user's trial)."""

from __future__ import annotations

from clew.corpus.ingest.formats.html import parse_html

_JAVADOC_17 = ('<!DOCTYPE HTML><html><head><title>StringUtils (Apache Commons Lang 3.12.0 API)</title>'
               '<meta name="generator" content="javadoc/ClassWriterImpl"></head>'
               '<body class="class-declaration-page"><main role="main"><div class="header">'
               '<h1 title="Class StringUtils" class="title">Class StringUtils</h1>'
               '</div><section class="details"><ul class="details-list"><li><section class="method-details" '
               'id="method-detail"><h2>Method Details</h2><ul class="member-list"><li><section class="detail" '
               'id="isBlank(java.lang.CharSequence)"><h3>isBlank</h3><div class="member-signature"><span '
               'class="modifiers">public static</span>&nbsp;<span class="return-type">boolean</span>&nbsp;<span '
               'class="element-name">isBlank</span><wbr><span class="parameters">(CharSequence&nbsp;cs)</span></div>'
               '<div class="block"><p>Checks if a CharSequence is empty (""), null or whitespace only.</p><ul><li>one'
               '</li><li>two</li></ul><pre> StringUtils.isBlank(null) = true</pre></div><dl class="notes"><dt>'
               'Parameters:</dt><dd><code>cs</code> - the CharSequence to check</dd></dl></section></li><li><section '
               'class="detail" id="isEmpty(java.lang.CharSequence)"><h3>isEmpty</h3><div class="member-signature">'
               'public static&nbsp;boolean&nbsp;isEmpty(CharSequence&nbsp;cs)</div></section></li></ul></section></li>'
               '</ul></section></main></body></html>')


def test_javadoc_17_members_are_not_list_items() -> None:
    """javadoc 17 lays a page out in lists of plain items (``ul.details-list``, ``ul.member-list > li >
    section.detail``; javadoc 11's were ``ul.blockList > li.blockList``): every member of commons-lang3 read as a
    list item under its heading, "- public static boolean isBlank(CharSequence cs)" with its description and notes
    as the item's lines. A doc comment's own list stays a list."""
    document = parse_html(_JAVADOC_17)
    assert [(b.kind, document.text[b.start:b.end]) for b in document.blocks][2:] == [
        ("heading", "### isBlank"),
        ("paragraph", "public static boolean isBlank(CharSequence cs)"),
        ("paragraph", 'Checks if a CharSequence is empty (""), null or whitespace only.'),
        ("list_item", "- one"), ("list_item", "- two"),
        ("code", "```\n StringUtils.isBlank(null) = true\n```"),
        ("paragraph", "Parameters: cs - the CharSequence to check"),
        ("heading", "### isEmpty"),
        ("paragraph", "public static boolean isEmpty(CharSequence cs)")]
    assert [s.heading for s in document.sections][-3:] == ["Method Details", "isBlank", "isEmpty"]


_YARD_FOOTER = ('<div id="footer">Generated on Sat Feb 25 2023 by <a href="https://yardoc.org" title="Yay! A Ruby '
                'Documentation Tool" target="_parent">yard</a> 0.9.28 (ruby-3.1.2).</div>')


def _yard_page(title: str, content: str) -> str:
    return (f'<!DOCTYPE html><html><head><meta charset="UTF-8"><title>\n  {title}\n  \n</title>'
            '<link rel="stylesheet" href="css/style.css" type="text/css" /></head><body><div class="nav_wrap"><iframe '
            'id="nav" src="class_list.html?1"></iframe></div><div id="main" tabindex="-1"><div id="header"><div '
            'id="menu"><a href="_index.html">Index</a> &raquo; <span class="title">File: README</span></div></div>'
            f'<div id="content">{content}</div>{_YARD_FOOTER}</div></body></html>')


def test_a_yard_file_page_is_titled_by_its_name_and_a_class_page_by_its_heading() -> None:
    """YARD titles each extra file "File: Tags Overview &mdash; YARD 0.9.28 Documentation" (yard-doc's 14 guides,
    README and CHANGELOG), which ``clew ls`` and every hit showed cut at 80 columns before the name; the name YARD
    gives the file instead. A class page keeps its ``h1`` ("Class: Cri::Command", as before)."""
    guide = parse_html(_yard_page("File: Tags Overview \n    \n      &mdash; YARD 0.9.28 Documentation",
                                  "<div id='filecontents'><h1 id=\"tags-overview\">Tags Overview</h1><p>Tags "
                                  "represent meta-data.</p></div>"))
    assert (guide.title, guide.text) == ("Tags Overview", "# Tags Overview\n\nTags represent meta-data.")
    readme = parse_html(_yard_page("File: README &mdash; YARD 0.9.28 Documentation",
                                   "<div id='filecontents'><h1>YARD: Yay! A Ruby Documentation Tool</h1></div>"))
    assert readme.title == "README"
    klass = parse_html(_yard_page("Class: Cri::Command &mdash; Documentation by YARD 0.9.24",
                                  '<h1>Class: Cri::Command</h1><h2>Constant Summary <small><a href="#" class='
                                  '"constants_summary_toggle">collapse</a></small></h2><dl class="constants"><dt '
                                  'id="DEFAULT_YARDOC_FILE-constant">DEFAULT_YARDOC_FILE =</dt></dl>'))
    assert klass.title == "Class: Cri::Command"
    # 0.9.28's "collapse" beside "Constant Summary" (its own class; 37 of yard-doc's pages) is chrome too
    assert [s.heading for s in klass.sections][-1] == "Constant Summary"
    assert "collapse" not in klass.text


def test_yards_frame_lists_are_not_documents() -> None:
    """YARD's lists for its side frame (``class_list.html``, ``method_list.html``, ``file_list.html``,
    ``tag_list.html``) were documents: "Method List", 73 passages of method names with their classes, quoted in an
    answer. They read as empty (the page is skipped); a page that only links the list's style sheet stays."""
    listing = ('<!DOCTYPE html><html><head><link rel="stylesheet" href="css/full_list.css" type="text/css" '
               'media="screen" /><title>Method List</title><base id="base_target" target="_parent" /></head><body>'
               '<div id="content"><div class="fixed_header"><h1 id="full_list_header">Method List</h1><div '
               'id="full_list_nav"><span><a target="_self" href="class_list.html">Classes</a></span></div></div><ul '
               'id="full_list" class="method"><li class="odd "><div class="item"><span class=\'object_link\'><a '
               'href="YARD/CLI/Stats.html#print_undocumented_objects-instance_method">#print_undocumented_objects</a>'
               '</span><small>YARD::CLI::Stats</small></div></li></ul></div></body></html>')
    assert parse_html(listing).text == ""
    other = listing.replace('<ul id="full_list" class="method">', "<ul>")
    assert "print_undocumented_objects" in parse_html(other).text
