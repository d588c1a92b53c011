"""Crash recovery: a real `belot serve` process is killed (SIGKILL) in the middle of a deal and
started again on the same database (a SQLite file, and a PostgreSQL database: `db_url`); the table comes back with the same hands and history, the
players' tokens still hold their seats, and play goes on to the end of the match."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import random
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from belot.record import replay


def start_server(db: Path | str, *extra: str, env: dict[str, str] | None = None) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "belot", "serve", "--host", "127.0.0.1", "--port", "0", "--db", str(db),
         "--bot-delay", "0", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()  # "belot serve: http://127.0.0.1:PORT/  (database ...)"
    if not line.startswith("belot serve: http://"):
        proc.kill()
        raise AssertionError(f"server did not start: {line!r} {proc.stderr.read() if proc.stderr else ''}")
    return proc, line.split()[2].rstrip("/")


@dataclasses.dataclass
class Served:
    """A `belot serve` process of `serving`; ``out`` and ``err``: what it wrote, once stopped."""

    proc: subprocess.Popen[str]
    url: str
    out: str = ""
    err: str = ""


@contextlib.contextmanager
def serving(db: Path | str, *extra: str, env: dict[str, str] | None = None) -> Iterator[Served]:
    """`start_server`, stopped (SIGTERM) on leaving, its output kept for the test to read."""
    proc, url = start_server(db, *extra, env=env)
    served = Served(proc, url)
    try:
        yield served
    finally:
        proc.terminate()
        served.out, served.err = proc.communicate(timeout=30)


def get_state(http: httpx.Client, tid: str, token: str | None = None) -> dict[str, Any]:
    r = http.get(f"/api/tables/{tid}/state", params={"token": token} if token else {})
    assert r.status_code == 200, r.text
    m = r.json()
    m.pop("table")  # connection flags differ after a restart; the game must not
    return m


def play_humans(http: httpx.Client, tid: str, tokens: dict[int, str], rng: random.Random, until: Any) -> dict[str, Any]:
    """Scripted humans make random legal actions (the bot seat plays itself) until ``until(state)``."""
    while True:
        m = get_state(http, tid)
        if until(m):
            return m
        seat = m["view"]["to_move"]
        if seat not in tokens:
            continue  # the bot is about to move
        legal = get_state(http, tid, tokens[seat])["view"]["legal"]
        r = http.post(f"/api/tables/{tid}/action", json={"token": tokens[seat], "action": rng.choice(legal), "seq": m["seq"]})
        assert r.status_code == 200, r.text


@pytest.mark.slow
def test_sigkill_mid_deal_then_restart_resumes_same_game(db_url: str) -> None:
    db = db_url
    rng = random.Random(11)
    proc, url = start_server(db)
    try:
        with httpx.Client(base_url=url, timeout=10) as http:
            r = http.post("/api/tables", json={"seats": ["human", "human", "human", "bot:random"], "target": 41})
            tid = r.json()["table"]["id"]
            tokens = {s: http.post(f"/api/tables/{tid}/join", json={"seat": s}).json()["token"] for s in range(3)}
            # Into the play of a deal, at a human's turn (so that nothing moves while we look).
            m = play_humans(http, tid, tokens, rng, lambda m: m["view"]["phase"] == "play"
                            and len(m["view"]["tricks"]) >= 2 and m["view"]["to_move"] in tokens)
            before = {s: get_state(http, tid, t) for s, t in tokens.items()}
            before["spectator"] = get_state(http, tid)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        assert proc.returncode == -signal.SIGKILL

        proc, url = start_server(db)
        with httpx.Client(base_url=url, timeout=10) as http:
            after = {s: get_state(http, tid, t) for s, t in tokens.items()}
            after["spectator"] = get_state(http, tid)
            assert after == before  # same hands, same auction and tricks, same score, same seq
            hands = {s: set(before[s]["view"]["hand"]) for s in tokens}
            deal_index = m["view"]["deal_index"]
            final = play_humans(http, tid, tokens, rng, lambda m: m["view"]["winner"] is not None)
            doc = http.get(f"/api/tables/{tid}/record").json()
    finally:
        proc.kill()
        proc.wait(timeout=10)
    match = replay(doc)
    assert match.is_over and final["view"]["winner"] == match.winner
    dealt = doc["deals"][deal_index]["hands"]
    for s, cards in hands.items():
        assert cards <= set(dealt[s])  # the hands before the crash are the hands of the record
    assert final["seq"] == sum(len(d.actions) for d in match.deals) > m["seq"]


@pytest.mark.parametrize("form", ["path", "url"])
def test_a_sqlite_database_in_a_new_folder_is_created_in_either_form(tmp_path: Path, form: str) -> None:
    """`--db new/dir/games.db` created its folder, `--db sqlite:///new/dir/games.db` did not: the
    server refused to start with "cannot lock the database ...: No such file or directory"."""
    file = tmp_path / "new" / "dir" / "games.db"
    proc, url = start_server(file if form == "path" else f"sqlite:///{file}")
    try:
        assert httpx.get(f"{url}/api/tables").status_code == 200
        assert file.exists()
    finally:
        proc.terminate()
        proc.wait(timeout=20)
