"""The question's words that neither the evidence nor the corpus holds (``Generation.absent_terms``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from clew.agent.absent import absent_terms, held_terms, question_words, unheld
from clew.agent.api import retrieve_sync
from clew.agent.brief import brief
from clew.commands.render import print_result
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.reader import Scope
from clew.corpus.search import postings
from clew.corpus.search.bm25 import bm25_search
from clew.corpus.store import Corpus
from clew.testing import FunctionModel, reply_text
from tests.conftest import write_files

from .conftest import PLAYBOOK, tree_request

STAGING = ("Pallets wait in the staging lane until the dock lead signs the manifest.",
           ["Warehouse playbook", "Loading dock"])


def test_a_question_is_read_as_the_index_reads_it_its_words_kept_as_written() -> None:
    words = question_words("Why does Kubernetes restart my pods besides the max_wal_size, and its pod?")
    # stopwords (why, does, my, the, and, its) and function words (besides) are left out; "pod" is "pods" again
    assert words == [("Kubernetes", ("kubernet",)), ("restart", ("restart",)), ("pods", ("pod",)),
                     ("max_wal_size", ("max_wal_size", "max", "wal", "size"))]


def test_an_indefinite_pronoun_is_never_a_word_the_corpus_lacks() -> None:
    """The demo's own question "Everything about incidents, failover, ..." printed "not in the corpus:
    Everything" (task U36): "everything", "anyone", "whatever" say nothing of a manual's subject, as
    "myself" and "besides" say nothing."""
    words = question_words("Everything anyone should know, whatever the setup, about nothing and somewhere else")
    assert words == [("know", ("know",)), ("setup", ("setup",))]


@pytest.mark.parametrize(("question", "words"), [
    ("What error rate means a deploy should be rolled back?", ["error", "rate", "deploy", "rolled", "back"]),
    ("What does a 502 mean?", ["502"]),
    ("What does --force mean for push?", ["--force", "push"]),
    ("What is meant by a checkpoint?", ["checkpoint"]),
    ("How does the planner work?", ["planner"]),
    ("Explain how the cache works", ["Explain", "cache"]),
    ("What happens when a deploy fails?", ["deploy", "fails"]),
    ("Explain what SQLITE_BUSY means.", ["Explain", "SQLITE_BUSY"]),
])
def test_the_verb_of_a_question_s_frame_is_not_a_word_of_its_subject(question: str, words: list[str]) -> None:
    """The README's first question printed "not in the corpus: means" (task U36): the runbooks never write
    "means", and "what ... means", "what does ... mean", "how does ... work", "what happens" ask of the subject,
    whatever verb frames them."""
    assert [word for word, _ in question_words(question)] == words


@pytest.mark.parametrize(("question", "words"), [
    ("What is the mean of the samples?", ["mean", "samples"]),
    ("What does the mean of the samples measure?", ["mean", "samples", "measure"]),
    ("How do I compute a weighted mean?", ["compute", "weighted", "mean"]),
    ("What do you need to compute a weighted mean?", ["need", "compute", "weighted", "mean"]),
    ("What are the column means?", ["column", "means"]),
    ("Which statistical means are computed?", ["statistical", "means", "computed"]),
    ("What work does vacuum do?", ["work", "vacuum"]),
])
def test_the_same_verbs_outside_the_frame_are_words_of_the_subject(question: str, words: list[str]) -> None:
    """The frame is read from the question's shape, not by muting "mean" or "work": the statistical mean,
    a weighted mean and the work a command does are what the question asks about."""
    assert [word for word, _ in question_words(question)] == words


def test_the_readme_s_first_question_finds_every_word_in_the_runbooks(runbooks: Corpus) -> None:
    asked = retrieve_sync("What error rate means a deploy should be rolled back?", corpus=runbooks)
    assert asked.generation is not None and asked.generation.absent_terms == []
    assert "not in the corpus" not in brief(asked)


def test_a_question_s_words_are_folded_as_the_index_folds_them() -> None:
    """A letter and its combining accent ("cafe\u0301") are one character to the index (NFKC, 9d42b77): the question's
    words were read before folding, so "cafe\u0301" was the word "cafe", reported absent from a page holding "café"
    (review V6). Where folding changes the question's length its words are reported folded, as where lower-casing
    does."""
    assert question_words("Is the cafe\u0301 open?") == [("café", ("café", "caf")), ("open", ("open",))]
    assert question_words("Personal macro \ufb01les") == [("personal", ("person",)), ("macro", ("macro",)),
                                                          ("files", ("file",))]


def test_a_compound_is_held_whole_or_by_every_one_of_its_parts() -> None:
    compound = [("max_wal_size", ("max_wal_size", "max", "wal", "size"))]
    assert unheld(compound, {"max_wal_size"}) == []
    assert unheld(compound, {"max", "wal", "size"}) == []
    assert unheld(compound, {"max", "wal"}) == compound
    assert unheld([("pods", ("pod",))], {"pods"}) == [("pods", ("pod",))]  # terms, not the word, are matched


def test_a_passage_holds_the_words_of_its_heading_path_too() -> None:
    held = held_terms([STAGING])
    assert {"pallet", "stage", "manifest", "load", "dock", "warehous"} <= held


def test_only_words_the_evidence_and_the_corpus_both_lack_are_absent(playbook: Corpus) -> None:
    scope = Scope(playbook, collection="ops")
    # "freezer" is not in the passage but the corpus has it: the evidence missed it, the corpus did not
    assert absent_terms(scope, "Where do the Kubernetes pallets wait before the freezer?", [STAGING]) == ["Kubernetes"]
    assert absent_terms(scope, "Where do pallets wait on the loading dock?", [STAGING]) == []
    assert absent_terms(scope, "Where do helm charts wait?", []) == ["helm", "charts"]


class Passages:
    """Passages that count how often they are read."""

    def __init__(self, passages: list[tuple[str, list[str]]]) -> None:
        self.passages, self.reads = passages, 0

    def __iter__(self) -> Iterator[tuple[str, list[str]]]:
        self.reads += 1
        return iter(self.passages)


def test_the_passages_are_read_only_for_words_the_corpus_lacks_where_it_is_all_asked(playbook: Corpus) -> None:
    # one collection: its statistics are the corpus's, asked first; the pack's terms are read for a word
    # the corpus lacks only (task P4: 0.3-0.4 ms a question, most of which hold none)
    scope = Scope(playbook, collection="ops")
    assert scope.reads_everything()
    held = Passages([STAGING])
    assert absent_terms(scope, "Where do pallets wait before the freezer?", held) == []
    assert held.reads == 0
    assert absent_terms(scope, "Where do the Kubernetes pallets wait?", held) == ["Kubernetes"]
    assert held.reads == 1
    # a compound held by one part in the corpus and the other only in the passages is held, as before
    assert absent_terms(scope, "Does pallet_zorblax wait?", Passages([("zorblax", [])])) == []
    assert absent_terms(scope, "Does pallet_zorblax wait?", Passages([])) == ["pallet_zorblax"]


def test_a_run_carries_the_absent_words_and_leaves_the_field_out_when_there_are_none(playbook: Corpus) -> None:
    asked = retrieve_sync(tree_request("Where do kubernetes pallets wait?", "ops"), corpus=playbook)
    assert asked.generation is not None and asked.generation.kind == "extract"
    assert asked.generation.absent_terms == ["kubernetes"] and "staging lane" in asked.generation.answer
    assert asked.model_dump(mode="json")["generation"]["absent_terms"] == ["kubernetes"]
    assert "not in the corpus: kubernetes" in brief(asked).splitlines()
    held = retrieve_sync(tree_request("Where do pallets wait?", "ops"), corpus=playbook)
    assert held.generation is not None and held.generation.absent_terms == []
    assert "absent_terms" not in held.model_dump(mode="json")["generation"]
    assert "not in the corpus" not in brief(held)


def test_the_cli_prints_one_line_after_the_answer(playbook: Corpus) -> None:
    console = Console(record=True, width=100)
    print_result(console, retrieve_sync(tree_request("Where do kubernetes pallets wait?", "ops"), corpus=playbook))
    lines = console.export_text().splitlines()
    assert lines[0].startswith("extract (quoted from the evidence, no model)")
    assert lines.count("not in the corpus: kubernetes") == 1
    assert lines.index("not in the corpus: kubernetes") < next(i for i, line in enumerate(lines)
                                                               if line.startswith("ok: "))


def test_a_model_still_answers_when_words_are_absent(playbook: Corpus) -> None:
    def cite_first(messages: list[dict[str, Any]], tools: Any) -> dict[str, Any]:
        first = re.search(r"^(ev1:\S+)$", "\n".join(str(m["content"]) for m in messages), re.MULTILINE)
        assert first is not None
        return reply_text(f"Pallets wait in the staging lane [{first.group(1)}].")

    result = retrieve_sync(tree_request("Where do kubernetes pallets wait?", "ops"), corpus=playbook,
                           model=FunctionModel(cite_first))
    assert result.generation is not None and result.generation.kind == "model"
    assert result.generation.absent_terms == ["kubernetes"] and result.generation.citations


@pytest.mark.parametrize("held", [False, True])  # counted in SQL (read-write), over the postings held in memory
def test_a_word_only_another_collection_holds_is_absent_from_the_one_asked(tmp_path: Path, held: bool) -> None:
    write_files(tmp_path / "ops", {"playbook.md": PLAYBOOK})
    write_files(tmp_path / "platform", {"cluster.md": "# Cluster\n\nKubernetes restarts a pod whose probe fails.\n"})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [tmp_path / "ops"], collection="ops", chunk_tokens=16)
        ingest_paths(corpus, [tmp_path / "platform"], collection="platform", chunk_tokens=16)
    with Corpus(tmp_path / "c.duckdb", read_only=held) as corpus:
        for _ in range(postings.WARM_QUERIES + 1 if held else 0):
            bm25_search(Scope(corpus), "pallets", limit=3)
        assert (postings.loaded_postings(corpus) is not None) == held
        question = "Where do the Kubernetes pallets wait?"
        assert absent_terms(Scope(corpus, collection="ops"), question, [STAGING]) == ["Kubernetes"]
        assert absent_terms(Scope(corpus, collection="platform"), question, []) == ["pallets", "wait"]
        assert absent_terms(Scope(corpus), question, []) == []  # the whole corpus (no collection named) holds both
        asked = retrieve_sync(tree_request(question, "ops"), corpus=corpus)
        assert asked.generation is not None and asked.generation.absent_terms == ["Kubernetes"]
