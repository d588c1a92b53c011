"""The ``random`` bot: uniform among the legal calls and cards, announcing all it holds."""

from __future__ import annotations

import random

from ..cards import mask_of
from ..declarations import best_declarations
from ..game import BELOTE_BASE, CALL_BASE, DECLARE_BASE, SeatView


def announce_first(view: SeatView) -> int | None:
    """The next declaration of the best announcement (R7.4 default, under the view's options:
    `OPT-EIGHT-SPLIT`, `OPT-CARRE-FIRST`) still to make, if any."""
    legal = view.legal_actions
    if not any(a >= DECLARE_BASE for a in legal):
        return None
    for i in best_declarations(mask_of(view.hand), view.rules):
        if i not in view.own_declarations and DECLARE_BASE + i in legal:
            return DECLARE_BASE + i
    return None


def with_belote(view: SeatView, card: int) -> int:
    """``card`` with belote announced when that is legal, else ``card``."""
    return BELOTE_BASE + card if BELOTE_BASE + card in view.legal_actions else card


class RandomBot:
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, view: SeatView) -> int:
        legal = view.legal_actions
        if not legal:
            raise ValueError("the bot was asked to act but has no legal action")
        if legal[0] >= CALL_BASE and legal[0] < DECLARE_BASE:
            return self.rng.choice(legal)
        declare = announce_first(view)
        if declare is not None:
            return declare
        cards = [a for a in legal if a < BELOTE_BASE]
        return with_belote(view, self.rng.choice(cards))
