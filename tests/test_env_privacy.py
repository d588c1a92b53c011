"""A seat's observation is a function of its information set, through every interface.

belot's promise to a bot is that it sees only what its seat may see.  Here Hypothesis plays random
deals (every phase: the chance nodes of the deal, the auction on five cards, declarations,
belotes, the play, the end, an all-pass deal) and, at every step, redeals the cards hidden from one
seat (the other seats' unplayed cards, and during the auction its own last three, R2.3) in a way
that is consistent with what that seat saw: the same actions replay legally, another seat's
declaration replaced by one of the same kind where needed (only the kind is said, R7.5).  The
seat's observation must then be byte for byte the same in both deals: the PettingZoo vector and
action mask, and OpenSpiel's information state and observation, as strings and as tensors (the
pure-Python game, and pyspiel's when installed).  The mask must be the legal actions exactly.
"""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy", reason="belot[env] extra (numpy) not installed")
pytest.importorskip("pettingzoo", reason="belot[env] extra (pettingzoo) not installed")

from hypothesis import given, settings
from hypothesis import strategies as st

from belot.auction import PASS
from belot.contracts import Rules
from belot.declarations import DECLARATIONS
from belot.env import belot_v0
from belot.env import openspiel as bos
from belot.game import AUCTION, CALL_BASE, DECLARE_BASE, NUM_ACTIONS, OVER, Deal, deal_hands

try:
    import pyspiel
except ImportError:
    pyspiel = None

OPTION_SETS = ((), ("OPT-SURCONTRA",), ("OPT-EIGHT-SPLIT", "OPT-CARRE-FIRST"), ("OPT-SINGLE-CONTEST",))


def _random_actions(deal: Deal, rng: random.Random, pass_rate: float) -> list[int]:
    """A random deal to its end: a pass with probability ``pass_rate`` when it is legal, else any
    legal action (declarations and belotes included)."""
    actions = []
    while not deal.is_over:
        legal = deal.legal_actions()
        a = CALL_BASE + PASS if CALL_BASE + PASS in legal and rng.random() < pass_rate else rng.choice(legal)
        deal.apply(a)
        actions.append(a)
    return actions


def _replay(dealer: int, hands: list[list[int]], rules: Rules, actions: list[int], observer: int) -> list[int] | None:
    """``actions`` replayed on ``hands``, another seat's declaration replaced by one of the same
    kind it holds when the original is not legal: the actions, or None when they do not replay."""
    deal = Deal(dealer, hands, rules)
    out = []
    for a in actions:
        if not deal.is_legal(a):
            if a < DECLARE_BASE or deal.to_move == observer:
                return None
            kind = DECLARATIONS[a - DECLARE_BASE].kind
            same = [b for b in deal.legal_actions() if b >= DECLARE_BASE and DECLARATIONS[b - DECLARE_BASE].kind == kind]
            if not same:
                return None
            a = same[0]
        deal.apply(a)
        out.append(a)
    return out


def _hidden_redeal(
    dealer: int, hands: list[list[int]], rules: Rules, actions: list[int], observer: int, rng: random.Random
) -> tuple[list[list[int]], list[int]]:
    """Hands and actions that ``observer`` cannot tell from ``hands`` and ``actions``: the cards it
    has not seen (not its own visible ones, not played) dealt again among the places they could be,
    until the actions replay (a few tries; else the same cards each, only their order changed)."""
    deal = Deal(dealer, hands, rules)
    for a in actions:
        deal.apply(a)
    played = {c for seat, a in zip(deal.actors, deal.actions) for c in [a % 32] if a < CALL_BASE}
    own_seen = 5 if deal.phase == AUCTION or deal.contract < 0 else 8  # R2.3, R3.6
    places = [(s, i) for s in range(4) for i in range(8)
              if hands[s][i] not in played and (s != observer or i >= own_seen)]
    pool = [hands[s][i] for s, i in places]
    for attempt in range(40):
        if attempt < 39:
            cards = pool[:]
            rng.shuffle(cards)
        else:  # each seat keeps its own unplayed cards, in another order: always consistent
            cards = []
            for s in range(4):
                mine = [hands[s][i] for t, i in places if t == s]
                rng.shuffle(mine)
                cards += mine
        other = [h[:] for h in hands]
        for (s, i), c in zip(places, cards):
            other[s][i] = c
        replayed = _replay(dealer, other, rules, actions, observer)
        if replayed is not None:
            return other, replayed
    raise AssertionError("the order-only redeal always replays")


def _deck(dealer: int, hands: list[list[int]]) -> list[int]:
    """The chance outcomes of OpenSpiel's deal that give ``hands`` (R2.3)."""
    taken = [0, 0, 0, 0]
    deck = []
    for seat in bos._ORDERS[dealer]:
        deck.append(hands[seat][taken[seat]])
        taken[seat] += 1
    return deck


def _games(rules: Rules, dealer: int) -> list:
    params = {"dealer": dealer, "options": "+".join(rules.options)}
    games = [bos.BelotGame(params)]
    if pyspiel is not None:
        games.append(pyspiel.load_game(bos.GAME_NAME, params))
    return games


def _env_seen(dealer: int, hands: list[list[int]], rules: Rules, actions: list[int], observer: int) -> tuple:
    e = belot_v0.raw_env(options=list(rules.options))
    e.reset(options={"hands": hands, "dealer": dealer})
    for a in actions:
        e.step(a)
    obs = e.observe(f"player_{observer}")
    return e, obs["observation"].tobytes(), obs["action_mask"].tobytes()


def _spiel_seen(state, observer: int) -> tuple:
    return (
        state.information_state_string(observer),
        np.asarray(state.information_state_tensor(observer), dtype=np.float32).tobytes(),
        state.observation_string(observer),
        np.asarray(state.observation_tensor(observer), dtype=np.float32).tobytes(),
    )


def _spiel_state(game, deck: list[int], actions: list[int]):
    state = game.new_initial_state()
    for a in deck + actions:
        state.apply_action(a)
    return state


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    observer=st.integers(0, 3),
    options=st.sampled_from(OPTION_SETS),
    pass_rate=st.sampled_from([0.0, 0.6, 1.0]),
)
def test_a_seats_observation_is_the_same_in_every_deal_it_cannot_tell_apart(
    seed: int, observer: int, options: tuple[str, ...], pass_rate: float
) -> None:
    rng = random.Random(seed)
    rules = Rules.from_options(list(options))
    dealer = rng.randrange(4)
    hands = deal_hands(rng, dealer)
    actions = _random_actions(Deal(dealer, hands, rules), rng, pass_rate)
    games = _games(rules, dealer)
    deck = _deck(dealer, hands)
    agent = f"player_{observer}"
    phases = set()
    for t in range(len(actions) + 1):
        other, other_actions = _hidden_redeal(dealer, hands, rules, actions[:t], observer, rng)
        e, obs, mask = _env_seen(dealer, hands, rules, actions[:t], observer)
        _, obs2, mask2 = _env_seen(dealer, other, rules, other_actions, observer)
        phases.add(e.deal.phase)
        where = f"after {t} actions ({e.deal.phase})"
        assert obs == obs2, f"{agent}'s observation differs between deals it cannot tell apart, {where}"
        assert mask == mask2, where
        # The mask is the legal actions, exactly, and only for the seat to act.
        legal = sorted(e.deal.legal_actions()) if e.deal.to_move == observer and not e.deal.is_over else []
        assert np.flatnonzero(np.frombuffer(mask, dtype=np.int8)).tolist() == legal, where
        assert sorted(e.legal_actions(agent)) == legal, where
        for game in games:
            s1 = _spiel_state(game, deck, actions[:t])
            s2 = _spiel_state(game, _deck(dealer, other), other_actions)
            assert _spiel_seen(s1, observer) == _spiel_seen(s2, observer), f"{game}: {where}"
            mask = s1.legal_actions_mask(observer)
            assert [a for a in range(NUM_ACTIONS) if mask[a]] == legal, f"{game}: {where}"
    assert {AUCTION, OVER} <= phases


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), observer=st.integers(0, 3), options=st.sampled_from(OPTION_SETS))
def test_while_dealing_a_seat_sees_only_its_own_cards_dealt(seed: int, observer: int, options: tuple[str, ...]) -> None:
    """OpenSpiel's chance nodes: after each card dealt, the observer's information state and
    observation depend only on its own cards dealt so far (the first five, R2.3)."""
    rng = random.Random(seed)
    rules = Rules.from_options(list(options))
    dealer = rng.randrange(4)
    deck = list(range(32))
    rng.shuffle(deck)
    order = bos._ORDERS[dealer]
    own = [i for i in range(32) if order[i] == observer][:5]
    for game in _games(rules, dealer):
        s1, s2 = game.new_initial_state(), game.new_initial_state()
        other = deck[:]
        rest = [i for i in range(32) if i not in own]
        cards = [deck[i] for i in rest]
        rng.shuffle(cards)
        for i, c in zip(rest, cards):
            other[i] = c
        for k in range(32):
            s1.apply_action(deck[k])
            s2.apply_action(other[k])
            if k < 31:  # the last card makes the deal, where the other test takes over
                assert _spiel_seen(s1, observer) == _spiel_seen(s2, observer), f"{game}: {k + 1} cards dealt"


def test_the_redeal_really_changes_hidden_cards() -> None:
    """The test above is not vacuous: its redeals move cards between the other seats."""
    rng = random.Random(3)
    moved = 0
    for _ in range(20):
        dealer = rng.randrange(4)
        hands = deal_hands(rng, dealer)
        actions = _random_actions(Deal(dealer, hands, Rules()), rng, 0.6)
        t = rng.randrange(len(actions) + 1)
        other, _ = _hidden_redeal(dealer, hands, Rules(), actions[:t], 0, rng)
        assert other[0][:5] == hands[0][:5]
        moved += any(sorted(other[s]) != sorted(hands[s]) for s in (1, 2, 3))
    assert moved >= 10


def test_the_rendered_table_shows_no_declaration_by_its_cards_until_the_deal_ends() -> None:
    """``render_mode="ansi"`` (and ``"human"``, which prints the same text) shows no seat's hand: it is
    the table as everyone sees it, so a declaration is named by its kind only while the
    deal lasts (R7.5), and two deals that differ only in cards hidden from a seat render alike.  (The
    last actions once named a declaration by its cards.)"""
    rng = random.Random(11)
    declared = 0
    for _ in range(30):
        dealer = rng.randrange(4)
        hands = deal_hands(rng, dealer)
        actions = _random_actions(Deal(dealer, hands, Rules()), rng, 0.0)
        observer = rng.randrange(4)
        for t in range(len(actions) + 1):
            other, other_actions = _hidden_redeal(dealer, hands, Rules(), actions[:t], observer, rng)
            texts = []
            for h, acts in ((hands, actions[:t]), (other, other_actions)):
                e = belot_v0.raw_env(render_mode="ansi")
                e.reset(options={"hands": h, "dealer": dealer})
                for a in acts:
                    e.step(a)
                texts.append(e.render())
            assert texts[0] == texts[1], f"after {t} actions"
            if any(a >= DECLARE_BASE for a in actions[max(0, t - 4):t]):
                declared += 1
                assert "declare" in texts[0]
    assert declared >= 10
