"""Bot decisions in worker processes: legal answers, persons first, a budget with a fallback."""

from __future__ import annotations

import asyncio
import logging
import random

from belot.game import Match
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
