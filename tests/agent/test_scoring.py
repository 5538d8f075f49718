"""``clew.agent.scoring``: a node is worth its best passage not visited yet, however often it is priced."""

from clew.agent.scoring import Scorer
from clew.corpus.reader import Scope
from clew.corpus.store import Corpus
from clew.navigation.core import Node


def test_a_node_is_worth_its_best_unvisited_passage_on_every_pricing(runbooks: Corpus) -> None:
    scope = Scope(runbooks, collection="runbooks")
    doc = next(d for d in (scope.document(i, 1) for i in range(1, 20)) if d is not None and len(d.skeleton.chunks) > 3)
    root = Node(doc, 0)
    scorer = Scorer(scope, "who is paged for a SEV1 incident and how is it rolled back")
    worths = {o: scorer.of(doc, o) for o in root.passages}
    assert len(set(worths.values())) > 2  # the passages are priced apart
    by_worth = sorted(worths, key=lambda o: -worths[o])
    visited: set[int] = set()
    for ordinal in by_worth:  # the first pricing scores the node, the later ones read its ranking
        assert scorer.node(root, visited) == max(w for o, w in worths.items() if o not in visited)
        visited.add(ordinal)
    assert scorer.node(root, visited) is None  # nothing left under it
    fresh = Scorer(scope, "who is paged for a SEV1 incident and how is it rolled back")
    assert fresh.node(root, {by_worth[0]}) == worths[by_worth[1]]  # a first pricing that skips the best


def test_a_passage_is_worth_the_same_priced_alone_or_with_its_node(runbooks: Corpus) -> None:
    scope = Scope(runbooks, collection="runbooks")
    doc = next(d for d in (scope.document(i, 1) for i in range(1, 20)) if d is not None and len(d.skeleton.chunks) > 3)
    question = "who is paged for a SEV1 incident and how is it rolled back"
    alone = Scorer(scope, question)
    first = [alone.passage(p) for p in scope.passages(doc.document_id, doc.version)]  # each priced on its own
    together = Scorer(scope, question)
    together.node(Node(doc, 0))  # every passage priced at once, then read back
    assert [together.passage(p) for p in scope.passages(doc.document_id, doc.version)] == first
    assert first == together.worths(doc, range(len(doc.skeleton.chunks))) and len(set(first)) > 2
