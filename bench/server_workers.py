"""`bench/server_load.py` against PostgreSQL: one `belot serve`, then two `--worker`s behind haproxy
(deploy/haproxy.cfg), on a throwaway cluster (tests/pg.py; needs PostgreSQL's programs and haproxy).

    python bench/server_workers.py [--tables 40] [--seconds 10] [--think 0.2]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
import pg  # noqa: E402
from test_server_restart import start_server  # noqa: E402
from test_server_workers import start_haproxy  # noqa: E402

LIMITS = ["--tables-per-minute", "100000", "--waiting-per-address", "100000", "--ws-per-address", "100000"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", default="40")
    ap.add_argument("--seconds", default="10")
    ap.add_argument("--think", default="0.2")
    args = ap.parse_args()
    cluster = pg.Cluster()
    try:
        for workers in (0, 2):
            db = cluster.new_database()
            procs: list[subprocess.Popen[str] | subprocess.Popen[bytes]] = []
            if workers == 0:
                proc, url = start_server(db, "--bot-delay", "0.5", *LIMITS)
                procs.append(proc)
                what = "one belot serve"
            else:
                started = [start_server(db, "--worker", "--bot-delay", "0.5", *LIMITS) for _ in range(workers)]
                procs += [p for p, _ in started]
                proxy, url = start_haproxy([u for _, u in started], Path(tempfile.mkdtemp()))
                procs.append(proxy)
                what = f"{workers} workers behind haproxy"
            r = subprocess.run([sys.executable, str(ROOT / "bench" / "server_load.py"), "--url", url, "--tables",
                                args.tables, "--seconds", args.seconds, "--think", args.think],
                               capture_output=True, text=True)
            print(f"== PostgreSQL, {what}\n{r.stdout}{r.stderr[-1000:]}", flush=True)
            for p in procs:
                p.kill()
                p.wait()
    finally:
        cluster.stop()


if __name__ == "__main__":
    main()
