#!/usr/bin/env python3
"""Verify the libsoup-docs (gtk-doc HTML, libsoup 2.74 reference) development evaluation set.

Run from this folder:  python3 verify.py   (Python 3 standard library only)

The text extractor and the normalizer defined here are the REFERENCE
definition of evidence matching for questions.jsonl (see README.md):

  * extract_blocks(html) turns a page into a list of "text elements":
    character data is collected with html.parser (character references are
    decoded, i.e. html.unescape semantics), <script> and <style> content is
    skipped, and every tag that is not an inline tag (see INLINE_TAGS) -- p,
    li, td, th, dt, dd, h1..h6, pre, div, br, tr, table, svg parts, ... --
    starts a new element.  Inline tags (a, b, i, span, tt, code, ...) do not.
  * normalize(s) casefolds, replaces curly quotes with straight ones and
    collapses every run of whitespace to one space (then strips).
  * An evidence phrase MATCHES a page when normalize(phrase) is a substring of
    normalize(element) for at least one text element of that page.  Because a
    phrase has to sit inside one element, it can never cross a paragraph,
    list item, table cell or heading boundary.

Exit status is non-zero if any check fails.
"""

import glob
import hashlib
import json
import os
import re
import sys
from html.parser import HTMLParser

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")
QUESTIONS = os.path.join(HERE, "questions.jsonl")
MANIFEST = os.path.join(HERE, "corpus.sha256")

KINDS = ("table", "continuation", "section", "multi_hop", "exact_term")
MIN_WORDS, MAX_WORDS = 6, 25
CONTINUATION_MIN_GAP = 2000  # characters of normalized page text
MIN_EVIDENCE = {"table": 2, "continuation": 2, "section": 2,
                "multi_hop": 2, "exact_term": 1}
ID_RE = re.compile(r"^libsoup-\d{3}$")
# The two pages gtk-doc generates from the others (the symbol index and the
# annotation glossary) are kept in corpus/ as published, but they are never a
# source and are left out of the "unique across corpus" counts.
GENERATED_PAGES = frozenset({"ix01.html", "annotation-glossary.html"})


def generated(name):
    return name in GENERATED_PAGES


# ---------------------------------------------------------------- extractor --

INLINE_TAGS = frozenset({
    "a", "abbr", "b", "big", "cite", "code", "em", "font", "i", "img", "kbd",
    "nobr", "q", "s", "samp", "small", "span", "strike", "strong", "sub",
    "sup", "tt", "u", "var", "variable",
})
SKIP_TAGS = frozenset({"script", "style"})


class _Extractor(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)  # decodes &amp; &#8217; ...
        self.blocks = []
        self._cur = []
        self._skip = 0

    def _flush(self):
        if self._cur:
            text = "".join(self._cur)
            if text.strip():
                self.blocks.append(text)
            self._cur = []

    def handle_starttag(self, tag, attrs):
        if tag in SKIP_TAGS:
            self._skip += 1
        elif tag not in INLINE_TAGS:
            self._flush()

    def handle_startendtag(self, tag, attrs):
        if tag not in INLINE_TAGS and tag not in SKIP_TAGS:
            self._flush()

    def handle_endtag(self, tag):
        if tag in SKIP_TAGS:
            self._skip = max(0, self._skip - 1)
        elif tag not in INLINE_TAGS:
            self._flush()

    def handle_data(self, data):
        if not self._skip:
            self._cur.append(data)

    def close(self):
        super().close()
        self._flush()


def extract_blocks(raw_html):
    """Return the page's text elements (raw, not normalized), in order."""
    parser = _Extractor()
    parser.feed(raw_html)
    parser.close()
    return parser.blocks


_QUOTES = str.maketrans({
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"',
})
_WS = re.compile(r"\s+")


def normalize(text):
    """casefold, curly quotes -> straight quotes, collapse whitespace."""
    return _WS.sub(" ", text.casefold().translate(_QUOTES)).strip()


# ------------------------------------------------------------------- corpus --

class Page:
    def __init__(self, path):
        with open(path, encoding="utf-8") as fh:
            raw = fh.read()
        self.name = os.path.relpath(path, CORPUS).replace(os.sep, "/")
        self.blocks = [normalize(b) for b in extract_blocks(raw)]
        self.block_set = set(self.blocks)
        # offsets of each block inside the normalized page text
        # (page text = blocks joined with single spaces)
        self.offsets = []
        pos = 0
        for b in self.blocks:
            self.offsets.append(pos)
            pos += len(b) + 1
        self.text = " ".join(self.blocks)

    def find(self, phrase_norm):
        """Positions (in page text) of every in-element occurrence."""
        hits = []
        for off, block in zip(self.offsets, self.blocks):
            start = block.find(phrase_norm)
            while start != -1:
                hits.append(off + start)
                start = block.find(phrase_norm, start + 1)
        return hits


def load_corpus():
    pages = {}
    for path in sorted(glob.glob(os.path.join(CORPUS, "**", "*"), recursive=True)):
        if os.path.isfile(path):
            pages[os.path.relpath(path, CORPUS).replace(os.sep, "/")] = path
    return pages


# -------------------------------------------------------------------- check --

def main():
    errors = []
    warnings = []

    def err(msg):
        errors.append(msg)

    if not os.path.isdir(CORPUS):
        print("FAIL: corpus/ folder missing")
        return 1
    paths = load_corpus()
    others = [n for n in paths if not n.endswith(".html")]
    for n in others:
        err("corpus contains a file that is not HTML: %s" % n)
    total_bytes = sum(os.path.getsize(p) for p in paths.values())

    # corpus manifest (byte-for-byte copies of the upstream pages)
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

    pages = {name: Page(path) for name, path in paths.items()
             if name.endswith(".html")}

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
    phrase_unique = 0          # occurs in exactly one corpus page
    phrase_unique_once = 0     # ... and only once in that page
    short_cell_phrases = 0
    answer_in_evidence = 0
    report_rows = []
    gaps = []

    for q in questions:
        where = "line %d" % q["_line"]
        required = ("id", "question", "answers", "evidence", "sources", "kind")
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
            err("%s: id must look like libsoup-NNN" % where)
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
            if s not in pages:
                err("%s: source %s not found in corpus/" % (where, s))
            elif generated(s):
                err("%s: source %s is an index gtk-doc generates from the "
                    "pages; name a page" % (where, s))
        evidence = q["evidence"]
        if (not isinstance(evidence, list) or not evidence or
                not all(isinstance(e, str) and e.strip() for e in evidence)):
            err("%s: evidence must be a non-empty list of strings" % where)
            continue
        if len(evidence) < MIN_EVIDENCE[kind]:
            err("%s: kind %s needs at least %d evidence phrases"
                % (where, kind, MIN_EVIDENCE[kind]))
        if kind == "multi_hop" and len(set(sources)) < 2:
            err("%s: multi_hop needs at least two sources" % where)

        long_enough = 0
        matched_sources = set()
        positions = {}           # source -> list of first-hit positions
        for ev in evidence:
            phrase_total += 1
            norm = normalize(ev)
            nwords = len(norm.split())
            hit_sources = []
            whole_element = False
            for s in sources:
                page = pages.get(s)
                if page is None:
                    continue
                hits = page.find(norm)
                if hits:
                    hit_sources.append(s)
                    positions.setdefault(s, []).append(hits[0])
                    if norm in page.block_set:
                        whole_element = True
            if not hit_sources:
                err("%s: evidence not found (within one text element) in "
                    "any of its sources: %r" % (where, ev))
            matched_sources.update(hit_sources)
            if nwords > MAX_WORDS:
                err("%s: evidence has %d words (max %d): %r"
                    % (where, nwords, MAX_WORDS, ev))
            elif nwords < MIN_WORDS:
                if whole_element:
                    short_cell_phrases += 1
                else:
                    err("%s: evidence has %d words (min %d, unless it is a "
                        "whole text element such as a table cell): %r"
                        % (where, nwords, MIN_WORDS, ev))
            else:
                long_enough += 1
            # corpus-wide uniqueness
            docs = [n for n, p in pages.items()
                    if not generated(n) and p.find(norm)]
            if len(docs) == 1:
                phrase_unique += 1
                if len(pages[docs[0]].find(norm)) == 1:
                    phrase_unique_once += 1
            report_rows.append((qid, kind, nwords, len(docs), ev))
        if long_enough == 0:
            err("%s: needs at least one evidence phrase of %d-%d words"
                % (where, MIN_WORDS, MAX_WORDS))
        for s in sources:
            if s in pages and s not in matched_sources:
                err("%s: source %s is not supported by any evidence phrase"
                    % (where, s))
        if kind == "continuation":
            best = 0
            for s, pos in positions.items():
                if len(pos) >= 2:
                    best = max(best, max(pos) - min(pos))
            gaps.append((qid, best))
            if best < CONTINUATION_MIN_GAP:
                err("%s: continuation evidence must lie >= %d characters "
                    "apart in one source (largest gap %d)"
                    % (where, CONTINUATION_MIN_GAP, best))
        ev_text = " ".join(normalize(e) for e in evidence)
        if any(normalize(a) in ev_text for a in answers):
            answer_in_evidence += 1

    # ---- report
    print("corpus: %d pages, %d bytes (%.2f MB)"
          % (len(paths), total_bytes, total_bytes / 1e6))
    print("questions: %d" % len(questions))
    for k in KINDS:
        print("  %-13s %d" % (k, per_kind[k]))
    print("evidence phrases: %d" % phrase_total)
    print("  unique across corpus (found in exactly one page): %d" %
          phrase_unique)
    print("  ... and occurring exactly once in that page:      %d" %
          phrase_unique_once)
    print("  short whole-element phrases (<%d words, e.g. table cells): %d"
          % (MIN_WORDS, short_cell_phrases))
    print("questions with an answer string verbatim in their evidence: "
          "%d/%d" % (answer_in_evidence, len(questions)))
    if "-v" in sys.argv[1:]:
        print("\nid           kind          words pages  phrase")
        for qid, kind, nwords, ndocs, ev in report_rows:
            print("%-12s %-13s %5d %5d  %s" % (qid, kind, nwords, ndocs,
                                              ev[:70]))
        print("\ncontinuation gaps (characters of normalized page text):")
        for qid, gap in gaps:
            print("  %s %d" % (qid, gap))
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
