"""belot against two outside anchors, side by side in one run: the two speed ratios of issue 25.

* engine: complete random deals per second through the public state API (bench/engine.py: shuffle
  and deal, a random auction, random legal play, the score) against belote-cli 4.9.6, a pure-Python
  French belote, driven the same way through its game API (``start_round``, ``place_bid`` with a
  random bid among the legal ones, ``play_card`` with a random card of ``legal_cards``, then
  ``score_round`` and ``apply_round_score``; all-pass deals count, as in ours; its coinche step
  belongs to its terminal flow, not to the game API, and is not played).
* environment: steps per second of the wrapped `belot_v0` env in deal mode with random agents
  (bench/env.py's loop: ``env.last()``, a random legal action from the mask, ``env.step``) against
  colver 0.11.1, a Rust Belote environment, driven from Python with ``Env.step`` and a random action
  of the legal list it returns.

The anchors live in their own virtual environment (never a dependency of belot): ``--anchors-venv``
(default /tmp/anchors) is used if its python imports them, else created with
``pip install belote-cli==4.9.6 colver==0.11.1``; an anchor that cannot be installed or imported is
skipped with a message.  Each anchor round runs in a subprocess of that python (this file, with
``--run-anchor``), and timed inside it, so start-up is not counted.  Rounds alternate ours and
theirs so that both see the same load; the figure of each side is its best round (the one least
disturbed by other work on a shared machine), the ratio is best over best, in wall-clock time (the
figure) and in CPU seconds of each process (steadier when the machine is loaded).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

from argtypes import positive
from running import run

HERE = Path(__file__).resolve().parent
ANCHOR_PACKAGES = ("belote-cli==4.9.6", "colver==0.11.1")
AIM_ENGINE = 20.0
AIM_ENV = 1.0
WARM_UP_SEED = 10**6  # warm-ups play other deals than the timed rounds (belote-cli memoizes)


# -- the anchors, run inside the anchor venv ---------------------------------------------------


def _rates(n: int, start: float, cpu: float) -> tuple[float, float]:
    """(per wall-clock second, per CPU second of this process) since ``start`` and ``cpu``."""
    return n / (time.perf_counter() - start), n / max(time.process_time() - cpu, 1e-9)


def belote_cli_deals(deals: int, seed: int) -> tuple[float, float]:
    """Complete random deals per second through belote-cli's game API (French belote)."""
    from belote import game as g
    from belote.deck import CARD_SUITS, Suit
    from belote.scoring import apply_round_score, score_round

    bidding, playing, scoring = g.Phase.BIDDING, g.Phase.PLAYING, g.Phase.SCORING
    specials = (Suit.TOUT_ATOUT, g.SANS_ATOUT_BID)

    def legal_bids(state: object) -> list[object]:
        up = state.up_card.suit  # type: ignore[attr-defined]
        if state.bidding_round == 1:  # type: ignore[attr-defined]
            return [None, up]  # round 1: take the up-card's suit or pass
        return [None, *(s for s in CARD_SUITS if s != up), *specials]

    def run(n: int, seed: int) -> tuple[float, float]:
        rng = random.Random(seed)
        choice = rng.choice
        state = g.new_game(target=10**9)
        start, cpu = time.perf_counter(), time.process_time()
        for _ in range(n):
            state = g.start_round(state, rng)
            while state.phase == bidding:
                state = g.place_bid(state, choice(legal_bids(state)))
            while state.phase == playing:
                state = g.play_card(state, choice(g.legal_cards(state, state.turn)))
            if state.phase == scoring:
                state = apply_round_score(state, score_round(state))
        return _rates(n, start, cpu)

    run(max(50, deals // 20), seed + WARM_UP_SEED)  # warm-up, on other deals than the timed ones
    return run(deals, seed)


def colver_steps(steps: int, seed: int) -> tuple[float, float]:
    """Environment steps per second of colver.Env with random legal actions from Python."""
    import colver

    def run(n_steps: int, seed: int) -> tuple[float, float]:
        rng = random.Random(seed)
        e = colver.Env()
        _obs, legal = e.reset()
        n = 0
        start, cpu = time.perf_counter(), time.process_time()
        while n < n_steps:
            _obs, _reward, done, legal = e.step(legal[rng.randrange(len(legal))])
            n += 1
            if done:
                _obs, legal = e.reset()
        return _rates(n, start, cpu)

    run(max(2000, steps // 20), seed + WARM_UP_SEED)  # warm-up
    return run(steps, seed)


# -- ours ------------------------------------------------------------------------------------------


def ours_deals(deals: int, seed: int) -> tuple[float, float]:
    import engine  # bench/engine.py

    engine.run(max(50, deals // 20), seed + WARM_UP_SEED)  # warm-up
    elapsed, n, _ = engine.run(deals, seed)
    return n / elapsed, n / engine._cpu


def ours_steps(steps: int, seed: int) -> tuple[float, float]:
    import env as env_bench  # bench/env.py

    from belot.env import belot_v0

    e = belot_v0.env(mode="deal", seed=seed)
    env_bench.run(e, max(2000, steps // 20), seed + WARM_UP_SEED)  # warm-up
    elapsed, cpu, n, _ = env_bench.run(e, steps, seed)
    return n / elapsed, n / cpu


# -- the anchor venv -------------------------------------------------------------------------------


def _python_of(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _importable(python: Path, module: str) -> bool:
    if not python.exists():
        return False
    r = subprocess.run([str(python), "-c", f"import {module}"],
                       check=False, capture_output=True, text=True)
    return r.returncode == 0


def prepare_venv(venv: Path) -> dict[str, str | None]:
    """Which anchors can run: {module: None, or the reason it cannot}."""
    python = _python_of(venv)
    wanted = {"belote": ANCHOR_PACKAGES[0], "colver": ANCHOR_PACKAGES[1]}
    missing = [m for m in wanted if not _importable(python, m)]
    if missing:
        need = " ".join(wanted[m] for m in missing)
        print(f"anchor venv {venv}: {', '.join(missing)} not importable; installing {need}")
        if not python.exists():
            r = subprocess.run([sys.executable, "-m", "venv", str(venv)],
                               check=False, capture_output=True, text=True)
            if r.returncode != 0:
                reason = f"could not create the venv {venv}: {r.stderr.strip()[-300:]}"
                return {m: reason for m in wanted}
        for m in missing:
            r = subprocess.run([str(python), "-m", "pip", "install", "-q", wanted[m]],
                               check=False, capture_output=True, text=True)
            if r.returncode != 0:
                print(f"  pip install {wanted[m]} failed: {r.stderr.strip()[-300:]}")
    return {m: None if _importable(python, m) else f"{wanted[m]} cannot be installed or imported in {venv}"
            for m in wanted}


def run_anchor(python: Path, which: str, n: int, seed: int) -> tuple[float, float]:
    out = subprocess.run(
        [str(python), str(Path(__file__).resolve()), "--run-anchor", which, "--n", str(n), "--seed", str(seed)],
        capture_output=True, text=True, check=True,
    )
    wall, cpu = json.loads(out.stdout.strip().splitlines()[-1])["rates"]
    return float(wall), float(cpu)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--anchors-venv", type=Path, default=Path("/tmp/anchors"))
    ap.add_argument("--rounds", type=positive, default=3)
    ap.add_argument("--deals", type=positive, default=4000, help="deals per engine round (belote-cli: a tenth)")
    ap.add_argument("--steps", type=positive, default=100_000, help="env steps per round, each side")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--run-anchor", choices=("belote", "colver"), help=argparse.SUPPRESS)
    ap.add_argument("--n", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))  # bench/engine.py and bench/env.py

    if args.run_anchor:  # inside the anchor venv
        fn = belote_cli_deals if args.run_anchor == "belote" else colver_steps
        print(json.dumps({"rates": fn(args.n, args.seed)}))
        return

    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}  cpus: {os.cpu_count()}")
    status = prepare_venv(args.anchors_venv)
    python = _python_of(args.anchors_venv)
    figures: dict[str, tuple[tuple[float, float], tuple[float, float] | None]] = {}
    jobs = (
        ("engine", "deals/s", "belote", "belote-cli 4.9.6", ours_deals, args.deals, max(1, args.deals // 10)),
        ("environment", "steps/s", "colver", "colver 0.11.1", ours_steps, args.steps, args.steps),
    )
    for name, unit, module, label, ours, n_ours, n_theirs in jobs:
        best_ours, best_theirs = (0.0, 0.0), None if status[module] else (0.0, 0.0)
        for r in range(args.rounds):
            seed = args.seed + r
            a = ours(n_ours, seed)
            best_ours = (max(best_ours[0], a[0]), max(best_ours[1], a[1]))
            line = f"{name} round {r + 1}: belot {a[0]:,.0f} {unit}"
            if best_theirs is not None:
                b = run_anchor(python, module, n_theirs, seed)
                best_theirs = (max(best_theirs[0], b[0]), max(best_theirs[1], b[1]))
                line += f", {label} {b[0]:,.0f} {unit}, ratio {a[0] / b[0]:.2f} (per CPU second {a[1] / b[1]:.2f})"
            print(line, flush=True)
        figures[name] = (best_ours, best_theirs)
        if status[module] is not None:
            print(f"{name}: {label} skipped: {status[module]}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for (name, unit, _module, label, *_), aim in zip(jobs, (AIM_ENGINE, AIM_ENV)):
        ours_best, theirs_best = figures[name]
        if theirs_best is None:
            print(f"{name}: belot {ours_best[0]:,.0f} {unit} (best round); {label} skipped")
            continue
        ratio = ours_best[0] / theirs_best[0]
        cpu_ratio = ours_best[1] / theirs_best[1]
        print(f"{name}: belot {ours_best[0]:,.0f} {unit} vs {label} {theirs_best[0]:,.0f} {unit} (best rounds):"
              f" ratio {ratio:.2f}, per CPU second {cpu_ratio:.2f} (aim >= {aim:g}: {'met' if ratio >= aim else 'not met'})")


if __name__ == "__main__":
    run(main)
