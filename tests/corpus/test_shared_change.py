"""One change shared by overlapping blocks: made by the first in, undone by the last out."""


import duckdb
import pytest

from clew.corpus.shared_change import SharedChange
from clew.errors import StoreFailure


def test_made_once_and_undone_once_by_the_last_block_out() -> None:
    log: list[str] = []
    change = SharedChange()

    def make() -> object:
        log.append("made")
        return lambda: log.append("undone")

    with change.held(make):  # type: ignore[arg-type]
        with change.held(make):  # type: ignore[arg-type]
            assert log == ["made"]
        assert log == ["made"], "the outer block still holds it"
    assert log == ["made", "undone"]
    with change.held(lambda: None):  # nothing to undo
        pass
    assert log == ["made", "undone"]


def failing_undo() -> None:
    raise StoreFailure("c.duckdb", duckdb.IOException("No space left on device"), "the checkpoint",
                       "every committed write is in the write-ahead log")


def test_a_failing_undo_is_raised_when_the_block_succeeded() -> None:
    with pytest.raises(StoreFailure, match="No space left"), SharedChange().held(lambda: failing_undo):
        pass


def test_when_the_block_raised_its_error_wins_and_the_failing_undo_is_logged(
        caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level("WARNING", logger="clew.corpus.shared_change"):
        with pytest.raises(RuntimeError, match="boom"), SharedChange().held(lambda: failing_undo):
            raise RuntimeError("boom")
    assert any("No space left" in r.getMessage() and r.levelname == "WARNING" for r in caplog.records)
