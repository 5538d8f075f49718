"""Host names as the servers read them: a ``Host`` header, an ``allowed_hosts`` entry.

Kept apart from ``clew.server.guard`` (which needs the ``server`` extra's starlette) because the
configuration validates ``allowed_hosts`` for every command, servers or not.
"""

from __future__ import annotations

from urllib.parse import urlsplit


def split_host(value: str) -> tuple[str, int | None] | None:
    """``name[:port]`` as (lower-case name, port), IPv6 without brackets; None when it is not one."""
    try:
        parts = urlsplit(f"//{value}")
        name, port = parts.hostname, parts.port
    except ValueError:
        return None
    if not name or parts.username is not None or parts.password is not None or parts.path:
        return None
    return name, port
