from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clew.budgets import tokens
from clew.budgets.tokens import count_tokens
from clew.corpus.ingest.chunking import chunk_document, chunk_documents
from clew.corpus.ingest.formats.html import parse_html
from clew.corpus.ingest.formats.markdown import parse_markdown
from clew.corpus.ingest.formats.text import parse_text


def kinds_and_sections(path: Path, merge: bool) -> list[tuple[str, list[str]]]:
    doc = parse_markdown(path.read_text())
    return [(c.kind, [doc.sections[s].heading for s in c.sections]) for c in chunk_document(doc, merge_sections=merge)]


def test_acme_with_merge_sections(acme_path: Path) -> None:
    assert kinds_and_sections(acme_path, merge=True) == [
        ("text", ["Route planning", "Dependencies"]),  # merged sections: the lead-in stays with them
        ("table", ["Dependencies"]),
        ("text", ["Data retention"]),
    ]


def test_acme_default_never_crosses_a_section(acme_path: Path) -> None:
    assert kinds_and_sections(acme_path, merge=False) == [
        ("text", ["Route planning"]),
        ("table", ["Dependencies"]),  # its heading and lead-in open the table's chunk
        ("text", ["Data retention"]),
    ]


def test_long_table_repeats_its_header_and_keeps_offsets() -> None:
    rows = "\n".join(f"| part-{i} | owner {i} | {'does a useful thing ' * 3}|" for i in range(40))
    after = ("After the table, a paragraph long enough to be a passage of its own: over twenty-five tokens, "
             "a small one's limit.")
    source = f"# Parts\n\nIntro.\n\n| Part | Owner | Purpose |\n| --- | --- | --- |\n{rows}\n\n{after}\n"
    doc = parse_markdown(source)
    chunks = chunk_document(doc, chunk_tokens=120)
    tables = [c for c in chunks if c.kind == "table"]
    assert len(tables) > 3
    header = "| Part | Owner | Purpose |\n| --- | --- | --- |"
    # the section's heading and short lead-in open the table's first chunk, the header after them
    assert doc.text[tables[0].start : tables[0].end].startswith("# Parts\n\nIntro.\n\n" + header + "\n| part-0 |")
    assert tables[0].header == "" and tables[0].token_count <= 120
    assert [c.kind for c in chunks[:2]] == ["table", "table"]
    for chunk in tables[1:]:
        assert chunk.header == header
        assert chunk.display_text(doc.text).startswith(header + "\n| part-")
        assert doc.text[chunk.start : chunk.end].startswith("| part-")
        assert chunk.token_count <= 120
    assert chunks[-1].kind == "text"
    assert after in doc.text[chunks[-1].start : chunks[-1].end]


TABLE = ("| Option | Default |\n| --- | --- |\n| backdrop | true |\n| keyboard | true |\n| focus | true |\n"
         "| show | true |\n")  # 30 tokens: not a small passage (under 25) that would join its neighbour


def table_chunks(source: str) -> list[str]:
    doc = parse_markdown(source)
    return [doc.text[c.start : c.end].strip() for c in chunk_document(doc) if c.kind == "table"]


def test_a_short_lead_in_opens_its_table_s_chunk() -> None:
    lead = "## Options\n\nOptions can be passed via data attributes or JavaScript.\n\n"
    assert table_chunks(lead + TABLE) == [(lead + TABLE).strip()]


def test_a_long_lead_in_stays_apart_from_its_table() -> None:
    # the section's opening text is over a fifth of a chunk (44 tokens at 220): its own chunk
    long = "Options can be passed via data attributes or JavaScript, and each one is described here. " * 3
    assert table_chunks(f"## Options\n\n{long}\n\n{TABLE}") == [TABLE.strip()]


def test_a_lead_in_under_another_section_stays_apart() -> None:
    other = f"## Usage\n\nCall it once.\n\n### Options\n\n{TABLE}"  # the table's section opens at its heading
    assert table_chunks(other) == [f"### Options\n\n{TABLE}".strip()]


def test_a_lead_in_further_into_its_section_opens_the_table_s_chunk() -> None:
    # Markdown: a paragraph after the section's first one ("The following table lists ...:")
    first = ("## Options\n\nThe modal takes options when it is created, keeps them until it is disposed, and reads "
             "them again each time.\n\n")  # 25 tokens or more: it stays a passage of its own
    lead = "The following table lists its options:\n\n"
    doc = parse_markdown(first + lead + TABLE)
    chunks = chunk_document(doc)
    assert [(c.kind, doc.text[c.start : c.end].strip()) for c in chunks] == [
        ("text", first.strip()), ("table", (lead + TABLE).strip())]


def test_a_list_item_or_a_long_paragraph_before_a_table_stays_apart() -> None:
    items = ("## Options\n\nSet them:\n\n- in data attributes on the element that opens it\n"
             "- in JavaScript, when it is created\n\n")  # the list's last item
    assert table_chunks(items + TABLE) == [TABLE.strip()]
    long = "Options can be passed via data attributes or JavaScript, and each one is described here. " * 3
    assert table_chunks(f"## Options\n\nThe first paragraph.\n\n{long}\n\n{TABLE}") == [TABLE.strip()]


SPHINX_ENTRY = """<section id="encoders-and-decoders"><h2>Encoders and Decoders</h2>
<dl class="py class">
<dt class="sig sig-object py" id="json.JSONDecoder"><em class="property"><span class="pre">class</span> </em>\
<span class="sig-prename descclassname"><span class="pre">json.</span></span>\
<span class="sig-name descname"><span class="pre">JSONDecoder</span></span><span class="sig-paren">(</span>\
<em class="sig-param"><span class="n"><span class="pre">strict</span></span><span class="o"><span class="pre">=</span>\
</span><span class="default_value"><span class="pre">True</span></span></em><span class="sig-paren">)</span></dt>
<dd><p>Simple JSON decoder.</p>
<p>It decodes a JSON document into Python objects, one value at a time, as it reads them from the string\
 it is given.</p>
<p>Performs the following translations in decoding by default:</p>
<table class="docutils align-default" id="json-to-py-table">
<thead>
<tr class="row-odd"><th class="head"><p>JSON</p></th>
<th class="head"><p>Python</p></th>
</tr>
</thead>
<tbody>
<tr class="row-even"><td><p>object</p></td>
<td><p>dict</p></td>
</tr>
<tr class="row-odd"><td><p>number (real)</p></td>
<td><p>float</p></td>
</tr>
</tbody>
</table>
<p>It also understands <code class="docutils literal notranslate"><span class="pre">NaN</span></code>.</p>
</dd></dl></section>"""

DOCBOOK_SECTION = """<div class="sect2" id="DATATYPE-BINARY-BYTEA-ESCAPE"><div class="titlepage"><div><div>\
<h3 class="title">8.4.2. <code class="type">bytea</code> Escape Format</h3></div></div></div>
<p>The <span class="quote">“escape”</span> format is the traditional <span class="productname">PostgreSQL\
</span> format for the <code class="type">bytea</code> type.</p>
<p>Octets of certain values must be escaped, as shown in <a class="xref" href="#T">Table 8.7</a>:</p>
<div class="table" id="T"><p class="title"><strong>Table 8.7. <code class="type">bytea</code> Literal Escaped\
 Octets</strong></p><div class="table-contents"><table class="table" summary="bytea Literal Escaped Octets" border="1">
<colgroup><col /><col /></colgroup><thead><tr><th>Decimal Octet Value</th><th>Description</th></tr></thead>
<tbody><tr><td>0</td><td>zero octet</td></tr><tr><td>39</td><td>single quote</td></tr></tbody></table></div></div>
</div>"""


@pytest.mark.parametrize(("html", "lead"), [
    (SPHINX_ENTRY, "Performs the following translations in decoding by default:"),  # a class entry's second paragraph
    (DOCBOOK_SECTION, "Octets of certain values must be escaped, as shown in Table 8.7:"),  # before the table's title
])
def test_an_html_table_s_lead_in_opens_its_chunk(html: str, lead: str) -> None:
    doc = parse_html(html)
    table = next(c for c in chunk_document(doc) if c.kind == "table")
    body = doc.text[table.start : table.end]
    assert body.startswith(lead + "\n\n") and body.index(lead) == 0
    before = [doc.text[c.start : c.end] for c in chunk_document(doc) if c.end <= table.start]
    assert before and lead not in "".join(before)  # the text before it keeps its own chunk


DOXYGEN_MEMBER = """<html><head><meta name="generator" content="Doxygen 1.9.4"/>
<title>libxkbcommon: Query for available RMLVO</title></head><body><div class="contents">
<h2 class="groupheader">Function Documentation</h2>
<a id="gab233dc0df5ab81455a0530afe7e943b9" name="gab233dc0df5ab81455a0530afe7e943b9"></a>
<h2 class="memtitle">rxkb_context_new()</h2>
<div class="memitem"><div class="memproto"><table class="memname"><tr>
<td class="memname">struct rxkb_context * rxkb_context_new </td><td>(</td>
<td class="paramtype">enum rxkb_context_flags&#160;</td><td class="paramname"><em>flags</em></td><td>)</td></tr>
</table></div><div class="memdoc">
<p>Create a new xkb registry context. </p>
<p >The context has an initial refcount of 1. Use rxkb_context_unref() to release memory associated with\
 this context.</p>
<p >Creating a context does not parse the files yet, use rxkb_context_parse().</p>
<dl class="params"><dt>Parameters</dt><dd>
  <table class="params">
    <tr><td class="paramname">flags</td><td>Flags affecting context behavior </td></tr>
  </table>
  </dd>
</dl>
<dl class="section return"><dt>Returns</dt><dd>A new xkb registry context or NULL on failure </dd></dl>
</div></div></div></body></html>"""

ASCIIDOC_LABELLED_LIST = """<html><head><meta name="generator" content="Asciidoctor 2.0.20">
<title>git-fetch(1)</title></head>
<body><div class="sect1"><h2 id="_options">OPTIONS</h2><div class="sectionbody">
<div class="paragraph"><p>Options that limit the history fetched from a shallow repository take a number or a date and\
 may be combined with the options of git-pull.</p></div>
<div class="paragraph"><p>The following options are recognized:</p></div>
<div class="hdlist"><table>
<tr><td class="hdlist1">--depth</td><td class="hdlist2"><p>Limit fetching to the given number of commits.</p></td></tr>
<tr><td class="hdlist1">--shallow-since</td><td class="hdlist2"><p>Deepen or shorten the history\
 to include commits after the date.</p></td></tr>
</table></div></div></div></body></html>"""


@pytest.mark.parametrize(("html", "lead", "row"), [
    (DOXYGEN_MEMBER, "Parameters", "| flags | Flags affecting context behavior |"),  # dl.params: no header row
    (ASCIIDOC_LABELLED_LIST, "The following options are recognized:", "| --depth |"),  # div.hdlist: no header row
])
def test_a_lead_in_opens_a_table_without_a_header_row(html: str, lead: str, row: str) -> None:
    doc = parse_html(html)
    bodies = [doc.text[c.start : c.end] for c in chunk_document(doc)]
    assert lead + "\n\n" + row in next(body for body in bodies if row in body)
    assert not any(body.rstrip().endswith(lead) for body in bodies)  # no passage ends with the label


def test_a_small_passage_joins_its_neighbour_of_the_same_section() -> None:
    # the parameter table (10 tokens with its label) and "Returns: ..." (13) join the function's description
    doc = parse_html(DOXYGEN_MEMBER)
    chunks = chunk_document(doc)
    member = next(c for c in chunks if "rxkb_context_new()" in doc.text[c.start : c.end])
    body = doc.text[member.start : member.end]
    assert "Create a new xkb registry context." in body and "Parameters\n\n| flags |" in body
    assert body.rstrip().endswith("Returns: A new xkb registry context or NULL on failure")
    assert member.kind == "table" and member.token_count == count_tokens(body)


def test_a_small_passage_that_does_not_fit_with_its_neighbour_stays_apart() -> None:
    long = "The options are read once, when the widget is created, and kept until it is disposed. " * 11
    doc = parse_markdown(f"## Options\n\n{long}\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n")
    chunks = chunk_document(doc)
    assert [c.kind for c in chunks] == ["text", "table"] and chunks[1].token_count < 25
    assert chunks[0].token_count + chunks[1].token_count > 220


def test_a_headerless_table_s_lead_in_never_travels_without_its_first_row() -> None:
    lead = "## Options\n\nThe following options are recognized:\n\n"
    rows = "".join(f"| --option-{i} | {'what the option does, in words ' * 4}|\n" for i in range(6))
    doc = parse_html("<h2>Options</h2><p>The following options are recognized:</p><table>"
                     + "".join(f"<tr><td>--option-{i}</td><td>{'what the option does, in words ' * 4}</td></tr>"
                               for i in range(6)) + "</table>")
    assert doc.text.startswith(lead + rows.splitlines()[0])
    chunks = chunk_document(doc, chunk_tokens=60)  # the lead-in (9 tokens) and one row (35) fit, two rows do not
    first = doc.text[chunks[0].start : chunks[0].end]
    assert first.startswith(lead + "| --option-0 |") and "--option-1" not in first
    assert all(c.kind == "table" and c.header == "" for c in chunks)
    assert [doc.text[c.start : c.end].startswith("| --option-") for c in chunks[1:]] == [True] * (len(chunks) - 1)


def test_long_paragraph_is_cut_between_words() -> None:
    words = " ".join(f"word{i}" for i in range(600))
    doc = parse_text(words)
    chunks = chunk_document(doc, chunk_tokens=50)
    assert len(chunks) > 5
    for chunk in chunks:
        body = doc.text[chunk.start : chunk.end]
        assert not chunk.oversize
        assert chunk.start == 0 or doc.text[chunk.start - 1].isspace()
        assert body.strip().split()[0].startswith("word")


def test_fenced_code_is_one_flagged_chunk_when_too_long() -> None:
    code = "\n".join(f"line_{i} = compute({i})" for i in range(80))
    doc = parse_markdown(f"# Code\n\nBefore.\n\n```python\n{code}\n```\n\nAfter.\n")
    chunks = chunk_document(doc, chunk_tokens=64)
    flagged = [c for c in chunks if c.oversize]
    assert len(flagged) == 1
    assert doc.text[flagged[0].start : flagged[0].end].startswith("```python")


def test_rejects_tiny_chunk_sizes() -> None:
    with pytest.raises(ValueError, match="chunk_tokens must be at least 16"):
        chunk_document(parse_text("hello"), chunk_tokens=4)


pieces = st.sampled_from(
    [
        "# Title\n\n", "## Section\n\n", "### Deeper\n\n", "Setext\n======\n\n",
        "A short paragraph about routes.\n\n", "- item one\n- item two\n\n", "1. first\n2. second\n\n",
        "```\ncode block\nmore code\n```\n\n", "| a | b |\n| --- | --- |\n| 1 | 2 |\n| 3 | 4 |\n\n",
        "Supercalifragilisticexpialidocious" * 30 + "\n\n", "> quoted text\n\n",
        ("A long sentence that keeps going. " * 25) + "\n\n", "[link](other.md#x) text\n\n",
    ]
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(parts=st.lists(pieces, min_size=1, max_size=25), limit=st.integers(min_value=16, max_value=200),
       merge=st.booleans())
def test_chunks_tile_the_text_and_respect_the_limit(parts: list[str], limit: int, merge: bool) -> None:
    doc = parse_markdown("".join(parts))
    chunks = chunk_document(doc, chunk_tokens=limit, merge_sections=merge)
    assert chunks[0].start == 0
    assert chunks[-1].end == len(doc.text)
    for before, after in zip(chunks, chunks[1:]):
        assert before.end == after.start
    for chunk in chunks:
        assert chunk.start < chunk.end
        assert chunk.token_count == count_tokens(chunk.display_text(doc.text))
        assert chunk.oversize == (chunk.token_count > limit)
        if chunk.oversize:
            # only one indivisible unit may exceed: a code block, a table row, or one huge word
            body = doc.text[chunk.start : chunk.end]
            assert "```" in body or chunk.kind == "table" or "Supercalifragilistic" in body or chunk.header


LIMITS_PAGE = """<html><body><h1>Limits</h1><ul>
<a name="max_length"></a>
<li><p><b>Maximum length of a string or BLOB</b></p>
<p>{long}</p>
<p>The default is one billion bytes.</p></li>
<a name="max_trigger_depth"></a>
<li><p><b>Maximum Depth Of Trigger Recursion</b></p>
<p>SQLite limits the depth of recursion of triggers in order to prevent unbounded memory use.</p>
<p>Recursive triggers were not supported before version 3.6.18; since then they must be enabled
with the recursive_triggers pragma, and every level of recursion keeps its own stack frame.</p>
<p>The default maximum trigger recursion depth is 1000.</p></li>
</ul></body></html>"""


def limits_page() -> tuple[object, list]:
    from clew.corpus.ingest.formats.html import parse_html

    doc = parse_html(
        LIMITS_PAGE.format(long="Strings and BLOBs are limited in length so that nothing overflows. " * 10)
    )
    return doc, chunk_document(doc, chunk_tokens=220)


def test_a_list_items_title_travels_with_its_text() -> None:
    doc, chunks = limits_page()
    texts = [doc.text[c.start : c.end] for c in chunks]
    holding_title = next(t for t in texts if "Maximum Depth Of Trigger Recursion" in t)
    assert "SQLite limits the depth of recursion" in holding_title


def test_an_anchored_item_that_does_not_fit_starts_a_chunk() -> None:
    # the second item would fit only in part after the first: the chunk ends before it, so the
    # item (title, text and its default) is one passage and its anchor points at that passage
    doc, chunks = limits_page()
    texts = [doc.text[c.start : c.end] for c in chunks]
    assert len(chunks) == 2
    assert texts[1].lstrip().startswith("- Maximum Depth Of Trigger Recursion")
    assert "recursion depth is 1000" in texts[1]


def test_a_short_line_ending_a_sentence_is_not_a_lead_in() -> None:
    doc = parse_markdown("# T\n\nShort sentence.\n\n" + "A long paragraph follows here. " * 20 + "\n")
    chunks = chunk_document(doc, chunk_tokens=20)
    assert doc.text[chunks[0].start : chunks[0].end].strip().endswith("Short sentence.")


def test_anchors_resolve_to_the_passage_that_holds_what_follows_them(tmp_path: Path) -> None:
    from clew.corpus.ingest.api import ingest_paths
    from clew.corpus.store import Corpus

    (tmp_path / "limits.html").write_text(LIMITS_PAGE.format(long="Strings and BLOBs are limited in length. " * 15))
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [tmp_path / "limits.html"], chunk_tokens=220)
        rows = dict(corpus.cursor().execute("SELECT anchor, chunk FROM anchors").fetchall())
        bodies = dict(corpus.cursor().execute("SELECT ordinal, body FROM chunks").fetchall())
    assert "Maximum Depth Of Trigger Recursion" in bodies[rows["max_trigger_depth"]]
    assert "Maximum length of a string" in bodies[rows["max_length"]]


# letters (cased, uncased, combining), digits, punctuation, apostrophes (contractions), every kind
# of whitespace the pre-tokenizer knows (NBSP, NEL, line and paragraph separators, CR), emoji
seam_text = st.text(
    alphabet=st.sampled_from(list("aZé漢\u0301x09'’.,;:!?-_/#|*`()[]<>\"\\ \t\r\n\xa0\x85\u2028\u3000🙂s")),
    max_size=24)


@settings(max_examples=600, deadline=None)
@given(before=seam_text, after=seam_text, first=st.sampled_from(list("aZ漢09'.#|-*`(<🙂\"\\\u0301é")))
def test_tokens_add_up_across_a_clean_seam(before: str, after: str, first: str) -> None:
    """What lets the chunker sum its units' counts (``_Builder.clean_seam``): text ending in a
    line break, then text starting with anything but whitespace, count alone as they do together."""
    head, tail = before + "\n", first + after
    assert count_tokens(head + tail) == count_tokens(head) + count_tokens(tail)


def test_python_whitespace_covers_the_pre_tokenizers() -> None:
    """``clean_seam`` asks ``str.isspace``; the pre-tokenizer's ``\\s`` is Unicode White_Space."""
    white_space = [*range(0x09, 0x0E), 0x20, 0x85, 0xA0, 0x1680, *range(0x2000, 0x200B), 0x2028, 0x2029, 0x202F,
                   0x205F, 0x3000]
    assert all(chr(code).isspace() for code in white_space)


@pytest.mark.parametrize("least", [0, 10_000])  # their blocks counted all at once, and word by word
def test_documents_chunked_together_are_chunked_as_each_alone(acme_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              least: int) -> None:
    monkeypatch.setattr(tokens, "BULK_TOKEN_MIN", least)
    texts = [acme_path.read_text(), "# Mixed\n\nnaïve café ünïcode words\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n", "",
             "# Long\n\n" + "A sentence of several words. " * 200, "   \n", "plain words only"]
    docs = [parse_markdown(text) for text in texts]
    for limit, merge in ((220, False), (40, True)):
        together = chunk_documents(docs, chunk_tokens=limit, merge_sections=merge)
        assert together == [chunk_document(doc, chunk_tokens=limit, merge_sections=merge) for doc in docs]
        assert together[2] == [] and len(together[3]) > 1
        for doc, chunks in zip(docs, together):
            assert [c.token_count for c in chunks] == [count_tokens(c.display_text(doc.text)) for c in chunks]
    with pytest.raises(ValueError, match="chunk_tokens must be at least 16, got 4"):
        chunk_documents(docs, chunk_tokens=4)


def test_a_heading_with_nothing_under_it_ends_the_text_before_it_not_the_next_sections() -> None:
    """Old TypeDoc's ``Returns Array<string | symbol>`` of ``eventNames`` (nothing under it) opened ``flash``'s
    passage (task U13's dapjs pages); it ends ``eventNames``' passage now, which lists its section. A page's title
    over nothing still opens the first text's passage, and one after a table is a passage of its own."""
    doc = parse_html("<h1>DAPLink</h1><h2>Methods</h2><h3>eventNames</h3><ul><li>eventNames(): Array&lt;string | "
                     "symbol&gt;</li></ul><h4>Returns Array&lt;string | symbol&gt;</h4><h3>flash</h3><ul><li>flash("
                     "buffer: BufferSource): Promise&lt;void&gt;</li><li>Flash the target</li></ul><h4>Returns "
                     "Promise&lt;void&gt;</h4><h3>halt</h3><table><tr><th>option</th><th>meaning</th></tr><tr><td>"
                     "wait</td><td>wait for the halt</td></tr></table><h4>Returns void</h4><h3>reset</h3><p>Reset "
                     "the target.</p>")
    chunks = chunk_document(doc)
    texts = [doc.text[chunk.start:chunk.end].strip() for chunk in chunks]
    titles = {section.heading: index for index, section in enumerate(doc.sections)}
    assert texts[0].startswith("# DAPLink\n\n## Methods\n\n### eventNames")
    assert texts[0].endswith("#### Returns Array<string | symbol>")
    assert chunks[0].sections == [titles["eventNames"], titles["Returns Array<string | symbol>"]]
    assert texts[1].startswith("### flash") and texts[1].endswith("#### Returns Promise<void>")
    assert [chunk.kind for chunk in chunks[2:]] == ["table", "text", "text"] and texts[3] == "#### Returns void"
    assert chunks[3].sections == [titles["Returns void"]] and texts[4] == "### reset\n\nReset the target."


def retry_options(lead_ins: int) -> tuple[str, list[str]]:
    """undici's RetryOptions as Docusaurus writes them (a nested item under its parent), chunked at 160 tokens."""
    long = "When true an error is thrown on the final retry attempt. " * 5
    err = "The error that caused the retry attempt, as the dispatcher saw it. " * 4
    items = [f"<li>throwOnError {{boolean}} {long}</li>", f"<li>resume {{boolean}} {long}</li>"][:lead_ins]
    html = f"""<html><head><title>R</title></head><body><main><h1>RetryOptions</h1><ul>{"".join(items)}
<li>retry {{Function}} Callback invoked on every retry iteration.
 <ul><li>err {{Error}} {err}</li><li>context {{RetryContext}} The current retry context.</li>
 <li>callback {{Function}} Signals the outcome of this iteration.</li></ul></li>
<li>maxRetries {{number}} Maximum number of retries allowed. Default: 5.</li></ul></main></body></html>"""
    doc = parse_html(html)
    return doc.text, [doc.text[c.start : c.end] for c in chunk_document(doc, chunk_tokens=160)]


def test_a_chunk_does_not_open_inside_the_sub_list_of_an_item_it_could_take_whole() -> None:
    # the cut fell between "- retry {Function}" and its first sub-item "  - err {Error}": the chunk
    # now ends before the parent, and the next one holds it with its sub-items
    text, texts = retry_options(lead_ins=2)
    assert "".join(texts) == text
    assert [t.lstrip()[:8] for t in texts] == ["# RetryO", "- retry "]
    assert "  - err {Error}" in texts[1] and "Maximum number of retries allowed" in texts[1]


def test_a_parent_item_that_would_leave_its_chunk_under_half_full_stays_in_it() -> None:
    # one item before the parent: ending before it would leave a chunk of under 80 tokens, so the cut stays
    text, texts = retry_options(lead_ins=1)
    assert "".join(texts) == text
    assert "- retry {Function}" in texts[0]
    assert texts[1].startswith("  - ")
