"""Bot decisions in worker processes: legal answers, persons first, a budget with a fallback."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from concurrent.futures import Future
from multiprocessing.process import BaseProcess

from belot.bots import make_bot
from belot.game import CALL_BASE, PASS, Deal, Match, deal_hands
from belot.server.botpool import BotPool


def _views(n: int) -> list:
    m = Match(rng=random.Random(11))
    return [m.view(m.current_player) for _ in range(n)]


def test_decisions_are_legal_and_urgent_jobs_go_first():
    view = _views(1)[0]

    async def run() -> list[str]:
        pool = BotPool(workers=1, budget=60.0, warm=False)
        done: list[str] = []

        async def one(tag: str, urgent: bool) -> None:
            action, by = await pool.decide("heuristic", view, seed=1, urgent=urgent)
            assert action in view.legal_actions and by == "heuristic"
            done.append(tag)

        try:
            background = [asyncio.create_task(one(f"bot{i}", False)) for i in range(6)]
            await asyncio.sleep(0)  # the dispatcher takes bot0; the others wait in the queue
            person = asyncio.create_task(one("person", True))
            await asyncio.gather(*background, person)
        finally:
            await pool.aclose()
        return done

    done = asyncio.run(run())
    assert done.index("person") <= 1, done  # only the job already running went before it


def test_an_overrun_is_answered_by_the_fallback_and_logged(caplog):
    view = _views(1)[0]

    async def run() -> tuple[int, str, int]:
        pool = BotPool(workers=1, budget=0.001, warm=False)
        try:
            action, by = await pool.decide("pimc", view, seed=1, urgent=True, label="table T1")
            return action, by, pool.overruns
        finally:
            await pool.aclose()

    with caplog.at_level(logging.WARNING, logger="belot.server"):
        action, by, overruns = asyncio.run(run())
    assert action in view.legal_actions
    assert by == "heuristic" and overruns == 1
    assert "table T1: bot pimc overran its 0.0 s budget; heuristic decided instead" in caplog.text


def test_quick_bots_decide_inline_without_a_worker():
    view = _views(1)[0]

    async def run() -> tuple[int, str]:
        pool = BotPool(workers=1, budget=60.0, warm=False, inline=frozenset({"heuristic"}))
        try:
            return await pool.decide("bot:heuristic", view, seed=1, urgent=True)
        finally:
            assert pool._executor is None  # no worker was started
            await pool.aclose()

    action, by = asyncio.run(run())
    assert action in view.legal_actions and by == "bot:heuristic"


def _busy_worker(pool: BotPool, seconds: float) -> tuple[Future[None], BaseProcess]:
    """The pool's one worker, busy for ``seconds`` (waits until the task has started)."""
    busy = pool._pool().submit(time.sleep, seconds)
    (worker,) = pool._pool()._processes.values()
    deadline = time.monotonic() + 30
    while not busy.running() and time.monotonic() < deadline:
        time.sleep(0.05)
    return busy, worker


def test_close_terminates_a_worker_that_does_not_finish_within_the_grace(caplog):
    """A shutdown waits for a decision under way, but not for ever: bot workers run on idle CPU time
    only, so on a machine other programs keep busy a decision may not finish while the load lasts."""
    pool = BotPool(workers=1, budget=60.0, warm=False)
    busy, worker = _busy_worker(pool, 60)  # a decision that will not end within the grace
    assert busy.running()
    started = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="belot.server"):
        pool.close(wait=True, grace=0.5)
    assert time.monotonic() - started < 10
    assert not worker.is_alive() and pool._executor is None
    assert f"bot worker {worker.pid} still busy" in caplog.text


def test_close_waits_for_a_decision_that_ends_within_the_grace():
    pool = BotPool(workers=1, budget=60.0, warm=False)
    busy, worker = _busy_worker(pool, 0.5)
    pool.close(wait=True, grace=20)
    assert busy.result(timeout=0) is None  # finished, not terminated
    assert not worker.is_alive()


def _swapped(dealer: int, hands: list[list[int]], actions: list[int], seat: int,
             rng: random.Random) -> list[list[int]] | None:
    """``hands`` with two cards ``seat`` has not seen swapped between two other seats (any card of
    theirs during the auction or in a deal all four passed, R2.3; else an unplayed one) such that
    ``actions`` still replay: a deal ``seat`` cannot tell apart.  None when no swap tried replays."""
    deal = Deal(dealer, hands)
    for a in actions:
        deal.apply(a)
    played = {a & 31 for a in deal.actions if a < CALL_BASE}
    a, b = rng.sample([s for s in range(4) if s != seat], 2)
    for _ in range(50):
        i = rng.choice([k for k in range(8) if hands[a][k] not in played])
        j = rng.choice([k for k in range(8) if hands[b][k] not in played])
        other = [h[:] for h in hands]
        other[a][i], other[b][j] = hands[b][j], hands[a][i]
        twin = Deal(dealer, other)
        if all(twin.is_legal(x) and twin.apply(x) is None for x in actions):
            return other
    return None


def test_what_a_bot_worker_receives_is_the_same_in_matches_its_seat_cannot_tell_apart() -> None:
    """The seat's view is all a bot is sent (`botpool.decide`'s arguments, pickled for the worker):
    in two matches that differ only in cards hidden from the seat, in the deal in play and in an
    earlier deal all four passed (whose hands were never shown), the bytes sent are the same, and so
    is every bot's decision."""
    from multiprocessing.reduction import ForkingPickler

    from belot.bots.expert import ExpertBot
    from belot.bots.pimc import PimcBot
    from belot.server.botpool import decide

    bots = [lambda s: make_bot("random", s), lambda s: make_bot("heuristic", s),
            lambda s: PimcBot(s, play_nodes=30_000, min_worlds=2, max_worlds=4, bid_nodes=200_000,
                              bid_worlds=2, min_bid_worlds=2),
            lambda s: ExpertBot(s, play_nodes=30_000, min_worlds=2, max_worlds=4, bid_nodes=200_000,
                                bid_worlds=2, min_bid_worlds=2)]
    rng = random.Random(5)
    checked = 0
    while checked < 8:
        dealer = rng.randrange(4)
        passed = deal_hands(rng, dealer)  # deal 0: all four pass
        hands = deal_hands(rng, (dealer + 1) & 3)
        deal = Deal((dealer + 1) & 3, hands)
        actions: list[int] = []
        for _ in range(rng.randrange(0, 30)):
            actions.append(make_bot("random", rng.randrange(1 << 30)).act(deal.view(deal.to_move)))
            deal.apply(actions[-1])
        if deal.is_over:
            continue
        seat = deal.to_move
        passes = [CALL_BASE + PASS] * 4
        twins = (_swapped(dealer, passed, passes, seat, rng), _swapped(deal.dealer, hands, actions, seat, rng))
        if None in twins:
            continue
        views = []
        for first, current in ((passed, hands), twins):
            m = Match(first_dealer=dealer)
            for d_hands, d_actions in ((first, passes), (current, actions)):
                m.deal(d_hands)
                for x in d_actions:
                    m.apply(x)
            views.append(m.view(seat))
        assert views[0] == views[1]
        sent = [bytes(ForkingPickler.dumps((decide, "expert", 7, v))) for v in views]
        assert sent[0] == sent[1]
        for make in bots:
            assert make(7).act(views[0]) == make(7).act(views[1])
        checked += 1
