"""AsciiDoc cross-references read as their text and linked, Antora's page references resolved (task R20)."""

from __future__ import annotations

from pathlib import Path

from clew.corpus.ingest.formats.asciidoc_xrefs import xref_targets
from clew.corpus.ingest.formats.lightmarkup import parse_asciidoc
from clew.corpus.ingest.prepare import parse
from clew.corpus.ingest.sources import find_files

# Asciidoctor's docs (main, 2024): modules/ROOT/pages/errors-and-warnings.adoc, whats-new.adoc, cut
ERRORS = """\
= Errors and Warnings

== Notification types

<<info,INFO>>::
Info messages do not stop conversion, but they indicate possible problems.

<<warning,WARN>> (WARNING)::
Warnings do not stop conversion, but they indicate likely problems.

* Use automatic link text if ID in shorthand xref is followed by dangling comma (e.g., `+<<idname,>>+`)

----
<<info,INFO>> in a listing
----

[#info]
== Info messages

[[warning]]
== Warning messages
"""

# modules/ROOT/pages/reference-safe-mode.adoc, index.adoc and modules/extensions/pages/preprocessor.adoc, cut
SAFE_MODE = """\
= Set the Safe Mode

This feature is particularly handy for displaying content on GitHub, where the safe mode is set to its most \
restrictive setting, xref:safe-modes.adoc#secure[SECURE].

You can set the xref:cli:set-safe-mode.adoc[safe mode from the CLI] and the xref:api:set-safe-mode.adoc[API].

See xref:cli:index.adoc[] to learn more about this interface.
"""
PREPROCESSOR = """\
= Preprocessor Extension Example

Asciidoctor splits the source text of the primary document into lines and \
xref:asciidoc::normalization.adoc[normalizes them]. See xref:ROOT:reference-safe-mode.adoc[].
"""
TREE = {
    "docs/modules/ROOT/pages/errors-and-warnings.adoc": ERRORS,
    "docs/modules/ROOT/pages/reference-safe-mode.adoc": SAFE_MODE,
    "docs/modules/ROOT/pages/safe-modes.adoc": "= Safe Modes\n\n[#secure]\n== SECURE\n",
    "docs/modules/cli/pages/set-safe-mode.adoc": "= Set the Safe Mode Using the CLI\n:navtitle: Set Safe Mode\n",
    "docs/modules/cli/pages/index.adoc": "= Process AsciiDoc Using the CLI\n",
    "docs/modules/extensions/pages/preprocessor.adoc": PREPROCESSOR,
    "docs/modules/cli/nav.adoc": "* xref:index.adoc[]\n** xref:set-safe-mode.adoc[]\n",  # its navigation
}


def _linked(text: str, links: list[tuple[int, str]]) -> list[tuple[str, str]]:
    return [(text[start:].split("\n", 1)[0], href) for start, href in links]


def test_a_cross_reference_reads_as_its_text_and_links_to_its_anchor() -> None:
    doc = parse_asciidoc(ERRORS)
    assert "INFO::\nInfo messages" in doc.text and "WARN (WARNING)::" in doc.text
    assert "`+<<idname,>>+`" in doc.text and "<<info,INFO>> in a listing" in doc.text
    assert doc.anchors.keys() == {"info", "warning"}
    assert _linked(doc.text, [(link.start, link.href) for link in doc.links]) == [
        ("INFO::", "#info"), ("WARN (WARNING)::", "#warning")]


def test_antora_page_references_read_as_their_text_and_link_to_the_pages_found() -> None:
    targets = xref_targets(TREE)  # "page.adoc[]": what a reference to a page found shows without text of its own
    assert targets == {
        "docs/modules/ROOT/pages/reference-safe-mode.adoc": {
            "safe-modes.adoc#secure": "safe-modes.adoc#secure",
            "cli:set-safe-mode.adoc": "../../cli/pages/set-safe-mode.adoc",
            "cli:set-safe-mode.adoc[]": "Set the Safe Mode Using the CLI",
            "api:set-safe-mode.adoc": "",  # not in the corpus
            "cli:index.adoc": "../../cli/pages/index.adoc",
            "cli:index.adoc[]": "Process AsciiDoc Using the CLI"},
        "docs/modules/extensions/pages/preprocessor.adoc": {
            "asciidoc::normalization.adoc": "",  # another component's
            "ROOT:reference-safe-mode.adoc": "../../ROOT/pages/reference-safe-mode.adoc",
            "ROOT:reference-safe-mode.adoc[]": "Set the Safe Mode"},
        "docs/modules/cli/nav.adoc": {  # a navigation file shows a page's :navtitle:
            "index.adoc": "pages/index.adoc", "index.adoc[]": "Process AsciiDoc Using the CLI",
            "set-safe-mode.adoc": "pages/set-safe-mode.adoc", "set-safe-mode.adoc[]": "Set Safe Mode"}}
    doc = parse("asciidoc", SAFE_MODE, targets=targets["docs/modules/ROOT/pages/reference-safe-mode.adoc"])
    assert "restrictive setting, SECURE.\n" in doc.text
    assert "set the safe mode from the CLI and the API." in doc.text
    assert "See Process AsciiDoc Using the CLI to learn" in doc.text
    assert [(doc.text[link.start:].split()[0], link.href) for link in doc.links] == [
        ("SECURE.", "safe-modes.adoc#secure"), ("safe", "../../cli/pages/set-safe-mode.adoc"),
        ("Process", "../../cli/pages/index.adoc")]
    other = parse_asciidoc(PREPROCESSOR)  # another component's page, a module's page not found: no link
    assert "lines and normalizes them. See ROOT:reference-safe-mode." in other.text
    assert other.links == []
    nav = parse("asciidoc", TREE["docs/modules/cli/nav.adoc"], targets=targets["docs/modules/cli/nav.adoc"])
    assert nav.text == "* Process AsciiDoc Using the CLI\n** Set Safe Mode\n"


def test_a_folder_in_antoras_layout_resolves_its_references(tmp_path: Path) -> None:
    for key, text in TREE.items():
        (tmp_path / key).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / key).write_text(text, encoding="utf-8")
    found = find_files([tmp_path / "docs"], "**/*")
    page = str(tmp_path / "docs/modules/extensions/pages/preprocessor.adoc")
    assert found.targets[page] == xref_targets(TREE)["docs/modules/extensions/pages/preprocessor.adoc"]
