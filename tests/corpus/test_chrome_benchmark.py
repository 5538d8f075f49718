"""benchmarks/chrome.py runs, on one page of each generator (the Sphinx, DocBook, Docusaurus, VitePress
and Starlight fixtures, a page written here in the SQLite site's shape); the real runs are in
docs/measurements/chrome-2026-12-05.md and generators-2026-12-06.md."""

from __future__ import annotations

import contextlib
import io
import runpy
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.test_benchmarks import last_document, run_here

ROOT = Path(__file__).resolve().parents[2]
CHROME = ROOT / "benchmarks" / "chrome.py"
FIXTURES = ROOT / "tests" / "fixtures" / "html"
JS_GENERATORS = ("docusaurus", "vitepress", "starlight")
SWEEP = {"haddock": "haddock/split-internals.html", "mandoc": "mandoc/clew-ingest.html", "qdoc": "qdoc/qtimer.html",
         "typedoc": "typedoc/budget.html"}
"""Generators of task R3's sweep in benchmarks/chrome.py, and their fixtures (gtk-doc's is a book's index page,
which the script leaves out)."""
PY_THEMES = {"material": "mkdocs-material", "furo": "sphinx-furo", "pydata": "sphinx-pydata", "rtd": "sphinx-rtd",
             "book": "sphinx-book"}
"""The Python themes' names in benchmarks/chrome.py, and their fixtures' folders."""
SQLITE_PAGE = """<!DOCTYPE html>
<html><head><title>Widget Files</title><script>function toggle_div(nm) {}</script></head>
<body>
<div class=nosearch>
<a href="index.html"><img class="logo" src="images/banner.gif" alt="SQLite"></a>
<div class="tagline desktoponly">Small. Fast. Reliable.<br>Choose any three.</div>
<div class="menu mainmenu"><ul>
<li><a href="index.html">Home</a>
<li class='wideonly'><a href='about.html'>About</a>
<li class='desktoponly'><a href="download.html">Download</a>
</ul></div>
<div class="fancy_title">Widget Files</div>
<div class="fancy_toc"><a href="#_overview">1. Overview</a></div>
</div>
<h1 id="_overview"><span>1. </span> Overview</h1>
<p>A widget file holds one <a href="lang_createtable.html">table</a> per widget.</p>
<center><table><tr><td><pre>
CREATE TABLE widgets(
  name TEXT,
  size INT
);
</pre></table></center>
<table border="1"><tr><th>Column<th>Meaning
<tr><td>name<td>what the widget is called
<tr><td>size<td>how big it is
</table>
<ul><li>Widgets are never shared.<li>A file may hold no widget at all.</ul>
</body></html>
"""


def run(tmp_path: Path) -> Any:
    for name, fixture, page in (("sphinx", FIXTURES / "sphinx-functools.html", "library/functools.html"),
                                ("docbook", FIXTURES / "docbook-note.html", "ch02s03.html"),
                                *((js, FIXTURES / js / "mcp.html", "mcp.html") for js in JS_GENERATORS),
                                *((py, FIXTURES / folder / "budgets.html", "budgets.html")
                                  for py, folder in PY_THEMES.items()),
                                *((name, FIXTURES / fixture, "page.html") for name, fixture in SWEEP.items())):
        (tmp_path / name / page).parent.mkdir(parents=True)
        shutil.copy(fixture, tmp_path / name / page)
    (tmp_path / "sqlite").mkdir()
    (tmp_path / "sqlite" / "widgets.html").write_text(SQLITE_PAGE, encoding="utf-8")
    return chrome_here("--pages", "3", *(f"--{name}={tmp_path / name}" for name in (
        "sphinx", "docbook", "sqlite", *JS_GENERATORS, *PY_THEMES, *SWEEP)))


def chrome_here(*args: str) -> Any:
    """``benchmarks/chrome.py`` in this process (``runpy``, as ``__main__``), as ``run_here`` runs the other
    benchmark scripts, for a fixture of the module's (no test's ``monkeypatch`` or ``capsys``): an interpreter and
    clew's imports saved (about 0.7 s of CPU a run)."""
    out = io.StringIO()
    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stdout(out):
        patch.chdir(ROOT)
        patch.setattr(sys, "argv", [str(CHROME), *args])
        patch.setattr(sys, "path", list(sys.path))  # the script puts the repository on it
        try:
            runpy.run_path(str(CHROME), run_name="__main__")
        except SystemExit as exit_:
            assert exit_.code in (None, 0), exit_
    return last_document(out.getvalue())


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The script's report on one page of each generator, once a module: the tests below read it, each for
    its own generators (it ran once a test, 2.4 s of CPU a run)."""
    return run(tmp_path_factory.mktemp("chrome"))


def test_clew_leaves_no_chrome_and_keeps_the_structure_of_each_generator(report: Any) -> None:
    for name in ("sphinx", "docbook", "sqlite", *JS_GENERATORS, *PY_THEMES):
        clew = report[name]["clew"]
        assert clew["pages"] == 1
        assert clew["chrome_strings_left"]["left"] == 0 < clew["chrome_strings_left"]["of"], name
        assert clew["main_words_kept"]["share"] == clew["headings_kept"]["share"] == 1.0, name
        # Starlight's tabs are links to their panels (a[role=tab][href="#tab-panel-0"]): read as the panels' labels
        tab_links = 2 if name == "starlight" else 0
        assert clew["links_kept"]["kept"] + tab_links == clew["links_kept"]["of"] and clew["permalinks_left"] == 0, name
    for name in JS_GENERATORS:  # the code blocks' lines, Starlight's hidden "Section titled ..." as chrome
        assert report[name]["clew"]["code_kept"] == {"kept": 6, "of": 6, "share": 1.0}, name
    for name in PY_THEMES:  # the page's table, its three code blocks (two tabs, a captioned one)
        assert report[name]["clew"]["tables_kept"] == {"kept": 1, "of": 1, "share": 1.0}, name
        assert report[name]["clew"]["code_kept"]["share"] == 1.0 < report[name]["clew"]["code_kept"]["of"], name
    starlight, docusaurus = report["starlight"]["clew"], report["docusaurus"]["clew"]
    assert starlight["chrome_strings_left"]["of"] > docusaurus["chrome_strings_left"]["of"]
    sphinx, sqlite = report["sphinx"]["clew"], report["sqlite"]["clew"]
    assert sphinx["code_kept"]["share"] == 1.0 and sphinx["code_kept"]["of"] > 0
    assert sqlite["chrome_strings_left"]["of"] == 6  # Choose any three. About Download Home Widget Files SQLite
    assert sqlite["tables_kept"] == {"kept": 1, "of": 1, "share": 1.0}  # the one-cell box around the pre is not one
    assert sqlite["list_items_kept"] == {"kept": 2, "of": 2, "share": 1.0}
    # the pre in its one-cell box counts as code; clew's rules read it as a paragraph for now (the docs say so)
    assert sqlite["code_kept"]["of"] == 1


def test_the_sweeps_generators_leave_no_chrome(report: Any) -> None:
    """mandoc's running header and footer, Haddock's package header, "Source" and "#" links, qdoc's breadcrumbs,
    TypeDoc's breadcrumbs, menus and "Defined in": none left, and no word of the main content lost. A one-row
    table is read as text (mandoc's synopsis, qdoc's one-signal summary), Haddock's "Instances" as a label."""
    for name in SWEEP:
        clew = report[name]["clew"]
        assert clew["pages"] == 1 and clew["permalinks_left"] == 0, name
        assert clew["chrome_strings_left"]["left"] == 0 < clew["chrome_strings_left"]["of"], name
        assert clew["links_kept"]["kept"] == clew["links_kept"]["of"], name
    for name in ("haddock", "mandoc", "typedoc"):
        assert report[name]["clew"]["main_words_kept"]["share"] == 1.0, name
    for name in ("mandoc", "qdoc", "typedoc"):
        assert report[name]["clew"]["headings_kept"]["share"] == 1.0, name
    assert report["haddock"]["clew"]["headings_kept"] == {"kept": 2, "of": 3, "share": 0.6667}
    assert report["mandoc"]["clew"]["tables_kept"] == {"kept": 0, "of": 1, "share": 0.0}


def test_trafilatura_is_measured_against_the_same_reference(report: Any) -> None:
    pytest.importorskip("trafilatura", reason="trafilatura is not installed: it is not a clew dependency, only "
                        "benchmarks/chrome.py compares with it (pip install trafilatura lxml_html_clean)")
    assert report["trafilatura"][0].isdigit()  # its version
    for name in ("sphinx", "docbook", "sqlite"):
        clew = report[name]["clew"]
        for extractor in ("trafilatura", "trafilatura_favor_recall"):
            other = report[name][extractor]
            assert other["pages"] == 1 and other["ms_per_page"] > 0
            for measure in ("main_words_kept", "headings_kept", "tables_kept", "code_kept", "links_kept"):
                assert other[measure]["of"] == clew[measure]["of"], (name, extractor, measure)
                assert 0 <= other[measure]["kept"] <= other[measure]["of"]
            assert other["chrome_strings_left"]["of"] == clew["chrome_strings_left"]["of"]


LATER = {"texi2any": "texi2any/frob.html", "yodl": "yodl/FAQ04.html", "erlang": "erlang/lists.html",
         "docutils": "docutils/i18n.html", "docutils5": "docutils/i18n-html5.html", "ocamldoc": "ocamldoc/Ptmap.html",
         "odoc": "odoc/Url.html", "golang": "golang/go_mem.html", "pydoctor": "pydoctor/formats.fences.html",
         "gitbook": "gitbook/index.html", "asciidoctor": "asciidoctor/budgets.html", "hevea": "hevea/budgets.html",
         "latex2html": "latex2html/budgets.html", "tex4ht": "tex4ht/budgetsse1.html", "groff": "groff/clew-ingest.html",
         "man2html": "man2html/clew-ingest.html", "jsdoc": "jsdoc/module-budget-Budget.html",
         "documentationjs": "documentationjs/index.html", "esdoc": "esdoc/budget-class.html"}
"""Tasks R4-R7's generators in benchmarks/chrome.py (task R7), and their fixtures."""


def test_tasks_r4_to_r6_generators_leave_no_chrome(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """texi2any's navigation and colophon, YODL's chapter links, Erlang's top bar, menu and icon links, docutils'
    running header and footer, ocamldoc's and odoc's bars, pydoctor's menus and sidebar, GitBook's summary and
    search box, the LaTeX converters' navigation and colophons, man2html's links back: none left. The Go pages have
    no chrome, groff's only its index of links (a table of contents)."""
    for name, fixture in LATER.items():
        (tmp_path / name).mkdir()
        shutil.copy(FIXTURES / fixture, tmp_path / name / "page.html")  # index.html would be left out
    report = run_here("chrome.py", "--pages", "3", "--only", ",".join(LATER),
                      *(f"--{name}={tmp_path / name}" for name in LATER), cwd=ROOT, monkeypatch=monkeypatch,
                      capsys=capsys)
    assert [name for name in report if name != "trafilatura"] == list(LATER)
    for name in LATER:
        clew = report[name]["clew"]
        assert clew["pages"] == 1 and clew["permalinks_left"] == 0, name
        assert clew["chrome_strings_left"]["left"] == 0, name
        assert (clew["chrome_strings_left"]["of"] == 0) == (name in ("golang", "groff")), name
    for name in ("yodl", "erlang", "docutils", "docutils5", "ocamldoc", "odoc", "pydoctor", "gitbook", "tex4ht",
                 "jsdoc", "documentationjs", "esdoc"):
        assert report[name]["clew"]["main_words_kept"]["share"] == 1.0, name  # comments are no words (HeVeA, TeX4ht)
    assert report["pydoctor"]["clew"]["links_kept"] == {"kept": 10, "of": 10, "share": 1.0}
    assert report["man2html"]["clew"]["chrome_strings_left"]["of"] == 2  # a SEE ALSO link (man2html?1+...) is content


def test_only_names_known_generators(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", [str(CHROME), "--only", "sphinx,nosuch"])
    monkeypatch.setattr(sys, "path", list(sys.path))
    with pytest.raises(SystemExit) as done:
        runpy.run_path(str(CHROME), run_name="__main__")
    assert done.value.code == 2 and "--only names unknown generators ['nosuch']" in capsys.readouterr().err
