"""Make the process offline-safe before litellm or tiktoken are imported.

litellm fetches a model cost map on import unless told not to, and tiktoken downloads its
encodings on first use. litellm ships ``cl100k_base`` and ``o200k_base`` in its package, so
pointing ``TIKTOKEN_CACHE_DIR`` there makes token counting work without a network. Both are
set only where the user has not set them already.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path


def litellm_tokenizer_dir() -> Path | None:
    """The folder of tiktoken encodings that the installed litellm ships, if any."""
    spec = importlib.util.find_spec("litellm")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "litellm_core_utils" / "tokenizers"
    return folder if folder.is_dir() else None


def configure() -> None:
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    if "TIKTOKEN_CACHE_DIR" not in os.environ:
        folder = litellm_tokenizer_dir()
        if folder is not None:
            os.environ["TIKTOKEN_CACHE_DIR"] = str(folder)


configure()
