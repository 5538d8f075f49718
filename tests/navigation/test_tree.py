import re
import shutil
from pathlib import Path

import pytest

from clew.corpus.ingest.api import ingest_paths
from clew.corpus.reader import Scope
from clew.corpus.store import Corpus
from clew.errors import InputError
from clew.navigation.models import NavigationResult
from clew.navigation.tree import TreeArgs
from clew.navigation.tree import navigate_document_tree as nav
from clew.tools.builtin import registry
from clew.tools.registry import ToolContext


def ids_of(result: NavigationResult) -> list[str]:
    return [item.evidence_id for item in result.items]


def doc_id(corpus: Corpus, key: str) -> int:
    return corpus.cursor().execute("SELECT id FROM documents WHERE key = ?", [key]).fetchone()[0]


def test_acme_acceptance(acme: Corpus) -> None:
    scope = Scope(acme)
    route = f"ev1:c:{doc_id(acme, 'acme-notes.md')}:1:0"

    parent = nav(scope, TreeArgs(evidence_id=route, relation="parent"))
    assert parent.status == "ok" and parent.multi_section is True
    assert [item.heading_path[-1] for item in parent.items] == ["Route planning", "Dependencies"]

    siblings = nav(scope, TreeArgs(evidence_id=route, relation="siblings"))
    assert siblings.status == "ok"
    assert [item.heading_path[-1] for item in siblings.items] == ["Data retention"]

    children = nav(scope, TreeArgs(evidence_id=route, relation="children"))
    assert children.status == "no_match" and children.items == []

    following = nav(scope, TreeArgs(evidence_id=route, relation="next"))
    (table,) = following.items
    assert (table.kind, table.heading_path[-1]) == ("table", "Dependencies")

    context = nav(scope, TreeArgs(evidence_id=table.evidence_id, relation="table_context"))
    assert ids_of(context) == [table.evidence_id]
    assert context.items[0].text.startswith("| Component | Owner | Purpose |")

    cut = nav(scope, TreeArgs(evidence_id=route, relation="next", max_chars=80))
    assert (cut.truncated, cut.truncation_reason) == (True, "chars")
    assert len(cut.items[0].text) == 80 and cut.items[0].text_truncated is True
    assert cut.items[0].text == table.text[:80]


def test_items_carry_location_and_version(acme: Corpus) -> None:
    scope = Scope(acme)
    result = nav(scope, TreeArgs(evidence_id="ev1:c:1:1:1", relation="previous"))
    (item,) = result.items
    assert item.evidence_id == "ev1:c:1:1:0" and item.document_key == "acme-notes.md"
    assert (item.location.char_start, item.location.char_end, item.location.page_numbers) == (0, 212, [])
    assert result.version_status == "current" and result.applied == {"limit": 10, "max_chars": 12000}
    text = acme.cursor().execute("SELECT text FROM document_versions").fetchone()[0]
    # the stored span, as an item shows it: heading lines without their marks, no trailing blank lines
    assert re.sub(r"(?m)^#+ ", "", text[0:212]).rstrip() == item.text == (
        "Acme Robotics engineering notes\n\nRoute planning\n\nThe logistics team plans delivery routes every "
        "morning before the robots leave the depot.\n\nDependencies\n\nThe planner relies on three internal "
        "components.")


def test_relations_on_the_guide(scope: Scope, guide: Corpus) -> None:
    g = doc_id(guide, "guide.md")

    def c(o: int) -> str:
        return f"ev1:c:{g}:1:{o}"

    # parent: the section the passage holds, as its first passage, with the section's path
    parent = nav(scope, TreeArgs(evidence_id=c(5), relation="parent"))
    assert ids_of(parent) == [c(3)] and parent.items[0].heading_path == ["Guide", "Usage"]
    assert parent.items[0].section_id == f"ev1:s:{g}:1:5" and parent.multi_section is False
    # siblings: Linux -> Mac; Usage -> Support only (Install holds no passage of its own)
    assert [i.heading_path for i in nav(scope, TreeArgs(evidence_id=c(1),
        relation="siblings")).items] == [["Guide", "Install", "Mac"]]
    assert [i.heading_path[-1] for i in nav(scope, TreeArgs(evidence_id=c(3),
        relation="siblings")).items] == ["Support"]
    assert nav(scope, TreeArgs(evidence_id=c(0), relation="siblings")).status == "no_match"  # the only top section
    # children: a section's other passages (its table rows included, its subsections not)
    assert ids_of(nav(scope, TreeArgs(evidence_id=c(3), relation="children"))) == [c(4), c(5), c(6), c(7), c(8)]
    assert ids_of(nav(scope, TreeArgs(evidence_id=c(9),
        relation="children"))) == []  # Contacts is a subsection of Support
    # a table passage's children are the table's other passages
    assert ids_of(nav(scope, TreeArgs(evidence_id=c(5), relation="children"))) == [c(4), c(6), c(7)]
    # previous / next at the ends
    assert nav(scope, TreeArgs(evidence_id=c(0), relation="previous")).status == "no_match"
    assert nav(scope, TreeArgs(evidence_id=c(10), relation="next")).status == "no_match"
    assert ids_of(nav(scope, TreeArgs(evidence_id=c(10), relation="previous"))) == [c(9)]
    # table_context: the table's passages in order, each repeating the header
    context = nav(scope, TreeArgs(evidence_id=c(6), relation="table_context"))
    assert ids_of(context) == [c(4), c(5), c(6), c(7)]
    assert all(item.text.startswith("| Setting | Default | Meaning |") for item in context.items)
    assert nav(scope, TreeArgs(evidence_id=c(3), relation="table_context")).status == "no_match"


def test_limit_then_chars(scope: Scope, guide: Corpus) -> None:
    g = doc_id(guide, "guide.md")
    limited = nav(scope, TreeArgs(evidence_id=f"ev1:c:{g}:1:3", relation="children", limit=2))
    assert len(limited.items) == 2 and (limited.truncated, limited.truncation_reason) == (True, "limit")
    window = nav(scope, TreeArgs(evidence_id=f"ev1:c:{g}:1:7", relation="table_context", limit=2))
    assert ids_of(window) == [f"ev1:c:{g}:1:6", f"ev1:c:{g}:1:7"] and window.truncation_reason == "limit"
    full = nav(scope, TreeArgs(evidence_id=f"ev1:c:{g}:1:3", relation="children"))
    first_len = len(full.items[0].text)
    both = nav(scope, TreeArgs(evidence_id=f"ev1:c:{g}:1:3", relation="children", limit=3, max_chars=first_len + 5))
    assert [len(i.text) for i in both.items] == [first_len, 5]
    assert [i.text_truncated for i in both.items] == [False, True]
    assert (both.truncated, both.truncation_reason) == (True, "chars")
    exact = nav(scope, TreeArgs(evidence_id=f"ev1:c:{g}:1:3", relation="children", limit=1, max_chars=first_len))
    assert exact.items[0].text_truncated is False and exact.truncation_reason == "limit"


def test_bounds_are_clamped_and_reported(scope: Scope) -> None:
    result = nav(scope, TreeArgs(evidence_id="ev1:c:1:1:0", relation="next", limit=500, max_chars=0))
    assert result.applied == {"limit": 50, "max_chars": 1}
    assert len(result.items[0].text) == 1
    assert nav(scope, TreeArgs(evidence_id="ev1:c:1:1:0", relation="next", limit=-3,
        max_chars=10**9)).applied == {"limit": 1, "max_chars": 20000}


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"evidence_id": "   "}, "evidence_id"),
        ({"evidence_id": 7}, "evidence_id"),
        ({"relation": "cousins"}, "relation"),
        ({"relation": None}, "relation"),
        ({"limit": "10"}, "limit"),
        ({"limit": True}, "limit"),
        ({"max_chars": 1.5}, "max_chars"),
    ],
)
def test_bad_input_names_the_field(scope: Scope, kwargs: dict, field: str) -> None:
    args = {"evidence_id": "ev1:c:1:1:0", "relation": "next", **kwargs}
    with pytest.raises(InputError) as caught:  # validated once, where arguments come in (the registry)
        registry.call("navigate_document_tree", args, ToolContext(scope))
    assert caught.value.field == field


@pytest.mark.parametrize("bad", ["ev1:c:1", "ev2:c:1:1:0", "nonsense", "ev1:c:1:0:0", "ev1:d:1:1", "ev1:s:1:1:3"])
def test_malformed_ids_are_a_status(scope: Scope, bad: str) -> None:
    result = nav(scope, TreeArgs(evidence_id=bad, relation="parent"))
    assert result.status == "malformed" and result.items == [] and result.detail


def test_unknown_ids_are_unavailable(scope: Scope) -> None:
    for missing in ("ev1:c:999:1:0", "ev1:c:1:7:0", "ev1:c:1:1:999"):
        result = nav(scope, TreeArgs(evidence_id=missing, relation="next"))
        assert (result.status, result.detail, result.items) == ("unavailable", "no readable passage has this id", [])


def test_superseded_ids_navigate_inside_their_version(tmp_path: Path, acme_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    target = folder / "acme-notes.md"
    shutil.copy(acme_path, target)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder], chunk_tokens=160, merge_sections=True)
        target.write_text(
            target.read_text()
            .replace("30 days", "45 days")
            .replace("## Data retention", "## Dependencies 2\n\nMore.\n\n## Data retention")
        )
        assert ingest_paths(corpus, [folder], chunk_tokens=160, merge_sections=True).versions_created == 1
        scope = Scope(corpus)
        old = nav(scope, TreeArgs(evidence_id="ev1:c:1:1:1", relation="next"))
        assert old.version_status == "superseded"
        assert ids_of(old) == ["ev1:c:1:1:2"] and "30 days" in old.items[0].text
        assert nav(scope, TreeArgs(evidence_id="ev1:c:1:1:2",
            relation="next")).status == "no_match"  # v1 ends here, v2 goes on
        assert [i.heading_path[-1] for i in nav(scope, TreeArgs(evidence_id="ev1:c:1:1:0",
            relation="siblings")).items] == ["Data retention"]
        new = nav(scope, TreeArgs(evidence_id="ev1:c:1:2:1", relation="next"))
        assert new.version_status == "current" and all(":1:2:" in i for i in ids_of(new))


def test_a_store_failure_is_a_status(tmp_path: Path, acme_path: Path) -> None:
    corpus = Corpus(tmp_path / "gone.duckdb")
    ingest_paths(corpus, [acme_path], chunk_tokens=160)
    scope = Scope(corpus)
    corpus.close()
    failed = nav(scope, TreeArgs(evidence_id="ev1:c:1:1:0", relation="next"))
    assert failed.status == "failed" and "could not be read" in failed.detail


def test_children_of_a_section_or_document_node_come_back_as_cards(guide: Corpus, scope: Scope) -> None:
    doc = doc_id(guide, "guide.md")
    top = nav(scope, TreeArgs(evidence_id=f"ev1:d:{doc}:1", relation="children", limit=50))
    assert top.status == "ok" and top.items == []
    # the guide's title section is its root: its intro passage, then its sections in reading order
    assert [(c.kind, c.heading_path[-1]) for c in top.children] == [
        ("passage", "Guide"), ("section", "Install"), ("section", "Usage"), ("section", "Support")]
    install = top.children[1]
    assert install.id.startswith("ev1:s:") and install.passages == 2 and install.tokens > 0
    assert install.preview.startswith("## Install") or "Linux" in install.preview
    below = nav(scope, TreeArgs(evidence_id=install.id, relation="children"))
    assert [(c.kind, c.heading_path[-1]) for c in below.children] == [("section", "Linux"), ("section", "Mac")]
    usage = nav(scope, TreeArgs(evidence_id=top.children[2].id, relation="children"))
    kinds = [c.kind for c in usage.children]
    assert kinds.count("table") == 1 and kinds[0] == "passage"  # its own passages and its table, in order
    table = next(c for c in usage.children if c.kind == "table")
    rows = nav(scope, TreeArgs(evidence_id=table.id, relation="children"))
    assert rows.children and all(c.kind == "passage" for c in rows.children)
    assert nav(scope, TreeArgs(evidence_id=install.id, relation="children", limit=1)).truncation_reason == "limit"
    assert nav(scope, TreeArgs(evidence_id=install.id,
        relation="parent")).status == "malformed"  # other relations start from a passage
    assert nav(scope, TreeArgs(evidence_id=f"ev1:s:{doc}:1:999", relation="children")).status == "unavailable"
    again = nav(scope, TreeArgs(evidence_id=f"ev1:d:{doc}:1", relation="children", limit=50))
    assert again.children == top.children  # the order kept with the structure answers the same
