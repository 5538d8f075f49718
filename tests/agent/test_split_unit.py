"""A passage cut inside a paragraph is read with its rest: the two are one unit."""

from pathlib import Path

from clew.agent.api import retrieve_sync
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.store import Corpus

from .conftest import tree_request

ENTRY = ("# Options\n\n## --prefer-offline\n\nWith --prefer-offline the staleness checks for cached data are "
         "bypassed, but missing data is requested from the server as usual. " + " ".join(
             f"Clause {i} of the description goes on without naming the option again." for i in range(12)) +
         " Its default value is false, and a configuration file may set it for every project.\n\n"
         "## --offline\n\nWith --offline nothing is requested from the network at all.\n")


def test_the_rest_of_a_cut_paragraph_is_taken_right_after_it(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "options.md").write_text(ENTRY)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder], collection="docs", chunk_tokens=80)  # the entry's paragraph is cut
        result = retrieve_sync({**tree_request("what does prefer-offline bypass", "docs"), "include_steps": True},
                               corpus=corpus)
    hits = result.hits
    first = next(i for i, h in enumerate(hits) if "staleness checks" in h.text)
    last = next(i for i, h in enumerate(hits) if "Its default value is false" in h.text)
    assert first < last and not hits[first].text.endswith("\n")
    for i in range(first + 1, last + 1):  # every piece of the cut paragraph, taken right after the one before
        assert hits[i].via == "continued" and hits[i].origin == hits[i - 1].evidence_id
