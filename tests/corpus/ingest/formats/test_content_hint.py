"""The content-root hint (``may_have_content_root``) answers as the plain case-insensitive regex it
replaces, which was the slowest line of an HTML ingest."""

from __future__ import annotations

import random
import re

import pytest

from clew.corpus.ingest.formats.html_root import may_have_content_root

REFERENCE = re.compile(
    r"""<(?:main|article)\b|\brole\s*=\s*["']?main\b|\bitemprop\s*=\s*["']?articleBody\b"""
    r"""|\bid\s*=\s*["']?yui-main\b|\bclass\s*=\s*["']?(?:[^"'>]*\s)?body[\s"'>]""",
    re.IGNORECASE,
)
PIECES = ["<", "main", "MAIN", "article", "role", "Role", "itemprop", "articleBody", "class", "CLASS", "body",
          "Body", "id", "ID", "yui-main", "YUI-Main", "=", " ", "\n", "'", '"', ">", "x", "_", "-", "\u0130", "\u0131",
          "\u017f", "\u212a", "é", "1"]


@pytest.mark.parametrize(("source", "expected"), [
    ("<main>", True), ("<MAIN class=x>", True), ("x<article>", True), ("<mainx>", False),
    ("role='main'", True), ('ROLE = "Main"', True), ("arole=main", False), ("role=mainx", False),
    ("itemprop=articleBody", True), ("xitemprop=articleBody", False), ("\u0130temprop=articlebody", True),
    ('<div class="a body">', True), ("class='a\nbody x'", True), ("subclass='body'", False),
    ('<div id="yui-main">', True), ("ID=Yui-Main", True), ("xid=yui-main", False), ("id=yui-mainx", False),
    ("class='nobody'", False), ("_class='body'", False), ("-class='body'", True), ("", False),
])
def test_the_hint_finds_a_main_element_a_role_or_a_body_class(source: str, expected: bool) -> None:
    assert may_have_content_root(source) is expected
    assert (REFERENCE.search(source) is not None) is expected


def test_the_hint_agrees_with_the_case_insensitive_regex_on_random_markup() -> None:
    rng = random.Random(1)
    sources = ["".join(rng.choice(PIECES) for _ in range(rng.randint(1, 9))) for _ in range(20_000)]
    found = [s for s in sources if REFERENCE.search(s)]
    assert len(found) > 50  # the sample reaches the matches, not only the misses
    assert [s for s in sources if may_have_content_root(s) != (REFERENCE.search(s) is not None)] == []


def test_an_ascii_page_is_searched_lower_cased_first_with_the_same_answers() -> None:
    """An ASCII page is first searched lower-cased for the hint's parts (``_HINT_PARTS``), each alone: it has
    a mark only where one of them is found, and then the same answer as the regex."""
    from clew.corpus.ingest.formats.html_root import _HINT_PARTS

    rng = random.Random(2)
    ascii_pieces = [piece for piece in PIECES if piece.isascii()]
    sources = ["".join(rng.choice(ascii_pieces) for _ in range(rng.randint(1, 9))) for _ in range(20_000)]
    found = [s for s in sources if REFERENCE.search(s)]
    parted = [s for s in sources if any(part.search(s.lower()) for part in _HINT_PARTS)]
    assert len(found) > 50 and len(parted) > len(found)  # the parts find more: boundaries and all
    assert [s for s in sources if may_have_content_root(s) != (REFERENCE.search(s) is not None)] == []
