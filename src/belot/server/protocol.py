"""The wire format of `belot serve` (docs/protocol.md): seat views and actions as JSON.

Everything a browser receives is built here from a `SeatView` (the information set of one seat,
see belot.game), so the information boundary of the rules core is the only one there is: a seat's
message holds its own cards and public information, a spectator's only public information.  Cards
and calls travel by name (``"JH"``, ``"kontra"``), never as the engine's ints, and the legal
actions are listed in exactly the form a client sends back.
"""

from __future__ import annotations

import json
from typing import Any

from .. import declarations as decl
from ..auction import CALL_NAMES, parse_call
from ..cards import CARD_NAMES, parse_card
from ..contracts import CONTRACT_NAMES
from ..game import AUCTION, BELOTE_BASE, CALL_BASE, DECLARE_BASE, NUM_ACTIONS, OVER, DealResult, SeatView
from ..scoring import rounding_step

ActionJSON = dict[str, Any]


class ProtocolError(ValueError):
    """A message a client sent that is not a well-formed message of the protocol."""


# -- actions ----------------------------------------------------------------------------------


def action_to_json(action: int) -> ActionJSON:
    """``{"card": "JH"}``, ``{"card": "QH", "belote": true}``, ``{"call": "kontra"}``,
    ``{"declare": ["7C", "8C", "9C"], "kind": "tierce"}``."""
    if 0 <= action < BELOTE_BASE:
        return {"card": CARD_NAMES[action]}
    if action < CALL_BASE:
        return {"card": CARD_NAMES[action - BELOTE_BASE], "belote": True}
    if action < DECLARE_BASE:
        return {"call": CALL_NAMES[action - CALL_BASE]}
    if action < NUM_ACTIONS:
        d = decl.DECLARATIONS[action - DECLARE_BASE]
        return {"declare": decl.card_list(d.id), "kind": d.kind}
    raise ValueError(f"{action!r} is not an action")


def action_from_json(obj: Any) -> int:
    """The engine action of one client action object; ProtocolError names what is wrong.

    Only the shape is checked here; whether the action is legal is the rules core's business.
    """
    if not isinstance(obj, dict):
        raise ProtocolError("an action must be a JSON object such as {\"card\": \"JH\"}")
    keys = set(obj)
    if keys == {"call"}:
        call = obj["call"]
        if not isinstance(call, str):
            raise ProtocolError(f"call must be a string, not {call!r}")
        try:
            return CALL_BASE + parse_call(call)
        except ValueError as e:
            raise ProtocolError(str(e)) from None
    if keys in ({"card"}, {"card", "belote"}):
        card, belote = obj["card"], obj.get("belote", False)
        if not isinstance(card, str):
            raise ProtocolError(f"card must be a string such as \"JH\", not {card!r}")
        if not isinstance(belote, bool):
            raise ProtocolError(f"belote must be true or false, not {belote!r}")
        try:
            c = parse_card(card)
        except ValueError as e:
            raise ProtocolError(str(e)) from None
        return BELOTE_BASE + c if belote else c
    if keys in ({"declare"}, {"declare", "kind"}):
        cards = obj["declare"]
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise ProtocolError("declare must be a list of card names such as [\"7C\", \"8C\", \"9C\"]")
        try:
            found = decl.declaration_for_cards([parse_card(c) for c in cards])
        except ValueError as e:
            raise ProtocolError(str(e)) from None
        if found is None:
            raise ProtocolError(f"{' '.join(cards)} is not a declaration (3-8 cards in sequence or a carre)")
        if "kind" in obj and obj["kind"] != found.kind:  # optional, but never contradicting the cards
            raise ProtocolError(f"{' '.join(cards)} is a {found.kind}, not {obj['kind']!r}")
        return DECLARE_BASE + found.id
    raise ProtocolError(
        "an action has exactly one of the forms {\"call\": ...}, {\"card\": ..., \"belote\"?: ...}, "
        f"{{\"declare\": [...], \"kind\"?: ...}}; got the keys {sorted(keys)}"
    )


# -- views ------------------------------------------------------------------------------------


def result_to_json(r: DealResult) -> dict[str, Any]:
    """docs/record-format.md's deal result, plus the announced declarations' cards (shown after the deal,
    R7.5) and the rounding to game points (R10, `scoring.rounding_step`)."""
    out = r.to_json()
    out["declared"] = [[decl.card_list(i) for i in ids] for ids in r.declared] if r.declared else [[], [], [], []]
    rounding = rounding_to_json(r)
    if rounding is not None:
        out["rounding"] = rounding
    return out


def rounding_to_json(r: DealResult) -> dict[str, Any] | None:
    """The R10 step of a deal with a contract: ``{"teams": [T0, T1]}`` or ``{"whole": P}``."""
    if r.contract < 0:
        return None
    step = rounding_step(r.contract, r.declarer & 1, r.totals, r.multiplier)
    return {"whole": step} if isinstance(step, int) else {"teams": list(step)}


def actions_in(view: SeatView) -> int:
    """How many actions (calls, declarations, cards) the deal of ``view`` has applied: public."""
    played = sum(len(cards) for _, cards, _ in view.tricks) + len(view.trick)
    return len(view.calls) + played + sum(len(a) for a in view.announced)


def history_to_json(history: tuple[DealResult, ...]) -> list[dict[str, Any]]:
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


def view_to_json(view: SeatView, *, public: bool = False, history: Any = None) -> dict[str, Any]:
    """The JSON of a seat's view; with ``public`` the spectators' view (no hand, no legal actions).

    The shape is documented in docs/protocol.md ("The view").  ``history`` replaces the
    ``history`` field (a server caches it: it changes once a deal).
    """
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
    dealt = 5 if view.phase == AUCTION or (view.phase == OVER and view.contract < 0) else 8
    out = {
        "seat": None,
        "deal_index": view.deal_index,
        "actions": actions_in(view),
        "dealer": view.dealer,
        "phase": view.phase,
        "to_move": view.to_move if view.to_move >= 0 and view.phase != OVER else None,
        "hand": [],
        "hand_sizes": [dealt - played_by[s] for s in range(4)],
        "calls": [{"seat": s, "call": CALL_NAMES[c]} for s, c in view.calls],
        "contract": CONTRACT_NAMES[view.contract] if view.contract >= 0 else None,
        "declarer": view.declarer if view.contract >= 0 else None,
        "multiplier": view.multiplier,
        "tricks": tricks,
        "trick": [{"seat": s, "card": CARD_NAMES[c]} for s, c in view.trick],
        "announced": [list(kinds) for kinds in view.announced],
        "own_declarations": [],
        "belotes": [{"seat": s, "card": CARD_NAMES[c]} for s, c in view.belotes],
        "legal": [],
        "pot": view.pot,
        "result": result_to_json(view.result) if view.result is not None else None,
        "score": list(view.score),
        "target": view.target,
        "winner": view.winner,
        "history": history_to_json(view.history) if history is None else history,
    }
    if not public:
        out.update(private_fields(view))
    return out


PRIVATE_FIELDS = ("seat", "hand", "own_declarations", "legal")
_ACTION_TEXT: tuple[str, ...] = tuple(
    json.dumps(action_to_json(a), separators=(",", ":")) for a in range(NUM_ACTIONS)
)


def _cards_text(cards: Any) -> str:
    return "[" + ",".join(f'"{CARD_NAMES[c]}"' for c in cards) + "]"  # card names need no escaping


def private_fields_text(view: SeatView) -> dict[str, str]:
    """`private_fields` already encoded as JSON text, from precomputed pieces (it is on the hot path)."""
    return {
        "seat": str(view.seat),
        "hand": _cards_text(view.hand),
        "own_declarations": "[" + ",".join(_cards_text(decl.DECLARATIONS[i].cards) for i in view.own_declarations) + "]",
        "legal": "[" + ",".join(_ACTION_TEXT[a] for a in view.legal_actions) + "]",
    }


def private_fields(view: SeatView) -> dict[str, Any]:
    """The fields of a view only its own seat may see (a spectator's are null and empty)."""
    return {
        "seat": view.seat,
        "hand": [CARD_NAMES[c] for c in view.hand],
        "own_declarations": [decl.card_list(i) for i in view.own_declarations],
        "legal": [action_to_json(a) for a in view.legal_actions],
    }


__all__ = [
    "PRIVATE_FIELDS",
    "ActionJSON",
    "ProtocolError",
    "action_from_json",
    "action_to_json",
    "actions_in",
    "history_to_json",
    "private_fields",
    "private_fields_text",
    "result_to_json",
    "view_to_json",
]
