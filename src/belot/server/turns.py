"""Who acts when nobody sends an action: the bot of a bot seat (or of a free or away human seat)
after a short delay while someone is at the table (`Seats.bots_may_play`), the substitute bot when
the turn timer runs out, and the grace period after which a disconnected player counts as away.
Every waiting thing is one asyncio task, cancelled when the state moves on, so a stale timer never
acts."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from .botpool import FALLBACK, decide
from .errors import TableError
from .gamelog import bot_seed
from .settings import PLAYING

if TYPE_CHECKING:
    from .tables import Table

log = logging.getLogger("belot.server")

STORAGE_RETRY = 1.0  # seconds before a bot's action the database could not store is tried again


class Turns:
    """The bot turn or turn timer of one table, and the grace timers of its seats."""

    def __init__(self, table: Table, bot_delay: float, grace: float) -> None:
        self.table = table
        self.bot_delay = bot_delay
        self.grace = grace
        self.deadline: float | None = None  # when the turn timer of the seat to move runs out (monotonic)
        self._pending: asyncio.Task[None] | None = None  # the bot turn or turn timer waiting
        self._pending_key: tuple[int, int, bool] | None = None  # (seq, seat, by a bot) it is for
        self._failed: set[str] = set()  # bots of this table that raised: their traceback is logged once

    def seconds_left(self) -> float | None:
        return None if self.deadline is None else max(0.0, round(self.deadline - time.monotonic(), 1))

    def moved(self) -> None:
        """An action was applied: the turn timer of the previous turn no longer runs."""
        self.deadline = None

    def schedule(self) -> None:
        """After any change: let a bot move, or start the turn timer, for the seat to move.

        A change that leaves the same seat to move in the same way (someone connecting, say)
        keeps what is already waiting, so reconnecting never restarts a turn timer.
        """
        t = self.table
        key: tuple[int, int, bool] | None = None
        if t.status == PLAYING and not t.match.is_over and t.match.current_player >= 0:
            s = t.match.current_player
            if t.seats.bot_playing(s):
                key = (t.seq, s, True) if t.seats.bots_may_play() else None
            elif t.settings.turn_timer is not None:
                key = (t.seq, s, False)
        pending = self._pending
        current = asyncio.current_task()
        if key is not None and key == self._pending_key and pending is not None and not pending.done() \
                and pending is not current:
            return
        if pending is not None and not pending.done() and pending is not current:
            pending.cancel()
        self._pending, self._pending_key, self.deadline = None, key, None
        if key is None:
            return
        seq, s, bot = key
        loop = asyncio.get_running_loop()
        if bot:
            self._pending = loop.create_task(self._bot_turn(s, seq, self.bot_delay, think_first=True))
        else:
            # On expiry the seat's substitute bot makes this one action (unless it is cancelled).
            assert t.settings.turn_timer is not None
            self.deadline = time.monotonic() + t.settings.turn_timer
            self._pending = loop.create_task(self._bot_turn(s, seq, t.settings.turn_timer, think_first=False))

    async def _bot_turn(self, s: int, seq: int, delay: float, think_first: bool) -> None:
        """The bot of seat ``s`` acts, ``delay`` seconds from now at the earliest.  A bot seat's bot
        (``think_first``) thinks during the delay: it answers after the delay or its thinking,
        whichever is longer, so how long it took tells nobody that it had one card it could play (a
        forced card came after the delay, a chosen one after the delay and the thinking).  A
        substitute bot thinks only once the turn timer has run out: the person may still act."""
        start = time.monotonic()
        if not think_first:
            await asyncio.sleep(delay)
        t = self.table
        if t.seq != seq or t.status != PLAYING:
            return
        view = t.match.view(s)
        name = t.seats.bot_name(s)
        try:
            # In a worker process (`botpool.BotPool`): a bot thinking never holds up the event loop.
            # A person seated and connected here waits for it, so it goes before bot-only tables.
            action, name = await t.lobby.bots.decide(name, view, seed=bot_seed(t.seed, seq), urgent=t.seats.person_waiting(),
                                                     label=f"table {t.id}")
        except Exception:  # a faulty bot (or one this server does not know) must not stop the table
            if name in self._failed:
                log.warning("table %s: bot %s failed on seat %d again; %s decided", t.id, name, s, FALLBACK)
            else:
                self._failed.add(name)
                log.exception("table %s: bot %s failed on seat %d; %s decides its actions it fails on",
                              t.id, name, s, FALLBACK)
            try:  # a partner that played its first legal card was a free trick for the other team
                action = decide(FALLBACK, bot_seed(t.seed, seq), view)
            except Exception:
                log.exception("table %s: the fallback bot %s failed too", t.id, FALLBACK)
                action = view.legal_actions[0]
        if think_first and (rest := delay - (time.monotonic() - start)) > 0:
            await asyncio.sleep(rest)
        while True:
            if t.seq != seq or t.status != PLAYING:
                return  # the state moved on while the bot thought (or the database was away)
            try:
                t.commit(s, action, bot=True)
                return
            except TableError as e:
                if e.code == "storage_error":
                    # Not stored, so not played: the turn is tried again.  It was given up, and the
                    # table waited for ever with a bot to move once the database was back.
                    await asyncio.sleep(STORAGE_RETRY)
                    continue
                if e.code != "illegal" or action == view.legal_actions[0]:
                    return  # another server plays the table now ("moved")
                log.error("table %s: bot %s chose an illegal action: %s", t.id, name, e.message)
                action = view.legal_actions[0]

    # -- grace periods -----------------------------------------------------------------------------

    def start_grace(self, s: int) -> None:
        """The player of seat ``s`` is not connected: after the grace period its seat counts as away."""
        seat = self.table.seats[s]
        if seat.grace_task is not None:
            seat.grace_task.cancel()
        seat.grace_task = asyncio.get_running_loop().create_task(self._grace(s, seat.token_hash))

    def stop_grace(self, s: int) -> None:
        seat = self.table.seats[s]
        if seat.grace_task is not None:
            seat.grace_task.cancel()
            seat.grace_task = None

    async def _grace(self, s: int, token_hash: str | None) -> None:
        await asyncio.sleep(self.grace)
        t = self.table
        seat = t.seats[s]
        if seat.connections or seat.token_hash != token_hash:
            return
        seat.away = True
        seat.grace_task = None
        log.info("table %s: seat %d away, its substitute bot plays", t.id, s)
        t.messages.broadcast()
        self.schedule()

    def close(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
        for seat in self.table.seats:
            if seat.grace_task is not None:
                seat.grace_task.cancel()


__all__ = ["Turns"]
