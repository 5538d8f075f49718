"""Chrome of Jupyter notebooks rendered as documentation pages, for ``html_rules._dropped_class`` (task U30).

A notebook's page shows beside each code cell the prompt a notebook shows, ``In [2]:`` and ``Out[2]:``: screen
furniture, not what the page says. Read as text they made a code block ``[2]:`` before every cell of an nbsphinx
page and a paragraph "In [2]:" before every cell of an nbconvert one, which a search for a cell's number
found and an extract could quote as the example.

- nbsphinx (Sphinx): ``div.prompt`` (``prompt highlight-none notranslate``, an empty one ``prompt empty docutils
  container``) beside ``div.input_area`` and ``div.output_area`` in ``div.nbinput`` / ``div.nboutput``;
- nbconvert's templates, which mkdocs-jupyter (MkDocs) and ``jupyter nbconvert --to html`` write: JupyterLab's
  ``div.jp-InputPrompt`` / ``div.jp-OutputPrompt``, the classic template's ``div.input_prompt`` /
  ``div.output_prompt``;
- mkdocs-jupyter's copy button over each cell (``div.zeroclipboard-container``, whose hidden notice read "Copied!"
  before every cell) and the cell's code a second time for it to copy (``div.clipboard-copy-txt``, hidden by the
  page's style: the code again as one line of prose after its code block).

MyST-NB (Jupyter Book, sphinx-book-theme) writes no prompts; its output blocks' ``highlight-myst-ansi`` names no
language (``fences``). A cell tagged ``hide-input``, ``hide-output`` or ``hide-cell`` is folded in a
``details.hide`` whose ``summary`` holds the toggle's two labels, ``p.collapsed.admonition-title`` "Show code cell
source" and ``p.expanded.admonition-title`` "Hide code cell source": a paragraph "Show code cell source Hide code
cell source" over the cell, and the cell inside read as an admonition's text (a paragraph, not code). The labels are
chrome, and the ``details`` (``above-input`` or ``below-input`` beside ``hide``) no admonition: the cell reads as
cells do.
"""

from __future__ import annotations

NOTEBOOK_CLASSES = frozenset(
    "jp-inputprompt jp-outputprompt input_prompt output_prompt zeroclipboard-container clipboard-copy-txt".split())
"""Classes (lower-cased, as ``html_rules._attr`` reads them) of a notebook page's prompts and copy buttons."""
_SPHINX_BOX = frozenset({"notranslate", "docutils"})
_TOGGLE_STATES = frozenset({"collapsed", "expanded"})


def notebook_chrome(classes: list[str], tag: str) -> bool:
    """Whether an element of these classes and ``tag`` is a notebook page's prompt, copy button or toggle label
    (above): one of ``NOTEBOOK_CLASSES``, an admonition title of a toggle's state (MyST-NB's), or nbsphinx's prompt,
    a ``div.prompt`` that docutils wrote (``notranslate`` or ``docutils`` beside it)."""
    if not NOTEBOOK_CLASSES.isdisjoint(classes):
        return True
    if "admonition-title" in classes and not _TOGGLE_STATES.isdisjoint(classes):
        return True
    return tag == "div" and "prompt" in classes and not _SPHINX_BOX.isdisjoint(classes)


_FOLDS = frozenset({"above-input", "below-input"})


def folded_cell(classes: list[str]) -> bool:
    """Whether a ``details`` of these classes is MyST-NB's fold around a hidden cell (above): no admonition."""
    return "hide" in classes and not _FOLDS.isdisjoint(classes)
