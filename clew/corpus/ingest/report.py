"""What an ingest reports (``IngestReport``), apart from the write path that fills it in
(``clew.corpus.ingest.api``): the REST upload route declares it as its response, so that
``clew serve`` loads the readers and the chunker at the first upload rather than at its start."""

from __future__ import annotations

from pydantic import BaseModel, Field

from clew.corpus.rewrite import FileCompaction


class SkippedItem(BaseModel):
    path: str
    message: str
    skipped: bool
    warning: bool = False
    unread_type: str | None = None
    """The suffix of a file skipped because clew reads no file of its type (``'.png'``): ``clew ingest``
    counts those by type in one line."""
    taken_by: str | None = None
    """The file of an earlier folder given that holds this file's key (two sites' ``index.html``), this one skipped:
    ``clew ingest`` says those in one line."""
    named_as: bool = Field(default=False, exclude=True)
    """A file named as a kind clew reads that is not one (``notes.1`` not roff, a binary ``README``): ``clew ingest``
    names it, with why, where it counts other unread types (its message says so: not in the report's JSON)."""


class IngestReport(BaseModel):
    collection: str
    documents: int = Field(0, description="documents read and prepared (new, changed or unchanged)")
    versions_created: int = 0
    unchanged: int = 0
    chunks: int = Field(0, description="chunks written for the new versions")
    skipped: int = Field(0, description="files or records that were not ingested")
    repaired: int = 0
    warnings: int = Field(0, description="files ingested with a part left out (a scanned PDF page)")
    problems: list[SkippedItem] = Field(default_factory=list)
    links_resolved: int = 0
    links_dangling: int = 0
    links_dangling_by_reason: dict[str, int] = Field(
        default_factory=dict, description="dangling links of the collection by reason: external (a URL with a "
        "scheme, or //host/...), outside_collection (a relative path above the collection's root), left_out (a file "
        "of a folder ingested that the ingest left out: generated, excluded, a type not read), missing_document "
        "(no key of the collection is named by any rule)")
    excluded: int = Field(0, description="files left out by --exclude, .clewignore, or as generated pages (a Sphinx "
                          "genindex, search page, _sources, _static: one warning per folder; a !PATTERN keeps them)")
    retired: list[str] = Field(default_factory=list, description="keys retired by prune (files no longer found)")
    files_gone: list[str] = Field(default_factory=list, description="without prune: keys of current documents read "
                                  "from a folder given whose files are gone; they stay current and searchable until "
                                  "an ingest with prune (clew ingest --prune) retires them")
    compaction_deferred: bool = Field(False, description="the BM25 index compaction after the ingest failed (a "
                                      "full disk; logged): the documents are stored, and it is tried again after "
                                      "the next ingest")
    file_compacted: FileCompaction | None = Field(None, description="the ingest left more than 10% of the file "
                                                  "free, so the file was rewritten without its free blocks")
    file_compaction_deferred: bool = Field(False, description="that rewrite was put off: other requests were "
                                           "still reading, or it failed (a full disk; logged). A later ingest, "
                                           "or clew compact, does it")
    withheld: bool = Field(False, description="the writer has a row filter: versions_created, unchanged, chunks, "
                           "the links counts and the file compaction fields are withheld (0, false, null), since "
                           "they would tell a key it may not write (not written) from an absent one (written); "
                           "documents, skipped, problems and retired count only what it sent or may read")
    side_by_side: str | None = Field(None, description="most documents read lie under several top folders by one "
                                     "path (versions side by side): how to ask one (clew.corpus.ingest.side_by_side)")
    seconds: float = 0.0

    def withhold(self) -> None:
        """Withhold what depends on the corpus's contents (see ``withheld``)."""
        self.versions_created = self.unchanged = self.chunks = self.links_resolved = self.links_dangling = 0
        self.links_dangling_by_reason = {}
        self.compaction_deferred = self.file_compaction_deferred = False
        self.file_compacted = None
        self.withheld = True
