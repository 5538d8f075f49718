"""Item text: the passage without the marks of its Markdown headings or trailing blank lines."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from clew.corpus.ingest.api import ingest_paths
from clew.corpus.reader import Scope
from clew.corpus.store import Corpus
from clew.navigation.evidence import FetchArgs, fetch_evidence
from clew.navigation.ledger import EvidenceLedger
from clew.navigation.reading import GetChunkArgs, GrepArgs, ReadArgs, get_chunk, grep, read
from clew.navigation.slices import SliceArgs, fetch_slice
from clew.navigation.tree import TreeArgs, navigate_document_tree
from tests.conftest import Prebuilt, write_files
from tests.navigation.conftest import chunk_rows

POLICY = """# Policy

## Data retention

Records are kept for seven years.

### Backups ###

Nightly copies stay offline.

## Scripts

```sh
# rotate the logs; not a heading
## nor this
logrotate /etc/logrotate.conf
```

#hashtag is not a heading either.

## C#

Setext titles stay as written:

Archive
-------

Old records move here.



"""

EXPECTED = [
    "Policy\n\nData retention\n\nRecords are kept for seven years.",
    "Backups\n\nNightly copies stay offline.",
    "Scripts\n\n```sh\n# rotate the logs; not a heading\n## nor this\nlogrotate /etc/logrotate.conf\n```",
    "#hashtag is not a heading either.",
    "C#\n\nSetext titles stay as written:",
    "Archive\n-------\n\nOld records move here.",
]


def build_policy(folder: Path) -> None:
    """POLICY in docs (30 tokens a chunk), built once a session (``prebuilt``) for every test of the fixture below."""
    with Corpus(folder / "policy.duckdb") as corpus:
        ingest_paths(corpus, [write_files(folder / "docs", {"policy.md": POLICY})], collection="docs",
                     chunk_tokens=30)


@pytest.fixture
def policy(tmp_path: Path, prebuilt: Prebuilt) -> Iterator[Corpus]:
    with Corpus(prebuilt(build_policy, tmp_path) / "policy.duckdb") as corpus:
        yield corpus


def test_items_drop_heading_marks_and_trailing_blank_lines(policy: Corpus) -> None:
    scope = Scope(policy)
    rows = chunk_rows(policy, "policy.md")
    assert [item.text for item in read(scope, ReadArgs(document="policy.md")).items] == EXPECTED
    # what is stored, and the items' locations, are the passages as written
    bodies = [body for *_, body in rows]
    assert bodies[0].startswith("# Policy\n\n## Data retention\n") and bodies[-1].endswith("here.\n\n\n\n")
    text = policy.cursor().execute("SELECT text FROM document_versions").fetchone()[0]
    items = read(scope, ReadArgs(document="policy.md")).items
    assert [text[i.location.char_start:i.location.char_end] for i in items] == bodies


def test_every_tool_shows_the_same_item_text(policy: Corpus) -> None:
    scope = Scope(policy)
    ids = [row[0] for row in chunk_rows(policy, "policy.md")]
    assert [get_chunk(scope, GetChunkArgs(evidence_id=i)).items[0].text for i in ids] == EXPECTED
    assert [p.text for p in fetch_slice(scope, SliceArgs(id=ids[2], window=64)).passages] == EXPECTED
    fetched = fetch_evidence(scope, FetchArgs(ids=ids), ledger=EvidenceLedger())
    assert [e.item.text for e in fetched.evidence if e.item is not None] == EXPECTED
    assert navigate_document_tree(scope, TreeArgs(evidence_id=ids[1], relation="previous")).items[0].text == EXPECTED[0]


def test_grep_still_matches_the_text_as_written(policy: Corpus) -> None:
    scope = Scope(policy)
    found = grep(scope, GrepArgs(document="policy.md", pattern="## Data retention"))
    assert [i.text for i in found.items] == [EXPECTED[0]]


OPTIONS = "# Tool\n\n## Options\n\n| Option | Meaning |\n| --- | --- |\n" + "".join(
    f"| opt_{n} | The option number {n} sets this and that behaviour of the tool. |\n" for n in range(12))


def test_a_tables_later_passage_shows_its_repeated_heading_without_marks(tmp_path: Path) -> None:
    # a table right under its heading: the header the chunker repeats in later passages starts at that
    # heading (a heading joins what follows); the item shows it as the first passage shows it
    with Corpus(tmp_path / "t.duckdb") as corpus:
        ingest_paths(corpus, [write_files(tmp_path / "docs", {"tool.md": OPTIONS})], collection="docs",
                     chunk_tokens=60)
        scope = Scope(corpus)
        rows = chunk_rows(corpus, "tool.md")
        header = corpus.cursor().execute("SELECT header FROM chunks ORDER BY ordinal").fetchall()
        assert len(rows) >= 2 and header[1][0] == "# Tool\n\n## Options\n\n| Option | Meaning |\n| --- | --- |"
        texts = [item.text for item in read(scope, ReadArgs(document="tool.md")).items]
        assert texts[0].startswith("Tool\n\nOptions\n\n| Option | Meaning |\n| --- | --- |\n| opt_0 |")
        assert all(t.startswith("Tool\n\nOptions\n\n| Option | Meaning |\n| --- | --- |\n| opt_") for t in texts[1:])
        assert get_chunk(scope, GetChunkArgs(evidence_id=rows[1][0])).items[0].text == texts[1]
