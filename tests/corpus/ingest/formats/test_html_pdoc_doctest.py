"""pdoc's doctest examples: a docstring's ``>>>`` lines are three nested blockquotes to pdoc's Markdown (markdown2),
the lines one paragraph; read as a Python code block, as Sphinx's doctest blocks are (task R18, X20's leftover of
U27's R5). The page is cut down from pdoc 16's ``rich/prompt.html`` (rich 15)."""

from __future__ import annotations

from clew.corpus.ingest.formats.html import parse_html
from tests.corpus.ingest.formats.test_html_pdoc_mkdocs import _PDOC_HEAD

_CONFIRM = (
    '<main class="pdoc">\n<section class="module-info">\n<h1 class="modulename">\n'
    '<a href="./../rich.html">rich</a><wbr>.prompt    </h1>\n</section>\n'
    '<section id="Confirm">\n<input id="Confirm-view-source" class="view-source-toggle-state" type="checkbox">\n'
    '<div class="attr class">\n    <span class="def">class</span>\n    <span class="name">Confirm</span>'
    '(<span class="base"><a href="#PromptBase">rich.prompt.PromptBase</a>[bool]</span>):\n</div>\n'
    '<label class="view-source-button" for="Confirm-view-source"><span>View Source</span></label>\n'
    '<div class="pdoc-code codehilite"><pre><span id="Confirm-336">class Confirm(PromptBase[bool]):</span></pre>'
    "</div>\n"
    '            <div class="docstring"><p>A yes / no confirmation prompt.</p>\n\n<p>Example:</p>\n\n'
    "<blockquote>\n  <blockquote>\n    <blockquote>\n"
    '      <p>if <a href="#Confirm.ask">Confirm.ask</a>("Continue"):\n                  run_job()</p>\n'
    "    </blockquote>\n  </blockquote>\n</blockquote>\n</div>\n"
    '<div id="Confirm.ask" class="classattr">\n<div class="attr function">\n'
    '<span class="def">def</span> <span class="name">ask</span><span class="signature">(cls, prompt)</span>\n'
    '</div>\n<div class="docstring"><p>Shortcut to construct and run a prompt loop.</p>\n\n'
    "<blockquote>\n  <p>A quoted note, no example.</p>\n</blockquote>\n\n"
    "<blockquote>\n  <blockquote>\n    <blockquote>\n      <p>a = 1</p>\n    </blockquote>\n"
    "    <p>b = 2</p>\n  </blockquote>\n</blockquote>\n</div>\n</div>\n</section>\n</main>\n</body>\n</html>\n"
)


def test_a_pdoc_doctest_example_is_a_python_code_block_and_a_quote_stays_a_quote() -> None:
    document = parse_html(_PDOC_HEAD.replace("rich.align", "rich.prompt") + _CONFIRM)
    document.check()
    code = [(block.kind, document.text[block.start:block.end]) for block in document.blocks if block.kind == "code"]
    assert code == [("code", '```python\nif Confirm.ask("Continue"):\n            run_job()\n```')]
    assert "Example:\n\n```python\nif Confirm.ask" in document.text
    assert "A quoted note, no example." in document.text and "a = 1" in document.text and "b = 2" in document.text
    assert "```python\na = 1" not in document.text
