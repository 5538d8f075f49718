"""A passage's units (clew.agent.units): where a sentence ends, what a lead-in's block is, whose
term a description is."""

from clew.agent.units import passage_units, sentences

from .test_generate import GC_AUTO, GC_PACK_LIMIT


def test_a_sentence_goes_on_past_an_abbreviation_a_number_or_name_follows() -> None:
    """A PDF manual's cross-reference "(p. 216)" and an "e.g." do not end a sentence."""
    text = "See also set xrange (p. 216). Ranges may be given as in e.g. Plot [0:10] sin(x). Fig. 3 shows it."
    assert sentences(text) == ["See also set xrange (p. 216).", "Ranges may be given as in e.g. Plot [0:10] sin(x).",
                               "Fig. 3 shows it."]


def test_a_sentence_ends_inside_a_closing_parenthesis_and_not_after_an_example_s_ex() -> None:
    """PostgreSQL's asides end inside their parenthesis ("value.) This ..."): two sentences; Bootstrap's
    "(ex. `show`)" introduces an example; an ellipsis in a call's arguments ends nothing."""
    text = ("The default is typically 128 megabytes (128MB). (Non-default values of BLCKSZ change the minimum "
            "value.) This parameter can only be set at server start. Generally, these come in an infinitive and "
            "past participle form - where the infinitive (ex. `show`) is triggered at the start of an event. "
            "The format(FORMAT,...) SQL function works like printf().")
    assert sentences(text) == [
        "The default is typically 128 megabytes (128MB).", "(Non-default values of BLCKSZ change the minimum value.)",
        "This parameter can only be set at server start.",
        "Generally, these come in an infinitive and past participle form - where the infinitive (ex. `show`) is "
        "triggered at the start of an event.", "The format(FORMAT,...) SQL function works like printf()."]


def test_a_definition_term_is_context_for_its_own_description_only() -> None:
    """Two definitions in one passage: the second description's context holds its own term, not
    the first one's (a question about gc.auto must not find it in gc.autoPackLimit's text)."""

    auto, limit = passage_units(GC_AUTO + "\n" + GC_PACK_LIMIT, "ev1:c:3:1:40", 0)[0::4][:2]
    assert auto.header == "gc.auto" and "gc.auto" in auto.context
    assert limit.header == "gc.autoPackLimit" and "gc.autopacklimit" in limit.context
    assert "gc.auto" not in limit.context


def test_a_line_of_sql_after_a_sentence_is_its_example_not_the_next_one_s_term() -> None:
    """SQLite's date examples: each description is followed by its query ("Compute the current
    date." then "SELECT date();"), which must not head the next description as its term; a
    statement's syntax after a heading still heads its description."""

    text = ("Compute the current date.\n\nSELECT date();\n\nCompute the last day of the current month.\n\n"
            "SELECT date('now','start of month','+1 month','-1 day');\n\n# PRAGMA wal_autocheckpoint\n\n"
            "PRAGMA wal_autocheckpoint; PRAGMA wal_autocheckpoint=N;\n\n"
            "This pragma queries or sets the write-ahead log auto-checkpoint interval.\n")
    units = passage_units(text, "ev1:c:33:1:4", 0)
    month = next(u for u in units if u.own.startswith("Compute the last day"))
    assert month.header == "" and [f for f, _ in month.follow] == [
        "```\nSELECT date('now','start of month','+1 month','-1 day');\n```"]
    assert [f for f, _ in units[0].follow] == ["```\nSELECT date();\n```"]
    assert units[-1].header == "PRAGMA wal_autocheckpoint; PRAGMA wal_autocheckpoint=N;"


def test_a_block_of_html_markup_in_markdown_is_code_not_a_sentence() -> None:
    """Bootstrap's Markdown keeps a demo's raw markup ("<div id="collapseOne" class="collapse show" ...>"):
    it is code, never quoted as the sentence that answers how a panel collapses; an inline tag may
    still open a sentence."""

    text = ("## Accordion example\n\nUsing the [card](/components/card) component, you can extend the default "
            "collapse behavior to create an accordion. To properly achieve the accordion style, be sure to use "
            "`.accordion` as a wrapper.\n\n\n<div id=\"collapseOne\" class=\"collapse show\" "
            "aria-labelledby=\"headingOne\" data-parent=\"#accordionExample\">\n  <div class=\"card-body\">\n"
            "    Some placeholder content for the first accordion panel. This panel is shown by default, thanks to "
            "the <code>.show</code> class.\n  </div>\n</div>\n\n<kbd>Esc</kbd> closes the panel.\n")
    units = passage_units(text, "ev1:c:13:1:5", 0)
    assert [u.kind for u in units] == ["sentence", "sentence", "code", "sentence"]
    assert units[2].own.startswith("```html\n<div id=\"collapseOne\"") and units[2].own.endswith("</div>\n```")
    assert units[3].own == "<kbd>Esc</kbd> closes the panel."
