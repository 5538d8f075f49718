#!/usr/bin/env python3
"""Verify the bootstrap-docs evaluation set (Markdown with raw HTML tables).

Run from this folder:  python3 verify.py   (Python 3 standard library only)
                       python3 verify.py -v   (one line per phrase, gaps, links)

This file is the REFERENCE definition of evidence matching for
questions.jsonl (see README.md):

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

import hashlib
import html
import json
import os
import re
import sys

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

# ------------------------------------------------------------ normalization --

_QUOTES = str.maketrans({
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"',
})
_WS = re.compile(r"\s+")


def normalize(text):
    """casefold, curly quotes -> straight quotes, collapse whitespace."""
    return _WS.sub(" ", text.casefold().translate(_QUOTES)).strip()


def extract(path):
    """The page text used for matching: the Markdown source, LF line ends."""
    with open(path, encoding="utf-8") as fh:
        raw = fh.read()
    return raw.replace("\r\n", "\n").replace("\r", "\n")


# ------------------------------------------------------------ block parser --

_FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})(.*)$")
_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
_HRULE = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_ITEM = re.compile(r"^\s*(?:[*+-]|\d{1,9}[.)])(?:[ \t]+(.*)|[ \t]*)$")
_QUOTE = re.compile(r"^\s*>[ ]?(.*)$")
_DELIM = re.compile(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")


class Element:
    """One innermost text element of a page."""
    __slots__ = ("kind", "text", "line", "path", "html")

    def __init__(self, kind, text, line, path, html=False):
        self.kind = kind      # front, heading, para, item, quote, code, cell
        self.text = text      # source text of the element
        self.line = line      # 1-based line where it starts
        self.path = path      # heading path: (title, h?, ...) rendered text
        self.html = html      # True: from a raw HTML block

    def rendered(self):
        if self.html:
            return render_html(self.text)
        if self.kind == "code":
            return self.text
        return render_inline(self.text)


# ------------------------------------------------------- raw HTML blocks --
# CommonMark HTML blocks: type 2 (comment), type 6 (a block-level tag opens
# the line; ends at a blank line) and type 7 (a lone complete tag on its line;
# cannot interrupt a paragraph; ends at a blank line).

_BLOCK_TAGS = frozenset("""address article aside base basefont blockquote body
caption center col colgroup dd details dialog dir div dl dt fieldset
figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header
hr html iframe legend li link main menu menuitem nav noframes ol optgroup
option p param section source summary table tbody td tfoot th thead title tr
track ul pre script style textarea""".split())
_HTML6 = re.compile(r"^ {0,3}</?([A-Za-z][A-Za-z0-9-]*)(?:[\s/>]|$)")
_HTML7 = re.compile(r"^ {0,3}(?:<[A-Za-z][A-Za-z0-9-]*(?:\s+[^<>]*)?/?>|"
                    r"</[A-Za-z][A-Za-z0-9-]*\s*>)\s*$")
_SHORTCODE_LINE = re.compile(r"^\s*\{\{[<%].*[>%]\}\}\s*$")
# a tag; an attribute value may hold a Hugo shortcode (href="{{< docsref ... >}}")
_HTML_TOKEN = re.compile(r"<!--.*?-->|</?([A-Za-z][A-Za-z0-9-]*)"
                         r"(?:\s(?:\{\{[<%].*?[>%]\}\}|[^<>])*)?/?>", re.S)
_ELEMENT_KIND = {"td": "cell", "th": "cell", "li": "item", "dt": "item",
                 "dd": "item", "pre": "code"}


def html_block_start(line, in_para):
    """True when `line` opens a raw HTML block."""
    if line.lstrip().startswith("<!--"):
        return True
    m = _HTML6.match(line)
    if m and m.group(1).lower() in _BLOCK_TAGS:
        return True
    return not in_para and bool(_HTML7.match(line))


def html_elements(block, first_line, path):
    """Innermost text elements of one raw HTML block: every run of text and
    inline tags between two block-level tags; its kind comes from the
    innermost open block tag (td/th -> cell, li/dt/dd -> item, pre -> code)."""
    out, stack = [], []
    start = [0]

    def flush(end):
        text = block[start[0]:end]
        if render_html(text).strip():
            kind = next((_ELEMENT_KIND[t] for t in reversed(stack)
                         if t in _ELEMENT_KIND), "para")
            lead = len(text) - len(text.lstrip())
            line = first_line + block.count("\n", 0, start[0] + lead)
            out.append(Element(kind, text.strip(), line, path, html=True))

    for m in _HTML_TOKEN.finditer(block):
        name = (m.group(1) or "").lower()
        if m.group(0).startswith("<!--"):
            flush(m.start())
            start[0] = m.end()
        elif name in _BLOCK_TAGS:
            flush(m.start())
            start[0] = m.end()
            if m.group(0).startswith("</"):
                if name in stack:
                    while stack.pop() != name:
                        pass
            elif not m.group(0).endswith("/>") and name not in ("hr", "col"):
                stack.append(name)
    flush(len(block))
    return out


def render_html(s):
    """Text of a raw HTML fragment as a browser shows it: <br> is a line
    break, other tags and comments go, character references are decoded."""
    s = re.sub(r"<br\s*/?>", "\n", s, flags=re.I)
    s = _HTML_TOKEN.sub("", s)
    return html.unescape(s)


def split_cells(row):
    """Cells of a pipe-table row; '|' inside code spans or escaped as \\| does
    not split."""
    s = row.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    cells, cur, tick = [], [], 0
    i = 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s) and s[i + 1] == "|":
            cur.append("\\|")
            i += 2
            continue
        if c == "`":
            j = i
            while j < len(s) and s[j] == "`":
                j += 1
            run = j - i
            if tick == 0:
                tick = run
            elif tick == run:
                tick = 0
            cur.append(s[i:j])
            i = j
            continue
        if c == "|" and tick == 0:
            cells.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    cells.append("".join(cur))
    return [c.strip() for c in cells]


def parse(text):
    """Split Markdown source into innermost elements (list of Element)."""
    lines = text.split("\n")
    out = []
    heads = []                 # [(level, text)]
    title = None
    i = 0
    # YAML front matter: one element per non-blank line
    if lines and lines[0].strip() == "---":
        for j in range(1, len(lines)):
            if lines[j].strip() == "---":
                for k in range(1, j):
                    ln = lines[k]
                    if ln.strip():
                        out.append(Element("front", ln, k + 1, ()))
                        if ln.startswith("title:"):
                            title = ln[len("title:"):].strip()
                i = j + 1
                break

    def hpath():
        p = tuple(h for _lvl, h in heads)
        return ((title,) if title else ()) + p

    cur = {"kind": None, "lines": [], "line": 0}

    def flush():
        if cur["kind"] and any(x.strip() for x in cur["lines"]):
            body = "\n".join(cur["lines"])
            out.append(Element(cur["kind"], body, cur["line"], hpath()))
        cur["kind"], cur["lines"] = None, []

    def start(kind, first, lineno):
        flush()
        cur["kind"], cur["lines"], cur["line"] = kind, [first], lineno

    n = len(lines)
    while i < n:
        line = lines[i]
        s = line.strip()
        if not s:
            flush()
            i += 1
            continue
        if _SHORTCODE_LINE.match(line):
            flush()
            i += 1
            continue
        if html_block_start(line, cur["kind"] == "para"):
            flush()
            j = i
            while j < n and lines[j].strip():
                if lines[j].lstrip().startswith("<!--") and "-->" not in lines[j]:
                    while j < n and "-->" not in lines[j]:
                        j += 1
                j += 1
            out.extend(html_elements("\n".join(lines[i:j]), i + 1, hpath()))
            i = j
            continue
        m = _FENCE.match(line)
        if m:
            flush()
            fence = m.group(2)
            body, j = [], i + 1
            while j < n:
                t = lines[j].strip()
                if t.startswith(fence[0] * len(fence)) and not t.strip(fence[0]):
                    break
                body.append(lines[j])
                j += 1
            if any(b.strip() for b in body):
                out.append(Element("code", "\n".join(body), i + 2, hpath()))
            i = j + 1
            continue
        m = _HEADING.match(line)
        if m:
            flush()
            level, htext = len(m.group(1)), m.group(2)
            while heads and heads[-1][0] >= level:
                heads.pop()
            heads.append((level, normalize(render_inline(htext))))
            out.append(Element("heading", htext, i + 1, hpath()))
            i += 1
            continue
        if _HRULE.match(line):
            flush()
            i += 1
            continue
        if (s.startswith("|") and i + 1 < n and _DELIM.match(lines[i + 1])
                and "-" in lines[i + 1]):
            flush()
            j = i
            while j < n and lines[j].strip().startswith("|"):
                if j != i + 1:          # skip the delimiter row
                    for cell in split_cells(lines[j]):
                        if cell.strip():
                            out.append(Element("cell", cell, j + 1, hpath()))
                j += 1
            i = j
            continue
        m = _QUOTE.match(line)
        if m:
            content = m.group(1)
            if cur["kind"] != "quote":
                start("quote", content, i + 1)
            elif not content.strip():
                flush()
            else:
                cur["lines"].append(content)
            i += 1
            continue
        m = _ITEM.match(line)
        if m:
            start("item", m.group(1) or "", i + 1)
            i += 1
            continue
        if cur["kind"] is None:
            start("para", line, i + 1)
        else:                       # paragraph (lazy) continuation line
            cur["lines"].append(line)
        i += 1
    flush()
    return out


# ---------------------------------------------------------- inline render --

_CODE = re.compile(r"(`+)(.+?)\1", re.S)
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_AUTOLINK = re.compile(r"<((?:https?|mailto):[^>\s]+)>")
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>")
_STRONG = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1", re.S)
_EM_STAR = re.compile(r"\*(?=\S)(.+?)(?<=\S)\*", re.S)
_EM_US = re.compile(r"(?<![A-Za-z0-9])_(?=\S)(.+?)(?<=\S)_(?![A-Za-z0-9])",
                    re.S)
_ESC = re.compile(r"\\([!-/:-@\[-`{-~])")


def _render_plain(s):
    s = _LINK.sub(r"\1", s)
    s = _AUTOLINK.sub(r"\1", s)
    s = _TAG.sub("", s)
    for _ in range(2):
        s = _STRONG.sub(r"\2", s)
    s = _EM_STAR.sub(r"\1", s)
    s = _EM_US.sub(r"\1", s)
    return _ESC.sub(r"\1", s)


_LINK_OUTER = re.compile(r"!?\[((?:[^\[\]`]|`[^`]*`)*)\]\([^)\s]*(?:\s+\"[^\"]*\")?\)")


def render_inline(s):
    """Element text as a renderer would show it (markup removed)."""
    s = _LINK_OUTER.sub(r"\1", s)      # [text](url), text may hold code
    out, pos = [], 0
    for m in _CODE.finditer(s):
        out.append(_render_plain(s[pos:m.start()]))
        out.append(m.group(2).strip() if m.group(2).strip() else m.group(2))
        pos = m.end()
    out.append(_render_plain(s[pos:]))
    return "".join(out)


# ------------------------------------------------------------------ links --

_MDLINK = re.compile(r"\]\(\s*([^)\s]+)")
_DOCSREF = re.compile(r"\]\(\{\{<\s*docsref\s+\"([^\"]+)\"\s*>\}\}")


def link_targets(rel, text, names):
    """Corpus pages (relative paths) that page `rel` links to."""
    found = set()
    base = os.path.dirname(rel)
    for m in list(_MDLINK.finditer(text)) + list(_DOCSREF.finditer(text)):
        url = m.group(1).split("#", 1)[0]
        if not url or re.match(r"^[a-z]+:", url):
            continue
        if url.startswith("/"):
            cand = url.lstrip("/")
        else:
            cand = os.path.normpath(os.path.join(base, url))
        cand = cand.rstrip("/")
        for c in (cand, cand + ".md"):
            if c in names and c != rel:
                found.add(c)
    return found


# ------------------------------------------------------------------- corpus --

class Page:
    def __init__(self, rel, path):
        self.name = rel
        self.text = extract(path)
        self.norm = normalize(self.text)
        self.elements = parse(self.text)
        self.src = [normalize(e.text) for e in self.elements]
        self.ren = [normalize(e.rendered()) for e in self.elements]
        # offset (in normalized page text) of the line each element starts on
        lines = self.text.split("\n")
        starts, acc = [], 0
        for ln in lines:
            starts.append(acc)
            acc += len(ln) + 1
        self._line_start = starts

    def position(self, k, phrase_norm):
        """Position of the phrase inside element k, in normalized page text."""
        e = self.elements[k]
        before = normalize(self.text[:self._line_start[e.line - 1]])
        pos = self.norm.find(phrase_norm, max(0, len(before) - 1))
        return pos if pos >= 0 else self.norm.find(phrase_norm)

    def elements_with(self, phrase_norm):
        """Indices of body elements holding the phrase in source AND rendered
        (front matter is metadata to many ingesters, so it never counts)."""
        return [k for k, (a, b) in enumerate(zip(self.src, self.ren))
                if phrase_norm in a and phrase_norm in b
                and self.elements[k].kind != "front"]

    def whole_element(self, phrase_norm):
        return any(phrase_norm == b for k, b in enumerate(self.ren)
                   if self.elements[k].kind != "front")


def load_corpus():
    pages = {}
    for root, _dirs, files in os.walk(CORPUS):
        for f in files:
            p = os.path.join(root, f)
            pages[os.path.relpath(p, CORPUS).replace(os.sep, "/")] = p
    return dict(sorted(pages.items()))


def words(s):
    return re.findall(r"[a-z0-9]+", normalize(s))


def longest_shared_ngram(a, b):
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

def main():
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
