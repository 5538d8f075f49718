"""MkDocs sites as projects keep them (task F2): hidden folders, theme templates, Snippets' includes."""

from __future__ import annotations

from pathlib import Path

from clew.corpus.ingest.source_file import read_source
from clew.corpus.ingest.sources import find_files
from tests.conftest import write_files

MKDOCS_SITE = {  # pymdown-extensions' docs/src/markdown and Starlette's docs/ (task U10), cut down
    "index.md": "# PyMdown Extensions\n\nExtensions for Python Markdown.\n",
    "extensions/tilde.md": "# Tilde\n\nUse `~~Delete me~~` to strike through text.\n",
    ".snippets/abbr.md": "*[FAQ]: Frequent Asked Questions\n*[GFM]: GitHub Flavored Markdown\n",
    ".snippets/links.md": '[_tilde]: https://example.org/pymdownx/tilde.py "Source"\n',
    "extensions/.pages": "nav:\n  - tilde.md\n",
    "overrides/main.html": '{% extends "base.html" %}\n\n{% block announce %}\n  <a class="md-banner__link" '
                           'href="https://example.org">Observability for <strong>Starlette</strong></a>\n'
                           "{% endblock %}\n",
    "overrides/partials/toc-item.html": "<!-- Copied from an issue comment -->\n<li class=\"md-nav__item\"></li>\n"
                                        '<a href="{{ toc_item.url }}" class="md-nav__link">{{ toc_item.title }}</a>\n',
    "overrides/partials/define.html": '{{ define "main" }}\n<main>{{ .Content }}</main>\n{{ end }}\n',
    "about.html": "---\nlayout: default\ntitle: About\n---\n<h1>{{ page.title }}</h1>\n<p>Gears mesh and turn.</p>\n",
    "overrides/page.html": "<!DOCTYPE html>\n<html><head><title>Vue</title></head><body><h1>Templates</h1>"
                           "<p>Write <code>{{ message }}</code> to show a value.</p></body></html>\n",
}


def keys(root: Path, exclude: list[str] | None = None) -> list[str]:
    return [key for _, key in find_files([root], "**/*", exclude).files]


def test_hidden_files_and_folders_are_left_out_in_one_line_that_says_how_to_take_them_back(tmp_path: Path) -> None:
    """MkDocs leaves out what starts with '.': pymdown's .snippets/ (link and abbreviation lists appended to every
    page) was two pages of its own."""
    site = write_files(tmp_path / "docs", MKDOCS_SITE)
    found = find_files([site], "**/*")
    assert [key for _, key in found.files] == ["about.html", "extensions/tilde.md", "index.md", "overrides/page.html"]
    hidden = next(problem for problem in found.problems if "hidden" in problem.message)
    assert (hidden.path, hidden.warning, hidden.skipped) == (str(site), True, False)
    assert hidden.message == (
        "3 hidden files (a name that starts with '.', as MkDocs leaves out: .snippets/abbr.md, .snippets/links.md, "
        "extensions/.pages) not ingested; take them in with --exclude '!.snippets' or a '!.snippets' line in "
        ".clewignore")
    assert keys(site, ["!.snippets"])[:2] == [".snippets/abbr.md", ".snippets/links.md"]
    assert find_files([site / ".snippets" / "abbr.md"], "**/*").files == [(site / ".snippets" / "abbr.md", "abbr.md")]


def test_a_theme_s_templates_are_left_out_by_their_first_bytes(tmp_path: Path) -> None:
    """Starlette's overrides/*.html (Jinja) were three untitled pages; a page that shows a template's syntax in its
    text is a page, and so is a Jekyll page written in HTML (its front matter)."""
    site = write_files(tmp_path / "docs", MKDOCS_SITE)
    found = find_files([site], "**/*")
    assert "overrides/page.html" in keys(site) and "about.html" in keys(site)
    generated = next(problem for problem in found.problems if "generated" in problem.message)
    assert generated.message.startswith(
        "3 generated files (a documentation tool's indexes, search page, sources or assets: 3 theme template) not "
        "ingested; take them in with --exclude '!NAME'")
    assert found.excluded == 6
    assert keys(site, ["!overrides"]) == ["about.html", "extensions/tilde.md", "index.md", "overrides/main.html",
                                          "overrides/page.html", "overrides/partials/define.html",
                                          "overrides/partials/toc-item.html"]


SNIPPETS_PROJECT = {  # pymdown-extensions' sdist (task U10), cut down: docs/src/markdown is the ingested folder
    "LICENSE.md": "The MIT License (MIT)\n\nCopyright (c) 2014 - 2026 Isaac Muse\n",
    "docs/src/markdown/about/license.md": '---\nicon: lucide/copyright\n---\n--8<-- "LICENSE.md"\n',
    "docs/src/markdown/about/changelog.md": "# Changelog\n\n--8<--\n.snippets/links.md\n; .snippets/gone.md\n"
                                            ".snippets/abbr.md\n--8<--\n\n- item\n\n    --8<-- \"notes.md:2:3\"\n",
    "docs/src/markdown/about/notes.md": "# Notes\nfirst note\nsecond note\nthird note\n",
    "docs/src/markdown/.snippets/links.md": '[_tilde]: https://example.org/tilde.py "Source"\n',
    "docs/src/markdown/.snippets/abbr.md": "*[FAQ]: Frequent Asked Questions\n",
    "docs/src/markdown/extensions/snippets.md": (
        "# Snippets\n\n```\n;--8<-- \"filename.ext\"\n;;--8<-- \"escaped.md\"\n```\n\n"
        "```py\n--8<-- \"example.py:func\"\n```\n\n```\n# ;--8<-- [start:func]\n```\n\n"
        "--8<-- \"snippets.md\"\n--8<-- \"https://example.org/x.md\"\n--8<-- \"missing.md\"\n"),
    "docs/src/markdown/extensions/example.py": "import os\n\n# --8<-- [start:func]\ndef func():\n    pass\n"
                                               "# --8<-- [end:func]\n",
}


def test_a_snippet_reads_as_the_file_where_its_line_stands(tmp_path: Path) -> None:
    """pymdownx.snippets' ``--8<-- "file"`` (and its block of paths) is an include: from the docs folder (MkDocs'
    base_path) or the page's folder, with its lines (``:2:3``) or section (``:func``), at the line's indentation;
    ``;`` escapes a line."""
    root = write_files(tmp_path / "pymdown", SNIPPETS_PROJECT) / "docs" / "src" / "markdown"
    changelog, problem = read_source(root / "about" / "changelog.md", "about/changelog.md")
    assert changelog is not None and problem is None
    assert changelog.content == ('# Changelog\n\n[_tilde]: https://example.org/tilde.py "Source"\n\n'
                                 "*[FAQ]: Frequent Asked Questions\n\n\n- item\n\n    first note\n    second note\n")
    page, problem = read_source(root / "extensions" / "snippets.md", "extensions/snippets.md")
    assert page is not None and problem is not None and problem.warning
    assert page.content == ('# Snippets\n\n```\n--8<-- "filename.ext"\n;--8<-- "escaped.md"\n```\n\n'
                            "```py\ndef func():\n    pass\n```\n\n```\n# --8<-- [start:func]\n```\n\n")
    assert problem.message == ("3 --8<-- snippet lines not read, left out: snippets.md (includes itself), "
                               "https://example.org/x.md (an attribute or a URL in its name), missing.md (not found)")


def test_a_snippet_outside_the_ingested_folder_is_named_in_the_page_s_warning(tmp_path: Path) -> None:
    """U10: ``--8<-- "LICENSE.md"`` (the project's, outside docs/src/markdown) was license.md's whole text."""
    root = write_files(tmp_path / "pymdown", SNIPPETS_PROJECT) / "docs" / "src" / "markdown"
    page, problem = read_source(root / "about" / "license.md", "about/license.md")
    assert page is not None and page.content == "---\nicon: lucide/copyright\n---\n"
    assert problem is not None and problem.message == (
        "1 --8<-- snippet line not read, left out: LICENSE.md (outside the ingested folder)")


SNIPPET_PAGES = {  # a MkDocs Material site whose snippets sit in a folder of the docs, not a hidden one
    "index.md": '# Gears\n\nInstall it first:\n\n--8<-- "snippets/install.md"\n\n--8<-- "changelog.md"\n',
    "usage.md": "---\ntitle: Usage\n---\nTurn the gear.\n\n--8<--\nsnippets/warning.md\n--8<--\n",
    "notes.md": 'Notes with no title.\n\n--8<-- "snippets/notes-only.md"\n',
    "snippets/install.md": "```\npip install gears\n```\n",
    "snippets/warning.md": "!!! warning\n    Do not oil the gear.\n",
    "snippets/notes-only.md": "A note only notes.md includes.\n",
    "snippets/lines.md": "Line one.\nLine two.\n",
    "changelog.md": "# Changelog\n\n## 1.0\n\nFirst release.\n",
    "faq.md": 'FAQ\n===\n\n--8<-- "snippets/lines.md:2"\n',
}


def test_a_snippet_a_titled_page_includes_whole_is_a_partial_not_a_page(tmp_path: Path) -> None:
    """As AsciiDoc's and rST's partials: the snippet's text is found in the page that includes it, not twice; a
    titled page (a changelog) stays a page, and so does a file only an untitled page includes or one included in
    part."""
    site = write_files(tmp_path / "docs", SNIPPET_PAGES)
    found = find_files([site], "**/*")
    assert [key for _, key in found.files] == ["changelog.md", "faq.md", "index.md", "notes.md",
                                               "snippets/lines.md", "snippets/notes-only.md", "usage.md"]
    (line,) = found.problems
    assert line.message == (
        "2 Markdown partials (files pages include whole, their text read where the page includes it: "
        "snippets/install.md in index.md, snippets/warning.md in usage.md) not ingested as documents of their own; "
        "take one in with --exclude '!install.md' or a '!install.md' line in .clewignore")
    page, _ = read_source(site / "usage.md", "usage.md")
    assert page is not None and page.content.endswith("Turn the gear.\n\n!!! warning\n    Do not oil the gear.\n\n")
    assert "snippets/install.md" in keys(site, ["!install.md"])
