"""Jupyter notebooks published as documentation pages (task U30): one notebook, nbsphinx's own ``code-cells.ipynb``
with its stored outputs, as nbsphinx (Sphinx), MyST-NB (sphinx-book-theme) and mkdocs-jupyter (MkDocs Material)
render it. tests/fixtures/html/README.md says how each fixture was made."""

from __future__ import annotations

import pytest

from clew.corpus.ingest.formats.fences import html_language
from clew.corpus.ingest.formats.html import parse_html
from clew.corpus.ingest.formats.html_notebook import notebook_chrome
from tests.corpus.ingest.formats.documents import block_texts, load_html, outline

GENERATORS = ("nbsphinx", "myst-nb", "mkdocs-jupyter")
CELLS = [  # the code of the notebook's cells and their outputs, in order (the empty cells have none)
    "# 2 empty lines before, 1 after", "6 * 7", "42", "print('Hello, world!')", "Hello, world!",
    "print('Hello, world!')\n6 * 7", "Hello, world!", "42"]


def _code(block: str) -> tuple[str, str]:
    """A code block's language and code, its fences taken off."""
    opening, _, rest = block.partition("\n")
    return opening.strip("`"), rest.rsplit("\n", 1)[0]


@pytest.mark.parametrize("generator", GENERATORS)
def test_a_notebook_page_reads_as_its_cells_without_prompts_or_copy_buttons(generator: str) -> None:
    """nbsphinx wrote each cell's prompt as a code block of its own (```` ``` ```` ``[2]:``), mkdocs-jupyter each as a
    paragraph ("In [2]:", "Out[2]:") beside a copy button's hidden "Copied!" and the cell's code again on one line
    for it to copy: every cell read as up to four blocks, two of them noise. Now each cell is its code, then its
    outputs, one code block each, on every generator's page."""
    document = load_html(f"notebooks/{generator}-code-cells.html")
    assert document.title == "Code Cells"
    headings = [heading for heading, _, _ in outline(document)]
    assert headings[1:] == ["Code Cells", "Code, Output, Streams", "Cell Magics"]
    code = [_code(block) for block in block_texts(document, "code")]
    assert [text for _, text in code][: len(CELLS)] == CELLS
    for noise in ("[ ]:", "[1]:", "In [", "Out[", "Copied!", "print('Hello, world!') 6 * 7"):
        assert noise not in document.text, noise
    assert all(not text.startswith("[") for text in block_texts(document))


def test_a_notebook_page_names_its_cells_language_not_the_renderers() -> None:
    """mkdocs-jupyter names each code cell ``highlight-ipynb hl-python`` (the cell's language in ``hl-``), MyST-NB
    each output ``highlight-myst-ansi``: the code read as ```` ```ipynb ````, the outputs as
    ```` ```myst-ansi ````.
    nbsphinx's ``highlight-ipython3`` is the kernel's lexer and stays."""
    pages = {generator: load_html(f"notebooks/{generator}-code-cells.html") for generator in GENERATORS}
    languages = {generator: [_code(block)[0] for block in block_texts(page, "code")][:3]
                 for generator, page in pages.items()}
    assert languages == {"nbsphinx": ["ipython3", "ipython3", ""], "myst-nb": ["ipython3", "ipython3", ""],
                         "mkdocs-jupyter": ["python", "python", ""]}
    assert html_language([("class", "highlight-ipynb hl-python")]) == "python"
    assert html_language([("class", "highlight-myst-ansi notranslate")]) == ""


def test_only_a_prompt_that_docutils_wrote_is_nbsphinx_chrome() -> None:
    """nbsphinx's ``div.prompt`` comes with docutils' classes; a page's own ``prompt`` class elsewhere is text."""
    assert notebook_chrome(["prompt", "highlight-none", "notranslate"], "div")
    assert notebook_chrome(["prompt", "empty", "docutils", "container"], "div")
    assert notebook_chrome(["jp-inputprompt", "jp-inputarea-prompt"], "div")
    assert not notebook_chrome(["prompt"], "div")
    assert not notebook_chrome(["prompt", "notranslate"], "span")


RESTARTING = """<!DOCTYPE html><html><head><title>Running Code - Notebook tutorials</title></head><body><main>
<div class="jp-RenderedHTMLCommon jp-RenderedMarkdown jp-MarkdownOutput" data-mime-type="text/markdown">
<h2 id="restarting-the-kernels">Restarting the kernels</h2>
</div>
<div class="jp-RenderedHTMLCommon jp-RenderedMarkdown jp-MarkdownOutput" data-mime-type="text/markdown">
<p>The kernel maintains the state of a notebook's computations. You can reset this state by restarting the kernel. This
is done by clicking on the <button class="btn btn-default btn-xs"><i class="fa fa-repeat icon-repeat"></i></button> in
the toolbar above.</p>
</div>
<p><button class="md-clipboard" title="Copy to clipboard">Copy</button></p>
</main></body></html>"""


def test_an_icon_button_inside_a_sentence_is_dropped_without_splitting_it() -> None:
    """The Jupyter Notebook's tutorial "Running Code" (its notebook as mkdocs-jupyter renders it) names the toolbar's
    restart button by its icon inside the sentence: the ``button`` was dropped with a paragraph's end, the sentence
    read as two paragraphs ("... clicking on the" / "in the toolbar above."). A button's own text is still dropped."""
    document = parse_html(RESTARTING)
    document.check()
    assert block_texts(document, "paragraph") == [
        "The kernel maintains the state of a notebook's computations. You can reset this state by restarting the "
        "kernel. This is done by clicking on the in the toolbar above."]
    assert "Copy" not in document.text


def test_a_folded_cell_of_myst_nb_is_read_without_its_toggle_labels() -> None:
    """MyST-NB folds a cell tagged ``hide-input``, ``hide-output`` or ``hide-cell`` in a ``details.hide`` whose summary
    holds the toggle's two labels ("Show code cell source" / "Hide code cell source"): read as a paragraph over
    every folded cell. The labels are chrome; the folded code and output are read, a ``remove-input`` cell's not at
    all (MyST-NB leaves it out). The Jupyter Notebook's "Running Code" with its first cells tagged so."""
    document = load_html("notebooks/myst-nb-hidden-cells.html")
    assert [_code(block)[1] for block in block_texts(document, "code")] == [
        "a = 10", "print(a)", "10", "import time\ntime.sleep(10)"]
    for label in ("Show code cell", "Hide code cell"):
        assert label not in document.text, label
    assert not notebook_chrome(["admonition-title"], "p")
    assert notebook_chrome(["collapsed", "admonition-title"], "p")
