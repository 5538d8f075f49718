from collections.abc import Callable
from pathlib import Path

import pytest

from clew.corpus.reader import Scope
from clew.corpus.store import Corpus
from clew.errors import InputError
from clew.navigation.models import NavigationResult
from clew.navigation.reading import get_chunk, grep, navigate, read
from tests.navigation.conftest import chunk_rows


def spans(corpus: Corpus, key: str) -> list[tuple[str, int, int]]:
    rows = corpus.cursor().execute(
        """SELECT c.document_id, c.version, c.ordinal, c.start_offset, c.end_offset
           FROM documents d JOIN chunks c ON c.document_id = d.id AND c.version = d.current_version
           WHERE d.key = ? ORDER BY c.ordinal""", [key]).fetchall()
    return [(f"ev1:c:{d}:{v}:{o}", s, e) for d, v, o, s, e in rows]


def ids_of(result: NavigationResult) -> list[str]:
    return [item.evidence_id for item in result.items]


def test_get_chunk(scope: Scope, guide: Corpus) -> None:
    first = chunk_rows(guide, "guide.md")[0]
    result = get_chunk(scope, first[0])
    assert result.status == "ok" and ids_of(result) == [first[0]]
    assert first[5] == "# Guide\n\nIntro paragraph of the guide, which says what the guide is for.\n\n"  # as stored
    assert result.items[0].text == "Guide\n\nIntro paragraph of the guide, which says what the guide is for."
    assert result.document_key == "guide.md" and result.document_id == first[0].rsplit(":", 1)[0].replace(":c:", ":d:")
    assert get_chunk(scope, "ev1:c:99:1:0").status == "unavailable"
    assert get_chunk(scope, "ev1:d:1:1").status == "malformed"
    assert len(get_chunk(scope, first[0], max_chars=5).items[0].text) == 5


def test_navigate_next_and_previous(scope: Scope, guide: Corpus) -> None:
    s = spans(guide, "guide.md")
    _, start, end = s[3]
    assert ids_of(navigate(scope, "guide.md", start, end)) == [s[4][0]]
    assert ids_of(navigate(scope, "guide.md", start, end, "next", top_k=3)) == [s[4][0], s[5][0], s[6][0]]
    assert ids_of(navigate(scope, "guide.md", start, end, "previous", top_k=2)) == [s[1][0], s[2][0]]
    # a span inside a passage: next starts at or after its end, previous ends at or before its start
    assert ids_of(navigate(scope, "guide.md", start + 3, end - 3)) == [s[4][0]]
    assert ids_of(navigate(scope, "guide.md", start + 3, end - 3, "previous")) == [s[2][0]]
    # the ends of the document give empty lists
    last = s[-1]
    end_result = navigate(scope, "guide.md", last[1], last[2])
    assert (end_result.status, end_result.items) == ("no_match", [])
    assert navigate(scope, "guide.md", 0, s[0][2], "previous").items == []
    # document given as any evidence id of the version
    assert ids_of(navigate(scope, s[0][0], start, end)) == [s[4][0]]
    more = navigate(scope, "guide.md", 0, 0, top_k=2)
    assert (more.truncated, more.truncation_reason) == (True, "limit")
    assert more.applied == {"start_offset": 0, "end_offset": 0, "top_k": 2, "max_chars": 12000}


def test_read_ranges(scope: Scope, guide: Corpus) -> None:
    s = spans(guide, "guide.md")
    assert ids_of(read(scope, "guide.md")) == [x[0] for x in s]
    assert ids_of(read(scope, "guide.md", s[2][1], s[4][2])) == [s[2][0], s[3][0], s[4][0]]
    # only passages entirely inside the range
    assert ids_of(read(scope, "guide.md", s[2][1] + 1, s[4][2] - 1)) == [s[3][0]]
    page = read(scope, "guide.md", top_k=4)
    assert ids_of(page) == [x[0] for x in s[:4]] and page.truncation_reason == "limit"
    clamped = read(scope, "guide.md", -50, 10**9)
    assert clamped.applied["start"] == 0 and clamped.applied["end"] == s[-1][2]
    assert read(scope, "guide.md", 5, 5).status == "no_match"
    with pytest.raises(InputError) as caught:
        read(scope, "guide.md", 10, 5)
    assert caught.value.field == "end"


def test_grep_phrase_and_terms(scope: Scope, guide: Corpus) -> None:
    s = spans(guide, "guide.md")
    assert ids_of(grep(scope, "guide.md", "PLATFORM team")) == [s[-1][0]]
    assert ids_of(grep(scope, "guide.md", "team platform")) == []
    assert ids_of(grep(scope, "guide.md", "team platform", mode="term")) == [s[-1][0]]
    # header rows repeated in later table passages match only where they occur
    assert ids_of(grep(scope, "guide.md", "| Setting |")) == [s[4][0]]
    assert ids_of(grep(scope, "guide.md", "planner", top_k=50)) == [s[3][0], s[8][0]]
    limited = grep(scope, "guide.md", "the", top_k=2)
    assert len(limited.items) == 2 and limited.truncated is True
    blank = grep(scope, "guide.md", "   ")
    assert (blank.status, blank.items) == ("no_match", [])
    assert grep(scope, "nowhere.md", "x").status == "unavailable"


def test_grep_phrase_keeps_its_spacing(scope: Scope, guide: Corpus) -> None:
    s = spans(guide, "guide.md")
    planner = [s[3][0], s[8][0]]  # "The planner reads ...", "... restarting the planner."
    assert ids_of(grep(scope, "guide.md", "LANNER", top_k=50)) == planner
    leading = grep(scope, "guide.md", " lanner", top_k=50)  # a leading space is part of the phrase
    assert (leading.status, leading.items) == ("no_match", [])
    assert ids_of(grep(scope, "guide.md", " PLANNER", top_k=50)) == planner
    assert ids_of(grep(scope, "guide.md", "planner ", top_k=50)) == [s[3][0]]  # trailing: "planner." does not match
    assert ids_of(grep(scope, "guide.md", "the  planner", top_k=50)) == []  # inner spacing too
    # term mode still splits on whitespace
    assert ids_of(grep(scope, "guide.md", " lanner ", mode="term", top_k=50)) == planner
    for blank in ("", " ", "\t\n"):
        result = grep(scope, "guide.md", blank)
        assert (result.status, result.detail) == ("no_match", "a blank pattern matches nothing")


def test_unknown_documents_are_unavailable(scope: Scope) -> None:
    for call in (lambda d: read(scope, d), lambda d: navigate(scope, d, 0, 0), lambda d: grep(scope, d, "a")):
        assert call("nope.md").status == "unavailable"
        assert call("ev1:d:77:1").status == "unavailable"
        assert call("ev1:zz").status == "malformed"


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda s: navigate(s, "guide.md", 10, 5), "end_offset"),
        (lambda s: navigate(s, "guide.md", "0", 5), "start_offset"),
        (lambda s: navigate(s, "guide.md", 0, 5, direction="up"), "direction"),
        (lambda s: read(s, " "), "document"),
        (lambda s: grep(s, "guide.md", None), "pattern"),
        (lambda s: grep(s, "guide.md", "a", mode="regex"), "mode"),
        (lambda s: grep(s, "guide.md", "a", top_k=2.0), "top_k"),
        (lambda s: get_chunk(s, ""), "evidence_id"),
    ],
)
def test_bad_input_names_the_field(scope: Scope, call: Callable[..., object], field: str) -> None:
    with pytest.raises(InputError) as caught:
        call(scope)
    assert caught.value.field == field


def test_ambiguous_key_needs_a_collection(tmp_path: Path, guide: Corpus) -> None:
    from clew.corpus.ingest import ingest_paths
    from tests.navigation.conftest import GUIDE, write

    ingest_paths(
        guide, [write(tmp_path / "other", {"guide.md": GUIDE + "\nOther copy.\n"})], collection="other", chunk_tokens=40
    )
    with pytest.raises(InputError) as caught:
        read(Scope(guide), "guide.md")
    assert caught.value.field == "document" and "docs, other" in str(caught.value)
    assert read(Scope(guide, collection="other"), "guide.md").items[-1].text.endswith("\n\nOther copy.")
    assert read(Scope(guide, collection="docs"), "guide.md").status == "ok"
