"""Pages for browsers are told with one read of each HTML page (task R17): the redirect and noindex marks in its head
(``peek.browser_page``) and the lists of posts and links in its content (``browser_pages._list_kind``) each opened the
page, and read it whole with a 16 MiB buffer set aside (Qt 5's documentation, 2,333 pages: 7,043 opens and 96.2 MB
read to select the files, 4,710 and 53.1 MB now)."""

from __future__ import annotations

import pathlib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from clew.corpus.ingest.browser_pages import drop_browser_pages
from clew.corpus.ingest.sources import MAX_TEXT_BYTES
from tests.conftest import write_files

FOOTER = ("<p>The documentation provided herein is licensed under the terms of the GNU Free Documentation License "
          "version 1.3 as published by the Free Software Foundation.</p>")
PAGES = {  # Qt's pages, each with its licence footer; a redirect; a list of posts (two hAtom entries)
    "qstring.html": f"<html><head><title>QString Class | Qt Core 5.15.8</title></head><body><h1>QString Class</h1>"
                    f"<p>The QString class provides a Unicode character string.</p>{FOOTER}</body></html>",
    "qbytearray.html": "<html><head><title>QByteArray Class | Qt Core 5.15.8</title></head><body><h1>QByteArray "
                       f"Class</h1><p>The QByteArray class provides an array of bytes.</p>{FOOTER}</body></html>",
    "old.html": '<html><head><meta http-equiv="refresh" content="0; url=qstring.html"></head><body></body></html>',
    "blog.html": '<html><head><title>News</title></head><body><article class="hentry"><h2>Qt 5.15.8</h2>'
                 '<p>Released.</p></article><article class="hentry"><h2>Qt 5.15.7</h2><p>Released.</p></article>'
                 "</body></html>",
}


def test_each_html_page_is_opened_once_to_tell_pages_for_browsers(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    site = write_files(tmp_path / "qtcore", PAGES)
    opened: Counter[str] = Counter()
    real_open = pathlib.Path.open

    def counting_open(self: Path, *args: Any, **kwargs: Any) -> Any:
        opened[self.name] += 1
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(pathlib.Path, "open", counting_open)
    files = [(site / name, name) for name in sorted(PAGES)]
    kept, dropped = drop_browser_pages(files, lambda key: False, lambda file: file.suffix == ".html", MAX_TEXT_BYTES)
    assert [key for _, key in kept] == ["qbytearray.html", "qstring.html"]
    assert sorted(dropped) == [("blog.html", "listing"), ("old.html", "redirect")]
    assert opened == dict.fromkeys(PAGES, 1)
