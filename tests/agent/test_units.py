"""A passage's units (clew.agent.units): where a sentence ends, what a lead-in's block is, whose
term a description is."""

import subprocess
import sys

from clew.agent.generate import extractive_answer
from clew.agent.units import passage_units, sentences
from clew.corpus.ingest.formats.html import parse_html

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


def test_an_unfenced_python_example_is_code_and_its_comments_are_not_headings() -> None:
    """Sphinx's ``<pre>`` examples reach a passage without fences but with their indentation: a
    line indented under one ending in ":" makes the block code (it was quoted as the sentence
    "def myfunction(arg, ignore_exceptions=False): if ignore_exceptions: ..."), and its indented
    ``# comment`` lines are part of it, not headings that cut it in two."""

    text = ("Return a context manager that returns enter_result from __enter__, but otherwise does nothing. "
            "It is intended to be used as a stand-in for an optional context manager, for example:\n\n"
            "def myfunction(arg, ignore_exceptions=False):\n    if ignore_exceptions:\n"
            "        # Use suppress to ignore all exceptions.\n        cm = contextlib.suppress(Exception)\n"
            "    else:\n        cm = contextlib.nullcontext()\n\n"
            "An example using enter_result:\n\n# Amortize a loan\n\nThe loan is paid off.\n")
    units = passage_units(text, "ev1:c:14:1:12", 0)
    assert [u.kind for u in units] == ["sentence", "sentence", "code", "sentence", "sentence"]
    code = units[2].own
    assert code.startswith("```\ndef myfunction(") and "# Use suppress to ignore all exceptions." in code
    assert [f for f, _ in units[1].follow] == [code] and units[2].intro is units[1]
    assert "amort" in units[4].context  # a comment-like line after a blank line is still a heading


def test_an_example_inside_a_list_item_does_not_carry_on_the_lead_in_s_list() -> None:
    """DocBook's steps: a ``<pre>`` block under a list item is that item's example; the items after
    it are not quoted as more of the lead-in's list (which would spend the extract on the code)."""

    text = ("To use declarative partitioning in this case, use the following steps:\n\n"
            "- Create the measurement table as a partitioned table.\n\n"
            "CREATE TABLE measurement (\n    city_id int not null\n) PARTITION BY RANGE (logdate);\n\n"
            "- Ensure that the enable_partition_pruning configuration parameter is not disabled.\n")
    units = passage_units(text, "ev1:c:18:1:7", 0)
    assert [u.kind for u in units] == ["sentence", "item", "code", "item"]
    assert [f for f, _ in units[0].follow] == ["Create the measurement table as a partitioned table."]
    assert units[3].intro is None
    # the same steps as the HTML reader now writes them, the ``pre`` fenced: the same units
    fenced = text.replace("CREATE TABLE", "```\nCREATE TABLE").replace("(logdate);", "(logdate);\n```")
    units = passage_units(fenced, "ev1:c:18:1:7", 0)
    assert [u.kind for u in units] == ["sentence", "item", "code", "item"]
    assert [f for f, _ in units[0].follow] == ["Create the measurement table as a partitioned table."]
    assert units[3].intro is None


def test_a_synopsis_in_an_html_pre_is_code_not_a_sentence() -> None:
    """npm's synopsis as a Sphinx page writes it (``div.highlight-bash > pre``): the HTML reader fences
    it as the Markdown source did, so the one-line command is a code unit, as in Markdown, not a
    sentence quoted first (npm-004 on the HTML renderings of the npm set)."""
    synopsis = "npm trust gitlab [package] --file [--project|--repo|--repository] [--env|--environment] [-y|--yes]"
    html = ("<h3>npm trust gitlab</h3><p>Create a trusted relationship between a package and GitLab CI/CD</p>"
            '<h4>Synopsis</h4><div class="highlight-bash notranslate"><div class="highlight"><pre><span></span>'
            f"{synopsis}\n</pre></div></div><h4>Flags</h4><table><thead><tr><th>Flag</th><th>Description</th></tr>"
            "</thead><tr><td>--file</td><td>Name of pipeline file (e.g., .gitlab-ci.yml)</td></tr></table>")
    markdown = ("### npm trust gitlab\n\nCreate a trusted relationship between a package and GitLab CI/CD\n\n"
                f"#### Synopsis\n\n```bash\n{synopsis}\n```\n\n#### Flags\n\n| Flag | Description |\n"
                "| --- | --- |\n| --file | Name of pipeline file (e.g., .gitlab-ci.yml) |")
    units = passage_units(parse_html(html).text, "ev1:c:1:1:0", 0)
    assert [(u.kind, u.own) for u in units] == [
        ("sentence", "Create a trusted relationship between a package and GitLab CI/CD"),
        ("code", f"```bash\n{synopsis}\n```"), ("row", "| --file | Name of pipeline file (e.g., .gitlab-ci.yml) |")]
    assert [(u.kind, u.own) for u in units] == [(u.kind, u.own) for u in passage_units(markdown, "ev1:c:1:1:0", 0)]


def test_a_short_lead_in_is_quoted_under_the_sentence_before_it() -> None:
    """tempfile's "The list is:" says nothing of what it lists; the sentence before it does, and is
    quoted above it (as a definition's term is), its length not counted against the lead-in."""

    text = ("Python searches a standard list of directories to find one which the calling user can create "
            "files in. The list is:\n\n- The directory named by the TMPDIR environment variable.\n"
            "- As a last resort, the current working directory.\n")
    units = passage_units(text, "ev1:c:50:1:13", 0)
    lead = units[1]
    assert lead.own == "The list is:" and lead.header.startswith("Python searches a standard list")
    assert lead.text.startswith("Python searches") and len(lead.follow) == 2
    long = passage_units("Nothing here is short enough. These are the values that the setting accepts:\n\n- on\n",
                         "ev1:c:1:1:1", 0)
    assert long[1].header == ""


def test_a_long_api_signature_is_the_term_of_its_description() -> None:
    """Sphinx's ``<dt>`` of json.loads runs to 11 words: it heads its description as a short term
    does, and is not a sentence of its own."""

    text = ("json.loads(s, *, cls=None, object_hook=None, parse_float=None, parse_int=None, parse_constant=None, "
            "object_pairs_hook=None, **kw)\n\nDeserialize s (a str, bytes or bytearray instance containing a JSON "
            "document) to a Python object using this conversion table.\n")
    units = passage_units(text, "ev1:c:33:1:14", 0)
    assert [u.kind for u in units] == ["sentence"]
    assert units[0].header.startswith("json.loads(s, *, cls=None") and units[0].own.startswith("Deserialize s")
    assert {"json.loads", "object_hook"} <= units[0].context  # the question may name it or a parameter


def test_a_haskell_type_signature_is_the_term_of_its_description() -> None:
    """Haddock writes each declaration as its name (the heading html_haddock gives it), its type signature
    and its description: a signature of more than six words was a sentence of its own, and the extract
    quoted "Like decode but returns an error message when decoding fails." without eitherDecode (task U7)."""
    text = ("eitherDecode\n\neitherDecode :: FromJSON a => ByteString -> Either String a\n\n"
            "Like decode but returns an error message when decoding fails.\n\n"
            "(.:?) :: FromJSON a => Object -> Key -> Parser (Maybe a)\n\n"
            "Retrieve the value associated with the given key of an Object.\n")
    units = passage_units(text, "ev1:c:13:1:27", 0)
    assert [(u.header, u.own) for u in units] == [
        ("eitherDecode :: FromJSON a => ByteString -> Either String a",
         "Like decode but returns an error message when decoding fails."),
        ("(.:?) :: FromJSON a => Object -> Key -> Parser (Maybe a)",
         "Retrieve the value associated with the given key of an Object.")]
    assert {"eitherdecod", "fromjson"} <= units[0].context  # the question may name it or a type (stemmed)


def test_an_option_opening_a_line_keeps_its_dashes() -> None:
    """tar's man page read as text: an option and its description on one line. The extract quoted
    'M, --multi-volume ...' and 'transform=EXPRESSION ...' when a unit's ends lost every '-'; a
    loose dash or a heading's marks at either end still go."""

    text = ("Options:\n\n-M, --multi-volume Create/list/extract multi-volume archive.\n\n"
            "--transform=EXPRESSION, --xform=EXPRESSION Use sed replace EXPRESSION to transform file names. -\n\n"
            "--- A rule of dashes is not a unit ---\n\n----------\n")
    texts = [u.text for u in passage_units(text, "ev1:c:7:1:3", 0)]
    assert texts == ["Options:", "-M, --multi-volume Create/list/extract multi-volume archive.",
                     "--transform=EXPRESSION, --xform=EXPRESSION Use sed replace EXPRESSION to transform file names.",
                     "A rule of dashes is not a unit"]


def test_a_list_item_of_one_short_value_is_kept() -> None:
    """SQLite's STRICT tables: the six type names are list items, "INT" and "ANY" of three letters;
    a unit under four characters is junk in prose, but a list item may be one short value."""

    text = ("In a CREATE TABLE statement, if the \"STRICT\" table-option keyword is added to the end, then strict "
            "typing rules apply to that table. The STRICT keyword causes the following differences:\n\n"
            "1. Every column definition must specify a datatype for that column.\n"
            "2. The datatype must be one of following:\n  - INT\n  - INTEGER\n  - REAL\n  - TEXT\n  - BLOB\n"
            "  - ANY\n")
    units = passage_units(text, "ev1:c:58:1:1", 0)
    assert [u.own for u in units if u.kind == "item"][2:] == ["INT", "INTEGER", "REAL", "TEXT", "BLOB", "ANY"]
    answer = extractive_answer("Which type names are allowed for the columns of a STRICT table?",
                               [("ev1:c:58:1:1", text)])
    assert answer is not None and "- INT\n- INTEGER\n- REAL\n- TEXT\n- BLOB\n- ANY" in answer.answer
    assert sentences("It is. Ok. The end.") == ["It is.", "The end."]  # prose under four characters is dropped


NPM_INSTALL_RANGE = """* `npm install [<@scope>/]<name>@<version range>`:

    Install a version of the package matching the specified version range.

    Note that most version ranges must be put in quotes so that your shell will treat it as a single argument.

    Example:

    ```bash
    npm install sax@">=0.1.0 <0.2.0"
    ```

Packages are dropped into the `node_modules` folder under the prefix.
"""


def test_a_paragraph_indented_under_a_list_item_has_the_item_as_context() -> None:
    """npm's install forms: each is a list item whose description is indented under it after a blank
    line. Its sentences were read as prose of their own, without the item's terms (``instal``);
    a paragraph back at the item's margin is no longer its body."""

    units = passage_units(NPM_INSTALL_RANGE, "ev1:c:30:1:14", 0)
    quotes = next(u for u in units if u.own.startswith("Note that most version ranges"))
    assert {"instal", "npm", "scope"} <= quotes.context
    after = next(u for u in units if u.own.startswith("Packages are dropped"))
    assert "scope" not in after.context
    flat = passage_units(NPM_INSTALL_RANGE.replace("\n    ", "\n"), "ev1:c:30:1:14", 0)
    assert "scope" not in next(u for u in flat if u.own.startswith("Note that most")).context  # not indented


def test_a_list_item_of_a_bare_name_is_quoted_only_under_its_lead_in() -> None:
    """npm's "Some examples are:" list of ignored files: "`.gitignore`" quoted alone (when the lead-in
    and its list did not fit) named a file and said nothing of it; now it is quoted under its lead-in
    (and the sentence before that), whatever the budget; a longer item may still be quoted alone."""

    text = ("By default, some paths and files are ignored, so there's no need to add them to `.npmignore` "
            "explicitly. Some examples are:\n\n* `.DS_Store`\n* `.git`\n* `.gitignore`\n* `.hg`\n* `.npmignore`\n"
            "* `.npmrc`\n* `.svn`\n* `CVS`\n\n"
            "Additionally, everything in `node_modules` is ignored, except for bundled dependencies.\n")
    question = "Is a .gitignore file left out of the package?"
    lead = ("By default, some paths and files are ignored, so there's no need to add them to `.npmignore` "
            "explicitly.\nSome examples are:\n- `.gitignore` [ev1:c:83:1:8]")
    for budget in (20, 40, 60):
        answer = extractive_answer(question, [("ev1:c:83:1:8", text)], max_tokens=budget)
        assert answer is not None and answer.answer == lead
    longer = text.replace("* `.gitignore`", "* `.gitignore` files of every folder below the package root")
    answer = extractive_answer(question, [("ev1:c:83:1:8", longer)], max_tokens=30)
    assert answer is not None and answer.answer.startswith("`.gitignore` files of every folder below the package root")


def test_a_short_label_does_not_take_the_label_before_it() -> None:
    """SQLite's syntax diagrams leave their labels ("select-stmt:", "common-table-expression:") as lines of
    their own: the label before a short one is not what it is about ("The default is 4.0." takes the
    sentence before it; "common-table-expression:" took "select-stmt:")."""

    text = ("The WITH clause must appear before the SELECT.\n\nselect-stmt:\n\ncommon-table-expression:\n\n"
            "Ordinary common table expressions work as if they were views that exist for one statement.\n")
    answer = extractive_answer("What is a common table expression?", [("ev1:c:43:1:9", text)], max_tokens=250)
    assert answer is not None and "common-table-expression:" in answer.answer
    assert "select-stmt:" not in answer.answer


def test_the_sentence_above_a_short_lead_in_is_quoted_once() -> None:
    """A short lead-in ("Unicode61 supports the following options:") is quoted under the sentence before
    it; that sentence, quoted on its own too, was written twice (sqlite-008)."""

    text = ("Any arguments following \"unicode61\" in the token specification are treated as a list of alternating "
            "option names and values. Unicode61 supports the following options:\n\n"
            "| Option | Usage |\n| --- | --- |\n| remove_diacritics | This option should be set to 0, 1 or 2. |\n"
            "| separators | This option adds separator characters to unicode61 token arguments. |\n")
    answer = extractive_answer("Which arguments does the unicode61 tokenizer accept in its token specification?",
                               [("ev1:c:12:1:34", text)])
    assert answer is not None and answer.answer.count("Any arguments following") == 1
    assert "Unicode61 supports the following options:\n| Option | Usage |" in answer.answer


def test_a_lead_in_quoted_with_its_whole_list_takes_the_sentence_that_sums_the_list_up() -> None:
    """npm's "Exceptions to this are:" list of files that are never packed ends "These cannot be included.",
    the answer to "can I force them in?": with the whole list quoted, the anaphoric sentence after it is
    quoted too (as one after a quoted sentence is); not when only part of the list is quoted."""

    text = ("Certain files are always included, regardless of settings:\n\n* `package.json`\n* `README`\n"
            "* `LICENSE` / `LICENCE`\n\nConversely, some files are always ignored. Exceptions to this are:\n\n"
            "* `.git`\n* `.npmrc`\n* `node_modules`\n* `package-lock.json`\n\nThese cannot be included.\n\n"
            "You can also use a `.npmignore` file in the root of your package.\n")
    answer = extractive_answer("Can I force .npmrc and package-lock.json into my package tarball?",
                               [("ev1:c:79:1:17", text)], max_tokens=60)
    assert answer is not None and answer.answer == (
        "Conversely, some files are always ignored.\nExceptions to this are:\n- `.git`\n- `.npmrc`\n- `node_modules`\n"
        "- `package-lock.json`\nThese cannot be included. [ev1:c:79:1:17]")
    longer = text.replace("* `.git`\n", "".join(f"* `file{n}`\n" for n in range(8)))  # more items than a quote takes
    answer = extractive_answer("Can I force .npmrc and package-lock.json into my package tarball?",
                               [("ev1:c:79:1:17", longer)], max_tokens=120)
    assert answer is not None and "These cannot be included." not in answer.answer


def test_an_unfenced_example_of_one_line_a_paragraph_is_one_code_block() -> None:
    """GLFW's Doxygen guide as the HTML reader reads it (a ``div.fragment``'s lines, one ``div.line``
    each, come out as one-line paragraphs, unfenced): the lines after the example's first are more of
    it, not definition terms; question 6 of task U4 quoted the code cut after ``int width, height;``
    and lost the ``glfwGetFramebufferSize`` call it asked for. A description's term after an example
    of one line (SQLite's dates, the test above) is prose's, not code: it stays a term."""

    text = ("Rendering with OpenGL\n\nOnce you have a current OpenGL context, you can use OpenGL normally. "
            "The framebuffer size needs to be retrieved for glViewport.\n\nint width, height;\n\n"
            "glfwGetFramebufferSize(window, &width, &height);\n\nglViewport(0, 0, width, height);\n\n"
            "glfwGetFramebufferSize\n\nvoid glfwGetFramebufferSize(GLFWwindow *window, int *width, int *height)\n\n"
            "Retrieves the size of the framebuffer of the specified window.\n")
    units = passage_units(text, "ev1:c:51:1:12", 0)
    block = ("```\nint width, height;\nglfwGetFramebufferSize(window, &width, &height);\n"
             "glViewport(0, 0, width, height);\n```")
    assert [(u.kind, u.own) for u in units if u.kind == "code"] == [("code", block)]
    lead = next(u for u in units if u.own.startswith("The framebuffer size"))
    assert [f for f, _ in lead.follow] == [block]
    assert [u.header for u in units] == ["Rendering with OpenGL"] * 2 + ["", "glfwGetFramebufferSize", ""]
    answer = extractive_answer("How do I get the framebuffer size in pixels for glViewport?",
                               [("ev1:c:51:1:12", text)])
    assert answer is not None and "glfwGetFramebufferSize(window, &width, &height);" in answer.answer


def test_a_block_of_options_is_the_term_of_the_description_after_it() -> None:
    """R's texinfo manual as the PDF reader reads it: an option table's terms are set in type, so
    fenced ("--save" and "--no-save" in one block), and each description follows as a paragraph. The
    options are its term, quoted above it; as a code block they were left out, and task U4's
    question 11 quoted "Control whether data sets should be saved ..." without ``--no-save``."""

    text = ("```\n--save\n--no-save\n```\n\nControl whether data sets should be saved or not at the end of the R "
            "session. If neither is given in an interactive session, the user is asked.\n\n```\n--no-environ\n```\n\n"
            "Do not read any user file to set environment variables.\n\n"
            "Run it as follows, from a shell:\n\n```\n--vanilla\nR -q\n```\n")
    units = passage_units(text, "ev1:c:123:1:315", 0)
    assert [(u.kind, u.header) for u in units] == [
        ("sentence", "--save --no-save"), ("sentence", "--save --no-save"), ("sentence", "--no-environ"),
        ("sentence", ""), ("code", "")]
    assert "--save" in units[0].context and "--no-environ" not in units[0].context
    answer = extractive_answer("How do I start R without saving the workspace at the end?",
                               [("ev1:c:123:1:315", text)])
    assert answer is not None and "--no-save" in answer.answer


def test_the_end_of_a_sentence_an_example_interrupts_is_quoted_under_the_example() -> None:
    """R's manual (texinfo, through the PDF reader): "For example" then the example, then the sentence
    goes on in lower case ("would fit a multiple regression model ..."). Task U4's question 8 quoted
    that end without the ``lm(y ~ x1 + x2 ...)`` call it speaks of; the example is now quoted above it."""

    example = "```\n> fm2 <- lm(y ~ x1 + x2, data = production)\n```"
    text = ("11.2 Linear models\n\nThe basic function for fitting ordinary multiple models is lm(), and a "
            "streamlined version of the call is as follows: > fitted.model <- lm(formula, data = data.frame) "
            f"For example\n\n{example}\n\nwould fit a multiple regression model of y on x1 and x2 (with implicit "
            "intercept term). The important (but technically optional) parameter data = production specifies "
            "that any variables needed to construct the model should come first from the production data frame.\n")
    units = passage_units(text, "ev1:c:123:1:199", 0)
    assert [u.header for u in units if u.own.startswith(("would fit", "The important"))] == [example, example]
    answer = extractive_answer("How do I fit a linear regression model?", [("ev1:c:123:1:199", text)])
    assert answer is not None and "lm(y ~ x1 + x2" in answer.answer


def test_a_source_text_title_s_underline_makes_it_a_heading_not_a_sentence() -> None:
    """reStructuredText and AsciiDoc passages are their source: task U6's extract quoted "Whitespace
    Control ------------------" and "NAME ---- git-stash - Stash the changes ..." as sentences. A
    listing block's delimiters around one line are no overlined title."""
    text = ("Whitespace Control\n------------------\n\nIn the default configuration a newline is stripped.\n\n"
            "=====\nUsage\n=====\n\nNAME\n----\ngit-stash - Stash the changes in a dirty working directory away\n")
    units = passage_units(text, "ev1:c:1:1:0", 0)
    assert [u.text for u in units] == ["In the default configuration a newline is stripped.",
                                       "git-stash - Stash the changes in a dirty working directory away"]
    assert "control" in units[0].context
    assert "name" in units[1].context and "usage" not in units[1].context
    assert [u.own for u in passage_units("Run it:\n\n----\n$ git stash\n----\n", "ev1:c:1:1:0", 0)] == [
        "Run it:", "```\n$ git stash\n```"]


def test_rst_code_is_one_fenced_block_with_its_indentation() -> None:
    """A code directive's body or a literal block after "::", blank lines inside it included: read as
    paragraphs, Jinja's filter example lost "return"'s indentation and, after its blank line, the line
    that registers the filter (task U6, question 8)."""
    text = ("Here's a filter that formats datetime objects:\n\n.. code-block:: python\n   :linenos:\n\n"
            "    def datetime_format(value):\n        return value.strftime(\"%H:%M\")\n\n"
            "    environment.filters[\"datetime_format\"] = datetime_format\n\n"
            "You can use it for this::\n\n    env = Environment()\n\n.. note::\n\n    A note.\n")
    assert sentences(text) == [
        "Here's a filter that formats datetime objects:",
        "```python\ndef datetime_format(value):\n    return value.strftime(\"%H:%M\")\n\n"
        "environment.filters[\"datetime_format\"] = datetime_format\n```",
        "You can use it for this:", "```\nenv = Environment()\n```", ".. note::", "A note."]
    assert sentences("You can also revert an earlier change:\n\n------------\n$ git revert HEAD^\n------------\n") == [
        "You can also revert an earlier change:", "```\n$ git revert HEAD^\n```"]
    assert sentences("[[amend]]\nI made a mistake in the last commit::\n\tUse --amend.\n+\nOr start over.\n\n"
                     ".. autofunction:: jinja2.select_autoescape\n") == [
        "I made a mistake in the last commit", "Use --amend.", "Or start over."]
    # AsciiDoc's labeled list (git-stash's options): its terms over its description, which was quoted as code
    units = passage_units("-u::\n--include-untracked::\n\tAll untracked files are also stashed.\n\tThen cleaned.\n",
                          "ev1:c:1:1:0", 0)
    assert [(u.text, u.kind) for u in units] == [
        ("-u --include-untracked\nAll untracked files are also stashed.", "sentence"),
        ("-u --include-untracked\nThen cleaned.", "sentence")]


def test_a_grid_table_s_borders_keep_its_header_and_rows() -> None:
    """reStructuredText's grid table (Jinja's loop variables): each border line ended the table, so the
    row after it was taken for a header and never quoted (task U6, question 9: ``loop.index``)."""
    border = "+---------------+-----------------------------------+"
    text = "\n".join(["Inside of a for-loop block, you can access some special variables:", "", border,
                      "| Variable      | Description                       |", border.replace("-", "="),
                      "| `loop.index`  | The current iteration of the loop. |", border,
                      "| `loop.first`  | True if first iteration.          |", border])
    units = passage_units(text, "ev1:c:1:1:0", 0)
    rows = [u for u in units if u.kind == "row"]
    assert [u.own for u in rows] == ["| `loop.index`  | The current iteration of the loop. |",
                                     "| `loop.first`  | True if first iteration.          |"]
    assert {u.header for u in rows} == {"| Variable      | Description                       |"}


def test_a_line_of_many_blanks_before_its_double_colon_is_read_in_linear_time() -> None:
    """reStructuredText's literal opener ("Example::") matched a line of 200,000 blanks before a "::" in time
    quadratic in them (about 2 minutes); an oversized passage can hold such a line. A child process, so that a
    regression fails the test rather than hanging the run."""
    script = (
        "from clew.agent.units import passage_units\n"
        "text = 'Intro' + ' ' * 200_000 + ':: x\\n\\nRun it::\\n\\n    make\\n'\n"
        "assert passage_units(text, 'ev1:c:1:1:0', 0)\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stdout.strip()) == (0, "ok"), done.stderr


PYTEST_USAGE = """## Specifying which tests to run

Pytest supports several ways to run and select tests from the command-line.

Run tests in a module

```bash
pytest test_mod.py
```

Run tests in a directory

```bash
pytest testing/
```

Run tests by keyword expressions

```bash
pytest -k "MyClass and not method"
```

This will run tests which contain names that match the given string expression (case-insensitive), which can \
include Python operators that use filenames, class names and function names as variables. The example above will \
run TestMyClass.test_something but not TestMyClass.test_method_simple.
"""


def test_a_short_label_over_a_code_block_is_the_block_s_lead_in() -> None:
    """pytest's usage page (task U7, question 1): a label line over each command ("Run tests by keyword
    expressions" over ``pytest -k ...``) introduces that command; it was the term of the paragraph after the
    block and the three blocks hung under the page's first sentence, so the extract quoted the label over the
    wrong text and the command under another's lead-in. A label over prose is still that prose's term; a
    label is not quoted without its block (it ends no sentence: it says nothing alone)."""
    units = passage_units(PYTEST_USAGE, "ev1:c:231:1:1", 0)
    leads = {u.own: [f for f, _ in u.follow] for u in units if u.follow}
    assert leads == {"Run tests in a module": ["```bash\npytest test_mod.py\n```"],
                     "Run tests in a directory": ["```bash\npytest testing/\n```"],
                     "Run tests by keyword expressions": ['```bash\npytest -k "MyClass and not method"\n```']}
    assert all(u.header == "" for u in units)
    answer = extractive_answer("How do I run only the tests whose names match a keyword expression with pytest?",
                               [("ev1:c:231:1:1", PYTEST_USAGE)])
    assert answer is not None and (
        'Run tests by keyword expressions\n```bash\npytest -k "MyClass and not method"\n```' in answer.answer)
    short = extractive_answer("How do I run only the tests whose names match a keyword expression with pytest?",
                              [("ev1:c:231:1:1", PYTEST_USAGE)], max_tokens=55)
    assert short is not None and "Run tests" not in short.answer  # no room for a block: not its label alone
    described = passage_units("Run tests in a module\n\nPytest runs every test of the module.\n", "ev1:c:1:1:0", 0)
    assert [u.text for u in described] == ["Run tests in a module\nPytest runs every test of the module."]


GLFW_FULL_SCREEN = """### Full screen windows

To create a full screen window, you need to specify which monitor the window should use. In most cases, the \
user's primary monitor is a good choice. For more information about retrieving monitors, see Retrieving monitors.

```
GLFWwindow* window = glfwCreateWindow(640, 480, "My Title", glfwGetPrimaryMonitor(), NULL);
```

Full screen windows cover the entire display area of a monitor, have no border or decorations.
"""


def test_a_cross_reference_is_not_an_example_s_lead_in() -> None:
    """GLFW's window guide (task U4, question 4): the example follows "For more information about retrieving
    monitors, see Retrieving monitors.", a pointer elsewhere that introduces nothing; the sentence before it
    does, and the sentence it goes on from is quoted with it and the example."""
    units = passage_units(GLFW_FULL_SCREEN, "ev1:c:59:1:3", 0)
    block = '```\nGLFWwindow* window = glfwCreateWindow(640, 480, "My Title", glfwGetPrimaryMonitor(), NULL);\n```'
    assert [(u.own, [f for f, _ in u.follow]) for u in units if u.follow] == [
        ("In most cases, the user's primary monitor is a good choice.", [block])]
    answer = extractive_answer("How do I create a full screen window?", [("ev1:c:59:1:3", GLFW_FULL_SCREEN)],
                               max_tokens=80)
    assert answer is not None and answer.answer.startswith(
        "To create a full screen window, you need to specify which monitor the window should use.\n"
        f"In most cases, the user's primary monitor is a good choice.\n{block}")
    see = "Windows can be made full screen. See Retrieving monitors.\n\n```\nglfwSetWindowMonitor(w, m);\n```\n"
    assert [u.own for u in passage_units(see, "ev1:c:59:1:4", 0) if u.follow] == ["Windows can be made full screen."]
    below = see.replace("See Retrieving monitors.", "See the example below.")  # a pointer to the example itself
    assert [u.own for u in passage_units(below, "ev1:c:59:1:4", 0) if u.follow] == ["See the example below."]


GIT_DIRECTLY = """## Using git directly

In case you are missing functionality as it has not been wrapped, you may conveniently use the git command \
directly. It is owned by each repository instance.

```python
git = repo.git
git.checkout("HEAD", b="my_new_branch")  # create a new branch
```

The return value will by default be a string of the standard output channel produced by the command.
"""
TYPER_LIST = """You can declare a CLI option that can be used multiple times, and then get all the values.

For example, let's say you want to accept several users in a single execution.

For this, use the standard Python typing.List to declare it as a list of str:

```python
{!../docs_src/multiple_values/multiple_options/tutorial001.py!}
```

You will receive the values as you declared them, as a list of str.
"""


def test_a_quoted_sentence_takes_the_example_the_next_sentence_introduces() -> None:
    """GitPython's "Using git directly" and Typer's multiple options (task U5, questions 9 and 15): the sentence
    that answers is quoted, but the example is introduced by the sentence after it ("It is owned by each
    repository instance.", "For this, use the standard Python typing.List ...:"), which shares no question
    word: the example was left out. It is quoted with the sentence it goes on from, when it fits. Not a lead-in
    that announces its example (ending in ":" or "e.g.") without leaning on the sentence before it: it is
    quoted on its own terms (taken with the sentence before it, Python's "Roughly equivalent to:" and its long
    recipe cost three answers of the python-docs set)."""
    answer = extractive_answer("How do I run a git command that GitPython does not wrap?",
                               [("ev1:c:6:1:41", GIT_DIRECTLY)], max_tokens=120)
    assert answer is not None and answer.answer.startswith(
        "In case you are missing functionality as it has not been wrapped, you may conveniently use the git command "
        "directly.\nIt is owned by each repository instance.\n```python\ngit = repo.git\ngit.checkout(")
    answer = extractive_answer("How do I accept the same option several times in Typer?",
                               [("ev1:c:303:1:0", TYPER_LIST)], max_tokens=120)
    assert answer is not None and (
        "For example, let's say you want to accept several users in a single execution.\nFor this, use the standard "
        "Python typing.List to declare it as a list of str:\n```python\n") in answer.answer
    answer = extractive_answer("How do I accept the same option several times in Typer?",
                               [("ev1:c:303:1:0", TYPER_LIST.replace("For this, use", "Use"))], max_tokens=120)
    assert answer is not None and "Use the standard Python typing.List" not in answer.answer
    answer = extractive_answer("How do I run a git command that GitPython does not wrap?",
                               [("ev1:c:6:1:41", GIT_DIRECTLY)], max_tokens=40)  # the example does not fit
    assert answer is not None and "```" not in answer.answer


def test_a_lead_in_that_ends_no_sentence_is_quoted_only_with_what_it_introduces() -> None:
    """A chunk of PostgreSQL's datetime page opens inside a sentence ("is a timestamp without time zone, while"
    over the literal it speaks of): quoted alone, the fragment says nothing; quoted, it brings its literal."""
    text = ("is a timestamp without time zone, while\n\n```\nTIMESTAMP '2004-10-19 10:23:54+02'\n```\n\n"
            "is a timestamp with time zone. PostgreSQL never examines the content of a literal string before "
            "determining its type, and therefore will treat both of the above as timestamp without time zone.\n")
    answer = extractive_answer("Which literal is a timestamp without time zone?", [("ev1:c:15:1:15", text)],
                               max_tokens=30)
    assert answer is not None and answer.answer == (
        "is a timestamp without time zone, while\n```\nTIMESTAMP '2004-10-19 10:23:54+02'\n``` [ev1:c:15:1:15]")


TYPER_PASSWORD = """## A Password prompt

When receiving a password, it is very common (in most shells) to not show anything on the screen while typing the \
password.

The program will still receive the password, but nothing will be shown on screen, not even ****.

You can achieve the same using hide_input=True.

And if you combine it with confirmation_prompt=True you can easily receive a password with double confirmation:

```python
{!../docs_src/options/password/tutorial002.py!}
```
"""


def test_a_sentence_that_does_the_same_as_the_quoted_one_is_quoted_with_it() -> None:
    """Typer's password prompt (task U5, question 12): "You can achieve the same using hide_input=True." holds the
    answer and no question word: it leans on the sentence before it ("the same" stands for it), as a sentence
    opening with an anaphor does, and is quoted with it; "the same" of a thing named after it is no such lean."""
    answer = extractive_answer("How do I ask for a password without showing it on screen in Typer?",
                               [("ev1:c:309:1:1", TYPER_PASSWORD)], max_tokens=80)
    assert answer is not None and answer.answer.startswith(
        "When receiving a password, it is very common (in most shells) to not show anything on the screen while "
        "typing the password.\nThe program will still receive the password, but nothing will be shown on screen, not "
        "even ****.\nYou can achieve the same using hide_input=True.")
    named = TYPER_PASSWORD.replace("You can achieve the same using", "Prompts keep the same name as")
    answer = extractive_answer("How do I ask for a password without showing it on screen in Typer?",
                               [("ev1:c:309:1:1", named)], max_tokens=80)
    assert answer is not None and "Prompts keep the same name" not in answer.answer
