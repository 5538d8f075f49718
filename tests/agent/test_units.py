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
    of one line (SQLite's dates, the test above) is prose's, not code: it stays a term; the C prototype after
    the name is the term of the description after it (task X10: before, a sentence of its own under the name)."""

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
    prototype = "void glfwGetFramebufferSize(GLFWwindow *window, int *width, int *height)"
    assert [u.header for u in units] == ["Rendering with OpenGL"] * 2 + ["", prototype]  # its description's term
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
    that end without the ``lm(y ~ x1 + x2 ...)`` call it speaks of; the example is now quoted above it, under the
    sentence it interrupts (task X16: git's "If you can do that, you can now recreate the missing object with"
    ``git hash-object -w <recreated-file>`` "and your repository is good again!" lost its start)."""

    example = "```\n> fm2 <- lm(y ~ x1 + x2, data = production)\n```"
    text = ("11.2 Linear models\n\nThe basic function for fitting ordinary multiple models is lm(), and a "
            "streamlined version of the call is as follows: > fitted.model <- lm(formula, data = data.frame) "
            f"For example\n\n{example}\n\nwould fit a multiple regression model of y on x1 and x2 (with implicit "
            "intercept term). The important (but technically optional) parameter data = production specifies "
            "that any variables needed to construct the model should come first from the production data frame.\n")
    units = passage_units(text, "ev1:c:123:1:199", 0)
    interrupted = units[0].own
    assert interrupted.endswith("lm(formula, data = data.frame) For example")
    assert [u.header for u in units if u.own.startswith(("would fit", "The important"))] == [
        f"{interrupted}\n{example}"] * 2
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


def test_a_line_opening_with_a_bullet_character_is_a_list_item() -> None:
    """A PDF reader keeps groff's bullets as text (task X18, U21's G4): apt's sources.list(5) options were one
    paragraph, its second sentence running from the first option's last into the next option ("... config option.
    \u2022 Languages (lang) is ...")."""
    text = (
        "Unsupported options are silently ignored by all APT versions.\n\n"
        "\u2022 Architectures (arch) is a multivalue option defining for which architectures information should be\n"
        "downloaded. If this option isn't set the default is all architectures as defined by the\n"
        "APT::Architectures config option.\n"
        "\u2022 Languages (lang) is a multivalue option defining for which languages information should be\n"
        "downloaded.\n"
        "  \u25e6 a nested point.\n"
    )
    units = passage_units(text, "ev1:c:8:1:11", 0)
    assert [(u.kind, u.own.split(" is ")[0][:24]) for u in units] == [
        ("sentence", "Unsupported options are "),
        ("item", "Architectures (arch)"),
        ("item", "Languages (lang)"),
        ("item", "a nested point."),
    ]
    assert not any("\u2022" in u.own or "\u25e6" in u.own for u in units)
