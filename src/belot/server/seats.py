"""Who sits where at a table: the four seats, the secret tokens that hold them, the seats kept for
their players of the last match (a rematch), their connections and the bot that plays a seat
nobody holds (or whose player is away)."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import math
import secrets
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .errors import TableError
from .settings import HUMAN, Settings


def token_hash(token: str) -> str:
    """What is stored of a token: its SHA-256, so the database never holds a seat's secret."""
    return hashlib.sha256(token.encode()).hexdigest()


MAX_UNSENT = 1 << 20  # characters of messages waiting for one socket to take them


@dataclass(eq=False)
class Connection:
    """One websocket: the seat it plays (None for a spectator) and its outgoing queue of JSON texts.

    ``None`` in the queue tells the sender to close the socket (the seat was given up).  A client
    that reads nothing while its messages pile up (``sync`` sent in a loop and never read: a whole
    state held for each 15 bytes, 500 MB in 20 s from one socket) would hold them all in memory:
    past `MAX_UNSENT` waiting, they are dropped, nothing more is queued, the socket is to close, and
    ``on_stall`` (the app: the table forgets the connection) is called soon after.
    """

    seat: int | None
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    unsent: int = 0  # characters in the queue
    stalled: bool = False
    on_stall: Callable[[], None] | None = None

    def put(self, text: str | None) -> None:
        """Queue a message (None: close the socket), unless the client has stopped reading."""
        if self.stalled:
            return
        if text is not None:
            if self.unsent + len(text) > MAX_UNSENT:
                self._stall()
                return
            self.unsent += len(text)
        self.queue.put_nowait(text)

    async def next(self) -> str | None:
        """The next message for the sender to send (None: close the socket)."""
        text = await self.queue.get()
        if text is not None:
            self.unsent -= len(text)
        return text

    def _stall(self) -> None:
        self.stalled = True
        while not self.queue.empty():
            self.queue.get_nowait()
        self.unsent = 0
        self.queue.put_nowait(None)
        if self.on_stall is not None:  # not now: a broadcast may be going through the table's connections
            asyncio.get_running_loop().call_soon(self.on_stall)


@dataclass
class Seat:
    kind: str  # "human" or a bot level
    token_hash: str | None = None
    name: str | None = None
    connections: set[Connection] = field(default_factory=set)
    away: bool = False  # a taken human seat whose player has been gone longer than the grace period
    grace_task: asyncio.Task[None] | None = None
    kept_until: float | None = None  # a rematch keeps the seat for its last player until then (wall clock)

    @property
    def is_human(self) -> bool:
        return self.kind == HUMAN

    @property
    def taken(self) -> bool:
        return not self.is_human or self.token_hash is not None


class Seats:
    """The four seats of one table, and the spectators' connections."""

    def __init__(self, settings: Settings, clock: Callable[[], float] = time.time) -> None:
        self.settings = settings
        self.seats = [Seat(kind) for kind in settings.seats]
        self.spectators: set[Connection] = set()
        self.clock = clock

    def __getitem__(self, s: int) -> Seat:
        return self.seats[s]

    def __iter__(self) -> Iterator[Seat]:
        return iter(self.seats)

    def seat_of(self, token: Any) -> int | None:
        """The seat ``token`` holds, or None (compared in constant time)."""
        if not token or not isinstance(token, str):
            return None
        h = token_hash(token)
        for s, seat in enumerate(self.seats):
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, h):
                return s
        return None

    def kept(self, s: int) -> float:
        """Seconds seat ``s`` is still kept for its player of the last match (0: not kept)."""
        until = self.seats[s].kept_until
        return 0.0 if until is None else max(0.0, until - self.clock())

    def free(self) -> list[int]:
        """The human seats anyone may take now: nobody holds them and none is kept for its player."""
        return [s for s, st in enumerate(self.seats) if st.is_human and st.token_hash is None and not self.kept(s)]

    def choose(self, seat: int | None, keeper: bool = False) -> int:
        """The seat a join asks for (None: the first free human seat); TableError if it cannot be had.
        ``keeper``: the one asking is the player a kept seat is kept for."""
        if seat is None:
            free = self.free()
            if not free:
                kept = [s for s, st in enumerate(self.seats) if st.is_human and st.token_hash is None]
                if kept:
                    raise self._kept(min(kept, key=self.kept), "every free seat of this table is", None)
                raise TableError("table_full", "every human seat of this table is taken", 409)
            seat = free[0]
        st = self.seats[seat]
        if not st.is_human:
            raise TableError("not_human_seat", f"seat {seat} is played by {st.kind}", 409, detail={"seat": seat})
        if st.token_hash is not None:
            raise TableError("seat_taken", f"seat {seat} is taken", 409, detail={"seat": seat})
        if not keeper and self.kept(seat):
            raise self._kept(seat, f"seat {seat} is", seat)
        return seat

    def _kept(self, seat: int, what: str, asked: int | None) -> TableError:
        wait = max(1, math.ceil(self.kept(seat)))
        return TableError("seat_reserved", f"{what} kept for its player of the last match (a rematch) for "
                          f"{wait} more seconds; then anyone may take it", 409,
                          detail={"seat": asked, "retry_after": wait})

    def new_token(self) -> tuple[str, str]:
        """A fresh secret token and its hash."""
        token = secrets.token_urlsafe(24)
        return token, token_hash(token)

    def all_taken_but(self, seat: int) -> bool:
        return all(x.taken for i, x in enumerate(self.seats) if i != seat)

    def bot_playing(self, s: int) -> bool:
        seat = self.seats[s]
        return not seat.is_human or seat.token_hash is None or seat.away

    def bot_name(self, s: int) -> str:
        """The bot that plays seat ``s`` when a bot does: its own, or the table's substitute."""
        seat = self.seats[s]
        return seat.kind if not seat.is_human else self.settings.substitute

    def bots_may_play(self) -> bool:
        """Bots play a table of bots only, or one where someone is: a person who holds a seat and is
        not away (connected, or within the grace period after their last socket or action), or anyone
        watching.  A table every person left, or never came to, waits for one, so its bots cost
        nothing: leaving the one human seat of a table made a table of bots only that
        `Limits.bot_tables` did not count."""
        return all(not seat.is_human for seat in self.seats) or self.watched() or any(
            seat.is_human and seat.token_hash is not None and not seat.away for seat in self.seats)

    def person_waiting(self) -> bool:
        """Someone holds a seat here and is connected: a bot's turn keeps a person waiting."""
        return any(seat.is_human and seat.connections and not seat.away for seat in self.seats)

    def name(self, s: int) -> str | None:
        return self.seats[s].name or self.settings.names[s]

    def players(self) -> list[str]:
        """The players' names by seat, as a record lists them."""
        return [seat.kind if not seat.is_human else self.name(s) or f"seat {s}" for s, seat in enumerate(self.seats)]

    def has_free_human_seat(self) -> bool:
        return any(s.is_human and s.token_hash is None for s in self.seats)

    def watched(self) -> bool:
        return bool(self.spectators) or any(s.connections for s in self.seats)

    def info(self) -> list[dict[str, Any]]:
        out = []
        for s, seat in enumerate(self.seats):
            human = seat.is_human
            out.append({
                "seat": s,
                "kind": HUMAN if human else "bot",
                "bot": None if human else seat.kind,
                "name": self.name(s) if human else seat.kind,
                "taken": seat.taken,
                "reserved": human and seat.token_hash is None and self.kept(s) > 0,
                "connected": bool(seat.connections) if human else True,
                "bot_playing": self.bot_playing(s),
            })
        return out


__all__ = ["Connection", "Seat", "Seats", "token_hash"]
