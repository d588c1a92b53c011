"""``belot serve``: the game server (HTTP API, websockets, the browser UI) over a database."""

from __future__ import annotations

import argparse
import sys


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value <= 86400:
        raise argparse.ArgumentTypeError(f"{text} is not between 0 and 86400 seconds")
    return value


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a port number 0-65535")
    return value


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("serve", help="run the game server: play in the browser with friends and bots")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=_port, default=8000, help="port (default 8000; 0 picks a free one)")
    p.add_argument(
        "--db", default=None,
        help="SQLite file, or a SQLAlchemy URL (default: belot.sqlite3 in the user data directory)",
    )
    p.add_argument("--grace", type=_seconds, default=60.0,
                   help="seconds a disconnected player keeps the seat before a bot plays it (default 60)")
    p.add_argument("--bot-delay", type=_seconds, default=0.5,
                   help="seconds a bot waits before acting (default 0.5)")
    p.add_argument("--log-level", default="warning", choices=["critical", "error", "warning", "info", "debug"])
    p.set_defaults(func=run)


def default_db() -> str:
    from pathlib import Path

    from platformdirs import user_data_dir

    return str(Path(user_data_dir("belot")) / "belot.sqlite3")


def run(args: argparse.Namespace) -> int:
    import logging
    import os
    import socket

    db = args.db or default_db()
    url = db if "://" in db else None
    if url is None:
        folder = os.path.dirname(os.path.abspath(db))
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as e:
            print(f"belot serve: cannot create the database folder {folder}: {e.strerror}", file=sys.stderr)
            return 2
        url = f"sqlite:///{os.path.abspath(db)}"

    import uvicorn
    from sqlalchemy.exc import SQLAlchemyError

    from ..server.app import create_app
    from ..server.storage import Storage, StorageError

    try:
        storage = Storage(url, checkpoint_every=1.0)
    except (SQLAlchemyError, StorageError) as e:
        print(f"belot serve: cannot open the database {db}: {str(e).splitlines()[0]}", file=sys.stderr)
        return 2

    # Bind here, so that a taken port is one clear line and --port 0 can print the port it got.
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
    except OSError as e:
        print(f"belot serve: cannot listen on {args.host}:{args.port}: {e.strerror}", file=sys.stderr)
        sock.close()
        return 2
    sock.listen(2048)
    port = sock.getsockname()[1]
    host = f"[{args.host}]" if family == socket.AF_INET6 else args.host

    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(name)s %(levelname)s %(message)s")
    app = create_app(storage, bot_delay=args.bot_delay, grace=args.grace)
    # A client message is a small JSON object: 64 KiB is plenty and bounds what one socket can send.
    config = uvicorn.Config(app, log_level=args.log_level, ws_ping_interval=20, ws_ping_timeout=20, ws_max_size=65536)
    server = uvicorn.Server(config)
    print(f"belot serve: http://{host}:{port}/  (database {db})", flush=True)
    server.run(sockets=[sock])
    return 0
