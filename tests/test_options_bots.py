"""Bots, sampler, inference and the OpenSpiel resampler under the house rules (docs/rules.md
section 6): worlds are ones in which the announced kinds could be announced under the rules in
force (R7.2 `OPT-EIGHT-SPLIT`, R7.4 `OPT-CARRE-FIRST`), the bots choose legal actions under every
option, and pimc values surkontra at x8.
"""

from __future__ import annotations

import random

import pytest

from belot import declarations as decl
from belot import inference
from belot.auction import BID_BASE, KONTRA, PASS, REKONTRA, SURKONTRA
from belot.bots import make_bot
from belot.bots.random_bot import announce_first
from belot.bots.sampling import Knowledge, sample
from belot.cards import FULL_DECK, cards_of, mask_of, parse_card
from belot.contracts import DEFAULT_RULES, SUPPORTED_OPTIONS, Rules, S
from belot.game import CALL_BASE, DECLARE_BASE, Deal, Match

SPLIT = Rules.from_options(["OPT-EIGHT-SPLIT"])
CARRE_FIRST = Rules.from_options(["OPT-CARRE-FIRST"])


def _mask(text: str) -> int:
    return mask_of(parse_card(c) for c in text.split())


def _deal(first: str, rules: Rules, seed: int) -> Deal:
    """Dealer 3, so seat 0 is the forehand and leads; seat 0 holds ``first``, the rest at random.
    Seat 0 bids spades, all pass, seat 0 announces its best declarations and leads a card."""
    rng = random.Random(seed)
    own = [parse_card(c) for c in first.split()]
    rest = cards_of(FULL_DECK & ~mask_of(own))
    rng.shuffle(rest)
    hands = [own, rest[0:8], rest[8:16], rest[16:24]]
    d = Deal(3, hands, rules)
    for call in (BID_BASE + S, PASS, PASS, PASS):
        d.apply(CALL_BASE + call)
    while True:
        a = announce_first(d.view(0))
        if a is None:
            break
        d.apply(a)
    d.apply(min(a for a in d.legal_actions() if a < 32))
    return d


CASES = [
    ("7C 8C 9C TC JC QC KC AC", SPLIT, ("quint", "tierce")),  # R7.2: 100 + 20 under the option
    ("KC KD KH KS 9D TD JD QD", CARRE_FIRST, ("carre", "quarte")),  # R7.4: no quint 9D-KD
]


def test_announceable_follows_the_rules() -> None:
    """R7.2 / R7.4 examples of docs/rules.md section 6."""
    run8 = _mask("7C 8C 9C TC JC QC KC AC")
    assert inference.announceable(run8, ["quint"], rules=DEFAULT_RULES) is not None
    assert inference.announceable(run8, ["quint", "tierce"], rules=DEFAULT_RULES) is None
    assert inference.announceable(run8, ["quint", "tierce"], SPLIT) is not None
    assert all(d.length < 8 for d in inference.candidates("quint", SPLIT))
    kings = _mask("KC KD KH KS 9D TD JD QD")
    assert inference.announceable(kings, ["quint"], rules=DEFAULT_RULES) is not None
    assert inference.announceable(kings, ["quint"], CARRE_FIRST) is None
    assert inference.announceable(kings, ["quarte"], CARRE_FIRST) is not None


@pytest.mark.parametrize("first,rules,kinds", CASES)
def test_sampled_worlds_let_the_announcer_announce_its_kinds(first: str, rules: Rules, kinds: tuple[str, ...]) -> None:
    """Every world of the sampler is one in which seat 0 could have announced what it did, and the
    world's declarations for it are an announcement it could have made, in order."""
    d = _deal(first, rules, 1)
    view = d.view(1)
    assert view.announced[0] == kinds
    k = Knowledge.from_view(view)
    assert k.rules == rules
    rng = random.Random(2)
    for _ in range(40):
        w = sample(k, rng)
        hand = w.hands[0] | k.played_by[0]
        ids: list[int] = []
        for i in w.declarations[0]:
            assert i in decl.declarable(hand, ids, rules)
            ids.append(i)
        assert tuple(decl.DECLARATIONS[i].kind for i in ids) == kinds


@pytest.mark.parametrize("first,rules,kinds", CASES)
def test_openspiel_resample_under_declaration_options(first: str, rules: Rules, kinds: tuple[str, ...]) -> None:
    """The resampled deal replays the actions (a declaration illegal in it would raise) and shows
    the player the same information state."""
    pytest.importorskip("numpy")
    from belot.env import openspiel as bos

    d = _deal(first, rules, 3)
    game = bos.BelotGame({"dealer": 3, "options": "+".join(rules.options)})
    state = game.new_initial_state()
    order = bos._ORDERS[3]
    next_card = [0, 0, 0, 0]
    for seat in order:
        state.apply_action(d.dealt[seat][next_card[seat]])
        next_card[seat] += 1
    for a in d.actions:
        state.apply_action(a)
    rng = random.Random(4)
    for _ in range(20):
        r = bos.resample(state, 1, rng)
        assert r.information_state_string(1) == state.information_state_string(1)
        assert tuple(decl.DECLARATIONS[i].kind for i in r.deal.declared[0]) == kinds


def _random_rules(rng: random.Random) -> Rules:
    opts = [o for o in sorted(SUPPORTED_OPTIONS) if rng.random() < 0.5]
    if "OPT-CAPOT-NI" in opts and "OPT-CAPOT-EN" in opts:
        opts.remove("OPT-CAPOT-EN")
    return Rules.from_options(opts)


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_bots_play_legal_matches_under_random_option_sets(bot: str) -> None:
    """Every action a bot returns is legal (it would raise otherwise) under random option sets."""
    rng = random.Random(9)
    for m_seed in range(6):
        rules = _random_rules(rng)
        rules = Rules.from_options([*rules.options, "OPT-SURCONTRA"]) if m_seed % 2 else rules
        m = Match(rules, rng=random.Random(m_seed))
        bots = [make_bot(bot, seed=s) for s in range(4)]
        while not m.is_over:
            seat = m.current_player
            view = m.view(seat)
            assert view.options == rules.options
            a = bots[seat].act(view)
            assert a in view.legal_actions
            m.apply(a)


def test_heuristic_surkontra_needs_a_strong_defence() -> None:
    """OPT-SURCONTRA (R3.3): the heuristic says surkontra (the kontra slot over a rekontra) with a
    hand that defends well, and not with a weak one."""
    from belot.bots.heuristic import choose_call

    def view_for(hand: str):  # type: ignore[no-untyped-def]
        own = [parse_card(c) for c in hand.split()]
        rest = cards_of(FULL_DECK & ~mask_of(own))
        d = Deal(3, [rest[0:8], rest[8:16], rest[16:24], own + rest[24:27]],
                 Rules.from_options(["OPT-SURCONTRA"]))
        # seat 0 bids spades, seat 1 doubles, seat 2 redoubles: seat 3 (of the doubling team) may surkontra
        for call in (BID_BASE + S, KONTRA, REKONTRA):
            d.apply(CALL_BASE + call)
        return d.view(3)

    strong = view_for("JS 9S AS 8S 7S")
    assert CALL_BASE + KONTRA in strong.legal_actions
    assert choose_call(strong) == CALL_BASE + KONTRA
    weak = view_for("7S 8H 9H 7D 8D")
    assert choose_call(weak) == CALL_BASE + PASS


def test_pimc_values_surkontra_at_x8() -> None:
    from belot.bots.pimc import _multiplier_after

    assert [_multiplier_after(c, m) for c, m in ((KONTRA, 1), (REKONTRA, 2), (KONTRA, 4), (PASS, 8), (BID_BASE, 8))] \
        == [2, 4, 8, 8, 1]
    assert SURKONTRA == 9 and DECLARE_BASE > CALL_BASE


def test_openspiel_options_parameter() -> None:
    pytest.importorskip("numpy")
    from belot.contracts import UnsupportedOption
    from belot.env import openspiel as bos

    plain = bos.BelotGame()
    assert plain.information_state_tensor_shape() == [bos.INFO_SIZE] and plain.rules == Rules()
    g = bos.BelotGame({"options": "OPT-SURCONTRA+OPT-NONZERO"})
    assert g.rules.options == ("OPT-SURCONTRA", "OPT-NONZERO")
    assert g.information_state_tensor_shape()[0] > bos.INFO_SIZE
    assert g.new_initial_state().clone()._rules == g.rules
    with pytest.raises(UnsupportedOption):
        bos.BelotGame({"options": "OPT-LATE-DECLARE"})


def test_pimc_is_legal_under_option_sets() -> None:
    """pimc (test-sized budgets) bids, declares and plays legally under option sets that change
    the auction (x8), declarations and scoring; it is handed positions of random play."""
    from belot.bots.pimc import PimcBot
    from belot.game import deal_hands

    rng = random.Random(12)
    bot = PimcBot(3, play_nodes=20_000, min_worlds=2, max_worlds=3, bid_nodes=100_000, bid_worlds=2,
                  min_bid_worlds=2)
    sets = (["OPT-SURCONTRA", "OPT-EIGHT-SPLIT", "OPT-NONZERO"],
            ["OPT-CARRE-FIRST", "OPT-SINGLE-CONTEST", "OPT-VALAT-NO-DOUBLE"],
            ["OPT-LENGTH-FIRST", "OPT-CARRE-RANK", "OPT-SURCONTRA"])
    acted = 0
    for k in range(18):
        rules = Rules.from_options(sets[k % 3])
        dealer = rng.randrange(4)
        d = Deal(dealer, deal_hands(rng, dealer), rules)
        for _ in range(rng.randrange(0, 30)):
            if d.is_over:
                break
            d.apply(rng.choice(d.legal_actions()))
        if d.is_over:
            continue
        view = d.view(d.to_move)
        a = bot.act(view)
        assert a in view.legal_actions
        d.apply(a)
        acted += 1
    assert acted >= 10
