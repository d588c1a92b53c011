"""A linear softmax policy trained with REINFORCE against random agents, numpy only (< 1 minute).

The policy plays seats 0 and 2 (one team, shared weights) of `belot_v0` in deal mode; seats 1 and
3 are uniform random over their action masks.  Logits are ``x @ W[:, legal]`` for the encoded
observation ``x`` (docs/encoding.md); the return of every decision is the deal's reward (the
team's game points minus the other team's), less a running-mean baseline.  Before and after
training it plays the same evaluation deals and prints the mean reward per deal.

    python examples/train_pg.py            # 1500 training deals, 500 evaluation deals
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

import numpy as np

from belot.env import belot_v0
from belot.env.encoding import SIZE
from belot.game import CALL_BASE, DECLARE_BASE, NUM_ACTIONS, action_name

LEARNERS = ("player_0", "player_2")


def play_deal(env, W: np.ndarray, rng: np.random.Generator, greedy: bool = False):
    """One deal; returns (reward of the learners' team, the learners' decisions)."""
    env.reset(seed=int(rng.integers(1 << 31)))
    decisions = []
    team_reward = 0.0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if agent == "player_0":
            team_reward += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        if agent in LEARNERS:
            x = obs["observation"]
            logits = W[legal] @ x
            p = np.exp(logits - logits.max())
            p /= p.sum()
            k = int(p.argmax()) if greedy else int(rng.choice(len(legal), p=p))
            decisions.append((x, legal, k, p))
            action = int(legal[k])
        else:
            action = int(legal[rng.integers(len(legal))])
        env.step(action)
    return team_reward, decisions


def evaluate(env, W: np.ndarray, deals: int, seed: int) -> tuple[float, float, str]:
    """Mean reward per deal, its standard error, and the learners' most frequent calls."""
    rng = np.random.default_rng(seed)  # the same deals each time
    rewards, calls = [], Counter()
    for _ in range(deals):
        reward, decisions = play_deal(env, W, rng)
        rewards.append(reward)
        calls.update(
            action_name(int(legal[k])) for _, legal, k, _ in decisions if CALL_BASE <= legal[k] < DECLARE_BASE
        )
    total = sum(calls.values())
    top = ", ".join(f"{name} {n / total:.0%}" for name, n in calls.most_common(4))
    return float(np.mean(rewards)), float(np.std(rewards) / np.sqrt(deals)), top


def _count(text: str) -> int:
    """A number of deals: a whole number from 1 (0 evaluation deals would print a mean of nan)."""
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"a number of deals is a whole number from 1, not {text!r}")
    return n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=_count, default=1500, help="training deals")
    ap.add_argument("--eval-deals", type=_count, default=500)
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    env = belot_v0.env(mode="deal")
    W = np.zeros((NUM_ACTIONS, SIZE), dtype=np.float32)  # one row of weights per action
    before = evaluate(env, W, args.eval_deals, seed=12345)
    print(f"before training: mean reward per deal vs random {before[0]:+.2f} (+/- {before[1]:.2f}); "
          f"calls: {before[2]}")

    rng = np.random.default_rng(args.seed)
    # Rewards swing by 100 points or more (kontra, rekontra): the advantage is scaled by a running
    # estimate of their spread so that the step size does not depend on the stakes.
    mean, var, deals, start = 0.0, 50.0**2, 0, time.perf_counter()
    for _ in range(args.deals):
        reward, decisions = play_deal(env, W, rng)
        advantage = (reward - mean) / np.sqrt(var)
        mean += 0.01 * (reward - mean)
        var += 0.01 * ((reward - mean) ** 2 - var)
        for x, legal, k, p in decisions:  # gradient of log softmax: (onehot(k) - p) x
            g = -p
            g[k] += 1.0
            W[legal] += (args.lr * advantage) * np.outer(g, x)
        deals += 1
    elapsed = time.perf_counter() - start
    print(f"trained on {deals} deals in {elapsed:.1f} s")

    after = evaluate(env, W, args.eval_deals, seed=12345)
    print(f"after training:  mean reward per deal vs random {after[0]:+.2f} (+/- {after[1]:.2f}); "
          f"calls: {after[2]}")


if __name__ == "__main__":
    main()
