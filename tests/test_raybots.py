"""`belot serve --bots ray[=ADDRESS]`: bot decisions as Ray tasks, and the local pool when no Ray
cluster answers."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
from pathlib import Path

import pytest

from belot.game import Match, deal_hands
from belot.server.botpool import decide


def test_serve_without_a_ray_cluster_uses_the_local_pool(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    from belot.server.raybots import RayUnavailable, connect

    with pytest.raises(RayUnavailable, match=r"no Ray cluster at 127\.0\.0\.1:1"):
        connect("127.0.0.1:1")
    proc = subprocess.Popen([sys.executable, "-m", "belot", "serve", "--bots", "ray=127.0.0.1:1", "--port", "0",
                             "--db", str(tmp_path / "belot.sqlite3")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        assert proc.stdout is not None and proc.stderr is not None
        assert proc.stdout.readline().startswith("belot serve: http://")
        assert "bots decide in local processes" in proc.stderr.readline()
    finally:
        proc.kill()
        proc.wait(timeout=10)
    r = subprocess.run([sys.executable, "-m", "belot", "serve", "--bots", "rai"], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 2 and "choose local, ray or ray=HOST:PORT" in r.stderr


@pytest.mark.slow
def test_ray_tasks_decide_legal_actions_and_overruns_fall_back() -> None:
    ray = pytest.importorskip("ray")
    from belot.server.raybots import RayBots

    ray.init(num_cpus=1, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    try:
        match = Match(target=41, first_dealer=0)
        match.deal(deal_hands(random.Random(1), 0), 0)
        view = match.view(match.current_player)
        bots = RayBots(budget=60.0)
        action, name = asyncio.run(bots.decide("bot:random", view, seed=1, urgent=False))
        assert name == "bot:random" and action in view.legal_actions
        # Reproducible: a seeded decision on Ray is the one the local pool makes with that seed.
        assert len(view.legal_actions) > 3
        on_ray = [asyncio.run(bots.decide("bot:random", view, seed=s, urgent=False))[0] for s in range(12)]
        assert on_ray == [decide("bot:random", s, view) for s in range(12)] and len(set(on_ray)) > 1
        quick = RayBots(budget=0.0)  # no task answers in no time: the fallback decides here
        action, name = asyncio.run(quick.decide("bot:random", view, seed=1, urgent=False))
        assert name == "heuristic" and action in view.legal_actions and quick.overruns == 1
        assert decide("heuristic", 0, view) in view.legal_actions
    finally:
        ray.shutdown()
