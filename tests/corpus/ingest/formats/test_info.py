"""GNU Info manuals read by ``formats.info`` (task I1): tests/fixtures/info/README.md says where the excerpt comes
from."""

from __future__ import annotations

import pytest

from clew.corpus.ingest.formats.info import indirect_parts, node_id, parse_info
from clew.corpus.ingest.parsed import ParsedDocument, UnreadableDocument
from tests.conftest import FIXTURES

COREUTILS = FIXTURES / "info" / "coreutils.info"


@pytest.fixture(scope="module")
def coreutils() -> ParsedDocument:
    parsed = parse_info(COREUTILS.read_text(encoding="utf-8"))
    parsed.check()
    return parsed


def blocks(parsed: ParsedDocument, kind: str) -> list[str]:
    return [parsed.text[b.start : b.end] for b in parsed.blocks if b.kind == kind]


def linked(parsed: ParsedDocument) -> list[tuple[str, str]]:
    """Each link's first words (of its line) and its target."""
    return [(" ".join(parsed.text[link.start :].split("\n", 1)[0].split()[:3]), link.href) for link in parsed.links]


def test_nodes_are_the_sections_of_makeinfo_s_html_by_their_underlines(coreutils: ParsedDocument) -> None:
    assert coreutils.title == "GNU Coreutils"
    assert [(s.heading, s.level, s.parent, s.anchors) for s in coreutils.sections[1:]] == [
        ("GNU Coreutils", 1, 0, ["Top"]),
        ("3.3 ‘nl’: Number lines and write files", 3, 1, ["nl-invocation"]),
        ("7 Operating on sorted files", 2, 1, ["Operating-on-sorted-files"]),
        # the tag table's Ref: under the node names an anchor of it
        ("7.1 ‘sort’: Sort text files", 3, 3, ["sort-invocation", "sort-invocation_002dFootnote_002d1"]),
    ]


def test_the_preamble_index_tag_table_and_trailer_are_left_out(coreutils: ParsedDocument) -> None:
    text = coreutils.text
    assert text.startswith("# GNU Coreutils\n\nThis manual documents version 9.1")
    for left_out in (
        "INFO-DIR-SECTION",
        "produced by makeinfo",
        "Tag Table",
        "coding: utf-8",
        "Concept index\n",
        "(line",
        "\x00",
        "\x08",
        "[index",
        "* Menu:",
    ):
        assert left_out not in text, left_out


def test_menus_are_lists_of_links_to_their_nodes_and_the_detailed_listing_is_left_out(
    coreutils: ParsedDocument,
) -> None:
    items = blocks(coreutils, "list_item")
    assert items[:3] == [
        "- Output of entire files: cat tac nl od base32 base64 basenc",
        "- Operating on sorted files: sort shuf uniq comm ptx tsort",
        "- Concept index: General index",
    ]
    assert "- sort invocation: Sort text files." in items
    links = linked(coreutils)
    assert links[:3] == [
        ("Output of entire", "#Output-of-entire-files"),
        ("Operating on sorted", "#Operating-on-sorted-files"),
        ("Concept index: General", "#Concept-index"),
    ]
    assert ("sort invocation: Sort", "#sort-invocation") in links
    assert "#nl-invocation" not in [href for _, href in links]  # only in the Top's detailed node listing


def test_cross_references_are_links_to_nodes_and_to_other_manuals(coreutils: ParsedDocument) -> None:
    text = coreutils.text
    assert "long double-precision floating point number. See Floating point. Do not report" in text
    assert "as an index/version number. (See Version sort ordering.)" in text
    assert "for the basic regular expression BRE. See Regular Expressions." in text
    links = linked(coreutils)
    assert ("Floating point. Do", "#Floating-point") in links
    assert ("Version sort ordering.)", "#Version-sort-ordering") in links
    assert ("Regular Expressions.", "grep.info#Regular-Expressions") in links


def test_examples_are_code_and_tables_are_terms_with_their_descriptions(coreutils: ParsedDocument) -> None:
    code = blocks(coreutils, "code")
    assert "```\nsort [OPTION]... [FILE]...\n```" in code
    assert "```\nsort -n -r\n```" in code  # an example inside a list item
    text = coreutils.text
    assert (
        "‘-n’\n‘--numeric-sort’\n‘--sort=numeric’\n\nSort numerically.  The number begins each line".replace("  ", " ")
    ) in text
    assert "\n\nComparison is exact; there is no rounding error.\n\n" in text  # a description's second paragraph
    # a table inside a description, its entries written without blank lines between them
    assert (
        "The styles are:\n\n‘a’\n\nnumber all lines,\n\n‘t’\n\nnumber only nonempty lines (default for body)," in text
    )
    assert "- Minus infinity." in blocks(coreutils, "list_item")


def test_a_node_without_a_heading_is_headed_by_its_name_below_its_up_node() -> None:
    parsed = parse_info(
        "\x1f\nFile: m.info,  Node: Top,  Next: Parts,  Up: (dir)\n\nManual\n******\n\n* Menu:\n\n"
        "* Parts::\n\n\x1f\nFile: m.info,  Node: Parts,  Up: Top\n\n1 Parts\n*******\n\n"
        "\x1f\nFile: m.info,  Node: Loose end,  Up: Parts\n\nText of a node without a heading.\n"
    )
    assert [(s.heading, s.level, s.anchors) for s in parsed.sections[1:]] == [
        ("Manual", 1, ["Top"]),
        ("1 Parts", 2, ["Parts"]),
        ("Loose end", 3, ["Loose-end"]),
    ]


@pytest.mark.parametrize("text", ["name = Views\ncore = 7.x\n", "no node here\x1f\nTag Table:\n\x1f\nEnd Tag Table\n"])
def test_a_file_without_nodes_is_not_an_info_file(text: str) -> None:
    with pytest.raises(UnreadableDocument, match="not a GNU Info file"):
        parse_info(text)


def test_node_ids_and_the_indirect_table() -> None:
    assert [node_id(n) for n in ("sort invocation", "Treating / specially", "Top", "  a\n b")] == [
        "sort-invocation",
        "Treating-_002f-specially",
        "Top",
        "a-b",
    ]
    assert indirect_parts(
        "This is find.info.\n\x1f\nIndirect:\nfind.info-1: 1201\nfind.info-2: 312546\n\x1f\n"
        "Tag Table:\n(Indirect)\nNode: Top\x7f1201\n"
    ) == ["find.info-1", "find.info-2"]
    assert indirect_parts(COREUTILS.read_text(encoding="utf-8")) is None


def one_node(body: str) -> ParsedDocument:
    parsed = parse_info(f"\x1f\nFile: m.info,  Node: Top,  Up: (dir)\n\nManual\n******\n\n{body}")
    parsed.check()
    return parsed


def test_table_shapes_of_real_manuals_are_entries_with_their_descriptions() -> None:
    # bash.info's Conditional Constructs ('select': a blank line under the term) and Programmable Completion
    # Builtins ('compopt': an example, then the text); sed.info's Addresses (a table right under a paragraph)
    parsed = one_node(
        "Addresses can be in any of the following forms:\n‘NUMBER’\n     Specifying a line number.\n\n"
        "'select'\n\n     The 'select' construct allows the easy generation of menus.\n\n"
        "'compopt'\n          compopt [-o OPTION] [NAME]\n     Modify completion options for each NAME.\n\n"
        "Backslash escapes\n\n     The following backslash escape sequences are recognized:\n\n"
        "     ‘\\a’\n          Bell (BEL, Control-G).\n"
    )
    assert parsed.text.split("\n\n")[1:] == [
        "Addresses can be in any of the following forms:",
        "‘NUMBER’",
        "Specifying a line number.",
        "'select'",
        "The 'select' construct allows the easy generation of menus.",
        "'compopt'",
        "```\ncompopt [-o OPTION] [NAME]\n```",
        "Modify completion options for each NAME.",
        "Backslash escapes",
        "The following backslash escape sequences are recognized:",
        "‘\\a’",
        "Bell (BEL, Control-G).",
    ]


def test_examples_without_blank_lines_lists_in_descriptions_and_filled_text_are_told_apart() -> None:
    # bash.info's Conditional Constructs ('=~': an example between two lines of text) and Bash Compatibility Mode
    # (an @itemize in a table's description)
    parsed = one_node(
        "'[[...]]'\n     If you want to match 'initial string' at the start of a line, the\n     following will work:\n"
        '          [[ $line =~ ^"initial string" ]]\n     but this will not.\n\n'
        "'compat50 (set using BASH_COMPAT)'\n        * Bash-5.1 changed the way '$RANDOM' is generated to introduce\n"
        "          slightly more randomness.\n        * Another change.\n"
    )
    assert blocks(parsed, "code") == ['```\n[[ $line =~ ^"initial string" ]]\n```']
    assert blocks(parsed, "list_item") == [
        "- Bash-5.1 changed the way '$RANDOM' is generated to introduce slightly more randomness.",
        "- Another change.",
    ]
    assert "If you want to match 'initial string' at the start of a line, the following will work:" in parsed.text


def test_cross_reference_words_are_as_in_the_html() -> None:
    parsed = one_node("*Note Top::, for more.  It is faster (*note Top::).  See *note Top::.  As in *note Top::.\n")
    assert "See Top, for more. It is faster (see Top). See Top. As in Top." in parsed.text
    assert [link.href for link in parsed.links] == ["#Top"] * 4


def test_a_subsubsection_is_at_the_level_of_a_subsection_as_makeinfo_s_html_has_it() -> None:
    parsed = one_node("1.1.1 Sub\n---------\n\nText.\n\n1.1.1.1 Subsub\n..............\n\nMore.\n")
    assert [(s.heading, s.level) for s in parsed.sections[2:]] == [("1.1.1 Sub", 4), ("1.1.1.1 Subsub", 4)]


def test_a_quotation_is_text_and_an_example_stays_code() -> None:
    # find-maint.info's commandments (@quotation) and coreutils.info's examples, indented alike
    parsed = one_node(
        "     Thou shalt check the array bounds of all strings (indeed, all\n     arrays), for surely where thou "
        "typest 'foo' someone someday shall\n     type 'supercalifragilisticexpialidocious'.\n\n"
        "     $ comm -23 file1 file2 | wc -l    # number of lines only in file1\n     1\n\n"
        "     void text(double x, double y, const char *str, double rot, double hadj,\n"
        "               pGgcontext gc, pDevDesc dd);\n"
    )
    assert blocks(parsed, "code") == [
        "```\n$ comm -23 file1 file2 | wc -l    # number of lines only in file1\n1\n```",
        "```\nvoid text(double x, double y, const char *str, double rot, double hadj,\n"
        "          pGgcontext gc, pDevDesc dd);\n```",
    ]
    assert "Thou shalt check the array bounds of all strings (indeed, all arrays), for surely" in parsed.text


def test_deffn_lines_continued_and_many_are_the_terms_of_one_description() -> None:
    # guile.info's "File Ports" (a @deffn line continued at ten columns) and "SRFI-4 API" (twelve @deffnx lines)
    names = "".join(f" -- C Function: scm_u{bits}vector_set_x (vec, i, value)\n" for bits in range(1, 13))
    parsed = one_node(
        " -- Scheme Procedure: with-input-from-file filename thunk\n          [#:guess-encoding=#f] [#:binary=#f]\n"
        " -- Scheme Procedure: with-error-to-file filename thunk [#:encoding=#f]\n          [#:binary=#f]\n"
        "     Open FILENAME and call ‘(THUNK)’ with the new port setup.\n\n"
        "     When THUNK returns, the port is closed.\n\n"
        f"{names}     Set the element at index I in VEC to VALUE.\n"
    )
    assert parsed.text.split("\n\n")[1:4] == [
        "-- Scheme Procedure: with-input-from-file filename thunk [#:guess-encoding=#f] [#:binary=#f]\n"
        "-- Scheme Procedure: with-error-to-file filename thunk [#:encoding=#f] [#:binary=#f]",
        "Open FILENAME and call ‘(THUNK)’ with the new port setup.",
        "When THUNK returns, the port is closed.",
    ]
    assert not blocks(parsed, "code")
    assert parsed.text.endswith(
        "-- C Function: scm_u12vector_set_x (vec, i, value)\n\nSet the element at index I in VEC to VALUE."
    )
