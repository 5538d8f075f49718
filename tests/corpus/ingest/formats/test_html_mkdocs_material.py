"""MkDocs Material pages read with faults (task E9, ``evals/mkdocs-docs``): excerpts of PyMdown Extensions 13.1.2's
documentation as MkDocs 1.6.1 with mkdocs-material 9.8.2 builds it."""

from __future__ import annotations

from clew.corpus.ingest.formats.html import parse_html


def _page(title: str, topic: str, article: str) -> str:
    return (
        '<!doctype html>\n<html lang="en" class="no-js">\n  <head>\n    <meta charset="utf-8">\n'
        '      <meta name="generator" content="mkdocs-1.6.1, mkdocs-material-9.8.2">\n'
        f"      <title>{title} - PyMdown Extensions Documentation</title>\n  </head>\n"
        '  <body dir="ltr">\n    <input class="md-toggle" data-md-toggle="drawer" type="checkbox" id="__drawer"'
        ' autocomplete="off">\n    <input class="md-toggle" data-md-toggle="search" type="checkbox" id="__search"'
        ' autocomplete="off">\n'
        '<header class="md-header" data-md-component="header">\n  <nav class="md-header__inner md-grid"'
        ' aria-label="Header">\n    <label class="md-header__button md-icon" for="__drawer"></label>\n'
        '    <div class="md-header__title" data-md-component="header-title">\n      <div class="md-header__ellipsis">'
        '\n        <div class="md-header__topic">\n          <span class="md-ellipsis">\n'
        "            PyMdown Extensions Documentation\n          </span>\n        </div>\n"
        '        <div class="md-header__topic" data-md-component="header-topic">\n          <span class="md-ellipsis">'
        f"\n              {topic}\n          </span>\n        </div>\n      </div>\n    </div>\n  </nav>\n</header>\n"
        '    <div class="md-container" data-md-component="container">\n      <main class="md-main"'
        ' data-md-component="main">\n        <div class="md-main__inner md-grid">\n'
        '            <div class="md-content" data-md-component="content">\n'
        f'              <article class="md-content__inner md-typeset">\n{article}\n              </article>\n'
        "            </div>\n        </div>\n      </main>\n    </div>\n  </body>\n</html>\n"
    )


BLOCKS = _page(
    "Index", "Index",
    '<p><a class="source-link" href="https://github.com/facelessuser/pymdown-extensions/blob/master/pymdownx/blocks"'
    ' title="Source"><span class="twemoji"><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path'
    ' d="M3 3a2 2 0 0 1 2-2h9.982"/></svg></span></a></p>\n'
    '<h1 id="blocks">Blocks<a class="headerlink" href="#blocks" title="Permanent link"></a></h1>\n'
    '<h2 id="overview">Overview<a class="headerlink" href="#overview" title="Permanent link"></a></h2>\n'
    "<p>Blocks is an extension aimed at providing generic blocks inspired by reStructuredText directives.</p>",
)

TASKLIST = _page(
    "Tasklist", "Tasklist",
    '<h1 id="tasklist">Tasklist<a class="headerlink" href="#tasklist" title="Permanent link"></a></h1>\n'
    '<div class="result">\n<ul class="task-list">\n'
    '<li class="task-list-item"><label class="task-list-control"><input type="checkbox" disabled checked/><span'
    ' class="task-list-indicator"></span></label> item 1<ul class="task-list">\n'
    '<li class="task-list-item"><label class="task-list-control"><input type="checkbox" disabled/><span'
    ' class="task-list-indicator"></span></label> item B\n    more text</li>\n</ul>\n</li>\n'
    '<li class="task-list-item"><label class="task-list-control"><input type="checkbox" disabled/><span'
    ' class="task-list-indicator"></span></label> item 2</li>\n</ul>\n</div>\n'
    "<p>If custom_checkbox is enabled, the structure will be as follows:</p>\n"
    '<ul class="task-list">\n<li class="task-list-item"><input type="checkbox" disabled="" checked=""> done</li>\n'
    '<li><input type="radio" name="choice"> a radio button is no task</li>\n</ul>',
)


def test_an_index_page_mkdocs_titles_by_its_file_name_takes_its_h1() -> None:
    # MkDocs titles a folder's index.md that the navigation leaves unnamed and that opens with a source link, not
    # its h1, "Index": the page is "Blocks"
    parsed = parse_html(BLOCKS)
    assert parsed.title == "Blocks"
    assert parsed.text.startswith("# Blocks\n\n## Overview\n\nBlocks is an extension")


def test_an_index_page_titled_index_by_its_own_h1_stays_index() -> None:
    page = BLOCKS.replace('<h1 id="blocks">Blocks', '<h1 id="index">Index')
    assert parse_html(page).title == "Index"


def test_a_task_lists_check_boxes_read_as_the_markdown_source_writes_them() -> None:
    text = parse_html(TASKLIST).text
    assert "- [x] item 1\n  - [ ] item B more text\n- [ ] item 2" in text
    assert "- [x] done\n- a radio button is no task" in text
    assert "[ ]" not in text.split("# Tasklist")[0]  # the drawer's and search's toggles before the content


DETAILS = _page(
    "Details", "Details",
    '<h1 id="details">Details<a class="headerlink" href="#details" title="Permanent link"></a></h1>\n'
    '<div class="result">\n<details class="note" open="open">\n<summary>Open styled details</summary>\n'
    '<details class="danger">\n<summary>Nested details!</summary>\n<p>And more content again.</p>\n</details>\n'
    "</details>\n</div>\n"
    "<p>It is also possible to provide only a class.</p>",
)


def test_a_collapsible_block_that_opens_with_another_keeps_its_summary() -> None:
    # ???+ note "Open styled details" holding ??? danger "Nested details!": the outer summary was lost
    text = parse_html(DETAILS).text
    assert "Open styled details\n\nNested details! And more content again." in text



def test_a_check_box_with_no_words_in_its_item_stays_in_its_item() -> None:
    # an empty task ("- [ ]", "- [x]"): its box was written before the next words anywhere, the next item's or a
    # heading's ("## [x] Next"; review V15)
    page = _page(
        "Todo", "Todo",
        '<h1 id="todo">Todo</h1>\n<ul class="task-list">\n'
        '<li class="task-list-item"><label class="task-list-control"><input type="checkbox" disabled/><span'
        ' class="task-list-indicator"></span></label></li>\n<li class="task-list-item">second item</li>\n</ul>\n'
        '<ul class="task-list">\n<li class="task-list-item"><input type="checkbox" disabled checked>\n'
        '<ul><li>nested item</li></ul></li>\n<li><input type="checkbox" disabled></ul>\n'
        '<h2 id="next">Next</h2>\n<p>A paragraph.</p>',
    )
    text = parse_html(page).text
    assert "- [ ]\n- second item" in text
    assert "- [x]\n  - nested item\n- [ ]" in text
    assert "## Next\n\nA paragraph." in text
