"""Reading who sits at the table from the earlier deals of the match (issue 24).

A deal's view does not say which bot or person holds the other seats, but every card of an earlier
deal that was played out was seen by all four players, so after it a seat knows each hand the
other team held there (`SeatView.past`) and can ask, play by play, whether a sensible player (the
`heuristic` bot's card play, as pimc's samplers model the others) would have played the card that
was played.  `heuristic` players fit that model in every judged play; search bots (`pimc`,
`expert`) in 57-59% of them (docs/strength.md), so a handful of deals tells them apart.
"""

from __future__ import annotations

from ..contracts import TABLES
from ..game import SeatView
from .sampling import Knowledge, model_card

# A team is read as playing as the model does from this many judged plays, this share of them fitting
MIN_PLAYS = 12
MODEL_SHARE = 0.95


def deal_fit(view: SeatView) -> tuple[int, int]:
    """In one played-out deal (a seat's view at its end): of the other team's card plays with more
    than one legal card, how many the `heuristic` card play makes, and how many there were."""
    if view.contract < 0 or not view.tricks:
        return 0, 0
    t = TABLES[view.contract]
    fit = judged = 0
    for p in Knowledge.from_view(view).plays:
        card = model_card(p, p.later, t)  # its hand then: the cards it played from there on
        if card is not None:
            judged += 1
            fit += card == p.card
    return fit, judged


class TableReader:
    """`deal_fit` summed over a match's earlier deals, each past deal read once (views are kept)."""

    def __init__(self) -> None:
        # id of a past view -> the view (kept, so the id stays its own) and its fit
        self._read: dict[int, tuple[SeatView, tuple[int, int]]] = {}

    def fit(self, view: SeatView) -> tuple[int, int]:
        """(plays fitting the model, plays judged) of the other team over ``view.past``."""
        fit = judged = 0
        for v in view.past:
            if id(v) not in self._read:
                self._read[id(v)] = (v, deal_fit(v))
            f, j = self._read[id(v)][1]
            fit += f
            judged += j
        return fit, judged

    def plays_as_model(self, view: SeatView) -> bool:
        """Whether the other team has played as the `heuristic` card play does in the earlier deals."""
        fit, judged = self.fit(view)
        return judged >= MIN_PLAYS and fit >= MODEL_SHARE * judged
