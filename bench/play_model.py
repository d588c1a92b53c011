"""How much a search bot's card tells about its hand, by a card-play model learned from its plays.

pimc and expert draw the hidden cards so that the other team's plays fit the `heuristic` card play
(a misfit card keeps a world with chance ``play_eps``).  Search bots do not play as that model does;
a model learned from their own plays could weight the worlds better (issue 24: "a card-play model of
search bots").  This script learns one and measures what it would give:

* it fits a conditional logit (a softmax over the legal cards, each card described by a few
  features: points, rank among the cards out, master, suit length, whether it wins the trick, the
  partner winning, last to play, belote, the declaring side...; one set of weights for each of
  lead / follow suit / trump in / discard times suit / NT / AT) to every card the search bots of the
  ``train`` folders played with a choice, the real hands known from the records;
* on the ``--test`` folder it prints the learned model's log loss and how often its likeliest card
  is the card played, beside the `heuristic` card play's;
* for ``--cards`` cards of the test folder it draws ``--worlds`` worlds from the next seat's view
  just after the card fell, as pimc does (with its ``play_eps``, and with every world kept, eps 1),
  and prints the mean log-likelihood ratio of the real hand against those worlds: log p(card | real
  hand) - log mean_worlds p(card | world's hand).  That is the evidence, in nats, by which weighting
  the worlds by the model would move them towards the real cards; 0 means the card tells the model
  nothing the worlds do not already hold.

    python bench/play_model.py TRAIN [TRAIN ...] --test DIR [--iters 300] [--cards 400] [--worlds 16]
"""

from __future__ import annotations

import argparse
import math
import random
from dataclasses import replace
from pathlib import Path

import numpy as np
from argtypes import positive
from recordset import SEARCH_BOTS, record_files, steps
from running import run

from belot.bots.heuristic import choose_card
from belot.bots.sampling import PLAY_EPS, Knowledge, sample
from belot.cards import SUIT_MASKS, belote_partner, count, mask_of
from belot.contracts import AT, NT, TABLES, ContractTable
from belot.game import BELOTE_BASE, CALL_BASE, PLAY, Deal, SeatView
from belot.play import beats, legal_cards

BASE = 21  # features of a card in one context
CONTEXTS = 12  # (lead, follow suit, trump in, discard) x (suit, NT, AT)


class Spot:
    """What the seat to move knows of the trick and the deal, besides its hand."""

    def __init__(self, view: SeatView) -> None:
        self.t: ContractTable = TABLES[view.contract]
        self.seen = view.played
        self.led, self.win, self.partner_winning, self.points = -1, -1, False, 0
        if view.trick:
            self.led = view.trick[0][1] >> 3
            win_seat, self.win = view.trick[0]
            for s, c in view.trick[1:]:
                if beats(self.t, c, self.win):
                    win_seat, self.win = s, c
            self.partner_winning = win_seat == view.seat ^ 2
            self.points = sum(self.t.points[c] for _, c in view.trick)
        self.last = len(view.trick) == 3
        self.declaring = (view.declarer ^ view.seat) & 1 == 0
        self.progress = len(view.tricks) / 7
        self.kind = 2 if view.contract == AT else 1 if view.contract == NT else 0

    def legal(self, hand: int) -> list[int]:
        m = legal_cards(hand, self.t, self.led, self.win, self.partner_winning)
        return [c for c in range(32) if m >> c & 1]

    def features(self, hand: int, cards: list[int]) -> np.ndarray:
        t = self.t
        out = np.zeros((len(cards), BASE * CONTEXTS), dtype=np.float32)
        for i, c in enumerate(cards):
            suit = SUIT_MASKS[c >> 3]
            mine = hand & suit & ~(1 << c)
            higher_out = t.above[c] & ~self.seen & ~hand  # higher cards of the suit the others may hold
            master = higher_out == 0
            trump = bool(t.trump_mask >> c & 1)
            wins = self.led >= 0 and beats(t, c, self.win)
            pts = t.points[c] / 11
            belote = c & 7 in (5, 6) and hand >> belote_partner(c) & 1 and (self.kind == 2 or trump)  # Q, K
            f = (1.0, pts, count(higher_out) / 4, master, count(mine) / 4, mine & ~t.above[c] == 0,
                 mine & t.above[c] == 0, count(suit & ~self.seen & ~hand) / 4, trump,
                 count(hand & t.trump_mask) / 4 if trump else 0.0, wins, wins and self.partner_winning,
                 self.partner_winning * pts, self.last and wins, self.last * pts, belote,
                 wins * self.points / 20, self.declaring, self.declaring and trump, master * pts, self.progress)
            ctx = 0 if self.led < 0 else 1 if c >> 3 == self.led else 2 if trump else 3
            j = (ctx * 3 + self.kind) * BASE
            out[i, j:j + BASE] = f
        return out


def log_probs(w: np.ndarray, x: np.ndarray) -> np.ndarray:
    z = x @ w
    z = z - z.max()
    return z - math.log(float(np.exp(z).sum()))


def plays(files: list[Path]) -> list[tuple[Deal, int, int]]:
    """Every card a search bot played with a choice: (the deal just before it, action, seat)."""
    out = []
    for doc, d, action, actor in steps(files, played_only=True):
        if d.phase != PLAY or action >= CALL_BASE or doc["players"][actor] not in SEARCH_BOTS:
            continue
        if len({a % BELOTE_BASE for a in d.legal_actions() if a < CALL_BASE}) > 1:
            out.append((d.clone(), action, actor))
    return out


def example(d: Deal, action: int, actor: int) -> tuple[np.ndarray, int]:
    card = action % BELOTE_BASE
    view = d.view(actor)
    spot = Spot(view)
    hand = mask_of(view.hand)
    cards = spot.legal(hand)
    return spot.features(hand, cards), cards.index(card)


def fit(examples: list[tuple[np.ndarray, int]], iters: int, l2: float = 1e-3) -> np.ndarray:
    """The conditional logit's weights by Adam on the mean log loss (plus ``l2``)."""
    sizes = np.array([x.shape[0] for x, _ in examples])
    xs = np.vstack([x for x, _ in examples])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    rows = np.repeat(np.arange(len(examples)), sizes)
    chosen = starts + np.array([y for _, y in examples])
    w = np.zeros(xs.shape[1])
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    for it in range(1, iters + 1):
        z = xs @ w
        top = np.maximum.reduceat(z, starts)
        e = np.exp(z - top[rows])
        p = e / np.add.reduceat(e, starts)[rows]
        g = (xs.T @ p - xs[chosen].sum(0)) / len(examples) + l2 * w
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        w -= 0.05 * (m / (1 - 0.9 ** it)) / (np.sqrt(v / (1 - 0.999 ** it)) + 1e-8)
    return w


def chance(w: np.ndarray, spot: Spot, view: SeatView, card: int, hand: int) -> tuple[float, float]:
    """The chance of ``card`` from ``hand`` in ``view``'s place: (by the learned model, by the
    `heuristic` card play as pimc's sampler reads it: 1 if it plays the card, else ``PLAY_EPS``)."""
    cards = spot.legal(hand)
    if len(cards) < 2:
        return 1.0, 1.0
    learned = math.exp(log_probs(w, spot.features(hand, cards))[cards.index(card)])
    v = replace(view, hand=tuple(c for c in range(32) if hand >> c & 1), legal_actions=tuple(cards))
    return learned, 1.0 if choose_card(v, cards) == card else PLAY_EPS


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("train", type=Path, nargs="+", help="folders of belot-record/1 files to learn from")
    ap.add_argument("--test", type=Path, required=True, help="a folder of records to measure on")
    ap.add_argument("--iters", type=positive, default=300, help="optimiser steps (default 300)")
    ap.add_argument("--cards", type=positive, default=400, help="test cards whose evidence is measured (default 400)")
    ap.add_argument("--worlds", type=positive, default=16, help="worlds drawn per such card (default 16)")
    args = ap.parse_args()
    train = [example(*p) for folder in args.train for p in plays(record_files(folder))]
    w = fit(train, args.iters)
    test = plays(record_files(args.test))
    loss = top = heur = uniform = 0.0
    for d, action, actor in test:
        x, y = example(d, action, actor)
        lp = log_probs(w, x)
        loss -= lp[y]
        top += int(np.argmax(lp)) == y
        view = d.view(actor)
        heur += choose_card(view, Spot(view).legal(mask_of(view.hand))) == action % BELOTE_BASE
        uniform += math.log(len(x))
    n = len(test)
    print(f"learned from {len(train)} cards played with a choice by search bots; tested on {n}")
    print(f"log loss a card: learned {loss / n:.3f}, uniform {uniform / n:.3f}; the card played is the "
          f"likeliest: learned {top / n:.3f}, heuristic {heur / n:.3f}")

    rng = random.Random(1)
    judged = list(test)
    random.Random(5).shuffle(judged)
    rows: dict[int, list[tuple[float, float, float]]] = {}
    for d, action, actor in judged[: args.cards]:
        card = action % BELOTE_BASE
        after = d.clone()
        after.apply(action)
        if after.phase != PLAY:
            continue
        view = d.view(actor)
        spot = Spot(view)

        real = chance(w, spot, view, card, mask_of(view.hand))
        out = []
        for eps in (1.0, PLAY_EPS):
            k = Knowledge.from_view(after.view((actor + 1) & 3))  # the next seat, the card just seen
            k.play_eps = eps
            worlds = [chance(w, spot, view, card, sample(k, rng).hands[actor] | 1 << card) for _ in range(args.worlds)]
            out.append([math.log(real[i]) - math.log(sum(x[i] for x in worlds) / len(worlds)) for i in (0, 1)])
        rows.setdefault(len(view.tricks), []).append((out[0][1], out[0][0], out[1][0]))
    print(f"evidence of a card about its player's hand, mean log-likelihood ratio of the real hand against "
          f"{args.worlds} worlds drawn from the next seat's view (nats, +- s.e.)")
    print(f"{'trick':>5} {'cards':>6} {'heuristic, eps 1':>17} {'learned, eps 1':>15} "
          f"{f'learned, eps {PLAY_EPS}':>17}")
    for t in [*sorted(rows), None]:
        sel = [r for tr in rows for r in rows[tr] if t is None or tr == t]
        cells = []
        for i in range(3):
            xs = [r[i] for r in sel]
            mean = sum(xs) / len(xs)
            se = math.sqrt(sum((x - mean) ** 2 for x in xs) / max(1, len(xs) - 1) / len(xs))
            cells.append(f"{mean:+.3f} +- {se:.3f}")
        print(f"{'all' if t is None else t + 1:>5} {len(sel):6d} {cells[0]:>17} {cells[1]:>15} {cells[2]:>17}")


if __name__ == "__main__":
    run(main)
