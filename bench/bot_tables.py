"""How many tables of one person and three pimc bots one machine serves with the bots' decisions
answered within a second (p95), with the bots on the server's local pool or on a local Ray cluster.

For each number of tables N (``--tables 4,8,12``) it starts `belot serve` (SQLite, in a temporary
folder), creates N tables of a person and three ``bot:pimc`` seats, and plays each person over a
websocket from this process: a random legal action after a think time of mean ``--think`` seconds
(human-paced).  A bot turn's latency is measured at the person's socket: from the state that
hands a bot seat the turn to the state that shows its action, less the server's ``--bot-delay``
(the pause a bot waits before it starts thinking, so a person can follow the play).  So the figure
is what the person waits for a bot beyond that pause: the queue for a bot process (or a Ray
worker), the decision itself, and the server's round trip.  Decisions the server answered with its
fallback bot (after ``--bot-budget``, or when Ray failed) are counted from the server log.

    python bench/bot_tables.py --tables 4,8,12,16 --seconds 60                # the local pool
    python bench/bot_tables.py --tables 4,8,12,16 --seconds 60 --serve-args "--bot-workers 2"
    python bench/bot_tables.py --tables 4,8,12,16 --seconds 60 --bots ray     # a local Ray cluster

With ``--bots ray`` the script starts a Ray head on this machine (``ray start --head``, all its
CPUs) and stops it at the end.  It never fails on timing.
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
from argtypes import duration, seconds
from running import run
from server_load import start_server  # bench/server_load.py


async def person(url: str, table_id: str, token: str, rng: random.Random, think: float, bot_delay: float,
                 stop: asyncio.Event, measuring: asyncio.Event, latencies: list[float]) -> None:
    ws_url = url.replace("http://", "ws://") + f"/api/tables/{table_id}/ws?token={token}"
    async with websockets.connect(ws_url, max_size=None, ping_interval=None) as ws:
        bot_turn: tuple[int, float] | None = None  # (seq, when) of the state that gave a bot the turn
        acted = -1
        async for text in ws:
            if stop.is_set():
                return
            m = json.loads(text)
            if m["type"] != "state":
                continue
            now = time.perf_counter()
            seq, view = m["seq"], m["view"]
            if bot_turn is not None and seq > bot_turn[0]:
                if measuring.is_set() and seq == bot_turn[0] + 1:
                    latencies.append(now - bot_turn[1] - bot_delay)
                bot_turn = None
            if view["winner"] is not None:
                return
            if view["to_move"] in (1, 2, 3) and bot_turn is None:
                bot_turn = (seq, now)
            elif view["to_move"] == 0 and view["legal"] and seq > acted:
                acted = seq
                await asyncio.sleep(rng.uniform(0, 2 * think))
                await ws.send(json.dumps({"type": "action", "action": rng.choice(view["legal"]), "seq": seq}))


async def measure(url: str, n: int, args: argparse.Namespace) -> list[float]:
    rng = random.Random(args.seed)
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        seats = []
        for _ in range(n):
            r = await http.post("/api/tables", json={"seats": ["human"] + ["bot:pimc"] * 3, "seat": 0,
                                                      "target": 10_000, "name": "person"})
            r.raise_for_status()
            seats.append((r.json()["table"]["id"], r.json()["token"]))
    stop, measuring = asyncio.Event(), asyncio.Event()
    latencies: list[float] = []
    tasks = [asyncio.create_task(person(url, tid, tok, random.Random(rng.random()), args.think, args.bot_delay, stop,
                                        measuring, latencies)) for tid, tok in seats]
    await asyncio.sleep(args.warmup)
    measuring.set()
    await asyncio.sleep(args.seconds)
    measuring.clear()
    stop.set()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return latencies


RAY = [sys.executable, "-m", "ray.scripts.scripts"]  # this Python: its workers import this belot


def start_ray(tmp: Path) -> None:
    r = subprocess.run([*RAY, "start", "--head", "--disable-usage-stats", "--include-dashboard=false",
                        f"--temp-dir={tmp}"], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"bot_tables: ray start failed: {(r.stderr or r.stdout)[-1500:]}")


def stop_ray() -> None:
    subprocess.run([*RAY, "stop", "--force"], capture_output=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", default="4,8,12,16", help="comma-separated numbers of tables to try")
    ap.add_argument("--seconds", type=duration, default=60.0, help="measured seconds per number (default 60)")
    ap.add_argument("--warmup", type=seconds, default=10.0, help="seconds played before measuring (default 10)")
    ap.add_argument("--think", type=seconds, default=3.0, help="the person's mean seconds per action (default 3)")
    ap.add_argument("--bots", default="local", help="local (the server's pool) or ray (a local Ray cluster)")
    ap.add_argument("--bot-delay", type=seconds, default=0.5, help="the server's --bot-delay (default 0.5)")
    ap.add_argument("--bot-budget", type=duration, default=2.5, help="the server's --bot-budget (default 2.5)")
    ap.add_argument("--serve-args", default="", help="more `belot serve` flags, e.g. \"--bot-workers 2\"")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.bots not in ("local", "ray"):
        raise SystemExit("bot_tables: --bots is local or ray")
    print(f"bot_tables: {os.cpu_count()} CPUs, bots {args.bots} {args.serve_args}, think {args.think:g} s, bot delay {args.bot_delay:g} s, "
          f"budget {args.bot_budget:g} s, {args.seconds:g} s measured per line", flush=True)
    with tempfile.TemporaryDirectory(prefix="belot-bots-") as tmp:
        if args.bots == "ray":
            start_ray(Path(tmp) / "ray")
        try:
            best = 0
            for n in (int(x) for x in args.tables.split(",")):
                log = Path(tmp) / f"serve-{n}.log"
                proc, url = start_server(Path(tmp) / f"bots-{n}.sqlite3", "warning", args.bot_delay,
                                         ["--bots", args.bots, "--bot-budget", str(args.bot_budget),
                                          *args.serve_args.split()], log)
                try:
                    lat = asyncio.run(measure(url, n, args))
                finally:
                    proc.terminate()
                    proc.wait(timeout=30)
                text = log.read_text()
                overruns = text.count("decided instead")
                if overruns:
                    print("   server log: " + next(line for line in text.splitlines() if "decided instead" in line)[-300:])
                if len(lat) < 20:
                    print(f"{n:4d} tables: only {len(lat)} bot turns measured", flush=True)
                    continue
                q = statistics.quantiles(lat, n=100)
                ok = q[94] <= 1.0
                best = max(best, n) if ok else best
                print(f"{n:4d} tables: {len(lat)} bot turns ({len(lat) / args.seconds:.1f}/s), beyond the delay: "
                      f"median {1000 * statistics.median(lat):.0f} ms  p95 {1000 * q[94]:.0f} ms  "
                      f"max {1000 * max(lat):.0f} ms; {overruns} by the fallback bot{'' if ok else '  (p95 > 1 s)'}",
                      flush=True)
            print(f"most tables with the bots' p95 <= 1 s: {best} (bots {args.bots}, {os.cpu_count()} CPUs)")
        finally:
            if args.bots == "ray":
                stop_ray()


if __name__ == "__main__":
    run(main)
