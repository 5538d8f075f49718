"""Files without a suffix that are documentation by their well-known names: ``README``, ``NEWS``,
``CHANGES``, ``INSTALL`` ... as Debian packages (``/usr/share/doc/<package>/``, with ``changelog.gz``,
``NEWS.gz``) and source repositories hold them. Such a file is read as a ``.txt``
file is (``formats.lightmarkup.parse_plain``: reStructuredText or AsciiDoc by its opening, else text),
when its bytes are text: a binary, an ELF program or a script (``#!``) so named is skipped as a file of
a type clew does not read, as every file without a suffix is. The licences (``COPYING``, ``LICENSE``)
are not among the names: they stay out, as a site's licences do (``sources.site_licences``)."""

from __future__ import annotations

DOCUMENTATION_NAMES = frozenset({
    "readme", "news", "changes", "changelog", "install", "todo", "authors", "thanks", "hacking", "bugs", "faq"})
"""File names (any case) read as documentation though they have no suffix. Debian's ``README.Debian``,
``changelog.Debian.gz`` are not: beside ``changelog.gz`` each would be a suffix twin, warned of (243
warnings in the 847 packages of one ``/usr/share/doc``), though they are two documents."""


def documentation_name(name: str) -> bool:
    """Whether a file's name, as it is read (``changelog`` for ``changelog.gz``: ``peek.read_name``), is one
    of ``DOCUMENTATION_NAMES``."""
    return name.lower() in DOCUMENTATION_NAMES


def not_text(data: bytes) -> str | None:
    """Why ``data`` (a file's first bytes, decompressed) is not a text to read, or None where it is."""
    if data.startswith(b"\x7fELF"):
        return "an ELF binary"
    if b"\x00" in data[:8192]:
        return "binary (NUL bytes)"
    if data.startswith(b"#!"):
        return "a script (#!)"
    return None
