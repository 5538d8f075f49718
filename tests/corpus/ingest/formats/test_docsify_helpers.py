"""Docsify's helpers read as the site shows them (task U24): a paragraph that opens with ``!>`` is important content
(Docsify's ``p.warn``), one that opens with ``?>`` a tip (``p.tip``); they read "Important: ..." and "Tip: ...", as
other sites' admonitions read with their label. Elsewhere, and in code, ``!>`` and ``?>`` stay as written."""

from __future__ import annotations

from clew.corpus.ingest.formats.markdown import parse_markdown

DOCSIFY_PAGE = """# Configuration

!> **Time** is money, my friend!

?> Set `loadSidebar` to `true` to load the `_sidebar.md` file.

The closing tag
?> on a line of a paragraph stays.

```php
<?php echo 1;
?> after code
```
"""


def test_docsify_helpers_read_as_their_label() -> None:
    document = parse_markdown(DOCSIFY_PAGE)
    document.check()
    text = document.text
    assert "Important: **Time** is money, my friend!" in text
    assert "Tip: Set `loadSidebar` to `true` to load the `_sidebar.md` file." in text
    assert "The closing tag\n?> on a line of a paragraph stays." in text
    assert "<?php echo 1;\n?> after code" in text


PHP_PAGE = """# Basic syntax

A file of PHP code only ends without the closing tag:

<?php

echo "Hello";

?>
Text after the block.

The tag on a line of its own closes the block:

?>

When a file is pure PHP code, leave it out.
"""


def test_php_closing_tags_are_no_tips() -> None:
    """PHP's ``?>`` after a blank line, inside a ``<?php`` block (an HTML block to its ``?>`` line) or alone as a
    paragraph, read "Tip: ..." (task R17): the block's end ran into its next line ("Tip: Text after the block."),
    the lone tag an empty tip. Neither is a Docsify helper: one is in an HTML block, the other has no text."""
    document = parse_markdown(PHP_PAGE)
    document.check()
    assert "Tip:" not in document.text
    assert "?>\n\nWhen a file is pure PHP code" in document.text
