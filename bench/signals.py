"""How often each bot's discards and low follows carry the information a card convention reads.

`expert` discards by a convention (`ExpertBot._pick`: a plain discard from a suit whose master it
does not hold) and reads its partner's discards so (`sampling.signals_plausible`).  This script says,
from tournament records, with the real hands:

* *discards*: plain discards (off the suit led, not a trump of a suit contract) by each player, the
  share where the hand could break the convention (another discard would have) and how many of those
  did break it
  (`sampling.discard_signal_broken`).  A reading of a player's discards is as sharp as its breaks
  are rare there.
* *follows*: cards played to the suit led (not trumps), those where the player chose among two or
  more cards of no points of that suit, and among those how often it played the lowest and how often
  it held the suit's master: what a convention on the low card followed (high spot: I hold the
  master) could say, and how often.
* *leads*: cards led from a plain suit (not the trump suit of a suit contract) of which the leader
  held two or more cards, how often it held the suit's master and how often it then led the master:
  how much a lead below the master says that the leader lacks it (a reading with no new convention).

    python bench/signals.py DIR [--files N]
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from argtypes import count
from recordset import record_files, steps
from running import run

from belot.bots.sampling import discard_signal_broken, is_discard, master_suits
from belot.cards import SUIT_MASKS, cards_of
from belot.game import BELOTE_BASE, CALL_BASE, PLAY

ALL_CARDS = (1 << 32) - 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("records", type=Path, help="a folder of belot-record/1 files")
    ap.add_argument("--files", type=count, default=0, help="read only the first N records (0: all)")
    args = ap.parse_args()
    n: Counter[tuple[str, str]] = Counter()
    for doc, d, action, actor in steps(record_files(args.records, args.files), played_only=True):
        if d.phase != PLAY or action >= CALL_BASE:
            continue
        card = action - BELOTE_BASE if action >= BELOTE_BASE else action
        t, hand, who = d.table, d.hands[actor], doc["players"][actor]
        seen = ALL_CARDS & ~(d.hands[0] | d.hands[1] | d.hands[2] | d.hands[3])
        masters = master_suits(hand, seen, t)
        if not d.trick:
            suit = card >> 3
            if suit != t.trump_suit and (hand & SUIT_MASKS[suit]).bit_count() > 1:
                n[who, "leads"] += 1
                n[who, "lead master held"] += masters >> suit & 1
                n[who, "led master"] += t.above[card] & ~seen == 0
            continue
        led = d.trick[0] >> 3
        if is_discard(card, led, t):
            n[who, "discards"] += 1
            if any(discard_signal_broken(hand, c, led, seen, t) for c in cards_of(hand) if is_discard(c, led, t)):
                n[who, "could break"] += 1
                n[who, "broke"] += discard_signal_broken(hand, card, led, seen, t)
        elif card >> 3 == led != t.trump_suit:
            n[who, "follows"] += 1
            low = [c for c in cards_of(hand & SUIT_MASKS[led]) if t.points[c] == 0]
            if len(low) > 1 and card in low:
                n[who, "low choices"] += 1
                n[who, "lowest"] += card == min(low, key=lambda c: t.strength[c])
                n[who, "master held"] += masters >> led & 1
    for who in sorted({w for w, _ in n}):
        print(f"{who}: {n[who, 'discards']} plain discards, {n[who, 'could break']} could break the convention, "
              f"{n[who, 'broke']} broke it; {n[who, 'follows']} follows, {n[who, 'low choices']} a choice "
              f"among low cards ({n[who, 'lowest']} the lowest played, the master held in {n[who, 'master held']}); "
              f"{n[who, 'leads']} plain leads from two or more cards of the suit, the master held in "
              f"{n[who, 'lead master held']} and led in {n[who, 'led master']}")


if __name__ == "__main__":
    run(main)
