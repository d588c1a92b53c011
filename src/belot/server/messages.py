"""The ``state`` messages of a table (docs/protocol.md) and their delivery to its connections.

A message is joined from parts that `belot.visibility` builds apart: the public part of the view
(the same for every viewer, encoded once per broadcast, its history once per deal) and each
viewer's own parts (`visibility.own_view`, and `personal`: who you are, the previous deal as you
saw it, the last action as you may see it).  Which field is whose is decided by the function that
builds each part, never by a list of field names here.

A change of presence alone (a socket of a seat opened or closed, a player back) is sent at most
once per `Messages.presence_every` seconds: each one was a whole state to every connection, so one
client opening and closing a socket in a loop had the server send 40 messages for each of its own
to the 20 spectators of its table.  Changes within the interval go out together, as one state
at its end; a state sent for an action carries the presence with it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from ..game import AUCTION
from ..visibility import finished_deal_view, history_json, own_view, seen_action
from .protocol import public_view_json, view_to_json, with_rounding

if TYPE_CHECKING:
    from .seats import Connection
    from .tables import Table


def encode(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def join(*objects: str) -> str:
    """JSON objects (as text) with disjoint keys joined into one object."""
    return "{" + ",".join(o[1:-1] for o in objects if o != "{}") + "}"


class Messages:
    """Builds each viewer's ``state`` message of one table and queues it on its connections."""

    def __init__(self, table: Table, presence_every: float = 0.5) -> None:
        self.table = table
        self.presence_every = presence_every
        self._presence: asyncio.TimerHandle | None = None  # the presence state to send, when one waits
        self._presence_sent = -float("inf")  # when the last presence state went out (event loop time)
        self._fresh: set[Connection] = set()  # sent the state as it is since the last change of presence
        self._history_cache: tuple[int, str] = (-1, "")
        self._previous_cache: dict[tuple[int, int | None], dict[str, Any]] = {}

    def _history(self) -> str:
        """The view's ``history`` as JSON text, encoded once per finished deal (it is in every message)."""
        results = self.table.match.results
        if self._history_cache[0] != len(results):
            self._history_cache = (len(results), encode(history_json(tuple(results))))
        return self._history_cache[1]

    def shared(self, info: dict[str, Any] | None = None) -> dict[str, Any]:
        """The parts of a ``state`` message that are the same for every viewer, but the view."""
        t = self.table
        return {
            "type": "state", "seq": t.seq, "table": info if info is not None else t.info(),
            "deadline": t.turns.seconds_left(),
        }

    def personal(self, seat: int | None) -> dict[str, Any]:
        """The parts of a ``state`` message that depend on the viewer, but the view's own part."""
        return {"you": self._you(seat), "previous_deal": self._previous(seat), "last_action": self._last(seat)}

    def state(self, seat: int | None, info: dict[str, Any] | None = None) -> dict[str, Any]:
        """The ``state`` message for a seat (None: a spectator)."""
        m = self.table.match
        view = view_to_json(m.view(0 if seat is None else seat), seat)
        return {**self.shared(info), "view": view, **self.personal(seat)}

    def encode_states(self, seats: list[int | None], info: dict[str, Any] | None = None) -> dict[int | None, str]:
        """The ``state`` messages of several viewers as JSON text, equal to `state` for each."""
        m = self.table.match
        views = {s: m.view(s) for s in seats if s is not None}
        public = public_view_json(next(iter(views.values()), None) or m.view(0))
        public_text = join(encode(public), '{"history":' + self._history() + "}")
        shared_text = encode(self.shared(info))
        out: dict[int | None, str] = {}
        for seat in seats:
            own = own_view(views[seat] if seat is not None else None)
            view_text = join(public_text, encode(own))
            out[seat] = join(shared_text, '{"view":' + view_text + "}", encode(self.personal(seat)))
        return out

    def encode_state(self, seat: int | None, info: dict[str, Any] | None = None) -> str:
        return self.encode_states([seat], info)[seat]

    def _you(self, seat: int | None) -> dict[str, Any]:
        return {"seat": seat, "name": None if seat is None else self.table.seats.name(seat)}

    def _previous(self, seat: int | None) -> dict[str, Any] | None:
        """The finished previous deal as ``seat`` may see it, while the current deal is in its auction."""
        m = self.table.match
        if len(m.deals) < 2 or m.deals[-1].phase != AUCTION:
            return None
        key = (len(m.deals), seat)  # a finished deal never changes: build it once per seat
        if key in self._previous_cache:
            return self._previous_cache[key]
        if self._previous_cache and next(iter(self._previous_cache))[0] != len(m.deals):
            self._previous_cache.clear()
        prev = with_rounding(finished_deal_view(m, len(m.deals) - 2, seat), m.deals[-2].result)
        self._previous_cache[key] = prev
        return prev

    def _last(self, seat: int | None) -> dict[str, Any] | None:
        last = self.table.last_action
        if last is None:
            return None
        actor, action, bot = last
        return {"seat": actor, "action": seen_action(action, actor, seat), "bot": bot}

    def presence_changed(self) -> None:
        """Who is connected changed: send everyone the state at once if none went out for that reason
        in the last `presence_every` seconds, else once that interval is over (however many changes
        came meanwhile)."""
        self._fresh = set()
        if self._presence is not None:
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, self._presence_sent + self.presence_every - loop.time())
        self._presence = loop.call_later(delay, self._send_presence)

    def sent(self, conn: Connection) -> None:
        """``conn`` was just sent the state as it is (it connected): the presence state that waits
        skips it, unless presence changes again before it goes out."""
        if self._presence is not None:
            self._fresh.add(conn)

    def _send_presence(self) -> None:
        self._presence = None
        self._presence_sent = asyncio.get_running_loop().time()
        self.broadcast(skip=self._fresh)

    def cancel(self) -> None:
        """Send no presence state that waits (a state goes out now, or the table leaves memory)."""
        if self._presence is not None:
            self._presence.cancel()
            self._presence = None
        self._fresh = set()

    def broadcast(self, skip: Collection[Connection] = ()) -> None:
        """Queue the current state for every connection (but those of ``skip``), each with the view it
        may see."""
        self.cancel()  # a presence change waiting to go out goes with this state
        seats = self.table.seats
        targets: list[int | None] = [s for s, seat in enumerate(seats) if any(c not in skip for c in seat.connections)]
        if any(c not in skip for c in seats.spectators):
            targets.append(None)
        if not targets:
            return
        texts = self.encode_states(targets)
        for s, seat in enumerate(seats):
            for c in seat.connections:
                if c not in skip:
                    c.put(texts[s])
        for c in seats.spectators:
            if c not in skip:
                c.put(texts[None])


__all__ = ["Messages", "encode", "join"]
