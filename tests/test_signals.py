"""The partners' discard convention of ``expert`` (experiment; docs/strength.md): a discard comes from
a suit whose master the seat does not hold, when it has such a suit; the partner reads it."""

from __future__ import annotations

import dataclasses

from belot.bots.sampling import discard_signal_broken, master_suits
from belot.cards import mask_of, parse_card
from belot.contracts import NT, TABLES


def m(*names: str) -> int:
    return mask_of(parse_card(n) for n in names)


def test_the_master_is_the_highest_card_not_yet_played() -> None:
    t = TABLES[NT]
    hand = m("TH", "7S", "8C")
    assert master_suits(hand, 0, t) == 0  # HA out
    assert master_suits(hand, m("AH"), t) == 1 << 2  # with HA played, HT is the master of hearts


def test_a_discard_from_a_suit_with_its_master_breaks_the_convention_only_with_another_suit_to_discard() -> None:
    t = TABLES[NT]
    led = 0  # clubs led, the seat has none
    assert discard_signal_broken(m("AH", "7H", "8S"), parse_card("7H"), led, 0, t)
    assert not discard_signal_broken(m("AH", "7H", "8S"), parse_card("8S"), led, 0, t)
    assert not discard_signal_broken(m("AH", "7H", "AS"), parse_card("7H"), led, 0, t)  # masters everywhere
    assert not discard_signal_broken(m("AH", "7H"), parse_card("7H"), led, 0, t)  # one suit only


def test_the_partner_draws_fewer_worlds_that_contradict_its_partners_discards() -> None:
    """expert's worlds contradict its partner's discards less often than pimc's (which does not read
    them), and pimc's knowledge has no such checks (its decisions stay as they were)."""
    import random

    from test_sampling import random_positions

    from belot.bots.expert import ExpertBot
    from belot.bots.pimc import PimcBot
    from belot.bots.sampling import sample, signals_plausible

    expert, pimc = ExpertBot(1), PimcBot(1)
    broken = {"expert": 0, "pimc": 0}
    judged = 0
    for d, _ in random_positions(120, 5, bot="heuristic"):
        if d.phase != "play":
            continue
        view = d.view(d.to_move)
        k = expert.knowledge(view)
        assert pimc.knowledge(view).signals == []
        if not k.signals:
            continue
        judged += 1
        strict = dataclasses.replace(k, signal_eps=0.0, fit_budget=0)
        for name, bot in (("expert", expert), ("pimc", pimc)):
            kb = bot.knowledge(view)
            kb.fit_budget = 400
            rng = random.Random(judged)
            for _ in range(20):
                w = sample(kb, rng)
                broken[name] += not signals_plausible(strict, list(w.hands), rng)
    assert judged >= 10
    assert broken["expert"] < 0.85 * broken["pimc"], broken
