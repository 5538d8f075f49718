"""Properties over generated Markdown documents of random structure."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clew.corpus.ingest.api import ingest_documents
from clew.corpus.ingest.prepare import ChunkingConfig, parse, prepare
from clew.corpus.reader import Scope
from clew.corpus.store import Corpus
from clew.navigation.graph import ExpandArgs, expand_neighbors
from clew.navigation.reading import ReadArgs, read
from clew.navigation.tree import RELATIONS, TreeArgs, navigate_document_tree

WORDS = ["depot", "robot", "route", "battery", "planner", "shift", "map", "owner", "window", "retry", "log", "day"]

paragraph = st.lists(st.sampled_from(WORDS), min_size=3, max_size=40).map(lambda ws: " ".join(ws).capitalize() + ".")
table = st.lists(st.tuples(st.sampled_from(WORDS), st.integers(0, 999)), min_size=1, max_size=8).map(
    lambda rows: "| Name | Value |\n| --- | --- |\n" + "\n".join(f"| {a} | {b} |" for a, b in rows))
section = st.tuples(st.integers(1, 3), st.sampled_from(WORDS), st.lists(paragraph | table, max_size=3))
document = st.lists(section, min_size=1, max_size=7).map(
    lambda sections: "\n\n".join(f"{'#' * level} {word.title()} {i}\n\n" + "\n\n".join(blocks)
                                 for i, (level, word, blocks) in enumerate(sections)) + "\n")
config = st.tuples(st.integers(16, 80), st.booleans())

# 12 documents a property (an example is one or two ingests, 70 ms each, and its walks; 25 were 11 s of CPU):
# each run draws new ones, so the runs of every commit go on covering more
SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def ingest(corpus: Corpus, text: str, chunking: tuple[int, bool]) -> list[str]:
    ingest_documents(corpus, [prepare("doc.md", "markdown", parse("markdown", text), ChunkingConfig(*chunking))])
    doc, version = corpus.cursor().execute("SELECT id, current_version FROM documents WHERE key = 'doc.md'").fetchone()
    count = (
        corpus.cursor()
        .execute("SELECT count(*) FROM chunks WHERE document_id = ? AND version = ?", [doc, version])
        .fetchone()[0]
    )
    return [f"ev1:c:{doc}:{version}:{o}" for o in range(count)]


@SETTINGS
@given(document, config)
def test_next_and_previous_are_inverse(text: str, chunking: tuple[int, bool]) -> None:
    with Corpus(":memory:") as corpus:
        ids = ingest(corpus, text, chunking)
        scope = Scope(corpus)
        for i, evidence_id in enumerate(ids):
            after = navigate_document_tree(scope, TreeArgs(evidence_id=evidence_id, relation="next")).items
            before = navigate_document_tree(scope, TreeArgs(evidence_id=evidence_id, relation="previous")).items
            assert [x.evidence_id for x in after] == ids[i + 1:i + 2]
            assert [x.evidence_id for x in before] == ids[max(0, i - 1):i]
            if after:
                back = navigate_document_tree(scope, TreeArgs(evidence_id=after[0].evidence_id,
                    relation="previous")).items
                assert [x.evidence_id for x in back] == [evidence_id]


@SETTINGS
@given(document, config, st.integers(1, 7))
def test_reading_the_whole_document_returns_every_passage_once_in_order(
    text: str, chunking: tuple[int, bool], page: int
) -> None:
    with Corpus(":memory:") as corpus:
        ids = ingest(corpus, text, chunking)
        scope = Scope(corpus)
        assert [x.evidence_id for x in read(scope, ReadArgs(document="doc.md", top_k=50)).items] == ids[:50]
        seen: list[str] = []
        position: int | None = None
        while True:
            result = read(scope, ReadArgs(document="doc.md", start=position, top_k=page))
            if not result.items:
                break
            seen.extend(x.evidence_id for x in result.items)
            position = result.items[-1].location.char_end
        assert seen == ids


@SETTINGS
@given(document, document, config, st.data())
def test_navigation_never_leaves_the_starting_version(
    first: str, second: str, chunking: tuple[int, bool], data: st.DataObject
) -> None:
    with Corpus(":memory:") as corpus:
        old = ingest(corpus, first, chunking)
        new = ingest(corpus, second + "\nChanged.\n", chunking)
        scope = Scope(corpus)
        for ids in (old, new):
            prefix = ids[0].rsplit(":", 1)[0] + ":"
            start = data.draw(st.sampled_from(ids))
            for relation in RELATIONS:
                result = navigate_document_tree(scope, TreeArgs(evidence_id=start, relation=relation, limit=50))
                assert all(item.evidence_id.startswith(prefix) for item in result.items)
                assert result.version_status == ("current" if ids is new else "superseded")
            neighbours = expand_neighbors(scope, ExpandArgs(ids=[start], depth=3, limit=24))
            assert all(n.id.startswith((prefix, prefix.replace(":c:", ":s:"))) for n in neighbours.neighbors)
