#!/usr/bin/env python3
"""Verify the PDF-manual (pdfTeX) development evaluation set.

Run from this folder:  python3 verify.py   (Python 3 and pypdfium2, clew's own PDF library)

The text extractor and the normalizer defined here are the REFERENCE
definition of evidence matching for questions.jsonl (see README.md):

  * page_text(pdf, i) is the text pypdfium2 gives for page i (1-based), with
    ``PdfTextPage.get_text_range()``: the characters in the PDF's content
    order, a line break as "\\r\\n".  pdfium marks a hyphen that TeX added to
    break a word at the end of a line as U+FFFE and leaves out the line break
    after it; that mark is deleted, so the word reads whole ("expression",
    not "expres-sion"), as clew and a reader take it.  Nothing else is changed:
    the running head ("Chapter 3: Basic Shell Features 14") stays the page's
    first line.
  * A page is one text element.  normalize(s) casefolds, replaces curly quotes
    with straight ones and collapses every run of whitespace to one space
    (then strips), as in the other sets.
  * An evidence phrase MATCHES a page when normalize(phrase) is a substring of
    normalize(page text).  A phrase therefore never crosses a page break.
  * A phrase shorter than MIN_WORDS must be one whole line of its page (a
    table row, or a term set on a line of its own), the way a short phrase of
    an HTML set must be a whole table cell.

The manual is one file, so every question names it in ``sources`` and adds
``pages``: for each evidence phrase, in order, the page (1-based, as the PDF
counts them, not the printed page number) where it is meant to be found.
A continuation's phrases lie >= CONTINUATION_MIN_GAP characters apart in the
normalized document text (its pages joined by single spaces); a multi_hop's
lie on pages at least MULTI_HOP_MIN_PAGES apart.

Exit status is non-zero if any check fails.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import re
import sys

try:
    import pypdfium2
except ImportError:  # the one dependency beyond the standard library
    sys.exit("FAIL: verify.py needs pypdfium2 (pip install pypdfium2; clew installs it)")

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")
QUESTIONS = os.path.join(HERE, "questions.jsonl")
MANIFEST = os.path.join(HERE, "corpus.sha256")

KINDS = ("table", "continuation", "section", "multi_hop", "exact_term")
MIN_WORDS, MAX_WORDS = 6, 25
CONTINUATION_MIN_GAP = 2000  # characters of normalized document text
MULTI_HOP_MIN_PAGES = 5
MIN_EVIDENCE = {"table": 2, "continuation": 2, "section": 2,
                "multi_hop": 2, "exact_term": 1}
ID_RE = re.compile(r"^pdf-\d{3}$")
SOFT_HYPHEN = "\ufffe"  # pdfium's mark for a hyphen TeX put at a line break

# ---------------------------------------------------------------- extractor --


def page_texts(path: str) -> list[str]:
    """Every page's text (raw, not normalized), first page first."""
    pdf = pypdfium2.PdfDocument(path)
    try:
        texts = []
        for index in range(len(pdf)):
            page = pdf[index]
            textpage = page.get_textpage()
            texts.append(textpage.get_text_range().replace(SOFT_HYPHEN, ""))
            textpage.close()
            page.close()
        return texts
    finally:
        pdf.close()


_QUOTES = str.maketrans({
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"',
})
_WS = re.compile(r"\s+")


def normalize(text: str) -> str:
    """casefold, curly quotes -> straight quotes, collapse whitespace."""
    return _WS.sub(" ", text.casefold().translate(_QUOTES)).strip()


# ------------------------------------------------------------------- corpus --

class Document:
    def __init__(self, path: str) -> None:
        self.name = os.path.relpath(path, CORPUS).replace(os.sep, "/")
        raw = page_texts(path)
        self.pages = [normalize(t) for t in raw]            # index 0 = page 1
        self.lines = [set(normalize(line) for line in t.splitlines()) for t in raw]
        self.offsets = []
        pos = 0
        for text in self.pages:
            self.offsets.append(pos)
            pos += len(text) + 1
        self.text = " ".join(self.pages)

    def pages_with(self, phrase_norm: str) -> list[int]:
        """1-based numbers of the pages the phrase lies on."""
        return [i + 1 for i, text in enumerate(self.pages) if phrase_norm in text]

    def position(self, phrase_norm: str, page: int) -> int:
        """Offset in the document text of the phrase's first occurrence on ``page``."""
        return self.offsets[page - 1] + self.pages[page - 1].find(phrase_norm)


def load_corpus() -> dict[str, str]:
    files = {}
    for path in sorted(glob.glob(os.path.join(CORPUS, "**", "*"), recursive=True)):
        if os.path.isfile(path):
            files[os.path.relpath(path, CORPUS).replace(os.sep, "/")] = path
    return files


# -------------------------------------------------------------------- check --

def main() -> int:
    errors = []
    warnings = []

    def err(msg: str) -> None:
        errors.append(msg)

    if not os.path.isdir(CORPUS):
        print("FAIL: corpus/ folder missing")
        return 1
    paths = load_corpus()
    for n in paths:
        if not n.endswith(".pdf"):
            err("corpus contains a non-PDF file: %s" % n)
    total_bytes = sum(os.path.getsize(p) for p in paths.values())

    # corpus manifest (byte-for-byte copies of the packaged files)
    if os.path.exists(MANIFEST):
        listed = {}
        with open(MANIFEST, encoding="utf-8") as fh:
            for line in fh:
                line = line.strip()
                if not line:
                    continue
                digest, name = line.split(None, 1)
                listed[name.lstrip("*")] = digest
        for name in sorted(set(listed) | set(paths)):
            if name not in paths:
                err("manifest lists %s but it is not in corpus/" % name)
            elif name not in listed:
                err("corpus/%s is not listed in corpus.sha256" % name)
            else:
                with open(paths[name], "rb") as fh:
                    if hashlib.sha256(fh.read()).hexdigest() != listed[name]:
                        err("corpus/%s does not match corpus.sha256" % name)
    else:
        warnings.append("corpus.sha256 not found; byte-identity not checked")

    docs = {name: Document(path) for name, path in paths.items()
            if name.endswith(".pdf")}

    # ---- questions
    questions = []
    with open(QUESTIONS, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                q = json.loads(line)
            except json.JSONDecodeError as exc:
                err("line %d: invalid JSON (%s)" % (lineno, exc))
                continue
            if not isinstance(q, dict):
                err("line %d: not a JSON object" % lineno)
                continue
            q["_line"] = lineno
            questions.append(q)

    seen_ids = set()
    per_kind = {k: 0 for k in KINDS}
    phrase_total = 0
    phrase_unique = 0          # occurs on exactly one page of the corpus
    phrase_unique_once = 0     # ... and only once on that page
    short_line_phrases = 0
    answer_in_evidence = 0
    report_rows = []
    gaps = []
    hops = []

    for q in questions:
        where = "line %d" % q["_line"]
        required = ("id", "question", "answers", "evidence", "sources",
                    "pages", "kind")
        missing = [k for k in required if k not in q]
        if missing:
            err("%s: missing field(s) %s" % (where, ", ".join(missing)))
            continue
        extra = [k for k in q if k not in required and k != "_line"]
        if extra:
            err("%s: unexpected field(s) %s" % (where, ", ".join(extra)))
        qid = q["id"]
        where = "%s (%s)" % (qid, where)
        if not isinstance(qid, str) or not ID_RE.match(qid):
            err("%s: id must look like pdf-NNN" % where)
        if qid in seen_ids:
            err("%s: duplicate id" % where)
        seen_ids.add(qid)
        kind = q["kind"]
        if kind not in KINDS:
            err("%s: invalid kind %r" % (where, kind))
            continue
        per_kind[kind] += 1
        if not isinstance(q["question"], str) or not q["question"].strip():
            err("%s: empty question" % where)
        answers = q["answers"]
        if (not isinstance(answers, list) or not answers or
                not all(isinstance(a, str) and a.strip() for a in answers)):
            err("%s: answers must be a non-empty list of non-empty strings"
                % where)
            answers = []
        sources = q["sources"]
        if (not isinstance(sources, list) or not sources or
                not all(isinstance(s, str) for s in sources)):
            err("%s: sources must be a non-empty list of file names" % where)
            continue
        if len(set(sources)) != len(sources):
            err("%s: duplicate entries in sources" % where)
        for s in sources:
            if s not in docs:
                err("%s: source %s not found in corpus/" % (where, s))
        evidence = q["evidence"]
        if (not isinstance(evidence, list) or not evidence or
                not all(isinstance(e, str) and e.strip() for e in evidence)):
            err("%s: evidence must be a non-empty list of strings" % where)
            continue
        pages = q["pages"]
        if (not isinstance(pages, list) or len(pages) != len(evidence) or
                not all(isinstance(p, int) and not isinstance(p, bool)
                        for p in pages)):
            err("%s: pages must list one page number (an integer) per "
                "evidence phrase" % where)
            continue
        if len(evidence) < MIN_EVIDENCE[kind]:
            err("%s: kind %s needs at least %d evidence phrases"
                % (where, kind, MIN_EVIDENCE[kind]))

        long_enough = 0
        matched_sources = set()
        positions = {}           # source -> positions of the phrases
        for ev, page in zip(evidence, pages):
            phrase_total += 1
            norm = normalize(ev)
            nwords = len(norm.split())
            found_in = None
            whole_line = False
            for s in sources:
                doc = docs.get(s)
                if doc is None or not 1 <= page <= len(doc.pages):
                    continue
                if norm in doc.pages[page - 1]:
                    found_in = s
                    positions.setdefault(s, []).append(doc.position(norm, page))
                    whole_line = norm in doc.lines[page - 1]
                    break
            if found_in is None:
                err("%s: evidence not found on page %s of any of its "
                    "sources: %r" % (where, page, ev))
            else:
                matched_sources.add(found_in)
            if nwords > MAX_WORDS:
                err("%s: evidence has %d words (max %d): %r"
                    % (where, nwords, MAX_WORDS, ev))
            elif nwords < MIN_WORDS:
                if whole_line:
                    short_line_phrases += 1
                else:
                    err("%s: evidence has %d words (min %d, unless it is a "
                        "whole line of its page such as a table row): %r"
                        % (where, nwords, MIN_WORDS, ev))
            else:
                long_enough += 1
            # corpus-wide uniqueness
            hits = [(n, p) for n, d in docs.items() for p in d.pages_with(norm)]
            if len(hits) == 1:
                phrase_unique += 1
                n, p = hits[0]
                if docs[n].pages[p - 1].count(norm) == 1:
                    phrase_unique_once += 1
            report_rows.append((qid, kind, nwords, page, len(hits), ev))
        if long_enough == 0:
            err("%s: needs at least one evidence phrase of %d-%d words"
                % (where, MIN_WORDS, MAX_WORDS))
        for s in sources:
            if s in docs and s not in matched_sources:
                err("%s: source %s is not supported by any evidence phrase"
                    % (where, s))
        if kind == "continuation":
            best = 0
            for pos in positions.values():
                if len(pos) >= 2:
                    best = max(best, max(pos) - min(pos))
            gaps.append((qid, best))
            if best < CONTINUATION_MIN_GAP:
                err("%s: continuation evidence must lie >= %d characters "
                    "apart in one source (largest gap %d)"
                    % (where, CONTINUATION_MIN_GAP, best))
        if kind == "multi_hop":
            spread = max(pages) - min(pages)
            hops.append((qid, sorted(set(pages))))
            if len(matched_sources) < 2 and spread < MULTI_HOP_MIN_PAGES:
                err("%s: multi_hop evidence must come from two sources or "
                    "from pages >= %d apart (pages %s)"
                    % (where, MULTI_HOP_MIN_PAGES, pages))
        ev_text = " ".join(normalize(e) for e in evidence)
        if any(normalize(a) in ev_text for a in answers):
            answer_in_evidence += 1

    # ---- report
    npages = sum(len(d.pages) for d in docs.values())
    print("corpus: %d file(s), %d pages, %d bytes (%.2f MB)"
          % (len(paths), npages, total_bytes, total_bytes / 1e6))
    print("questions: %d" % len(questions))
    for k in KINDS:
        print("  %-13s %d" % (k, per_kind[k]))
    print("evidence phrases: %d" % phrase_total)
    print("  unique across corpus (found on exactly one page):  %d" %
          phrase_unique)
    print("  ... and occurring exactly once on that page:       %d" %
          phrase_unique_once)
    print("  short whole-line phrases (<%d words, e.g. table rows): %d"
          % (MIN_WORDS, short_line_phrases))
    print("questions with an answer string verbatim in their evidence: "
          "%d/%d" % (answer_in_evidence, len(questions)))
    if "-v" in sys.argv[1:]:
        print("\nid       kind          words  page pages  phrase")
        for qid, kind, nwords, page, npg, ev in report_rows:
            print("%-8s %-13s %5d %5d %5d  %s" % (qid, kind, nwords, page,
                                                  npg, ev[:60]))
        print("\ncontinuation gaps (characters of normalized document text):")
        for qid, gap in gaps:
            print("  %s %d" % (qid, gap))
        print("\nmulti_hop pages:")
        for qid, pgs in hops:
            print("  %s %s" % (qid, ", ".join(str(p) for p in pgs)))
    for w in warnings:
        print("WARNING: %s" % w)
    if errors:
        print("\nFAILED: %d problem(s)" % len(errors))
        for e in errors:
            print("  - %s" % e)
        return 1
    print("\nOK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
