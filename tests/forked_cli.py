"""``python -m clew`` as a process of its own, forked from one that imported the CLI once.

A cold ``python -m clew batch --system free ...`` spends about 3.5 s of CPU importing litellm
before it reads its first argument; four such runs were 14 of the 16 s of CPU that two batch
tests took. A test that needs the command in a process of its own (a fresh process state: no
event loop, logging worker or cache left by earlier tests) starts it through ``ForkedCli``: one
process (``python tests/forked_cli.py``, once a session) imports ``PRELOAD`` and then forks a
child per run. The child is what ``python -m clew ARGS`` runs after its imports: the test's
environment and working folder, stdin from /dev/null, its own stdout and stderr, ``clew`` run
as ``__main__`` (``runpy``, as ``-m`` does), the interpreter's own exit (atexit handlers,
flushes, a traceback and status 1 for an uncaught error). What differs from a cold start: what
the imports read from the environment (the session's, when the forking process started), the
parent process (the forking one, not the test), and the imported objects are frozen
(``gc.freeze``, as ``clew ask`` freezes them once its code is loaded) so that the children's
collections do not walk, and copy, the forking process's heap. Four batch runs: 19 s of CPU
cold, 12 s forked without the freeze, about 6 s with it (the forking process's 3.5 s included).
"""

from __future__ import annotations

import gc
import importlib
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import IO, Any

PRELOAD = ("clew._offline", "clew.cli", "clew.commands.evals", "clew.agent.model", "litellm")
"""What the forking process imports before it forks (litellm alone is 3.5 s of CPU a start), in
the order a command imports them: ``clew._offline`` before litellm (else litellm fetches its cost
map from the network on import)."""


class ForkedCli:
    """``run(args)`` is ``subprocess.run([python, "-m", "clew", *args], capture_output=True, text=True)``,
    forked from one process that imported ``PRELOAD``; ``close()`` ends that process."""

    def __init__(self) -> None:
        self._server = subprocess.Popen([sys.executable, __file__], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, bufsize=1)
        self._folder = Path(tempfile.mkdtemp(prefix="clew-forked-cli-"))
        self._runs = 0

    def run(self, args: list[str], *, timeout: float) -> subprocess.CompletedProcess[str]:
        assert self._server.stdin is not None and self._server.stdout is not None
        self._runs += 1
        out, err = self._folder / f"{self._runs}.out", self._folder / f"{self._runs}.err"
        request = {"args": args, "env": dict(os.environ), "cwd": os.getcwd(), "stdout": str(out), "stderr": str(err)}
        self._server.stdin.write(json.dumps(request) + "\n")
        self._server.stdin.flush()
        pid = int(self._reply(self._server.stdout, 120, "fork")["pid"])
        try:
            status = int(self._reply(self._server.stdout, timeout, "run")["status"])
        except subprocess.TimeoutExpired:
            os.kill(pid, signal.SIGKILL)
            self._reply(self._server.stdout, 30, "kill")
            raise subprocess.TimeoutExpired(["python", "-m", "clew", *args], timeout) from None
        done = subprocess.CompletedProcess(["python", "-m", "clew", *args], status,
                                           out.read_text(encoding="utf-8"), err.read_text(encoding="utf-8"))
        out.unlink()
        err.unlink()
        return done

    def _reply(self, stream: IO[str], timeout: float, what: str) -> dict[str, int]:
        ready, _, _ = select.select([stream], [], [], timeout)
        if not ready:
            raise subprocess.TimeoutExpired(["python", "-m", "clew"], timeout)
        line = stream.readline()
        assert line, f"the forking process ended before it answered ({what}): status {self._server.poll()}"
        reply: dict[str, int] = json.loads(line)
        return reply

    def close(self) -> None:
        for pipe in (self._server.stdin, self._server.stdout):
            if pipe is not None:
                pipe.close()
        self._server.wait(30)
        for leftover in self._folder.iterdir():
            leftover.unlink()
        self._folder.rmdir()


def _serve() -> None:
    """The forking process: imports, then one child per request line; answers the child's pid,
    then its status (as subprocess reports it: negative for a signal)."""
    protocol = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)  # what the imports print goes to stderr, not into the answers
    for module in PRELOAD:
        importlib.import_module(module)
    gc.freeze()  # else each child's collections walk, and so copy, all of it: 1.9 s of CPU a run, not 0.6
    for line in sys.stdin:
        request = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            protocol.close()
            _become(request)
            return  # the child: on to the module's end, and the interpreter's own exit
        protocol.write(json.dumps({"pid": pid}) + "\n")
        _, status = os.waitpid(pid, 0)
        protocol.write(json.dumps({"status": os.waitstatus_to_exitcode(status)}) + "\n")


def _become(request: dict[str, Any]) -> None:
    """In the child: the test's environment, folder and files, then ``python -m clew ARGS``."""
    import runpy

    os.environ.clear()
    os.environ.update(request["env"])
    os.chdir(request["cwd"])
    sys.path[0] = os.getcwd()  # as ``-m`` puts it
    for fd, path, flags in ((0, os.devnull, os.O_RDONLY), (1, request["stdout"], os.O_WRONLY | os.O_CREAT),
                            (2, request["stderr"], os.O_WRONLY | os.O_CREAT)):
        opened = os.open(path, flags, 0o600)
        os.dup2(opened, fd)
        os.close(opened)
    sys.stdin = open(0, encoding=sys.stdin.encoding, closefd=False)  # the process's stdin: /dev/null now
    sys.argv = ["-m", *request["args"]]  # runpy sets argv[0] to clew/__main__.py, as -m does
    runpy.run_module("clew", run_name="__main__", alter_sys=True)

if __name__ == "__main__":
    _serve()
