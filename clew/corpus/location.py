"""Where a passage sits in its document: character offsets and, for paged formats, pages."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

if TYPE_CHECKING:
    from clew.corpus.reader import Passage


class Location(BaseModel):
    """Every surface reports a passage's place the same way: search hits, navigation items,
    fetched evidence and a run's hits."""

    model_config = ConfigDict(defer_build=True)

    char_start: int = Field(description="offset of the passage body in the document text")
    char_end: int = Field(description="end of the passage body (exclusive)")
    page_numbers: list[int] = Field(default_factory=list, exclude_if=lambda pages: not pages,
                                    description="pages, where the format has them (absent: it has none)")

    def page_span(self) -> str:
        """Its pages for a reader, ``p. 3`` or ``p. 3-4``; empty where the format has none."""
        pages = self.page_numbers
        return (f"p. {pages[0]}" + (f"-{pages[-1]}" if len(pages) > 1 else "")) if pages else ""

    @classmethod
    def of(cls, passage: Passage) -> Location:
        return cls.model_construct(char_start=passage.start, char_end=passage.end, page_numbers=list(passage.pages))
