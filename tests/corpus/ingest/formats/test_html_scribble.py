"""Scribble's definition boxes (Racket's documentation) read as Sphinx's object descriptions are (task R24)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from clew.corpus.ingest.formats.html import parse_html

PAIRS = Path(__file__).parents[3] / "fixtures" / "html" / "scribble" / "pairs.html"


def test_a_definition_box_is_a_section_titled_by_its_name_over_its_description() -> None:
    """racket-doc 8.7's "4.10 Pairs and Lists": each box ("procedure", "(pair? v) → boolean?", "v : any/c") was
    paragraphs, and the description after it belonged to no term. Now each binding is a section titled by its name
    under the section around it, its heading the signature after its kind, its contracts a line each, then its
    description and examples up to the next box; a signature over several lines (a table of a cell a word) is one
    line."""
    document = parse_html(PAIRS.read_text(encoding="utf-8"))
    sections = {section.heading: section for section in document.sections}
    assert [section.heading for section in document.sections][2:] == [
        "4.10.1 Pair Constructors and Selectors", "pair?", "null?", "sort"
    ]
    pair = sections["pair?"]
    assert document.sections[pair.parent or 0].heading == "4.10.1 Pair Constructors and Selectors"
    assert pair.level == 6
    assert pair.anchors == ["(def._((quote._~23~25kernel)._pair~3f))"]
    assert document.text[pair.start:pair.end].strip() == (
        "procedure (pair? v) → boolean?\n\nv : any/c\n\nReturns #t if v is a pair, #f otherwise.\n\nExamples:\n\n"
        "```\n> (pair? 1)\n#f\n> (pair? (cons 1 2))\n#t\n> (pair? (list 1 2))\n#t\n> (pair? '(1 2))\n#t\n"
        "> (pair? '())\n#f\n```"
    )
    sort = sections["sort"]
    assert document.text[sort.start:sort.end].startswith(
        "procedure (sort lst less-than? [#:key extract-key #:cache-keys? cache-keys?]) → list?\n\nlst : list?\n"
        "less-than? : (any/c any/c . -> . any/c)\nextract-key : (any/c . -> . any/c) = (lambda (x) x)\n"
        "cache-keys? : boolean? = #f\n\nReturns a list sorted according to the less-than? procedure,"
    )
    assert not document.tables
    assert [block.kind for block in document.blocks].count("heading") == 5


MORE = Path(__file__).parents[3] / "fixtures" / "html" / "scribble" / "memory-order.html"


def test_a_box_of_several_signatures_is_one_entry_and_a_result_below_its_signature_joins_it() -> None:
    """A box of two signatures (``defproc*``, each in a ``table.together``) is one entry titled by the first name,
    the second signature a paragraph of it and its anchor one of the entry's, as a Sphinx overload; a long
    signature's result, written on a row of its own ("→ contract-random-generate-env?"), ends its heading's line; a
    name that links nowhere (``span.RktSymDef``, racket/trait's ``trait?``) names its entry too."""
    document = parse_html(MORE.read_text(encoding="utf-8"))
    assert [(section.heading, section.level) for section in document.sections][2:] == [
        ("memory-order-acquire", 5), ("contract-random-generate-get-current-environment", 5), ("trait?", 5)
    ]
    acquire = document.sections[2]
    assert acquire.anchors == [
        "(def._((quote._~23~25kernel)._memory-order-acquire))", "(def._((quote._~23~25kernel)._memory-order-release))"
    ]
    assert document.text[acquire.start:acquire.end].startswith(
        "procedure (memory-order-acquire) → void?\n\nprocedure (memory-order-release) → void?\n\nThose operations"
    )
    generate = document.sections[3]
    assert document.text[generate.start:generate.end].startswith(
        "procedure (contract-random-generate-get-current-environment) → contract-random-generate-env?\n\nReturns the"
    )
    trait = document.sections[4]
    assert document.text[trait.start:trait.end].strip() == (
        "procedure (trait? v) → boolean?\n\nv : any/c\n\nReturns #t if v is a trait, #f otherwise."
    )


def test_boxes_inside_each_other_s_descriptions_are_read_in_linear_time() -> None:
    """Each box's description was found by reading on from the box to the next box or heading at its level: boxes each
    inside the previous one's description took quadratic time (2,000 deep, 432 KB: 12 s; review V15). A child
    process, so that a regression fails the test rather than hanging the run."""
    script = (
        "from clew.corpus.ingest.formats.html_scribble import _BOX, scribble_definitions\n"
        "box = _BOX + '<tr><td><p class=\"RForeground\"><a class=\"RktValDef\" href=\"#f\">f</a></p></td></tr>"
        "</table></blockquote>'\n"
        "page = '<div>' + (box + '<div><p>text</p>') * 6000 + '</div>' * 6000 + '</div>'\n"
        "out = scribble_definitions(page)\n"
        "assert out.count('<dl class=\"std rkt-def\">') == out.count('</dd></dl>') == 6000\n"
        "assert out.endswith('<p>text</p>' + '</div></dd></dl>' * 6000 + '</div>')\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=20, check=False)
    assert (done.returncode, done.stdout.strip()) == (0, "ok"), done.stderr
