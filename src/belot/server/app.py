"""The ASGI app of ``belot serve`` (FastAPI): the HTTP routes and the websocket of docs/protocol.md.

Routes only translate between HTTP/websocket and `tables.Lobby` / `tables.Table`; what may be
done is decided there and by the rules core.  The browser UI is served from
``belot/web/static`` (package data), with ``index.html`` for the client-side routes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
from fastapi import FastAPI, Query, Request, WebSocket
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect
from starlette.websockets import WebSocketDisconnect, WebSocketState

from .. import i18n
from ..bots import bot_names
from ..errors import RecordError, shown
from ..record import results
from ..visibility import replay_steps, result_json
from . import limits as limits_mod
from .accounts import Accounts, LoginLimiter, add_routes
from .analysis_jobs import AnalysisJobs
from .botpool import Bots
from .crosssite import RefuseCrossSite
from .errors import TableError, body_too_large
from .gcpauses import keep_gc_pauses_short
from .head import HEAD_SCOPE_KEY, HeadAsGet
from .limits import Limits
from .protocol import rounding_to_json
from .requests import ActionRequest, Body, CreateTable, JoinSeat, LeaveSeat, detail_of, parse
from .seats import Connection
from .settings import FINISHED, configured_abandon_after, default_bot
from .storage import LeaseLost, Storage
from .tables import Lobby, Table
from .workers import Forward, Worker

log = logging.getLogger("belot.server")

STATIC_DIR = Path(__file__).resolve().parent.parent / "web" / "static"
NOT_BUILT = """<!doctype html><html><head><meta charset="utf-8"><title>belot</title></head>
<body><h1>belot serve</h1><p>The browser UI is not built yet (no belot/web/static/index.html).
The API is up: <a href="/api/tables">/api/tables</a>; see docs/protocol.md.</p></body></html>"""


def create_app(
    storage: Storage | str, *, bot_delay: float = 0.5, grace: float = 60.0, static_dir: Path | None = None,
    limits: Limits | None = None, bots: Bots | None = None, analysis_worlds: tuple[int, int] | None = None,
    login_limiter: LoginLimiter | None = None, worker: Worker | None = None, rematch_hold: float = 120.0,
    presence_every: float = 0.5, abandon_after: float | None = None,
) -> FastAPI:
    """The app over ``storage`` (a `Storage` or a SQLAlchemy URL); unfinished tables restore on start.

    ``limits``: what one client may ask (`limits.Limits`; its defaults suit a public server).
    ``bots``: who decides the bots' actions: a `botpool.BotPool` of worker processes (what
    ``belot serve`` uses), or by default `botpool.InlineBots` (threads of this process; tests).
    ``analysis_worlds``: (play, call) worlds per decision of the games' analyses (default:
    `belot.analysis`'s).  ``login_limiter``: failed logins allowed per address and per account
    (`accounts.LoginLimiter`).
    ``worker``: this app is one of several workers on one database server (`workers.Worker`):
    it plays the tables it holds the lease of, and forwards the requests of the others' tables.
    ``rematch_hold``: seconds a rematch keeps the seats of the finished match's players for them.
    ``presence_every``: seconds between two states a table sends for a change of presence alone
    (`messages.Messages.presence_changed`).
    ``abandon_after``: seconds an unfinished table with a human seat stays open with nobody at it
    (default: `settings.configured_abandon_after`: six hours, or the environment's BELOT_ABANDON_AFTER).
    The app closes the storage and the bots when it shuts down.
    """
    limits = limits or Limits()
    store = Storage(storage, checkpoint_every=1.0) if isinstance(storage, str) else storage
    lobby = Lobby(store, bot_delay=bot_delay, grace=grace, bots=bots, limits=limits, rematch_hold=rematch_hold,
                  presence_every=presence_every,
                  abandon_after=configured_abandon_after() if abandon_after is None else abandon_after)
    quota = lobby.quota
    accounts = Accounts(store, login_limiter)
    lobby.on_finished.append(accounts.finished)
    static = static_dir or STATIC_DIR
    play_worlds, call_worlds = analysis_worlds or (None, None)
    analyses = AnalysisJobs(store, lambda table_id: table_or_404(table_id).record(), play_worlds, call_worlds,
                            shared=worker is not None)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        lobby.bots.start()
        if worker is not None:
            worker.beats.append(analyses.beat)
            worker.start(lobby)
        accounts.purge_sessions()
        n = lobby.restore_all()
        if n:
            log.info("restored %d unfinished table(s)", n)
        if analyses.resume():
            log.info("resumed the analyses left queued or running")
        gc_task = asyncio.get_running_loop().create_task(keep_gc_pauses_short())
        sweep_task = asyncio.get_running_loop().create_task(lobby.sweep_every())
        yield
        gc_task.cancel()
        sweep_task.cancel()
        await analyses.aclose()
        if worker is not None:
            await worker.aclose(lobby)
        lobby.close()
        await lobby.bots.aclose()
        store.close()

    app = FastAPI(title="belot", lifespan=lifespan, docs_url="/api/docs", redoc_url=None, openapi_url="/api/openapi.json")
    app.state.lobby = lobby
    app.state.analyses = analyses
    app.state.accounts = accounts
    app.add_middleware(HeadAsGet)  # the innermost: a HEAD forwarded to another worker is answered there
    if worker is not None:
        app.add_middleware(Forward, lobby=lobby, worker=worker)
    app.add_middleware(RefuseCrossSite)  # added last, so it is the outermost: before any forwarding

    @app.exception_handler(TableError)
    async def table_error(_request: Request, e: TableError) -> JSONResponse:
        wait = e.detail.get("retry_after")  # a refusal about waiting says how long, in the standard header too
        headers = {"Retry-After": str(wait)} if isinstance(wait, int) else None
        return JSONResponse(e.http_json(), status_code=e.status, headers=headers)

    @app.exception_handler(LeaseLost)
    async def lease_lost(request: Request, _e: LeaseLost) -> JSONResponse:
        """A seat taken or left at a table another worker took over meanwhile: nothing was stored."""
        table_id = request.path_params.get("table_id")
        if isinstance(table_id, str):
            lobby.drop(table_id)
        return JSONResponse({"error": {"code": "moved", "message": "another server plays this table now; try again",
                                       "rule": None, "detail": {}}}, status_code=503)

    @app.exception_handler(SQLAlchemyError)
    async def storage_error(conn: Request | WebSocket, e: SQLAlchemyError) -> JSONResponse | None:
        """The database failed (away, locked, full): a refusal saying so, not a bare 500.  What the
        request was to store is not stored, and a table changes only once its write is in.  A
        websocket (its table could not be read as it opened) is sent the same refusal as an
        ``error`` message and closed with 1011, after which its client reconnects."""
        log.error("%s %s: the database failed: %s", conn.scope.get("method", "websocket"), conn.url.path,
                  str(e).splitlines()[0])
        if isinstance(conn, WebSocket):
            if conn.application_state == WebSocketState.CONNECTED:
                with contextlib.suppress(Exception):  # its client may be gone already
                    await _refuse(conn, _storage_refusal(), 1011, "the database could not be reached; try again")
            return None
        return JSONResponse(_storage_refusal().http_json(), status_code=503)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, e: StarletteHTTPException) -> Response:
        """No such route or method under /api: the API's error body, like every other refusal."""
        path = request.url.path
        if path != "/api" and not path.startswith("/api/"):
            if e.status_code == 404 and request.method == "GET" and not path.startswith("/static/"):
                return index(404)  # the page says "no such page" in the reader's language, not {"detail": ...}
            return await http_exception_handler(request, e)
        code = {404: "no_route", 405: "bad_method"}.get(e.status_code, "bad_request")
        # Say which path or method was wrong ("Not Found" named neither), and what the route takes.
        message, headers = str(e.detail), e.headers
        if e.status_code == 404:
            message = f"there is no API route {shown(path)} (docs/protocol.md lists them)"
        elif e.status_code == 405:
            # Every route of the path (GET and POST /api/tables are two), not only the first one's;
            # a path that takes GET takes HEAD too (`head.HeadAsGet`)
            methods = {m for r in app.routes if isinstance(r, APIRoute) and r.path_regex.match(path)
                       for m in r.methods or ()}
            allowed = ", ".join(sorted(methods | ({"HEAD"} if "GET" in methods else set())))
            if methods:
                headers = {k: v for k, v in (e.headers or {}).items() if k.lower() != "allow"} | {"Allow": allowed}
            method = "HEAD" if request.scope.get(HEAD_SCOPE_KEY) else request.method
            message = f"{shown(method)} is not a method of {shown(path)}" + (f"; it takes {allowed}" if allowed else "")
        return JSONResponse({"error": {"code": code, "message": message, "rule": None, "detail": {}}},
                            status_code=e.status_code, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, e: RequestValidationError) -> JSONResponse:
        first = e.errors()[0] if e.errors() else {}
        where = ".".join(str(x) for x in first.get("loc", ()))
        message = f"{where}: {first.get('msg', 'invalid request')}"
        return JSONResponse({"error": {"code": "bad_request", "message": message, "rule": None,
                                       "detail": detail_of(e) if e.errors() else {"field": None, "reason": "invalid"}}},
                            status_code=400)

    def table_or_404(table_id: str) -> Table:
        table = lobby.get(table_id)
        if table is None:
            raise TableError("no_table", f"there is no table {table_id!r}", 404)
        return table

    async def body_of(request: Request) -> Any:
        """The decoded JSON body (an empty body is ``{}``); its fields are checked by `requests.parse`.

        The size is checked before the body is read: by its Content-Length, then while it streams in
        (a chunked body has none), so a huge body costs the server nothing but the refusal.
        """
        too_large = body_too_large(limits.max_body)
        declared = request.headers.get("content-length")
        if declared is not None and (not (declared.isascii() and declared.isdigit()) or int(declared) > limits.max_body):
            raise too_large
        chunks, size = [], 0
        try:
            async for chunk in request.stream():
                size += len(chunk)
                if size > limits.max_body:
                    raise too_large
                chunks.append(chunk)
        except ClientDisconnect:  # gone before its body was whole: a refusal nobody reads, not a traceback
            raise TableError("bad_request", "the client went away before its request body was whole", 400) from None
        raw = b"".join(chunks)
        if not raw.strip():
            return {}
        return limits_mod.loads(raw, "the request body", invalid="bad_request")

    # -- pages --------------------------------------------------------------------------------

    def index(status: int = 200) -> Response:
        page = static / "index.html"
        if page.is_file():
            return FileResponse(page, status_code=status, media_type="text/html")
        return HTMLResponse(NOT_BUILT, status_code=status)

    @app.get("/", include_in_schema=False)
    async def root() -> Response:
        return index()

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> Response:
        return index()

    @app.get("/replay/{table_id}", include_in_schema=False)
    async def replay_page(table_id: str) -> Response:
        return index()

    @app.get("/u/{name}", include_in_schema=False)
    async def profile_page(name: str) -> Response:
        return index()

    @app.get("/leaderboard", include_in_schema=False)
    async def leaderboard_page() -> Response:
        return index()

    @app.get("/account", include_in_schema=False)
    async def account_page() -> Response:
        return index()

    app.mount("/static", _LenientStaticFiles(directory=static, check_dir=False), name="static")

    # -- API ----------------------------------------------------------------------------------

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        return {"ok": True}

    @app.get("/api/i18n/{lang}")
    async def catalog(lang: str) -> dict[str, str]:
        if lang not in i18n.LANGUAGES:
            raise TableError("no_language", f"unknown language {lang!r}; choose one of {', '.join(i18n.LANGUAGES)}", 404)
        return i18n.catalog(lang)

    @app.get("/api/bots")
    async def bot_levels() -> dict[str, Any]:
        return {"bots": [f"bot:{n}" for n in bot_names()], "default": default_bot()}

    @app.post("/api/tables", status_code=201, openapi_extra=_body(CreateTable))
    async def create_table(request: Request) -> dict[str, Any]:
        body = parse(CreateTable, await body_of(request))
        account = accounts.current(request)
        accounts.check_preset_names(body.names or [], body.seat if account is not None else None)
        if body.seat is not None:
            body.name = accounts.seat_name(account, body.name)
        table, seat, token = lobby.create(body, address_of(request))
        if seat is not None:
            accounts.link(table.id, seat, account)
        out: dict[str, Any] = {"table": table.info()}
        if token is not None:
            out.update(seat=seat, token=token)
        return out

    @app.get("/api/tables")
    async def list_tables(
        all: bool = False, limit: int = Query(limits.page_size, ge=1, le=limits.page_size), before: str | None = None,
    ) -> dict[str, Any]:
        """The open tables (a human seat free), newest first, a page at a time: ``next`` is the
        ``before`` of the next page (null on the last)."""
        if all:
            found = [lobby.peek(i) for i in lobby.storage.recent_ids(limit)]
            return {"tables": [t.info() for t in found if t is not None], "next": None}
        page, after = lobby.open_page(limit, _cursor(before))
        return {"tables": [t.info() for t in page], "next": None if after is None else f"{after[0]!r}:{after[1]}"}

    @app.get("/api/tables/{table_id}")
    async def get_table(table_id: str) -> dict[str, Any]:
        return {"table": table_or_404(table_id).info()}

    @app.post("/api/tables/{table_id}/join", openapi_extra=_body(JoinSeat))
    async def join(table_id: str, request: Request) -> dict[str, Any]:
        table = table_or_404(table_id)
        body = parse(JoinSeat, await body_of(request))
        account = accounts.current(request)
        seat, token = table.join(body.seat, accounts.seat_name(account, body.name))
        accounts.link(table.id, seat, account)
        return {"table": table.info(), "seat": seat, "token": token}

    @app.post("/api/tables/{table_id}/leave", openapi_extra=_body(LeaveSeat))
    async def leave(table_id: str, request: Request) -> dict[str, Any]:
        table = table_or_404(table_id)
        body = parse(LeaveSeat, await body_of(request))
        seat = table.seat_of(body.token)
        table.leave(body.token)
        if seat is not None:
            accounts.unlink(table.id, seat)
        return {"table": table.info()}

    @app.get("/api/tables/{table_id}/state")
    async def state(table_id: str, token: str | None = None) -> dict[str, Any]:
        table = table_or_404(table_id)
        seat = None
        if token is not None:
            seat = table.seat_of(token)
            if seat is None:
                raise TableError("bad_token", "this token holds no seat of this table", 403)
            table.alive(seat)
        return table.state(seat)

    @app.post("/api/tables/{table_id}/action", openapi_extra=_body(ActionRequest))
    async def action(table_id: str, request: Request) -> dict[str, Any]:
        table = table_or_404(table_id)
        body = parse(ActionRequest, await body_of(request), "bad_message")
        seat = table.seat_of(body.token)
        if seat is None:
            raise TableError("bad_token", "this token holds no seat of this table", 403)
        table.submit(seat, body.action, body.seq)
        return table.state(seat)

    @app.get("/api/tables/{table_id}/record")
    async def get_record(table_id: str) -> dict[str, Any]:
        return table_or_404(table_id).record()

    # A long match's replay takes most of a second to build (10,000 points: 200 deals, 10 MB of
    # positions): built on the event loop, it held up every table and request meanwhile, and a client
    # asking for it again and again stalled the server.  It is built and encoded in a thread, two at once.
    replay_threads = anyio.CapacityLimiter(2)

    @app.get("/api/tables/{table_id}/replay")
    async def get_replay(table_id: str) -> Response:
        table = table_or_404(table_id)
        table.record()  # 409 in_progress before the end: the replay holds every hand
        body = await anyio.to_thread.run_sync(_replay_json, table, limiter=replay_threads)
        return Response(body, media_type="application/json")

    # Issue 22: the analysis of a finished game, computed once in the background (analysis_jobs).

    def finished_or_409(table_id: str) -> Table:
        table = table_or_404(table_id)
        if table.status != FINISHED:
            raise TableError("not_finished", "only a finished game can be analysed", 409)
        return table

    @app.post("/api/tables/{table_id}/analysis")
    async def start_analysis(table_id: str, request: Request) -> dict[str, Any]:
        finished_or_409(table_id)
        return analyses.start(table_id, limits.queued_analyses, address_of(request),
                              limits.analyses_per_address).to_json()

    @app.get("/api/tables/{table_id}/analysis")
    async def get_analysis(table_id: str) -> dict[str, Any]:
        finished_or_409(table_id)
        job = analyses.get(table_id)
        if job is None:
            return {"status": "none", "progress": None, "result": None, "error": None}
        return job.to_json()

    add_routes(app, lobby, accounts, body_of, address_of)

    # -- websocket ----------------------------------------------------------------------------

    @app.websocket("/api/tables/{table_id}/ws")
    async def socket(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        address = websocket.client.host if websocket.client else ""
        try:
            quota.open_socket(address)
        except TableError as e:
            await _refuse(websocket, e, 4029, e.message)
            return
        try:
            await play(websocket, table_id)
        finally:
            quota.close_socket(address)

    async def play(websocket: WebSocket, table_id: str) -> None:
        table = lobby.get(table_id)
        if table is None:
            await _refuse(websocket, TableError("no_table", f"there is no table {table_id!r}", 404), 4004)
            return
        token = websocket.query_params.get("token")
        seat = None
        if token is not None:  # "?token=" holds no seat, as over HTTP (it was taken for a spectator)
            seat = table.seat_of(token)
            if seat is None:
                await _refuse(websocket, TableError("bad_token", "this token holds no seat of this table", 403), 4001)
                return
            try:
                table.check_open()
            except TableError as e:  # closed as abandoned: the seat is refused by name, and the player
                await websocket.send_text(json.dumps(e.to_json()))  # sees the table as it was left
                seat = None
        conn = Connection(seat)
        # A client that stopped reading leaves the table at once; its socket holds its place in the
        # limits until it goes (it reads nothing, so it cannot be told).
        conn.on_stall = lambda: table.disconnect(conn)
        sender = asyncio.create_task(_send_loop(websocket, conn))
        table.connect(conn)
        try:
            while True:
                msg = await websocket.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                if conn.stalled:
                    continue
                try:
                    reply = table.handle_text(conn, msg.get("text"))
                except SQLAlchemyError as e:  # not stored, so not done (`Table.commit`): the socket stays open
                    log.error("table %s: the database failed on a message: %s", table.id, str(e).splitlines()[0])
                    reply = _storage_refusal().to_json(table.seq)
                if reply is not None:
                    conn.put(json.dumps(reply, ensure_ascii=False))
        except WebSocketDisconnect:
            pass
        finally:
            try:
                if not conn.stalled:
                    table.disconnect(conn)
            except SQLAlchemyError as e:  # the table let the socket go before it wrote (a worker's lease)
                log.error("table %s: the database failed as a socket closed: %s", table.id, str(e).splitlines()[0])
            finally:
                conn.put(None)
                with contextlib.suppress(Exception):
                    await sender

    return app


def _replay_json(table: Table) -> bytes:
    """The ``replay`` answer of a finished table, encoded (docs/protocol.md)."""
    doc = table.record()
    try:
        res = results(table.match)
    except RecordError as e:  # cannot happen for a match the server played; never a 500 if it does
        raise TableError("in_progress", str(e)) from None
    for item, r in zip(res["deals"], table.match.results):
        # the summary's declarations (each with whether it counted, R7.6) and R10 row, as in play:
        # the live summary's own function, under the table's rules
        live = result_json(r, table.match.rules)
        item["declared"], item["declared_detail"] = live["declared"], live["declared_detail"]
        rounding = rounding_to_json(r)
        if rounding is not None:
            item["rounding"] = rounding
    out = {"table": table.info(), "record": doc, "results": res, "steps": replay_steps(table.match)}
    return json.dumps(out, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


class _LenientStaticFiles(StaticFiles):
    """Static files whose folder may not exist yet (the UI is built separately): 404, not a crash."""

    async def check_config(self) -> None:
        return None


def _storage_refusal() -> TableError:
    """What a request or a websocket message the database failed on is answered (`storage_error`)."""
    return TableError("storage_error", "the database could not be reached or could not store this; try again", 503)


async def _refuse(websocket: WebSocket, error: TableError, code: int, reason: str | None = None) -> None:
    await websocket.send_text(json.dumps(error.to_json()))
    await websocket.close(code, reason[:120] if reason else None)  # a close reason has at most 123 bytes


def _body(model: type[Body]) -> dict[str, Any]:
    """The OpenAPI request body of a route that reads its body itself (`body_of`, then `requests.parse`)."""
    return {"requestBody": {"required": False, "content": {"application/json": {"schema": model.model_json_schema()}}}}


def address_of(request: Request) -> str:
    """The client's address, as far as the server can tell (the proxy's, behind a reverse proxy)."""
    return request.client.host if request.client else ""


def _cursor(before: str | None) -> tuple[float, str] | None:
    """The ``before`` of a lobby page (``created:id`` as the previous page's ``next`` gave it)."""
    if before is None:
        return None
    created, _, table_id = before.partition(":")
    try:
        when = float(created)
    except ValueError:
        when = math.nan
    if not math.isfinite(when) or not table_id or len(table_id) > 32 or "\x00" in table_id:
        raise TableError("bad_request", "before: not a cursor of this lobby (use the previous page's next)", 400,
                         detail={"field": "query.before", "reason": "invalid"})
    return when, table_id


async def _send_loop(websocket: WebSocket, conn: Connection) -> None:
    """Send the connection's queued messages in order; ``None`` closes the socket."""
    try:
        while True:
            text = await conn.next()
            if text is None:
                if websocket.application_state == WebSocketState.CONNECTED:
                    if conn.stalled:
                        await websocket.close(1008, "the client read none of its messages")
                    else:
                        await websocket.close(4001)
                return
            await websocket.send_text(text)
    except Exception:  # the client went away; the receive side notices and cleans up
        return


__all__ = ["STATIC_DIR", "create_app"]
