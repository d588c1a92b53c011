"""When a bot seat acts: never before the table's bot delay, and its thinking inside that delay, so
the time a bot takes does not tell a forced card (the only one it could play) from a chosen one."""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path

import pytest

pytest.importorskip("httpx")
from starlette.testclient import TestClient

from belot.game import SeatView
from belot.record import replay
from belot.server.app import create_app
from belot.server.botpool import FALLBACK, InlineBots, decide

DELAY = 0.8


class SlowBots(InlineBots):
    """Every bot thinks ``think`` seconds, then takes its first legal action."""

    def __init__(self, think: float) -> None:
        self.think = think

    async def decide(self, name, view, *, seed, urgent, label=""):  # type: ignore[no-untyped-def]
        await asyncio.sleep(self.think)
        return view.legal_actions[0], name


def _seconds_for(tmp_path: Path, think: float, actions: int) -> float:
    """Seconds a table of four bots takes for its first ``actions`` actions."""
    app = create_app(f"sqlite:///{tmp_path / f'{think}.sqlite3'}", bot_delay=DELAY, bots=SlowBots(think))
    with TestClient(app) as client:
        start = time.monotonic()
        table = client.post("/api/tables", json={"seats": ["bot:random"] * 4, "target": 31}).json()["table"]["id"]
        while (seq := client.get(f"/api/tables/{table}/state").json()["seq"]) < actions:
            assert time.monotonic() - start < 30, seq
            time.sleep(0.02)
        return time.monotonic() - start


def test_a_bots_thinking_is_inside_the_delay_and_a_forced_card_waits_as_long(tmp_path: Path) -> None:
    """Three actions of bots that think 0.6 s with a 0.8 s delay take about 2.4 s, not 4.2 s (thinking
    after the delay); bots that answer at once take as long: nobody can tell the two apart."""
    thinking = _seconds_for(tmp_path, 0.6, 3)
    at_once = _seconds_for(tmp_path, 0.0, 3)
    assert 3 * DELAY <= thinking < 3 * DELAY + 1.2, thinking
    assert 3 * DELAY <= at_once < 3 * DELAY + 1.2, at_once
    assert abs(thinking - at_once) < 0.8, (thinking, at_once)


class FailingBots(InlineBots):
    """Every bot raises (a bot this server does not know, say), noting what it was asked."""

    def __init__(self) -> None:
        self.asked: list[tuple[SeatView, int]] = []

    async def decide(self, name, view, *, seed, urgent, label=""):  # type: ignore[no-untyped-def]
        self.asked.append((view, seed))
        raise KeyError(name)


def test_a_failing_bot_is_replaced_by_the_fallback_bot_and_logged_once(tmp_path: Path,
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    """A bot that raised was replaced by its first legal action, and its traceback logged at every
    action: a pass in every auction, so a table of such bots dealt for ever (and a person's failing
    partner gave tricks away).  The fallback bot (`botpool.FALLBACK`, with the turn's seed) decides
    instead, the match ends, and each failing bot's traceback is logged once."""
    bots = FailingBots()
    app = create_app(f"sqlite:///{tmp_path / 'belot.sqlite3'}", bot_delay=0.0, bots=bots)
    with caplog.at_level(logging.WARNING, logger="belot.server"), TestClient(app) as client:
        table = client.post("/api/tables", json={"seats": ["bot:pimc", "bot:random"] * 2, "target": 31}).json()["table"]["id"]
        start = time.monotonic()
        while client.get(f"/api/tables/{table}").json()["table"]["status"] != "finished":  # its record is out then
            assert time.monotonic() - start < 20, "the bots' table never ends"
            time.sleep(0.05)
        doc = client.get(f"/api/tables/{table}/record").json()
    played = [a for deal in replay(doc).deals for a in deal.actions]
    assert len(played) == len(bots.asked) > 24
    assert played == [decide(FALLBACK, seed, view) for view, seed in bots.asked]
    tracebacks = [r for r in caplog.records if r.exc_info]
    assert sorted(r.getMessage().split()[3] for r in tracebacks) == ["bot:pimc", "bot:random"], tracebacks
