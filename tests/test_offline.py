"""Importing clew never touches the network, and token counting works offline."""

import os
import subprocess
import sys
import textwrap


def test_import_and_count_tokens_with_no_network() -> None:
    script = textwrap.dedent(
        """
        import socket
        def refuse(*args, **kwargs):
            raise OSError("network disabled for this test")
        socket.socket.connect = refuse
        socket.create_connection = refuse
        socket.getaddrinfo = refuse
        import clew, clew.cli, litellm
        from clew.budgets.tokens import count_tokens
        assert count_tokens("SQLITE_BUSY and max_wal_size") > 0
        import os
        print(os.environ["LITELLM_LOCAL_MODEL_COST_MAP"], os.environ["TIKTOKEN_CACHE_DIR"])
        """
    )
    env = {k: v for k, v in os.environ.items() if k not in ("TIKTOKEN_CACHE_DIR", "LITELLM_LOCAL_MODEL_COST_MAP")}
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    flag, cache = result.stdout.split()
    assert flag == "True"
    assert cache.endswith(os.path.join("litellm_core_utils", "tokenizers"))
