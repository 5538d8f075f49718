"""AsciiDoc's include:: and conditionals as a file is read (git's Documentation/*.txt: a page includes its
options, a partial; the page sets an attribute the partial's ifdef:: asks for), and the partials left out
as documents of their own."""

from __future__ import annotations

from pathlib import Path

import pytest

from clew.corpus.ingest import includes
from clew.corpus.ingest.formats.lightmarkup import parse_asciidoc, parse_plain
from clew.corpus.ingest.source_file import read_source
from clew.corpus.ingest.sources import FileLimits, find_files

PAGE = """git-log(1)
==========

NAME
----
git-log - Show commit logs

OPTIONS
-------
:git-log: 1
include::diff-options.txt[]

EXAMPLES
--------
include::examples/log.txt[tag=short]

include::missing.txt[]
include::../outside.txt[]
include::git-log.txt[]
"""
OPTIONS = """// the partial: no title of its own
ifdef::git-format-patch[]
--no-stat::
	Generate plain patches without any diffstats.
endif::git-format-patch[]

ifndef::git-format-patch[]
-p::
--patch::
	Generate patch.
ifdef::git-log[]
	Shown for git log only.
endif::git-log[]
endif::git-format-patch[]

include::diff-more.txt[lines=2..3]
"""
MORE = "first line, not included\n--stat::\n\tGenerate a diffstat.\nlast line, not included\n"
EXAMPLES = """// tag::short[]
`git log --oneline`::
	One line per commit.
// end::short[]
`git log -p`::
	Not in the tag.
"""


def documentation(root: Path) -> Path:
    folder = root / "Documentation"
    (folder / "examples").mkdir(parents=True)
    (folder / "git-log.txt").write_text(PAGE, encoding="utf-8")
    (folder / "diff-options.txt").write_text(OPTIONS, encoding="utf-8")
    (folder / "diff-more.txt").write_text(MORE, encoding="utf-8")
    (folder / "examples" / "log.txt").write_text(EXAMPLES, encoding="utf-8")
    (root / "outside.txt").write_text("Outside the ingested folder.\n", encoding="utf-8")
    return folder


def test_an_include_is_read_where_it_stands_as_asciidoctor_renders_it(tmp_path: Path) -> None:
    folder = documentation(tmp_path)
    source, problem = read_source(folder / "git-log.txt", "git-log.txt")
    assert source is not None and isinstance(source.content, str)
    options = source.content[source.content.index("OPTIONS"):source.content.index("EXAMPLES")]
    # the attribute the page set before the include holds; the format-patch branch is left out; the lines asked for
    assert options.split("\n")[2:] == [":git-log: 1", "// the partial: no title of its own", "", "-p::", "--patch::",
                                       "\tGenerate patch.", "\tShown for git log only.", "", "--stat::",
                                       "\tGenerate a diffstat.", "", "", ""]
    assert "`git log --oneline`::\n\tOne line per commit.\n" in source.content  # the tag, without its markers
    assert "Not in the tag" not in source.content and "include::" not in source.content
    assert "Outside the ingested folder" not in source.content  # ../outside.txt is above Documentation/
    assert problem is not None and problem.warning and not problem.skipped
    assert problem.message == ("3 include:: lines not read, left out: missing.txt (not found), ../outside.txt (outside "
                               "the ingested folder), git-log.txt (includes itself)")
    parsed = parse_plain(source.content)  # the included options are the OPTIONS section's text
    options_section = next(i for i, s in enumerate(parsed.sections) if s.heading == "OPTIONS")
    assert any("Generate patch." in parsed.text[b.start:b.end] for b in parsed.blocks if b.section == options_section)


def test_a_link_to_a_file_outside_the_folder_is_not_included(tmp_path: Path) -> None:
    folder = documentation(tmp_path)
    (folder / "linked.txt").symlink_to(tmp_path / "outside.txt")
    (folder / "page.adoc").write_text("= Page\n\ninclude::linked.txt[]\n", encoding="utf-8")
    source, problem = read_source(folder / "page.adoc", "page.adoc")
    assert source is not None and "Outside" not in str(source.content)
    assert problem is not None and problem.message.endswith("linked.txt (outside the ingested folder)")


def test_a_file_read_alone_resolves_its_includes_beside_it(tmp_path: Path) -> None:
    folder = documentation(tmp_path)
    source, _ = read_source(folder / "git-log.txt", "Documentation/git-log.txt")  # the root is tmp_path now
    assert source is not None and "Outside the ingested folder." in str(source.content)


def test_plain_text_and_a_page_without_directives_are_read_as_they_are(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("Notes\n\ninclude::diff-options.txt[] is how a page includes a file.\n", encoding="utf-8")
    (tmp_path / "diff-options.txt").write_text(OPTIONS, encoding="utf-8")
    source, problem = read_source(notes, "notes.txt")  # not AsciiDoc: no directive is applied
    assert source is not None and source.content == notes.read_text(encoding="utf-8") and problem is None


def test_the_partials_a_page_includes_are_left_out_and_can_be_taken_back(tmp_path: Path) -> None:
    folder = documentation(tmp_path)
    (folder / "loop-a.txt").write_text("include::loop-b.txt[]\n", encoding="utf-8")  # a cycle, no page: kept
    (folder / "loop-b.txt").write_text("include::loop-a.txt[]\n", encoding="utf-8")
    found = find_files([folder], "**/*")
    # diff-more.txt is included in part (lines=), examples/log.txt by a tag: pages of their own as well
    assert sorted(key for _, key in found.files) == ["diff-more.txt", "examples/log.txt", "git-log.txt", "loop-a.txt",
                                                     "loop-b.txt"]
    assert found.excluded == 1
    (partial,) = found.problems
    assert (partial.path, partial.warning) == (str(folder), True)
    assert partial.message == ("1 AsciiDoc partial (files pages include whole, their text read where the page "
                               "includes it: diff-options.txt in git-log.txt) not ingested as documents of their "
                               "own; take one in with --exclude '!diff-options.txt' or a '!diff-options.txt' line "
                               "in .clewignore")
    taken = find_files([folder], "**/*", ["!diff-options.txt"])
    assert "diff-options.txt" in [key for _, key in taken.files] and taken.excluded == 0


def test_a_titled_page_another_includes_stays_a_page(tmp_path: Path) -> None:
    (tmp_path / "book.adoc").write_text("= The book\n\ninclude::chapter.adoc[]\n", encoding="utf-8")
    (tmp_path / "chapter.adoc").write_text("= A chapter\n\nIts text.\n", encoding="utf-8")
    found = find_files([tmp_path], "**/*")
    assert sorted(key for _, key in found.files) == ["book.adoc", "chapter.adoc"] and not found.problems
    source, _ = read_source(tmp_path / "book.adoc", "book.adoc")
    assert source is not None and source.content == "= The book\n\n= A chapter\n\nIts text.\n\n"
    (tmp_path / "chapter.adoc").write_text("= A chapter\n\n== A section\n\n----\n== code\n----\n", encoding="utf-8")
    (tmp_path / "book.adoc").write_text("= The book\n\ninclude::chapter.adoc[leveloffset=+1]\n", encoding="utf-8")
    source, _ = read_source(tmp_path / "book.adoc", "book.adoc")  # moved down a level, the listing block as it is
    assert source is not None and source.content == ("= The book\n\n== A chapter\n\n=== A section\n\n----\n== code\n"
                                                     "----\n\n")
    sections = parse_asciidoc(str(source.content)).sections
    assert [(s.heading, s.level, s.parent) for s in sections[1:]] == [("The book", 1, 0), ("A chapter", 2, 1),
                                                                     ("A section", 3, 2)]


def test_conditionals_follow_the_attributes_set_and_unset_before_them(tmp_path: Path) -> None:
    text = ("= Page\n\n:web:\nifdef::web[Seen on the web.]\nifdef::print[Seen in print.]\n:web!:\n"
            "ifndef::web[]\nNot on the web now.\nifdef::print+web[]\nNever both.\nendif::print+web[]\nendif::web[]\n"
            "ifeval::[{sectnum} > 1]\nAn expression is not evaluated: kept.\nendif::[]\n")
    (tmp_path / "page.adoc").write_text(text, encoding="utf-8")
    source, problem = read_source(tmp_path / "page.adoc", "page.adoc")
    assert source is not None and problem is None
    assert source.content == ("= Page\n\n:web:\nSeen on the web.\n:web!:\nNot on the web now.\n"
                              "An expression is not evaluated: kept.\n")


def test_includes_of_includes_end_at_the_limits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(includes, "MAX_INCLUDES", 6)
    (tmp_path / "page.adoc").write_text("= Page\n\n" + "include::fan.adoc[]\n" * 3, encoding="utf-8")
    (tmp_path / "fan.adoc").write_text("include::leaf.adoc[]\n" * 3, encoding="utf-8")
    (tmp_path / "leaf.adoc").write_text("Leaf.\n", encoding="utf-8")
    source, problem = read_source(tmp_path / "page.adoc", "page.adoc")
    assert source is not None and problem is not None
    assert str(source.content).count("Leaf.") == 4  # fan, leaf x3, fan, leaf: six files, then none
    assert problem.message == ("3 include:: lines not read, left out: leaf.adoc (over the includes limit), leaf.adoc "
                               "(over the includes limit), fan.adoc (over the includes limit)")
    source, problem = read_source(tmp_path / "page.adoc", "page.adoc", FileLimits(text_bytes=100))
    assert problem is not None and "(over the size limit)" in problem.message


def test_the_whole_files_a_markdown_page_snippets_are_read_from_its_snippet_lines_only() -> None:
    # a page without the ``8<-`` mark names none (its lines are not walked: task P4); one with it names its paths
    assert includes.snippet_whole_includes("# Page\n\nText about include: and snippets.\n" * 50) == []
    page = '# Page\n\n--8<-- "parts/intro.md"\n\n--8<-- "parts/lines.md:2:4"\n\n;--8<-- "escaped.md"\n'
    assert includes.snippet_whole_includes(page) == ["parts/intro.md"]


# Asciidoctor's docs (Antora): modules/install/pages/ruby-packaging.adoc includes partial$success.adoc, which is
# modules/install/partials/success.adoc; an example of another module by its id (cli:example$...), one of another
# component (asciidoc:cli:...) not among the files
RUBY = """= Install Using gem

== gem install

 $ gem install asciidoctor

include::partial$success.adoc[]

include::cli:example$version.txt[]

include::asciidoc:cli:partial$other.adoc[]
"""
SUCCESS = """If the gem installed successfully, Asciidoctor's CLI will be available on your PATH.
To confirm that Asciidoctor is available, execute:
"""


def test_an_antora_resource_id_names_a_file_of_the_module(tmp_path: Path) -> None:
    files = {"modules/install/pages/ruby-packaging.adoc": RUBY, "modules/install/partials/success.adoc": SUCCESS,
             "modules/cli/examples/version.txt": " $ asciidoctor --version\n"}
    for key, text in files.items():
        (tmp_path / "docs" / key).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "docs" / key).write_text(text, encoding="utf-8")
    page = tmp_path / "docs/modules/install/pages/ruby-packaging.adoc"
    source, problem = read_source(page, "modules/install/pages/ruby-packaging.adoc")
    assert source is not None and isinstance(source.content, str)
    assert (" $ gem install asciidoctor\n\nIf the gem installed successfully, Asciidoctor's CLI will be available on "
            "your PATH.\nTo confirm that Asciidoctor is available, execute:\n\n\n $ asciidoctor --version\n"
            in source.content)
    assert "include::" not in source.content
    assert problem is not None and problem.message.endswith("asciidoc:cli:partial$other.adoc (not found)")
    found = find_files([tmp_path / "docs"], "**/*")  # the partial is read in its page, not a page of its own
    assert "modules/install/partials/success.adoc" not in [key for _, key in found.files]
