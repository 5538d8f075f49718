#!/usr/bin/env python3
"""Verify the docusaurus-docs (Docusaurus HTML) development evaluation set.

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

# Docusaurus' not-found page (the page a server answers a missing one with) is
# kept in corpus/ as published, but it is never a source, and it is left out of
# the "unique across corpus" counts.  The site's sitemap.xml is kept as
# published too: the one file of corpus/ that is not a page.
NOT_FOUND_PAGE = "404.html"
SITEMAP = "sitemap.xml"


def not_a_source(name: str) -> "str | None":
    if name == NOT_FOUND_PAGE:
        return "%s is the site's not-found page; name a page" % name
    return None


RULES = SetRules(id_prefix="docusaurus", not_a_source=not_a_source,
                 kept_file=lambda name: name == SITEMAP)

if __name__ == "__main__":
    sys.exit(main(os.path.dirname(os.path.abspath(__file__)), RULES))
