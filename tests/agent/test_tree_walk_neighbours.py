"""What a seed hit's next passage is worth to the walk on a man page (issue 36, task W4):
the next option of a definition list competes at its own worth, the rest of a fenced example
cut in two keeps the neighbour's priority."""

from pathlib import Path

from clew.agent.api import retrieve_sync
from clew.agent.result import EvidenceHit
from clew.agent.scoring import NEIGHBOUR_FLOOR
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.store import Corpus

from ..conftest import write_files

FILLER = "".join(
    f"<dt>--filler-{i}</dt><dd><p>Filler option number {i} tunes the pager colour, the terminal width, the "
    "spelling of dates and other settings that have nothing to do with anything else on this page.</p></dd>\n"
    for i in range(40))
REBASE = f"""<html><head><title>git-rebase(1)</title></head><body>
<h1>git-rebase(1)</h1>
<h2>OPTIONS</h2>
<dl>
<dt>-X &lt;strategy-option&gt;</dt><dd><p>Pass the strategy option through to the merge strategy: -X ours
favours our side of conflicting hunks in a merge, the ours strategy option.</p></dd>
<dt>--rerere-autoupdate</dt><dd><p>After the rerere mechanism reuses a recorded resolution on the current
conflict, allow it to also update the index with the result of resolution.</p></dd>
{FILLER}</dl>
</body></html>
"""
STRATEGIES = """<html><head><title>Merge strategies</title></head><body>
<h1>Merge strategies</h1>
<p>A merge strategy decides how two histories are joined; some take an option.</p>
</body></html>
"""


def walk(corpus: Corpus, query: str, limit: int) -> list[EvidenceHit]:
    request = {"query": query, "include_steps": True, "queries": [{"collection": "docs", "limit": limit}],
               "context_budget_tokens": 2000,
               "steps": {"retrieval": {"navigation": {"strategy": "tree", "selection": "ranked"}}}}
    return list(retrieve_sync(request, corpus=corpus).hits)


def test_the_next_option_of_a_definition_list_competes_at_its_own_worth(tmp_path: Path) -> None:
    """A man page's OPTIONS: each term of the list is a section of its own, the next one beside the
    hit's. The option right after a seed hit is offered by it ('adjacent'), but it is another option,
    no part of what the hit says: a seed hit of another page that scores more on its own goes first
    (with the neighbour's floor of 0.6 of the hit's priority the next option went first: git-022's
    'git rebase -X' -> '--rerere-autoupdate' took the room of the answer at 4,000 tokens)."""
    folder = write_files(tmp_path / "docs", {"git-rebase.html": REBASE, "strategies.html": STRATEGIES})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder], collection="docs")
        hits = walk(corpus, "what does the merge strategy option -X ours do", 2)
    seed = hits[0]
    assert (seed.via, seed.heading_path[-1]) == ("seed", "-X <strategy-option>")
    following = next(h for h in hits if h.heading_path[-1] == "--rerere-autoupdate")
    other = next(h for h in hits if h.document_key == "strategies.html")
    assert (following.via, following.origin) == ("adjacent", seed.evidence_id)
    assert other.via == "seed"
    assert following.score is not None and other.score is not None and seed.score is not None
    assert following.score < other.score < NEIGHBOUR_FLOOR * seed.score
    assert hits.index(other) < hits.index(following)


REVISIONS = """# gitrevisions

## Specifying revisions

Here is an illustration of commit names. Both commit nodes B and C are parents of commit node A.

```
G   H   I
 \\ /    |
  D     E
   \\   /
    B C
    |/
    A
```

```
A =      = A^0
B = A^   = A^1     = A~1
D = A^^  = A^1^1   = A~2
H = D^2  = B^^2    = A^^^2  = A~2^2
```
"""
NAMES = """# Naming

A caret or a tilde after the name of a commit walks back to its parents.
"""


def test_the_rest_of_a_fenced_example_after_a_hit_keeps_the_neighbours_priority(tmp_path: Path) -> None:
    """A hit that ends in a fenced block (gitrevisions' commit graph), and its next passage in the same
    section one fenced block (the table of names the graph illustrates): the example cut in two.
    The table keeps the neighbour's priority and goes before another page's seed hit that scores
    more on its own (as code only it got none: git-005 lost its table at 1,000 and 2,000 tokens)."""
    folder = write_files(tmp_path / "docs", {"gitrevisions.md": REVISIONS, "naming.md": NAMES})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder], collection="docs", chunk_tokens=70)
        hits = walk(corpus, "which names does commit H have when B and C are the parents of A", 2)
    seed = hits[0]
    assert seed.via == "seed" and seed.text.rstrip().endswith("```")
    table = next(h for h in hits if "A~2^2" in h.text)
    other = next(h for h in hits if h.document_key == "naming.md")
    assert (table.via, table.origin) == ("adjacent", seed.evidence_id)
    assert table.text.strip().startswith("```") and other.via == "seed"
    assert table.score is not None and other.score is not None and seed.score is not None
    assert table.score < other.score < NEIGHBOUR_FLOOR * seed.score
    assert hits.index(table) < hits.index(other)
