"""A link to a whole manual page (issue 36, task G1): the walk offers the page's best passage and its
opening, the first passage that reads as prose. On Git's AsciiDoc pages that opening is the NAME line
when it has twelve words ('git-range-diff - Compare two commit ranges (e.g. two versions of a branch)'),
and what the page says sits past its SYNOPSIS, in DESCRIPTION's first passage: git-029 took the NAME
line through git-format-patch's link and never reached that passage. When the opening is a section of
that one passage, the first prose passage after it is offered through the link too."""

from pathlib import Path

from clew.agent.api import retrieve_sync
from clew.agent.result import EvidenceHit
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.store import Corpus

from ..conftest import write_files

PAGE = """<html><head><title>{name}(1)</title></head><body class="manpage">
<div id="header">
<h1>
{name}(1) Manual Page
</h1>
<h2>NAME</h2>
<div class="sectionbody">
<p>{name} -
   {summary}
</p>
</div>
</div>
<div id="content">
<div class="sect1">
<h2 id="_synopsis">SYNOPSIS</h2>
<div class="sectionbody">
<div class="verseblock">
<pre class="content"><em>{command}</em> {synopsis}</pre>
<div class="attribution">
</div></div>
</div>
</div>
<div class="sect1">
<h2 id="_description">DESCRIPTION</h2>
<div class="sectionbody">
{description}
</div>
</div>
<div class="sect1">
<h2 id="_options">OPTIONS</h2>
<div class="sectionbody">
<div class="dlist"><dl>
{options}
</dl></div>
</div>
</div>
</body></html>
"""
FORMAT_PATCH = PAGE.format(
    name="git-format-patch", summary="Prepare patches for e-mail submission", command="git format-patch",
    synopsis="[-k] [--cover-letter] [--range-diff=&lt;previous&gt;] [&lt;since&gt;]",
    description="""<div class="paragraph"><p>Prepare each non-merge commit with its "patch" in one "message" per
commit, formatted to resemble a UNIX mailbox.</p></div>""",
    options="""<dt class="hdlist1">
--range-diff=&lt;previous&gt;
</dt>
<dd>
<p>
        As a reviewer aid, insert a range-diff (see <a href="git-range-diff.html">git-range-diff(1)</a>)
        into the cover letter, or as commentary of the lone patch of a 1-patch series, showing the
        differences between the previous version of the patch series and the series currently being
        formatted.
</p>
</dd>""")
DESCRIPTION = """<div class="paragraph"><p>This command shows the differences between two versions of a patch
series, or more generally, two commit ranges (ignoring merge commits).</p></div>
<div class="paragraph"><p>To that end, it first finds pairs of commits from both commit ranges
that correspond with each other. Two commits are said to correspond when
the diff between their patches is reasonably small compared to the
patches' size.</p></div>"""
OPTIONS = """<dt class="hdlist1">
--creation-factor=&lt;percent&gt;
</dt>
<dd>
<p>
        Set the creation/deletion cost fudge factor to &lt;percent&gt;. Defaults to 60. Try a larger
        value if git range-diff erroneously considers a large change a total rewrite.
</p>
</dd>"""


def range_diff(summary: str) -> str:
    return PAGE.format(name="git-range-diff", summary=summary, command="git range-diff",
                       synopsis="[--creation-factor=&lt;factor&gt;] ( &lt;range1&gt; &lt;range2&gt; )",
                       description=DESCRIPTION, options=OPTIONS)


def walk(tmp_path: Path, summary: str) -> list[EvidenceHit]:
    folder = write_files(tmp_path / "docs", {"git-format-patch.html": FORMAT_PATCH,
                                             "git-range-diff.html": range_diff(summary)})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder], collection="docs", chunk_tokens=60)
        request = {"query": "which format-patch option puts a reviewer aid into the cover letter",
                   "include_steps": True, "queries": [{"collection": "docs", "limit": 1}],
                   "context_budget_tokens": 2000,
                   "steps": {"retrieval": {"navigation": {"strategy": "tree", "selection": "ranked"}}}}
        return list(retrieve_sync(request, corpus=corpus).hits)


def test_past_a_name_line_the_linked_page_starts_at_its_description(tmp_path: Path) -> None:
    """The seed hit is format-patch's --range-diff entry; its link to git-range-diff(1) offers the page's
    NAME line (its opening: twelve words) and DESCRIPTION's first passage, both from the entry (before:
    DESCRIPTION only as a child of the page, after the NAME line was taken)."""
    hits = walk(tmp_path, "Compare two commit ranges (e.g. two versions of a branch)")
    entry = next(h for h in hits if "As a reviewer aid" in h.text)
    assert entry.via == "seed"
    name = next(h for h in hits if "Compare two commit ranges" in h.text)
    description = next(h for h in hits if "This command shows the differences" in h.text)
    assert (name.via, name.origin) == ("links", entry.evidence_id)
    assert (description.via, description.origin) == ("links", entry.evidence_id)


def test_a_lead_section_that_goes_on_is_where_the_page_starts(tmp_path: Path) -> None:
    """A NAME section of more than one passage is the page's opening text, not a lead line: nothing
    past it comes through the link; DESCRIPTION is read as the page's child."""
    summary = ("Compare two commit ranges (e.g. two versions of a branch). " * 8).strip()
    hits = walk(tmp_path, summary)
    entry = next(h for h in hits if "As a reviewer aid" in h.text)
    lead = [h for h in hits if h.text.lstrip("# ").startswith(("git-range-diff(1) Manual Page", "Compare two"))]
    assert len(lead) > 1
    description = next(h for h in hits if "This command shows the differences" in h.text)
    assert description.origin != entry.evidence_id and description.via != "links"
