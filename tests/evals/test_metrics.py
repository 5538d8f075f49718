"""Every metric against values computed by hand on tiny cases."""

import math

import pytest

from clew.evals import metrics


def test_evidence_found_uses_the_dev_set_rule() -> None:
    # casefold, curly quotes straightened, whitespace runs collapsed (NBSP included)
    texts = ["The \u201cWAL\u201d file\u00a0grows.", "unrelated"]
    assert metrics.evidence_found(['the "wal" FILE grows', "missing phrase", "unrelated"], texts) == [True, False, True]
    # a pipe escaped in a pipe-table cell reads as the pipe a reader sees
    row = ["| container | string \\| element \\| false | false |"]
    assert metrics.evidence_found(["string | element | false", "string \\| element", "element | true"], row) == [
        True, True, False]
    assert metrics.recall([True, False, True, False]) == 0.5
    assert metrics.recall([]) is None


def test_recall_at_k() -> None:
    ranked = ["a", "b", "c", "d"]
    assert metrics.recall_at_k(ranked, ["b", "d", "z"], 2) == pytest.approx(1 / 3)
    assert metrics.recall_at_k(ranked, ["b", "d", "z"], 4) == pytest.approx(2 / 3)
    assert metrics.recall_at_k(ranked, [], 4) is None


def test_reciprocal_rank() -> None:
    assert metrics.reciprocal_rank(["a", "b", "c"], ["c", "b"]) == 0.5
    assert metrics.reciprocal_rank(["a", "b", "c"], ["a"]) == 1.0
    assert metrics.reciprocal_rank(["a", "b", "c"], ["z"]) == 0.0


def test_ndcg_at_10() -> None:
    # ranked: a (grade 0), b (grade 2), c (grade 1); ideal: 2, 1
    dcg = 2 / math.log2(3) + 1 / math.log2(4)
    idcg = 2 / math.log2(2) + 1 / math.log2(3)
    assert metrics.ndcg_at_k(["a", "b", "c"], {"b": 2, "c": 1, "a": 0}) == pytest.approx(dcg / idcg)
    assert metrics.ndcg_at_k(["b", "c"], {"b": 2, "c": 1}) == pytest.approx(1.0)
    assert metrics.ndcg_at_k(["a"] * 10 + ["b"], {"b": 1}, k=10) == 0.0  # rank 11 is outside the cut
    assert metrics.ndcg_at_k(["a"], {"a": 0}) is None


def test_exact_match_squad_normalisation() -> None:
    assert metrics.squad_normalize("The  Cat, sat!") == "cat sat"
    assert metrics.exact_match("the Cat.", ["a cat", "dog"]) == 1.0
    assert metrics.exact_match("cats", ["cat"]) == 0.0
    assert metrics.exact_match("cat", []) is None


def test_token_f1() -> None:
    # prediction "red big ball" vs gold "the big red box": common {red, big} = 2; P = 2/3, R = 2/3 ("the" dropped)
    assert metrics.token_f1("red big ball", ["the big red box"]) == pytest.approx(2 / 3)
    # best over answers: second gold "ball" gives P = 1/3, R = 1 -> F1 = 0.5 < 2/3
    assert metrics.token_f1("red big ball", ["ball", "the big red box"]) == pytest.approx(2 / 3)
    assert metrics.token_f1("nothing", ["else"]) == 0.0
    assert metrics.token_f1("the", ["a"]) == 1.0  # both empty after normalisation


def test_citation_precision() -> None:
    assert metrics.citation_precision(["e1", "e2", "e3", "e4"], ["e1", "e3", "e9"]) == 0.5
    assert metrics.citation_precision([], ["e1"]) is None


def test_percentile_interpolates_linearly() -> None:
    values = [10, 20, 30, 40, 50]
    assert metrics.percentile(values, 50) == 30
    assert metrics.percentile(values, 95) == pytest.approx(48.0)  # position 3.8: 40 + 0.8 * 10
    assert metrics.percentile([7], 95) == 7
    assert metrics.percentile([], 50) is None


def _row(
    status: str = "ok",
    found: tuple[bool, ...] = (True,),
    tokens: int = 100,
    latency: float = 1.0,
    kind: str = "k",
    reason: str | None = None,
) -> dict:
    return {"system": "s", "id": "q", "kind": kind, "status": status, "stop_reason": reason,
            "evidence_found": list(found), "context_tokens": tokens, "latency_s": latency}


def test_aggregate_pools_phrases_and_counts_incomplete_reasons() -> None:
    rows = [
        _row(found=(True, False), tokens=100, latency=1.0),
        _row(found=(True,), tokens=300, latency=3.0, status="incomplete", reason="context_budget"),
        _row(status="error", found=(False, False), tokens=0, latency=9.0, reason="error"),
    ]
    agg = metrics.aggregate(rows)
    assert agg["evidence_recall"] == pytest.approx(2 / 5)  # pooled over phrases
    assert agg["all_evidence_rate"] == pytest.approx(1 / 3)
    assert agg["mean_context_tokens"] == 200  # the failed question is left out of token and latency stats
    assert agg["p50_context_tokens"] == 200
    assert agg["p95_context_tokens"] == pytest.approx(290.0)
    assert agg["p50_latency_s"] == 2.0
    assert agg["incomplete_rate"] == pytest.approx(2 / 3)
    assert agg["incomplete_reasons"] == {"context_budget": 1, "error": 1}
    assert agg["failed"] == 1


def test_answer_found_is_a_normalised_whole_word_containment() -> None:
    assert metrics.answer_found("The default value is 6700.", ["6700"]) == 1.0
    assert metrics.answer_found("It is at Offset 44, four bytes.", ["offset 44"]) == 1.0
    assert metrics.answer_found("see page 1440", ["44"]) == 0.0  # whole words only
    assert metrics.answer_found("a comma", [",", "the comma flag"]) == 0.0  # "," normalises to nothing
    assert metrics.answer_found("anything", []) is None


def test_answer_found_reads_an_identifier_inside_a_dotted_or_called_form() -> None:
    called = "Use functools.cmp_to_key(func) to convert an old-style comparison function."
    assert metrics.answer_found(called, ["cmp_to_key"]) == 1.0  # SQuAD's text ran it together: 'functoolscmptokeyfunc'
    assert metrics.answer_found(called, ["functools.cmp_to_key()"]) == 1.0
    assert metrics.answer_found("It returns a float, e.g. 3.5.", ["float"]) == 1.0
    assert metrics.answer_found("pathlib's PurePath.suffix gives it", ["PurePath.suffix"]) == 1.0


def test_answer_found_keeps_the_word_boundaries_a_reader_keeps() -> None:
    called = "Use functools.cmp_to_key(func) to convert an old-style comparison function."
    assert metrics.answer_found(called, ["key"]) == 0.0  # inside the identifier
    assert metrics.answer_found(called, ["style"]) == 0.0  # inside a hyphenated word
    assert metrics.answer_found("a float such as 3.5", ["5"]) == 0.0  # inside a number
    assert metrics.answer_found("4,294,950,911 databases", ["950"]) == 0.0
    assert metrics.answer_found("you don't need it", ["don"]) == 0.0
    assert metrics.answer_found("cmp to key", ["cmp_to_key"]) == 0.0


def test_answer_found_reads_a_number_range_one_way() -> None:
    assert metrics.answer_found("an odd number of columns between 3 and 11", ["3 to 11"]) == 1.0
    assert metrics.answer_found("pages 3-11 and 20\u201322", ["3 to 11", "between 20 and 22"]) == 1.0
    assert metrics.answer_found("between 3 and 11", ["3-11"]) == 1.0
    assert metrics.answer_found("between 3 and 110", ["3 to 11"]) == 0.0  # whole numbers only
    assert metrics.answer_found("between 13 and 11", ["3 to 11"]) == 0.0
    assert metrics.answer_found("see 5-10", ["510"]) == 0.0  # a range is not one number
    assert metrics.answer_found("released 2026-12-06", ["2026-12-06"]) == 1.0


def test_answer_found_reads_a_list_answer_as_its_items_in_order() -> None:
    bullets = "The datatype must be one of following:\n  - INT\n  - INTEGER\n  - REAL\n  - TEXT\n  - BLOB\n  - ANY\n"
    assert metrics.answer_found(bullets, ["INT, INTEGER, REAL, TEXT, BLOB and ANY"]) == 1.0
    glossed = ("- SQLITE_FULL: database or disk full\n- SQLITE_IOERR: disk I/O error\n"
               "- SQLITE_BUSY: database in use by another process\n- SQLITE_NOMEM: out of memory")
    assert metrics.answer_found(glossed, ["SQLITE_FULL, SQLITE_IOERR, SQLITE_BUSY and SQLITE_NOMEM"]) == 1.0
    assert metrics.answer_found("one of INT, REAL or ANY", ["INT, REAL, or ANY"]) == 1.0


def test_answer_found_still_wants_the_whole_list() -> None:
    gold = ["INT, INTEGER, REAL, TEXT, BLOB and ANY"]
    assert metrics.answer_found("INT INTEGER REAL TEXT ANY", gold) == 0.0  # an item missing
    assert metrics.answer_found("INTEGER INT REAL TEXT BLOB ANY", gold) == 0.0  # out of order
    far = "INT INTEGER REAL TEXT BLOB " + "word " * (metrics.LIST_GAP_WORDS + 1) + "ANY"
    assert metrics.answer_found(far, gold) == 0.0  # too far apart to be one list
    assert metrics.answer_found("4,294,950,911 databases", ["4, 294, 950"]) == 0.0  # a number's commas
    sentence = ["the row is deleted, the constraints are checked, and the triggers run"]  # a sentence, whole
    assert metrics.answer_found("the row is deleted then the constraints are checked and the triggers run",
                                sentence) == 0.0


def test_answer_retention_and_containment_score_the_answer_against_the_evidence_it_was_given() -> None:
    from clew.evals.datasets import Question
    from clew.evals.runner import score
    from clew.evals.systems import SYSTEMS, Outcome, Passage

    question = Question(id="q", question="Who owns Orion Maps?", kind="table", answers=("Daniel Okafor",),
                        evidence=("Orion Maps | Daniel Okafor", "Serves warehouse floor maps", "never returned"))
    passages = [Passage("ev1:c:1:1:0", "acme.md", "| Orion Maps | Daniel Okafor | Serves warehouse floor maps |")]
    answer = "| Orion Maps | Daniel Okafor | Serves warehouse floor maps | [ev1:c:1:1:0]"
    row = score(question, SYSTEMS["tree-ranked"], Outcome(passages, 40, answer=answer, answer_kind="extract"), 0.1)
    # the third phrase is not in the passages: the answer is scored on the two it could hold
    assert row["evidence_found"] == [True, True, False] and row["answer_phrases"] == [True, True]
    assert row["answer_contained"] == 1.0 and row["answer_kind"] == "extract" and row["answer_tokens"] > 0
    short = score(question, SYSTEMS["tree-ranked"], Outcome(passages, 40, answer="Ask Maria. [ev1:c:1:1:0]",
                                                            answer_kind="extract"), 0.1)
    assert short["answer_contained"] == 0.0 and short["answer_phrases"] == [False, False]
    pooled = metrics.aggregate([row, short])
    assert pooled["answer_retention"] == 0.5 and pooled["answer_containment"] == 0.5
    assert pooled["p50_answer_tokens"] == (row["answer_tokens"] + short["answer_tokens"]) / 2
