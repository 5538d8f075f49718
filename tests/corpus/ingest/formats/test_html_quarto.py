"""Quarto's HTML (task U33; tests/fixtures/html/README.md says where the pages come from): its tab sets, folded code
cells and code tools' menu."""

from __future__ import annotations

from clew.corpus.ingest.formats.html import parse_html
from tests.corpus.ingest.formats.documents import block_texts, load_html


def test_a_tab_set_reads_each_label_before_its_panel() -> None:
    document = load_html("quarto/environment-vars-tabset.html")
    texts = block_texts(document)
    at = texts.index("Quarto sets these environment variables while rendering:")
    assert texts[at + 1 :] == [
        "R",
        '```r\nSys.getenv("QUARTO_DOCUMENT_PATH")\n```',
        "Python",
        '```python\nimport os\nprint(os.environ["QUARTO_DOCUMENT_PATH"])\n```',
        "Julia",
        '```julia\nENV["QUARTO_DOCUMENT_PATH"]\n```',
    ]
    assert "list_item" not in {block.kind for block in document.blocks}


def test_folded_code_and_the_code_tools_menu_are_left_out() -> None:
    document = load_html("quarto/bios6312-estimation.html")
    assert document.title == "Frequentist Estimation and Bayesian Inference"
    texts = block_texts(document)
    assert texts[:4] == [
        "# Frequentist Estimation and Bayesian Inference",
        "Chris Slaughter",
        "February 16, 2026",
        texts[3],
    ]
    assert texts[3].startswith("```r\nlibrary(rms)\nlibrary(ggplot2)\n")
    assert not {"Code", "- Show All Code", "- Hide All Code", "- View Source", "Report an issue"} & set(texts)
    assert texts[4] == "# 1 Introduction"
    assert not any("Copyright" in text or "built with" in text for text in texts)


def test_another_pages_dropdown_menu_and_details_are_read() -> None:
    document = parse_html(
        '<main><h1>Menus</h1><ul class="dropdown-menu"><li><a class="dropdown-item" href="#">Action</a></li></ul>'
        "<details><summary>More</summary><p>Hidden text.</p></details></main>"
    )
    assert block_texts(document)[1:] == ["- Action", "More", "Hidden text."]


def test_the_title_block_s_labels_stand_with_their_values() -> None:
    document = load_html("quarto/signalflow-index.html")
    assert document.title == "SignalFlow EEG"
    assert block_texts(document)[:4] == [
        "# SignalFlow EEG",
        "Author: E. Pedapati",
        "Published: June 30, 2023",
        "# Welcome",
    ]
    assert not any("Quarto" in text or "pedapati@" in text for text in block_texts(document))


def test_the_author_grid_reads_each_author_with_their_affiliation() -> None:
    """Authors with affiliations stand in a grid of their own (``div.quarto-title-meta-author``, beside
    ``div.quarto-title-meta``): two labels, then each author's cell and their affiliation's, as Quarto 1.3 and later
    write it. They were loose paragraphs "Authors", "Affiliations", "Norah Jones", "Carnegie Mellon University", ..."""
    author = (
        '<p class="author"><a href="https://example.com/{0}">{1}</a> <a href="mailto:{0}@example.com"'
        ' class="quarto-title-author-email"><i class="bi bi-envelope"></i></a></p>'
    )
    grid = (
        '<div class="quarto-title-meta-author">'
        '<div class="quarto-title-meta-heading">Authors</div><div class="quarto-title-meta-heading">Affiliations</div>'
        f'<div class="quarto-title-meta-contents">{author.format("norah", "Norah Jones")}</div>'
        '<div class="quarto-title-meta-contents"><p class="affiliation">Carnegie Mellon University</p>'
        '<p class="affiliation">University of Chicago</p></div>'
        f'<div class="quarto-title-meta-contents">{author.format("bill", "Bill Gates")}</div>'
        '<div class="quarto-title-meta-contents"><p class="affiliation"><a href="https://example.com">\n  Microsoft\n'
        "</a></p></div>"
        f'<div class="quarto-title-meta-contents">{author.format("ada", "Ada Lovelace")}</div>'
        '<div class="quarto-title-meta-contents"></div></div>'
    )
    html = (
        '<html><body><main class="content" id="quarto-document-content">'
        '<header id="title-block-header" class="quarto-title-block default">'
        '<div class="quarto-title"><h1 class="title">A Rich Document</h1></div>'
        f'{grid}<div class="quarto-title-meta"><div><div class="quarto-title-meta-heading">Published</div>'
        '<div class="quarto-title-meta-contents"><p class="date">March 1, 2024</p></div></div></div></header>'
        "<p>Body.</p></main></body></html>"
    )
    assert block_texts(parse_html(html)) == [
        "# A Rich Document",
        "Authors: Norah Jones (Carnegie Mellon University, University of Chicago), Bill Gates (Microsoft),"
        " Ada Lovelace",
        "Published: March 1, 2024",
        "Body.",
    ]
