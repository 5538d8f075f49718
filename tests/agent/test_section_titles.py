"""A quoted passage opens with its section's title where the title names what the section defines (task X27, T3b)."""

from __future__ import annotations

import pytest

from clew.agent.generate import extractive_answer
from clew.agent.titles import section_title

# evals/mkdocs-docs' Snippets page (PyMdown Extensions), its "Dedent Subsections" section as the reader writes it
DEDENT = (
    "## Dedent Subsections\n\nNew 9.10\n\nExperimental\n\n"
    "By default, when a subsection is extracted from a file via the section notation or the lines notation, the "
    "content is inserted exactly how it is extracted. Unfortunately, sometimes you are extracting an indented chunk, "
    "and you do not intend for that chunk to be indented.\n\n"
    "dedent_subsections is a recent option that has been added to see if it alleviates the issue. When specifying a "
    "subsection of a file to insert as a snippet, via \"sections\" or \"lines\", that content will have all common "
    "leading whitespace removed from every line in text.\n"
)
NESTED = (
    "## Lines Still Contain Snippet Notation\n\n"
    "process_snippet_lines runs before snippets nested in the lines are expanded. The lines contain the notation of "
    "any nested snippets, and changes are not applied to the content of nested snippets.\n"
)


def test_a_section_named_by_its_option_is_quoted_under_its_title() -> None:
    question = "Is there a way to strip the common indentation from a snippet when I only pull in some of its lines?"
    evidence = [("ev1:c:39:1:19", NESTED), ("ev1:c:39:1:15", DEDENT)]
    paths = {"ev1:c:39:1:19": ["Snippets", "Lines Still Contain Snippet Notation"],
             "ev1:c:39:1:15": ["Snippets", "Dedent Subsections"]}
    generation = extractive_answer(question, evidence, paths=paths)
    assert generation is not None
    lines = generation.answer.splitlines()
    assert "Dedent Subsections" in lines  # the option's name, which the quoted sentences do not write
    assert lines[lines.index("Dedent Subsections") + 1].startswith("When specifying a subsection")
    assert "Lines Still Contain Snippet Notation" not in generation.answer  # a heading's words, no name


@pytest.mark.parametrize(
    ("path", "text", "title"),
    [
        (["Snippets", "Dedent Subsections"], DEDENT, "Dedent Subsections"),  # the passage writes dedent_subsections
        (["SuperFences", "Relaxed Headers"], "The relaxed_headers option ...", "Relaxed Headers"),
        (["Command-line options", "--exact"], "Tests whose names match exactly.", "--exact"),  # mdBook's flag
        (["Dispatcher", "interceptors.decompress([opts])"], "Decompresses the body.",
         "interceptors.decompress([opts])"),  # Undici's member
        (["Configuration", "effective_cache_size (integer)"], "Sets the planner's assumption.",
         "effective_cache_size (integer)"),
        (["Snippets", "Dedent Subsections"], "Some content.", ""),  # the passage does not write the option
        (["20.8. Error Reporting", "20.8.2. When to Log"], "log_min_messages ...", ""),  # a section's number
        (["Changelog", "9.5"], "Fix: ...", ""),  # a version
        (["MagicLink", "Auto-Linking"], "Auto-linking of URLs ...", ""),  # one word, written as it is joined
        (["Bash Features", "Shell Parameter Expansion"], "The $ character ...", ""),
        (["Tabbed"], "# Tabbed\n\nTabbed provides a syntax ...", ""),  # a page's own title
        (["Snippets", "Use the new dedent subsections option here"], "dedent_subsections", ""),  # a sentence
    ],
)
def test_a_title_is_written_only_when_it_names_a_thing_as_code_does(path: list[str], text: str, title: str) -> None:
    assert section_title(path, text) == title


def test_a_title_the_quote_writes_already_is_not_repeated() -> None:
    text = "Match test names exactly: --exact runs only the test named, not those that contain the name.\n"
    generation = extractive_answer("what does --exact do when I name a test", [("ev1:c:3:1:2", text)],
                                   paths={"ev1:c:3:1:2": ["mdbook test", "--exact"]})
    assert generation is not None
    assert generation.answer == "Match test names exactly: --exact runs only the test named, not those that contain " \
                                "the name. [ev1:c:3:1:2]"


def test_two_passages_of_one_section_write_its_title_once() -> None:
    question = "Which mode of PRAGMA wal_checkpoint leaves the WAL file empty?"
    pragma = ("ev1:c:50:1:118", "PRAGMA schema.wal_checkpoint(PASSIVE);\n\nIf write-ahead log mode is enabled, this "
              "pragma causes a checkpoint operation to run on database schema.\n")
    truncate = ("ev1:c:50:1:119", "TRUNCATE\n\nThis mode works the same way as RESTART with the addition that the WAL "
                "file is truncated to zero bytes upon successful completion.\n")
    section = ["PRAGMA Statements", "List Of PRAGMAs", "PRAGMA wal_checkpoint"]
    generation = extractive_answer(question, [pragma, truncate], paths={pragma[0]: section, truncate[0]: section})
    assert generation is not None
    assert generation.answer.splitlines().count("PRAGMA wal_checkpoint") == 1
    assert "truncated to zero bytes" in generation.answer
