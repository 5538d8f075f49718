"""A search orders its window by what the question writes: an option's letter case, and the page it names."""

from pathlib import Path

from clew.corpus.ingest.api import ingest_paths
from clew.corpus.search.api import search
from clew.corpus.search.written import _first, document_name, named, other_case, written_options
from clew.corpus.store import Corpus
from tests.conftest import write_files

# Two manual pages whose options differ by letter case only, as ssh(1) and ssh-keygen(1) do (task X24's M3).
KEYGEN = """---
title: ssh-keygen(1)
---

### -L

Prints the contents of one or more certificates.

### -l

Show fingerprint of specified public key file.
"""
SSH = """---
title: ssh(1)
---

### -l login_name

Specifies the user to log in as on the remote machine. This also may be specified on a per-host basis in the
configuration file.

### -L [bind_address:]port:host:hostport

Specifies that connections to the given TCP port or Unix socket on the local (client) host are to be forwarded to
the given host and port, or Unix socket, on the remote side. This works by allocating a socket to listen to either
a TCP port on the local side, optionally bound to the specified bind_address, or to a Unix socket.
"""
NOTES = """---
title: notes
---

### Logging in

Log in with ssh as the user you were given; the key's fingerprint is shown the first time.
"""


def _hits(tmp_path: Path, query: str) -> list[tuple[str, str]]:
    folder = write_files(tmp_path / "man", {"ssh-keygen.md": KEYGEN, "ssh.md": SSH, "notes.md": NOTES})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder], chunk_tokens=220)
        return [(h.document_key, h.heading_path[-1]) for h in search(corpus, {"query": query}).hits]


def test_the_option_in_the_case_written_and_the_page_named_come_first(tmp_path: Path) -> None:
    hits = _hits(tmp_path, "What does ssh -L do?")
    # by BM25 alone ssh-keygen's short -L and -l passages rank first: "-L" and "-l" are one term to the index
    assert hits[:4] == [("ssh.md", "-L [bind_address:]port:host:hostport"), ("ssh.md", "-l login_name"),
                        ("ssh-keygen.md", "-L"), ("ssh-keygen.md", "-l")]


def test_the_option_in_the_case_written_comes_first_without_a_page_named(tmp_path: Path) -> None:
    hits = _hits(tmp_path, "Which option is -l?")  # no page's name is a word of it
    assert {h[1] for h in hits[:2]} == {"-l", "-l login_name"}
    assert {h[1] for h in hits[2:4]} == {"-L", "-L [bind_address:]port:host:hostport"}


def test_a_search_reports_the_options_that_ordered_its_window(tmp_path: Path) -> None:
    # the new order was not in the search's applied, as its rank constant, window and navigation weight are
    # (review V15's leftover, task L2); reported where it moved a passage, as the navigation weight is
    folder = write_files(tmp_path / "man", {"ssh-keygen.md": KEYGEN, "ssh.md": SSH, "notes.md": NOTES})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder], chunk_tokens=220)
        assert search(corpus, {"query": "What does ssh -L do?"}).applied["written_options"] == ["-L"]
        assert search(corpus, {"query": "ssh -L -l", "mode": "bm25"}).applied["written_options"] == ["-L", "-l"]
        assert "written_options" not in search(corpus, {"query": "ssh fingerprint"}).applied
        assert "written_options" not in search(corpus, {"query": "What does --porcelain do?"}).applied  # none moved


def test_a_query_without_an_option_keeps_its_order(tmp_path: Path) -> None:
    hits = _hits(tmp_path, "ssh fingerprint")
    assert hits[:2] == [("notes.md", "Logging in"), ("ssh-keygen.md", "-l")]  # ssh(1) is named, no option: BM25's order


def test_options_names_and_the_group_permutation() -> None:
    assert written_options("git status -s --porcelain=v2, not -1 or a-b") == {"-s", "--porcelain"}
    assert document_name({"title": "ssh(1)"}) == "ssh"
    assert document_name({"title": "Git-Status(1)"}) == "git-status"
    assert document_name({}) is None
    names, parts = named("What does git status -s show?")
    assert {"git", "status", "git status", "git-status", "git status show"} <= names
    assert "-s" not in names and "what" not in parts and {"git", "status", "show"} <= parts
    rows = [(1, 1, i, 10.0 - i) for i in range(5)]
    # members at positions 0, 2, 3; of them 3 comes first; 1 and 4 stay where they are
    moved = _first(rows, [True, False, True, True, False], [False, False, False, True, False])
    assert [r[2] for r in moved] == [3, 1, 0, 2, 4]


def test_other_case_tells_an_option_written_so_from_one_in_another_case() -> None:
    asked = frozenset({"-L"})
    assert other_case(asked, "runs ssh -l user host") == (True, frozenset({"-L"}))
    assert other_case(asked, "-l and -L differ") == (True, frozenset())
    assert other_case(asked, "-Lx and x-l are other tokens") == (False, frozenset())
