"""Helpers of the server tests: drive tables over websockets and check what every message revealed."""

from __future__ import annotations

import contextlib
import random
import re
from typing import Any

from belot.cards import CARD_NAMES
from belot.game import AUCTION, CALL_BASE, DECLARE_BASE, Deal
from belot.record import replay
from belot.server.protocol import action_to_json

CARD_RE = re.compile(r"^[789TJQKA][CDHS]$")
SPECTATOR = "spectator"


def cards_in(obj: Any) -> set[str]:
    """Every string in a JSON value that is a card name."""
    found: set[str] = set()
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            if CARD_RE.match(x):
                found.add(x)
        elif isinstance(x, dict):
            stack.extend(x.values())
            stack.extend(x.keys())
        elif isinstance(x, list):
            stack.extend(x)
    return found


def play_over_websockets(
    client: Any, table_id: str, tokens: dict[int, str], rng: random.Random
) -> dict[Any, list[dict[str, Any]]]:
    """Play a whole match: each seat in ``tokens`` is a scripted human choosing random legal actions.

    A spectator's socket tells whose turn it is; the human to move reads its own socket up to that
    state and answers with one of its ``legal`` actions.  Returns every message each socket got
    (keys: seats, and SPECTATOR), all sockets read to the final state.
    """
    messages: dict[Any, list[dict[str, Any]]] = {s: [] for s in tokens}
    messages[SPECTATOR] = []
    with contextlib.ExitStack() as stack:
        socks = {
            s: stack.enter_context(client.websocket_connect(f"/api/tables/{table_id}/ws?token={tok}"))
            for s, tok in tokens.items()
        }
        spec = stack.enter_context(client.websocket_connect(f"/api/tables/{table_id}/ws"))

        def read_until(key: Any, ws: Any, pred: Any) -> dict[str, Any]:
            while True:
                m = ws.receive_json()
                messages[key].append(m)
                assert m["type"] != "error", m
                if pred(m):
                    return m

        acted = -1
        while True:
            m = read_until(SPECTATOR, spec, lambda m, acted=acted: m["table"]["status"] != "waiting" and (
                m["view"]["winner"] is not None or (m["view"]["to_move"] in tokens and m["seq"] > acted)))
            if m["view"]["winner"] is not None:
                break
            seat, seq = m["view"]["to_move"], m["seq"]
            mine = read_until(seat, socks[seat], lambda x, seq=seq: x["seq"] == seq)
            assert mine["view"]["legal"], mine["view"]
            socks[seat].send_json({"type": "action", "action": rng.choice(mine["view"]["legal"]), "seq": seq})
            acted = seq
        final = m["seq"]
        for s, ws in socks.items():
            read_until(s, ws, lambda x: x["seq"] == final)
    return messages


def check_information(record_doc: dict[str, Any], messages: dict[Any, list[dict[str, Any]]]) -> int:
    """No message to a seat or spectator holds a card of another seat before it was played.

    The truth is the finished match's record: for a message about deal ``d`` after ``n`` actions,
    a seat may see its own cards (the first five while the auction lasts, R2.3) and the cards
    played among those ``n`` actions; a spectator only the latter.  Also checks that the view's
    hand is exactly the seat's unplayed visible cards.  Returns the number of messages checked.
    """
    match = replay(record_doc)
    deals = match.deals
    flat: list[tuple[int, int]] = [(s, a) for d in deals for s, a in zip(d.actors, d.actions)]
    checked = 0
    for key, msgs in messages.items():
        seat = None if key == SPECTATOR else key
        for m in msgs:
            if m["type"] != "state":
                continue
            checked += 1
            assert not cards_in(m["table"]) and not cards_in(m["you"])
            _check_deal_view(deals, seat, m["view"])
            if m["previous_deal"] is not None:
                pd = m["previous_deal"]
                assert pd["actions"] == len(deals[pd["deal_index"]].actions)
                _check_deal_view(deals, seat, pd)
            la = m["last_action"]
            if m["seq"] == 0:
                assert la is None
                continue
            actor, action = flat[m["seq"] - 1]
            assert la["seat"] == actor
            if action >= DECLARE_BASE and actor != seat:
                assert set(la["action"]) == {"announce"} and not cards_in(la), la
            else:
                assert la["action"] == action_to_json(action)
    return checked


def _check_deal_view(deals: list[Deal], seat: int | None, v: dict[str, Any]) -> None:
    deal = deals[v["deal_index"]]
    n = v["actions"]
    prefix = deal.actions[:n]
    assert len(prefix) == n
    played = {CARD_NAMES[a & 31] for a in prefix if a < CALL_BASE}
    allowed = set(played)
    if seat is None:
        assert v["hand"] == [] and v["legal"] == [] and v["own_declarations"] == []
    else:
        trial = Deal(deal.dealer, deal.dealt)
        for a in prefix:
            trial.apply(a)
        seen_five = trial.phase == AUCTION or (trial.is_over and trial.contract < 0)  # R2.3, R3.6
        own = deal.dealt[seat][:5] if seen_five else deal.dealt[seat]
        allowed |= {CARD_NAMES[c] for c in own}
        assert v["hand"] == [CARD_NAMES[c] for c in sorted(own) if CARD_NAMES[c] not in played]
    leaked = cards_in(v) - allowed
    assert not leaked, f"seat {seat} saw {sorted(leaked)} in deal {v['deal_index']} after {n} actions"
