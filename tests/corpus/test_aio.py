"""clew.asearch and clew.aingest_paths: the sync calls as coroutines that leave the event loop free."""

from __future__ import annotations

import asyncio
import inspect
import threading
from pathlib import Path

import pytest

import clew
from tests.conftest import write_files

DOCS = {
    "backups.md": "# Backups\n\n## Restore\n\nRestore the latest backup with `backupctl restore --latest`.\n",
    "alerts.md": "# Alerts\n\n## Paging\n\nA disk alert pages the storage on-call.\n",
}


def test_ingest_and_search_as_coroutines_while_the_loop_serves_another_task(tmp_path: Path) -> None:
    folder = write_files(tmp_path / "docs", DOCS)
    loop_ran = threading.Event()
    threads: set[str] = set()

    def on_file(key: str) -> None:  # called in the ingest's thread: it waits for a task on the loop
        threads.add(threading.current_thread().name)
        assert loop_ran.wait(timeout=30), "the event loop was blocked while the ingest ran"

    async def main() -> tuple[clew.SearchResult, clew.SearchResult]:
        async def beside() -> None:
            await asyncio.sleep(0)
            loop_ran.set()

        with clew.Corpus(tmp_path / "c.duckdb") as corpus:
            report, _ = await asyncio.gather(
                clew.aingest_paths(corpus, [folder], collection="ops", on_file=on_file), beside())
            assert (report.documents, report.skipped) == (2, 0)
            found = await clew.asearch(corpus, {"query": "restore the latest backup", "collection": "ops"})
            return found, clew.search(corpus, {"query": "restore the latest backup", "collection": "ops"})

    found, same = asyncio.run(main())
    assert threading.current_thread().name not in threads
    assert found.hits[0].document_key == "backups.md"
    assert found.model_dump() == same.model_dump()


def test_the_coroutines_raise_what_the_sync_calls_raise(tmp_path: Path) -> None:
    assert inspect.iscoroutinefunction(clew.asearch) and inspect.iscoroutinefunction(clew.aingest_paths)
    assert (clew.asearch.__name__, clew.aingest_paths.__name__) == ("asearch", "aingest_paths")
    assert list(inspect.signature(clew.aingest_paths).parameters) == list(
        inspect.signature(clew.ingest_paths).parameters)

    async def main() -> None:
        with clew.Corpus(tmp_path / "c.duckdb") as corpus:
            with pytest.raises(clew.InputError) as missing:
                await clew.aingest_paths(corpus, [tmp_path / "no-such-folder"])
            assert missing.value.field == "paths" and "no-such-folder" in str(missing.value)
            with pytest.raises(clew.InputError) as blank:
                await clew.asearch(corpus, {"query": "  "})
            assert blank.value.field == "query"

    asyncio.run(main())
