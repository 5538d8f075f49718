"""The performance page's quality and answers rows agree with the README's recall table and extract figures, which
each eval-set task updates (task V16: E11 added an eleventh set and P1 moved the Bash manual's figures in the README;
the performance page still said "the repository's eight sets", "18 of the 20 cells" and "0.52-0.78")."""

import re

from tests.conftest import ROOT

WORDS = {8: "eight", 9: "nine", 10: "ten", 11: "eleven", 12: "twelve", 13: "thirteen", 14: "fourteen"}


def _readme() -> str:
    return (ROOT / "README.md").read_text()


def _row(name: str) -> str:
    page = (ROOT / "docs" / "performance.md").read_text()
    found = re.search(rf"^\| {name} \| (.*?) \|", page, re.M)
    assert found is not None, name
    return found.group(1)


def test_the_quality_row_spans_the_readmes_recall_table() -> None:
    rows = re.findall(r"^  \| ([^|]+) \| (\d\.\d+) / (\d\.\d+) \| (\d\.\d+) / (\d\.\d+) \|$", _readme(), re.M)
    assert rows and rows[0][0].startswith("SQLite") and rows[1][0].startswith("npm")
    walk = [(float(a), float(b)) for _, a, b, _, _ in rows]
    flat = [(float(a), float(b)) for _, _, _, a, b in rows]
    own = walk[2:]  # the repository's sets (the first two are the shared dev sets)
    at_or_above = sum(w >= f for pair_w, pair_f in zip(walk, flat, strict=True) for w, f in zip(pair_w, pair_f,
                                                                                                strict=True))
    row = _row("quality")
    lows = f"{min(a for a, _ in own):.3f}-{max(a for a, _ in own):.3f}"
    highs = f"{min(b for _, b in own):.3f}-{max(b for _, b in own):.3f}"
    assert f"on the repository's {WORDS[len(own)]} sets {lows} / {highs}" in row
    assert f"at or above flat BM25 in {at_or_above} of the {2 * len(rows)} cells of all {WORDS[len(rows)]} sets" in row
    assert f"in {at_or_above} of these {2 * len(rows)} cells" in " ".join(_readme().split())


def test_the_answers_row_spans_the_readmes_extract_figures() -> None:
    readme = " ".join(_readme().split())
    said = re.search(r"At 2,000 tokens it keeps (.*?) of the evidence phrases", readme)
    assert said is not None
    kept = [(float(value), name) for value, name in re.findall(r"(\d\.\d\d) \(([^)]+)\)", said.group(1))]
    assert kept[0][1] == "SQLite" and kept[1][1] == "npm"
    others = [value for value, _ in kept[2:]]
    row = _row("answers")
    assert f"and {min(others):.2f}-{max(others):.2f} on the other {WORDS[len(others)]} sets" in row
