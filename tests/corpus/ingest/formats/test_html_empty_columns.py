"""A table column empty in every row is left out (task R24): gtk-doc's annotations column, written for every
parameter table, read "| name | a hostname or physical address |  |" in 550 of libsoup 2.74's passages."""

from __future__ import annotations

from clew.corpus.ingest.formats.html import parse_html
from tests.conftest import FIXTURES

SOUP_ADDRESS = FIXTURES / "html" / "gtk-doc" / "libsoup-soupaddress-functions.html"  # libsoup 2.74, gtk-doc 1.33.1


def test_gtk_doc_s_empty_annotations_column_is_left_out_and_one_with_an_annotation_stays() -> None:
    text = parse_html(SOUP_ADDRESS.read_text(encoding="utf-8")).text
    assert "| name | a hostname or physical address |\n| port | a port number |\n" in text
    annotated = (
        "| addr | a SoupAddress |  |\n| async_context | the GMainContext to call callback from. | [allow-none] |\n")
    assert annotated in text


def test_an_empty_column_anywhere_goes_its_anchors_kept_and_a_header_s_column_stays() -> None:
    page = parse_html(
        "<html><body><h1>Limits</h1><table>"
        "<tr><th></th><th>Name</th><th>Value</th><th></th><th>Notes</th></tr>"
        '<tr><td><a id="max-rows"></a></td><td>max_rows</td><td>1000</td><td> </td><td></td></tr>'
        "<tr><td></td><td>max_depth</td><td>12</td><td><br></td><td></td></tr>"
        "</table></body></html>"
    )
    assert page.text == (
        "# Limits\n\n| Name | Value | Notes |\n| --- | --- | --- |\n| max_rows | 1000 |  |\n| max_depth | 12 |  |"
    )
    assert page.text[page.anchors["max-rows"]:].startswith("max_rows | 1000")


def test_a_table_with_no_text_at_all_is_still_left_out_whole() -> None:
    page = parse_html("<html><body><h1>Empty</h1><table><tr><td> </td><td></td></tr></table><p>After.</p>"
                      "</body></html>")
    assert page.text == "# Empty\n\nAfter."


def test_a_short_row_of_empty_cells_only_keeps_its_anchor_for_the_next_row() -> None:
    # review V17: a row whose every cell lies in a column left out (a one-cell separator holding an anchor) had no
    # cell left to take its anchor, and the anchor went: a link to it dangled where it had named the next row
    page = parse_html(
        '<table><tr><th></th><th>Name</th></tr><tr><td></td><td>alpha</td></tr><tr><td><a id="sep"></a></td></tr>'
        '<tr><td></td><td>beta</td></tr></table><p><a href="#sep">to sep</a></p>'
    )
    assert page.text.startswith("| Name |\n| --- |\n| alpha |\n| beta |")
    assert page.text.startswith("beta", page.anchors["sep"])
