"""belot.env.openspiel: the OpenSpiel game ``python_belot`` (pyspiel when installed) and its
pure-Python twin with the same method names (issue 7).

Both implementations go through the same checks: random games end legally with the rules core's
result as returns, the information state hides what a player may not see (cards, and the details
of other seats' declarations, R7.5), clones are independent.  With pyspiel, OpenSpiel's own
algorithms (MCTS, ISMCTS with our resampler, evaluate_bots) run on it, kept tiny.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy", reason="belot[env] extra (numpy) not installed")

from belot.declarations import DECLARATIONS
from belot.env import openspiel as bos
from belot.game import DECLARE_BASE, Deal

try:
    import pyspiel
except ImportError:
    pyspiel = None

needs_pyspiel = pytest.mark.skipif(
    pyspiel is None, reason="open_spiel is not installed (pip install 'belot[openspiel]')"
)


def _games() -> list:
    games = [pytest.param(lambda p=None: bos.BelotGame(p), id="pure")]
    games.append(
        pytest.param(
            lambda p=None: pyspiel.load_game(bos.GAME_NAME, p or {}), id="pyspiel", marks=needs_pyspiel
        )
    )
    return games


def _deal_out(state, rng: random.Random, deck: list[int] | None = None) -> None:
    for k in range(32):
        outcomes = state.chance_outcomes()
        assert state.is_chance_node() and len(outcomes) == 32 - k
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
        state.apply_action(deck[k] if deck else rng.choice(outcomes)[0])
    assert not state.is_chance_node()


def _play_out(state, rng: random.Random) -> None:
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal == sorted(legal) and legal
        state.apply_action(rng.choice(legal))


@pytest.mark.parametrize("make", _games())
@pytest.mark.parametrize("seed", range(6))
def test_random_games_end_with_the_rules_core_result(make, seed: int) -> None:
    rng = random.Random(seed)
    dealer = seed % 4
    game = make({"dealer": dealer})
    state = game.new_initial_state()
    _deal_out(state, rng)
    _play_out(state, rng)
    deal = state.deal
    again = Deal(dealer, deal.dealt)  # replay through the rules core
    for a in deal.actions:
        again.apply(a)
    p = again.result.points
    assert state.returns() == [p[0] - p[1], p[1] - p[0], p[0] - p[1], p[1] - p[0]]
    assert sum(state.returns()) == 0
    assert state.current_player() == bos.TERMINAL_PLAYER
    assert len(state.history()) <= game.max_game_length()


@pytest.mark.parametrize("make", _games())
def test_the_chance_nodes_deal_in_the_order_of_r2_3(make) -> None:
    """3 cards to each seat from the forehand, then 2, then 3 (R2.3), from the chance outcomes."""
    state = make({"dealer": 1}).new_initial_state()
    deck = list(range(32))
    _deal_out(state, random.Random(0), deck)
    assert state.deal.dealt[2][:3] == (0, 1, 2)  # forehand = seat 2
    assert state.deal.dealt[1][:3] == (9, 10, 11)  # the dealer gets the last three of the first round
    assert state.deal.dealt[2][3:5] == (12, 13)
    assert state.deal.dealt[2][5:] == (20, 21, 22)


@pytest.mark.parametrize("make", _games())
@pytest.mark.parametrize("seed", range(8))
def test_information_state_hides_other_seats_cards(make, seed: int) -> None:
    """Two deals differing only by a swap between two other seats' hands look the same to the
    observer as long as the public actions are the same."""
    rng = random.Random(seed)
    game = make()
    observer = rng.randrange(4)
    a, b = rng.sample([s for s in range(4) if s != observer], 2)
    deck = list(range(32))
    rng.shuffle(deck)
    order = bos._ORDERS[0]
    i = rng.choice([k for k in range(32) if order[k] == a])
    j = rng.choice([k for k in range(32) if order[k] == b])
    other = deck[:]
    other[i], other[j] = other[j], other[i]
    s1, s2 = game.new_initial_state(), game.new_initial_state()
    _deal_out(s1, rng, deck)
    _deal_out(s2, rng, other)
    compared = 0
    while not s1.is_terminal():
        assert s1.information_state_string(observer) == s2.information_state_string(observer)
        assert list(s1.information_state_tensor(observer)) == list(s2.information_state_tensor(observer))
        assert s1.observation_string(observer) == s2.observation_string(observer)
        assert list(s1.observation_tensor(observer)) == list(s2.observation_tensor(observer))
        both = sorted(set(s1.legal_actions()) & set(s2.legal_actions()))
        if not both:
            break
        action = rng.choice(both)
        s1.apply_action(action)
        s2.apply_action(action)
        compared += 1
    assert compared > 0


@pytest.mark.parametrize("make", _games())
def test_other_seats_declarations_show_only_their_kind(make) -> None:
    """R7.5: the kind is said, the details wait until the end of the deal."""
    rng = random.Random(0)
    for _ in range(200):
        state = make().new_initial_state()
        _deal_out(state, rng)
        while not state.is_terminal():
            legal = state.legal_actions()
            declares = [x for x in legal if x >= DECLARE_BASE]
            action = declares[0] if declares else rng.choice(legal)
            player = state.current_player()
            state.apply_action(action)
            if declares:
                name = state.action_to_string(player, action)  # "declare tierce 7C 8C 9C"
                cards = name.split(" ", 2)[2]
                for seat in range(4):
                    text = state.information_state_string(seat)
                    assert (cards in text) == (seat == player), (seat, player, text)
                return
    pytest.fail("no declaration in 200 random deals")


@pytest.mark.parametrize("make", _games())
def test_clone_is_independent(make) -> None:
    rng = random.Random(3)
    state = make().new_initial_state()
    _deal_out(state, rng)
    for _ in range(10):
        state.apply_action(rng.choice(state.legal_actions()))
    copy = state.clone()
    before = str(state)
    _play_out(copy, rng)
    assert str(state) == before and not state.is_terminal()
    assert copy.history()[: len(state.history())] == state.history()


def test_pure_game_refuses_bad_parameters_and_actions() -> None:
    with pytest.raises(ValueError, match="dealer"):
        bos.BelotGame({"dealer": 7})
    with pytest.raises(ValueError, match="unknown"):
        bos.BelotGame({"target": 151})
    state = bos.BelotGame().new_initial_state()
    state.apply_action(5)
    with pytest.raises(ValueError, match=r"R2\.3"):
        state.apply_action(5)  # dealt already


@pytest.mark.parametrize("make", _games())
def test_resample_keeps_the_information_state(make) -> None:
    rng = random.Random(8)
    state = make().new_initial_state()
    _deal_out(state, rng)
    for _ in range(rng.randrange(10, 30)):
        state.apply_action(rng.choice(state.legal_actions()))
    player = state.current_player()
    sample = bos.resample(state, player, random.Random(1))
    assert sample.information_state_string(player) == state.information_state_string(player)
    # The same actions, but another seat's declaration only of the same kind (R7.5).
    assert [_kind_only(a, s, player) for s, a in zip(sample.deal.actors, sample.deal.actions)] == [
        _kind_only(a, s, player) for s, a in zip(state.deal.actors, state.deal.actions)
    ]


def _kind_only(action: int, seat: int, player: int) -> object:
    if action >= DECLARE_BASE and seat != player:
        return DECLARATIONS[action - DECLARE_BASE].kind
    return action


# -- OpenSpiel's own algorithms ---------------------------------------------------------------------


@needs_pyspiel
def test_registered_with_pyspiel() -> None:
    assert bos.GAME_NAME in pyspiel.registered_names()
    game = pyspiel.load_game("python_belot(dealer=2)")
    assert game.num_players() == 4 and game.num_distinct_actions() == 163
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 32
    assert game.information_state_tensor_shape() == [bos.INFO_SIZE]
    assert game.observation_tensor_shape() == [bos.SIZE]


@needs_pyspiel
def test_openspiel_mcts_ismcts_and_evaluate_bots_run() -> None:
    import numpy as np
    from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

    game = pyspiel.load_game(bos.GAME_NAME)
    rs = np.random.RandomState(0)
    returns = evaluate_bots.evaluate_bots(
        game.new_initial_state(), [pyspiel.make_uniform_random_bot(p, p) for p in range(4)], rs
    )
    assert len(returns) == 4 and sum(returns) == 0
    state = game.new_initial_state()
    _deal_out(state, random.Random(2))
    evaluator = mcts.RandomRolloutEvaluator(1, rs)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=8, evaluator=evaluator, random_state=rs)
    assert bot.step(state) in state.legal_actions()
    is_bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=rs)
    assert is_bot.step(state) in state.legal_actions()  # through state.resample_from_infostate
    for _ in range(20):  # later in the deal, where the resampler must respect the history
        state.apply_action(random.Random(len(state.history())).choice(state.legal_actions()))
    assert is_bot.step(state) in state.legal_actions()


@pytest.mark.parametrize("seed", range(4))
def test_resample_depends_only_on_the_information_state(seed: int) -> None:
    """Two deals the player cannot tell apart give the same samples for the same random seed."""
    rng = random.Random(seed)
    game = bos.BelotGame()
    player = rng.randrange(4)
    a, b = rng.sample([s for s in range(4) if s != player], 2)
    deck = list(range(32))
    rng.shuffle(deck)
    order = bos._ORDERS[0]
    i = rng.choice([k for k in range(32) if order[k] == a])
    j = rng.choice([k for k in range(32) if order[k] == b])
    other = deck[:]
    other[i], other[j] = other[j], other[i]
    s1, s2 = game.new_initial_state(), game.new_initial_state()
    _deal_out(s1, rng, deck)
    _deal_out(s2, rng, other)
    at = None  # the latest point where the player is to act, both deals alike so far
    while not s1.is_terminal() and len(s1.history()) < 32 + 40:
        if s1.current_player() == player:
            at = (s1.clone(), s2.clone())
        both = sorted(set(s1.legal_actions()) & set(s2.legal_actions()))
        if not both:
            break
        action = rng.choice(both)
        s1.apply_action(action)
        s2.apply_action(action)
    assert at is not None  # the player calls in the first round of the auction at least
    s1, s2 = at
    r1 = bos.resample(s1, player, random.Random(7))
    r2 = bos.resample(s2, player, random.Random(7))
    assert r1.history() == r2.history()


@pytest.mark.parametrize("make", _games())
@pytest.mark.parametrize("seed", range(6))
def test_resample_while_dealing_depends_only_on_the_information_state(make, seed: int) -> None:
    """At a chance node too: the cards dealt so far that the player has not seen (the others', and its
    own beyond the first five, R2.3) are redealt, so two decks it cannot tell apart give the same
    sample for the same random seed, and the sample keeps its information state.  (Resampling there
    once returned a copy of the real state, every card dealt to the others included.)"""
    rng = random.Random(seed)
    dealer = rng.randrange(4)
    game = make({"dealer": dealer})
    player = rng.randrange(4)
    dealt = rng.randrange(1, 32)
    order = bos._ORDERS[dealer]
    deck = list(range(32))
    rng.shuffle(deck)
    seen = [k for k in range(dealt) if order[k] == player][:5]
    hidden = [k for k in range(dealt) if k not in seen]
    cards = [deck[k] for k in range(32) if k not in seen]
    rng.shuffle(cards)
    other = deck[:]
    for k, c in zip(hidden, cards):
        other[k] = c
    s1, s2 = game.new_initial_state(), game.new_initial_state()
    for k in range(dealt):
        s1.apply_action(deck[k])
        s2.apply_action(other[k])
    assert s1.information_state_string(player) == s2.information_state_string(player)
    r1 = bos.resample(s1, player, random.Random(7))
    r2 = bos.resample(s2, player, random.Random(7))
    assert r1.history() == r2.history()
    assert r1.is_chance_node() and len(r1.history()) == dealt
    assert r1.information_state_string(player) == s1.information_state_string(player)
    assert r1.information_state_tensor(player) == s1.information_state_tensor(player)


def test_resample_succeeds_along_random_deals() -> None:
    """Late in the play the void, belote and declaration facts must be honoured to find a deal."""
    rng = random.Random(13)
    found = 0
    for _ in range(25):
        state = bos.BelotGame().new_initial_state()
        _deal_out(state, rng)
        for _ in range(rng.randrange(8, 40)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        player = state.current_player()
        sample = bos.resample(state, player, rng)
        assert sample.information_state_string(player) == state.information_state_string(player)
        found += 1
    assert found >= 10


def _random_state(rng: random.Random, announce: float = 0.8):
    """A pure state at a random point of a deal played at random, declarations and belotes
    announced with chance ``announce`` whenever they are legal."""
    state = bos.BelotGame({"dealer": rng.randrange(4)}).new_initial_state()
    _deal_out(state, rng)
    for _ in range(rng.randrange(0, 50)):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        special = [a for a in legal if a >= 32 and not 64 <= a < DECLARE_BASE]
        state.apply_action(rng.choice(special) if special and rng.random() < announce else rng.choice(legal))
    return state


def test_resample_never_fails_and_keeps_every_inferred_fact() -> None:
    """Declarations of several seats, voids, failures to trump (R5.2), belotes (R7.7): a world is
    always found, and in it every seat's hand satisfies the player's facts."""
    from belot import inference

    rng = random.Random(21)
    several = 0
    for _ in range(400):
        state = _random_state(rng)
        if state.is_terminal():
            continue
        player = state.current_player()
        several += sum(1 for s in range(4) if s != player and state.deal.declared[s]) >= 2
        sample = bos.resample(state, player, random.Random(rng.random()))
        assert sample.information_state_string(player) == state.information_state_string(player)
        f = inference.facts(state.deal.view(player))
        for s in range(4):
            if s != player and sample.deal.phase != "auction":
                hand = sample.deal.hands[s]
                assert not hand & f.cannot[s] and not f.must[s] & ~hand and not hand & ~f.unseen
    assert several >= 10


def test_resample_reads_only_declaration_kinds() -> None:
    """Two deals that differ in another seat's hidden cards and in which declaration of a kind it
    made give the same samples: the resampler learns nothing the information state hides (R7.5)."""
    rng = random.Random(5)
    compared = 0
    for _ in range(60):
        state = _random_state(rng, announce=1.0)
        if state.is_terminal() or state.deal.phase == "auction":
            continue
        player = state.current_player()
        twin = bos.resample(state, player, random.Random(rng.random()))  # another deal, same infostate
        assert twin.information_state_string(player) == state.information_state_string(player)
        compared += twin.deal.declared != state.deal.declared
        a = bos.resample(state, player, random.Random(99))
        b = bos.resample(twin, player, random.Random(99))
        assert a.history() == b.history()
    assert compared >= 3


@needs_pyspiel
def test_openspiel_ismcts_plays_whole_deals() -> None:
    """OpenSpiel's own ISMCTS bot (its Python implementation, unmodified) drives every seat to the
    end of deals, resampling through ``resample_from_infostate`` at every decision: deals from the
    first card, and deals from trick 1 after several seats declared (where the rejection sampler
    that came before failed one call in twenty)."""
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    rs = np.random.RandomState(3)
    rng = random.Random(3)
    for k in range(8):
        dealer, history = k % 4, []
        if k >= 4:  # random play with every declaration announced, stopped in trick 1 after two seats declared
            state = _random_state(rng, announce=1.0)
            while (state.is_terminal() or state.deal.trick_winners
                   or sum(1 for x in state.deal.declared if x) < 2):
                state = _random_state(rng, announce=1.0)
            dealer, history = state.get_game().dealer, state.history()
        game = pyspiel.load_game(bos.GAME_NAME, {"dealer": dealer})
        evaluator = mcts.RandomRolloutEvaluator(1, rs)
        bots = [ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=rs) for _ in range(4)]
        ps = game.new_initial_state()
        for action in history:
            ps.apply_action(action)
        while not ps.is_terminal():
            if ps.is_chance_node():
                outcomes = ps.chance_outcomes()
                ps.apply_action(outcomes[rs.randint(len(outcomes))][0])
            else:
                ps.apply_action(bots[ps.current_player()].step(ps))
        assert sum(ps.returns()) == 0


def test_a_float_or_a_numeral_is_not_an_action() -> None:
    """``apply_action(20.7)`` is refused, not rounded into the jack of hearts (R5.1); also when dealing."""
    from belot.errors import RuleError

    state = bos.BelotGame().new_initial_state()
    for bad in (20.7, "20", True, float("inf")):
        with pytest.raises(RuleError, match="is not an action"):
            state.apply_action(bad)
    _deal_out(state, random.Random(1))
    legal = state.legal_actions()
    for bad in (float(legal[0]) + 0.5, str(legal[0]), 10**100):
        with pytest.raises(RuleError, match="is not an action"):
            state.apply_action(bad)
    assert state.legal_actions() == legal


def test_pure_game_refuses_a_player_that_is_not_a_seat() -> None:
    """As pyspiel does (player >= 0, < 4): the information state of the chance or terminal
    pseudo-player, or of seat -1, is refused, not seat 0's or seat 3's hand under another name."""
    state = bos.BelotGame().new_initial_state()
    _deal_out(state, random.Random(2))
    _play_out(state, random.Random(2))
    for method in ("information_state_string", "information_state_tensor", "observation_string",
                   "observation_tensor"):
        with pytest.raises(ValueError, match="player"):
            getattr(state, method)()  # the terminal pseudo-player, -4
        for bad in (-1, -4, 4, True, 1.0, "1"):
            with pytest.raises(ValueError, match="player"):
                getattr(state, method)(bad)
        assert getattr(state, method)(3) == getattr(state, method)(3)
    for bad in (-4, 4, True, 1.0):
        with pytest.raises(ValueError, match="player"):
            state.legal_actions(bad)


def test_pure_game_refuses_parameters_of_the_wrong_type() -> None:
    """``dealer=True`` is not seat 1 (pyspiel refuses it as a bool), and ``options`` is names."""
    for params in ({"dealer": True}, {"dealer": 1.0}, {"options": 5}, {"options": [5]}):
        with pytest.raises(ValueError, match=r"dealer|options"):
            bos.BelotGame(params)
    assert str(bos.BelotGame({"options": ["OPT-SURCONTRA"]})) == "python_belot(dealer=0,options=OPT-SURCONTRA)"


@needs_pyspiel
@pytest.mark.parametrize("params", ["", "(dealer=2,options=OPT-SURCONTRA)"])
def test_openspiel_random_sim_test(params: str) -> None:
    """OpenSpiel's own conformance check of a game: random playouts checking every state's
    legal actions, chance outcomes, returns, tensors' shapes and clones."""
    pyspiel.random_sim_test(pyspiel.load_game(bos.GAME_NAME + params), num_sims=3, serialize=False, verbose=False)
