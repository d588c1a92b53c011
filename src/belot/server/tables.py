"""Live tables: each table's match, put together from pieces of one job each, and the lobby.

A `Table` is a thin layer over `belot.game.Match`: it checks *who* may act (the token of the seat
to move, `seats.Seats`), lets the rules core decide *what* may be done (`Match.apply`, through
`gamelog.GameLog.advance`), stores every accepted action before telling anyone
(`GameLog.append`), then sends each connection the view it is entitled to (`messages.Messages`,
projected by `belot.visibility`); `turns.Turns` lets bots move and runs the timers.  Every change
of state happens in plain synchronous code between two awaits, so on the single event loop no two
changes interleave and no lock is needed.

An unfinished table with a human seat that nobody is at (no socket of a player or a spectator, no
request with a seat's token) for `Lobby.abandon_after` seconds is closed as abandoned
(`Lobby.sweep`): stored so, with every action it had, it leaves memory and the lobby, is not
replayed at a start, and its record reads as a finished one's; a seat's token is refused there.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Collection
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from .. import record as belot_record
from ..errors import RuleError, shown
from ..game import Match
from ..record import action_of
from . import limits
from .botpool import Bots, InlineBots
from .errors import TableError
from .gamelog import GameLog, deal_row, new_match, replay_stored
from .limits import Limits, Quota
from .messages import Messages
from .names import clean_stored_name
from .protocol import ProtocolError, action_from_json, action_to_json
from .requests import CreateTable
from .seats import Connection, Seats
from .settings import (
    ABANDON_AFTER,
    ABANDONED,
    ENDED,
    FINISHED,
    HUMAN,
    PLAYING,
    UNFINISHED,
    WAITING,
    Settings,
    default_bot,
)
from .storage import LeaseLost, Storage, StoredTable
from .turns import Turns

log = logging.getLogger("belot.server")

FINISHED_KEPT = 64  # finished tables kept in memory after a read (at most about 1 MB each: 10,000 points)


class Table:
    """One table: the live match and the pieces that seat, store, schedule and tell."""

    def __init__(
        self, lobby: Lobby, table_id: str, seed: int, settings: Settings, match: Match,
        created: float, status: str,
    ) -> None:
        self.lobby = lobby
        self.id = table_id
        self.seed = seed
        self.settings = settings
        self.match = match
        self.created = created
        self.status = status
        self.seq = 0  # actions applied in the whole match
        self.last_action: tuple[int, int, bool] | None = None  # (seat, action, by a bot)
        self.seats = Seats(settings, lobby.clock)
        self.log = GameLog(lobby.storage, table_id, seed)
        self.turns = Turns(self, lobby.bot_delay, lobby.grace)
        self.messages = Messages(self, lobby.presence_every)
        # When a person was last known here (wall clock, `Lobby.clock`); None while one is (a socket
        # is open), and for a table of bots only, which is never abandoned: it plays to its end.
        self.expires = HUMAN in settings.seats
        self.seen: float | None = created if self.expires else None

    # -- what the routes ask -------------------------------------------------------------------------

    def seat_of(self, token: Any) -> int | None:
        return self.seats.seat_of(token)

    def info(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "status": self.status,
            "target": self.settings.target,
            "turn_timer": self.settings.turn_timer,
            "substitute": self.settings.substitute,
            "options": list(self.match.rules.options),
            "created": self.created,
            "seats": self.seats.info(),
            "score": list(self.match.score),
            "winner": self.match.winner,
            "seq": self.seq,
            "links": {"table": f"/t/{self.id}", "replay": f"/replay/{self.id}"},
        }

    def state(self, seat: int | None, info: dict[str, Any] | None = None) -> dict[str, Any]:
        """The ``state`` message for a seat (None: a spectator)."""
        return self.messages.state(seat, info)

    def encode_state(self, seat: int | None, info: dict[str, Any] | None = None) -> str:
        """The ``state`` message of one seat (None: a spectator) as JSON text."""
        return self.messages.encode_state(seat, info)

    def record(self) -> dict[str, Any]:
        if not self.match.is_over and self.status != ABANDONED:
            raise TableError(
                "in_progress", "the match is not finished; its record, which holds every hand, is published when it ends"
            )
        return belot_record.to_json(self.match, self.seats.players())

    def schedule(self) -> None:
        self.turns.schedule()

    # -- connections ---------------------------------------------------------------------------------

    def connect(self, conn: Connection) -> None:
        self._attended()
        if conn.seat is None:
            self.seats.spectators.add(conn)
            conn.put(self.encode_state(None))
            self.messages.sent(conn)
            self.turns.schedule()  # a table nobody was at plays on while watched (`Seats.bots_may_play`)
            return
        seat = self.seats[conn.seat]
        seat.connections.add(conn)
        self.turns.stop_grace(conn.seat)
        back = seat.away
        seat.away = False
        if back:  # the bot stops playing the seat: a change of play, not of presence alone
            self.messages.broadcast()
        else:
            self.messages.presence_changed()
            conn.put(self.encode_state(conn.seat))
            self.messages.sent(conn)
        self.turns.schedule()

    def disconnect(self, conn: Connection) -> None:
        if conn.seat is None:
            self.seats.spectators.discard(conn)
        else:
            seat = self.seats[conn.seat]
            seat.connections.discard(conn)
            if not seat.connections and seat.token_hash is not None and self.status != FINISHED:
                self.turns.start_grace(conn.seat)
            self.messages.presence_changed()
        if not self.seats.watched():
            self._seen_now()
        self._evict_if_done()

    def _evict_if_done(self) -> None:
        """A finished table nobody watches leaves memory; `Lobby.get` reloads it from storage on demand."""
        if self.status in ENDED and not self.seats.watched():
            self.lobby.drop(self.id)

    # -- abandoned tables ----------------------------------------------------------------------------

    def _attended(self) -> None:
        """A socket opens here: a person is at the table until the last one closes."""
        if self.expires and self.seen is not None and self.status in UNFINISHED:
            self._store_seen(None)

    def _seen_now(self) -> None:
        """A person was here just now (the last socket closed, a request with a seat's token)."""
        if self.expires and self.status in UNFINISHED and not self.seats.watched():
            self._store_seen(self.lobby.clock())

    def _store_seen(self, seen: float | None) -> None:
        self.seen = seen
        try:
            self.log.set_seen(seen)
        except SQLAlchemyError as e:  # kept in memory, which the sweep reads for a table held here
            log.warning("table %s: cannot store when a person was last here: %s", self.id, e)

    def idle(self, now: float) -> float:
        """Seconds nobody has been at this unfinished table with a human seat (0: someone is, or the
        table is never abandoned)."""
        if not self.expires or self.status not in UNFINISHED or self.seen is None or self.seats.watched():
            return 0.0
        return max(0.0, now - self.seen)

    def check_open(self) -> None:
        """TableError ``match_over`` (``detail.reason`` ``abandoned``) for a table closed as abandoned:
        what a seat's token asks of it is refused, by name, not played."""
        if self.status == ABANDONED:
            raise TableError(
                "match_over", f"this table was closed as abandoned: nobody was at it for {_duration(self.lobby.abandon_after)}; "
                f"its record stays readable at /api/tables/{self.id}/record", 409, detail={"reason": "abandoned"})

    def abandon(self) -> bool:
        """Close this unfinished table as abandoned: stored so (every action stays), then it leaves
        memory.  False if the database did not take it (it stays as it was, and is tried again)."""
        try:
            self.log.abandon()
        except LeaseLost:
            self.lobby.drop(self.id)
            return False
        except SQLAlchemyError as e:
            log.error("table %s: cannot close it as abandoned: %s", self.id, e)
            return False
        self.status = ABANDONED
        log.info("table %s: closed as abandoned (nobody at it for %s)", self.id, _duration(self.lobby.abandon_after))
        self.lobby.drop(self.id)
        return True

    def handle_text(self, conn: Connection, text: str | None) -> dict[str, Any] | None:
        """One client message; the reply for this connection only (an error or pong), if any."""
        if conn.seat is not None and conn not in self.seats[conn.seat].connections:
            # the seat was left or resumed elsewhere (`_close_connections`), and this socket's close is
            # still on its way: not one more action or hand goes through it
            conn.put(None)
            return TableError("bad_token", "this token no longer holds the seat", 403).to_json(self.seq)
        if text is None:
            return TableError("bad_json", "messages are JSON text, not binary").to_json(self.seq)
        try:
            msg = limits.loads(text)
        except TableError as e:
            return e.to_json(self.seq)
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            detail = ({"reason": "not_object"} if not isinstance(msg, dict)
                      else {"field": "type", "reason": "missing" if "type" not in msg else "type"})
            return TableError("bad_message", "a message is an object with a \"type\"", detail=detail).to_json(self.seq)
        kind = msg["type"]
        if kind == "ping":
            return {"type": "pong"}
        if kind == "sync":
            conn.put(self.encode_state(conn.seat))
            return None
        if kind != "action":
            return TableError("bad_message", f"unknown message type {shown(kind)} (action, sync, ping)",
                              detail={"field": "type", "reason": "invalid"}).to_json(self.seq)
        unknown = sorted(set(msg) - {"type", "action", "seq"})
        if unknown:
            return TableError("bad_message", f"unknown field {shown(unknown[0])} in an action message",
                              detail={"field": shown(unknown[0], quote=False), "reason": "unknown_field"}).to_json(self.seq)
        if "action" not in msg:
            return TableError("bad_message", "an action message needs an \"action\"",
                              detail={"field": "action", "reason": "missing"}).to_json(self.seq)
        try:
            self.submit(conn.seat, msg["action"], msg.get("seq"))
        except TableError as e:
            return e.to_json(self.seq)
        return None

    # -- actions -------------------------------------------------------------------------------------

    def submit(self, seat: int | None, action_json: Any, seq: Any = None) -> None:
        """A person's action for ``seat``; TableError (and nothing changed) when it is refused."""
        try:
            action = action_from_json(action_json)
        except ProtocolError as e:
            raise TableError("bad_message", str(e), 400, detail={"field": "action", "reason": "invalid"}) from None
        if seq is not None and (not isinstance(seq, int) or isinstance(seq, bool)):
            raise TableError("bad_message", f"seq must be a whole number, not {shown(seq)}", 400,
                             detail={"field": "seq", "reason": "type"})
        if seat is None:
            raise TableError("spectator", "a spectator cannot act; join a seat first", 403)
        self.check_open()
        if self.status == FINISHED or self.match.is_over:
            raise TableError("match_over", "the match is over", 409)
        if self.status == WAITING:
            raise TableError("not_started", "the match starts when every human seat is taken", 409)
        if seq is not None and seq != self.seq:
            raise TableError("stale", f"the action was chosen at seq {seq}; the table is at seq {self.seq}", 409)
        to_move = self.match.current_player
        if seat != to_move:
            raise TableError("not_your_turn", f"it is seat {to_move}'s turn, not seat {seat}'s", 409,
                             detail={"seat": to_move})
        self.commit(seat, action, bot=False)
        self.alive(seat)

    def alive(self, seat: int) -> None:
        """A sign of life from the player of ``seat`` without a socket (an action or a state asked for
        over HTTP): they are back, and away again a grace period after the last one."""
        self.check_open()
        if self.seen is not None and self.lobby.clock() - self.seen > self.lobby.abandon_after / 16:
            self._seen_now()  # not stored at each request: the idle time is told to a sixteenth
        s = self.seats[seat]
        if s.away or (not s.connections and s.grace_task is None):
            back = s.away
            s.away = False
            self.turns.start_grace(seat)
            if back:
                self.messages.broadcast()
                self.turns.schedule()

    def commit(self, seat: int, action: int, bot: bool) -> None:
        """Apply through the rules core on a copy, store it, then make it the state and tell everyone."""
        try:
            trial = self.log.advance(self.match, action)
        except RuleError as e:
            raise TableError("illegal", str(e), 409, e.rule, detail={"action": action_to_json(action)}) from None
        try:
            status = self.log.append(self.seq, seat, action, bot, self.match, trial, self.seats.players())
        except LeaseLost:  # another worker owns the table now: its players reconnect there
            self.lobby.drop(self.id)
            raise TableError("moved", "another server plays this table now; reconnect", 503) from None
        except SQLAlchemyError as e:  # not stored, so not played: the state stays as it was
            log.error("table %s: cannot store action %d: %s", self.id, self.seq, e)
            raise TableError("storage_error", "the action could not be stored; nothing changed, try again", 503) from None
        self.match = trial
        self.seq += 1
        if status is not None:
            self.status = status
        self.last_action = (seat, action, bot)
        if status == FINISHED:
            for hook in self.lobby.on_finished:
                try:
                    hook(self)
                except Exception:  # the match is stored; a failed hook (ratings) must not undo it
                    log.exception("table %s: a hook on the end of the match failed", self.id)
        self.turns.moved()
        self.turns.schedule()
        self.messages.broadcast()
        self._evict_if_done()

    # -- seats ---------------------------------------------------------------------------------------

    def join(self, seat: int | None, name: str | None, keeper: bool = False) -> tuple[int, str]:
        """Give a human seat (None: the first free one) to a new token; the match starts when the last
        human seat is taken.  ``name`` is already checked (`requests.JoinSeat`).  ``keeper``: the
        one joining is the player of the last match the seat is kept for (a rematch)."""
        self.check_open()
        if self.status == FINISHED:
            raise TableError("match_over", "the match is over", 409)
        seat = self.seats.choose(seat, keeper)
        token, token_hash = self.seats.new_token()
        new_status = PLAYING if self.status == WAITING and self.seats.all_taken_but(seat) else None
        listed = any(st.is_human and st.token_hash is None for i, st in enumerate(self.seats) if i != seat)
        self.log.set_seat(seat, token_hash, name, new_status, open=listed)
        st = self.seats[seat]
        st.token_hash, st.name, st.away, st.kept_until = token_hash, name, False, None
        if new_status is not None:
            self.status = new_status
        self.turns.start_grace(seat)  # until a socket connects, the grace period runs
        self._seen_now()
        self.messages.broadcast()
        self.turns.schedule()
        return seat, token

    def new_token(self, seat: int) -> str:
        """A fresh token for a taken human seat (its player is back from another browser); the old
        token no longer holds the seat."""
        self.check_open()
        st = self.seats[seat]
        if not st.is_human or st.token_hash is None:
            raise TableError("seat_free", f"seat {seat} is not taken", 409, detail={"seat": seat})
        token, token_hash = self.seats.new_token()
        self.log.set_seat(seat, token_hash, st.name)
        st.token_hash = token_hash
        self._close_connections(seat, "the seat was taken up again with a new token (another browser)")
        return token

    def leave(self, token: Any) -> None:
        seat = self.seat_of(token)
        if seat is None:
            raise TableError("bad_token", "this token holds no seat of this table", 403)
        self.check_open()
        if self.status == FINISHED:  # its record names who played: leaving now would rewrite it
            raise TableError("match_over", "the match is over; its seats stay as they were played", 409)
        st = self.seats[seat]
        self.log.set_seat(seat, None, None, open=True)
        st.token_hash, st.name, st.away, st.kept_until = None, None, False, None
        self.turns.stop_grace(seat)
        self._close_connections(seat, "you left this seat")
        self.messages.broadcast()
        self.turns.schedule()

    def _close_connections(self, seat: int, why: str) -> None:
        """Tell the seat's sockets that their token no longer holds it, and close them (`handle_text`
        refuses what they send before the close goes out)."""
        gone = json.dumps(TableError("bad_token", why).to_json(self.seq))
        st = self.seats[seat]
        for c in st.connections:
            c.put(gone)
            c.put(None)
        st.connections.clear()

    def close(self) -> None:
        self.turns.close()
        self.messages.cancel()
        for seat in self.seats:
            for c in seat.connections:
                c.put(None)
        for c in self.seats.spectators:
            c.put(None)


class Lobby:
    """Every table this server knows: creates them, restores them from storage, finds them."""

    def __init__(self, storage: Storage, bot_delay: float = 0.5, grace: float = 60.0, bots: Bots | None = None,
                 limits: Limits | None = None, rematch_hold: float = 120.0, presence_every: float = 0.5,
                 abandon_after: float = ABANDON_AFTER) -> None:
        self.storage = storage
        self.abandon_after = abandon_after  # seconds an unfinished table nobody is at stays open
        self.presence_every = presence_every  # seconds between two states sent for presence alone (`Messages`)
        self.bot_delay = bot_delay
        self.grace = grace
        self.rematch_hold = rematch_hold  # seconds a rematch keeps the seats of the last match's players
        # When a kept seat lapses: wall-clock time, which every worker reads alike (tests set their own).
        self.clock: Callable[[], float] = time.time
        self.bots: Bots = bots or InlineBots()
        self.limits = limits or Limits()
        self.quota = Quota(self.limits)
        self.tables: dict[str, Table] = {}
        # The finished tables read lately, the oldest first (`get`): a few, so that a page polled
        # again is not replayed from storage each time, and not every replay ever viewed.
        self._finished: OrderedDict[str, Table] = OrderedDict()
        # With several workers on one database (`workers.Worker`): this worker's id.  Then a table
        # in play is kept here only while this worker holds its lease (`Storage.claim`).
        self.worker: str | None = None
        self._waiting_by: dict[str, set[str]] = {}  # client address -> tables with human seats it created
        self.on_finished: list[Callable[[Table], None]] = []  # called when a match ends (accounts' ratings)

    def create(self, request: CreateTable, address: str = "", rematch_of: str | None = None,
               keep: Collection[int] = ()) -> tuple[Table, int | None, str | None]:
        """A new table as ``request`` asks, created by the client at ``address``; TableError (429)
        over a limit of `limits.Limits`, and then nothing is stored.  ``rematch_of``: the table is
        the rematch of that finished one, and the seats ``keep`` are kept for their players of it
        for `rematch_hold` seconds (`Storage.create_table` says what happens to a second rematch)."""
        settings = request.settings()
        free = settings.seats.count(HUMAN) - (request.seat is not None)
        if HUMAN not in settings.seats:
            self._check_bot_tables()
        else:  # it may wait for players, now or once its creator leaves the seat
            self._check_waiting(address, starts=free == 0)
        self.quota.create_table(address)
        seed = secrets.randbits(62)
        match = new_match(settings.target, seed, settings.rules())
        table_id = secrets.token_hex(5)
        status = PLAYING if HUMAN not in settings.seats else WAITING
        kept = {s: self.clock() + self.rematch_hold for s in keep}
        created = self.storage.create_table(table_id, seed, settings.to_json(), status, deal_row(match, 0),
                                            open=HUMAN in settings.seats, rematch_of=rematch_of, kept=kept,
                                            attended=HUMAN in settings.seats)
        if self.worker is not None:
            self.storage.claim(table_id, self.worker)  # nobody else knows the id yet
        table = Table(self, table_id, seed, settings, match, created, status)
        for s, until in kept.items():
            table.seats[s].kept_until = until
        self.tables[table_id] = table
        if HUMAN in settings.seats:
            self._waiting_by.setdefault(address, set()).add(table_id)
        seat, token = request.seat, None
        if seat is not None:
            seat, token = table.join(seat, request.name)
        table.schedule()
        return table, seat, token

    def _check_bot_tables(self) -> None:
        """Bots-only tables cost CPU with nobody watching: at most `Limits.bot_tables` play at once."""
        playing = sum(1 for t in self.tables.values() if HUMAN not in t.settings.seats and t.status == PLAYING)
        if playing >= self.limits.bot_tables:
            raise TableError("too_many_bot_tables", f"{playing} tables of bots only are playing, the most this "
                             "server runs at once; try again when one ends, or seat a person", 429,
                             detail={"limit": self.limits.bot_tables})

    def _check_waiting(self, address: str, starts: bool = False) -> None:
        """At most `Limits.waiting_per_address` tables of ``address`` wait for players.  A table in play
        whose player left waits too: joined at once and left again, tables were never counted, and one
        address filled the lobby.  ``starts``: the new table starts at once (it does not wait), so
        only those count against it."""
        mine = self._waiting_by.get(address, set())
        for table_id in list(mine):
            t = self.tables.get(table_id)
            if t is None or t.status in ENDED:
                mine.discard(table_id)
        if not mine:
            self._waiting_by.pop(address, None)
            return
        waiting = sum(1 for table_id in mine if self.tables[table_id].seats.has_free_human_seat()
                      and (not starts or self.tables[table_id].status == PLAYING))
        if waiting >= self.limits.waiting_per_address:
            raise TableError("too_many_tables", f"your address has {waiting} tables waiting for players (at most "
                             f"{self.limits.waiting_per_address}); play or leave one first", 429,
                             detail={"reason": "waiting", "limit": self.limits.waiting_per_address})

    def get(self, table_id: str) -> Table | None:
        table = self.tables.get(table_id)
        if table is None and table_id in self._finished:
            self._finished.move_to_end(table_id)
            return self._finished[table_id]
        # No id holds a NUL, which PostgreSQL's text cannot: asked about one, the database failed (a 500).
        if table is None and isinstance(table_id, str) and len(table_id) <= 32 and "\x00" not in table_id:
            stored = self.storage.load(table_id)
            if stored is not None and self.worker is not None and stored.status not in ENDED:
                if not self.storage.claim(table_id, self.worker):
                    return None  # another worker plays it (workers.Forward sends its requests there)
                stored = self.storage.load(table_id)  # read after the claim: every write of the last owner is in
            if stored is not None:
                table = self._restore(stored)
                # A finished table is kept only while watched (`Table._evict_if_done`), and among the
                # few read lately: one read over HTTP (its page, its replay) kept it for good, and
                # every replay ever viewed piled up.
                if table is not None and table.status not in ENDED:
                    self.tables[table_id] = table
                elif table is not None:
                    self._finished[table_id] = table
                    if len(self._finished) > FINISHED_KEPT:
                        self._finished.popitem(last=False)
        return table

    def peek(self, table_id: str) -> Table | None:
        """A table to describe (the lobby, the list of finished games): as `get`, but a worker does
        not take over a table in play just to list it; it reads it from storage instead."""
        if self.worker is None or table_id in self.tables:
            return self.get(table_id)
        stored = self.storage.load(table_id)
        return None if stored is None else self._restore(stored)

    def drop(self, table_id: str) -> None:
        """Forget a table (finished and unwatched, or owned by another worker now); its connections
        close, and its clients reconnect to whoever plays it."""
        table = self.tables.pop(table_id, None)
        if table is not None:
            table.close()
        if self.worker is not None:
            self.storage.release(table_id, self.worker)

    def restore_all(self) -> int:
        """Bring back every table in play from the database (on start); returns how many.

        Tables still waiting for players have nothing to run: `get` loads one when it is asked for,
        so a start does not replay thousands of tables nobody sits at.  Nobody is at any table now;
        those nobody was at for `abandon_after` are closed as abandoned first, without a replay.
        """
        self.storage.seen_at_start(self.clock())
        self.sweep()
        n = 0
        ids = self.storage.unfinished_ids(PLAYING) if self.worker is None else self.storage.orphans(PLAYING)
        for table_id in ids:
            if table_id in self.tables:
                continue
            table = self.get(table_id)
            if table is not None:
                n += 1
                for s, seat in enumerate(table.seats):
                    if seat.token_hash is not None:
                        table.turns.start_grace(s)  # nobody is connected yet after a restart
                table.schedule()
        return n

    def _restore(self, stored: StoredTable) -> Table | None:
        """Deal the stored hands and replay the stored moves through the rules core."""
        settings = Settings.from_json(stored.settings)
        try:
            match = replay_stored(settings.target, stored.deals, stored.moves, settings.rules())
        except (RuleError, ValueError) as e:  # UnsupportedOption is a ValueError too
            log.error("table %s: the stored game does not replay (%s); not restored", stored.id, e)
            return None
        table = Table(self, stored.id, stored.seed, settings, match, stored.created, stored.status)
        table.seq = len(stored.moves)
        for s, (token_hash, name) in stored.seats.items():
            table.seats[s].token_hash = token_hash
            table.seats[s].name = None if name is None else clean_stored_name(name)
            table.seats[s].kept_until = stored.kept.get(s)
        if stored.moves:
            seat, move, bot = stored.moves[-1]
            table.last_action = (seat, action_of(move), bot)
        if table.expires:  # None: a person was at it on the server that held it last (now gone)
            table.seen = stored.seen if stored.seen is not None else self.clock()
        return table

    def sweep(self) -> list[str]:
        """Close as abandoned every unfinished table nobody was at for `abandon_after` seconds: those
        held here as their memory says, the others (waiting ones not loaded; with several workers,
        those no live worker owns) as stored.  Returns their ids."""
        now = self.clock()
        closed = [t.id for t in list(self.tables.values()) if t.idle(now) >= self.abandon_after and t.abandon()]
        try:
            for table_id in self.storage.idle_ids(now - self.abandon_after):
                if table_id not in self.tables and self.storage.abandon(table_id, now - self.abandon_after):
                    closed.append(table_id)
                    self._finished.pop(table_id, None)
        except SQLAlchemyError as e:  # the next sweep tries again
            log.error("cannot close the abandoned tables: %s", e)
        if closed:
            log.info("closed %d abandoned table(s) (nobody at them for %s)", len(closed), _duration(self.abandon_after))
        return closed

    async def sweep_every(self, seconds: float | None = None) -> None:
        """`sweep` for ever, every ``seconds`` (default: a quarter of `abandon_after`, at most a minute)."""
        every = seconds if seconds is not None else min(60.0, self.abandon_after / 4)
        while True:
            await asyncio.sleep(every)
            try:
                self.sweep()
            except Exception:  # one failed sweep must not end them: the next one tries again
                log.exception("the sweep for abandoned tables failed")

    def open_page(self, limit: int, before: tuple[float, str] | None = None) -> tuple[list[Table], tuple[float, str] | None]:
        """A page of the tables with a free human seat, newest first, and the cursor of the next page.
        A table whose free seats are all kept for the players of a rematch is left out until they lapse
        (the page may then hold fewer tables; the cursor still runs through them all)."""
        rows = self.storage.open_page(limit, before)
        found = [t for t in (self.peek(table_id) for _created, table_id in rows) if t is not None and t.seats.free()]
        return found, (rows[-1] if len(rows) == limit else None)

    def close(self) -> None:
        for t in self.tables.values():
            t.close()


def _duration(seconds: float) -> str:
    """``seconds`` in words for a message.

    >>> _duration(21600), _duration(5400), _duration(3600), _duration(2), _duration(0.5)
    ('6 hours', '90 minutes', '1 hour', '2 seconds', '0.5 seconds')
    """
    for unit, size in (("hours", 3600), ("minutes", 60)):
        if (seconds >= size and seconds % size == 0) or seconds >= 4 * size:
            n = seconds / size
            return f"{n:g} {unit if n != 1 else unit[:-1]}"
    return f"{seconds:g} {'seconds' if seconds != 1 else 'second'}"


__all__ = ["Connection", "Lobby", "Settings", "Table", "TableError", "default_bot"]
