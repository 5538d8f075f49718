"""pdoc 16's pages of rich 15 and MkDocs 1.6's own ``mkdocs`` theme on Python-Markdown's docs (task U27, issue 36):
where a user's trial found their titles and sections not as the pages show them. The pages are cut down from what
the generators wrote; docs/measurements/generators-2026-12-06.md says what was checked."""

from __future__ import annotations

from clew.corpus.ingest.formats.html import parse_html

_PDOC_HEAD = (
    '<!doctype html>\n<html lang="en">\n<head>\n    <meta charset="utf-8">\n'
    '    <meta name="viewport" content="width=device-width, initial-scale=1.0">\n'
    '    <meta name="generator" content="pdoc 16.0.0"/>\n    <title>rich.align API documentation</title>\n'
    "</head>\n<body>\n"
)
_PDOC_MODULE = (
    '<main class="pdoc">\n<section class="module-info">\n<h1 class="modulename">\n'
    '<a href="./../rich.html">rich</a><wbr>.align    </h1>\n</section>\n'
)
_ALIGN = (
    '<section id="Align">\n<input id="Align-view-source" class="view-source-toggle-state" type="checkbox">\n'
    '<div class="attr class">\n    <span class="def">class</span>\n    <span class="name">Align</span>'
    '(<span class="base">rich.jupyter.JupyterMixin</span>):\n</div>\n'
    '<label class="view-source-button" for="Align-view-source"><span>View Source</span></label>\n'
    '<div class="pdoc-code codehilite"><pre><span id="Align-18">class Align(JupyterMixin):</span></pre></div>\n'
    '<div class="docstring"><p>Align a renderable by adding spaces if necessary.</p>\n\n'
    "<p>console = Console()</p>\n\n"
    '<h1 id="create-a-panel-20-characters-wide">Create a panel 20 characters wide</h1>\n\n'
    '<p>p = Panel("Hello, [b]World[/b]!", style="on green", width=20)</p>\n\n'
    '<h1 id="renders-the-panel-centered-in-the-terminal">Renders the panel centered in the terminal</h1>\n\n'
    '<p>console.print(Align(p, align="center"))\n```</p>\n</div>\n'
    '<div id="Align.__init__" class="classattr">\n<div class="attr function">\n'
    '<span class="name">Align</span><span class="signature">(renderable, align="left")</span>\n</div>\n'
    '<div class="docstring"><p>Create the alignment.</p></div>\n</div>\n'
    '<div id="Align.center" class="classattr">\n<div class="attr function">\n'
    '<span class="def">def</span> <span class="name">center</span><span class="signature">(cls, renderable)</span>\n'
    '</div>\n<div class="docstring"><p>Align a renderable to the center.</p></div>\n</div>\n'
    '<div class="inherited">\n<h5>Inherited Members</h5>\n<dl>\n<div><dt><a href="jupyter.html#JupyterMixin">'
    'rich.jupyter.JupyterMixin</a></dt>\n<dd id="Align.ipython" class="function">'
    '<a href="jupyter.html#JupyterMixin.ipython">ipython</a></dd>\n</div>\n</dl>\n</div>\n</section>\n'
)
_VERTICAL = (
    '<section id="VerticalCenter">\n<div class="attr class">\n    <span class="def">class</span>\n'
    '    <span class="name">VerticalCenter</span>:\n</div>\n'
    '<div class="docstring"><p>Vertically aligns a renderable.</p></div>\n</section>\n'
)
_PDOC = _PDOC_HEAD + _PDOC_MODULE + _ALIGN + _VERTICAL + "</main>\n</body>\n</html>\n"


def _sections(html: str) -> list[tuple[str, int, str | None]]:
    document = parse_html(html)
    document.check()
    return [(s.heading, s.level, None if s.parent is None else document.sections[s.parent].heading)
            for s in document.sections]


def test_a_pdoc_docstrings_headings_are_its_members_sections() -> None:
    """pdoc renders a docstring as Markdown: a ``#`` comment in rich's unfenced examples is an ``h1`` inside
    ``Align``'s docstring. Read as written it was a section beside the module, and ``Align.__init__``, ``Align.center``
    and the next class ``VerticalCenter`` (17 of rich.align's 21 sections) sat under "Renders the panel centered in the
    terminal". Now the docstring's headings are below their member's, and the members stay where pdoc puts them."""
    sections = _sections(_PDOC)
    assert ("Create a panel 20 characters wide", 3, "Align") in sections
    assert ("Renders the panel centered in the terminal", 3, "Align") in sections
    assert ("Align.__init__", 3, "Align") in sections
    assert ("Align.center", 3, "Align") in sections
    assert ("VerticalCenter", 2, "rich.align") in sections


def test_a_pdoc_class_heads_its_inherited_members() -> None:
    """A class's "Inherited Members" (``div.inherited > h5``) is the class's, beside its own members; it was a
    section under the class's last member (``Align.center``)."""
    assert ("Inherited Members", 3, "Align") in _sections(_PDOC)


def test_a_pdoc_page_is_titled_by_its_module() -> None:
    """pdoc and pdoc3 title every page "<module> API documentation" (58 of rich's pages, ``clew ls`` a column of
    the same words): the title is the module's name, as its ``h1`` says. A page whose ``<title>`` says more, and a
    page that no pdoc wrote, keep theirs."""
    assert parse_html(_PDOC).title == "rich.align"
    pdoc3 = _PDOC.replace('content="pdoc 16.0.0"', 'content="pdoc3 0.11.6"')
    assert parse_html(pdoc3).title == "rich.align"
    other = _PDOC.replace('<meta name="generator" content="pdoc 16.0.0"/>', "")
    assert parse_html(other).title == "rich.align API documentation"
    assert parse_html(_PDOC.replace("rich.align API documentation", "Align &lt;b&gt; API documentation")).title == \
        "Align <b>"


_MKDOCS = (
    '<!DOCTYPE html>\n<html lang="en" data-bs-theme="light">\n    <head>\n        <meta charset="utf-8">\n'
    '        <link rel="canonical" href="https://Python-Markdown.github.io/library/">\n'
    "        <title>Library Reference - Python-Markdown</title>\n"
    '        <link href="../css/bootstrap.min.css" rel="stylesheet">\n    </head>\n\n    <body>\n'
    '        <div class="navbar fixed-top navbar-expand-lg navbar-dark bg-primary">\n'
    '            <div class="container">\n'
    '                <a class="navbar-brand" href="..">Python-Markdown</a>\n'
    '                <div id="navbar-collapse" class="navbar-collapse collapse">\n'
    '                    <ul class="nav navbar-nav">\n'
    '                        <li class="nav-item"><a href=".." class="nav-link">Home</a></li>\n'
    '                        <li class="nav-item dropdown"><a href="#" class="nav-link dropdown-toggle active"'
    ' aria-current="page" role="button" data-bs-toggle="dropdown">Usage</a>\n'
    '                            <ul class="dropdown-menu"><li><a href="./" class="dropdown-item active"'
    ' aria-current="page">Library Reference</a></li></ul></li>\n'
    "                    </ul>\n                </div>\n            </div>\n        </div>\n\n"
    '        <div class="container">\n            <div class="row">\n'
    '                    <div class="col-md-3"><div class="navbar-expand-md bs-sidebar hidden-print affix"'
    ' role="complementary">\n    <div class="navbar-header"><button type="button" class="navbar-toggler collapsed"'
    ' data-bs-toggle="collapse" data-bs-target="#toc-collapse" title="Table of Contents">'
    '<span class="fa fa-angle-down"></span></button></div>\n'
    '    <div id="toc-collapse" class="navbar-collapse collapse card bg-body-tertiary">\n'
    '        <ul class="nav flex-column"><li class="nav-item" data-bs-level="1">'
    '<a href="#using-markdown-as-a-python-library" class="nav-link">Using Markdown as a Python Library</a></li>'
    "</ul>\n    </div>\n</div></div>\n"
    '                    <div class="col-md-9" role="main">\n\n'
    '<h1 id="using-markdown-as-a-python-library">Using Markdown as a Python Library'
    '<a class="headerlink" href="#using-markdown-as-a-python-library" title="Permanent link">&sect;</a></h1>\n'
    "<p>First and foremost, Python-Markdown is intended to be a python library module used by various projects to"
    " convert Markdown syntax into HTML.</p>\n</div>\n            </div>\n        </div>\n\n"
    '        <footer class="col-md-12">\n            <hr>\n                <p>Copyright &copy; 2010-2026 The'
    ' Python-Markdown Project.</p>\n            <p>Documentation built with <a href="https://www.mkdocs.org/">'
    "MkDocs</a>.</p>\n        </footer>\n    </body>\n</html>\n"
)


def test_a_page_of_mkdocs_own_theme_is_titled_without_the_sites_name() -> None:
    """MkDocs' built-in ``mkdocs`` theme (Bootstrap) titles a page "<nav title> - <site_name>" and writes the site's
    name in the navbar's brand link (``a.navbar-brand``). Where the page's ``h1`` is not its navigation title (14 of
    Python-Markdown's 38 pages) the title kept the site's name: "Library Reference - Python-Markdown"."""
    document = parse_html(_MKDOCS)
    document.check()
    assert document.title == "Library Reference"
    assert [s.heading for s in document.sections] == ["Library Reference", "Using Markdown as a Python Library"]
    h1 = "Using Markdown as a Python Library"
    same = _MKDOCS.replace("Library Reference - Python-Markdown", f"{h1} - Python-Markdown")
    assert parse_html(same).title == h1
    unnamed = _MKDOCS.replace('<a class="navbar-brand" href="..">Python-Markdown</a>', "")
    assert parse_html(unnamed).title == "Library Reference - Python-Markdown"
