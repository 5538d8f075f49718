#!/usr/bin/env python3
"""Verify the mdBook-docs (mdBook HTML) development evaluation set.

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

# mdBook's all-in-one page repeats every chapter (and is marked robots noindex):
# it is kept in corpus/ as published, but it is never a source, and it is left
# out of the "unique across corpus" counts.
PRINT_PAGE = "print.html"


def not_a_source(name: str) -> "str | None":
    if name == PRINT_PAGE:
        return "%s repeats every chapter; name the chapter's page" % name
    return None


RULES = SetRules(id_prefix="mdbook", not_a_source=not_a_source)

if __name__ == "__main__":
    sys.exit(main(os.path.dirname(os.path.abspath(__file__)), RULES))
