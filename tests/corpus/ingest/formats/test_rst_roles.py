"""reStructuredText roles read as Sphinx shows them (task U34)."""

from __future__ import annotations

from clew.corpus.ingest.formats.lightmarkup import parse_rst

# Sphinx 8.1.3's doc/usage/extensions/coverage.rst and Jinja 3.1.4's docs/api.rst (cut), with a literal block
PAGE = """\
Coverage
========

.. _coverage-howto:

This extension features one additional builder, the :class:`CoverageBuilder`.

.. warning::

   :mod:`~sphinx.ext.coverage` **imports** the modules to be documented.

Call :meth:`Environment.get_template <jinja2.Environment.get_template>` or :func:`!render`, as :pep:`8`
asks, with a :term:`loader`; see :ref:`coverage-howto` and :doc:`intro`.

Written as::

    the :class:`CoverageBuilder`
"""


def test_roles_read_as_their_text_and_doc_and_ref_stay_links() -> None:
    document = parse_rst(PAGE)
    paragraphs = [document.text[b.start:b.end] for b in document.blocks if b.kind == "paragraph"]
    assert paragraphs[0] == "This extension features one additional builder, the ``CoverageBuilder``."
    assert paragraphs[1].endswith("``coverage`` **imports** the modules to be documented.")
    assert paragraphs[2] == ("Call ``Environment.get_template`` or ``render``, as PEP 8\n"
                             "asks, with a loader; see :ref:`coverage-howto` and :doc:`intro`.")
    assert [document.text[b.start:b.end] for b in document.blocks if b.kind == "code"] == [
        "    the :class:`CoverageBuilder`"]
    assert sorted(link.href for link in document.links) == ["#coverage-howto", "intro.rst"]


# Sphinx 8.1.3's doc/usage/extensions/coverage.rst and doc/usage/configuration.rst (cut)
VERSIONS = """\
Configuration
=============

.. confval:: coverage_statistics_to_report

   ``True`` by default.

   .. versionadded:: 7.2

.. versionchanged:: 7.3 The default is now ``True``.

.. deprecated:: 1.8
   Use :confval:`html_logo` instead.
"""


def test_a_version_note_reads_as_sphinx_shows_it() -> None:
    document = parse_rst(VERSIONS)
    paragraphs = [document.text[b.start:b.end] for b in document.blocks if b.kind == "paragraph"]
    assert paragraphs[-3:] == ["Added in version 7.2.", "Changed in version 7.3: The default is now ``True``.",
                               "Deprecated since version 1.8.\n   Use ``html_logo`` instead."]
    assert document.sections[document.blocks[-3].section].heading == "coverage_statistics_to_report"


# Sphinx 8.1.3's doc/usage/extensions/coverage.rst (a confval's options) and doc/usage/domains/python.rst (info field
# lists), cut
ENTRIES = """\
Coverage
========

.. confval:: coverage_statistics_to_report
   :type: :code-py:`bool`
   :default: :code-py:`True`

   Print a tabular report of the coverage statistics to the coverage report.

.. py:function:: send_message(sender, recipient, message_body, [priority=1])
   :no-index:

   Send a message to a recipient

   :param str sender: The person sending the message
   :param priority: The priority of the message, can be a number 1-5
   :type priority: integer or None
   :return: the message id
   :rtype: int
   :raises ValueError: if the message_body exceeds 160 characters

   .. code-block:: rst

      :param x: kept as written in code
"""


def test_an_entrys_options_and_fields_read_as_sphinx_shows_them() -> None:
    doc = parse_rst(ENTRIES)
    shown = [doc.text[b.start:b.end] for b in doc.blocks if b.kind == "paragraph"]
    assert shown[0] == "Type: ``bool``\n   Default: ``True``"
    assert shown[3].split("\n   ") == [
        "Parameter sender (str): The person sending the message",
        "Parameter priority: The priority of the message, can be a number 1-5",
        "Type of priority: integer or None", "Returns: the message id", "Return type: int",
        "Raises ValueError: if the message_body exceeds 160 characters"]
    assert ":no-index:" not in doc.text
    assert "      :param x: kept as written in code" in doc.text
    assert [s.heading for s in doc.sections][2:] == [
        "coverage_statistics_to_report", "send_message(sender, recipient, message_body, [priority=1])"]


def test_a_paragraph_that_opens_a_literal_block_reads_its_roles_too() -> None:
    document = parse_rst("Render\n======\n\nCall :func:`jinja2.render` with\n:class:`Environment` like this::\n\n"
                         "    render(:func:`x`)\n")
    blocks = [(b.kind, document.text[b.start:b.end]) for b in document.blocks]
    assert blocks[1:] == [("paragraph", "Call ``jinja2.render`` with\n``Environment`` like this::"),
                          ("code", "    render(:func:`x`)")]
