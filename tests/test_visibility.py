"""belot.visibility: what a seat or a spectator may see of an action, a view, a replay (R2.3, R7.5)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from server_helpers import cards_in

from belot import declarations as decl
from belot.cards import CARD_NAMES
from belot.game import DECLARE_BASE, Match
from belot.record import replay, to_json
from belot.visibility import own_view, public_view, replay_steps, seen_action, view_json


def random_match(seed: int, target: int = 41) -> Match:
    rng = random.Random(seed)
    m = Match(target=target, rng=rng)
    while not m.is_over:
        legal = m.legal_actions()
        declares = [a for a in legal if a >= DECLARE_BASE]
        m.apply(declares[0] if declares else rng.choice(legal))
    return replay(to_json(m))  # as a record replays it


def test_r7_5_another_seats_declaration_shows_its_kind_only_until_the_deal_ends() -> None:
    tierce = DECLARE_BASE + decl.declaration_for_cards([0, 1, 2]).id  # type: ignore[union-attr]
    assert seen_action(tierce, actor=1, viewer=2) == {"announce": "tierce"}
    assert seen_action(tierce, actor=1, viewer=None) == {"announce": "tierce"}
    assert seen_action(tierce, actor=1, viewer=1) == {"declare": ["7C", "8C", "9C"], "kind": "tierce"}
    assert seen_action(tierce, actor=1, viewer=2, deal_over=True)["declare"] == ["7C", "8C", "9C"]
    assert seen_action(20, actor=1, viewer=2) == {"card": "JH"}


def test_public_part_and_own_part_are_apart_and_a_spectator_has_no_own_part() -> None:
    m = Match(rng=random.Random(3))
    v = m.view(0)
    pub, own = public_view(v), own_view(v)
    assert not set(pub) & set(own)
    assert not cards_in(pub)  # nothing is played yet: no card is public
    assert own_view(None) == {"seat": None, "hand": [], "own_declarations": [], "legal": []}
    assert view_json(v, None)["hand"] == [] and len(view_json(v, 0)["hand"]) == 5  # R2.3


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 2**32))
def test_replay_steps_are_every_position_and_a_seats_steps_hide_the_others_cards(seed: int) -> None:
    """Every position of every deal, once per action; a seat's steps show only its own cards and
    the played ones, a spectator's only the played ones (R2.3, R7.5)."""
    m = random_match(seed)
    open_steps = replay_steps(m)
    assert [len(s) for s in open_steps] == [len(d.actions) + 1 for d in m.deals]
    for d, steps in zip(m.deals, open_steps):
        assert steps[0]["action"] is None and len(steps[0]["view"]["hands"][0]) == 5
        assert [s["actor"] for s in steps[1:]] == d.actors
        last = steps[-1]["view"]
        assert last["phase"] == "over" and last["declared"] == [[decl.card_list(i) for i in x] for x in d.declared]
    for viewer in (None, 0, 1, 2, 3):
        for d, steps in zip(m.deals, replay_steps(m, viewer, open_cards=False)):
            for k, s in enumerate(steps):
                played = {CARD_NAMES[a & 31] for a in d.actions[:k] if a < 64}
                own = set() if viewer is None else {CARD_NAMES[c] for c in d.dealt[viewer]}
                assert "hands" not in s["view"]
                assert cards_in(s) <= played | own, (viewer, k)


def test_replay_steps_show_the_target_in_force_in_each_deal() -> None:
    """R12.2 under OPT-CAPOT-EN: a valat that leaves a team at the target raises it (to the higher
    score + 1) for the rest of the match; a replay's steps show each deal with the target it was
    played to, as the seats saw it then, not the last one for every deal."""
    from conftest import cards

    from belot.contracts import AT, Rules
    from belot.game import CALL_BASE

    m = Match(Rules(("OPT-CAPOT-EN",)), target=5, first_dealer=3)
    # seats 0 and 2 hold every J, 9, A and T: in all trumps they take all eight tricks (R8)
    hands = [cards("JC 9C AC TC JD 9D AD TD"), cards("KC QC 8C 7C KD QD 8D 7D"),
             cards("JH 9H AH TH JS 9S AS TS"), cards("KH QH 8H 7H KS QS 8S 7S")]
    d = m.deal(hands, 3)
    for call in (CALL_BASE + 1 + AT, CALL_BASE, CALL_BASE, CALL_BASE):
        m.apply(call)
    while not d.is_over:
        m.apply(m.legal_actions()[0])
    assert d.result is not None and d.result.valat == 0 and m.target == m.score[0] + 1 > 5
    m.deal(hands[1:] + hands[:1])
    steps = replay_steps(m)
    assert {s["view"]["target"] for s in steps[0]} == {5}
    assert {s["view"]["target"] for s in steps[1]} == {m.target}
