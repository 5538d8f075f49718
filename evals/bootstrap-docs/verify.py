#!/usr/bin/env python3
"""Verify the bootstrap-docs evaluation set (Markdown with raw HTML tables).

Run from this folder:  python3 verify.py   (Python 3 standard library only)
                       python3 verify.py -v   (one line per phrase, gaps, links)

This file and elements.py (the page model it reads pages with) are the
REFERENCE definition of evidence matching for questions.jsonl (see README.md):

  * extract(path) is the text of a page: its Markdown source, read as UTF-8
    with CRLF/CR turned into LF.  Nothing is rendered or stripped.  This is
    the text a retrieval system that keeps the source hands back, and the
    text that anchors/common.py scores against.
  * normalize(s) casefolds, replaces curly quotes with straight ones and
    collapses every run of whitespace (Python regex \\s, NBSP included) to
    one space, then strips.
  * A phrase MATCHES a page, or a retrieved passage, when normalize(phrase)
    is a substring of normalize(text).

For the rule "a phrase lies inside one text element" the checker splits a
page into innermost elements with a small Markdown block parser (parse()):
front-matter lines, headings, paragraphs, list-item paragraphs, block-quote
paragraphs, fenced code blocks and pipe-table cells, and (the one extension
of npm-docs' script) the innermost text elements of raw HTML blocks: each
<td>/<th> cell, <li>/<dt>/<dd> item, <pre> block and each run of text between
block-level tags is one element (html_elements()); a line holding only a Hugo
shortcode ({{< example >}}, {{< /callout >}}) ends a block, and Markdown links
to {{< docsref "/folder/page" >}} resolve to corpus/folder/page.md.  A phrase must lie
inside one body element (front matter does not count: many ingesters keep
it as metadata) both in the element's source text and in its rendered text
(render_inline(): code spans, links, emphasis, HTML tags and backslash
escapes removed), i.e. it contains no inline markup and reads the same
whether a system keeps the Markdown source or renders it.  Elements carry
their heading path (page title from the front matter, then the rendered
headings above them); "one section" means a common heading path of at
least the title plus one heading.

Exit status is non-zero if any check fails.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys

from elements import Page, link_targets, normalize  # the page model (elements.py)

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")
QUESTIONS = os.path.join(HERE, "questions.jsonl")
MANIFEST = os.path.join(HERE, "corpus_manifest.tsv")

KINDS = ("table", "continuation", "section", "multi_hop", "exact_term")
EXPECTED = {"table": 8, "continuation": 8, "section": 8, "multi_hop": 8,
            "exact_term": 8}
FIELDS = ("id", "question", "answers", "evidence", "sources", "kind")
MIN_WORDS, MAX_WORDS = 6, 25
MAX_PHRASES = 3
CONTINUATION_MIN_GAP = 2000   # characters of normalized page text
MAX_SHARED_NGRAM = 3          # question vs. its own evidence, in words
# a table question needs a phrase in a pipe-table cell, or (where the corpus
# has no table for the topic) in an item of a definition-like list
TABLE_ELEMENTS = ("cell", "item")
MIN_EVIDENCE = {"table": 2, "continuation": 2, "section": 2,
                "multi_hop": 2, "exact_term": 1}
ID_RE = re.compile(r"^bs-\d{3}$")
# the corpus copy has package registries' website hosts replaced by these
# placeholders (README.md); no question may depend on them
PLACEHOLDER_HOSTS = ("npm-site.example", "yarn-site.example",
                     "gems-site.example", "nuget-site.example")


def load_corpus() -> dict[str, str]:
    pages = {}
    for root, _dirs, files in os.walk(CORPUS):
        for f in files:
            p = os.path.join(root, f)
            pages[os.path.relpath(p, CORPUS).replace(os.sep, "/")] = p
    return dict(sorted(pages.items()))


def words(s: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", normalize(s))


def longest_shared_ngram(a: str, b: str) -> int:
    wa, wb = words(a), words(b)
    best = 0
    grams = set()
    for n in range(1, len(wa) + 1):
        grams = {tuple(wa[k:k + n]) for k in range(len(wa) - n + 1)}
        if any(tuple(wb[k:k + n]) in grams for k in range(len(wb) - n + 1)):
            best = n
        else:
            break
    return best


# -------------------------------------------------------------------- check --

def main() -> int:
    verbose = "-v" in sys.argv[1:]
    errors, warnings = [], []
    err = errors.append

    if not os.path.isdir(CORPUS):
        print("FAIL: corpus/ folder missing")
        return 1
    paths = load_corpus()
    for n in paths:
        if not n.endswith(".md"):
            err("corpus contains a non-Markdown file: %s" % n)
    total_bytes = sum(os.path.getsize(p) for p in paths.values())

    # manifest: path, bytes, sha256 of every corpus file
    if not os.path.exists(MANIFEST):
        err("corpus_manifest.tsv missing")
    else:
        listed = {}
        with open(MANIFEST, encoding="utf-8") as fh:
            for k, line in enumerate(fh):
                line = line.rstrip("\n")
                if not line or (k == 0 and line.startswith("path\t")):
                    continue
                rel, size, digest = line.split("\t")
                listed[rel] = (int(size), digest)
        for rel in sorted(set(listed) | set(paths)):
            if rel not in paths:
                err("manifest lists %s but it is not in corpus/" % rel)
            elif rel not in listed:
                err("corpus/%s is not listed in corpus_manifest.tsv" % rel)
            else:
                with open(paths[rel], "rb") as fh:
                    data = fh.read()
                if (len(data), hashlib.sha256(data).hexdigest()) != listed[rel]:
                    err("corpus/%s does not match corpus_manifest.tsv" % rel)

    pages = {rel: Page(rel, p) for rel, p in paths.items() if rel.endswith(".md")}
    names = set(pages)
    links = {rel: link_targets(rel, pg.text, names) for rel, pg in pages.items()}

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

    seen = set()
    per_kind = {k: 0 for k in KINDS}
    n_phr = n_unique = n_once = n_short = 0
    rows, gaps, hops, overlaps = [], [], [], []

    for q in questions:
        where = "line %d" % q["_line"]
        missing = [k for k in FIELDS if k not in q]
        if missing:
            err("%s: missing field(s) %s" % (where, ", ".join(missing)))
            continue
        extra = [k for k in q if k not in FIELDS and k != "_line"]
        if extra:
            err("%s: unexpected field(s) %s" % (where, ", ".join(extra)))
        qid = q["id"]
        where = "%s (%s)" % (qid, where)
        if not isinstance(qid, str) or not ID_RE.match(qid):
            err("%s: id must look like bs-NNN" % where)
        if qid in seen:
            err("%s: duplicate id" % where)
        seen.add(qid)
        kind = q["kind"]
        if kind not in KINDS:
            err("%s: invalid kind %r" % (where, kind))
            continue
        per_kind[kind] += 1
        blob = json.dumps([q.get("question"), q.get("answers"),
                           q.get("evidence")]).casefold()
        for host in PLACEHOLDER_HOSTS:
            if host in blob:
                err("%s: question depends on the placeholder host %s"
                    % (where, host))
        question = q["question"]
        if not isinstance(question, str) or not question.strip():
            err("%s: empty question" % where)
            question = ""
        answers = q["answers"]
        if (not isinstance(answers, list) or not answers or
                not all(isinstance(a, str) and a.strip() for a in answers)):
            err("%s: answers must be a non-empty list of strings" % where)
        sources = q["sources"]
        if (not isinstance(sources, list) or not sources or
                not all(isinstance(s, str) for s in sources)):
            err("%s: sources must be a non-empty list of paths" % where)
            continue
        if len(set(sources)) != len(sources):
            err("%s: duplicate entries in sources" % where)
        for s in sources:
            if s not in pages:
                err("%s: source %s not found in corpus/" % (where, s))
        evidence = q["evidence"]
        if (not isinstance(evidence, list) or not evidence or
                not all(isinstance(e, str) and e.strip() for e in evidence)):
            err("%s: evidence must be a non-empty list of strings" % where)
            continue
        if not MIN_EVIDENCE[kind] <= len(evidence) <= MAX_PHRASES:
            err("%s: kind %s needs %d-%d evidence phrases"
                % (where, kind, MIN_EVIDENCE[kind], MAX_PHRASES))

        long_enough = 0
        matched = {}            # source -> [(phrase idx, element idx, pos)]
        only_here = {}          # source -> phrase found on that page only
        for pi, ev in enumerate(evidence):
            n_phr += 1
            norm = normalize(ev)
            nw = len(norm.split())
            whole = False
            hit_any = False
            for s in sources:
                pg = pages.get(s)
                if pg is None:
                    continue
                ks = pg.elements_with(norm)
                if ks:
                    hit_any = True
                    matched.setdefault(s, []).append(
                        (pi, ks[0], pg.position(ks[0], norm)))
                    whole = whole or pg.whole_element(norm)
                elif norm in pg.norm:
                    err("%s: phrase crosses elements or contains markup in "
                        "%s: %r" % (where, s, ev))
            if not hit_any:
                err("%s: evidence not found inside one element of its "
                    "sources: %r" % (where, ev))
            if nw > MAX_WORDS:
                err("%s: evidence has %d words (max %d): %r"
                    % (where, nw, MAX_WORDS, ev))
            elif nw < MIN_WORDS:
                if whole:
                    n_short += 1
                else:
                    err("%s: evidence has %d words (min %d unless it is a "
                        "whole element such as a table cell): %r"
                        % (where, nw, MIN_WORDS, ev))
            else:
                long_enough += 1
            docs = [r for r, pg in pages.items() if norm in pg.norm]
            if len(docs) == 1:
                n_unique += 1
                only_here.setdefault(docs[0], True)
                if pages[docs[0]].norm.count(norm) == 1:
                    n_once += 1
            if norm in normalize(question):
                err("%s: the question contains its evidence verbatim: %r"
                    % (where, ev))
            sh = longest_shared_ngram(question, ev)
            overlaps.append((sh, qid, ev))
            if sh > MAX_SHARED_NGRAM:
                err("%s: question shares %d consecutive words with %r"
                    % (where, sh, ev))
            rows.append((qid, kind, nw, len(docs), ev))
        if long_enough == 0:
            err("%s: needs at least one evidence phrase of %d-%d words"
                % (where, MIN_WORDS, MAX_WORDS))
        for s in sources:
            if s in pages and s not in matched:
                err("%s: source %s is not supported by any evidence phrase"
                    % (where, s))

        if kind == "multi_hop":
            if len(set(sources)) < 2:
                err("%s: multi_hop needs at least two sources" % where)
            linked = any(b in links.get(a, ()) for a in sources for b in sources)
            hops.append((qid, sources, linked))
            if not linked:
                err("%s: no link between the multi_hop sources" % where)
            for s in sources:
                if s in pages and not only_here.get(s):
                    err("%s: multi_hop source %s has no phrase found on that "
                        "page only" % (where, s))
        if kind in ("continuation", "section", "table"):
            best_src = max(matched, key=lambda s: len(matched[s]), default=None)
            if best_src is None or len(matched[best_src]) < 2:
                err("%s: %s needs at least two phrases on one page"
                    % (where, kind))
            else:
                pg = pages[best_src]
                # every element that holds each phrase; the first phrase's
                # first element anchors the section, the others take their
                # candidate closest to it in the heading tree
                cands = [pg.elements_with(normalize(evidence[pi]))
                         for pi, _k, _p in matched[best_src]]
                anchor = pg.elements[cands[0][0]].path
                chosen = [cands[0][0]]
                for ks in cands[1:]:
                    chosen.append(max(ks, key=lambda k: len(
                        os.path.commonprefix([anchor, pg.elements[k].path]))))
                common = os.path.commonprefix(
                    [pg.elements[k].path for k in chosen])
                if len(common) < 2:   # (title, first heading below it, ...)
                    err("%s: %s phrases are not in one section of %s"
                        % (where, kind, best_src))
                if kind == "table" and not any(
                        pg.elements[k].kind in TABLE_ELEMENTS for k in chosen):
                    err("%s: table question without a phrase in a table "
                        "cell or definition-list item" % where)
                if kind == "continuation":
                    pos = [p for _pi, _k, p in matched[best_src]]
                    gap = max(pos) - min(pos)
                    gaps.append((qid, best_src, gap))
                    if gap < CONTINUATION_MIN_GAP:
                        err("%s: continuation phrases are %d characters "
                            "apart (min %d)" % (where, gap,
                                                CONTINUATION_MIN_GAP))

    for k in KINDS:
        if per_kind[k] != EXPECTED[k]:
            err("kind %s has %d questions, expected %d"
                % (k, per_kind[k], EXPECTED[k]))

    print("corpus: %d pages, %d bytes (%.2f MB)"
          % (len(paths), total_bytes, total_bytes / 1e6))
    print("questions: %d" % len(questions))
    for k in KINDS:
        print("  %-13s %d" % (k, per_kind[k]))
    print("evidence phrases: %d" % n_phr)
    print("  found on exactly one corpus page: %d" % n_unique)
    print("  ... and exactly once on that page: %d" % n_once)
    print("  short whole-element phrases (<%d words): %d" % (MIN_WORDS, n_short))
    if overlaps:
        print("longest question/evidence shared word n-gram: %d"
              % max(o[0] for o in overlaps))
    if verbose:
        print("\nid       kind          words pages  phrase")
        for qid, kind, nw, nd, ev in rows:
            print("%-8s %-13s %5d %5d  %s" % (qid, kind, nw, nd, ev[:72]))
        print("\ncontinuation gaps (characters of normalized page text):")
        for qid, src, gap in gaps:
            print("  %s %-40s %d" % (qid, src, gap))
        print("\nmulti_hop sources (linked?):")
        for qid, srcs, linked in hops:
            print("  %s %s %s" % (qid, " + ".join(srcs), linked))
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
