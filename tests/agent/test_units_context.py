"""What a unit carries as context (clew.agent.units): whose parameter a row of a table without a header row
is, and which lines are an entry's metadata, not its term (the new-user trials U8 and U9, task X7)."""

from clew.agent.generate import extractive_answer
from clew.agent.units import passage_units, sentences
from clew.corpus.tokenize import tokenize

GLIB_FREE_FULL = """\
### g_list_free_full ()

```
void
g_list_free_full (GList *list,
                  GDestroyNotify free_func);
```

Convenience method, which frees all the memory used by a GList, and calls free_func on every element's data.

free_func must not modify the list (eg, by removing the freed element from it).
"""

GLIB_FREE_FULL_PARAMETERS = """\
#### Parameters

| list | the first link of a GList |  |
| free_func | the function to be called to free each element's data |  |
"""

GLIB_REMOVE_PARAMETERS = """\
#### Parameters

| list | a GList, this must point to the top of the list |  |
| data | the data of the element to remove |  |
"""

PATHS = {"ev1:c:26:1:41": ["Doubly-Linked Lists", "Functions", "g_list_free_full ()"],
         "ev1:c:26:1:42": ["Doubly-Linked Lists", "Functions", "g_list_free_full ()", "Parameters"],
         "ev1:c:26:1:28": ["Doubly-Linked Lists", "Functions", "g_list_remove ()", "Parameters"]}


def test_a_table_without_a_header_row_is_rows_under_its_section_path() -> None:
    """gtk-doc's Parameters table has no header row (the HTML reader writes a header row's "| --- |" separator, and
    there is none): its first row was read as the header and quoted over every other row ("| list | the first link
    of a GList |" over "| free_func | ..."), and the extract quoted the rows without the function's name (U8 q14).
    Each line is a row now, under the passage's section path ("g_list_free_full () › Parameters"), whose terms are
    the rows' context; without a path the rows stand alone; a table with a header row keeps it."""
    where = "g_list_free_full () › Parameters"
    rows = passage_units(GLIB_FREE_FULL_PARAMETERS, "ev1:c:26:1:42", 0, where)
    assert [(u.kind, u.header, u.own) for u in rows] == [
        ("row", where, "| list | the first link of a GList |  |"),
        ("row", where, "| free_func | the function to be called to free each element's data |  |")]
    assert set(tokenize("g_list_free_full Parameters")) <= rows[0].context
    bare = passage_units(GLIB_FREE_FULL_PARAMETERS, "ev1:c:26:1:42", 0)
    assert [(u.header, u.own) for u in bare] == [("", rows[0].own), ("", rows[1].own)]
    headed = passage_units("| Name | Meaning |\n| --- | --- |\n| list | the first link |\n", "ev1:c:1:1:0", 0, where)
    assert [(u.header, u.own) for u in headed] == [("| Name | Meaning |", "| list | the first link |")]


def test_a_parameter_row_is_quoted_with_its_function_s_name() -> None:
    """U8 q14, the three passages of the trial's pack: the quote of a parameter row says whose parameter it is."""
    evidence = [("ev1:c:26:1:28", GLIB_REMOVE_PARAMETERS), ("ev1:c:26:1:41", GLIB_FREE_FULL),
                ("ev1:c:26:1:42", GLIB_FREE_FULL_PARAMETERS)]
    answer = extractive_answer("How do I free a GList together with the data of its elements?", evidence,
                               max_tokens=250, paths=PATHS)
    assert answer is not None
    quoted = answer.answer.splitlines()
    free_func = next(k for k, line in enumerate(quoted) if line.startswith("| free_func |"))
    assert "g_list_free_full () › Parameters" in quoted[:free_func]
    assert "| data | the data of the element to remove |  |" not in quoted[0]


NODE_HAS_REF = """\
#### timeout.hasRef()

Added in: v11.0.0

- Returns: <boolean>

If true, the Timeout object will keep the Node.js event loop active.
"""


def test_a_version_line_is_metadata_not_the_term_of_the_description_after_it() -> None:
    """Node.js's "Added in: v11.0.0" under a method's heading is not a definition's term (a short line that ends no
    sentence): it was quoted over "If true, the Timeout object will keep the Node.js event loop active." (U8 q6).
    Such a line ("Added in:", "Since:", "Deprecated since", "Stability:", "History") is a unit of its own, quoted
    only when the question shares its words (when it was added), and never an example's lead-in."""
    units = passage_units(NODE_HAS_REF, "ev1:c:153:1:8", 0)
    assert [(u.kind, u.header, u.own) for u in units] == [
        ("sentence", "", "Added in: v11.0.0"), ("item", "", "Returns: <boolean>"),
        ("sentence", "", "If true, the Timeout object will keep the Node.js event loop active.")]
    answer = extractive_answer("How do I make a timer that does not keep the Node.js process alive?",
                               [("ev1:c:153:1:8", NODE_HAS_REF)], max_tokens=250)
    assert answer is not None and "Added in" not in answer.answer
    added = extractive_answer("In which version was timeout.hasRef() added?", [("ev1:c:153:1:8", NODE_HAS_REF)],
                              max_tokens=250)
    assert added is not None and "Added in: v11.0.0" in added.answer
    for note in ("Since: 2.28", "Stability: 2 - Stable", "Deprecated since: v16.0.0", "History"):
        text = f"### g_foo ()\n\n{note}\n\n```\ng_foo ();\n```\n\nFrees the foo.\n"
        kinds = [(u.kind, u.header, u.own, bool(u.follow)) for u in passage_units(text, "ev1:c:1:1:0", 0)]
        assert kinds == [("sentence", "", note, False), ("code", "", "```\ng_foo ();\n```", False),
                         ("sentence", "", "Frees the foo.", False)]


GLIB_TIMEOUT_DESCRIPTION = """\
### g_timeout_add_seconds ()

Sets a function to be called at regular intervals with the default priority, G_PRIORITY_DEFAULT.

See g_get_monotonic_time().
"""

GLIB_TIMEOUT_PARAMETERS = """\
#### Parameters

| interval | the time between calls to the function, in seconds |  |
| function | function to call |  |
| data | data to pass to function |  |
"""


def test_a_table_under_its_own_heading_is_not_the_rows_of_the_passage_before() -> None:
    """U8 q12: "See g_get_monotonic_time()." ends the function's description, and the next passage is its Parameters
    table: the pointer was quoted as the rows' lead-in. A passage that opens with a heading keeps its rows; they
    are quoted under their section path, written once over the rows of one table."""
    evidence = [("ev1:c:69:1:166", GLIB_TIMEOUT_DESCRIPTION), ("ev1:c:69:1:167", GLIB_TIMEOUT_PARAMETERS)]
    paths = {"ev1:c:69:1:166": ["The Main Event Loop", "Functions", "g_timeout_add_seconds ()"],
             "ev1:c:69:1:167": ["The Main Event Loop", "Functions", "g_timeout_add_seconds ()", "Parameters"]}
    answer = extractive_answer("How do I call something every few seconds?", evidence,
                               max_tokens=250, paths=paths)
    assert answer is not None
    assert "See g_get_monotonic_time()." not in answer.answer
    assert answer.answer.count("g_timeout_add_seconds () › Parameters") == 1
    assert answer.answer.startswith("g_timeout_add_seconds () › Parameters\n| function | function to call |  |\n"
                                    "| interval | the time between calls to the function, in seconds |  |")
    unheaded = GLIB_TIMEOUT_PARAMETERS.replace("#### Parameters\n\n", "")  # a table the chunker cut: continued
    answer = extractive_answer("How do I call something every few seconds?",
                               [("ev1:c:69:1:166", GLIB_TIMEOUT_DESCRIPTION), ("ev1:c:69:1:167", unheaded)],
                               max_tokens=250, paths=paths)
    assert answer is not None and answer.answer.startswith(
        "See g_get_monotonic_time(). [ev1:c:69:1:166]\ng_timeout_add_seconds () › Parameters\n| interval |")


SETTINGSLOGIC_GET = """\
## Public Class Methods

### [](key)

### get(key)

Enables Settings.get(‘nested.key.name’) for dynamic access

### load!()

Loads the settings.
"""


def test_a_label_that_is_all_its_section_holds_is_a_sentence() -> None:
    """U8 q11: RDoc's "Enables Settings.get('nested.key.name') for dynamic access" (no period, five words) under
    "### get(key)" was read as a label, the term of a paragraph that never came, and never quoted. Alone in its
    section it is a sentence; a name of one or two words, a list of names (a man page's KEYWORDS) or a label
    after other units (a table's title ending its passage) stays context."""
    units = passage_units(SETTINGSLOGIC_GET, "ev1:c:184:1:1", 0)
    assert [u.own for u in units] == ["Enables Settings.get(‘nested.key.name’) for dynamic access",
                                      "Loads the settings."]
    answer = extractive_answer("How do I read a nested setting by a dotted key name with Settingslogic?",
                               [("ev1:c:184:1:1", SETTINGSLOGIC_GET)], max_tokens=250)
    assert answer is not None and answer.answer.startswith("Enables Settings.get(‘nested.key.name’)")
    for context in ("### KEYWORDS\n\ncatch, error, exception\n", "### $EVAL_ERROR\n\n$EVAL_ERROR\n",
                    "## Format\n\nThe header is 100 bytes.\n\nDatabase Header Format\n"):
        assert [u.own for u in passage_units(context, "ev1:c:1:1:0", 0)] == (
            ["The header is 100 bytes."] if "Format" in context else [])


BENCHMARK_IPS = """\
### ips(*args) { |job| ... }

Measure code in block, each code's benchmarked result will display in iteration per second with standard deviation \
in given time. @param time [Integer] Specify how long should benchmark your code in seconds. @param warmup \
[Integer] Specify how long should Warmup time run in seconds. @return [Report]
"""


def test_a_doc_comment_s_tag_opens_a_sentence() -> None:
    """U8 q7: RDoc keeps a method's YARD tags in its paragraph; "@param warmup [Integer] Specify how long should
    Warmup time run in seconds." was the tail of one 46-word sentence, scored as one. A tag after a sentence's end
    opens the next; an npm scope ("@npm/cli") does not."""
    assert sentences(BENCHMARK_IPS.split("\n\n", 1)[1]) == [
        "Measure code in block, each code's benchmarked result will display in iteration per second with standard "
        "deviation in given time.", "@param time [Integer] Specify how long should benchmark your code in seconds.",
        "@param warmup [Integer] Specify how long should Warmup time run in seconds.", "@return [Report]"]
    assert len(sentences("Install it from the registry. @npm/cli is the package.")) == 1
    units = passage_units("### warming(label, _warmup)\n\nAlso aliased as: running\n\n### footer()\n", "ev1:c:1:1:1", 0)
    assert units == []  # a field and its value alone in its section stays context (RDoc's alias line)


GROONGA_EXAMPLE = """Here is an example to create TABLE_HASH_KEY table:

Execution example:

```
table_create Tags TABLE_HASH_KEY ShortText
# [[0, 1337566253.89858, 0.000355720520019531], true]
```

The table_create command creates a table that is named Tags, is TABLE_HASH_KEY type and has ShortText type key.
"""


def test_a_label_under_a_lead_in_leaves_the_example_to_the_lead_in() -> None:
    """Groonga's Sphinx pages (task U11, question 6) put a label between a lead-in and its example ("Here is an
    example to create TABLE_HASH_KEY table:", "Execution example:", the command): the label took the example, and
    the extract quoted the lead-in alone, which says nothing without it. The lead-in now introduces the example."""
    units = passage_units(GROONGA_EXAMPLE, "ev1:c:7:1:0", 0)
    assert [(u.own, [f for f, _ in u.follow]) for u in units if u.kind == "sentence"][0] == (
        "Here is an example to create TABLE_HASH_KEY table:",
        ["```\ntable_create Tags TABLE_HASH_KEY ShortText\n# [[0, 1337566253.89858, 0.000355720520019531], true]\n```"])
    assert all(u.own != "Execution example:" for u in units)
    question = "How do I create a table keyed by a hash of a string?"
    answer = extractive_answer(question, [("ev1:c:7:1:0", GROONGA_EXAMPLE)])
    assert answer is not None and "table_create Tags TABLE_HASH_KEY ShortText" in answer.answer
