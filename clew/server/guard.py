"""What a web page in a browser may not make a clew server do: answer for another host name
(DNS rebinding), take a cross-origin write, or read a JSON route's body from a form.

One ASGI middleware (``Guard``), in front of every REST route, checks in this order:

1. ``Host``: the name must be one the server answers to: ``127.0.0.1``, ``localhost``,
   ``::1``, the address it is bound to, and ``allowed_hosts`` from ``clew.toml`` (an entry
   ``name`` allows any port, ``name:port`` that port, ``*`` any host). For the built-in
   names a port, when given, must be the bound port. Otherwise 421 ``misdirected``. A page
   on ``evil.example`` whose name re-resolves to 127.0.0.1 sends ``Host: evil.example``, so
   it can never read an answer.
2. Cross origin: a request whose ``Origin`` is not the server's own (``scheme://`` + its
   ``Host``; ``Origin: null`` included), or whose ``Sec-Fetch-Site`` is ``cross-site`` or
   ``same-site``, is 403 ``forbidden``: for every method without API keys (``--no-auth``),
   for state-changing methods (anything but GET, HEAD, OPTIONS) with them. Clients that are
   not browsers send no ``Origin`` and pass.
3. Content type: a request with a body (POST, PUT, PATCH) must be ``application/json`` (or
   ``+json``); the ingest route also takes ``multipart/form-data``. Otherwise 415. A
   ``text/plain`` or form POST is what a page may send without asking (no CORS preflight).

With API keys the checks stay on: they cost a header lookup, and a key already keeps a
page that does not hold one out. The one exception is a server bound to every interface
(``0.0.0.0``, ``::``) with API keys and no ``allowed_hosts``: it cannot know the names it is
reached by, so it takes any ``Host`` (set ``allowed_hosts`` to check them). ``--no-auth``
binds loopback only, so its ``Host`` is always checked.

The MCP server over HTTP gets the same host and origin lists through the MCP SDK's own
protection (``mcp_security``).
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from clew.config.hosts import split_host
from clew.errors import ClewError, Forbidden, MisdirectedHost, UnsupportedMediaType

if TYPE_CHECKING:
    from mcp.server.transport_security import TransportSecuritySettings

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
UPLOAD_PATH = re.compile(r"/v1/collections/[^/]+/documents")
"""The one route that also takes ``multipart/form-data`` (uploaded files)."""


def is_wildcard(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return False


@dataclass(frozen=True)
class HostPolicy:
    """The names a server answers to."""

    names: frozenset[str]
    """Built-in names (loopback, the bound address): any port given must be ``port``."""
    port: int | None
    allowed: tuple[tuple[str, int | None], ...] = ()
    """``allowed_hosts`` entries: (name, port or None for any)."""
    any_host: bool = False

    @classmethod
    def of(cls, bind: tuple[str, int] | None, allowed_hosts: list[str], *, auth: bool) -> HostPolicy:
        """The policy of a server bound to ``bind`` (None: not told; loopback names, any port)."""
        host, port = bind if bind is not None else (None, None)
        entries = [split_host(entry) for entry in allowed_hosts if entry != "*"]
        any_host = "*" in allowed_hosts or (auth and not allowed_hosts and (host is None or is_wildcard(host)))
        names = set(LOOPBACK_NAMES)
        if host is not None and not is_wildcard(host):
            names.add(host.strip("[]").lower())
        return cls(frozenset(names), port, tuple(e for e in entries if e is not None), any_host)

    def accepts(self, value: str | None) -> bool:
        if self.any_host:
            return True
        found = split_host(value or "")
        if found is None:
            return False
        name, port = found
        if name in self.names and (port is None or self.port is None or port == self.port):
            return True
        return any(name == allowed and (want is None or port == want) for allowed, want in self.allowed)


def cross_origin(headers: Headers) -> str | None:
    """Why a request comes from another origin than the server's own, or None."""
    site = headers.get("sec-fetch-site", "").lower()
    if site in ("cross-site", "same-site"):
        return f"Sec-Fetch-Site: {site}"
    origin = headers.get("origin")
    if origin is None:
        return None
    parts = urlsplit(origin)
    own = headers.get("host", "").lower()
    if origin == "null" or parts.scheme not in ("http", "https") or parts.netloc.lower() != own:
        return f"Origin: {origin}"
    return None


def is_json(content_type: str) -> bool:
    kind = content_type.split(";", 1)[0].strip().lower()
    return kind == "application/json" or (kind.startswith("application/") and kind.endswith("+json"))


class Guard:
    """The ASGI middleware: Host, then cross origin, then content type (see the module)."""

    def __init__(self, app: ASGIApp, hosts: HostPolicy, *, auth: bool) -> None:
        self.app, self.hosts, self.auth = app, hosts, auth

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refused = self.refusal(scope)
            if refused is not None:
                await JSONResponse(refused.payload(), status_code=refused.http_status)(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def refusal(self, scope: Scope) -> ClewError | None:
        headers = Headers(scope=scope)
        method = scope["method"]
        if not self.hosts.accepts(headers.get("host")):
            return MisdirectedHost(f"this server does not answer to Host {headers.get('host')!r}; "
                                   "add the name to allowed_hosts in clew.toml to serve it")
        if not self.auth or method not in SAFE_METHODS:
            why = cross_origin(headers)
            if why is not None:
                return Forbidden("origin", f"cross-origin requests are refused ({why})")
        if method in BODY_METHODS:
            kind = headers.get("content-type", "")
            uploads = UPLOAD_PATH.fullmatch(scope["path"]) is not None
            if not is_json(kind) and not (uploads and kind.lower().startswith("multipart/form-data")):
                wanted = "application/json" + (" or multipart/form-data" if uploads else "")
                return UnsupportedMediaType(f"expected Content-Type {wanted}, not {kind or 'none'}")
        return None


def mcp_security(host: str, port: int, allowed_hosts: list[str]) -> TransportSecuritySettings:
    """The MCP SDK's DNS-rebinding protection for ``clew mcp --transport http`` on ``host:port``:
    the same names as the REST server (loopback, the bound address, ``allowed_hosts``)."""
    from mcp.server.transport_security import TransportSecuritySettings

    names = sorted({*LOOPBACK_NAMES, host.strip("[]").lower()})
    hosts = [f"[{n}]:{port}" if ":" in n else f"{n}:{port}" for n in names]
    for entry in allowed_hosts:  # the SDK matches Host exactly, or name:* for any port
        found = split_host(entry)
        hosts += [entry] if found is None or found[1] is not None else [entry, f"{entry}:*"]
    origins = [f"{scheme}://{h}" for h in hosts for scheme in ("http", "https")]
    return TransportSecuritySettings(enable_dns_rebinding_protection="*" not in allowed_hosts,
                                     allowed_hosts=hosts, allowed_origins=origins)
