#!/usr/bin/env python3
"""Verify the structlog-docs (Sphinx HTML, Furo theme) development evaluation set.

Run from this folder:  python3 verify.py   (Python 3 standard library only)

The checks, and the text extractor and normalizer that are the REFERENCE
definition of evidence matching for questions.jsonl (see README.md), live in
../_verify.py, which every HTML set shares; this file passes the set's own
rules.  Exit status is non-zero if any check fails.
"""

import os
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ beside the sets
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from _verify import SetRules, main  # noqa: E402  (the shared checks, ../_verify.py)

# What the Sphinx build writes beside the manual's pages (each page's source,
# viewcode's highlighted modules, the indexes, the search and not-found pages)
# is kept in corpus/ as published, but clew ingest leaves it out: it is never a
# source, and it is left out of the "unique across corpus" counts.
GENERATED_FOLDERS = ("_sources/", "_modules/")
GENERATED_PAGES = frozenset({"genindex.html", "py-modindex.html", "search.html",
                             "404.html"})


def not_a_source(name: str) -> "str | None":
    if name.startswith(GENERATED_FOLDERS) or name in GENERATED_PAGES:
        return "source %s is a file the Sphinx build writes beside the pages; name a page" % name
    return None


def page_source(name: str) -> bool:
    """Sphinx publishes each page's source under _sources/ (NAME.md.txt, NAME.rst.txt); those are kept as
    published (and read as pages), every other file is HTML."""
    return name.startswith("_sources/") and name.endswith(".txt")


RULES = SetRules(id_prefix="structlog", not_a_source=not_a_source, kept_file=page_source,
                 other_file_message="corpus contains a file that is neither HTML nor a page source: %s",
                 page_suffixes=(".html", ".txt"))

if __name__ == "__main__":
    sys.exit(main(os.path.dirname(os.path.abspath(__file__)), RULES))
