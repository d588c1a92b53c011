"""Environment steps per second of `belot_v0` with random agents (actions sampled from the mask).

Each step is what a training loop does: ``env.last()`` (observation vector and action mask of the
agent to act), pick a uniformly random legal action from the mask, ``env.step(action)``; the
agents' final dead steps at the end of each episode count too.  The legal actions are read from the
mask with ``mask.nonzero()[0]``, the same array as ``np.flatnonzero(mask)`` (which ravels first)
for a third of its cost.  Measured on the wrapped `env()`
(PettingZoo's usual wrappers) and on `raw_env`, in deal and match mode.  The last line is the
figure: ``env steps/s (wrapped, deal): N`` (wall clock).  On a shared machine the wall-clock
figure depends on the load, so each line also gives steps per CPU second of this process.
"""

from __future__ import annotations

import argparse
import os
import random
import time

from argtypes import positive
from running import run as run_script

from belot.env import belot_v0


def run(e: object, steps: int, seed: int) -> tuple[float, float, int, int]:
    """(wall seconds, CPU seconds, steps, episodes) for at least ``steps`` steps of whole episodes."""
    rng = random.Random(seed)
    n = episodes = 0
    e.reset(seed=seed)  # type: ignore[attr-defined]
    start, cpu = time.perf_counter(), time.process_time()
    while n < steps:
        for _agent in e.agent_iter():  # type: ignore[attr-defined]
            obs, _reward, terminated, truncated, _info = e.last()  # type: ignore[attr-defined]
            if terminated or truncated:
                action = None
            else:
                legal = obs["action_mask"].nonzero()[0]
                action = int(legal[rng.randrange(len(legal))])
            e.step(action)  # type: ignore[attr-defined]
            n += 1
        episodes += 1
        e.reset()  # type: ignore[attr-defined]
    return time.perf_counter() - start, time.process_time() - cpu, n, episodes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--steps", type=positive, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}  cpus: {os.cpu_count()}")
    results = {}
    for wrapped in (False, True):
        for mode in ("match", "deal"):
            make = belot_v0.env if wrapped else belot_v0.raw_env
            e = make(mode=mode, seed=args.seed)
            run(e, 2000, args.seed)  # warm-up
            elapsed, cpu, n, episodes = run(e, args.steps, args.seed)
            label = f"{'wrapped' if wrapped else 'raw'}, {mode}"
            results[label] = n / elapsed
            print(
                f"{label:14s} {n} steps, {episodes} episodes in {elapsed:.2f} s: {n / elapsed:,.0f} steps/s"
                f" ({n / cpu:,.0f} per CPU second)"
            )
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"env steps/s (wrapped, deal): {results['wrapped, deal']:,.0f}")


if __name__ == "__main__":
    run_script(main)
