"""What the ``clew`` executable and the command it runs tell each other.

``clew.cli.run`` (the executable: a process of its own) marks the process as its own; a command
then says when its code is loaded (``settled``) and whether it leaves nothing running
(``ends_at_once``). Called from Python instead (``clew.cli.main``, a test's runner), the process
is not clew's own and nothing here changes it.
"""

from __future__ import annotations

import gc


class _Process:
    own = False
    """Set by the executable: this process runs one command and ends."""
    ends_at_once = False
    """Set by a command that left nothing running (no thread, its corpus closed)."""


PROCESS = _Process()


def own_process() -> None:
    """This process is the executable's: it runs one command, then ends."""
    PROCESS.own = True


def settled() -> None:
    """The command's code is loaded and its work comes next. In the executable's process, what the
    imports made is frozen (``gc.freeze``): the cyclic collector never walks it again. A cold ``clew
    ask`` made one full collection, after its walk, that walked all of it (22 ms of 0.4 s)."""
    if PROCESS.own:
        gc.freeze()


def ends_at_once() -> None:
    """The command left nothing running: the executable may end the process without the
    interpreter's teardown, as it does after a one-shot tool command."""
    PROCESS.ends_at_once = True
