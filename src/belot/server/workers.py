"""Several ``belot serve --worker`` processes on one database server: one owner per table.

Each table in play is owned by exactly one worker: the one holding its row in ``belot_leases``
(`Storage.claim`).  The owner renews all its leases with a heartbeat every `HEARTBEAT` seconds;
a lease not renewed for `Storage.lease_seconds` has expired, and the next worker to sweep
(`Worker.sweep`, also every heartbeat) or to be asked for the table takes it over, rebuilding it
from the stored record.  Every write of a table checks the lease in its own transaction
(`Storage._fence`), so a worker that lost a table (paused, partitioned) can never add to its
history: an action is acknowledged only once it is stored by the owner, and is then in what the
next owner replays.

Requests reach the owner whichever worker they arrive at: `Forward` passes a request or websocket
for a table owned by another live worker on to that worker's address (``--advertise``).  A proxy in
front (deploy/haproxy.cfg) hashes the table id of the path so that most requests arrive at the
owner directly; correctness does not depend on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
from collections.abc import Callable
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from .errors import body_too_large
from .tables import Lobby

log = logging.getLogger("belot.server")

HEARTBEAT = 1.5  # seconds between lease renewals and sweeps for orphaned tables
TABLE_PATH = re.compile(r"^/api/tables/([^/\x00]{1,32})/")  # no id holds a NUL (PostgreSQL text cannot)
FORWARDED = b"x-belot-forwarded"


class Worker:
    """This process as one worker among several: its id, its address, its heartbeat."""

    def __init__(self, address: str, worker_id: str | None = None) -> None:
        self.id = worker_id or secrets.token_hex(6)
        self.address = address.rstrip("/")
        self._task: asyncio.Task[None] | None = None
        self.beats: list[Callable[[], object]] = []  # called at every heartbeat too (the analyses' `beat`)

    def start(self, lobby: Lobby) -> None:
        lobby.worker = self.id
        lobby.storage.worker = self.id
        lobby.storage.register_worker(self.id, self.address)
        self._task = asyncio.get_running_loop().create_task(self._beat(lobby))

    async def _beat(self, lobby: Lobby) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT)
            for beat in (lambda: self.sweep(lobby), *self.beats):
                try:
                    beat()
                except SQLAlchemyError as e:  # the database is away: the next beat tries again
                    log.warning("worker %s: heartbeat failed: %s", self.id, e)

    def sweep(self, lobby: Lobby) -> None:
        """Renew our leases, let go of the tables we lost, take over the tables nobody owns."""
        held = lobby.storage.renew(self.id)
        for table_id, table in list(lobby.tables.items()):
            if table_id not in held and table.status != "finished":
                log.warning("worker %s: table %s is owned by another worker now", self.id, table_id)
                lobby.drop(table_id)
        n = lobby.restore_all()
        if n:
            log.info("worker %s: took over %d table(s)", self.id, n)

    async def aclose(self, lobby: Lobby) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for table_id in list(lobby.tables):  # hand the tables on at once instead of after the lease
            with contextlib.suppress(SQLAlchemyError):
                lobby.drop(table_id)


class Forward:
    """ASGI middleware: a request or websocket for a table another live worker owns goes there."""

    def __init__(self, app: Any, lobby: Lobby, worker: Worker) -> None:
        self.app, self.lobby, self.worker = app, lobby, worker
        self._http: Any = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            m = TABLE_PATH.match(scope["path"])
            forwarded = any(k == FORWARDED for k, _ in scope.get("headers", ()))
            table_id = m.group(1) if m else None
            if table_id is not None and scope["path"].endswith("/rematch"):
                # A rematch seats the player at the new table: its owner must answer.
                table_id = self.lobby.storage.rematch_of(table_id) or table_id
            if table_id is not None and not forwarded and table_id not in self.lobby.tables:
                owner = self.lobby.storage.owner_of(table_id)
                if owner is not None and owner[0] != self.worker.id:
                    if scope["type"] == "http":
                        await self._http_to(owner[1], scope, receive, send)
                    else:
                        await _websocket_to(owner[1], scope, receive, send)
                    return
        await self.app(scope, receive, send)

    async def _http_to(self, address: str, scope: Any, receive: Any, send: Any) -> None:
        import httpx

        if self._http is None:
            self._http = httpx.AsyncClient(timeout=30)
        # The body is the owner's to refuse, but it is held here first: at most the body limit of
        # the app (`limits.Limits.max_body`), or a client sending gigabytes to a worker that does not
        # own the table had them all held (and copied again at every chunk).
        limit = self.lobby.limits.max_body
        body = bytearray()
        while True:
            msg = await receive()
            if msg["type"] == "http.disconnect":
                return
            body += msg.get("body", b"")
            if len(body) > limit:
                await _error(send, 413, json.dumps(body_too_large(limit).http_json()).encode())
                return
            if not msg.get("more_body"):
                break
        headers = [(k, v) for k, v in scope["headers"] if k not in (b"host", b"content-length")]
        headers.append((FORWARDED, b"1"))
        url = address + scope["path"] + ("?" + scope["query_string"].decode() if scope["query_string"] else "")
        try:
            r = await self._http.request(scope["method"], url, content=bytes(body), headers=headers)
        except httpx.HTTPError:
            await _error(send, 503, b'{"error": {"code": "moved", "message": "the table\'s server is away; retry", '
                                    b'"rule": null, "detail": {}}}')
            return
        out = [(k.encode(), v.encode()) for k, v in r.headers.items()
               if k.lower() not in ("content-length", "transfer-encoding", "connection")]
        await send({"type": "http.response.start", "status": r.status_code, "headers": out})
        await send({"type": "http.response.body", "body": r.content})


async def _error(send: Any, status: int, body: bytes) -> None:
    await send({"type": "http.response.start", "status": status, "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": body})


async def _websocket_to(address: str, scope: Any, receive: Any, send: Any) -> None:
    """Relay a websocket to the owner's; when either side closes, so does the other (1012 when the
    owner went away: the client reconnects, and reaches the table's next owner)."""
    import websockets

    url = "ws" + address.removeprefix("http") + scope["path"]
    if scope["query_string"]:
        url += "?" + scope["query_string"].decode()
    await receive()  # websocket.connect
    try:
        upstream = await websockets.connect(url, additional_headers={FORWARDED.decode(): "1"}, open_timeout=5)
    except (OSError, websockets.WebSocketException, TimeoutError):
        await send({"type": "websocket.close", "code": 1013})
        return
    await send({"type": "websocket.accept"})

    async def down() -> int:
        try:
            async for text in upstream:
                await send({"type": "websocket.send", "text": text if isinstance(text, str) else None,
                            "bytes": text if isinstance(text, bytes) else None})
        except websockets.ConnectionClosed:
            pass
        code = upstream.close_code
        return 1012 if code in (None, 1006, 1011) else code

    async def up() -> None:
        while True:
            msg = await receive()
            if msg["type"] == "websocket.disconnect":
                return
            await upstream.send(msg["text"] if msg.get("text") is not None else msg.get("bytes", b""))

    tasks = [asyncio.ensure_future(down()), asyncio.ensure_future(up())]
    done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    for t in pending:
        t.cancel()
    await upstream.close()
    if tasks[0] in done:
        with contextlib.suppress(Exception):
            await send({"type": "websocket.close", "code": tasks[0].result()})


__all__ = ["HEARTBEAT", "Forward", "Worker"]
