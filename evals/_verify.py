"""The checks every HTML evaluation set in evals/ runs: each set's verify.py passes its own rules to main().

Python 3 standard library only, and no clew import: a set stays checkable without clew installed.

The text extractor and the normalizer defined here are the REFERENCE
definition of evidence matching for each set's questions.jsonl (see its README.md):

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

What differs between the sets (SetRules): the id pattern, the files of corpus/
that are not pages (kept as published, never read), the files that are pages
but never a source (a not-found page, an all-in-one page, generated indexes),
and which files are read as pages.  The bootstrap-docs (Markdown) and pdf-docs
(PDF) sets read other formats and keep scripts of their own.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import re
import sys
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Callable, Optional

KINDS = ("table", "continuation", "section", "multi_hop", "exact_term")
MIN_WORDS, MAX_WORDS = 6, 25
CONTINUATION_MIN_GAP = 2000  # characters of normalized page text
MIN_EVIDENCE = {"table": 2, "continuation": 2, "section": 2,
                "multi_hop": 2, "exact_term": 1}
FIELDS = ("id", "question", "answers", "evidence", "sources", "kind")


def _never(name: str) -> Optional[str]:
    return None


def _no_file(name: str) -> bool:
    return False


@dataclass(frozen=True)
class SetRules:
    """One set's own rules; everything else is shared."""

    id_prefix: str
    """Question ids look like PREFIX-NNN."""
    not_a_source: Callable[[str], Optional[str]] = _never
    """Why a page may not be a source (it is then also left out of the "unique
    across corpus" counts), or None for a page that may be one."""
    kept_file: Callable[[str], bool] = _no_file
    """A file of corpus/ that is not HTML but is kept as published."""
    other_file_message: str = "corpus contains a non-HTML file: %s"
    """The error for any other file that is not HTML."""
    page_suffixes: tuple[str, ...] = (".html",)
    """The files read as pages."""


# ---------------------------------------------------------------- extractor --

INLINE_TAGS = frozenset({
    "a", "abbr", "b", "big", "cite", "code", "em", "font", "i", "img", "kbd",
    "nobr", "q", "s", "samp", "small", "span", "strike", "strong", "sub",
    "sup", "tt", "u", "var", "variable",
})
SKIP_TAGS = frozenset({"script", "style"})


class _Extractor(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)  # decodes &amp; &#8217; ...
        self.blocks: list[str] = []
        self._cur: list[str] = []
        self._skip = 0

    def _flush(self) -> None:
        if self._cur:
            text = "".join(self._cur)
            if text.strip():
                self.blocks.append(text)
            self._cur = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, Optional[str]]]) -> None:
        if tag in SKIP_TAGS:
            self._skip += 1
        elif tag not in INLINE_TAGS:
            self._flush()

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, Optional[str]]]) -> None:
        if tag not in INLINE_TAGS and tag not in SKIP_TAGS:
            self._flush()

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIP_TAGS:
            self._skip = max(0, self._skip - 1)
        elif tag not in INLINE_TAGS:
            self._flush()

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self._cur.append(data)

    def close(self) -> None:
        super().close()
        self._flush()


def extract_blocks(raw_html: str) -> list[str]:
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


def normalize(text: str) -> str:
    """casefold, curly quotes -> straight quotes, collapse whitespace."""
    return _WS.sub(" ", text.casefold().translate(_QUOTES)).strip()


# ------------------------------------------------------------------- corpus --

class Page:
    def __init__(self, path: str, name: str) -> None:
        with open(path, encoding="utf-8") as fh:
            raw = fh.read()
        self.name = name
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

    def find(self, phrase_norm: str) -> list[int]:
        """Positions (in page text) of every in-element occurrence."""
        hits = []
        for off, block in zip(self.offsets, self.blocks):
            start = block.find(phrase_norm)
            while start != -1:
                hits.append(off + start)
                start = block.find(phrase_norm, start + 1)
        return hits


def load_corpus(corpus: str) -> dict[str, str]:
    """Every file under corpus/, by its path relative to corpus/ ('/' separated)."""
    pages = {}
    for path in sorted(glob.glob(os.path.join(corpus, "**", "*"), recursive=True)):
        if os.path.isfile(path):
            pages[os.path.relpath(path, corpus).replace(os.sep, "/")] = path
    return pages


def check_manifest(manifest: str, paths: dict[str, str], err: Callable[[str], None]) -> bool:
    """Compare corpus/ with corpus.sha256 (byte-for-byte copies of the upstream pages); False when it is missing."""
    if not os.path.exists(manifest):
        return False
    listed = {}
    with open(manifest, encoding="utf-8") as fh:
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
    return True


def read_questions(path: str, err: Callable[[str], None]) -> list[dict]:
    questions = []
    with open(path, encoding="utf-8") as fh:
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
    return questions


# -------------------------------------------------------------------- check --

@dataclass
class Tally:
    """What the report counts across questions."""

    per_kind: dict[str, int]
    phrase_total: int = 0
    phrase_unique: int = 0          # occurs in exactly one corpus page
    phrase_unique_once: int = 0     # ... and only once in that page
    short_cell_phrases: int = 0
    answer_in_evidence: int = 0

    def __post_init__(self) -> None:
        self.report_rows: list[tuple[str, str, int, int, str]] = []
        self.gaps: list[tuple[str, int]] = []


def check_question(q: dict, pages: dict[str, Page], rules: SetRules, seen_ids: set,
                   tally: Tally, err: Callable[[str], None]) -> None:
    where = "line %d" % q["_line"]
    missing = [k for k in FIELDS if k not in q]
    if missing:
        err("%s: missing field(s) %s" % (where, ", ".join(missing)))
        return
    extra = [k for k in q if k not in FIELDS and k != "_line"]
    if extra:
        err("%s: unexpected field(s) %s" % (where, ", ".join(extra)))
    qid = q["id"]
    where = "%s (%s)" % (qid, where)
    if not isinstance(qid, str) or not re.match(r"^%s-\d{3}$" % re.escape(rules.id_prefix), qid):
        err("%s: id must look like %s-NNN" % (where, rules.id_prefix))
    if qid in seen_ids:
        err("%s: duplicate id" % where)
    seen_ids.add(qid)
    kind = q["kind"]
    if kind not in KINDS:
        err("%s: invalid kind %r" % (where, kind))
        return
    tally.per_kind[kind] += 1
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
        return
    if len(set(sources)) != len(sources):
        err("%s: duplicate entries in sources" % where)
    for s in sources:
        reason = rules.not_a_source(s)
        if s not in pages:
            err("%s: source %s not found in corpus/" % (where, s))
        elif reason is not None:
            err("%s: %s" % (where, reason))
    evidence = q["evidence"]
    if (not isinstance(evidence, list) or not evidence or
            not all(isinstance(e, str) and e.strip() for e in evidence)):
        err("%s: evidence must be a non-empty list of strings" % where)
        return
    if len(evidence) < MIN_EVIDENCE[kind]:
        err("%s: kind %s needs at least %d evidence phrases"
            % (where, kind, MIN_EVIDENCE[kind]))
    if kind == "multi_hop" and len(set(sources)) < 2:
        err("%s: multi_hop needs at least two sources" % where)

    long_enough = 0
    matched_sources: set[str] = set()
    positions: dict[str, list[int]] = {}  # source -> list of first-hit positions
    for ev in evidence:
        tally.phrase_total += 1
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
                tally.short_cell_phrases += 1
            else:
                err("%s: evidence has %d words (min %d, unless it is a "
                    "whole text element such as a table cell): %r"
                    % (where, nwords, MIN_WORDS, ev))
        else:
            long_enough += 1
        # corpus-wide uniqueness
        docs = [n for n, p in pages.items()
                if rules.not_a_source(n) is None and p.find(norm)]
        if len(docs) == 1:
            tally.phrase_unique += 1
            if len(pages[docs[0]].find(norm)) == 1:
                tally.phrase_unique_once += 1
        tally.report_rows.append((qid, kind, nwords, len(docs), ev))
    if long_enough == 0:
        err("%s: needs at least one evidence phrase of %d-%d words"
            % (where, MIN_WORDS, MAX_WORDS))
    for s in sources:
        if s in pages and s not in matched_sources:
            err("%s: source %s is not supported by any evidence phrase"
                % (where, s))
    if kind == "continuation":
        best = 0
        for pos in positions.values():
            if len(pos) >= 2:
                best = max(best, max(pos) - min(pos))
        tally.gaps.append((qid, best))
        if best < CONTINUATION_MIN_GAP:
            err("%s: continuation evidence must lie >= %d characters "
                "apart in one source (largest gap %d)"
                % (where, CONTINUATION_MIN_GAP, best))
    ev_text = " ".join(normalize(e) for e in evidence)
    if any(normalize(a) in ev_text for a in answers):
        tally.answer_in_evidence += 1


def report(paths: dict[str, str], total_bytes: int, questions: list[dict], tally: Tally) -> None:
    print("corpus: %d pages, %d bytes (%.2f MB)"
          % (len(paths), total_bytes, total_bytes / 1e6))
    print("questions: %d" % len(questions))
    for k in KINDS:
        print("  %-13s %d" % (k, tally.per_kind[k]))
    print("evidence phrases: %d" % tally.phrase_total)
    print("  unique across corpus (found in exactly one page): %d" %
          tally.phrase_unique)
    print("  ... and occurring exactly once in that page:      %d" %
          tally.phrase_unique_once)
    print("  short whole-element phrases (<%d words, e.g. table cells): %d"
          % (MIN_WORDS, tally.short_cell_phrases))
    print("questions with an answer string verbatim in their evidence: "
          "%d/%d" % (tally.answer_in_evidence, len(questions)))
    if "-v" in sys.argv[1:]:
        print("\nid           kind          words pages  phrase")
        for qid, kind, nwords, ndocs, ev in tally.report_rows:
            print("%-12s %-13s %5d %5d  %s" % (qid, kind, nwords, ndocs,
                                              ev[:70]))
        print("\ncontinuation gaps (characters of normalized page text):")
        for qid, gap in tally.gaps:
            print("  %s %d" % (qid, gap))


def main(here: str, rules: SetRules) -> int:
    """Check the set in folder `here`; print the report; 0 when every check passes, 1 otherwise."""
    corpus = os.path.join(here, "corpus")
    errors: list[str] = []
    warnings = []
    err = errors.append

    if not os.path.isdir(corpus):
        print("FAIL: corpus/ folder missing")
        return 1
    paths = load_corpus(corpus)
    for n in paths:
        if not n.endswith(".html") and not rules.kept_file(n):
            err(rules.other_file_message % n)
    total_bytes = sum(os.path.getsize(p) for p in paths.values())
    if not check_manifest(os.path.join(here, "corpus.sha256"), paths, err):
        warnings.append("corpus.sha256 not found; byte-identity not checked")

    pages = {name: Page(path, name) for name, path in paths.items()
             if name.endswith(rules.page_suffixes)}
    questions = read_questions(os.path.join(here, "questions.jsonl"), err)
    tally = Tally(per_kind={k: 0 for k in KINDS})
    seen_ids: set[str] = set()
    for q in questions:
        check_question(q, pages, rules, seen_ids, tally, err)

    report(paths, total_bytes, questions, tally)
    for w in warnings:
        print("WARNING: %s" % w)
    if errors:
        print("\nFAILED: %d problem(s)" % len(errors))
        for e in errors:
            print("  - %s" % e)
        return 1
    print("\nOK")
    return 0
