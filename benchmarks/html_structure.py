"""How much of real published HTML documentation keeps its structure, printed as JSON.

Run on the Python 3.11 documentation as Debian ships it (not committed; about 13 MB)::

    cd /tmp && apt-get download python3.11-doc && dpkg-deb -x python3.11-doc_*.deb python3.11-doc
    python benchmarks/html_structure.py --docs /tmp/python3.11-doc/usr/share/doc/python3.11/html

For every page ingestion would take (``clew.corpus.ingest.sources.find_files``: generated pages and
twins left out) the page is read twice: by lxml, as the reference, and by clew's parser. The
reference is the page's own structure inside its main content (``role="main"`` / ``div.body``):
its ``h1``-``h6`` headings (text without the ``a.headerlink`` permalink, whitespace collapsed)
and its Sphinx API entries (``dl.py.function`` and kin: the name of the first ``dt``'s
signature, ``sig-prename`` + ``sig-name``, without ``@``); an entry inside a table cell is a
row of its table, counted apart, and so is an entry with no text under its signature (an empty
``dd``: autodoc's undocumented members), a line of the section around it. The report gives:

- ``headings`` / ``api_entries``: how many of them are sections of clew's outline with exactly
  that heading (a multiset match), overall and as the mean share per page, and the pages that
  miss most;
- ``chrome_sections_left``: sections titled by a heading of the page's chrome (sidebar, related
  bars: "Navigation", "Previous topic", ...) that is not one of its own headings (goal 0);
  ``admonition_sections``: sections titled "Note", "Warning", ... that are not own headings
  (goal 0); ``permalinks_left``: section headings that end with a pilcrow (goal 0);
- ``files``: what ``find_files`` takes and reports (generated files by pattern; twins when
  ``_sources`` is taken back in with ``!_sources``);
- ``functools``: the title of ``library/functools.html``, its outline as ``clew outline``
  prints it, and the heading path of the passage a link ``functools.html#functools.lru_cache``
  lands on, after an ingest of the whole folder into a temporary corpus (``--no-ingest`` skips
  it; the ingest's counts are reported too).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import lxml.html  # noqa: E402  # type: ignore[import-untyped]
from typer.testing import CliRunner  # noqa: E402

from clew.cli import app  # noqa: E402
from clew.corpus.ingest.api import ingest_paths  # noqa: E402
from clew.corpus.ingest.formats.html import parse_html  # noqa: E402
from clew.corpus.ingest.sources import find_files  # noqa: E402
from clew.corpus.store import Corpus  # noqa: E402

DEFAULT_DOCS = Path("/tmp/python3.11-doc/usr/share/doc/python3.11/html")
FUNCTOOLS = "library/functools.html"
DOMAINS = {"py", "c", "cpp", "js", "std", "rst"}
LEGACY = {"function", "class", "method", "attribute", "data", "exception", "describe", "object"}
ADMONITIONS = {"Note", "Warning", "See also", "Tip", "Important", "Caution", "Danger", "Attention", "Hint", "Error"}
HEADINGS = "h1 h2 h3 h4 h5 h6".split()


def text_of(element: lxml.html.HtmlElement) -> str:
    return " ".join(element.text_content().split())


def classes(element: lxml.html.HtmlElement) -> list[str]:
    return (element.get("class") or "").split()


def reference(source: str) -> tuple[list[str], list[str], set[str], int, int]:
    """The page's own headings and API entry names, the headings of its chrome, and how many API
    entries sit in table cells and how many have no text under their signature (lxml)."""
    tree = lxml.html.fromstring(source)
    for link in tree.xpath("//a[contains(concat(' ', normalize-space(@class), ' '), ' headerlink ')]"):
        link.drop_tree()
    mains = tree.xpath("//*[@role='main'] | //div[contains(concat(' ', normalize-space(@class), ' '), ' body ')]")
    main = mains[0] if mains else tree
    own = [text_of(h) for h in main.iter(*HEADINGS) if text_of(h)]
    inside = set(main.iter(*HEADINGS))
    chrome = {text_of(h) for h in tree.iter(*HEADINGS) if h not in inside and text_of(h)}
    api = []
    in_cells = undocumented = 0
    for dl in main.iter("dl"):
        names = classes(dl)
        if not ((len(names) >= 2 and names[0] in DOMAINS) or (len(names) == 1 and names[0] in LEGACY)):
            continue
        if any(ancestor.tag in ("td", "th") for ancestor in dl.iterancestors()):
            in_cells += 1  # a row of its table, the unit there (its anchor lands on the row)
            continue
        dt = next(dl.iterchildren("dt"), None)
        if dt is None:
            continue
        if not any(text_of(dd) for dd in dl.iterchildren("dd")):
            undocumented += 1  # a line of the section around it
            continue
        prename, name = [], None
        for span in dt.iter():
            kinds = classes(span)
            if "sig-name" in kinds or "descname" in kinds:
                name = text_of(span)
                break
            if "sig-prename" in kinds or "descclassname" in kinds:
                prename.append(text_of(span))
        if name:
            api.append(("".join(prename) + name).replace(" ", "").lstrip("@"))
    return own, api, chrome, in_cells, undocumented


def matched(expected: list[str], got: Counter[str]) -> int:
    left = Counter(got)
    found = 0
    for item in expected:
        if left[item] > 0:
            left[item] -= 1
            found += 1
    return found


def measure(pages: list[tuple[Path, str]]) -> dict:
    totals = Counter[str]()
    shares: list[float] = []
    worst: list[tuple[float, str, list[str]]] = []
    chrome_left: Counter[str] = Counter()
    admonitions_left: Counter[str] = Counter()
    permalinks = 0
    started = time.perf_counter()
    for file, key in pages:
        source = file.read_text(encoding="utf-8", errors="replace")
        own, api, chrome, in_cells, undocumented = reference(source)
        document = parse_html(source)
        got = Counter(section.heading for section in document.sections[1:])
        found_own, found_api = matched(own, got), matched(api, got)
        totals.update(headings=len(own), headings_found=found_own, api=len(api), api_found=found_api,
                      api_in_cells=in_cells, api_undocumented=undocumented)
        expected = len(own) + len(api)
        if expected:
            share = (found_own + found_api) / expected
            shares.append(share)
            missing = [h for h in [*own, *api] if got[h] == 0][:3]
            worst.append((share, key, missing))
        mine = set(own) | set(api)
        for heading, count in got.items():
            if heading in chrome and heading not in mine:
                chrome_left[heading] += count
            if heading in ADMONITIONS and heading not in mine:
                admonitions_left[heading] += count
            if heading.endswith("¶"):
                permalinks += count
    worst.sort()
    return {
        "pages": len(pages),
        "seconds": round(time.perf_counter() - started, 1),
        "headings": {"expected": totals["headings"], "kept_exactly": totals["headings_found"],
                     "share": round(totals["headings_found"] / max(totals["headings"], 1), 4)},
        "api_entries": {"expected": totals["api"], "kept_exactly": totals["api_found"],
                        "share": round(totals["api_found"] / max(totals["api"], 1), 4),
                        "in_table_cells_kept_as_rows": totals["api_in_cells"],
                        "without_text_kept_as_lines": totals["api_undocumented"]},
        "mean_share_per_page": round(sum(shares) / max(len(shares), 1), 4),
        "pages_with_every_heading": sum(share == 1 for share in shares),
        "worst_pages": [{"page": key, "share": round(share, 3), "missing": missing}
                        for share, key, missing in worst[:5] if share < 1],
        "chrome_sections_left": sum(chrome_left.values()),
        "chrome_sections_left_by_heading": dict(chrome_left.most_common(10)),
        "admonition_sections": sum(admonitions_left.values()),
        "permalinks_left": permalinks,
    }


def files_report(docs: Path) -> dict:
    found = find_files([docs], "**/*")
    taken_back = find_files([docs], "**/*", ["!_sources"])
    generated = [p.message for p in found.problems if p.warning]
    twins = [p for p in taken_back.problems if p.skipped and "the same text as" in p.message]
    return {
        "taken": len(found.files), "html_taken": sum(key.endswith(".html") for _, key in found.files),
        "excluded": found.excluded, "generated_report": generated,
        "with_sources_taken_back": {"twins_skipped": len(twins), "sources_kept": sum(
            key.startswith("_sources/") for _, key in taken_back.files),
            "example": f"{twins[0].path}: {twins[0].message}" if twins else None},
    }


def functools_report(docs: Path, ingest: bool) -> dict:
    page = docs / FUNCTOOLS
    out: dict = {"title": parse_html(page.read_text(encoding="utf-8")).title}
    if not ingest:
        return out
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "pydoc.duckdb")
        with Corpus(db) as corpus:
            started = time.perf_counter()
            report = ingest_paths(corpus, [docs], collection="pydoc", workers="auto")
            out["ingest"] = {"documents": report.documents, "chunks": report.chunks, "excluded": report.excluded,
                             "skipped": report.skipped, "warnings": report.warnings,
                             "links_resolved": report.links_resolved, "links_dangling": report.links_dangling_by_reason,
                             "seconds": round(time.perf_counter() - started, 1)}
            row = corpus.cursor().execute(
                """SELECT c.heading_path, c.body FROM anchors a
                   JOIN documents d ON d.id = a.document_id AND d.key = ?
                   JOIN chunks c ON c.document_id = a.document_id AND c.version = a.version AND c.ordinal = a.chunk
                   WHERE a.anchor = 'functools.lru_cache'""", [FUNCTOOLS]).fetchone()
            out["lru_cache_anchor_lands_on"] = {"heading_path": list(row[0]), "starts": row[1][:60]} if row else None
        printed = CliRunner().invoke(app, ["outline", FUNCTOOLS, "--db", db, "--collection", "pydoc"],
                                     env={"COLUMNS": "200"})
        out["outline"] = [re.sub(r"\s+$", "", line) for line in printed.output.splitlines()]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--docs", type=Path, default=DEFAULT_DOCS, help="the html folder of python3.11-doc")
    parser.add_argument("--limit", type=int, default=0, help="measure only the first N pages (0: all)")
    parser.add_argument("--no-ingest", action="store_true", help="skip the ingest behind the functools outline")
    args = parser.parse_args()
    if not (args.docs / FUNCTOOLS).is_file():
        sys.exit(f"no {FUNCTOOLS} under {args.docs}: see this script's docstring for the download")
    pages = [(file, key) for file, key in find_files([args.docs], "**/*").files if key.endswith(".html")]
    report = {
        "docs": str(args.docs),
        "structure": measure(pages[: args.limit] if args.limit else pages),
        "files": files_report(args.docs),
        "functools": functools_report(args.docs, not args.no_ingest),
    }
    print(json.dumps(report, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
