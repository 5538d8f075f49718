"""Bootstrap's display classes (``html_sweep.swept_chrome``): ``d-none`` hides an element at every width unless a
class beside it shows it from a breakpoint on (or in print), whatever display it shows it with."""

from __future__ import annotations

import pytest

from clew.corpus.ingest.formats.html import parse_html


@pytest.mark.parametrize(
    "shown",
    ["d-md-block", "d-md-inline-block", "d-lg-table-cell", "d-sm-inline-flex", "d-xl-inline-grid", "d-print-table"],
)
def test_a_hidden_element_shown_from_a_breakpoint_on_is_text(shown: str) -> None:
    document = parse_html(
        f'<main><div class="d-none {shown}"><p>Wide screens see this.</p></div><p>All see this.</p></main>'
    )
    assert document.text == "Wide screens see this.\n\nAll see this."


@pytest.mark.parametrize("hidden", ["d-none", "d-none d-print-none", "d-none d-lg-none"])
def test_an_element_hidden_at_every_width_is_chrome(hidden: str) -> None:
    document = parse_html(f'<main><div class="{hidden}"><p>across.Rd</p></div><p>All see this.</p></main>')
    assert document.text == "All see this."
