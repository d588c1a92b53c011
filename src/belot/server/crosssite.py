"""Refusing the API requests that a page of another site makes a visitor's browser send.

Any page can make its visitors' browsers post to this server (a form, or a ``fetch`` in ``no-cors``
mode), from their own addresses: create tables, join seats, ask for analyses, under the limits of
each visitor's address instead of the page's. The browser says where such a request comes from, and
no proxy between can change that: ``Sec-Fetch-Site`` (sent by every current browser) is ``cross-site``
or ``same-site`` for a request a page of another site or subdomain started, and ``same-origin`` for
the pages this server serves itself. A browser too old to send it still cannot post a JSON body
to another site without asking the server first (a CORS preflight, which belot never grants): its
forms send form or text bodies. So a state-changing request under ``/api/`` is refused with 403
``cross_site`` when its ``Sec-Fetch-Site`` names another site, and with 415 ``bad_content_type``
when it has a ``Content-Type`` other than ``application/json``. Programs (curl, the tests, other
clients) send no ``Sec-Fetch-Site``, and a body without a ``Content-Type`` is read as JSON.
Reading requests (GET) are left alone: they change nothing, and what they show is public.

A browser without ``Sec-Fetch-Site`` (Safari before 16.4) can still post a body with no
``Content-Type`` at all (``fetch`` in ``no-cors`` mode with a ``Blob`` body), which passes the type
check; but every browser names the page's origin in ``Origin`` on a POST to another origin.  So when
``Sec-Fetch-Site`` is missing, an ``Origin`` whose host is not the request's ``Host`` (or ``null``: a
sandboxed frame, a file) is refused with 403 ``cross_site`` too (``reason`` ``origin``).  Programs send
no ``Origin``; a reverse proxy must pass the ``Host`` the browser asked for (docs/protocol.md).
"""

from __future__ import annotations

import json
from typing import Any

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
FOREIGN_SITES = frozenset({b"cross-site", b"same-site"})


class RefuseCrossSite:
    """ASGI middleware: a state-changing API request from another site's page, or of a non-JSON type, is refused."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["method"] not in SAFE_METHODS and _is_api(scope["path"]):
            refusal = refusal_of(dict(scope.get("headers", ())))
            if refusal is not None:
                await _refuse(send, *refusal)
                return
        await self.app(scope, receive, send)


def refusal_of(headers: dict[bytes, bytes]) -> tuple[int, str, str, dict[str, Any]] | None:
    """(status, code, message, detail) of a state-changing API request with these headers, or None."""
    site = headers.get(b"sec-fetch-site", b"").strip().lower()
    if site in FOREIGN_SITES:
        return (403, "cross_site", "a page of another site cannot change anything here "
                f"(Sec-Fetch-Site: {site.decode()})", {"reason": site.decode()})
    if not site and not same_host(headers.get(b"origin"), headers.get(b"host")):
        origin = headers.get(b"origin", b"").decode("latin-1")[:100]
        return (403, "cross_site", f"a page of another site cannot change anything here (Origin: {origin})",
                {"reason": "origin"})
    kind = headers.get(b"content-type")
    if kind is not None:
        media = kind.split(b";", 1)[0].strip().lower()
        if media != b"application/json":
            shown = media.decode("latin-1")[:60]
            return (415, "bad_content_type", f"a request body must be application/json, not {shown!r}",
                    {"field": "Content-Type"})
    return None


DEFAULT_PORTS = {b"http": b"80", b"https": b"443"}


def same_host(origin: bytes | None, host: bytes | None) -> bool:
    """Whether the ``Origin`` header (absent: a program's request) names the ``Host`` asked for.

    >>> same_host(b"https://belot.example", b"belot.example"), same_host(b"http://a.example:8000", b"a.example:8000")
    (True, True)
    >>> same_host(b"https://evil.example", b"belot.example"), same_host(b"null", b"belot.example"), same_host(None, b"x")
    (False, False, True)
    >>> same_host(b"http://[::1]:8000", b"[::1]:8000"), same_host(b"http://[::1]:8000", b"[::1]:8001")
    (True, False)
    """
    if origin is None:
        return True
    scheme, sep, rest = origin.strip().lower().partition(b"://")
    if not sep or not rest or host is None:
        return False
    default = DEFAULT_PORTS.get(scheme, b"")
    return _host_port(rest, default) == _host_port(host.strip().lower(), default)


def _host_port(text: bytes, default: bytes) -> tuple[bytes, bytes]:
    """``host[:port]`` as (host, port), an IPv6 address in its brackets: ``[::1]:8000``."""
    end = text.rfind(b"]") + 1 if text.startswith(b"[") else 0
    name, colon, port = text[end:].partition(b":")
    return text[:end] + name, port if colon else default


def _is_api(path: str) -> bool:
    return path == "/api" or path.startswith("/api/")


async def _refuse(send: Any, status: int, code: str, message: str, detail: dict[str, Any]) -> None:
    body = json.dumps({"error": {"code": code, "message": message, "rule": None, "detail": detail}},
                      ensure_ascii=True).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


__all__ = ["RefuseCrossSite", "refusal_of", "same_host"]
