#!/usr/bin/env python3
"""Verify the libsoup-docs (gtk-doc HTML, libsoup 2.74 reference) development evaluation set.

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

# The two pages gtk-doc generates from the others (the symbol index and the
# annotation glossary) are kept in corpus/ as published, but they are never a
# source and are left out of the "unique across corpus" counts.
GENERATED_PAGES = frozenset({"ix01.html", "annotation-glossary.html"})


def not_a_source(name: str) -> "str | None":
    if name in GENERATED_PAGES:
        return "source %s is an index gtk-doc generates from the pages; name a page" % name
    return None


RULES = SetRules(id_prefix="libsoup", not_a_source=not_a_source,
                 other_file_message="corpus contains a file that is not HTML: %s")

if __name__ == "__main__":
    sys.exit(main(os.path.dirname(os.path.abspath(__file__)), RULES))
