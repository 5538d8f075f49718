"""A bookmark placed on its page's lines where the page sets a chapter's label and number apart from its title
(Sphinx's LaTeX builder, Why3's manual: "CHAPTER" over "ONE" over "FOREWORD", its bookmark "Foreword"; task R13).
The label's lines opened the chapter's section as two paragraphs left in the section before it, and the heading read
"FOREWORD", the number lost."""

from __future__ import annotations

from clew.corpus.ingest.formats.pdf_layout import Line
from clew.corpus.ingest.formats.pdf_outline import Entry, Mark, place


def _chapter_page(*above: str, title: str = "FOREWORD") -> list[Line]:
    lines = [Line("the last words of the chapter before, set on this page.", 10.0, False, False, 60.0, 72.0)]
    lines += [Line(text, 14.3 if i else 10.0, True, False, 100.0 + 24 * i, 491.0) for i, text in enumerate(above)]
    lines += [Line(title, 14.3, True, False, 178.6, 455.2),
              Line("Why3 is a platform for deductive program verification.", 10.0, False, False, 236.4, 72.0)]
    return lines


def test_a_chapters_label_and_number_open_its_section_with_its_title() -> None:
    marks = place([Entry("Foreword", 1, 0, 72.0)], [_chapter_page("CHAPTER", "ONE")], 10.0)
    assert marks == {0: [Mark("Foreword", 1, 1, 3, "1 Foreword")]}
    marks = place([Entry("Release Notes", 1, 0, 72.0)], [_chapter_page("CHAPTER", "THIRTEEN", title="RELEASE NOTES")],
                  10.0)
    assert marks[0][0].heading == "13 Release Notes"


def test_a_label_on_one_line_and_a_title_in_its_own_case() -> None:
    """``Chapter 12`` on one line; a title printed in its own case keeps it (the bookmark's may differ)."""
    marks = place([Entry("Technical informations", 1, 0, 72.0)],
                  [_chapter_page("Chapter 12", title="Technical Informations")], 10.0)
    assert marks == {0: [Mark("Technical informations", 1, 1, 2, "12 Technical Informations")]}
    marks = place([Entry("Gnuplot", 1, 0, 72.0)], [_chapter_page("Part", "II", title="Gnuplot")], 10.0)
    assert marks[0][0].heading == "Part II Gnuplot"  # an appendix's or a part's label stays: "Appendix A", "Part II"


def test_lines_that_are_no_chapter_label_stay_text() -> None:
    """A word "Chapter" over a word that is no number, or a number alone, is not taken into the heading. A title
    printed in capitals still reads in its bookmark's case (Why3's unnumbered "BIBLIOGRAPHY")."""
    for above in (("CHAPTER", "NOTES"), ("ONE",)):
        marks = place([Entry("Foreword", 1, 0, 72.0)], [_chapter_page(*above)], 10.0)
        assert marks == {0: [Mark("Foreword", 1, 1 + len(above), 1, "Foreword")]}
    marks = place([Entry("Notes", 1, 0, 72.0)], [_chapter_page("CHAPTER", "ONE")], 10.0)  # no bookmark's title
    assert marks == {0: [Mark("Notes", 1, 1, 0)]}  # at its destination, the heading the bookmark's


def test_a_chapter_carried_to_the_next_page_takes_its_label_from_that_page_s_top() -> None:
    """The bookmark points at the foot of the page where the section before opened (LaTeX set the anchor before the
    page break); the chapter's label, number and title head the next page. The label was looked for above the
    section before's heading line on the first page, not from the next page's top: "Foreword", number lost."""
    first = [Line("Installation", 14.3, True, False, 100.0, 72.0),
             Line("Run the installer and answer its questions.", 10.0, False, False, 130.0, 72.0),
             Line("Then read the foreword.", 10.0, False, False, 150.0, 72.0)]
    marks = place([Entry("Installation", 1, 0, 90.0), Entry("Foreword", 1, 0, 700.0)],
                  [first, _chapter_page("CHAPTER", "ONE")[1:]], 10.0)
    assert marks == {0: [Mark("Installation", 1, 0, 1, "Installation")], 1: [Mark("Foreword", 1, 0, 3, "1 Foreword")]}
