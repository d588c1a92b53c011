"""The seven attacks of issue 19, run again against a real `belot serve`, with their figures.

Each attack once took an open server down (a 500 for every lobby visitor, a core held by bots
nobody watches, empty replies once one client held 1,003 sockets, a 13.8 MB lobby after a table
flood, a 200 MB body read whole, a traceback per huge integer, two servers on one database). The
script starts a server with the default limits (a fresh SQLite file in a temporary folder), runs
each attack from this process, and prints what the server answered and how fast it stayed; at the
end it counts tracebacks and 500s in the server's log (both must be 0). It never fails on timing.

    python bench/abuse.py                 # all seven
    python bench/abuse.py --only 3 5      # some of them
    python bench/abuse.py --flood 5000    # tables stored directly for the lobby and restart figures
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import websockets
from argtypes import positive, whole
from running import run

SERVER = Path(__file__).resolve().parent.parent


class Server:
    def __init__(self, db: Path, log: Path, *flags: str) -> None:
        self.db, self.log = db, log
        self.err = open(log, "a")  # noqa: SIM115 - the server's log, for the whole run
        t0 = time.perf_counter()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "belot", "serve", "--host", "127.0.0.1", "--port", "0", "--db", str(db),
             "--log-level", "info", *flags],
            stdout=subprocess.PIPE, stderr=self.err, text=True,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line.startswith("belot serve: http://"):
            raise SystemExit(f"abuse: the server did not start: {line!r}")
        self.url = line.split()[2].rstrip("/")
        # uvicorn's access log goes to stdout: drain it into the log (a full pipe would stop the server)
        threading.Thread(target=self._drain, daemon=True).start()
        while True:  # up when the health endpoint answers (after restoring the tables)
            try:
                if httpx.get(f"{self.url}/api/health", timeout=30).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.05)
        self.started_in = time.perf_counter() - t0

    def _drain(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.err.write(line)

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=30)
        self.err.close()


def timed(fn: object, n: int) -> list[float]:
    out = []
    for _ in range(n):
        t = time.perf_counter()
        fn()  # type: ignore[operator]
        out.append((time.perf_counter() - t) * 1000)
    return out


def ms(xs: list[float]) -> str:
    return f"median {statistics.median(xs):.1f} ms, max {max(xs):.1f} ms"


def error(r: httpx.Response) -> str:
    try:
        e = r.json()["error"]
        return f"{r.status_code} {e['code']}: {e['message'][:90]}"
    except (ValueError, KeyError, TypeError):
        return f"{r.status_code} {r.text[:90]!r}"


def stored_tables(db: Path) -> int:
    import sqlite3

    with sqlite3.connect(db) as c:
        return int(c.execute("SELECT COUNT(*) FROM belot_tables").fetchone()[0])


# -- the attacks ----------------------------------------------------------------------------------

def attack_1_names(s: Server, tmp: Path) -> Server:
    print("1. bad names")
    before = stored_tables(s.db)
    with httpx.Client(base_url=s.url, timeout=30) as http:
        print("   POST /api/tables names [\"\\ud800\", ...]  ->", error(http.post(
            "/api/tables", content='{"names": ["\\ud800", null, null, null]}')))
        print("   POST /api/tables seat 0, name \"\\ud800\"  ->", error(http.post(
            "/api/tables", content='{"seat": 0, "name": "\\ud800"}')))
        tid = http.post("/api/tables", json={}).json()["table"]["id"]
        print("   POST join name \"\\ud800\"                 ->", error(http.post(
            f"/api/tables/{tid}/join", content='{"seat": 0, "name": "\\ud800"}')))
        print(f"   tables stored by the refused requests: {stored_tables(s.db) - before - 1}; "
              f"GET /api/tables -> {http.get('/api/tables').status_code}")
    s.stop()
    s = Server(s.db, s.log)
    print(f"   after a restart: GET /api/tables -> {httpx.get(s.url + '/api/tables').status_code}")
    return s


async def person_waits(url: str, turns: int, delay: float) -> list[float]:
    """A person with three heuristic bots: each wait for the three bots, in seconds."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        r = await http.post("/api/tables", json={"seats": ["human"] + ["bot:heuristic"] * 3, "seat": 0,
                                                  "target": 10_000})
        tid, token = r.json()["table"]["id"], r.json()["token"]
    waits: list[float] = []
    async with websockets.connect(f"{url.replace('http', 'ws')}/api/tables/{tid}/ws?token={token}") as ws:
        sent_seq, sent_at = -1, 0.0
        while len(waits) < turns:
            m = json.loads(await ws.recv())
            if m["type"] == "state" and m["view"]["legal"] and m["seq"] > sent_seq:
                if sent_seq >= 0 and m["seq"] == sent_seq + 4:
                    waits.append(time.perf_counter() - sent_at)
                sent_seq, sent_at = m["seq"], time.perf_counter()
                await ws.send(json.dumps({"type": "action", "action": m["view"]["legal"][0], "seq": m["seq"]}))
    return waits


def attack_2_bot_tables(s: Server, tmp: Path) -> Server:
    print("2. twenty tables of four bot:pimc, nobody connected")
    with httpx.Client(base_url=s.url, timeout=30) as http:
        answers = [http.post("/api/tables", json={"seats": ["bot:pimc"] * 4, "target": 10_000}) for _ in range(20)]
        ok = sum(r.status_code == 201 for r in answers)
        refused = [r for r in answers if r.status_code != 201]
        print(f"   created {ok}, refused {len(refused)}" + (f" ({error(refused[0])})" if refused else ""))
        time.sleep(2)
        cpu0, t0 = _cpu(s.proc.pid), time.perf_counter()
        health = timed(lambda: http.get("/api/health"), 100)
        waits = asyncio.run(person_waits(s.url, 8, 0.5))
        cpu = (_cpu(s.proc.pid) - cpu0) / (time.perf_counter() - t0)
    print(f"   health: {ms(health)}; a person's wait for 3 heuristic bots (bot delay 0.5 s, 1.5 s): "
          f"median {statistics.median(waits):.2f} s, max {max(waits):.2f} s; server process {100 * cpu:.0f}% of a core "
          "(the bots think in worker processes)")
    return s


def _cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _hold_sockets(url: str, path: str, n: int) -> tuple[int, dict[str, int], list[float]]:
    accepted, closes = 0, dict[str, int]()
    socks = []

    async def one() -> None:
        nonlocal accepted
        try:
            ws = await websockets.connect(url.replace("http", "ws") + path, open_timeout=60)
        except websockets.InvalidStatus as e:  # refused before the upgrade: too many connections
            key = f"HTTP {e.response.status_code} before the upgrade"
            closes[key] = closes.get(key, 0) + 1
            return
        socks.append(ws)
        first = json.loads(await ws.recv())
        if first["type"] == "state":
            accepted += 1
        else:
            try:
                await ws.recv()
            except websockets.ConnectionClosed as e:
                key = f"{e.rcvd.code if e.rcvd else None} {e.rcvd.reason if e.rcvd else ''}"
                closes[key] = closes.get(key, 0) + 1

    await asyncio.gather(*(one() for _ in range(n)), return_exceptions=True)
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        health = []
        for _ in range(50):
            t = time.perf_counter()
            r = await http.get("/api/health")
            assert r.status_code == 200
            health.append((time.perf_counter() - t) * 1000)
    for ws in socks:
        await ws.close()
    return accepted, closes, health


def attack_3_connections(s: Server, tmp: Path) -> Server:
    print("3. one client holds 1,003 idle sockets, then opens 1,003 websockets, then 5,000 on one table")
    import socket

    host, port = s.url.removeprefix("http://").split(":")
    held, refused = [], 0
    for _ in range(1003):
        c = socket.create_connection((host, int(port)), timeout=10)
        held.append(c)
    time.sleep(0.5)
    for c in held:
        c.setblocking(False)
        with contextlib.suppress(BlockingIOError):  # nothing to read: held open
            refused += c.recv(64).startswith(b"HTTP/1.1 429")
    # Another client: another loopback address (Linux routes all of 127/8 to lo).
    with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"), timeout=30) as other:
        health = timed(lambda: other.get(s.url + "/api/health").raise_for_status(), 50)
    own = httpx.get(s.url + "/api/health", timeout=30)
    print(f"   1003 idle sockets: {1003 - refused} held, {refused} answered 429 at once and closed; "
          f"another client's health meanwhile: {ms(health)}; the same client's: {error(own)}")
    for c in held:
        c.close()
    tid = httpx.post(s.url + "/api/tables", json={}).json()["table"]["id"]
    for n in (1003, 5000):
        accepted, closes, health = asyncio.run(_hold_sockets(s.url, f"/api/tables/{tid}/ws", n))
        print(f"   {n} sockets: {accepted} accepted, the rest closed: {closes}; "
              f"meanwhile plain HTTP health: {ms(health)}")
    return s


def attack_4_flood(s: Server, tmp: Path, flood: int) -> Server:
    print("4. table flooding")
    t0, codes = time.perf_counter(), dict[int, int]()
    with httpx.Client(base_url=s.url, timeout=30) as http:
        while time.perf_counter() - t0 < 5:
            r = http.post("/api/tables", json={})
            codes[r.status_code] = codes.get(r.status_code, 0) + 1
        first_refusal = error(http.post("/api/tables", json={}))
    print(f"   5 s of POST /api/tables from one address: {codes} ({first_refusal})")
    s.stop()
    print(f"   {flood} waiting tables stored directly (as if from {flood} addresses):")
    sys.path.insert(0, str(SERVER / "src"))
    from belot.server.gamelog import deal_row, new_match
    from belot.server.settings import Settings
    from belot.server.storage import Storage

    store = Storage(f"sqlite:///{s.db}")
    settings = Settings().to_json()
    for _ in range(flood):
        seed = secrets.randbits(62)
        store.create_table(secrets.token_hex(5), seed, settings, "waiting", deal_row(new_match(151, seed), 0),
                           open=True)
    store.close()
    s = Server(s.db, s.log)
    with httpx.Client(base_url=s.url, timeout=30) as http:
        first = timed(lambda: http.get("/api/tables"), 1)
        page = timed(lambda: http.get("/api/tables"), 50)
        size = len(http.get("/api/tables").content)
    wal = s.db.with_name(s.db.name + "-wal")
    print(f"   restart with {stored_tables(s.db)} stored tables: {s.started_in:.2f} s to the first health answer")
    print(f"   GET /api/tables (first page of 50): first {first[0]:.1f} ms, then {ms(page)}, {size / 1024:.0f} KB; "
          f"journal {wal.stat().st_size / 2**20 if wal.exists() else 0:.1f} MB")
    return s


def attack_5_body(s: Server, tmp: Path) -> Server:
    print("5. a 200 MB request body")
    rss0 = s.rss_mb()
    chunk = b" " * (1 << 20)

    def body() -> Iterator[bytes]:
        for _ in range(200):
            yield chunk

    for how, headers in (("with Content-Length", {"content-length": str(200 << 20)}), ("chunked", {})):
        t = time.perf_counter()
        try:
            r = httpx.post(s.url + "/api/tables", content=body(), headers=headers, timeout=60)
            answer = error(r)
        except httpx.HTTPError as e:  # the server answered and closed while the body was still coming
            answer = f"connection closed by the server ({type(e).__name__})"
        print(f"   {how}: {answer} in {(time.perf_counter() - t) * 1000:.0f} ms; "
              f"server memory {s.rss_mb() - rss0:+.1f} MB")
    return s


def attack_6_numbers(s: Server, tmp: Path) -> Server:
    print("6. huge integers and deep nesting")
    with httpx.Client(base_url=s.url, timeout=30) as http:
        print("   HTTP integer of 4,301 digits ->", error(http.post("/api/tables", content='{"target": 1' + "0" * 4300 + "}")))
        print("   HTTP body nested 100,000 deep ->", error(http.post("/api/tables", content="[" * 100_000)))
        print("   HTTP body nested 60,000 deep  ->", error(http.post("/api/tables", content="[" * 60_000)))
        r = http.post("/api/tables", json={"seats": ["human", "bot", "bot", "bot"], "seat": 0})
        tid, token = r.json()["table"]["id"], r.json()["token"]

    async def ws() -> None:
        async with websockets.connect(f"{s.url.replace('http', 'ws')}/api/tables/{tid}/ws?token={token}") as w:
            await w.recv()
            for label, text in (("integer of 4,301 digits", '{"type": "action", "action": {"call": "pass"}, "seq": 1'
                                 + "0" * 4300 + "}"), ("nested 30,000 deep", "[" * 30_000)):
                await w.send(text)
                m = json.loads(await w.recv())
                while m["type"] != "error":
                    m = json.loads(await w.recv())
                print(f"   websocket {label} -> error {m['code']}: {m['message']}; socket open: "
                      f"{w.state.name == 'OPEN'}")

    asyncio.run(ws())
    return s


def attack_7_second_server(s: Server, tmp: Path) -> Server:
    print("7. a second belot serve on the same database")
    r = subprocess.run([sys.executable, "-m", "belot", "serve", "--port", "0", "--db", str(s.db)],
                       capture_output=True, text=True, timeout=60)
    print(f"   exit status {r.returncode}: {r.stderr.strip()}")
    return s


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", type=whole(1, 7, "an attack number"), nargs="*", default=[1, 2, 3, 4, 5, 6, 7],
                    metavar="N", help="the attacks to run, 1 to 7 (default all)")
    ap.add_argument("--flood", type=positive, default=20_000, help="tables stored for attack 4's figures (default 20000)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="belot-abuse-") as tmp_name:
        tmp = Path(tmp_name)
        log = tmp / "server.log"
        s = Server(tmp / "belot.sqlite3", log)
        try:
            for n in args.only:
                if n == 4:
                    s = attack_4_flood(s, tmp, args.flood)
                else:
                    s = globals()[next(k for k in globals() if k.startswith(f"attack_{n}_"))](s, tmp)
        finally:
            s.stop()
        text = log.read_text()
        print(f"server log: {text.count('Traceback')} tracebacks, {text.count(' 500 ')} answers 500, "
              f"{text.count('WARNING')} warnings, {text.count('ERROR')} errors")


if __name__ == "__main__":
    run(main)
