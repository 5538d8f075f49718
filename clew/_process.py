"""What the ``clew`` executable and the command it runs tell each other.

``clew.cli.run`` (the executable: a process of its own) marks the process as its own; a command
then says when its code is loaded (``settled``) and whether it leaves nothing running
(``ends_at_once``). Called from Python instead (``clew.cli.main``, a test's runner), the process
is not clew's own and nothing here changes it.
"""

from __future__ import annotations

import atexit
import gc


class _Process:
    own = False
    """Set by the executable: this process runs one command and ends."""
    ends_at_once = False
    """Set by a command that left nothing running (no thread, its corpus closed)."""


PROCESS = _Process()


def own_process() -> None:
    """This process is the executable's: it runs one command, then ends (``no_final_collections``)."""
    PROCESS.own = True
    no_final_collections()


def no_final_collections() -> None:
    """At the process's exit, freeze every object (``gc.freeze``, an exit handler: every other one still runs,
    the logging's flush, the parse workers' end): the interpreter's teardown then frees the modules by their
    reference counts without walking them in its collections, and only what is cyclic and garbage by then stays
    unfreed as the process ends. The teardown's collections walked every imported object:
    0.3-0.35 s of CPU at the end of ``clew serve`` or ``clew mcp`` (FastAPI, mcp's types), 0.09 s of a small
    ``clew ingest``, about 1 s after litellm's import, 1.4-1.8 s at the end of a pytest process that imported
    litellm and mcp (tests/conftest.py calls this too). The rule it asks for: a file written and left unclosed in a
    reference cycle would no longer be flushed by the teardown's collection; clew closes every file it writes
    (``with``), and a closed or an uncyclic object is finalized as before."""
    atexit.register(gc.freeze)


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
