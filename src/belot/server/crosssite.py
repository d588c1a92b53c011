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
    kind = headers.get(b"content-type")
    if kind is not None:
        media = kind.split(b";", 1)[0].strip().lower()
        if media != b"application/json":
            shown = media.decode("latin-1")[:60]
            return (415, "bad_content_type", f"a request body must be application/json, not {shown!r}",
                    {"field": "Content-Type"})
    return None


def _is_api(path: str) -> bool:
    return path == "/api" or path.startswith("/api/")


async def _refuse(send: Any, status: int, code: str, message: str, detail: dict[str, Any]) -> None:
    body = json.dumps({"error": {"code": code, "message": message, "rule": None, "detail": detail}},
                      ensure_ascii=True).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


__all__ = ["RefuseCrossSite", "refusal_of"]
