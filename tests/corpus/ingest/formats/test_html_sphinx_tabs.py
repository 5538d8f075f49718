"""Sphinx's sphinx-tabs extension under sphinx-book-theme: Flask 3.1.3's installation page (task U23;
tests/fixtures/html/README.md says where it comes from)."""

from __future__ import annotations

from tests.corpus.ingest.formats.documents import block_texts, load_html, outline


def test_sphinx_tabs_labels_stand_before_their_panels_and_the_chrome_is_gone() -> None:
    document = load_html("sphinx-book/flask-installation.html")
    assert document.title == "Installation"
    assert outline(document)[1:] == [
        ("Installation", 1, 0), ("Python Version", 2, 1), ("Dependencies", 2, 1), ("Optional dependencies", 3, 3),
        ("greenlet", 3, 3), ("Virtual environments", 2, 1), ("Create an environment", 3, 6),
        ("Activate the environment", 3, 6), ("Install Flask", 2, 1)]
    texts = block_texts(document)
    at = texts.index("Before you work on your project, activate the corresponding environment:")
    assert texts[at + 1:at + 6] == ["macOS/Linux", "```text\n$ . .venv/bin/activate\n```", "Windows",
                                    "```text\n> .venv\\Scripts\\activate\n```",
                                    "Your shell prompt will change to show the name of the activated environment."]
    create = texts.index("Create a project folder and a .venv folder within:")
    assert texts[create + 1] == "macOS/Linux" and texts[create + 3] == "Windows"
    assert not any(t in texts for t in ("Contents", "Skip to main content", "Back to top", "Edit on GitHub",
                                         "Search Ctrl+K", "Next", "Previous"))
