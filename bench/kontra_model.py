"""Can the five cards and the calls tell which of the other team's contracts fail?  A learned check
of ``expert``'s kontras against the other team's contracts.

From each of two tournament folders (``--train``, ``--test``: two seeds, so the deals differ) it takes
every contract the other team of ``--bot`` played, and in each the call of each ``--bot`` seat that
faced that contract with kontra legal (the cards it held then, five, R2.3, and the calls so far).  A
logistic regression for each contract kind (suit, NT, AT) learns, on the training folder, whether the
contract failed (hanging or inside, R9.2) from the defender's features (`features`: the kontra
strength of the `heuristic` bot, the honours of the trump suit or of every suit, what the partner
and the declarer's partner called, the match score); a deal counts with the features of its
defender whose chance is the highest (either may double).  On the test folder it prints the model's
AUC beside that of the `heuristic` kontra strength alone and of `--bot`'s own kontras, the share of
failed contracts among the model's top picks (as many as ``--bot`` doubled) and among ``--bot``'s
kontras, and what doubling every contract whose chance passes a cut would have given against the
same deal undoubled, in game points and in match equity (`belot.bots.equity`): the cards as played,
no rekontra, the same counterfactual as `kontras.py`.

    python bench/kontra_model.py --train DIR --test DIR [--bot expert] [--files N]
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import NamedTuple

import numpy as np
from argtypes import count
from recordset import kind, read_all, record_files, team_of, worth
from running import run

from belot.auction import BID_BASE, KONTRA
from belot.bots.heuristic import defence_strength
from belot.cards import ACE, JACK, NINE, SUIT_MASKS, TEN, mask_of
from belot.contracts import AT, NT
from belot.game import CALL_BASE, Deal
from belot.scoring import score_deal

KINDS = ("suit", "NT", "AT")
CUTS = (0.5, 0.6, 0.7)


class Contract(NamedTuple):
    kind: str
    failed: bool
    doubled: bool  # by the bot's team
    gain: tuple[int, float]  # doubling's gain to the bot's team: game points, match equity
    defenders: list[list[float]]  # each defender's features at its call facing the contract


def features(hand: int, contract: int, calls: list[tuple[int, int]], seat: int, declarer: int,
             score: tuple[int, int], team: int) -> list[float]:
    """What a defender knows when it may double: its five cards and the calls, by contract kind."""
    def has(rank: int, suit: int) -> int:
        return hand >> (8 * suit + rank) & 1

    def bid(s: int) -> float:
        return float(any(x == s and BID_BASE <= c <= BID_BASE + AT for x, c in calls))

    f = [defence_strength(hand, contract)]
    if contract < NT:
        f += [has(JACK, contract), has(NINE, contract), has(ACE, contract), has(TEN, contract),
              (hand & SUIT_MASKS[contract]).bit_count(),
              sum(has(ACE, s) for s in range(4) if s != contract), sum(has(TEN, s) for s in range(4) if s != contract)]
    elif contract == NT:
        f += [sum(has(ACE, s) for s in range(4)), sum(has(TEN, s) for s in range(4)),
              sum(has(ACE, s) & has(TEN, s) for s in range(4)), max((hand & m).bit_count() for m in SUIT_MASKS)]
    else:
        f += [sum(has(JACK, s) for s in range(4)), sum(has(NINE, s) for s in range(4)),
              sum(has(JACK, s) & has(NINE, s) for s in range(4)), sum(has(ACE, s) for s in range(4))]
    f += [bid(seat ^ 2), float(any(x == seat ^ 2 and c == KONTRA for x, c in calls)), bid(declarer ^ 2),
          float(sum(BID_BASE <= c <= BID_BASE + AT for _, c in calls)),
          float(score[1 - team] >= 100), float(score[team] >= 100)]
    return [float(x) for x in f]


def contracts(folder: Path, bot: str, limit: int) -> list[Contract]:
    """The other team's contracts in the records of ``folder``, each with the bot's defenders' calls."""
    out = []
    files = record_files(folder, limit)
    for path, (doc, m) in zip(files, read_all(files)):
        me = team_of(doc, path, "bot:" + bot)
        score = [0, 0]
        for played in m.deals:
            r = played.result
            if r is None:
                break
            before = (score[0], score[1])
            score[0] += r.points[0]
            score[1] += r.points[1]
            if r.contract < 0 or r.declarer & 1 == me:
                continue
            pts = [score_deal(r.contract, r.declarer & 1, r.totals, x, played.pot, played.rules).points for x in (1, 2)]
            twice, plain = worth(before, m.start_target, me, pts[1]), worth(before, m.start_target, me, pts[0])
            gain = (twice[0] - plain[0], twice[1] - plain[1])
            d = Deal(played.dealer, played.dealt, played.rules, played.pot)
            defenders, doubled = [], False
            for action, actor in zip(played.actions, played.actors):
                if (d.phase == "auction" and actor & 1 == me and d.auction.contract == r.contract
                        and d.auction.declarer == r.declarer):
                    v = d.view(actor)
                    if CALL_BASE + KONTRA in v.legal_actions:
                        defenders.append(features(mask_of(v.hand), r.contract, list(v.calls), actor, r.declarer,
                                                  before, me))
                        doubled |= action == CALL_BASE + KONTRA
                d.apply(action)
            if defenders:
                out.append(Contract(kind(r.contract), r.outcome != "made", doubled, gain, defenders))
    return out


def fit(x: np.ndarray, y: np.ndarray, l2: float = 0.01, steps: int = 3000) -> np.ndarray:
    """Logistic regression weights (the first column is the constant, not penalised), by gradient descent."""
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-x @ w))
        w -= 0.5 * (x.T @ (p - y) / len(y) + l2 * np.r_[0.0, w[1:]])
    return w


def auc(score: np.ndarray, y: np.ndarray) -> float:
    """The chance that a failed contract scores above a made one (ties half)."""
    pos, neg = score[y == 1], score[y == 0]
    if not len(pos) or not len(neg):
        return float("nan")
    return float((pos[:, None] > neg[None, :]).mean() + 0.5 * (pos[:, None] == neg[None, :]).mean())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--train", type=Path, required=True, help="records the model learns from")
    ap.add_argument("--test", type=Path, required=True, help="records it is measured on (another seed)")
    ap.add_argument("--bot", default="expert", help="the defending bot (default: expert)")
    ap.add_argument("--files", type=count, default=0, help="read only the first N records of each (0: all)")
    args = ap.parse_args()
    train, test = contracts(args.train, args.bot, args.files), contracts(args.test, args.bot, args.files)
    for k in KINDS:
        a = [c for c in train if c.kind == k]
        b = [c for c in test if c.kind == k]
        if len(a) < 20 or len(b) < 20:
            print(f"{k}: too few contracts ({len(a)} to learn from, {len(b)} to test)")
            continue
        xa = np.array([f for c in a for f in c.defenders])
        ya = np.array([c.failed for c in a for _ in c.defenders], dtype=float)
        mu, sd = xa.mean(0), xa.std(0) + 1e-9

        def design(rows: np.ndarray, mu: np.ndarray = mu, sd: np.ndarray = sd) -> np.ndarray:
            return np.c_[np.ones(len(rows)), (rows - mu) / sd]

        w = fit(design(xa), ya)
        chance = np.array([max(1 / (1 + np.exp(-design(np.array(c.defenders)) @ w))) for c in b])
        strength = np.array([max(f[0] for f in c.defenders) for c in b])
        y = np.array([c.failed for c in b], dtype=float)
        doubled = np.array([c.doubled for c in b])
        gp = np.array([c.gain[0] for c in b], dtype=float)
        eq = np.array([c.gain[1] for c in b])
        n = int(doubled.sum())
        top = np.argsort(-chance)[:n]
        print(f"{k}: {len(a)} contracts to learn from, {len(b)} tested, {y.mean():.0%} failed; AUC: model "
              f"{auc(chance, y):.3f}, kontra strength {auc(strength, y):.3f}, {args.bot}'s kontras "
              f"{auc(doubled.astype(float), y):.3f}")
        if n:
            print(f"  {args.bot} doubled {n}: {y[doubled].mean():.0%} failed, game points {gp[doubled].sum():+.0f},"
                  f" equity {eq[doubled].sum():+.0f}; the model's top {n}: {y[top].mean():.0%} failed,"
                  f" game points {gp[top].sum():+.0f}, equity {eq[top].sum():+.0f}")
        for cut in CUTS:
            pick = chance > cut
            both = pick | doubled
            print(f"  chance over {cut}: {int(pick.sum())} contracts, {int(y[pick].sum())} failed, game points"
                  f" {gp[pick].sum():+.0f}, equity {eq[pick].sum():+.0f}; with {args.bot}'s kontras too: game points"
                  f" {gp[both].sum():+.0f}, equity {eq[both].sum():+.0f}")


if __name__ == "__main__":
    run(main)
