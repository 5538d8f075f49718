"""pkgdown's reference pages made into HTML the reader reads well, before the page is parsed
(``html_more.restructured``; task U32).

pkgdown (2.0, downlit's highlighting) writes a reference page's examples, every call with its output, as one ``pre``:
one code block, indivisible, so one passage of up to 14,016 tokens (dplyr 1.0.10's site: the Examples sections
were 54 passages holding 129,783 of the site's 240,427 tokens, each past the chunk limit, most past a 2,000-token
context). The examples' blank lines (an input line with no code, ``<span class="r-in"><span></span></span>``) are
where the page's author parted them: each part is a ``pre`` of its own.
"""

from __future__ import annotations

import re

BLANK_INPUT = '<span class="r-in"><span></span></span>'
"""An empty input line of downlit's examples (pkgdown's reference pages)."""
_BLANK_LINES = re.compile(r'(?:\n<span class="r-in"><span></span></span>)+\n(?!</code>)')


def examples_parted(text: str) -> str:
    """``text`` with each run of blank input lines inside an example (not at its end) closing its ``pre`` and
    opening another."""
    return _BLANK_LINES.sub('</code></pre>\n<pre class="sourceCode r"><code>', text)
