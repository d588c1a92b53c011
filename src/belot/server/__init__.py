"""The game server behind ``belot serve``: tables over HTTP and websockets, stored in a database.

Modules: `protocol` (the JSON wire format of docs/protocol.md), `storage` (the database behind one
small interface), `tables` (live tables: the match, seats, bots, timers, broadcasting) and `app`
(the ASGI routes).  The server holds no rules of its own: every action goes through
`belot.game.Match.apply`, and a table's state is its record.
"""

from __future__ import annotations

from typing import Any


def create_app(*args: Any, **kwargs: Any) -> Any:
    """`belot.server.app.create_app`, imported on first use (FastAPI is heavy)."""
    from .app import create_app as make

    return make(*args, **kwargs)


__all__ = ["create_app"]
