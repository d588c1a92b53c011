"""Reading who sits at the table from the earlier deals of the match (issue 24).

A deal's view does not say which bot or person holds the other seats, but every card of an earlier
deal that was played out was seen by all four players, so after it a seat knows each hand the
other team held there (`SeatView.past`) and can ask, play by play, whether a sensible player (the
`heuristic` bot's card play, as pimc's samplers model the others) would have played the card that
was played.  `heuristic` players fit that model in every judged play; search bots (`pimc`,
`expert`) in 57-59% of them (docs/strength.md), so a handful of deals tells them apart.
"""

from __future__ import annotations

from functools import lru_cache

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


# A past deal is judged once per process, whatever object holds it: the tournament's bots get the same
# kept views again, the server's bot pool gets equal copies in every decision of a worker (a bot per
# decision), and `SeatView` is a frozen dataclass, so its hash and equality are its contents.
_deal_fit = lru_cache(maxsize=2048)(deal_fit)


def table_fit(view: SeatView) -> tuple[int, int]:
    """(plays fitting the model, plays judged) of the other team over ``view.past``."""
    fit = judged = 0
    for v in view.past:
        f, j = _deal_fit(v)
        fit += f
        judged += j
    return fit, judged


def plays_as_model(view: SeatView) -> bool:
    """Whether the other team has played as the `heuristic` card play does in the earlier deals."""
    fit, judged = table_fit(view)
    return judged >= MIN_PLAYS and fit >= MODEL_SHARE * judged
