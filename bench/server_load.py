"""Load test of `belot serve`: N concurrent tables played over real websockets on loopback.

The script starts a server process itself (a fresh SQLite file in a temporary folder), creates N
tables whose four seats are all "humans", and drives every seat from this process over its own
websocket, each choosing a random legal action when its view says it is to move (after an
optional think time).  So every action makes the full trip: client -> server -> rules core ->
SQLite commit -> broadcast of four views -> client.  It prints the round-trip latency of the
actions (from sending one to receiving the state that includes it, on the acting socket) and the
actions per second the server sustained.  It never fails on timing.

    python bench/server_load.py --tables 100 --seconds 30
    python bench/server_load.py --tables 100 --seconds 30 --think 0.5   # people take time to play
    python bench/server_load.py --tables 100 --think 0.5 --bot-tables 20 --bot pimc   # bots beside them

``--bot-tables N`` also runs N tables of four bots (``--bot``, default pimc) that nobody watches,
and ``--person-waits`` (on by default with bot tables) seats one person with three heuristic bots
and reports how long each of their turns waited for the three bots, against the bot delay the
server was given (``--bot-delay``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets
from argtypes import count, duration, positive, seconds
from running import run as run_script


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc), 0 where unavailable."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def start_server(db: Path, log_level: str, bot_delay: float, extra: list[str],
                 log: Path | None = None) -> tuple[subprocess.Popen[str], str]:
    """`belot serve` on ``db`` and a free port, its (process, URL); ``log``: where its stderr goes."""
    # One client address drives every table: the per-address limits of a public server are lifted.
    proc = subprocess.Popen(
        [sys.executable, "-m", "belot", "serve", "--host", "127.0.0.1", "--port", "0", "--db", str(db),
         "--bot-delay", str(bot_delay), "--log-level", log_level, "--ws-per-address", "100000",
         "--tables-per-minute", "100000", "--waiting-per-address", "100000", "--max-bot-tables", "100000", *extra],
        stdout=subprocess.PIPE, stderr=None if log is None else log.open("w"), text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line.startswith("belot serve: http://"):
        proc.kill()
        said = log.read_text()[-2000:] if log is not None else ""
        raise SystemExit(f"the server did not start ({line.strip()!r}) {said}")
    return proc, line.split()[2].rstrip("/")


class Stats:
    def __init__(self) -> None:
        self.rtts: list[float] = []
        self.errors: list[str] = []
        self.finished = 0
        self.measuring = False
        self.client_cpu = 0.0
        self.waits: list[float] = []  # a person's wait for three bots, seconds
        self.bot_actions = 0  # actions at the bot tables in the measured window


async def person_with_bots(url: str, stop: asyncio.Event, stats: Stats) -> None:
    """One person with three heuristic bots: the time from their action to their next turn, when
    exactly the three bots moved in between (the bots' delays plus what the server adds)."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        r = await http.post("/api/tables", json={"seats": ["human"] + ["bot:heuristic"] * 3, "seat": 0,
                                                  "target": 10_000, "name": "person"})
        table_id, token = r.json()["table"]["id"], r.json()["token"]
    ws_url = url.replace("http://", "ws://") + f"/api/tables/{table_id}/ws?token={token}"
    rng = random.Random(7)
    async with websockets.connect(ws_url, max_size=None, ping_interval=None) as ws:
        sent_seq, sent_at = -1, 0.0
        async for text in ws:
            m = json.loads(text)
            if m["type"] != "state" or stop.is_set():
                if stop.is_set():
                    return
                continue
            view = m["view"]
            if view["legal"] and m["seq"] > sent_seq:
                if sent_seq >= 0 and m["seq"] == sent_seq + 4 and stats.measuring:
                    stats.waits.append(time.perf_counter() - sent_at)
                sent_seq, sent_at = m["seq"], time.perf_counter()
                await ws.send(json.dumps({"type": "action", "action": rng.choice(view["legal"]), "seq": m["seq"]}))


async def bot_tables(url: str, n: int, bot: str) -> list[str]:
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        ids = []
        for _ in range(n):
            r = await http.post("/api/tables", json={"seats": [f"bot:{bot}"] * 4, "target": 10_000})
            r.raise_for_status()
            ids.append(r.json()["table"]["id"])
        return ids


async def bot_table_actions(url: str, ids: list[str]) -> int:
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        return sum([(await http.get(f"/api/tables/{i}")).json()["table"]["seq"] for i in ids])


async def drive_seat(url: str, table_id: str, token: str, rng: random.Random, think: float, stop: asyncio.Event,
                     stats: Stats, ready: asyncio.Barrier, connecting: asyncio.Semaphore, deflate: bool) -> None:
    ws_url = url.replace("http://", "ws://") + f"/api/tables/{table_id}/ws?token={token}"
    compression = "deflate" if deflate else None
    try:
        async with connecting:  # thousands of handshakes at once would time out in the queue
            ws = await websockets.connect(ws_url, max_size=None, ping_interval=None, compression=compression)
    except (OSError, TimeoutError, websockets.WebSocketException) as e:
        stats.errors.append(f"connect: {e!r}")
        await ready.wait()
        return
    async with ws:
        await ready.wait()
        acted_seq = -1
        sent_at = 0.0
        async for text in ws:
            m = json.loads(text)
            if m["type"] == "error":
                stats.errors.append(m["message"])
                continue
            if m["type"] != "state":
                continue
            if acted_seq >= 0 and m["seq"] > acted_seq:
                if stats.measuring:
                    stats.rtts.append(time.perf_counter() - sent_at)
                acted_seq = -1
            view = m["view"]
            if view["winner"] is not None:
                stats.finished += 1
                return
            if stop.is_set():
                return
            if view["legal"] and acted_seq < 0 and m["seq"] >= 0:
                if think:
                    await asyncio.sleep(rng.uniform(0, 2 * think))
                action = rng.choice(view["legal"])
                acted_seq = m["seq"]
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "action", "action": action, "seq": acted_seq}))


async def run(args: argparse.Namespace, url: str, pid: int) -> tuple[Stats, float, float]:
    stats = Stats()
    rng = random.Random(args.seed)
    seats: list[tuple[str, str]] = []
    setup = asyncio.Semaphore(16)  # tables set up at once (a thousand one by one take minutes)

    async def table(http: httpx.AsyncClient) -> list[tuple[str, str]]:
        async with setup:
            r = await http.post("/api/tables", json={"seats": ["human"] * 4, "target": args.target})
            r.raise_for_status()
            tid = r.json()["table"]["id"]
            joined = [await http.post(f"/api/tables/{tid}/join", json={"seat": s, "name": f"bench {s}"})
                      for s in range(4)]
            return [(tid, j.raise_for_status().json()["token"]) for j in joined]

    limits = httpx.Limits(max_connections=16)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as http:
        for got in await asyncio.gather(*(table(http) for _ in range(args.tables))):
            seats += got
    bots = await bot_tables(url, args.bot_tables, args.bot) if args.bot_tables else []
    stop = asyncio.Event()
    ready = asyncio.Barrier(len(seats) + 1)
    connecting = asyncio.Semaphore(64)
    tasks = [
        asyncio.create_task(drive_seat(
            url, tid, tok, random.Random(rng.random()), args.think, stop, stats, ready, connecting, not args.no_deflate))
        for tid, tok in seats
    ]
    if args.person_waits or (args.person_waits is None and args.bot_tables):
        tasks.append(asyncio.create_task(person_with_bots(url, stop, stats)))
    await ready.wait()  # every socket is open: measure from here
    await asyncio.sleep(args.warmup)
    stats.measuring = True
    bot0 = await bot_table_actions(url, bots)
    t0, cpu0, own0 = time.perf_counter(), cpu_seconds(pid), time.process_time()
    await asyncio.sleep(args.seconds)
    stats.measuring = False
    stats.bot_actions = await bot_table_actions(url, bots) - bot0
    elapsed, cpu = time.perf_counter() - t0, cpu_seconds(pid) - cpu0
    stats.client_cpu = time.process_time() - own0
    stop.set()
    await asyncio.wait(tasks, timeout=10)
    for t in tasks:
        t.cancel()
    return stats, elapsed, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=positive, default=100, help="concurrent tables (4 websockets each; default 100)")
    ap.add_argument("--seconds", type=duration, default=20.0, help="measured duration (default 20)")
    ap.add_argument("--warmup", type=seconds, default=2.0, help="seconds played before measuring (default 2)")
    ap.add_argument("--think", type=seconds, default=0.0,
                    help="mean think time of a player before each action, seconds (default 0: as fast as possible)")
    ap.add_argument("--target", type=positive, default=10_000, help="match target (large: matches outlast the run)")
    ap.add_argument("--no-deflate", action="store_true",
                    help="clients refuse permessage-deflate (browsers ask for it; it costs CPU on both sides)")
    ap.add_argument("--bot-tables", type=count, default=0, help="tables of four bots run beside the measured ones")
    ap.add_argument("--bot", default="pimc", help="the bot of the bot tables (default pimc)")
    ap.add_argument("--bot-delay", type=seconds, default=0.5, help="the server's --bot-delay (default 0.5)")
    ap.add_argument("--person-waits", action=argparse.BooleanOptionalAction, default=None,
                    help="measure a person's wait for three heuristic bots (default: with --bot-tables)")
    ap.add_argument("--serve-args", default="", help="more `belot serve` flags, e.g. \"--bot-workers 2\"")
    ap.add_argument("--url", help="use this running server instead of starting one")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--log-level", default="error")
    args = ap.parse_args()
    if args.url:  # a server already running (e.g. under a profiler); its CPU time is not measured
        url = args.url.rstrip("/")
        stats, elapsed, cpu = asyncio.run(run(args, url, -1))
    else:
        with tempfile.TemporaryDirectory(prefix="belot-bench-") as tmp:
            proc, url = start_server(Path(tmp) / "bench.sqlite3", args.log_level, args.bot_delay,
                                     args.serve_args.split())
            try:
                stats, elapsed, cpu = asyncio.run(run(args, url, proc.pid))
            finally:
                proc.terminate()
                proc.wait(timeout=10)
    n = len(stats.rtts)
    load = os.getloadavg()
    print(f"server_load: {args.tables} tables x 4 websockets on {url}, think {args.think:g} s, "
          f"deflate {'off' if args.no_deflate else 'on'}, "
          f"{elapsed:.1f} s measured, {os.cpu_count()} CPUs, load average {load[0]:.2f}")
    if n == 0:
        print("no action completed in the measured window")
        return
    q = statistics.quantiles(stats.rtts, n=100) if n >= 2 else [stats.rtts[0]] * 99
    print(f"actions        {n}  ({n / elapsed:.0f} actions/s)")
    print(f"round trip ms  median {statistics.median(stats.rtts) * 1000:.1f}  p95 {q[94] * 1000:.1f}  "
          f"p99 {q[98] * 1000:.1f}  max {max(stats.rtts) * 1000:.1f}")
    if cpu > 0:
        print(f"server CPU     {cpu:.1f} s in the measured window = {100 * cpu / elapsed:.0f}% of a core, "
              f"{1000 * cpu / n:.2f} ms per action")
    print(f"client CPU     {stats.client_cpu:.1f} s in the measured window = "
          f"{100 * stats.client_cpu / elapsed:.0f}% of a core (this script: {4 * args.tables} websockets)")
    if args.bot_tables:
        print(f"bot tables     {args.bot_tables} x 4 bot:{args.bot}: {stats.bot_actions} actions in the window "
              f"({stats.bot_actions / elapsed:.1f}/s)")
    if stats.waits:
        w = sorted(stats.waits)
        expected = 3 * args.bot_delay
        print(f"person waits   {len(w)} turns for 3 heuristic bots (bot delay {args.bot_delay:g} s: {expected:.2f} s): "
              f"median {statistics.median(w):.3f} s  p95 {w[int(0.95 * (len(w) - 1))]:.3f} s  max {w[-1]:.3f} s  "
              f"(over the delays: median {statistics.median(w) - expected:+.3f} s, max {w[-1] - expected:+.3f} s)")
    if stats.errors:
        print(f"errors         {len(stats.errors)} (first: {stats.errors[0]})")
    if stats.finished:
        print(f"matches ended  {stats.finished // 4}")


if __name__ == "__main__":
    run_script(main)
