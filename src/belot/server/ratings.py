"""Ratings of people with accounts: OpenSkill's Plackett-Luce model, team-aware, one update a match.

Belot is played two against two, so a rating must credit a team, not a person alone: OpenSkill
(`openskill`, a maintained, MIT-licensed Python implementation of Weng and Lin's Bayesian
approximation) rates teams directly and keeps an uncertainty (sigma) per player, so a new account
moves quickly and a settled one slowly. Only accounts are updated; guests and bots carry fixed
ratings: a guest is the model's default newcomer (mu 25, sigma 25/3), a bot a fixed mu with a small
sigma, measured from the duplicate tournaments of docs/strength.md (`bot_ratings`).

>>> r = rate([("account", 25.0, 25 / 3), "bot:heuristic", "guest", "bot:heuristic"], winner=0)
>>> round(r[0][0], 2), round(r[0][1], 3)
(27.62, 7.959)
"""

from __future__ import annotations

import math
from functools import cache

from openskill.models import PlackettLuce, PlackettLuceRating

MODEL = PlackettLuce()
DEFAULT_MU = MODEL.mu  # 25
DEFAULT_SIGMA = MODEL.sigma  # 25/3
BOT_SIGMA = 1.0  # a bot's strength is known; it is not updated
ANCHOR = "bot:heuristic"  # the bot a newcomer is taken to be level with (both at mu 25)

# Match win rates of duplicate tournaments (docs/strength.md, "Strength"): A beats B this often
# when A's two seats play B's two seats over the same cards.
HEURISTIC_OVER_RANDOM = 378 / 380  # heuristic vs random, seed 1
PIMC_OVER_HEURISTIC = 283 / 360  # pimc vs heuristic, seeds 1 and 2 pooled
EXPERT_OVER_PIMC = 140 / 248  # expert vs pimc, about 400 deal pairs on each of seeds 1, 2 and 11, pooled


def ordinal(mu: float, sigma: float) -> float:
    """The number a leaderboard sorts by: mu - 3 sigma (a newcomer 0; it rises as sigma shrinks)."""
    return mu - 3 * sigma


def _gap(p: float) -> float:
    """The mu by which each of two team-mates must exceed each of two others for the model to
    predict that their team wins with probability ``p`` (all four at `BOT_SIGMA`); by bisection on
    the model's own `predict_win`, so the bots' ratings mean what the tournaments measured."""
    lo, hi = 0.0, 100.0
    for _ in range(60):
        mid = (lo + hi) / 2
        strong = MODEL.rating(mu=DEFAULT_MU + mid, sigma=BOT_SIGMA)
        weak = MODEL.rating(mu=DEFAULT_MU, sigma=BOT_SIGMA)
        if MODEL.predict_win([[strong, strong], [weak, weak]])[0] < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


@cache
def bot_ratings() -> dict[str, float]:
    """The fixed mu of each bot: heuristic 25, random below it, pimc above it and expert above pimc
    by the gaps the tournaments' match win rates imply (`_gap`). Other bots (a level added later)
    count as heuristic."""
    pimc = DEFAULT_MU + _gap(PIMC_OVER_HEURISTIC)
    return {
        "bot:random": DEFAULT_MU - _gap(HEURISTIC_OVER_RANDOM),
        ANCHOR: DEFAULT_MU,
        "bot:pimc": pimc,
        "bot:expert": pimc + _gap(EXPERT_OVER_PIMC),
    }


Player = tuple[str, float, float] | str  # ("account", mu, sigma), or "guest", or a bot level "bot:..."


def _rating(player: Player) -> PlackettLuceRating:
    if isinstance(player, tuple):
        return MODEL.rating(mu=player[1], sigma=player[2])
    if player.startswith("bot:"):
        return MODEL.rating(mu=bot_ratings().get(player, DEFAULT_MU), sigma=BOT_SIGMA)
    return MODEL.rating(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)


def rate(players: list[Player], winner: int) -> dict[int, tuple[float, float]]:
    """The new (mu, sigma) of each account seat of a finished match, by seat; ``players`` by seat
    (team 0 is seats 0 and 2), ``winner`` the winning team. Guests and bots are not returned."""
    r = [_rating(p) for p in players]
    teams = [[r[0], r[2]], [r[1], r[3]]]
    new = MODEL.rate(teams, ranks=[0, 1] if winner == 0 else [1, 0])
    by_seat = {0: new[0][0], 2: new[0][1], 1: new[1][0], 3: new[1][1]}
    out = {}
    for s, p in enumerate(players):
        if isinstance(p, tuple):
            mu, sigma = float(by_seat[s].mu), float(by_seat[s].sigma)
            if not (math.isfinite(mu) and math.isfinite(sigma)):  # never store a broken rating
                mu, sigma = p[1], p[2]
            out[s] = (mu, sigma)
    return out


__all__ = ["BOT_SIGMA", "DEFAULT_MU", "DEFAULT_SIGMA", "bot_ratings", "ordinal", "rate"]
