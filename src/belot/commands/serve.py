"""``belot serve``: the game server (HTTP API, websockets, the browser UI) over a database."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from ..server.limits import Limits
from ._argtypes import count, jobs, seconds, whole, worker_processes
from ._fail import cannot, fail

if TYPE_CHECKING:
    import logging

PROG = "belot serve"

_seconds = seconds(86400)
_port = whole(0, 65535, "a port number")


def _bots(text: str) -> str:
    if text not in ("local", "ray") and not text.startswith("ray="):
        raise argparse.ArgumentTypeError(f"{text!r}: choose local, ray or ray=HOST:PORT")
    return text


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("serve", help="run the game server: play in the browser with friends and bots")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=_port, default=8000, help="port (default 8000; 0 picks a free one)")
    p.add_argument(
        "--db", default=None,
        help="SQLite file, or a database URL such as postgresql://user@host/db "
             "(default: belot.sqlite3 in the user data directory)",
    )
    p.add_argument("--worker", action="store_true",
                   help="one of several servers on one database server (--db postgresql://...): each table "
                        "is played by one worker, which others forward its requests to (docs/deploy.md)")
    p.add_argument("--advertise", default=None, metavar="URL",
                   help="with --worker: where the other workers reach this one (default http://HOST:PORT)")
    p.add_argument("--grace", type=_seconds, default=60.0,
                   help="seconds a disconnected player keeps the seat before a bot plays it (default 60)")
    p.add_argument("--rematch-hold", type=_seconds, default=120.0, metavar="SECONDS",
                   help="seconds a rematch keeps each seat for its player of the finished match (default 120)")
    p.add_argument("--abandon-after", type=seconds(366 * 86400, positive=True), default=None, metavar="SECONDS",
                   help="seconds an unfinished table nobody is at stays open before it is closed as abandoned, "
                        "its record kept (default 21600, six hours, or the environment's BELOT_ABANDON_AFTER)")
    p.add_argument("--bot-delay", type=_seconds, default=0.5,
                   help="seconds a bot seat takes at least to act, its thinking included, so a forced "
                        "card comes no sooner than a chosen one (default 0.5)")
    p.add_argument("--bots", type=_bots, default="local", metavar="local|ray[=ADDRESS]",
                   help="where bots decide: processes of this server (local, the default), or tasks on a Ray "
                        "cluster (ray: this machine's; ray=HOST:PORT: its head); with no cluster, local")
    p.add_argument("--bot-workers", type=jobs, default=None, metavar="N",
                   help="processes that decide the bots' actions (default: one per core but one; at most one per core)")
    p.add_argument("--bot-budget", type=_seconds, default=2.5, metavar="SECONDS",
                   help="longest a bot may take, its wait for a bot process included; then a quick bot decides instead (default 2.5)")
    limits = p.add_argument_group("limits", "what one client may ask; over a limit: HTTP 413/429 or a "
                                  "websocket close with the reason (docs/protocol.md)")
    limits.add_argument("--max-body", type=count, default=Limits.max_body, metavar="BYTES",
                        help=f"largest HTTP request body (default {Limits.max_body})")
    limits.add_argument("--ws-per-address", type=count, default=Limits.ws_per_address, metavar="N",
                        help=f"open websockets of one client address (default {Limits.ws_per_address})")
    limits.add_argument("--ws-total", type=count, default=Limits.ws_total, metavar="N",
                        help=f"open websockets of the whole server (default {Limits.ws_total})")
    limits.add_argument("--tables-per-minute", type=count, default=Limits.tables_per_minute, metavar="N",
                        help=f"tables one address may create in a minute (default {Limits.tables_per_minute})")
    limits.add_argument("--waiting-per-address", type=count, default=Limits.waiting_per_address, metavar="N",
                        help="tables of one address waiting for players at once "
                             f"(default {Limits.waiting_per_address})")
    limits.add_argument("--max-bot-tables", type=count, default=Limits.bot_tables, metavar="N",
                        help=f"tables of bots only playing at once, server-wide (default {Limits.bot_tables})")
    limits.add_argument("--request-time", type=seconds(3600, positive=True), default=10.0, metavar="SECONDS",
                        help="seconds a connection has to send a whole request, head and body, before it is "
                             "closed (slow clients hold no connection for ever; default 10)")
    limits.add_argument("--analyses-per-address", type=count, default=Limits.analyses_per_address, metavar="N",
                        help="analyses of finished games one address may have waiting or running at once "
                             f"(default {Limits.analyses_per_address})")
    p.add_argument("--log-level", default="warning", choices=["critical", "error", "warning", "info", "debug"],
                   help="the server's log: warning (the default) says only what went wrong; info adds every request")
    p.set_defaults(func=run)


def default_db() -> str:
    from pathlib import Path

    from platformdirs import user_data_dir

    return str(Path(user_data_dir("belot")) / "belot.sqlite3")


def run(args: argparse.Namespace) -> int:
    import logging
    import os
    import socket

    # an empty value (an unset variable: --host "$HOST") is not taken for the default: an empty host
    # is every interface to the socket, and an empty --db would open the user's own database
    for option, value in (("--host", args.host), ("--db", args.db), ("--advertise", args.advertise)):
        if value == "":
            return fail(PROG, f"{option} is empty" + (" (every interface is 0.0.0.0 or ::)"
                                                               if option == "--host" else ""))
    if args.advertise is not None:
        if not args.worker:
            return fail(PROG, "--advertise is where the other workers reach this one: it needs --worker")
        from urllib.parse import urlsplit

        parts = urlsplit(args.advertise)
        try:
            parts.port  # noqa: B018 (raises ValueError on a port that is not one)
            good = parts.scheme in ("http", "https") and bool(parts.hostname)
        except ValueError:
            good = False
        if not good:
            return fail(PROG, f"--advertise: {args.advertise} is not an http:// or https:// address"
                              " (such as http://10.0.0.5:8000)")
    if args.abandon_after is None:  # the environment's, checked before anything starts
        from ..server.settings import configured_abandon_after

        try:
            args.abandon_after = configured_abandon_after()
        except ValueError as e:
            return fail(PROG, str(e))
    db = default_db() if args.db is None else args.db
    url = db if "://" in db else None
    kind = None if url is None else url.split("://", 1)[0].split("+", 1)[0].lower()
    if kind not in (None, "sqlite", "postgresql", "postgres"):  # MySQL's SQL differs; never tested
        return fail(PROG, f"--db: {kind}:// is not a database belot stores games in: "
                          "a SQLite file (a path or sqlite:///PATH) or postgresql://user@host/db")
    if url is None:
        url = f"sqlite:///{os.path.abspath(db)}"
    sqlite_file = _sqlite_path(url)
    if sqlite_file is not None:  # its folder is created, a path's or a sqlite:/// URL's alike (the
        # URL's was not, and the lock beside the file failed with "No such file or directory")
        folder = os.path.dirname(os.path.abspath(sqlite_file))
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as e:
            return fail(PROG, cannot("create the database folder", folder, e))

    import uvicorn
    from sqlalchemy.exc import SQLAlchemyError
    from uvicorn.protocols.http.auto import AutoHTTPProtocol
    from uvicorn.protocols.websockets.auto import AutoWebSocketsProtocol

    from ..server.app import create_app
    from ..server.botpool import QUICK_BOTS, BotPool, Bots
    from ..server.limits import guarded_http, guarded_websockets
    from ..server.owner import DatabaseOwned, Owner
    from ..server.storage import Storage, StorageError, is_server_url
    from ..server.workers import Worker

    if args.worker and not is_server_url(url):
        print("belot serve: --worker needs a database server several workers share (--db postgresql://...); "
              "a SQLite file has one server", file=sys.stderr)
        return 2

    # One server process per database file, taken before anything is read: two servers on one
    # file both restored and played the same tables. Several servers on one database server take
    # --worker instead: a lease per table (server/workers.py).
    owner = None
    if sqlite_file is not None:
        try:
            owner = Owner(sqlite_file).acquire()
        except DatabaseOwned as e:
            return fail(PROG, str(e), 3)
        except OSError as e:
            return fail(PROG, cannot("lock the database", db, e))
    try:
        storage = Storage(url, checkpoint_every=1.0)
    except (SQLAlchemyError, StorageError) as e:
        return fail(PROG, f"cannot open the database {db}: {str(e).splitlines()[0]}")
    except ImportError as e:  # the URL's driver (psycopg for PostgreSQL) is not installed
        return fail(PROG, f"cannot open the database {db}: {e} (for PostgreSQL: pip install 'belot[postgres]')")

    # Bind here, so that a taken port is one clear line and --port 0 can print the port it got.
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
    except OSError as e:
        sock.close()
        return fail(PROG, cannot("listen on", f"{args.host}:{args.port}", e))
    sock.listen(2048)
    port = sock.getsockname()[1]
    host = f"[{args.host}]" if family == socket.AF_INET6 else args.host

    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(name)s %(levelname)s %(message)s")
    limits = Limits(
        max_body=args.max_body, ws_per_address=args.ws_per_address, ws_total=args.ws_total,
        tables_per_minute=args.tables_per_minute, waiting_per_address=args.waiting_per_address,
        bot_tables=args.max_bot_tables, analyses_per_address=args.analyses_per_address,
    )
    workers = args.bot_workers and worker_processes(PROG, args.bot_workers, "--bot-workers")
    bots: Bots = BotPool(workers, budget=args.bot_budget, inline=QUICK_BOTS)
    if args.bots.split("=", 1)[0] == "ray":
        from ..server.raybots import RayBots, RayUnavailable, connect

        try:
            connect(args.bots.partition("=")[2] or None)
            bots = RayBots(budget=args.bot_budget, inline=QUICK_BOTS)
            print("belot serve: bots decide on Ray", file=sys.stderr, flush=True)
        except RayUnavailable as e:
            print(f"belot serve: {e}; bots decide in local processes", file=sys.stderr, flush=True)

    worker = None
    if args.worker:
        worker = Worker(args.advertise or f"http://{host}:{port}")
    app = create_app(storage, bot_delay=args.bot_delay, grace=args.grace, limits=limits, bots=bots, worker=worker,
                     rematch_hold=args.rematch_hold, abandon_after=args.abandon_after)
    _raise_open_files(limits.ws_total + 1024)
    # A client message is a small JSON object: 64 KiB is plenty and bounds what one socket can send.
    # Past limit_concurrency uvicorn answers 503 at once, where running out of file descriptors
    # gave every new connection an empty reply; websockets beyond ws_total are closed by the app.
    # Connections per address: its websockets and as many HTTP connections again.
    http = guarded_http(AutoHTTPProtocol, per_address=2 * limits.ws_per_address, idle=args.request_time)
    config = uvicorn.Config(app, log_level=args.log_level, ws_ping_interval=20, ws_ping_timeout=20,
                            ws_max_size=65536, limit_concurrency=limits.ws_total + 512, timeout_keep_alive=5,
                            http=http, ws=guarded_websockets(AutoWebSocketsProtocol) or "auto",
                            # A client's X-Forwarded-For is trusted only from the proxies named in uvicorn's
                            # FORWARDED_ALLOW_IPS: uvicorn trusted 127.0.0.1 by default, so behind a proxy on
                            # the same host that does not set the header itself, any client named any address
                            # and every per-address limit was its own.
                            forwarded_allow_ips=os.environ.get("FORWARDED_ALLOW_IPS") or [])
    for name in ("uvicorn.access", "uvicorn.error"):  # after the Config, which sets up uvicorn's logging
        logging.getLogger(name).addFilter(_hide_tokens)
    server = uvicorn.Server(config)
    role = f", worker {worker.id}" if worker is not None else ""
    print(f"belot serve: http://{host}:{port}/  (database {_shown(db)}{role})", flush=True)
    try:
        server.run(sockets=[sock])
    finally:
        bots.close(wait=True)
        if owner is not None:
            owner.release()
    return 0


def _hide_tokens(record: logging.LogRecord) -> bool:
    """A logged request (``--log-level info``) without the seat's token of its query string: the log
    held ``/ws?token=...`` and ``/state?token=...``, and whoever read it could play that seat."""
    import re

    if isinstance(record.args, tuple):
        record.args = tuple(re.sub(r"(?<=[?&]token=)[^&\s\"]+", "...", a) if isinstance(a, str) else a
                            for a in record.args)
    return True


def _shown(db: str) -> str:
    """The database as printed: a URL without its password."""
    if "://" not in db or "@" not in db:
        return db
    scheme, rest = db.split("://", 1)
    credentials, at = rest.rsplit("@", 1)
    return f"{scheme}://{credentials.split(':', 1)[0]}@{at}"


def _sqlite_path(url: str) -> str | None:
    """The file of a SQLite URL (None: in memory, or not SQLite)."""
    if not url.startswith("sqlite:///"):
        return None
    path = url.removeprefix("sqlite:///").split("?", 1)[0]
    return None if path in ("", ":memory:") else path


def _raise_open_files(wanted: int) -> None:
    """Allow the process as many open files as its connections need (up to the hard limit)."""
    try:
        import resource
    except ImportError:  # not on this platform
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
