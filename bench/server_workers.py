"""`bench/server_load.py` against PostgreSQL: one `belot serve`, then two `--worker`s behind haproxy
(deploy/haproxy.cfg), on a throwaway cluster (tests/pg.py; needs PostgreSQL's programs and haproxy).

    python bench/server_workers.py [--tables 40] [--seconds 10] [--think 0.2]
    python bench/server_workers.py --setups workers --tables 1000 --think 3 --seconds 60   # issue 20

The cluster keeps PostgreSQL's durable defaults (fsync and synchronous commit on), as deployed:
every action is on disk before anyone hears of it.  Everything runs on this machine: the
cluster, haproxy, the workers and the clients.  After each setup it prints the CPU time each
part used during the run (setting up the tables included), from /proc.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))
import pg  # noqa: E402
from running import run  # noqa: E402
from server_load import cpu_seconds  # noqa: E402
from test_server_restart import start_server  # noqa: E402
from test_server_workers import start_haproxy  # noqa: E402

LIMITS = ["--tables-per-minute", "100000", "--waiting-per-address", "100000", "--ws-per-address", "100000",
          "--ws-total", "100000"]


def descendants(root: int) -> list[int]:
    """``root`` and every process below it (Linux /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children.get(pid, [])
    return found


def tree_cpu(root: int) -> float:
    return sum(cpu_seconds(pid) for pid in descendants(root))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", default="40")
    ap.add_argument("--seconds", default="10")
    ap.add_argument("--warmup", default="5")
    ap.add_argument("--think", default="0.2", help="mean seconds a player takes per action (issue 20: 3)")
    ap.add_argument("--setups", default="single,workers",
                    help="comma-separated: single (one belot serve), workers (two --workers behind haproxy)")
    args = ap.parse_args()
    os.environ.setdefault("BELOT_MAXCONN", str(max(4000, 4 * int(args.tables) + 1000)))  # haproxy's
    cluster = pg.Cluster(durable=True)
    postmaster = int((Path(cluster.data) / "postmaster.pid").read_text().split()[0])
    try:
        for setup in args.setups.split(","):
            db = cluster.new_database()
            parts: dict[str, int] = {"PostgreSQL": postmaster}
            if setup == "single":
                proc, url = start_server(db, "--bot-delay", "0.5", *LIMITS)
                procs: list[subprocess.Popen[str] | subprocess.Popen[bytes]] = [proc]
                parts["belot serve"] = proc.pid
                what = "one belot serve"
            elif setup == "workers":
                started = [start_server(db, "--worker", "--bot-delay", "0.5", *LIMITS) for _ in range(2)]
                procs = [p for p, _ in started]
                parts |= {f"worker {i + 1}": p.pid for i, p in enumerate(procs)}
                proxy, url = start_haproxy([u for _, u in started], Path(tempfile.mkdtemp()))
                procs.append(proxy)
                parts["haproxy"] = proxy.pid
                what = "2 workers behind haproxy"
            else:
                raise SystemExit(f"server_workers: unknown setup {setup!r} (single, workers)")
            cpu0 = {name: tree_cpu(pid) for name, pid in parts.items()}
            t0 = time.perf_counter()
            r = subprocess.run([sys.executable, str(ROOT / "bench" / "server_load.py"), "--url", url, "--tables",
                                args.tables, "--seconds", args.seconds, "--warmup", args.warmup, "--think", args.think],
                               capture_output=True, text=True)
            elapsed = time.perf_counter() - t0
            cpu = {name: tree_cpu(pid) - cpu0[name] for name, pid in parts.items()}
            print(f"== PostgreSQL (durable), {what}\n{r.stdout}{r.stderr[-1000:]}", flush=True)
            print(f"CPU over the whole run ({elapsed:.0f} s, the setup of the tables included): "
                  + ", ".join(f"{name} {100 * c / elapsed:.0f}%" for name, c in cpu.items())
                  + " of a core", flush=True)
            for p in procs:
                p.kill()
                p.wait()
    finally:
        cluster.stop()


if __name__ == "__main__":
    run(main)
