"""What a viewer may see of a game: a seat's or a spectator's projection of a view, an action, a replay.

Every app renders these projections and adds no knowledge of its own: the server sends them to
browsers, the terminal prints them, replays step through them.  A projection is plain JSON data
(cards and calls by name, ``"JH"``, ``"kontra"``).  It is built in two parts that never mix:
`public_view` reads only what every seat sees (calls, played cards, declaration *kinds*, belotes,
the score), and `own_view` what only the viewing seat sees (its hand, its own declarations by
cards, its legal actions); a spectator's own part is empty.  Actions follow R7.5: another seat's
declaration shows only its kind (``{"announce": "tierce"}``) until the deal is over, one's own by
its cards; after the last trick every declaration is shown by its cards.  R2.3: while the auction
lasts, and in a deal that all four passed, a seat has seen only its first five cards.

>>> from belot.game import CALL_BASE
>>> seen_action(CALL_BASE, actor=1, viewer=None)
{'call': 'pass'}
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from . import declarations as decl
from .auction import CALL_NAMES
from .cards import CARD_NAMES
from .contracts import CONTRACT_NAMES, Rules
from .game import (
    AUCTION,
    BELOTE_BASE,
    CALL_BASE,
    DECLARE_BASE,
    NUM_ACTIONS,
    OVER,
    Deal,
    DealResult,
    Match,
    SeatView,
)

Viewer = int | None
"""A seat 0-3, or None for a spectator."""

SPECTATOR: Viewer = None


# -- actions ------------------------------------------------------------------------------------


def declaration_json(i: int) -> dict[str, Any]:
    """A declaration by its cards and kind: ``{"declare": ["7C", "8C", "9C"], "kind": "tierce"}``."""
    return {"declare": decl.card_list(i), "kind": decl.DECLARATIONS[i].kind}


def action_json(action: int) -> dict[str, Any]:
    """An action in full, as its actor sees it: ``{"card": "JH"}``, ``{"card": "QH", "belote": true}``,
    ``{"call": "kontra"}``, ``{"declare": ["7C", "8C", "9C"], "kind": "tierce"}``."""
    if 0 <= action < BELOTE_BASE:
        return {"card": CARD_NAMES[action]}
    if action < CALL_BASE:
        return {"card": CARD_NAMES[action - BELOTE_BASE], "belote": True}
    if action < DECLARE_BASE:
        return {"call": CALL_NAMES[action - CALL_BASE]}
    if action < NUM_ACTIONS:
        return declaration_json(action - DECLARE_BASE)
    raise ValueError(f"{action!r} is not an action")


def seen_action(action: int, actor: int, viewer: Viewer, deal_over: bool = False) -> dict[str, Any]:
    """What ``viewer`` may see of ``actor``'s action (R7.5): another seat's declaration only by its
    kind, ``{"announce": "tierce"}``, until the deal is over; everything else in full."""
    if DECLARE_BASE <= action < NUM_ACTIONS and actor != viewer and not deal_over:
        return {"announce": decl.DECLARATIONS[action - DECLARE_BASE].kind}
    return action_json(action)


# -- views --------------------------------------------------------------------------------------


def result_json(r: DealResult, rules: Rules) -> dict[str, Any]:
    """docs/record-format.md's deal result, plus every announced declaration by its cards, by seat: once
    the deal is over the details are public (R7.5); ``declared_detail`` gives each one's kind, value
    and whether it counted (R7.6, `belot.declarations.counted`)."""
    out = r.to_json()
    declared = r.declared or ((), (), (), ())
    out["declared"] = [[decl.card_list(i) for i in ids] for ids in declared]
    out["declared_detail"] = [
        [{"kind": decl.DECLARATIONS[i].kind, "value": decl.DECLARATIONS[i].value, "cards": decl.card_list(i), "counted": ok}
         for i, ok in zip(ids, verdicts)]
        for ids, verdicts in zip(declared, decl.counted(declared, rules))
    ]
    return out


def actions_in(view: SeatView) -> int:
    """How many actions (calls, declarations, cards) the deal of ``view`` has applied: public."""
    played = sum(len(cards) for _, cards, _ in view.tricks) + len(view.trick)
    return len(view.calls) + played + sum(len(a) for a in view.announced)


def history_json(history: tuple[DealResult, ...]) -> list[dict[str, Any]]:
    """The finished deals' results, each with the match score after it."""
    score = [0, 0]
    out = []
    for r in history:
        score[0] += r.points[0]
        score[1] += r.points[1]
        item = r.to_json()
        item["score"] = list(score)
        out.append(item)
    return out


def _seen_five(phase: str, contract: int) -> bool:
    return phase == AUCTION or (phase == OVER and contract < 0)  # R2.3, R3.6


def public_view(view: SeatView, history: bool = True) -> dict[str, Any]:
    """Everything of ``view`` that every seat and spectator sees; reads no hidden field of it."""
    played_by = [0, 0, 0, 0]
    tricks = []
    for leader, cards, winner in view.tricks:
        tricks.append({
            "leader": leader,
            "cards": [{"seat": (leader + k) & 3, "card": CARD_NAMES[c]} for k, c in enumerate(cards)],
            "winner": winner,
        })
        for k in range(len(cards)):
            played_by[(leader + k) & 3] += 1
    for seat, _ in view.trick:
        played_by[seat] += 1
    dealt = 5 if _seen_five(view.phase, view.contract) else 8
    out: dict[str, Any] = {
        "deal_index": view.deal_index,
        "actions": actions_in(view),
        "dealer": view.dealer,
        "phase": view.phase,
        "to_move": view.to_move if view.to_move >= 0 and view.phase != OVER else None,
        "hand_sizes": [dealt - played_by[s] for s in range(4)],
        "calls": [{"seat": s, "call": CALL_NAMES[c]} for s, c in view.calls],
        "contract": CONTRACT_NAMES[view.contract] if view.contract >= 0 else None,
        "declarer": view.declarer if view.contract >= 0 else None,
        "multiplier": view.multiplier,
        "tricks": tricks,
        "trick": [{"seat": s, "card": CARD_NAMES[c]} for s, c in view.trick],
        "announced": [list(kinds) for kinds in view.announced],
        "belotes": [{"seat": s, "card": CARD_NAMES[c]} for s, c in view.belotes],
        "pot": view.pot,
        "result": result_json(view.result, view.rules) if view.result is not None else None,
        "score": list(view.score),
        "target": view.target,
        "winner": view.winner,
    }
    if history:
        out["history"] = history_json(view.history)
    return out


def own_view(view: SeatView | None) -> dict[str, Any]:
    """What only the viewing seat sees of its view: its seat, hand, own declarations (by cards and
    kind) and legal actions; for a spectator (``None``) the same fields, empty."""
    if view is None:
        return {"seat": None, "hand": [], "own_declarations": [], "legal": []}
    return {
        "seat": view.seat,
        "hand": [CARD_NAMES[c] for c in view.hand],
        "own_declarations": [declaration_json(i) for i in view.own_declarations],
        "legal": [action_json(a) for a in view.legal_actions],
    }


def view_json(view: SeatView, viewer: Viewer) -> dict[str, Any]:
    """The whole projection of ``view`` for ``viewer``: public part and own part (empty for a spectator)."""
    return {**public_view(view), **own_view(view if viewer is not None else None)}


def finished_deal_view(match: Match, index: int, viewer: Viewer) -> dict[str, Any]:
    """A finished deal of ``match`` as ``viewer`` saw it at its end (with the match score now; an
    all-pass deal's hand is the seat's first five cards, R2.3, as its `SeatView` has it)."""
    out = view_json(match.deals[index].view(0 if viewer is None else viewer), viewer)
    out.update(deal_index=index, score=list(match.score), target=match.target, winner=None, history=[])
    return out


# -- replays ------------------------------------------------------------------------------------


def open_hands(deal: Deal) -> list[list[str]]:
    """Every seat's dealt cards as far as they are dealt (five while bidding, R2.3), in card order."""
    five = _seen_five(deal.phase, deal.contract)
    return [[CARD_NAMES[c] for c in sorted(h[:5] if five else h)] for h in deal.dealt]


def replay_steps(match: Match, viewer: Viewer = None, open_cards: bool = True) -> list[list[dict[str, Any]]]:
    """The positions of every deal of ``match``, by deal: the position as dealt, then after each action.

    Each step is ``{"actor", "action", "view"}`` (``actor`` and ``action`` None for the position as
    dealt); ``action`` is what ``viewer`` may see of it (`seen_action`), ``view`` is `view_json`
    for ``viewer`` without the history.  With ``open_cards`` (a finished game's replay) every
    declaration is shown by its cards and the view has ``hands``, each seat's dealt cards
    (`open_hands`), and ``declared``, each seat's declarations so far by their cards; without, the steps show exactly what ``viewer`` saw during the game.
    """
    out = []
    score = (0, 0)
    # the target each deal was played to: OPT-CAPOT-EN raises it after a valat (R12.2); a past view
    # holds the target as its deal left it
    targets = [match.start_target, *(v.target for v in match.view(0).past)] if match.deals else []
    for index, deal in enumerate(match.deals):
        trial = Deal(deal.dealer, deal.dealt, match.rules, deal.pot)
        target = targets[index]
        steps = [_step(trial, None, None, viewer, open_cards, index, score, target)]
        for actor, action in zip(deal.actors, deal.actions):
            trial.apply(action)
            steps.append(_step(trial, actor, action, viewer, open_cards, index, score, target))
        if deal.result is not None:
            score = (score[0] + deal.result.points[0], score[1] + deal.result.points[1])
        out.append(steps)
    return out


def _step(
    deal: Deal, actor: int | None, action: int | None, viewer: Viewer, open_cards: bool,
    index: int, score: tuple[int, int], target: int,
) -> dict[str, Any]:
    seat_view = replace(deal.view(0 if viewer is None else viewer), deal_index=index, score=score, target=target)
    view = {**public_view(seat_view, history=False), **own_view(seat_view if viewer is not None else None)}
    if open_cards:
        view["hands"] = open_hands(deal)
        view["declared"] = [[decl.card_list(i) for i in ids] for ids in deal.declared]
    shown = None
    if actor is not None and action is not None:
        shown = action_json(action) if open_cards else seen_action(action, actor, viewer, deal.is_over)
    return {"actor": actor, "action": shown, "view": view}


__all__ = [
    "SPECTATOR",
    "Viewer",
    "action_json",
    "actions_in",
    "declaration_json",
    "finished_deal_view",
    "history_json",
    "open_hands",
    "own_view",
    "public_view",
    "replay_steps",
    "result_json",
    "seen_action",
    "view_json",
]
