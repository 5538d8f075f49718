"""A table of contents of the other pages is left out; a class page whose members' signatures its traits' pages
repeat is read (task F3)."""

from __future__ import annotations

from pathlib import Path

from clew.corpus.documents import list_documents
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.browser_pages import CONTENTS_HEADINGS, CONTENTS_OVER_TEXT, CONTENTS_WORDS
from clew.corpus.ingest.peek import headings
from clew.corpus.reader import Scope
from clew.corpus.store import Corpus

TRAITS = ("GenSymbols", "GenTypes", "GenTrees", "Extractors", "Calculate")


def _member(trait: str, n: int, under: str) -> str:
    """A Scaladoc 2 member: its signature (``h4.signature``) over ``under``."""
    return (f'<li name="{trait}#reify{n}" visbl="pub"><a id="reify{n}"></a><h4 class="signature"><span class="kind">'
            f'def</span> <span class="name">reify{trait}{n}</span><span class="params">(tree: <a href="Tree.html">'
            f'Tree</a>, depth: Int)</span><span class="result">: <a href="Tree.html">Tree</a></span></h4>{under}'
            "</li>")


def _page(title: str, members: str) -> str:
    return f'<html><body><div id="definition"><h1>{title}</h1></div><ol>{members}</ol></body></html>'


def _scaladoc(root: Path) -> Path:
    """Five traits' pages, each member with its comment, four other classes' pages, and the class that mixes the
    traits in: every member's signature again, over where it is defined (as Scaladoc's ``Reifier.html`` beside its
    traits' pages: 0.33 of its words in 324 headings, its members' comments on the traits' pages)."""
    inherited = "".join(_member("AnyRef", n, '<dl class="attributes block"><dt>Definition Classes</dt><dd>AnyRef '
                                "&#8594; Any</dd></dl>") for n in range(3))
    comment = ('<div class="fullcomment"><p>Reifies the tree of kind {n} into the {trait} universe, keeping its '
               "positions and attachments. The tree is copied first; its symbols are bound to the universe's. A tree "
               "that cannot be reified is reported at its position and left as it is.</p></div>")
    pages = {f"{trait}.html": _page(trait, "".join(_member(trait, n, comment.format(n=n, trait=trait))
                                                   for n in range(30)) + inherited)
             for trait in (*TRAITS, "Phases", "Errors", "States", "Utils")}
    pages["Reifier.html"] = _page("Reifier", "".join(_member(trait, n, (
        f'<dl class="attributes block"><dt>Definition Classes</dt><dd><a href="{trait}.html">{trait}</a></dd></dl>'))
        for trait in TRAITS for n in range(30)))
    root.mkdir()
    for name, text in pages.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_a_class_page_of_inherited_members_is_a_page_not_a_table_of_contents(tmp_path: Path) -> None:
    """Its headings hold its words as a table of contents' do, and the traits' pages hold them again, but each member
    stands over text of its own ("Definition Classes GenSymbols"): it is read; it was left out as "1 table of
    contents (the other pages' headings again: Reifier.html)", and a reader asking for ``Reifier`` found nothing."""
    site = _scaladoc(tmp_path / "reify")
    page_headings, share, over_text = headings(site / "Reifier.html", 1 << 24, CONTENTS_HEADINGS)
    assert len(page_headings) >= CONTENTS_HEADINGS and share >= CONTENTS_WORDS  # what a table of contents has
    assert over_text >= CONTENTS_OVER_TEXT
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="api")
        documents = [row.key for row in list_documents(Scope(corpus, collection="api"))]
        assert "Reifier.html" in documents and len(documents) == 10
        assert (report.excluded, report.problems) == (0, [])


def test_a_heading_stands_over_text_up_to_the_next_of_its_rank_less_the_headings_in_between(tmp_path: Path) -> None:
    """pod2html's ``perltoc.html``: a page's title (``h2``) over its headings (``dt``), each over an empty ``dd``,
    stands over nothing; a member's signature (``h4``) over a ``dt`` and its ``dd`` stands over the ``dd``'s text."""
    toc = "".join(f"<h2>perl{name} - Perl {name} manual</h2><dl>" + "".join(
        f"<dt>Handling {name} record {n}</dt><dd></dd>" for n in range(20)) + "</dl>" for name in TRAITS)
    members = "".join(f"<h4>def reify{n}(tree: Tree): Tree</h4><dl><dt>Definition Classes</dt><dd>GenTrees</dd></dl>"
                      for n in range(60))
    bare = "".join(f"<h4>def reify{n}(tree: Tree): Tree</h4><dl><dt>Definition Classes</dt><dd></dd></dl>"
                   for n in range(60))
    for name, text, expected in (("toc", toc, 0.0), ("members", members, 1.0), ("bare", bare, 0.0)):
        (tmp_path / f"{name}.html").write_text(f"<html><body>{text}</body></html>", encoding="utf-8")
        page_headings, _, over_text = headings(tmp_path / f"{name}.html", 1 << 24, 100)
        assert (len(page_headings), over_text) == (105 if name == "toc" else 120, expected)
