"""The wire format of `belot serve` (docs/protocol.md): seat views and actions as JSON.

What a browser may see is projected by the rules core (`belot.visibility`, from a `SeatView`,
the information set of one seat), so the information boundary of the core is the only one there
is: this module adds only the server's extras (the R10 rounding step of a result) and reads
client actions.  Cards and calls travel by name (``"JH"``, ``"kontra"``), never as the engine's
ints, and the legal actions are listed in exactly the form a client sends back.
"""

from __future__ import annotations

from typing import Any

from .. import declarations as decl
from ..auction import parse_call
from ..cards import parse_card
from ..errors import shown
from ..game import BELOTE_BASE, CALL_BASE, DECLARE_BASE, DealResult, SeatView
from ..visibility import Viewer, action_json, history_json, own_view, public_view, view_json

ActionJSON = dict[str, Any]


class ProtocolError(ValueError):
    """A message a client sent that is not a well-formed message of the protocol."""


# -- actions ----------------------------------------------------------------------------------


def action_to_json(action: int) -> ActionJSON:
    """``{"card": "JH"}``, ``{"card": "QH", "belote": true}``, ``{"call": "kontra"}``,
    ``{"declare": ["7C", "8C", "9C"], "kind": "tierce"}`` (`belot.visibility.action_json`)."""
    return action_json(action)


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
            raise ProtocolError(f"call must be a string, not {shown(call)}")
        try:
            return CALL_BASE + parse_call(call)
        except ValueError as e:
            raise ProtocolError(str(e)) from None
    if keys in ({"card"}, {"card", "belote"}):
        card, belote = obj["card"], obj.get("belote", False)
        if not isinstance(card, str):
            raise ProtocolError(f"card must be a string such as \"JH\", not {shown(card)}")
        if not isinstance(belote, bool):
            raise ProtocolError(f"belote must be true or false, not {shown(belote)}")
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
            raise ProtocolError(f"{shown(' '.join(cards), quote=False)} is not a declaration (3-8 cards in sequence or a carre)")
        if "kind" in obj and obj["kind"] != found.kind:  # optional, but never contradicting the cards
            raise ProtocolError(f"{' '.join(cards)} is a {found.kind}, not {shown(obj['kind'])}")
        return DECLARE_BASE + found.id
    raise ProtocolError(
        "an action has exactly one of the forms {\"call\": ...}, {\"card\": ..., \"belote\"?: ...}, "
        f"{{\"declare\": [...], \"kind\"?: ...}}; got the keys {shown(sorted(keys))}"
    )


# -- views ------------------------------------------------------------------------------------


def rounding_to_json(r: DealResult) -> dict[str, Any] | None:
    """The R10 step of a deal with a contract: ``{"teams": [T0, T1]}`` or ``{"whole": P}``."""
    if r.contract < 0:
        return None
    step = r.rounding()
    return {"whole": step} if isinstance(step, int) else {"teams": list(step)}


def with_rounding(view: dict[str, Any], result: DealResult | None) -> dict[str, Any]:
    """A projection of `belot.visibility` whose deal result carries its R10 rounding step."""
    if result is not None and view.get("result") is not None:
        # Added to the projection's own result, which judged the declarations under the table's rules.
        rounding = rounding_to_json(result)
        if rounding is not None:
            view["result"]["rounding"] = rounding
    return view


def public_view_json(view: SeatView) -> dict[str, Any]:
    """The public part of a view (`belot.visibility.public_view`) without the history, which a
    server encodes apart (it changes once a deal)."""
    return with_rounding(public_view(view, history=False), view.result)


def view_to_json(view: SeatView, viewer: Viewer) -> dict[str, Any]:
    """The JSON of ``view`` as ``viewer`` (a seat, or None: a spectator) may see it (docs/protocol.md,
    "The view"): `belot.visibility.view_json` with the R10 rounding of a deal result."""
    return with_rounding(view_json(view, viewer), view.result)


__all__ = [
    "ActionJSON",
    "ProtocolError",
    "action_from_json",
    "action_to_json",
    "history_json",
    "own_view",
    "public_view_json",
    "rounding_to_json",
    "view_to_json",
    "with_rounding",
]
