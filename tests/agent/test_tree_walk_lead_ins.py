"""The passage after a taken one that ends in a lead-in ending in ':' (issues 35/36, task W6):
when it opens with what the lead-in introduces, a code block or a list, the walk offers it as
the taken passage's neighbour ('adjacent'), as it does the rest of a fenced example cut in two
(task W4); U12's question 5 took 'Let's assume you want to bind ... context variables:' through
a link and not the Flask example opening the next passage."""

from pathlib import Path

import pytest

from clew.agent.api import retrieve_sync
from clew.agent.result import EvidenceHit
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.store import Corpus

from ..conftest import write_files

INTRO = """# Context variables

## Binding request data

Bind request data to every logger: structlog keeps the request data bound to each logger for the whole
request, so every logger that runs in the current request context sees the same request data bound to it
without passing it around from function to function by hand.

Let's assume you want to bind a unique request ID and the peer's address to every log entry by storing
them in context variables{end}

"""
CODE = """```python
clear_contextvars()
bind_contextvars(request_id=new_id(), peer=address())
log.info("user logged in")
```
"""
ITEMS = """- clear_contextvars() at the start of each request, before anything is bound
- bind_contextvars(request_id=new_id(), peer=address()) in the middleware
- log.info("user logged in") in the view
"""
PROSE = """Clear the context variables first, then bind the request ID and the address in a middleware,
and log as usual in each view of the application.
"""


def walk(tmp_path: Path, page: str) -> list[EvidenceHit]:
    folder = write_files(tmp_path / "docs", {"guide.md": page})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder], collection="docs", chunk_tokens=40)
        request = {"query": "how do I bind request data to every logger in the current request context",
                   "include_steps": True, "queries": [{"collection": "docs", "limit": 2}],
                   "context_budget_tokens": 2000,
                   "steps": {"retrieval": {"navigation": {"strategy": "tree", "selection": "ranked"}}}}
        return list(retrieve_sync(request, corpus=corpus).hits)


def lead_in_and_next(hits: list[EvidenceHit]) -> tuple[EvidenceHit, EvidenceHit]:
    lead_in = next(h for h in hits if h.text.startswith("Let's assume"))
    head, _, ordinal = lead_in.evidence_id.rpartition(":")
    following = next(h for h in hits if h.evidence_id == f"{head}:{int(ordinal) + 1}")
    return lead_in, following


@pytest.mark.parametrize(("body", "opening"), [(CODE, "```python"), (ITEMS, "- clear_contextvars()")])
def test_what_a_taken_lead_in_introduces_is_offered_as_its_neighbour(tmp_path: Path, body: str,
                                                                      opening: str) -> None:
    """The lead-in is no seed hit (its section's child here, a link target on U12): the code block or
    list opening the next passage comes as its neighbour (before: as the section's child, code at
    no more than its own worth). The code block is taken right after it; the list's first passage
    after the second (chunked into two passages, its last item names more of the question)."""
    hits = walk(tmp_path, INTRO.format(end=":") + body)
    lead_in, following = lead_in_and_next(hits)
    assert lead_in.via != "seed" and lead_in.text.rstrip().endswith("context variables:")
    assert following.text.startswith(opening)
    assert (following.via, following.origin) == ("adjacent", lead_in.evidence_id)
    assert hits.index(following) == hits.index(lead_in) + (1 if body is CODE else 2)


@pytest.mark.parametrize(("end", "body"), [(".", CODE), (":", PROSE)])
def test_no_lead_in_or_nothing_introduced_is_no_neighbour(tmp_path: Path, end: str, body: str) -> None:
    """A last sentence ending in '.', or a next passage opening with prose: it is the section's child."""
    hits = walk(tmp_path, INTRO.format(end=end) + body)
    lead_in, following = lead_in_and_next(hits)
    assert lead_in.via != "seed"
    assert following.via == "children"
