"""A PDF printed from the HTML pages beside it is left out (the Debian Reference's shape: DocBook's HTML
chapters and the same manual as one PDF); a PDF with text of its own is kept. The PDFs are written here
with pypdfium2's standard fonts, one page per chapter, lines wrapped as a printed page wraps them."""

from __future__ import annotations

import ctypes
import io
import textwrap
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest

from clew.corpus.ingest import peek
from clew.corpus.ingest.sources import find_files

CHAPTERS = {
    "ch01.en.html": ("GNU/Linux tutorials", (
        "Learning a computer system is like learning a new foreign language. Although tutorial books and "
        "documentation are helpful, you have to practice it yourself. In order to help you get started smoothly, "
        "this chapter elaborates a few basic points. The powerful design of Debian GNU/Linux comes from the Unix "
        "operating system, which is multiuser and multitasking. You must learn to take advantage of the power of "
        "these features and the similarities between Unix and GNU/Linux. The console shows a login prompt after "
        "boot, and the shell reads the commands you type at it.")),
    "ch02.en.html": ("Debian package management", (
        "Debian is a volunteer organization which builds consistent distributions of pre-compiled binary packages "
        "of free software and distributes them from its archive. The Debian archive is offered by many remote "
        "mirror sites for access through HTTP and FTP methods. The apt command is the main tool to install and "
        "remove packages, and dpkg is the low level tool under it. To hold a package at its version, write "
        "its name with hold to the selections of dpkg, and the upgrade leaves it alone until you release it.")),
    "ch03.en.html": ("The system initialization", (
        "It is wise for you as the system administrator to know roughly how the Debian system is started and "
        "configured. Although the exact details are in the source files of the packages installed and their "
        "documentations, it is a bit overwhelming for most of us. The boot loader starts the kernel, the kernel "
        "starts the init program, and systemd then starts the services in the order their unit files ask for. "
        "The hostname is kept in the file named hostname in the etc directory, and the time zone is set again "
        "with the reconfigure command of dpkg on the tzdata package.")),
}
OWN = ("A field guide to alpine plants", (
    "Edelweiss grows on limestone ledges above the tree line, where its woolly leaves keep the frost and the "
    "strong sunlight away from the flower heads. Gentians open only in sunshine and close before a storm, so a "
    "walker who watches them can read the weather an hour before the clouds arrive over the ridge. The alpine "
    "rose colours whole slopes in early summer and marks the acid soils that lie over granite rather than chalk. "
    "Saxifrages split the rock with their roots and hold on in cracks where no other plant finds water."))


def html_page(title: str, text: str) -> str:
    return (f"<!DOCTYPE html><html><head><title>Chapter: {title}</title></head><body><div class=navheader>"
            f"<a href=index.en.html>Home</a></div><h1>{title}</h1><p>{text}</p></body></html>")


def write_pdf(path: Path, chapters: list[tuple[str, str]]) -> None:
    """One page per chapter: its title in 16 pt bold, its text in 11 pt lines of 90 characters."""
    pdf = pdfium.PdfDocument.new()
    for title, text in chapters:
        page = pdf.new_page(612, 792)
        lines = [(title, 16.0)] + [(line, 11.0) for line in textwrap.wrap(text, 90)]
        for number, (line, size) in enumerate(lines):
            obj = raw.FPDFPageObj_NewTextObj(pdf.raw, b"Helvetica-Bold" if size > 11 else b"Helvetica", size)
            encoded = ctypes.create_string_buffer((line + "\x00").encode("utf-16-le"))
            raw.FPDFText_SetText(obj, ctypes.cast(encoded, ctypes.POINTER(ctypes.c_ushort)))
            raw.FPDFPageObj_Transform(obj, 1, 0, 0, 1, 72, 720 - 16 * number)
            raw.FPDFPage_InsertObject(page.raw, obj)
        page.gen_content()
    buffer = io.BytesIO()
    pdf.save(buffer)
    pdf.close()
    path.write_bytes(buffer.getvalue())


def manual(root: Path) -> Path:
    """The HTML chapters of a manual in ``root/reference``."""
    folder = root / "reference"
    folder.mkdir(parents=True)
    for name, (title, text) in CHAPTERS.items():
        (folder / name).write_text(html_page(title, text), encoding="utf-8")
    return folder


def test_a_pdf_of_the_html_pages_beside_it_is_left_out_and_said_how_to_take_it_back(tmp_path: Path) -> None:
    folder = manual(tmp_path)
    write_pdf(folder / "reference.en.pdf", list(CHAPTERS.values()))
    found = find_files([tmp_path], "**/*")
    assert sorted(key for _, key in found.files) == [f"reference/{name}" for name in CHAPTERS]
    (copy,) = found.problems
    assert (copy.path, copy.skipped) == (str(folder / "reference.en.pdf"), True)
    assert copy.message.startswith("the HTML pages beside it hold its text (100% of the word pairs of 3 of its "
                                   "pages read): a copy in another format, ingested once, as those pages; take it "
                                   "in with --exclude '!reference.en.pdf'")
    taken = find_files([tmp_path], "**/*", ["!reference.en.pdf"])
    assert "reference/reference.en.pdf" in [key for _, key in taken.files] and not taken.problems


def test_a_pdf_in_its_own_folder_is_compared_with_the_html_pages_of_the_folder_above(tmp_path: Path) -> None:
    folder = manual(tmp_path)
    (folder / "pdf").mkdir()
    write_pdf(folder / "pdf" / "reference.pdf", list(CHAPTERS.values()))
    (copy,) = find_files([tmp_path], "**/*").problems
    assert copy.message.startswith("the HTML pages under reference/ hold its text")


def test_a_pdf_with_text_of_its_own_is_kept(tmp_path: Path) -> None:
    folder = manual(tmp_path)
    write_pdf(folder / "plants.pdf", [OWN, OWN, OWN])  # nothing of the manual
    chapters = list(CHAPTERS.values())
    write_pdf(folder / "more.pdf", [chapters[0], OWN, chapters[1], chapters[2]])  # the manual and a chapter of its own
    write_pdf(folder / "short.pdf", chapters[:2])  # too few pages to tell
    found = find_files([tmp_path], "**/*")
    assert {key for _, key in found.files} >= {"reference/plants.pdf", "reference/more.pdf", "reference/short.pdf"}
    assert not found.problems


def test_a_pdf_without_html_pages_in_its_folder_tree_is_kept(tmp_path: Path) -> None:
    write_pdf(tmp_path / "reference.pdf", list(CHAPTERS.values()))
    (tmp_path / "notes.md").write_text("# Notes\n\n" + CHAPTERS["ch01.en.html"][1] + "\n", encoding="utf-8")
    found = find_files([tmp_path], "**/*")
    assert sorted(key for _, key in found.files) == ["notes.md", "reference.pdf"] and not found.problems


def test_a_pdf_that_cannot_be_read_in_time_or_at_all_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # its pages are read in a child process, ended past PDF_SECONDS: PDFium can stall seconds in one call
    folder = manual(tmp_path)
    write_pdf(folder / "reference.en.pdf", list(CHAPTERS.values()))
    (folder / "broken.pdf").write_bytes(b"%PDF-1.7\nnot a PDF after all\n")
    assert [p.path for p in find_files([tmp_path], "**/*").problems] == [str(folder / "reference.en.pdf")]
    monkeypatch.setattr(peek, "PDF_SECONDS", 0.001)
    found = find_files([tmp_path], "**/*")
    assert {"reference/reference.en.pdf", "reference/broken.pdf"} <= {key for _, key in found.files}
    assert not found.problems
