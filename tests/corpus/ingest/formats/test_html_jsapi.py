"""documentation.js's and ESDoc's pages as a new user's trial met them (task U17: lodash 4.17.21's API by
documentation.js 14, luxon 2.5.2's by ESDoc 1.1). tests/fixtures/html/README.md says where each fixture comes from."""

from __future__ import annotations

from clew.corpus.ingest.formats.html import parse_html
from tests.corpus.ingest.formats.documents import HTML_FIXTURES, block_texts, load_html


def test_a_documentation_js_members_parts_are_field_lists() -> None:
    """documentation.js labels a member's parts with a ``div.prose-big`` over them: "Returns" read as a paragraph
    above "boolean: Whether the budget still holds.", and an extract quoted it alone. The parameters, properties and
    return value are field lists, as docutils' are; "Example" stays a label over its code."""
    document = load_html("documentationjs/index.html")
    paragraphs = block_texts(document, "paragraph")
    assert "Returns: boolean: Whether the budget still holds." in paragraphs
    assert "Returns: number: The clamped value." in paragraphs
    assert "Parameters: kind (string) \"tool\" or \"tokens\"." in paragraphs
    assert "amount (number = 1) How much." in paragraphs
    assert "Properties: maxToolCalls (number) : Tool calls at most (1-20)." in paragraphs
    for label in ("Returns", "Parameters", "Properties"):
        assert label not in paragraphs, label
    assert "Example" in paragraphs
    assert "#### spend(kind, amount)\n\nSpend one unit." in document.text


def test_a_documentation_js_page_built_without_a_name_is_titled_documentation() -> None:
    """Built without a project name (``documentation build lodash.js -f html``), the ``<title>`` is "| Documentation",
    which ``clew ls``, the outline and every hit showed."""
    page = (HTML_FIXTURES / "documentationjs" / "index.html").read_text(encoding="utf-8")
    unnamed = page.replace("<title>clew-budgets 1.0.0 | Documentation</title>", "<title> | Documentation</title>")
    assert unnamed != page
    assert parse_html(unnamed).title == "Documentation"
    assert parse_html(page).title == "clew-budgets 1.0.0 | Documentation"


def test_a_documentation_js_page_cut_inside_a_parts_closing_tag_is_read() -> None:
    """A file that ends in a labelled part's unclosed ``</div`` (a truncated download) is read to its end: finding
    where the part ends raised ValueError out of parse_html."""
    page = (HTML_FIXTURES / "documentationjs" / "index.html").read_text(encoding="utf-8")
    label = page.index("<div class='py1 quiet mt1 prose-big'>Parameters</div>")
    part = page.index("<div", label + len("<div class='py1 quiet mt1 prose-big'>Parameters</div>"))
    cut = page[:part] + "<div>kind (string)</div"
    assert "Parameters: kind (string)" in block_texts(parse_html(cut), "paragraph")


def test_an_esdoc_class_page_opens_with_its_title() -> None:
    """ESDoc writes the class's import line and kind above its ``h1``: a passage with no heading before the title on
    every class page. They are the title's first paragraphs."""
    document = load_html("esdoc/budget-class.html")
    assert document.text.startswith("# Budget\n\n```\nimport {Budget} from 'clew-budgets/src/budget.js'\n```\n\n"
                                    "public class\n\nA budget a run spends")
    assert document.sections[0].heading == "Budget" and document.sections[0].start == 0


def test_an_esdoc_page_is_titled_by_its_name_without_the_projects() -> None:
    """ESDoc titles every page "<page> | <project>": "Reference | luxon", "Source | luxon" in ``clew ls``. The page's
    name is the title, and the home page's the project's."""
    page = (HTML_FIXTURES / "esdoc" / "budget-class.html").read_text(encoding="utf-8")
    assert load_html("esdoc/budget-class.html").title == "Budget"
    for name, title in (("Reference", "Reference"), ("Source", "Source"), ("src/budget.js", "src/budget.js"),
                        ("Home", "clew-budgets")):
        renamed = page.replace('<title data-ice="title">Budget | clew-budgets</title>',
                               f'<title data-ice="title">{name} | clew-budgets</title>')
        renamed = renamed.replace("<h1", "<h2").replace("</h1>", "</h2>")
        assert parse_html(renamed).title == title, name


def test_an_esdoc_summary_has_no_empty_version_column() -> None:
    """ESDoc's summary tables have a third column for a member's version, empty unless its comment gives one: every
    row read "| public | calls: number |  |" under "| Public Members |  |  |". Left out where empty in every row,
    kept in a table where a row has a version."""
    document = load_html("esdoc/budget-class.html")
    rows = block_texts(document, "table_row")
    assert "| public | calls: number |" in rows
    assert "| public | spend(kind: string, amount: number): boolean. Spend one unit. |" in rows
    assert "| Public Members |  |\n| --- | --- |" in block_texts(document, "table_header")
    assert not any(row.endswith("|  |") for row in rows)
    page = (HTML_FIXTURES / "esdoc" / "budget-class.html").read_text(encoding="utf-8")
    versioned = page.replace("<td>\n      \n      \n    </td>", "<td>1.0.0</td>", 1)
    assert versioned != page
    assert "| public | constructor(limits: Limits). Make a budget. | 1.0.0 |" in block_texts(parse_html(versioned),
                                                                                        "table_row")
