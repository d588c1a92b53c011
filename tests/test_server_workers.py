"""Several `belot serve --worker` processes on one PostgreSQL database, behind haproxy
(deploy/haproxy.cfg): each table has one owner; when the owner is killed (SIGKILL) in the middle
of deals, the other worker takes its tables over from the stored record, the clients reconnect
through the proxy, and every table finishes with every acknowledged action in its record once."""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pg
import pytest
from test_server_restart import play_humans, start_server

from belot.cards import CARD_NAMES
from belot.game import CHANCE, Match
from belot.record import action_of, replay
from belot.server.botpool import decide
from belot.server.gamelog import bot_seed, deal_next, new_match
from belot.server.protocol import action_from_json, action_to_json
from belot.server.storage import Storage

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_haproxy(workers: list[str], tmp: Path) -> tuple[subprocess.Popen[bytes], str]:
    haproxy = shutil.which("haproxy")
    if haproxy is None:
        pg.unavailable("haproxy is not installed (apt-get install haproxy)")
    assert haproxy is not None
    port = free_port()
    env = {**os.environ, "BELOT_LISTEN": f"127.0.0.1:{port}",
           "BELOT_W1": workers[0].removeprefix("http://"), "BELOT_W2": workers[1].removeprefix("http://")}
    proc = subprocess.Popen([haproxy, "-db", "-f", str(ROOT / "deploy" / "haproxy.cfg")], env=env,
                            stdout=subprocess.DEVNULL, stderr=(tmp / "haproxy.log").open("wb"))
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(url + "/api/health", timeout=1).status_code == 200:
                return proc, url
        time.sleep(0.1)
    proc.kill()
    raise AssertionError("haproxy did not start: " + (tmp / "haproxy.log").read_text())


def retrying(call: Any, timeout: float = 20.0) -> Any:
    """``call()`` until it answers other than 502/503 or a connection error (a worker is away)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            r = call()
            if r.status_code not in (502, 503, 504):
                return r
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            raise AssertionError("no worker answered")
        time.sleep(0.2)


BOTS = ("bot:random", "bot:heuristic")


def person(table: str, seq: int, legal: list[int]) -> int:
    """The scripted person's choice among ``legal`` at action ``seq`` of ``table``: the same
    wherever and whenever the table is played."""
    return sorted(legal)[random.Random(f"{table}/{seq}").randrange(len(legal))]


def played_without_a_kill(table: str, seed: int, seats: list[str], target: int) -> Match:
    """The table's game played in this process, no server, no kill: the hands its seed deals, the
    bots' decisions with the seeds the server gives them, the person's scripted choices."""
    match = new_match(target, seed)
    seq = 0
    while not match.is_over:
        if match.current_player == CHANCE:
            deal_next(match, seed)
        s = match.current_player
        view = match.view(s)
        if seats[s] == "human":
            match.apply(person(table, seq, view.legal_actions))
        else:
            match.apply(decide(seats[s], bot_seed(seed, seq), view))
        seq += 1
    return match


class Person:
    """A person at seat 0 of a table, over a websocket through the proxy, making the scripted
    choices; remembers every action the server acknowledged (a state past it arrived)."""

    def __init__(self, url: str, table: str, token: str) -> None:
        self.ws_url = f"{url.replace('http', 'ws')}/api/tables/{table}/ws?token={token}"
        self.table = table
        self.acknowledged: dict[int, Any] = {}  # seq -> the action the person was told was played
        self.pending: dict[int, Any] = {}  # sent, not yet seen played

    def turn(self, m: dict[str, Any], ws: Any) -> bool:
        """Read one message; act when it is the person's turn.  True when the match is over."""
        if m["type"] == "error":
            self.pending.clear()
            return False
        if m["type"] != "state":
            return False
        for k in [k for k in self.pending if k < m["seq"]]:
            self.acknowledged[k] = self.pending.pop(k)
        if m["view"]["winner"] is not None:
            return True
        if m["view"]["to_move"] == 0 and m["view"]["legal"] and m["seq"] not in self.pending \
                and m["table"]["status"] == "playing":
            choice = person(self.table, m["seq"], [action_from_json(a) for a in m["view"]["legal"]])
            self.pending[m["seq"]] = action_to_json(choice)
            ws.send(json.dumps({"type": "action", "action": self.pending[m["seq"]], "seq": m["seq"]}))
        return False

    def play(self, until_acknowledged: int | None = None, timeout: float = 60) -> None:
        """Play (reconnecting through the proxy when a worker goes away) until that many actions
        are acknowledged, or to the end of the match."""
        import websockets.sync.client as ws_client
        from websockets.exceptions import WebSocketException

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with ws_client.connect(self.ws_url, open_timeout=5) as ws:
                    while True:
                        if self.turn(json.loads(ws.recv(timeout=15)), ws):
                            return
                        if until_acknowledged is not None and len(self.acknowledged) >= until_acknowledged:
                            return
            except (OSError, TimeoutError, WebSocketException):
                time.sleep(0.3)
        raise AssertionError(f"the person at table {self.table} did not get there")


@pytest.mark.slow
def test_owner_killed_mid_deal_its_tables_finish_on_the_other_worker(tmp_path: Path) -> None:
    """Two workers behind haproxy; tables on both, two played by a person each over a websocket
    through the proxy, the others by bots; the owner of the first person's table is SIGKILLed
    mid-deal.  Every table finishes on the other worker with the very game it plays without a
    kill: the same hands, the same actions, the same score."""
    db = pg.cluster().new_database()
    storage = Storage(db)
    workers = [start_server(db, "--worker", "--bot-delay", "0.05") for _ in range(2)]
    procs = [p for p, _ in workers]
    proxy, url = start_haproxy([u for _, u in workers], tmp_path)
    tables: dict[str, tuple[list[str], int]] = {}  # id -> (seats, target)
    people: list[Person] = []
    try:
        with httpx.Client(base_url=url, timeout=10) as http:
            # Created round-robin: the tables are spread over both workers.  The bots' own tables
            # play to 151, so that none is over before the kill, however slow the people are (on
            # a machine kept busy by other programs a match to 41 was).
            for i in range(6):
                if i < 4:
                    kinds = [BOTS[(i + s) % 2] for s in range(4)]
                    t = http.post("/api/tables", json={"seats": kinds, "target": 151}).json()["table"]["id"]
                    tables[t] = kinds, 151
                    continue
                kinds = ["human", "bot:random", "bot:heuristic", "bot:random"]
                r = http.post("/api/tables", json={"seats": kinds, "target": 41, "seat": 0})
                t = r.json()["table"]["id"]
                tables[t] = kinds, 41
                people.append(Person(url, t, r.json()["token"]))
            # The people play over their websockets through the proxy until some actions are in.
            for p in people:
                p.play(until_acknowledged=6)
            ids = list(tables)
            owners = {t: storage.owner_of(t) for t in ids}
            before = {t: storage.load(t) for t in ids}
            assert all(s is not None and s.status == "playing" for s in before.values()), \
                {t: s and s.status for t, s in before.items()}
            assert all(o is not None for o in owners.values()), owners
            # Kill the first person's table's owner mid-deal.
            victim_url = owners[people[0].table][1]  # type: ignore[index]
            victim = next(p for p, u in workers if u == victim_url)
            orphaned = [t for t, o in owners.items() if o is not None and o[1] == victim_url]
            killed_at = time.monotonic()
            os.kill(victim.pid, signal.SIGKILL)
            victim.wait(timeout=10)
            survivor = next(u for p, u in workers if p is not victim)
            for t in orphaned:
                while (o := storage.owner_of(t)) is None or o[1] != survivor:
                    if storage.load(t).status == "finished":  # type: ignore[union-attr]
                        break
                    assert time.monotonic() - killed_at < 10, "no worker took the tables over within 10 s"
                    time.sleep(0.1)
            # The people reconnect through the proxy and play to the end.
            for p in people:
                p.play()
            for t in ids:
                deadline = time.monotonic() + 60
                while True:
                    info = retrying(lambda t=t: http.get(f"/api/tables/{t}")).json()["table"]
                    if info["status"] == "finished":
                        break
                    assert time.monotonic() < deadline, info
                    time.sleep(0.3)
            records = {t: retrying(lambda t=t: http.get(f"/api/tables/{t}/record")).json() for t in ids}
    finally:
        for p in [*procs, proxy]:
            p.kill()
            p.wait(timeout=10)
    assert len(orphaned) >= 2 and len(orphaned) < len(ids)  # the kill took tables away, not all of them
    for t in ids:
        after = storage.load(t)
        stored_before = before[t]
        assert after is not None and stored_before is not None and after.status == "finished"
        # Nothing stored before the kill is lost, changed or repeated.
        assert after.moves[: len(stored_before.moves)] == stored_before.moves
        # The record equals the same seeded game played without the kill: the same hands, every
        # action the same (by the same seat, a bot's or the person's), the same score.
        same = played_without_a_kill(t, after.seed, *tables[t])
        assert [(seat, action_of(move)) for seat, move, _bot in after.moves] == \
            [(seat, a) for d in same.deals for seat, a in zip(d.actors, d.actions)]
        assert [[[CARD_NAMES[c] for c in h] for h in d.dealt] for d in same.deals] == \
            [d["hands"] for d in records[t]["deals"]]
        played = replay(records[t])
        assert [d.actions for d in played.deals] == [d.actions for d in same.deals]
        assert played.score == same.score and played.is_over
    # Every action a person was told was played is in the record, at its seq, once.
    for p in people:
        moves = storage.load(p.table).moves  # type: ignore[union-attr]
        assert len(p.acknowledged) >= 6
        for seq, action in p.acknowledged.items():
            assert moves[seq][0] == 0 and action_of(moves[seq][1]) == action_from_json(action)
    storage.close()


def test_worker_needs_a_database_server(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "belot", "serve", "--worker", "--db", str(tmp_path / "x.sqlite3")],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "--worker needs a database server" in r.stderr


@pytest.mark.slow
def test_every_worker_lists_every_table_and_forwards_to_its_owner() -> None:
    """The lobby and the finished games of any worker hold every worker's tables; a request or a
    websocket for a table another worker owns is answered by the owner (forwarded)."""
    import websockets.sync.client as ws_client

    db = pg.cluster().new_database()
    workers = [start_server(db, "--worker", "--bot-delay", "0") for _ in range(2)]
    try:
        (_, a), (_, b) = workers
        with httpx.Client(timeout=10) as http:
            waiting = http.post(f"{a}/api/tables", json={"seats": ["human", "bot:random", "human", "bot:random"]})
            tid = waiting.json()["table"]["id"]
            bots = http.post(f"{b}/api/tables", json={"seats": ["bot:random"] * 4, "target": 41}).json()["table"]["id"]
            for url in (a, b):
                assert tid in [t["id"] for t in http.get(f"{url}/api/tables").json()["tables"]]
            # Joining through the worker that does not own the table: the owner seats the player.
            j = http.post(f"{b}/api/tables/{tid}/join", json={"seat": 0, "name": "ana"})
            assert j.status_code == 200, j.text
            token = j.json()["token"]
            assert http.get(f"{a}/api/tables/{tid}/state", params={"token": token}).json()["you"]["seat"] == 0
            with ws_client.connect(f"{b.replace('http', 'ws')}/api/tables/{tid}/ws?token={token}") as ws:
                m = json.loads(ws.recv(timeout=10))
                assert m["type"] == "state" and m["table"]["seats"][0]["name"] == "ana"
            deadline = time.monotonic() + 60
            while http.get(f"{b}/api/tables/{bots}").json()["table"]["status"] != "finished":
                assert time.monotonic() < deadline
                time.sleep(0.2)
            for url in (a, b):
                finished = http.get(f"{url}/api/tables", params={"all": True}).json()["tables"]
                assert {tid, bots} <= {t["id"] for t in finished}
                assert http.get(f"{url}/api/tables/{bots}/record").status_code == 200
    finally:
        for p, _ in workers:
            p.kill()
            p.wait(timeout=10)


def test_a_huge_body_for_another_workers_table_is_refused_not_held() -> None:
    """A request for a table another worker owns is forwarded with its body, which was read whole
    first, however large (and copied again at every chunk): 48 MB sent to the worker that does not own
    the table were held there.  Past the body limit the answer is 413 ``too_large`` at once."""
    db = pg.cluster().new_database()
    workers = [start_server(db, "--worker") for _ in range(2)]
    try:
        (_, a), (forwarder, b) = workers
        with httpx.Client(timeout=30) as http:
            tid = http.post(f"{a}/api/tables", json={"seats": ["human", "bot", "human", "bot"]}).json()["table"]["id"]
            status = Path(f"/proc/{forwarder.pid}/status")
            rss = lambda: int(next(x for x in status.read_text().splitlines() if x.startswith("VmRSS")).split()[1])  # noqa: E731
            before = rss()

            def chunks() -> Any:
                for _ in range(48):
                    yield b" " * (1 << 20)

            r = http.post(f"{b}/api/tables/{tid}/join", content=chunks(), headers={"content-type": "application/json"})
            assert r.status_code == 413 and r.json()["error"]["code"] == "too_large", r.text[:300]
            assert r.json()["error"]["detail"] == {"limit": 65536}
            assert rss() - before < 24 * 1024, f"the forwarding worker grew by {(rss() - before) // 1024} MiB"
            assert http.post(f"{b}/api/tables/{tid}/join", json={"seat": 0}).status_code == 200  # still forwarded
    finally:
        for p, _ in workers:
            p.kill()
            p.wait(timeout=10)


@pytest.mark.slow
def test_a_rematch_keeps_its_seats_whichever_worker_is_asked() -> None:
    """The rematch's kept seats are in the database, and a request for the rematch reaches the owner
    of the new table: a stranger is refused at any worker, the other player gets the seat through
    the worker that does not own it."""
    db = pg.cluster().new_database()
    workers = [start_server(db, "--worker", "--bot-delay", "0") for _ in range(2)]
    try:
        (_, a), (_, b) = workers
        with httpx.Client(base_url=a, timeout=10) as http:
            r = http.post("/api/tables", json={"seats": ["human", "bot:random", "human", "bot:random"], "target": 1,
                                               "seat": 0, "name": "ana"})
            tid, t0 = r.json()["table"]["id"], r.json()["token"]
            t2 = http.post(f"/api/tables/{tid}/join", json={"seat": 2, "name": "ivo"}).json()["token"]
            play_humans(http, tid, {0: t0, 2: t2}, random.Random(3), lambda m: m["view"]["winner"] is not None)
        with httpx.Client(timeout=10) as http:
            first = http.post(f"{b}/api/tables/{tid}/rematch", json={"token": t0})
            assert first.status_code == 200, first.text
            new = first.json()["table"]["id"]
            for url in (a, b):
                r = http.post(f"{url}/api/tables/{new}/join", json={"seat": 2, "name": "eve"})
                assert r.status_code == 409 and r.json()["error"]["code"] == "seat_reserved", r.text
            second = http.post(f"{a}/api/tables/{tid}/rematch", json={"token": t2})
            assert second.status_code == 200, second.text
            assert (second.json()["table"]["id"], second.json()["seat"]) == (new, 2)
            assert second.json()["table"]["status"] == "playing"
    finally:
        for p, _ in workers:
            p.kill()
            p.wait(timeout=10)


def test_a_worker_that_lost_a_table_cannot_write_into_its_history() -> None:
    """The fence of every write (docs/deploy.md): an action is stored only by the lease's holder,
    in the one-statement path of an ordinary action and in the transaction of one that deals."""
    from belot.server.storage import DealRow, LeaseLost

    db = pg.cluster().new_database()
    a, b = Storage(db), Storage(db)
    try:
        a.worker, b.worker = "a", "b"
        hands = [["7C"] * 8] * 4  # never dealt: storage does not read them
        a.create_table("t1", 1, {}, "playing", DealRow(0, 0, hands))
        assert a.claim("t1", "a") and not b.claim("t1", "b")
        a.append_action("t1", 0, 1, "P", False)
        with pytest.raises(LeaseLost):
            b.append_action("t1", 1, 2, "P", False)
        a.lease_seconds = -1.0  # a's lease expires with its next write: b takes the table over
        a.append_action("t1", 1, 2, "P", False)
        assert b.claim("t1", "b")
        for args in ({}, {"new_deals": [DealRow(1, 1, hands)]}, {"status": "finished"}):
            with pytest.raises(LeaseLost):
                a.append_action("t1", 2, 3, "P", False, **args)  # type: ignore[arg-type]
        b.append_action("t1", 2, 3, "1C", True)
        stored = b.load("t1")
        assert stored is not None and [m for _s, m, _b in stored.moves] == ["P", "P", "1C"]
        assert stored.status == "playing" and len(stored.deals) == 1
    finally:
        a.close()
        b.close()


def test_serve_without_a_database_argument_runs_on_sqlite_in_the_user_data_folder(tmp_path: Path) -> None:
    """The embedded default: `belot serve` needs no database server (only a free port here)."""
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    proc = subprocess.Popen([sys.executable, "-m", "belot", "serve", "--port", "0"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("belot serve: http://"), line
        url = line.split()[2].rstrip("/")
        r = httpx.post(url + "/api/tables", json={"seats": ["human", "bot:random", "bot:random", "bot:random"],
                                                  "seat": 0, "name": "Ayşe"}, timeout=10)
        assert r.status_code == 201, r.text
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    stored = Storage(f"sqlite:///{tmp_path / 'belot' / 'belot.sqlite3'}")
    try:
        assert stored.load(r.json()["table"]["id"]) is not None
    finally:
        stored.close()
