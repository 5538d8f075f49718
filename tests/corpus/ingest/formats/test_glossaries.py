"""Sphinx glossaries in MyST and reStructuredText read as terms with their descriptions (task R20)."""

from __future__ import annotations

from clew.corpus.ingest.formats.lightmarkup import parse_rst
from clew.corpus.ingest.parsed import ParsedDocument
from clew.corpus.ingest.prepare import parse

# attrs 24.2's docs/glossary.md, cut
MYST = """\
# Glossary

:::{glossary}
:sorted:
dunder methods
  "Dunder" is a contraction of "double underscore".

  Its first documented use is a [mailing list posting](https://mail.python.org/pipermail/python-list/\
2002-September/155836.html) by Mark Jackson from 2002.


slotted classes
slots
  A class whose instances have no {attr}`object.__dict__` attribute and define their attributes in a \
`object.__slots__` attribute instead.

  ```python
  @attrs.define
  class C: ...
  ```
:::

After the glossary.
"""

# Sphinx 8.1.3's doc/glossary.rst, cut
RST = """\
.. _glossary:

Glossary
========

.. glossary::
   :sorted:

   builder
      A class (inheriting from :class:`~sphinx.builders.Builder`) that takes
      parsed documents and performs an action on them.

      See :doc:`/usage/builders/index` for an overview over Sphinx's built-in
      builders.

   configuration directory : C
      The directory containing :file:`conf.py`.

After the glossary. Example::

   .. glossary::

      environment
         A structure where information about all documents under the root is saved.
"""


def _units(doc: ParsedDocument) -> list[tuple[str, str, str]]:
    return [(b.kind, doc.sections[b.section].heading, doc.text[b.start:b.end]) for b in doc.blocks]


def test_a_myst_glossary_is_its_terms_each_a_section_holding_its_description() -> None:
    doc = parse("markdown", MYST)
    assert [(s.heading, s.level) for s in doc.sections[1:]] == [
        ("Glossary", 1), ("dunder methods", 2), ("slotted classes, slots", 2)]
    units = _units(doc)
    assert units[2] == ("paragraph", "dunder methods", '"Dunder" is a contraction of "double underscore".')
    assert units[3][1] == "dunder methods" and units[3][2].startswith("Its first documented use is a [mailing list")
    assert units[5] == ("paragraph", "slotted classes, slots", "A class whose instances have no `object.__dict__` "
                        "attribute and define their attributes in a `object.__slots__` attribute instead.")
    assert units[6][0] == "code" and units[6][2].startswith("```python\n@attrs.define")
    assert [link.href for link in doc.links] == [
        "https://mail.python.org/pipermail/python-list/2002-September/155836.html"]
    assert ":::" not in doc.text and ":sorted:" not in doc.text and "{glossary}" not in doc.text


def test_a_rst_glossary_is_its_terms_each_a_section_holding_its_description() -> None:
    doc = parse_rst(RST)
    assert [(s.heading, s.level) for s in doc.sections[1:]] == [
        ("Glossary", 1), ("builder", 2), ("configuration directory", 2)]
    units = _units(doc)
    assert units[1:5] == [
        ("heading", "builder", "builder"),
        ("paragraph", "builder", "A class (inheriting from ``Builder``) that takes\n"
                                 "      parsed documents and performs an action on them."),
        ("paragraph", "builder", "See :doc:`/usage/builders/index` for an overview over Sphinx's built-in\n"
                                 "      builders."),
        ("heading", "configuration directory", "configuration directory : C")]  # its section: without the key
    assert units[-2:] == [("paragraph", "Glossary", "After the glossary. Example::"),
                          ("code", "Glossary", "   .. glossary::\n\n      environment\n         A structure where "
                                               "information about all documents under the root is saved.")]
    assert ":sorted:" not in " ".join(text for _, _, text in units)


# attrs 24.2's docs/glossary.md, cut: a note nested in an entry (its ':::' indented) ends neither the entry nor the
# glossary; a footnote after the glossary is the page's, not its last term's
MYST_NESTED = """\
# Glossary

:::{glossary}
slotted classes
  A class whose instances have no {attr}`object.__dict__` attribute.

  - Slotted classes must implement `__getstate__`.

    :::{note}
    When decorating with `@attr.s(slots=True)` the methods are overwritten.
    :::

attribute
  See {term}`field`.
:::

[^pypy]: On PyPy, there is no memory advantage in using slotted classes.
"""


def test_a_myst_glossary_ends_at_its_closing_fence_not_at_a_nested_one() -> None:
    doc = parse("markdown", MYST_NESTED)
    doc.check()
    assert [(s.heading, s.level) for s in doc.sections[1:]] == [("Glossary", 1), ("slotted classes", 2),
                                                                ("attribute", 2)]
    units = _units(doc)
    assert units[-2] == ("paragraph", "attribute", "See field.")
    assert units[-1] == ("paragraph", "Glossary", "[^pypy]: On PyPy, there is no memory advantage in using slotted "
                                                  "classes.")
    assert doc.sections[-1].end is not None and doc.sections[-1].end <= doc.text.index("[^pypy]")
    assert "<!--" not in doc.text and ":::" not in doc.text
