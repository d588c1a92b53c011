"""Live tables: the match of each table, who holds its seats, its connections, bots and timers.

A `Table` is a thin layer over `belot.game.Match`: it checks *who* may act (the token of the seat
to move), lets the rules core decide *what* may be done (`Match.apply`), stores every accepted
action before telling anyone (`Storage.append_action`), then sends each connection the view it is
entitled to (projected by `belot.visibility`).  Every change of state happens in plain synchronous code
between two awaits, so on the single event loop no two changes interleave and no lock is needed.

Bots play bot seats, human seats nobody holds, and players away longer than the grace period
(or out of time on the turn timer), always through the seat's view, with a short delay.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import random
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from .. import record as belot_record
from ..bots import Bot, bot_names, make_bot
from ..cards import CARD_NAMES, parse_card
from ..errors import RuleError
from ..game import AUCTION, CHANCE, Match, deal_hands
from ..record import Move, action_of, move_of
from ..visibility import finished_deal_view, history_json, own_view, seen_action
from .protocol import ProtocolError, action_from_json, public_view_json, view_to_json, with_rounding
from .storage import DealRow, Storage, StoredTable

log = logging.getLogger("belot.server")

WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"
HUMAN = "human"
def deal_next(match: Match, seed: int) -> None:
    """Shuffle and deal the match's next deal (R2): deal ``i`` of a table comes from its seed and ``i``.

    Only deals not yet dealt are shuffled; a dealt deal is stored and always restored as stored.
    """
    dealer = match.next_dealer
    assert dealer is not None
    match.deal(deal_hands(random.Random(f"{seed}/{len(match.deals)}"), dealer), dealer)


def replay_stored(target: int, deals: list[DealRow], moves: list[tuple[int, Move, bool]]) -> Match:
    """The match of a stored table: its hands dealt as stored, its moves applied in order.

    Raises RuleError or ValueError when the stored game is not a legal game.
    """
    match = Match(target=target, first_dealer=deals[0].dealer if deals else None)
    rows = iter(deals)

    def deal_stored() -> None:
        row = next(rows, None)
        if row is None:
            raise ValueError(f"deal {len(match.deals)} was played but its hands are not stored")
        match.deal([[parse_card(c) for c in h] for h in row.hands], row.dealer)

    for seq, (seat, move, _bot) in enumerate(moves):
        if match.current_player == CHANCE:
            deal_stored()
        if match.current_player != seat:
            raise ValueError(f"move {seq} is stored for seat {seat}, but seat {match.current_player} is to move")
        match.apply(action_of(move))
    if match.current_player == CHANCE:
        deal_stored()
    if next(rows, None) is not None:
        raise ValueError("more deals are stored than were played")
    return match


def _encode(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _join(*objects: str) -> str:
    """JSON objects (as text) with disjoint keys joined into one object."""
    return "{" + ",".join(o[1:-1] for o in objects if o != "{}") + "}"

MAX_TARGET = 10_000
MAX_NAME = 40


def default_bot() -> str:
    """The strongest registered bot that answers quickly, else the random bot."""
    names = bot_names()
    for preferred in ("heuristic", "random"):
        if preferred in names:
            return f"bot:{preferred}"
    return f"bot:{names[0]}"


class TableError(Exception):
    """A refused request: ``code`` from docs/protocol.md, an English ``message``, the HTTP status."""

    def __init__(self, code: str, message: str, status: int = 409, rule: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.rule = rule

    def to_json(self, seq: int | None = None) -> dict[str, Any]:
        return {"type": "error", "code": self.code, "message": self.message, "rule": self.rule, "seq": seq}


@dataclass
class Settings:
    target: int = 151
    seats: list[str] = field(default_factory=lambda: [HUMAN, default_bot(), default_bot(), default_bot()])
    names: list[str | None] = field(default_factory=lambda: [None] * 4)
    substitute: str = field(default_factory=default_bot)
    turn_timer: float | None = None

    @classmethod
    def parse(cls, body: dict[str, Any]) -> Settings:
        """Settings from a create-table request; TableError (bad_request) names the faulty field."""
        s = cls()
        known = {"target", "seats", "names", "substitute", "turn_timer", "seat", "name"}
        unknown = sorted(set(body) - known)
        if unknown:
            raise TableError("bad_request", f"unknown field {unknown[0]!r}", 400)
        if "target" in body:
            t = body["target"]
            if not isinstance(t, int) or isinstance(t, bool) or not 1 <= t <= MAX_TARGET:
                raise TableError("bad_request", f"target must be a whole number 1-{MAX_TARGET}, not {t!r}", 400)
            s.target = t
        if "seats" in body:
            seats = body["seats"]
            if not isinstance(seats, list) or len(seats) != 4:
                raise TableError("bad_request", "seats must be a list of four entries (\"human\" or \"bot:NAME\")", 400)
            s.seats = [_seat_kind(x) for x in seats]
        if "names" in body:
            names = body["names"]
            if not isinstance(names, list) or len(names) != 4:
                raise TableError("bad_request", "names must be a list of four names (or nulls)", 400)
            s.names = [_name(n) for n in names]
        if "substitute" in body:
            sub = _seat_kind(body["substitute"])
            if sub == HUMAN:
                raise TableError("bad_request", "substitute must be a bot level such as \"bot:random\"", 400)
            s.substitute = sub
        if body.get("turn_timer") is not None:
            tt = body["turn_timer"]
            if not isinstance(tt, (int, float)) or isinstance(tt, bool) or not 1 <= tt <= 3600:
                raise TableError("bad_request", f"turn_timer must be seconds 1-3600 or null, not {tt!r}", 400)
            s.turn_timer = float(tt)
        return s

    def to_json(self) -> dict[str, Any]:
        return {
            "target": self.target, "seats": self.seats, "names": self.names,
            "substitute": self.substitute, "turn_timer": self.turn_timer,
        }


def _seat_kind(x: Any) -> str:
    if x == HUMAN:
        return HUMAN
    if x == "bot":
        return default_bot()
    if isinstance(x, str) and x.startswith("bot:") and x.removeprefix("bot:") in bot_names():
        return x
    known = ", ".join(f"bot:{n}" for n in bot_names())
    raise TableError("bad_request", f"{x!r} is neither \"human\" nor a bot level ({known})", 400)


def _name(n: Any) -> str | None:
    if n is None:
        return None
    if not isinstance(n, str) or not n.strip() or len(n) > MAX_NAME or any(ord(ch) < 32 for ch in n):
        raise TableError(
            "bad_request", f"a name must be a non-empty string of at most {MAX_NAME} printable characters", 400
        )
    return n.strip()


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(eq=False)
class Connection:
    """One websocket: the seat it plays (None for a spectator) and its outgoing queue of JSON texts.

    ``None`` in the queue tells the sender to close the socket (the seat was given up).
    """

    seat: int | None
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)


@dataclass
class Seat:
    kind: str  # "human" or a bot level
    token_hash: str | None = None
    name: str | None = None
    connections: set[Connection] = field(default_factory=set)
    away: bool = False  # a taken human seat whose player has been gone longer than the grace period
    grace_task: asyncio.Task[None] | None = None
    bot: Bot | None = None

    @property
    def is_human(self) -> bool:
        return self.kind == HUMAN

    @property
    def taken(self) -> bool:
        return not self.is_human or self.token_hash is not None


class Table:
    """One table: the live match, its seats and connections."""

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
        self.seats = [Seat(kind) for kind in settings.seats]
        self.spectators: set[Connection] = set()
        self.last_action: tuple[int, int, bool] | None = None  # (seat, action, by a bot)
        self.turn_deadline: float | None = None
        self._pending: asyncio.Task[None] | None = None  # the bot turn or turn timer waiting
        self._pending_key: tuple[int, int, bool] | None = None  # (seq, seat, by a bot) it is for
        self._history_cache: tuple[int, str] = (-1, "")
        self._previous_cache: dict[tuple[int, int | None], dict[str, Any]] = {}

    # -- who is who -------------------------------------------------------------------------------

    def seat_of(self, token: str | None) -> int | None:
        if not token or not isinstance(token, str):
            return None
        h = _hash(token)
        for s, seat in enumerate(self.seats):
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, h):
                return s
        return None

    def bot_playing(self, s: int) -> bool:
        seat = self.seats[s]
        return not seat.is_human or seat.token_hash is None or seat.away

    def _bot_for(self, s: int) -> Bot:
        seat = self.seats[s]
        if seat.bot is None:
            name = seat.kind if not seat.is_human else self.settings.substitute
            # Not derived from the table's seed: a bot's choices must not hint at the shuffles.
            seat.bot = make_bot(name, seed=secrets.randbits(32))
        return seat.bot

    def players(self) -> list[str]:
        out = []
        for s, seat in enumerate(self.seats):
            out.append(seat.kind if not seat.is_human else seat.name or self.settings.names[s] or f"seat {s}")
        return out

    # -- JSON --------------------------------------------------------------------------------------

    def info(self) -> dict[str, Any]:
        seats = []
        for s, seat in enumerate(self.seats):
            human = seat.is_human
            seats.append({
                "seat": s,
                "kind": HUMAN if human else "bot",
                "bot": None if human else seat.kind,
                "name": (seat.name or self.settings.names[s]) if human else seat.kind,
                "taken": seat.taken,
                "connected": bool(seat.connections) if human else True,
                "bot_playing": self.bot_playing(s),
            })
        return {
            "id": self.id,
            "status": self.status,
            "target": self.settings.target,
            "turn_timer": self.settings.turn_timer,
            "substitute": self.settings.substitute,
            "created": self.created,
            "seats": seats,
            "score": list(self.match.score),
            "winner": self.match.winner,
            "seq": self.seq,
            "links": {"table": f"/t/{self.id}", "replay": f"/replay/{self.id}"},
        }

    def _history(self) -> str:
        """The view's ``history`` as JSON text, encoded once per finished deal (it is in every message)."""
        n = len(self.match.results)
        if self._history_cache[0] != n:
            text = _encode(history_json(tuple(self.match.results)))
            self._history_cache = (n, text)
        return self._history_cache[1]

    def _shared(self, info: dict[str, Any] | None) -> dict[str, Any]:
        """The parts of a ``state`` message that are the same for every viewer, but the view."""
        deadline = None
        if self.turn_deadline is not None:
            deadline = max(0.0, round(self.turn_deadline - time.monotonic(), 1))
        return {"type": "state", "seq": self.seq, "table": info if info is not None else self.info(), "deadline": deadline}

    def _personal(self, seat: int | None) -> dict[str, Any]:
        """The parts of a ``state`` message that depend on the viewer, but the view's own part."""
        return {"you": self._you(seat), "previous_deal": self._previous(seat), "last_action": self._last(seat)}

    def encode_state(self, seat: int | None, info: dict[str, Any] | None = None) -> str:
        """The ``state`` message of one seat (None: a spectator) as JSON text."""
        return self.encode_states([seat], info)[seat]

    def encode_states(self, seats: list[int | None], info: dict[str, Any] | None = None) -> dict[int | None, str]:
        """The ``state`` messages of several seats as JSON text, equal to `state` for each.

        A message is built from parts that `belot.visibility` keeps apart: the public part (the
        same for everyone, encoded once, the history once per deal) and each viewer's own parts
        (`visibility.own_view`, `_personal`), encoded per viewer and joined as JSON text.  Which
        fields are whose is decided by the function that builds each part, never by a list here.
        """
        m = self.match
        views = {s: m.view(s) for s in seats if s is not None}
        public = public_view_json(next(iter(views.values()), None) or m.view(0))
        public_text = _join(_encode(public), '{"history":' + self._history() + "}")
        shared_text = _encode(self._shared(info))
        out: dict[int | None, str] = {}
        for seat in seats:
            own = own_view(views[seat] if seat is not None else None)
            view_text = _join(public_text, _encode(own))
            out[seat] = _join(shared_text, '{"view":' + view_text + "}", _encode(self._personal(seat)))
        return out

    def _you(self, seat: int | None) -> dict[str, Any]:
        name = None if seat is None else self.seats[seat].name or self.settings.names[seat]
        return {"seat": seat, "name": name}

    def _previous(self, seat: int | None) -> dict[str, Any] | None:
        """The finished previous deal as ``seat`` may see it, while the current deal is in its auction."""
        m = self.match
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
        if self.last_action is None:
            return None
        actor, action, bot = self.last_action
        return {"seat": actor, "action": seen_action(action, actor, seat), "bot": bot}

    def state(self, seat: int | None, info: dict[str, Any] | None = None) -> dict[str, Any]:
        """The ``state`` message for a seat (None: a spectator)."""
        m = self.match
        view = view_to_json(m.view(0 if seat is None else seat), seat)
        return {**self._shared(info), "view": view, **self._personal(seat)}

    def broadcast(self) -> None:
        """Queue the current state for every connection, each with the view it may see."""
        targets: list[int | None] = [s for s, seat in enumerate(self.seats) if seat.connections]
        if self.spectators:
            targets.append(None)
        if not targets:
            return
        texts = self.encode_states(targets)
        for s, seat in enumerate(self.seats):
            for c in seat.connections:
                c.queue.put_nowait(texts[s])
        for c in self.spectators:
            c.queue.put_nowait(texts[None])

    # -- connections -------------------------------------------------------------------------------

    def connect(self, conn: Connection) -> None:
        if conn.seat is None:
            self.spectators.add(conn)
            conn.queue.put_nowait(self.encode_state(None))
            return
        seat = self.seats[conn.seat]
        seat.connections.add(conn)
        if seat.grace_task is not None:
            seat.grace_task.cancel()
            seat.grace_task = None
        seat.away = False
        self.broadcast()
        self.schedule()

    def disconnect(self, conn: Connection) -> None:
        if conn.seat is None:
            self.spectators.discard(conn)
            self._evict_if_done()
            return
        seat = self.seats[conn.seat]
        seat.connections.discard(conn)
        if not seat.connections and seat.token_hash is not None and self.status != FINISHED:
            self._start_grace(conn.seat)
        self.broadcast()
        self._evict_if_done()

    def _evict_if_done(self) -> None:
        """A finished table nobody watches leaves memory; `Lobby.get` reloads it from storage on demand."""
        if self.status == FINISHED and not self.spectators and not any(s.connections for s in self.seats):
            self.close()
            self.lobby.tables.pop(self.id, None)

    def _start_grace(self, s: int) -> None:
        seat = self.seats[s]
        if seat.grace_task is not None:
            seat.grace_task.cancel()
        seat.grace_task = asyncio.get_running_loop().create_task(self._grace(s, seat.token_hash))

    async def _grace(self, s: int, token_hash: str | None) -> None:
        await asyncio.sleep(self.lobby.grace)
        seat = self.seats[s]
        if seat.connections or seat.token_hash != token_hash:
            return
        seat.away = True
        seat.grace_task = None
        log.info("table %s: seat %d away, its substitute bot plays", self.id, s)
        self.broadcast()
        self.schedule()

    def handle_text(self, conn: Connection, text: str | None) -> dict[str, Any] | None:
        """One client message; the reply for this connection only (an error or pong), if any."""
        if text is None:
            return TableError("bad_json", "messages are JSON text, not binary").to_json(self.seq)
        try:
            msg = json.loads(text)
        except (json.JSONDecodeError, RecursionError):
            return TableError("bad_json", "the message is not valid JSON").to_json(self.seq)
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            return TableError("bad_message", "a message is an object with a \"type\"").to_json(self.seq)
        kind = msg["type"]
        if kind == "ping":
            return {"type": "pong"}
        if kind == "sync":
            conn.queue.put_nowait(self.encode_state(conn.seat))
            return None
        if kind != "action":
            return TableError("bad_message", f"unknown message type {kind!r} (action, sync, ping)").to_json(self.seq)
        unknown = sorted(set(msg) - {"type", "action", "seq"})
        if unknown:
            return TableError("bad_message", f"unknown field {unknown[0]!r} in an action message").to_json(self.seq)
        if "action" not in msg:
            return TableError("bad_message", "an action message needs an \"action\"").to_json(self.seq)
        try:
            self.submit(conn.seat, msg["action"], msg.get("seq"))
        except TableError as e:
            return e.to_json(self.seq)
        return None

    # -- actions -----------------------------------------------------------------------------------

    def submit(self, seat: int | None, action_json: Any, seq: Any = None) -> None:
        """A person's action for ``seat``; TableError (and nothing changed) when it is refused."""
        try:
            action = action_from_json(action_json)
        except ProtocolError as e:
            raise TableError("bad_message", str(e), 400) from None
        if seq is not None and (not isinstance(seq, int) or isinstance(seq, bool)):
            raise TableError("bad_message", f"seq must be a whole number, not {seq!r}", 400)
        if seat is None:
            raise TableError("spectator", "a spectator cannot act; join a seat first", 403)
        if self.status == FINISHED or self.match.is_over:
            raise TableError("match_over", "the match is over", 409)
        if self.status == WAITING:
            raise TableError("not_started", "the match starts when every human seat is taken", 409)
        if seq is not None and seq != self.seq:
            raise TableError("stale", f"the action was chosen at seq {seq}; the table is at seq {self.seq}", 409)
        to_move = self.match.current_player
        if seat != to_move:
            raise TableError("not_your_turn", f"it is seat {to_move}'s turn, not seat {seat}'s", 409)
        self._commit(seat, action, bot=False)
        s = self.seats[seat]
        if s.away or (not s.connections and s.grace_task is None):
            # An action is a sign of life: the player is back (e.g. over HTTP, without a socket).
            s.away = False
            self._start_grace(seat)

    def _commit(self, seat: int, action: int, bot: bool) -> None:
        """Apply through the rules core on a copy, store it, then make it the state and tell everyone."""
        trial = self.match.clone()
        try:
            trial.apply(action)
        except RuleError as e:
            raise TableError("illegal", str(e), 409, e.rule) from None
        if trial.current_player == CHANCE:
            deal_next(trial, self.seed)
        new_deals = [
            DealRow(i, d.dealer, [[CARD_NAMES[c] for c in h] for h in d.dealt])
            for i, d in enumerate(trial.deals)
            if i >= len(self.match.deals)
        ]
        status = FINISHED if trial.is_over else None
        text = belot_record.dumps(trial, self.players()) if trial.is_over else None
        try:
            self.lobby.storage.append_action(self.id, self.seq, seat, move_of(action), bot, new_deals, status, text)
        except SQLAlchemyError as e:  # not stored, so not played: the state stays as it was
            log.error("table %s: cannot store action %d: %s", self.id, self.seq, e)
            raise TableError("storage_error", "the action could not be stored; nothing changed, try again", 503) from None
        self.match = trial
        self.seq += 1
        if status is not None:
            self.status = status
        self.last_action = (seat, action, bot)
        self.turn_deadline = None
        self.schedule()
        self.broadcast()
        self._evict_if_done()

    # -- seats -------------------------------------------------------------------------------------

    def join(self, seat: int | None, name: Any) -> tuple[int, str]:
        name = _name(name)
        if self.status == FINISHED:
            raise TableError("match_over", "the match is over", 409)
        if seat is None:
            free = [s for s, st in enumerate(self.seats) if st.is_human and st.token_hash is None]
            if not free:
                raise TableError("table_full", "every human seat of this table is taken", 409)
            seat = free[0]
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
            raise TableError("bad_request", f"seat must be 0-3, not {seat!r}", 400)
        st = self.seats[seat]
        if not st.is_human:
            raise TableError("not_human_seat", f"seat {seat} is played by {st.kind}", 409)
        if st.token_hash is not None:
            raise TableError("seat_taken", f"seat {seat} is taken", 409)
        token = secrets.token_urlsafe(24)
        starts = self.status == WAITING and all(x.taken for i, x in enumerate(self.seats) if i != seat)
        new_status = PLAYING if starts else None
        self.lobby.storage.set_seat(self.id, seat, _hash(token), name, new_status)
        st.token_hash, st.name, st.away = _hash(token), name, False
        if new_status is not None:
            self.status = new_status
        self._start_grace(seat)  # until a socket connects, the grace period runs
        self.broadcast()
        self.schedule()
        return seat, token

    def leave(self, token: Any) -> None:
        seat = self.seat_of(token)
        if seat is None:
            raise TableError("bad_token", "this token holds no seat of this table", 403)
        st = self.seats[seat]
        self.lobby.storage.set_seat(self.id, seat, None, None)
        st.token_hash, st.name, st.away = None, None, False
        if st.grace_task is not None:
            st.grace_task.cancel()
            st.grace_task = None
        gone = TableError("bad_token", "you left this seat").to_json(self.seq)
        for c in st.connections:
            c.queue.put_nowait(json.dumps(gone))
            c.queue.put_nowait(None)
        st.connections.clear()
        self.broadcast()
        self.schedule()

    # -- bots and timers ---------------------------------------------------------------------------

    def schedule(self) -> None:
        """After any change: let a bot move, or start the turn timer, for the seat to move.

        A change that leaves the same seat to move in the same way (someone connecting, say)
        keeps what is already waiting, so reconnecting never restarts a turn timer.
        """
        key: tuple[int, int, bool] | None = None
        if self.status == PLAYING and not self.match.is_over and self.match.current_player >= 0:
            s = self.match.current_player
            if self.bot_playing(s):
                key = (self.seq, s, True)
            elif self.settings.turn_timer is not None:
                key = (self.seq, s, False)
        pending = self._pending
        current = asyncio.current_task()
        if key is not None and key == self._pending_key and pending is not None and not pending.done() \
                and pending is not current:
            return
        if pending is not None and not pending.done() and pending is not current:
            pending.cancel()
        self._pending, self._pending_key, self.turn_deadline = None, key, None
        if key is None:
            return
        seq, s, bot = key
        loop = asyncio.get_running_loop()
        if bot:
            self._pending = loop.create_task(self._bot_turn(s, seq, self.lobby.bot_delay))
        else:
            # On expiry the seat's substitute bot makes this one action (unless it is cancelled).
            assert self.settings.turn_timer is not None
            self.turn_deadline = time.monotonic() + self.settings.turn_timer
            self._pending = loop.create_task(self._bot_turn(s, seq, self.settings.turn_timer))

    async def _bot_turn(self, s: int, seq: int, delay: float) -> None:
        await asyncio.sleep(delay)
        if self.seq != seq or self.status != PLAYING:
            return
        view = self.match.view(s)
        bot = self._bot_for(s)
        try:
            # In a worker thread, so that a slow bot does not hold up the other tables.
            action = await asyncio.to_thread(bot.act, view)
        except Exception:  # a faulty bot must not stop the table: fall back to the first legal action
            log.exception("table %s: bot %s failed on seat %d", self.id, bot.name, s)
            action = view.legal_actions[0]
        if self.seq != seq or self.status != PLAYING:
            return  # the state moved on while the bot thought
        try:
            self._commit(s, action, bot=True)
        except TableError as e:
            log.error("table %s: bot %s chose an illegal action: %s", self.id, bot.name, e.message)
            self._commit(s, view.legal_actions[0], bot=True)

    def close(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
        for seat in self.seats:
            if seat.grace_task is not None:
                seat.grace_task.cancel()
            for c in seat.connections:
                c.queue.put_nowait(None)
        for c in self.spectators:
            c.queue.put_nowait(None)

    # -- records -----------------------------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        if not self.match.is_over:
            raise TableError(
                "in_progress", "the match is not finished; its record, which holds every hand, is published when it ends"
            )
        return belot_record.to_json(self.match, self.players())


class Lobby:
    """Every table this server knows: creates them, restores them from storage, finds them."""

    def __init__(self, storage: Storage, bot_delay: float = 0.5, grace: float = 60.0) -> None:
        self.storage = storage
        self.bot_delay = bot_delay
        self.grace = grace
        self.tables: dict[str, Table] = {}

    def create(self, body: dict[str, Any]) -> tuple[Table, int | None, str | None]:
        settings = Settings.parse(body)
        join_seat = body.get("seat")
        join_name = body.get("name")
        if join_seat is not None:
            if not isinstance(join_seat, int) or isinstance(join_seat, bool) or not 0 <= join_seat <= 3:
                raise TableError("bad_request", f"seat must be 0-3, not {join_seat!r}", 400)
            if settings.seats[join_seat] != HUMAN:
                raise TableError("bad_request", f"seat {join_seat} is not a human seat", 400)
            _name(join_name)
        seed = secrets.randbits(62)
        match = Match(target=settings.target, first_dealer=random.Random(seed).randrange(4))  # R2.1
        deal_next(match, seed)
        table_id = secrets.token_hex(5)
        d = match.deals[0]
        status = PLAYING if HUMAN not in settings.seats else WAITING
        first = DealRow(0, d.dealer, [[CARD_NAMES[c] for c in h] for h in d.dealt])
        created = self.storage.create_table(table_id, seed, settings.to_json(), status, first)
        table = Table(self, table_id, seed, settings, match, created, status)
        self.tables[table_id] = table
        token = None
        if join_seat is not None:
            join_seat, token = table.join(join_seat, join_name)
        table.schedule()
        return table, join_seat, token

    def get(self, table_id: str) -> Table | None:
        table = self.tables.get(table_id)
        if table is None and isinstance(table_id, str) and len(table_id) <= 32:
            stored = self.storage.load(table_id)
            if stored is not None:
                table = self._restore(stored)
                if table is not None:
                    self.tables[table_id] = table
        return table

    def restore_all(self) -> int:
        """Bring back every unfinished table from the database (on start); returns how many."""
        n = 0
        for table_id in self.storage.unfinished_ids():
            if self.get(table_id) is not None:
                n += 1
        for table in self.tables.values():
            for s, seat in enumerate(table.seats):
                if seat.token_hash is not None:
                    table._start_grace(s)  # nobody is connected yet after a restart
            table.schedule()
        return n

    def _restore(self, stored: StoredTable) -> Table | None:
        """Deal the stored hands and replay the stored moves through the rules core."""
        d = stored.settings
        settings = Settings(
            target=d["target"], seats=d["seats"], names=d["names"], substitute=d["substitute"],
            turn_timer=d["turn_timer"],
        )
        try:
            match = replay_stored(settings.target, stored.deals, stored.moves)
        except (RuleError, ValueError) as e:
            log.error("table %s: the stored game does not replay (%s); not restored", stored.id, e)
            return None
        table = Table(self, stored.id, stored.seed, settings, match, stored.created, stored.status)
        table.seq = len(stored.moves)
        for s, (token_hash, name) in stored.seats.items():
            table.seats[s].token_hash = token_hash
            table.seats[s].name = name
        if stored.moves:
            seat, move, bot = stored.moves[-1]
            table.last_action = (seat, action_of(move), bot)
        return table

    def open_tables(self) -> list[Table]:
        out = [
            t for t in self.tables.values()
            if t.status != FINISHED and any(s.is_human and s.token_hash is None for s in t.seats)
        ]
        return sorted(out, key=lambda t: -t.created)

    def close(self) -> None:
        for t in self.tables.values():
            t.close()


__all__ = ["Connection", "Lobby", "Settings", "Table", "TableError", "default_bot"]
