from pathlib import Path

import pytest

from clew.corpus.reader import Scope
from clew.corpus.store import Corpus
from clew.errors import InputError
from clew.navigation.models import NavigationResult
from clew.navigation.reading import GetChunkArgs, GrepArgs, NavigateArgs, ReadArgs, get_chunk, grep, navigate, read
from clew.tools.builtin import registry
from clew.tools.registry import ToolContext
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
    result = get_chunk(scope, GetChunkArgs(evidence_id=first[0]))
    assert result.status == "ok" and ids_of(result) == [first[0]]
    assert first[5] == "# Guide\n\nIntro paragraph of the guide, which says what the guide is for.\n\n"  # as stored
    assert result.items[0].text == "Guide\n\nIntro paragraph of the guide, which says what the guide is for."
    assert result.document_key == "guide.md" and result.document_id == first[0].rsplit(":", 1)[0].replace(":c:", ":d:")
    assert get_chunk(scope, GetChunkArgs(evidence_id="ev1:c:99:1:0")).status == "unavailable"
    assert get_chunk(scope, GetChunkArgs(evidence_id="ev1:d:1:1")).status == "malformed"
    assert len(get_chunk(scope, GetChunkArgs(evidence_id=first[0], max_chars=5)).items[0].text) == 5


def test_navigate_next_and_previous(scope: Scope, guide: Corpus) -> None:
    s = spans(guide, "guide.md")
    _, start, end = s[3]
    assert ids_of(navigate(scope, NavigateArgs(document="guide.md", start_offset=start, end_offset=end))) == [s[4][0]]
    assert ids_of(navigate(scope, NavigateArgs(document="guide.md", start_offset=start, end_offset=end,
                                               direction="next", top_k=3))) == [s[4][0], s[5][0], s[6][0]]
    assert ids_of(navigate(scope, NavigateArgs(document="guide.md", start_offset=start, end_offset=end,
                                               direction="previous", top_k=2))) == [s[1][0], s[2][0]]
    # a span inside a passage: next starts at or after its end, previous ends at or before its start
    inside = {"document": "guide.md", "start_offset": start + 3, "end_offset": end - 3}
    assert ids_of(navigate(scope, NavigateArgs(**inside))) == [s[4][0]]
    assert ids_of(navigate(scope, NavigateArgs(**inside, direction="previous"))) == [s[2][0]]
    # the ends of the document give empty lists
    last = s[-1]
    end_result = navigate(scope, NavigateArgs(document="guide.md", start_offset=last[1], end_offset=last[2]))
    assert (end_result.status, end_result.items) == ("no_match", [])
    first = NavigateArgs(document="guide.md", start_offset=0, end_offset=s[0][2], direction="previous")
    assert navigate(scope, first).items == []
    # document given as any evidence id of the version
    assert ids_of(navigate(scope, NavigateArgs(document=s[0][0], start_offset=start, end_offset=end))) == [s[4][0]]
    more = navigate(scope, NavigateArgs(document="guide.md", start_offset=0, end_offset=0, top_k=2))
    assert (more.truncated, more.truncation_reason) == (True, "limit")
    assert more.applied == {"start_offset": 0, "end_offset": 0, "top_k": 2, "max_chars": 12000}


def test_read_ranges(scope: Scope, guide: Corpus) -> None:
    s = spans(guide, "guide.md")
    assert ids_of(read(scope, ReadArgs(document="guide.md"))) == [x[0] for x in s]
    assert ids_of(read(scope, ReadArgs(document="guide.md", start=s[2][1], end=s[4][2]))) == [s[2][0], s[3][0], s[4][0]]
    # only passages entirely inside the range
    assert ids_of(read(scope, ReadArgs(document="guide.md", start=s[2][1] + 1, end=s[4][2] - 1))) == [s[3][0]]
    page = read(scope, ReadArgs(document="guide.md", top_k=4))
    assert ids_of(page) == [x[0] for x in s[:4]] and page.truncation_reason == "limit"
    clamped = read(scope, ReadArgs(document="guide.md", start=-50, end=10**9))
    assert clamped.applied["start"] == 0 and clamped.applied["end"] == s[-1][2]
    assert read(scope, ReadArgs(document="guide.md", start=5, end=5)).status == "no_match"
    with pytest.raises(InputError) as caught:
        registry.call("read", {"document": "guide.md", "start": 10, "end": 5}, ToolContext(scope))
    assert caught.value.field == "end"


def test_grep_phrase_and_terms(scope: Scope, guide: Corpus) -> None:
    s = spans(guide, "guide.md")
    assert ids_of(grep(scope, GrepArgs(document="guide.md", pattern="PLATFORM team"))) == [s[-1][0]]
    assert ids_of(grep(scope, GrepArgs(document="guide.md", pattern="team platform"))) == []
    assert ids_of(grep(scope, GrepArgs(document="guide.md", pattern="team platform", mode="term"))) == [s[-1][0]]
    # header rows repeated in later table passages match only where they occur
    assert ids_of(grep(scope, GrepArgs(document="guide.md", pattern="| Setting |"))) == [s[4][0]]
    assert ids_of(grep(scope, GrepArgs(document="guide.md", pattern="planner", top_k=50))) == [s[3][0], s[8][0]]
    limited = grep(scope, GrepArgs(document="guide.md", pattern="the", top_k=2))
    assert len(limited.items) == 2 and limited.truncated is True
    blank = grep(scope, GrepArgs(document="guide.md", pattern="   "))
    assert (blank.status, blank.items) == ("no_match", [])
    assert grep(scope, GrepArgs(document="nowhere.md", pattern="x")).status == "unavailable"


def test_grep_phrase_keeps_its_spacing(scope: Scope, guide: Corpus) -> None:
    s = spans(guide, "guide.md")
    planner = [s[3][0], s[8][0]]  # "The planner reads ...", "... restarting the planner."
    assert ids_of(grep(scope, GrepArgs(document="guide.md", pattern="LANNER", top_k=50))) == planner
    # a leading space is part of the phrase
    leading = grep(scope, GrepArgs(document="guide.md", pattern=" lanner", top_k=50))
    assert (leading.status, leading.items) == ("no_match", [])
    assert ids_of(grep(scope, GrepArgs(document="guide.md", pattern=" PLANNER", top_k=50))) == planner
    # trailing: "planner." does not match
    assert ids_of(grep(scope, GrepArgs(document="guide.md", pattern="planner ", top_k=50))) == [s[3][0]]
    assert ids_of(grep(scope, GrepArgs(document="guide.md", pattern="the  planner", top_k=50))) == []  # inner spacing
    # term mode still splits on whitespace
    assert ids_of(grep(scope, GrepArgs(document="guide.md", pattern=" lanner ", mode="term", top_k=50))) == planner
    for blank in ("", " ", "\t\n"):
        result = grep(scope, GrepArgs(document="guide.md", pattern=blank))
        assert (result.status, result.detail) == ("no_match", "a blank pattern matches nothing")


def test_unknown_documents_are_unavailable(scope: Scope) -> None:
    for call in (lambda d: read(scope, ReadArgs(document=d)),
                 lambda d: navigate(scope, NavigateArgs(document=d, start_offset=0, end_offset=0)),
                 lambda d: grep(scope, GrepArgs(document=d, pattern="a"))):
        assert call("nope.md").status == "unavailable"
        assert call("ev1:d:77:1").status == "unavailable"
        assert call("ev1:zz").status == "malformed"


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (("navigate", {"document": "guide.md", "start_offset": 10, "end_offset": 5}), "end_offset"),
        (("navigate", {"document": "guide.md", "start_offset": "0", "end_offset": 5}), "start_offset"),
        (("navigate", {"document": "guide.md", "start_offset": 0, "end_offset": 5, "direction": "up"}), "direction"),
        (("read", {"document": " "}), "document"),
        (("grep", {"document": "guide.md", "pattern": None}), "pattern"),
        (("grep", {"document": "guide.md", "pattern": "a", "mode": "regex"}), "mode"),
        (("grep", {"document": "guide.md", "pattern": "a", "top_k": 2.0}), "top_k"),
        (("get_chunk", {"evidence_id": ""}), "evidence_id"),
    ],
)
def test_bad_input_names_the_field(scope: Scope, call: tuple[str, dict], field: str) -> None:
    # a tool's arguments are validated once, where they come in (the registry, for every front end)
    with pytest.raises(InputError) as caught:
        registry.call(*call, ToolContext(scope))
    assert caught.value.field == field


def test_ambiguous_key_needs_a_collection(tmp_path: Path, guide: Corpus) -> None:
    from clew.corpus.ingest.api import ingest_paths
    from tests.conftest import write_files
    from tests.navigation.conftest import GUIDE

    ingest_paths(
        guide, [write_files(tmp_path / "other", {"guide.md": GUIDE + "\nOther copy.\n"})], collection="other",
        chunk_tokens=40
    )
    with pytest.raises(InputError) as caught:
        read(Scope(guide), ReadArgs(document="guide.md"))
    assert caught.value.field == "document" and "docs, other" in str(caught.value)
    other = read(Scope(guide, collection="other"), ReadArgs(document="guide.md"))
    assert other.items[-1].text.endswith("\n\nOther copy.")
    assert read(Scope(guide, collection="docs"), ReadArgs(document="guide.md")).status == "ok"
