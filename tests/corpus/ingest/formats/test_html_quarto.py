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
