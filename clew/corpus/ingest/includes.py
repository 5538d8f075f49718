"""AsciiDoc's preprocessor, reStructuredText's ``.. include::`` and pymdown's Snippets, applied as a file is read.

As Asciidoctor renders a page, an ``include::file[]`` line stands for the lines of that file (git's
manual pages include their options: ``git-log.txt`` holds ``include::diff-options.txt[]``), so the
document's text holds them where the directive stands (:func:`preprocess`). The path is resolved
relative to the including file, a nested include relative to its own file; a file included again
inside itself (a cycle), past ``MAX_DEPTH`` includes deep, outside the ingested folder (its real
path), or not there (a name with an ``{attribute}``, a file the package left out), or past the
limits (``MAX_INCLUDES`` files, their text the text files' size limit) is not read: its line is
left out and reported. Of the directive's attributes, ``lines=1..10;15..20`` (or with ``,``)
and ``tag=name`` / ``tags=a;b`` (the lines between ``tag::name[]`` and ``end::name[]``, the marker
lines left out) are kept, and ``leveloffset=+1`` (or ``-1``, or ``2``: absolute) moves the included
one-line titles (``= Chapter`` -> ``== Chapter``; not a two-line title's underline, nor a line in a
listing block); others (``indent``, a tag with ``*`` or ``!``) are not read, and the file is
included whole.

Conditionals (``ifdef::a[]``, ``ifdef::a,b[]`` for either, ``ifdef::a+b[]`` for both, ``ifndef::``,
``endif::``) are evaluated against the attributes set before them (``:git-log: 1``, unset by
``:git-log!:``), so ``git-log.txt`` shows the diff options for ``git log``, not those
``ifdef::git-format-patch[]`` holds; an ``ifeval::`` is kept (its expression is not evaluated), and
a single-line ``ifdef::a[text]`` gives its text. The directives' own lines are not text.

A file that a page includes whole and that has no title of its own is a partial, not a page (git
names its partials no way apart: ``diff-options.txt``, ``urls.txt``, ``i18n.txt``, beside the pages
``git-log.txt``; Asciidoctor's ``_name.adoc`` convention is not git's; git's Makefile renders only the
pages it lists): :func:`partials` finds them and ``clew.corpus.ingest.sources`` leaves them out, their
text found in the pages that include them. A titled file a page includes (a book's chapter) stays a
page of its own as well.

reStructuredText's ``.. include:: file`` is read the same way and within the same guards (:func:`_take`): the
file's lines stand where the directive stands, at its indentation, a nested include's path relative to its own
file (as docutils reads them; one that starts with ``/`` from the ingested folder, as Sphinx reads it from
its source folder). Of its options, ``:start-line:``/``:end-line:`` and ``:start-after:``/``:end-before:``
pick the lines; ``:literal:`` and ``:code: lang`` make them a code block; the others are not read. A path in angle
brackets (``<isonum.txt>``: docutils' own substitution sets) is not a file of the folder: left out and reported. An
include inside a literal block (the indented lines after a line ending in ``::``, or a code directive's body) is
text, as docutils shows it. Sphinx's ``.. literalinclude:: file`` is a code block of the file (``:language:``),
its lines picked by ``:pyobject:``, ``:lines:``, ``:start-at:``/``:end-at:`` and ``:start-after:``/``:end-before:``. A
``.. csv-table::`` whose rows are a ``:file:`` has the file's lines written as its body (the option left out), so
that its reader (``lightmarkup_tables``) reads them as the rows written there; a file it cannot read leaves the
directive out, named in the report.

pymdownx.snippets' ``--8<-- "file.md"`` in a Markdown page (MkDocs Material's sites), and its block form (a
``--8<--`` line, a path a line, ``--8<--``; a path after ``;`` is not read), is read the same way (:func:`snippets`):
the file's lines where the line stands, at its indentation, found from the ingested folder (the docs folder,
MkDocs' ``base_path``) or the page's own folder, within the same guards; a file outside the folder (the
project's ``LICENSE.md``) is left out and named. ``file.md:3``, ``::3``, ``:4:6``, ``:1:3,5:6`` pick lines;
``file.md:name`` the lines between ``--8<-- [start:name]`` and ``--8<-- [end:name]`` (those marker lines are
never text). A line escaped with ``;`` reads as written, less one ``;``, as pymdown shows it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path, PurePosixPath

from clew.corpus.ingest.formats.asciidoc_xrefs import resource_path
from clew.corpus.ingest.formats.lightmarkup import plain_kind, rst_titled
from clew.corpus.ingest.peek import read_head

MAX_DEPTH = 64
"""Includes inside includes (Asciidoctor's ``max-include-depth``)."""
MAX_INCLUDES = 10_000
"""Files one page includes, all depths together: with the size limit (the included text at most the text
files' limit), a page that includes a file a thousand times that includes another a thousand times ends."""
_DIRECTIVE = re.compile(r"^(?:include|ifn?def|ifeval|endif)::", re.M)
_INCLUDE = re.compile(r"^include::([^\[\n]+)\[([^\]\n]*)\][ \t]*$")
_CONDITION = re.compile(r"^(ifn?def|ifeval|endif)::([^\[\n]*)\[(.*)\][ \t]*$")
_ATTRIBUTE = re.compile(r"^:(!?)([\w][\w-]*)(!?):(?:[ \t]+.*)?$")
_LEVEL_TITLE = re.compile(r"^(={1,6})([ \t]+\S.*)$")
_FENCE = re.compile(r"^(?:-{4,}|\.{4,})[ \t]*$")
_TAG = re.compile(r"\b(tag|end)::([\w-]+)\[\]")
_NAMED = re.compile(r"""(\w+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^,]*))""")
_RST_DIRECTIVE = re.compile(r"^[ \t]*\.\.[ \t]+(?:(?:literal)?include|csv-table)::", re.M)
_RST_INCLUDE = re.compile(r"^([ \t]*)\.\.[ \t]+include::[ \t]*(\S(?:.*\S)?)?[ \t]*$")
_RST_CSV = re.compile(r"^([ \t]*)\.\.[ \t]+csv-table::.*$")
_RST_LITERAL = re.compile(r"^([ \t]*)\.\.[ \t]+literalinclude::[ \t]*(\S(?:.*\S)?)?[ \t]*$")
_RST_OPTION = re.compile(r"^([ \t]++):([\w-]++):(?:[ \t]++((?:.*[^ \t\n])?))?[ \t]*$")
_RST_VERBATIM = re.compile(r"^([ \t]*)(?:\.\.[ \t]+(?:code-block|code|sourcecode|parsed-literal)::.*"
                           r"|(?!\.\.[ \t])(?=.*[^:\s]).*::)[ \t]*$")
"""A line whose indented lines after it are verbatim: a code directive, or a paragraph's line ending in ``::``
(not a title's adornment of colons)."""
_SNIPPET = re.compile(r"""^([ \t]*)(;*)(-+8<-+(?:[ \t]+("(?:\\"|[^"\n])+?"|'(?:\\'|[^'\n])+?'))?)[ \t]*$""")
"""pymdownx.snippets' line: ``--8<-- "file.md"``, or ``--8<--`` alone around a block of paths; ``;`` escapes it."""
_SNIPPET_SECTION = re.compile(r"(?:(?<![;-])|(?<=-)(?=;))"  # from a run's start: linear in a run of '-'
                              r"(;*)(-+8<-+[ \t]+\[[ \t]*(start|end)[ \t]*:[ \t]*([a-z][-_0-9a-z]*)[ \t]*\])", re.I)
_SNIPPET_SECTION_NAME = re.compile(r"[a-z][-_0-9a-z]*", re.I)
_SNIPPET_ANY = re.compile(r"^[ \t]*;*-+8<-+", re.M)

Reader = Callable[[Path], str | None]
"""A file's text (None when it cannot be read)."""


def expand(text: str, file: Path, key: str, limit: int, fmt: str) -> tuple[str, list[str]]:
    """The text of the AsciiDoc or reStructuredText ``file`` (``fmt``: ``"asciidoc"``, ``"rst"``, or ``"text"``
    for a ``.txt`` file, expanded as the markup it reads as) found as ``key`` (its folder: ``file``'s path less
    ``key``), by :func:`preprocess` with files of at most ``limit`` bytes; and the includes left out. A text
    without directives comes back as it is."""
    if fmt == "markdown":
        return snippets(text, file, key, limit) if _SNIPPET_ANY.search(text) else (text, [])
    rst = _RST_DIRECTIVE.search(text) is not None and (fmt == "rst" or (fmt == "text" and plain_kind(text) == "rst"))
    asciidoc = not rst and _DIRECTIVE.search(text) is not None and (
        fmt == "asciidoc" or (fmt == "text" and plain_kind(text) == "asciidoc"))
    if not (rst or asciidoc):
        return text, []
    root = file
    for _ in PurePosixPath(key).parts:
        root = root.parent
    return preprocess(text, file, root, lambda path: read_text(path, limit) if path.is_file() else None, limit, rst)


def read_text(file: Path, limit: int) -> str | None:
    """The first ``limit`` bytes of ``file`` (a gzip file's decompressed) as UTF-8 (undecodable bytes replaced);
    None if it cannot be read."""
    try:
        data = read_head(file, limit)
    except OSError:
        return None
    return data.removeprefix(b"\xef\xbb\xbf").decode("utf-8", errors="replace")


def _page(text: str) -> bool:
    """Whether ``text`` is an AsciiDoc page with a title of its own (a ``.txt`` file that reads as AsciiDoc)."""
    return plain_kind(text) == "asciidoc" or text.lstrip().startswith("= ")


def preprocess(text: str, file: Path, root: Path, read: Reader, limit: int, rst: bool = False
               ) -> tuple[str, list[str]]:
    """``text`` (of ``file``, in the folder ``root``) with its includes and conditionals applied (see the
    module docstring; ``rst``: reStructuredText's includes), at most ``limit`` characters of included text;
    and each include left out, with why."""
    out: list[str] = []
    missed: list[str] = []
    budget = [limit, MAX_INCLUDES]  # characters, and files, still to include
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n") if rst else text.split("\n")
    if rst:
        _rst_lines(lines, file, root.resolve(), read, out, missed, [file.resolve()], budget, "")
    else:
        _lines(lines, file, root.resolve(), read, out, missed, set(), [file.resolve()], budget)
    return "\n".join(out), missed


def _take(file: Path, name: str, root: Path, read: Reader, chain: list[Path], budget: list[int],
          missed: list[str]) -> tuple[Path, list[str]] | None:
    """The file an include in ``file`` names and its lines, or None when the guards leave it out (the
    module docstring; why, in ``missed``); what it takes comes off ``budget`` (characters, files)."""
    target, why = _target(file, name, root, chain)
    included = read(target) if target is not None and why is None else None
    if target is not None and why is None and included is None:
        why = "not found"
    if included is None or target is None:
        missed.append(f"{name} ({why})")
        return None
    if len(included) > budget[0] or budget[1] <= 0:
        missed.append(f"{name} (over the {'size' if budget[1] > 0 else 'includes'} limit)")
        return None
    budget[0] -= len(included)
    budget[1] -= 1
    return target, included.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _rst_lines(lines: list[str], file: Path, root: Path, read: Reader, out: list[str], missed: list[str],
               chain: list[Path], budget: list[int], indent: str) -> None:
    """``lines`` of a reStructuredText ``file`` into ``out`` (each after ``indent``), its includes read."""
    verbatim: int | None = None  # the indentation of the line that opened the literal block the lines are in
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        own = len(line) - len(line.lstrip())
        if verbatim is not None and line.strip() and own <= verbatim:
            verbatim = None
        include = (_RST_INCLUDE.match(line) or _RST_LITERAL.match(line)) if verbatim is None and "include::" in line \
            else None
        table = _RST_CSV.match(line) if verbatim is None and "csv-table::" in line else None
        if table is not None and (stop := _csv_file(lines, i, file, root, read, out, missed, chain, budget, indent)):
            i = stop
            continue
        if include is None:
            out.append(indent + line if line.strip() else line)
            opens = _RST_VERBATIM.match(line) if verbatim is None else None
            verbatim = len(opens.group(1)) if opens is not None else verbatim
            continue
        options: dict[str, str] = {}
        while i < len(lines) and (option := _RST_OPTION.match(lines[i])) and len(option.group(1)) > own:
            options[option.group(2)] = option.group(3) or ""
            i += 1
        name = include.group(2) or ""
        if name.startswith("<") or not name:
            missed.append(f"{name or '(no file)'} ({'a docutils set, not a file' if name else 'no path'})")
            continue
        from_file = root / "_" if name.startswith("/") else file  # Sphinx: "/x.rst" from the top folder
        taken = _take(from_file, name.lstrip("/") if name.startswith("/") else name, root, read, chain, budget, missed)
        if taken is None:
            continue
        target, part = taken
        if include.re is _RST_LITERAL:  # Sphinx's: a code block of the file
            options["code"] = options.get("language", "")
            part = _literal_part(part, options)
        part = _rst_part(part, options)
        if "literal" in options or "code" in options:
            head = f"{indent}{include.group(1)}.. code:: {options.get('code', '')}".rstrip()
            out.extend([head, "", *(f"{indent}{include.group(1)}   {row}" if row.strip() else "" for row in part), ""])
            continue
        _rst_lines(part, target, root, read, out, missed, [*chain, target], budget, indent + include.group(1))


def _csv_file(lines: list[str], at: int, file: Path, root: Path, read: Reader, out: list[str], missed: list[str],
              chain: list[Path], budget: list[int], indent: str) -> int:
    """A ``.. csv-table::`` (``lines[at - 1]``) with a ``:file:`` into ``out``, the file's lines its body (left out, and
    why in ``missed``, where the file cannot be read); the line after its options, or 0 for one without ``:file:``."""
    own = len(lines[at - 1]) - len(lines[at - 1].lstrip())
    stop = at
    options: list[tuple[str, str]] = []
    while stop < len(lines) and (option := _RST_OPTION.match(lines[stop])) and len(option.group(1)) > own:
        options.append((option.group(2), lines[stop]))
        stop += 1
    name = next((line.split(":file:", 1)[1].strip() for key, line in options if key == "file"), None)
    if name is None:
        return 0
    from_file = root / "_" if name.startswith("/") else file  # Sphinx: "/x.csv" from the top folder
    taken = _take(from_file, name.lstrip("/"), root, read, chain, budget, missed) if name.strip("/") else None
    if taken is None:
        missed[-1:] = [f"csv-table :file: {missed[-1]}"] if name.strip("/") else ["csv-table :file: (no path)"]
        return stop
    body = indent + lines[at - 1][:own] + "   "
    out.extend([indent + lines[at - 1], *(indent + line for key, line in options if key not in ("file", "encoding"))])
    out.extend(["", *(body + row if row.strip() else "" for row in taken[1]), ""])
    return stop


def _literal_part(lines: list[str], options: dict[str, str]) -> list[str]:
    """The lines a ``.. literalinclude::``'s ``:pyobject:``, ``:lines:`` (``1,3,5-10,20-``), ``:start-at:`` and
    ``:end-at:`` keep (its ``:start-after:``/``:end-before:`` are :func:`_rst_part`'s)."""
    for name in options.get("pyobject", "").split(".") if options.get("pyobject", "").strip() else []:
        opens = re.compile(rf"^([ \t]*)(?:async[ \t]+)?(?:def|class)[ \t]+{re.escape(name.strip())}\b")
        start = next((i for i, line in enumerate(lines) if opens.match(line)), None)
        if start is None:
            return lines
        depth = len(opens.match(lines[start]).group(1))  # type: ignore[union-attr]
        stop = next((i for i in range(start + 1, len(lines)) if lines[i].strip()
                     and len(lines[i]) - len(lines[i].lstrip()) <= depth), len(lines))
        lines = lines[start:stop]
        while lines and not lines[-1].strip():
            lines.pop()
    if re.fullmatch(r"[ \t]*\d+(?:-\d*)?(?:[ \t]*,[ \t]*\d+(?:-\d*)?)*[ \t]*", options.get("lines", "")):
        picked: list[str] = []
        for span in options["lines"].split(","):
            first, dash, last = span.strip().partition("-")
            picked += lines[int(first) - 1:(int(last) if last else len(lines)) if dash else int(first)]
        lines = picked
    text = "\n".join(lines)
    at, end = options.get("start-at", ""), options.get("end-at", "")
    if at and at in text:  # from the start of the line that holds it
        text = text[text.rfind("\n", 0, text.index(at)) + 1:]
    if end and end in text:  # to the end of the line that holds it
        stop = text.find("\n", text.index(end))
        text = text if stop < 0 else text[:stop]
    return text.split("\n")


def _rst_part(lines: list[str], options: dict[str, str]) -> list[str]:
    """The lines an include's ``:start-line:``, ``:end-line:``, ``:start-after:``, ``:end-before:`` keep."""
    def number(name: str) -> int | None:
        value = options.get(name, "").strip()
        return int(value) if re.fullmatch(r"-?\d+", value) else None
    lines = lines[number("start-line"):number("end-line")]
    text = "\n".join(lines)
    after, before = options.get("start-after", ""), options.get("end-before", "")
    if after and after in text:
        text = text[text.index(after) + len(after):]
    if before and before in text:
        text = text[:text.index(before)]
    return text.split("\n")


def _lines(lines: list[str], file: Path, root: Path, read: Reader, out: list[str], missed: list[str],
           attributes: set[str], chain: list[Path], budget: list[int], offset: int = 0) -> None:
    skipping = 0  # conditionals open inside a false one (the false one included)
    fence: str | None = None  # the delimiter of the listing or literal block the lines are in
    for line in lines:
        condition = _CONDITION.match(line) if line.startswith(("if", "endif")) else None
        if condition is not None:
            kind, names, content = condition.groups()
            if kind == "endif":
                skipping = max(skipping - 1, 0)
            elif skipping:
                skipping += 0 if content and kind != "ifeval" else 1
            elif kind == "ifeval":
                continue
            elif not _holds(kind, names, attributes):
                skipping += 0 if content else 1
            elif content:
                out.append(content)
            continue
        if skipping:
            continue
        attribute = _ATTRIBUTE.match(line) if line.startswith(":") else None
        if attribute is not None:
            unset, name, after = attribute.groups()
            (attributes.discard if unset or after else attributes.add)(name)
        include = _INCLUDE.match(line) if line.startswith("include::") else None
        if include is None:
            title = _LEVEL_TITLE.match(line) if offset and fence is None else None
            if title is not None:
                line = "=" * max(1, min(6, len(title.group(1)) + offset)) + title.group(2)
            elif _FENCE.match(line):
                fence = None if fence == line.strip() else fence or line.strip()
            out.append(line)
            continue
        taken = _take(file, include.group(1).strip(), root, read, chain, budget, missed)
        if taken is None:
            continue
        target, part = taken
        _lines(_select(part, include.group(2)), target, root, read, out, missed, attributes, [*chain, target], budget,
               _level_offset(include.group(2), offset))


def _level_offset(attributes: str, offset: int) -> int:
    """The level offset a directive's ``leveloffset=+1`` (relative) or ``leveloffset=2`` (absolute) sets."""
    found = re.search(r"\bleveloffset\s*=\s*[\"']?([+-]?)(\d+)", attributes)
    if found is None:
        return offset
    sign, value = found.groups()
    return offset + int(value) if sign == "+" else offset - int(value) if sign == "-" else int(value)


def _holds(kind: str, names: str, attributes: set[str]) -> bool:
    wanted = [name.strip() for name in re.split(r"[,+]", names) if name.strip()]
    found = (all if "+" in names else any)(name in attributes for name in wanted)
    return found if kind == "ifdef" else not found


def _target(file: Path, name: str, root: Path, chain: list[Path]) -> tuple[Path | None, str | None]:
    """The file ``name`` names from ``file``, or why it is not read."""
    name = resource_path(file.as_posix(), name)  # Antora's partial$x.adoc
    if "{" in name or "://" in name:
        return None, "an attribute or a URL in its name"
    try:
        target = (file.parent / name).resolve()
    except (OSError, RuntimeError):
        return None, "not found"
    if not target.is_relative_to(root):
        return target, "outside the ingested folder"
    if target in chain:
        return target, "includes itself"
    if len(chain) > MAX_DEPTH:
        return target, f"more than {MAX_DEPTH} includes deep"
    return target, None


def _select(lines: list[str], attributes: str) -> list[str]:
    """The lines a directive's ``lines=`` or ``tag(s)=`` keeps (all for others)."""
    named = {match.group(1): next(g for g in match.groups()[1:] if g is not None).strip()
             for match in _NAMED.finditer(attributes)}
    if "lines" in named:
        picked: list[str] = []
        for part in re.split(r"[;,]", named["lines"]):
            first, _, last = part.strip().partition("..")
            if not first.strip().isdigit() or (last.strip() and last.strip() != "-1" and not last.strip().isdigit()):
                return lines
            stop = len(lines) if not last or last.strip() == "-1" else int(last)
            picked += lines[int(first) - 1:stop] if last else lines[int(first) - 1:int(first)]
        return picked
    tags = named.get("tag") or named.get("tags")
    if not tags or any(ch in tags for ch in "*!"):
        return lines
    wanted = {tag.strip() for tag in tags.split(";") if tag.strip()}
    picked, open_tags = [], set[str]()
    for line in lines:
        marker = _TAG.search(line)
        if marker is not None:
            kind, name = marker.groups()
            (open_tags.add if kind == "tag" else open_tags.discard)(name)
            continue
        if open_tags & wanted:
            picked.append(line)
    return picked


def whole_includes(text: str) -> list[str]:
    """The paths ``text``'s ``include::`` lines name without ``lines=`` or ``tag(s)=`` (as written)."""
    found = []
    for line in text.split("\n"):
        include = _INCLUDE.match(line) if line.startswith("include::") else None
        if include is not None and not re.search(r"\b(?:lines|tags?)\s*=", include.group(2)):
            found.append(include.group(1).strip())
    return found


def rst_whole_includes(text: str) -> list[str]:
    """The paths ``text``'s ``.. include::`` directives name without an option that picks lines (as written;
    not docutils' ``<sets>``)."""
    found = []
    lines = text.split("\n")
    for i, line in enumerate(lines):
        include = _RST_INCLUDE.match(line) if ".. include::" in line else None
        if include is None or not include.group(2) or include.group(2).startswith("<"):
            continue
        options = []
        for row in lines[i + 1:]:
            option = _RST_OPTION.match(row)
            if option is None or len(option.group(1)) <= len(include.group(1)):
                break
            options.append(option.group(2))
        if not any(option.startswith(("start-", "end-")) for option in options):
            found.append(include.group(2))
    return found


def partials(files: list[tuple[Path, str]], limit: int) -> dict[str, str]:
    """Of ``files`` (AsciiDoc, reStructuredText and text files, ``(file, key)``; the first ``limit`` bytes of each
    read), those a page with a title of its own (whose includes are read) includes whole, or a partial of one
    includes, and that are no page themselves (a chapter a book includes stays a page; so does a cycle of files
    that include each other and no page): the partial's key -> the key of a page holding it. A reStructuredText
    file (``.rst``, or a ``.txt`` file that reads as one) names them with ``.. include::`` (CPython's
    ``includes/*.rst``, which its Sphinx configuration leaves out as pages), the others with ``include::``."""
    texts = {key: text for file, key in files if (text := read_text(file, limit)) is not None}
    rst = {key for key, text in texts.items()
           if key.lower().endswith(".rst") or (key.lower().endswith(".txt") and plain_kind(text) == "rst")}
    markdown = {key for key in texts if key.lower().endswith((".md", ".markdown", ".mdown"))}
    titled = {key for key, text in texts.items()
              if (rst_titled(text) if key in rst else _markdown_titled(text) if key in markdown else _page(text))}
    edges: dict[str, list[str]] = {}
    for key, text in texts.items():
        folder = PurePosixPath(key).parent.as_posix()
        if key in markdown:  # from the folder, then from the page's folder, as snippets() looks
            targets = [next((target for target in (_normal(name.lstrip("/")), _normal(f"{folder}/{name}"))
                             if target in texts), None) for name in snippet_whole_includes(text)]
        else:
            names = rst_whole_includes(text) if key in rst else [resource_path(key, n) for n in whole_includes(text)]
            targets = [_normal(name if name.startswith("/") else f"{folder}/{name}") for name in names]
        edges[key] = [target for target in targets if target is not None and target in texts and target != key]
    held: dict[str, str] = {}
    pending = [(key, key) for key in sorted(titled, reverse=True) if edges[key]]
    while pending:
        key, page = pending.pop()
        for target in edges[key]:
            if target not in held and target not in titled:
                held[target] = page
                pending.append((target, page))
    return held


_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?\n)---[ \t]*(?:\n|\Z)", re.S)


def _markdown_titled(text: str) -> bool:
    """Whether a Markdown page has a title of its own: a ``title:`` in its front matter, or a heading that opens it."""
    matter = _FRONT_MATTER.match(text)
    if matter is not None and re.search(r"^title:", matter.group(1), re.M):
        return True
    lines = [line for line in text[matter.end() if matter else 0:].split("\n", 40)[:40] if line.strip()]
    return bool(lines) and (re.match(r" {0,3}#{1,6}(?:[ \t]|$)", lines[0]) is not None
                            or (len(lines) > 1 and re.fullmatch(r" {0,3}(?:=+|-+)[ \t]*", lines[1]) is not None))


def _normal(path: str) -> str | None:
    """``path`` with its ``.`` and ``..`` parts applied; None when it leaves the root."""
    parts: list[str] = []
    for part in path.split("/"):
        if part == "..":
            if not parts:
                return None
            parts.pop()
        elif part not in ("", "."):
            parts.append(part)
    return "/".join(parts)


def snippets(text: str, file: Path, key: str, limit: int) -> tuple[str, list[str]]:
    """The Markdown ``text`` of ``file`` (found as ``key``) with pymdownx.snippets' includes read (see the module
    docstring), within :func:`_take`'s guards and at most ``limit`` characters of included text; and the snippets
    left out, with why."""
    root = file
    for _ in PurePosixPath(key).parts:
        root = root.parent
    out: list[str] = []
    missed: list[str] = []
    _snippet_lines(text.split("\n"), file, root.resolve(), out, missed, [file.resolve()], [limit, MAX_INCLUDES], "",
                   lambda path: read_text(path, limit) if path.is_file() else None)
    return "\n".join(out), missed


def _snippet_items(lines: list[str]) -> Iterator[tuple[str | None, str, list[str]]]:
    """Each of a Markdown page's ``lines`` as the page shows it, ``(line, "", [])``, or a snippet's,
    ``(None, indentation, paths)``: a ``--8<-- "path"`` line, or a block's closing ``--8<--`` with the paths it holds.
    A block's other lines and a section's marker lines are not shown."""
    block: list[str] | None = None  # the paths of an open ``--8<--`` block
    for line in lines:
        found = _SNIPPET.match(line) if "8<-" in line else None
        if found is not None and found.group(2):  # escaped: the line as written, less one ';'
            yield found.group(1) + found.group(2)[1:] + found.group(3), "", []
        elif found is not None and found.group(4) is None:
            if block is not None:
                yield None, found.group(1), block
            block = [] if block is None else None
        elif block is not None:
            if line.strip() and not line.lstrip().startswith(";"):
                block.append(line.strip())
        elif found is not None:
            yield None, found.group(1), [found.group(4)[1:-1]]
        else:
            marker = _SNIPPET_SECTION.search(line) if "8<-" in line else None
            if marker is not None and marker.group(1):  # escaped: the line as written, less one ';'
                yield line[:marker.start()] + marker.group(1)[1:] + line[marker.start(2):], "", []
            elif marker is None:
                yield line, "", []


def _snippet_lines(lines: list[str], file: Path, root: Path, out: list[str], missed: list[str], chain: list[Path],
                   budget: list[int], indent: str, read: Reader) -> None:
    """``lines`` into ``out`` (each after ``indent``), each snippet's file read where its line stands: a path is
    looked for from the ingested folder (MkDocs' docs folder, the ``base_path`` a site sets), then from the
    page's own folder; one outside the folder (the project's ``LICENSE.md``) is left out and named."""
    for shown, at, names in _snippet_items(lines):
        if shown is not None:
            out.append(indent + shown if shown.strip() else shown)
        for name in names:
            path, part, section = snippet_part(name)
            whys: list[str] = []
            taken = _take(root / "_", path.lstrip("/"), root, read, chain, budget, whys)
            if taken is None and (file.parent / path).resolve() != (root / path.lstrip("/")).resolve():
                taken = _take(file, path, root, read, chain, budget, whys)
            if taken is None:
                outside = any((folder / path).is_file() for folder in list(root.parents)[:4])
                why = next((why for why in whys if not why.endswith("(not found)")), None)
                missed.append(why or f"{path} ({'outside the ingested folder' if outside else 'not found'})")
                continue
            target, included = taken
            _snippet_lines(_snippet_part(included, part, section), target, root, out, missed, [*chain, target],
                           budget, indent + at, read)


def snippet_whole_includes(text: str) -> list[str]:
    """The paths ``text``'s snippets name without lines or a section (as written). A page without ``8<-`` names
    none: its lines are not walked (every Markdown file of an ingest is asked, task P4: 0.02 s of CPU a 1,000
    pages)."""
    if "8<-" not in text:
        return []
    return [name for shown, _, names in _snippet_items(text.split("\n")) for name in names
            if snippet_part(name)[1:] == (None, None)]


def snippet_part(name: str) -> tuple[str, str | None, str | None]:
    """A snippet's name as its path, its lines (``:3``, ``::3``, ``:4:6``, ``:1:3,5:6``) and its section (``:name``):
    the path ends at the first ``:`` after which the rest is lines or a section, else the name is the path. In
    linear time (one pass from the end; the pattern it replaces, a lazy path before an optional tail, was
    quadratic in a name of many ``:`` or ``,``: seconds at 8,000 characters)."""
    size = len(name)
    lines_from = [False] * (size + 1)  # lines_from[i]: name[i:] is ``,``-led parts only (or empty)
    lines_from[size] = True
    for i in range(size - 1, -1, -1):
        if name[i] == ",":
            end = _number(name, i + 1)
            if end < size and name[end] == ":":
                end = _number(name, end + 1)
            lines_from[i] = lines_from[end]
    last = name.rfind(":")
    for i in range(size):
        if name[i] != ":":
            continue
        end = _number(name, i + 1)
        if lines_from[end] or (end < size and name[end] == ":" and lines_from[_number(name, end + 1)]):
            return name[:i], name[i:], None
        if i == last and _SNIPPET_SECTION_NAME.fullmatch(name, i + 1):
            return name[:i], None, name[i + 1:]
    return name, None, None


def _number(name: str, at: int) -> int:
    """Where ``-?\\d*`` from ``at`` ends."""
    at += at < len(name) and name[at] == "-"
    while at < len(name) and name[at].isdecimal():
        at += 1
    return at


def _snippet_part(lines: list[str], part: str | None, section: str | None) -> list[str]:
    """The lines a snippet's ``:3``, ``::3``, ``:4:6`` or ``:1:3,5:6`` (line numbers from 1) or ``:name`` (the
    lines between ``--8<-- [start:name]`` and ``--8<-- [end:name]``) keeps; all of them for none."""
    if section:
        picked: list[str] = []
        inside = False
        for line in lines:
            marker = _SNIPPET_SECTION.search(line)
            if marker is not None and not marker.group(1) and marker.group(4) == section:
                inside = marker.group(3).lower() == "start"
            elif inside:
                picked.append(line)
        return picked
    if not part:
        return lines
    picked = []
    for span in part[1:].split(","):
        first, _, last = span.partition(":")
        start = int(first) if first.isdigit() and int(first) > 0 else 1
        picked += lines[start - 1:int(last) if last.isdigit() and int(last) > 0 else len(lines)]
    return picked
