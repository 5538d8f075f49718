"""An API member's description is quoted under the signature that names it (task X10): the passages as the HTML
reader writes TypeDoc's, Scaladoc's and javadoc's member entries."""

from __future__ import annotations

import time

from clew.agent.declarations import MEMBER_TOKENS, declaration, signature
from clew.agent.generate import extractive_answer
from clew.agent.units import passage_units

_TYPEDOC_OLD = ("#### Returns this\n\n### setSerialBaudrate\n\n"
                "- setSerialBaudrate(baudrate?: number): Promise<void>\n\n- Set the serial baud rate setting\n\n")
"""TypeDoc before 0.20 (dapjs 2.3.0): ``ul.tsd-signatures`` and ``ul.tsd-descriptions``, one item each."""
_TYPEDOC_NEW = "## Methods\n\n### fits\n\n- fits(tokens): boolean\n- Whether tokens more fit.\n\n"
"""TypeDoc 0.26 (tests/fixtures/html/typedoc/budget.html): the signature and its description in one list."""


def _read(text: str) -> list[tuple[str, str, str]]:
    return [(u.kind, u.header, u.own) for u in passage_units(text, "ev1:c:1:1:0", 0)]


def test_a_typedoc_members_description_is_quoted_under_its_signature() -> None:
    assert _read(_TYPEDOC_OLD) == [
        ("item", "setSerialBaudrate(baudrate?: number): Promise<void>", "Set the serial baud rate setting")]
    assert _read(_TYPEDOC_NEW) == [("item", "fits(tokens): boolean", "Whether tokens more fit.")]


def test_a_signature_item_stays_an_item_where_the_structure_does_not_tie_it_to_a_description() -> None:
    """Not under a heading that names the member (TypeDoc's "constructor" over ``new Budget(total)``: the heading's
    word is quoted above the first item, as a name is since task X19), nor with no description after it, nor a
    list of calls inside a section's text."""
    assert _read("### constructor\n\n- new Budget(total): Budget\n\n- Makes a budget\n\n") == [
        ("item", "constructor", "new Budget(total): Budget"), ("item", "", "Makes a budget")]
    assert _read("### reset\n\n- reset(): Promise<boolean>\n\n#### Returns Promise<boolean>\n\n") == [
        ("item", "", "reset(): Promise<boolean>")]
    assert _read("### calls\n\nThe calls are:\n\n- calls(a): number\n- Counts the calls\n") == [
        ("sentence", "", "The calls are:"), ("item", "", "calls(a): number"), ("item", "", "Counts the calls")]


def test_a_scaladoc_members_declaration_heading_is_the_term_of_its_description() -> None:
    text = ("#### def successful[T](result: T): Future[T]\n\nCreates an already completed Future with the specified "
            "result.\n\nT: the type of the value in the future\n\n")
    assert _read(text) == [
        ("sentence", "def successful[T](result: T): Future[T]",
         "Creates an already completed Future with the specified result."),
        ("sentence", "", "T: the type of the value in the future")]
    assert _read("#### def toOption: Option[A]\n\nReturns a Some containing the Left value.\n")[0][1] == (
        "def toOption: Option[A]")
    assert _read("## fs.readFile(path[, options], callback)\n\nReads the entire contents of a file.\n") == [
        ("sentence", "", "Reads the entire contents of a file.")]  # a section's title, not a declaration


def test_a_long_javadoc_signature_is_the_term_of_its_description() -> None:
    text = ("### abbreviate\n\npublic static String abbreviate(String str, String abbrevMarker, int offset, int "
            "maxWidth)\n\nAbbreviates a String using a given replacement marker.\n\n")
    assert _read(text) == [
        ("sentence", "public static String abbreviate(String str, String abbrevMarker, int offset, int maxWidth)",
         "Abbreviates a String using a given replacement marker.")]


def test_a_declaration_with_no_description_after_it_is_quoted_as_before() -> None:
    """documentation.js's ``clamp`` ending its passage (its description is the next passage's), two overloads
    (the first has no description of its own), and a line of code under a label that it does not name (pdoc3's
    "vs" over ``def decorate(...): pre_func() func() post_func()``) stay sentences."""
    assert _read("### clamp\n\nclamp(value: number, low: number, high: number): number\n") == [
        ("sentence", "", "clamp(value: number, low: number, high: number): number")]
    assert _read("def grouped(size: Int, step: Int, pad: Int): Iterator\n\n"
                 "def grouped(size: Int, step: Int, pad: Int, fill: Int): Iterator\n\nGroups the elements.\n") == [
        ("sentence", "", "def grouped(size: Int, step: Int, pad: Int): Iterator"),
        ("sentence", "def grouped(size: Int, step: Int, pad: Int, fill: Int): Iterator", "Groups the elements.")]
    assert _read("vs\n\ndef decorate(func, pre_func=noop, post_func=noop): pre_func() func() post_func()\n") == [
        ("sentence", "vs", "def decorate(func, pre_func=noop, post_func=noop): pre_func() func() post_func()")]


def test_what_is_not_a_members_signature() -> None:
    assert signature("setSerialBaudrate(baudrate?: number): Promise<void>")
    assert signature("pub fn len(&self) -> usize")
    assert not signature("Use open(file) to read it.")
    assert not signature("The Program Counter")
    synopsis = "int f(" + ", ".join(f"int a{i}" for i in range(MEMBER_TOKENS)) + "): number"
    assert not signature(synopsis)  # a synopsis, not a member's signature


def test_the_extract_quotes_the_signature_that_names_the_member() -> None:
    """Task U13's question 7: "Set the serial baud rate setting" was quoted without ``setSerialBaudrate``."""
    getter = ("### getSerialBaudrate\n\n- getSerialBaudrate(): Promise<number>\n\n- Get the serial baud rate "
              "setting\n\n")
    evidence = [("ev1:c:34:1:69", _TYPEDOC_OLD), ("ev1:c:34:1:35", getter)]
    paths = {"ev1:c:34:1:69": ["Methods", "setSerialBaudrate"], "ev1:c:34:1:35": ["Methods", "getSerialBaudrate"]}
    generation = extractive_answer("set the serial baud rate", evidence, paths=paths)
    assert generation is not None
    assert ("setSerialBaudrate(baudrate?: number): Promise<void>\nSet the serial baud rate setting [ev1:c:34:1:69]"
            in generation.answer)


SDL_CREATE_WINDOW = """### SDL_CreateWindow()

```
SDL_Window * SDL_CreateWindow(const char * title, int x, int y, int w, int h, Uint32 flags)
```

Create a window with the specified position, dimensions, and flags.

Returns the window that was created or NULL on failure.
"""
"""Doxygen 1.9's member as the HTML reader writes it (SDL2's SDL_video.h, task U14's question 6): the prototype is a
code block of one line under the member's heading."""


def test_a_one_line_prototype_under_a_members_heading_names_its_description() -> None:
    units = passage_units(SDL_CREATE_WINDOW, "ev1:c:3:1:2", 0, "SDL_video.h")
    prototype = "SDL_Window * SDL_CreateWindow(const char * title, int x, int y, int w, int h, Uint32 flags)"
    assert [(u.kind, u.header) for u in units] == [("sentence", prototype), ("sentence", "")]
    generation = extractive_answer("How do I create a window with SDL?", [("ev1:c:3:1:2", SDL_CREATE_WINDOW)])
    assert generation is not None
    assert generation.answer.startswith(prototype + "\nCreate a window with the specified position")
    # a block of two lines, or of code that declares nothing, stays a code block
    two = SDL_CREATE_WINDOW.replace("Uint32 flags)\n", "Uint32 flags);\nint SDL_GetNumVideoDisplays(void)\n")
    assert passage_units(two, "e", 0, "SDL_video.h")[0].kind == "code"
    call = SDL_CREATE_WINDOW.replace(prototype, "window = make(title)")
    assert passage_units(call, "e", 0, "SDL_video.h")[0].kind == "code"


G_STRDUP = ("### g_strdup ()\n\n```\ngchar *\ng_strdup (const gchar *str);\n```\n\nDuplicates a string. If str is NULL "
            "it returns NULL. The returned string should be freed with g_free() when no longer needed.\n")
"""gtk-doc 1.33's member as the HTML reader writes it (GLib 2.74's glib-String-Utility-Functions.html, task U41's G2):
the prototype is a code block of the return type's line and the call's."""


def test_a_gtk_doc_prototype_of_two_lines_names_its_description_as_written() -> None:
    """The block was no declaration (one line only, Doxygen's), so the description's sentences were quoted best
    first ("If str is NULL it returns NULL." / "The returned string ..." / "Duplicates a string."). It is the
    description's term now, quoted in the order written; a block whose first line is no return type alone, or whose
    call does not end its prototype with ";", stays a code block."""
    prototype = "gchar * g_strdup (const gchar *str);"
    units = passage_units(G_STRDUP, "ev1:c:5:1:3", 0, "String Utility Functions")
    assert [(u.kind, u.header) for u in units][0] == ("sentence", prototype)
    generation = extractive_answer("What does g_strdup return if the string is NULL?", [("ev1:c:5:1:3", G_STRDUP)])
    assert generation is not None
    assert generation.answer.startswith(prototype + "\nDuplicates a string.\nIf str is NULL it returns NULL.\n")
    two = G_STRDUP.replace("g_strdup (const gchar *str);", "g_strndup (const gchar *str,\n           gsize n);")
    assert passage_units(two, "e", 0, "t")[0].header == "gchar * g_strndup (const gchar *str, gsize n);"
    for other in ("str = g_strdup (s);\ng_free (str);", "gchar *\ng_strdup (const gchar *str)"):
        block = G_STRDUP.replace("gchar *\ng_strdup (const gchar *str);", other)
        assert passage_units(block, "e", 0, "t")[0].kind == "code"


def test_a_run_of_asterisks_in_a_section_s_opening_code_block_is_read_in_linear_time() -> None:
    """``_C_RETURN`` repeated ``\\*+`` inside a repeated group, so a word, a run of asterisks and any other character
    (an opening block's "note ***...*** end", a heading's last line) was tried in every split of the run: 24
    asterisks took 0.7 s, each one more twice that (review V17). One asterisk an iteration reads the same types."""
    stars = "*" * 26  # before: about 3 s a call here, 40 would have run for days
    started = time.perf_counter()
    block = G_STRDUP.replace("gchar *\ng_strdup (const gchar *str);", f"note {stars} end\ng_strdup (const gchar *str);")
    assert passage_units(block, "e", 0, "t")[0].kind == "code"
    assert not declaration(f"gchar {stars}! g_strdup (const gchar *str);")
    assert time.perf_counter() - started < 1.0
    assert declaration("const gchar * const * g_strsplit (const gchar *string);")  # the types still read
    assert declaration("gchar ** g_strdupv (gchar **str_array);")
