"""How well a PDF's structure survives ingestion. Prints JSON.

For one PDF with bookmarks (default: the Bash Reference Manual, ``bashref.pdf`` of Debian's
``bash-doc``, fetched with ``apt-get download bash-doc && dpkg-deb -x bash-doc_*.deb DIR``;
not shipped with clew):

- ``bookmarks``: the outline's entries at levels 0-2 (``--levels``), and the share of them
  present as a section with the right parent (the section of the entry's parent bookmark, the
  document root for a top-level entry). Bookmarks and sections are aligned in reading order
  and compared by their titles with or without section numbers (``3.1 Shell Syntax`` is the bookmark
  ``Shell Syntax``);
- ``sections_not_bookmarks``: sections that no bookmark made (0 is the goal when there are bookmarks);
- ``title``: the document's title;
- ``search``: the rank of the passage that defines ``--query`` (holding ``--definition``) and
  of its index entry (a passage on a page marked as an index or a table of contents) in a
  BM25 search for ``--query`` over the ingested document (1 is first; null: not in the top 50).

    python benchmarks/pdf_structure.py /tmp/bashref.pdf
    python benchmarks/pdf_structure.py /tmp/bashref.pdf --query PIPESTATUS --definition "An array variable"
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
import time
from pathlib import Path

import pypdfium2 as pdfium

from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.formats.pdf import parse_pdf
from clew.corpus.search.api import search
from clew.corpus.store import Corpus

_NUMBER = re.compile(r"^(?:(?:chapter|appendix|section|part)\s+)?(?:\d+|[a-z])(?:\.\d+)*\.?\s+", re.IGNORECASE)


def forms(title: str) -> set[str]:
    """A title's letters and digits, with and without a leading section number."""
    title = " ".join(title.split())
    return {re.sub(r"\W+", "", text.lower()) for text in (title, _NUMBER.sub("", title, count=1))}


def bookmarks(path: Path) -> list[tuple[str, int, int | None]]:
    """(title, level, index of the parent bookmark) in outline order."""
    pdf = pdfium.PdfDocument(str(path))
    try:
        entries: list[tuple[str, int, int | None]] = []
        open_at: dict[int, int] = {}
        for mark in pdf.get_toc():
            title = " ".join((mark.get_title() or "").split())
            parent = open_at.get(mark.level - 1) if mark.level else None
            open_at[mark.level] = len(entries)
            entries.append((title, mark.level, parent))
        return entries
    finally:
        pdf.close()


def structure(path: Path, levels: int) -> dict[str, object]:
    started = time.perf_counter()
    document = parse_pdf(path.read_bytes())
    seconds = time.perf_counter() - started
    entries = bookmarks(path)
    sections = document.sections
    section_of: dict[int, int] = {}  # bookmark index -> section index, aligned in reading order
    cursor = 1
    for index, (title, _, _) in enumerate(entries):
        for candidate in range(cursor, len(sections)):
            if forms(sections[candidate].heading) & forms(title):
                section_of[index] = cursor = candidate
                cursor += 1
                break
    counted = [i for i, (_, level, _) in enumerate(entries) if level <= levels]
    right = []
    for index in counted:
        parent = entries[index][2]
        section = section_of.get(index)
        if section is None:
            continue
        expected = 0 if parent is None else section_of.get(parent, -1)
        if sections[section].parent == expected:
            right.append(index)
    made = set(section_of.values())
    strays = [s.heading for i, s in enumerate(sections) if i and i not in made]
    wrong = [entries[i][0] for i in counted if i not in right]
    return {
        "pages": len(document.pages),
        "parse_seconds": round(seconds, 2),
        "bookmarks": {"all": len(entries), f"levels_0_{levels}": len(counted), "right_parent": len(right),
                      "share": round(len(right) / len(counted), 3) if counted else None,
                      "missing_or_misplaced": wrong[:20]},
        "sections": len(sections) - 1,
        "sections_not_bookmarks": len(strays),
        "strays": strays[:20],
        "title": document.title,
        "warnings": document.warnings,
    }


def ranks(path: Path, query: str, definition: str) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as folder, Corpus(Path(folder) / "c.duckdb") as corpus:
        ingest_paths(corpus, [path], collection="docs")
        hits = search(corpus, {"query": query, "limit": 50, "max_chars": 20_000}).hits
        navigation = set(corpus.cursor().execute(
            "SELECT unnest(json_extract(fields, '$.navigation_pages')::INTEGER[]) FROM document_versions"
        ).fetchall()) if _has_navigation(corpus) else set()
        pages = {int(p) for (p,) in navigation}
        defined = next((h.rank for h in hits if definition.lower() in " ".join(h.text.split()).lower()), None)
        entry = next((h.rank for h in hits if query.lower() in h.text.lower() and (
            (h.location.page_numbers and set(h.location.page_numbers) <= pages)
            or re.search(re.escape(query) + r"\s*(?:\. ?){3,}", h.text))), None)
        return {"query": query, "definition_rank": defined, "index_entry_rank": entry,
                "top": [{"rank": h.rank, "heading_path": h.heading_path, "pages": h.location.page_numbers,
                         "score": round(h.score, 3)} for h in hits[:5]]}


def _has_navigation(corpus: Corpus) -> bool:
    row = corpus.cursor().execute(
        "SELECT count(*) FROM document_versions WHERE json_extract(fields, '$.navigation_pages') IS NOT NULL"
    ).fetchone()
    return bool(row and row[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pdf", type=Path, nargs="?", default=Path("/tmp/bashref.pdf"))
    parser.add_argument("--levels", type=int, default=2, help="deepest bookmark level counted (0 = top)")
    parser.add_argument("--query", default="PIPESTATUS")
    parser.add_argument("--definition", default="An array variable (see Section 6.7 [Arrays]",
                        help="words of the passage that defines the query's name")
    args = parser.parse_args()
    report = {"pdf": str(args.pdf), **structure(args.pdf, args.levels),
              "search": ranks(args.pdf, args.query, args.definition)}
    print(json.dumps(report, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
