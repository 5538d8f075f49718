"""gtk-doc's annotation glossary (``annotation-glossary.html``) is left out as its symbol index (``ix01.html``, a
DocBook index) is: a legend of gtk-doc's annotation names, the same for every library (task R24)."""

from __future__ import annotations

import shutil
from pathlib import Path

from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.peek import generated_sign
from clew.corpus.store import Corpus
from tests.conftest import FIXTURES, document_keys

GLOSSARY = FIXTURES / "html" / "gtk-doc" / "libsoup-annotation-glossary.html"  # libsoup 2.74's, gtk-doc 1.33.1

AUTHORS_GLOSSARY = (  # a glossary a book's authors wrote, under the same name: it stays
    '<html><head><title>Glossary</title><meta name="generator" content="DocBook XSL Stylesheets V1.79.2">'
    '<meta name="generator" content="GTK-Doc V1.33.1 (XML mode)"></head><body><div class="glossary">'
    '<div class="titlepage"><h1 class="title"><a name="glossary"></a>Glossary</h1></div>'
    '<dt><span class="glossterm">main loop</span></dt><dd class="glossdef"><p>The loop that dispatches the '
    "sources of events a program waits on.</p></dd></div></body></html>"
)


def test_the_annotation_glossary_is_known_by_its_first_bytes(tmp_path: Path) -> None:
    page = tmp_path / "annotation-glossary.html"
    shutil.copy(GLOSSARY, page)
    assert generated_sign(page) == "gtk-doc annotation glossary"
    page.write_text(AUTHORS_GLOSSARY, encoding="utf-8")
    assert generated_sign(page) is None
    assert generated_sign(FIXTURES / "html" / "gtk-doc" / "atk-action.html") is None


def test_the_glossary_is_left_out_reported_and_taken_back_by_name(tmp_path: Path) -> None:
    book = tmp_path / "book"
    book.mkdir()
    shutil.copy(GLOSSARY, book / "annotation-glossary.html")
    shutil.copy(FIXTURES / "html" / "gtk-doc" / "atk-action.html", book / "AtkAction.html")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [book], collection="docs")
        assert document_keys(corpus) == ["AtkAction.html"]
        [line] = [p.message for p in report.problems if "generated" in p.message]
        assert line == (
            "1 generated file (a documentation tool's indexes, search page, sources or assets: "
            "1 gtk-doc annotation glossary) not ingested; take them in with --exclude '!NAME' or a '!NAME' line in "
            ".clewignore (e.g. '!annotation-glossary.html')"
        )
        ingest_paths(corpus, [book], collection="docs", exclude=["!annotation-glossary.html"])
        assert document_keys(corpus) == ["AtkAction.html", "annotation-glossary.html"]
