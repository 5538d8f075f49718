"""Anomalies of a reader in bulk, read from ingested corpus files, as JSON (task S1).

Ingest a large manual first (``clew ingest --db /tmp/s1/python.duckdb <folder>``), then::

    python benchmarks/reader_sweep.py /tmp/s1/python.duckdb /tmp/s1/postgres.duckdb

For each file (its current versions, every collection) it counts the pages each anomaly touches, and
names up to three of them: a title empty, generic or shared by more than a tenth of the pages; no
section; a passage over 5,000 tokens; a line that is navigation (``Previous``, ``Next``, ``Home``,
``Table of Contents``, ``Edit this page``, a breadcrumb ``A » B``); a table without a header row or of
one column; an empty code block; internal links that resolve nowhere; a paragraph repeated on more than
30% of the pages (boilerplate); a heading that is a label (ending in ``:``) or over 20 words; a ligature or
odd glyph in the text (U+FB01, ``(cid:12)``, U+FFFD, a private-use or control character). A PDF (one
document of many printed pages) is also read for: a line of two words or more repeated five times or more,
digits aside, neither a label (``Types:``) nor a contents entry (a running header or footer); a line that is
a page number; a word split at a hyphen (``exam- ple``); eight or more one-word lines in a row (a table read
a cell a line). The anomalies come ranked by pages affected, each with up to three samples of what was
found. A count is a lead to a fault, not a fault: open the pages.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter, defaultdict
from pathlib import Path

import duckdb

GENERIC_TITLES = {"", "index", "contents", "table of contents", "untitled", "home", "main page", "overview"}
NAV_LINE = re.compile(
    r"^(?:[«‹←<]\s*)?(?:previous|prev|next|home|up|top|back to top|table of contents|contents|index|"
    r"edit this page|edit on github|previous page|next page|go to|search)(?:\s*[»›→>])?$",
    re.IGNORECASE,
)
BREADCRUMB = re.compile(r"^[^\n.!?|]{1,40}(?:\s[»›]\s[^\n.!?|]{1,40})+$")
EMPTY_CODE = re.compile(r"^```[\w+-]*\n```$", re.MULTILINE)
SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)
LONG_CHUNK = 5000
BOILERPLATE_SHARE = 0.3
SAME_TITLE_SHARE = 0.1
ODD_GLYPH = re.compile(r"[\ufb00-\ufb06\ufffd\ue000-\uf8ff\x00-\x08\x0b\x0c\x0e-\x1f]|\(cid:\d+\)")
PAGE_NUMBER = re.compile(r"(?:page\s+)?\d{1,4}(?:\s*(?:/|of)\s*\d{1,4})?|[ivxl]{1,6}", re.IGNORECASE)
HYPHEN_SPLIT = re.compile(r"\b[a-z]{2,}- (?!and\b|or\b|to\b|nor\b)[a-z]{2,}\b")
RUNNING_REPEATS = 5
RUNNING = re.compile(r"[^\W\d_]{2,}\W+[^\W\d_]{2,}")
ONE_WORD_RUN = 8


def _lines(text: str) -> list[str]:
    """The lines outside code blocks and headings, without Markdown's marks around them."""
    lines, code = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            code = not code
        elif line.strip() and not code and not line.startswith("#"):
            lines.append(line.strip(" *_`-"))
    return lines


def _tables(text: str, spans: list[tuple[int, int]]) -> tuple[int, int]:
    """Tables without a header row, tables of one column."""
    headless = narrow = 0
    for start, end in spans:
        rows = [line for line in text[start:end].splitlines() if line.startswith("|")]
        if not any(re.fullmatch(r"\|( --- \|)+", row) for row in rows):
            headless += 1
        if rows and all(row.count(" | ") == 0 for row in rows):
            narrow += 1
    return headless, narrow


def _pdf_lines(text: str) -> dict[str, list[str]]:
    """A PDF's anomalies read from its text (lines outside code, headings and tables), with what was found."""
    lines = [line for line in _lines(text) if not line.startswith("|")]
    found: dict[str, list[str]] = defaultdict(list)
    repeats = Counter(
        re.sub(r"\d+", "#", line)
        for line in lines
        if len(line) <= 120 and RUNNING.search(line) and not line.endswith(":") and "…" not in line
    )  # not a label, not a contents entry
    found["line repeated 5+ times (running header?)"] = [line for line, n in repeats.items() if n >= RUNNING_REPEATS]
    found["page number line"] = [line for line in lines if PAGE_NUMBER.fullmatch(line)]
    found["word split at a hyphen"] = [match.group() for line in lines for match in HYPHEN_SPLIT.finditer(line)]
    run: list[str] = []
    for line in [*lines, "end of the text"]:
        if len(line.split()) == 1:
            run.append(line)
            continue
        if len(run) >= ONE_WORD_RUN:
            found["8+ one-word lines in a row (a table?)"].append(" / ".join(run[:ONE_WORD_RUN]))
        run = []
    return found


def sweep(path: Path) -> dict[str, object]:
    con = duckdb.connect(str(path), read_only=True)
    current = "d.id = v.document_id AND d.current_version = v.version"
    pages = con.execute(
        f"SELECT d.id, d.key, coalesce(v.title, ''), v.text FROM documents d JOIN document_versions v ON {current}"
    ).fetchall()
    keys = {doc: key for doc, key, _, _ in pages}
    hits: dict[str, set[int]] = defaultdict(set)
    counts: Counter[str] = Counter()
    samples: dict[str, list[str]] = defaultdict(list)

    def hit(name: str, doc: int, times: int = 1, sample: str = "") -> None:
        hits[name].add(doc)
        counts[name] += times
        if sample and len(samples[name]) < 3:
            samples[name].append(f"{keys[doc]}: {sample[:100]}")

    titles = Counter(title.strip().lower() for _, _, title, _ in pages)
    paragraphs: dict[str, set[int]] = defaultdict(set)
    for doc, _, title, text in pages:
        norm = title.strip().lower()
        if norm in GENERIC_TITLES:
            hit("title empty or generic", doc)
        elif titles[norm] > max(2, SAME_TITLE_SHARE * len(pages)):
            hit("title on >10% of pages", doc)
        for line in _lines(text):
            if NAV_LINE.match(line) or BREADCRUMB.match(line):
                hit("navigation line", doc)
        for paragraph in text.split("\n\n"):
            if len(paragraph.strip()) >= 20:
                paragraphs[paragraph.strip()].add(doc)
        if (found := len(EMPTY_CODE.findall(text))) > 0:
            hit("empty code block", doc, found)
        if glyphs := ODD_GLYPH.findall(text):
            hit("ligature or odd glyph", doc, len(glyphs), ascii(glyphs[0]))
        if keys[doc].lower().endswith(".pdf"):
            for name, lines in _pdf_lines(text).items():
                if lines:
                    hit(name, doc, len(lines), lines[0])
    for paragraph, docs in paragraphs.items():
        if len(pages) >= 10 and len(docs) > BOILERPLATE_SHARE * len(pages):
            for doc in docs:
                hit("paragraph on >30% of pages", doc)
    text_of = {doc: text for doc, _, _, text in pages}
    sections = dict(
        con.execute(
            "SELECT n.document_id, count(*) FILTER (WHERE n.kind = 'section') FROM nodes n JOIN documents d "
            "ON d.id = n.document_id AND d.current_version = n.version GROUP BY 1"
        ).fetchall()
    )
    for doc in keys:
        if not sections.get(doc):
            hit("no section", doc)
    for doc, count in con.execute(
        f"SELECT c.document_id, count(*) FROM chunks c JOIN documents d ON d.id = c.document_id "
        f"AND d.current_version = c.version WHERE c.token_count > {LONG_CHUNK} GROUP BY 1"
    ).fetchall():
        hit("passage over 5,000 tokens", doc, count)
    tables: dict[int, list[tuple[int, int]]] = defaultdict(list)
    nodes = con.execute(
        "SELECT n.document_id, n.kind, n.heading, n.start_offset, n.end_offset FROM nodes n JOIN documents d "
        "ON d.id = n.document_id AND d.current_version = n.version WHERE n.kind IN ('section', 'table')"
    ).fetchall()
    for doc, kind, heading, start, end in nodes:
        if kind == "table":
            tables[doc].append((start, end))
        elif heading and (heading.rstrip().endswith(":") or len(heading.split()) > 20):
            hit("heading is a label", doc)
    for doc, spans in tables.items():
        headless, narrow = _tables(text_of[doc], spans)
        if headless:
            hit("table without header row", doc, headless)
        if narrow:
            hit("table of one column", doc, narrow)
    internal = unresolved = 0
    for doc, ref, dst in con.execute(
        "SELECT e.document_id, e.dst_ref, e.dst FROM edges e JOIN documents d ON d.id = e.document_id "
        "AND d.current_version = e.version WHERE e.graph = 'links'"
    ).fetchall():
        if ref is None or SCHEME.match(ref):
            continue
        internal += 1
        if dst is None:
            unresolved += 1
            hit("internal link unresolved", doc)
    ranked = sorted(hits, key=lambda name: -len(hits[name]))
    return {
        "file": str(path),
        "pages": len(pages),
        "internal_links": internal,
        "internal_links_unresolved": unresolved,
        "anomalies": [
            {
                "anomaly": name,
                "pages": len(hits[name]),
                "count": counts[name],
                "examples": sorted(keys[doc] for doc in hits[name])[:3],
                "samples": samples[name],
            }
            for name in ranked
        ],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpora", nargs="+", type=Path, help="DuckDB corpus files")
    args = parser.parse_args()
    print(json.dumps({"corpora": [sweep(path) for path in args.corpora]}, indent=1))


if __name__ == "__main__":
    main()
