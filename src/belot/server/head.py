"""HEAD requests, answered as the GET of the same path is, without its body (RFC 9110, 9.3.2).

A general-purpose server must answer HEAD wherever it answers GET; link checkers, caches and
monitors ask it.  FastAPI's routes take only the methods they are declared with, so every page and
``GET /api/...`` route answered HEAD with 405.  This middleware runs a HEAD as that GET and sends
the GET's status and headers (``Content-Length`` and ``Content-Type`` included) with no body.  A
path with no GET answers HEAD as it answers GET: 404 ``no_route``, or 405 ``bad_method`` naming
the methods it takes.  What a GET does (nothing: GETs change nothing) a HEAD does too.
"""

from __future__ import annotations

from typing import Any

HEAD_SCOPE_KEY = "belot.head"  # set in the scope of a GET that answers a HEAD (the 405 names HEAD)


class HeadAsGet:
    """ASGI middleware: an HTTP HEAD runs as GET, and its answer goes out without a body."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def headers_only(message: Any) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return  # a part of a streamed body: not sent
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        # A copy: the server's own scope still says HEAD, so it sends no body either.
        await self.app({**scope, "method": "GET", HEAD_SCOPE_KEY: True}, receive, headers_only)


__all__ = ["HEAD_SCOPE_KEY", "HeadAsGet"]
