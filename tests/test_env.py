"""belot.env: the PettingZoo environment belot_v0 and the observation encoding (issue 7).

The environment must pass PettingZoo's own API test, never show a seat a card it may not see,
play legal games to the end with mask-sampled agents, and pay rewards that add up to the match
score.  The fast incremental encoder must equal the reference `encode(view)` after every action.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason="belot[env] extra (numpy) not installed")
pytest.importorskip("pettingzoo", reason="belot[env] extra (pettingzoo) not installed")
pytest.importorskip("gymnasium", reason="belot[env] extra (gymnasium) not installed")

from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test

from belot.auction import PASS
from belot.env import belot_v0
from belot.env.encoding import (
    OFFSETS,
    SECTIONS,
    SIZE,
    IncrementalEncoder,
    action_mask,
    describe,
    encode,
)
from belot.errors import RuleError
from belot.game import CALL_BASE, DECLARE_BASE, NUM_ACTIONS, Deal, Match, deal_hands

ROOT = Path(__file__).resolve().parents[1]


def _sections_differing(a: np.ndarray, b: np.ndarray) -> list[str]:
    diff = set(np.flatnonzero(a != b).tolist())
    return [name for name, start, stop, _ in describe() if diff & set(range(start, stop))]


def _random_action(obs: dict, rng: random.Random) -> int:
    return int(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))


def _play_out(e, rng: random.Random) -> int:
    """Mask-sampled random agents until every agent is done; returns the steps taken."""
    steps = 0
    for agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            action = None
        else:
            legal = np.flatnonzero(obs["action_mask"])
            assert len(legal) > 0, f"{agent} is to act with an empty mask"
            action = int(rng.choice(legal.tolist()))
        e.step(action)
        steps += 1
    return steps


# -- PettingZoo's API test ----------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["deal", "match"])
@pytest.mark.parametrize("make", [belot_v0.env, belot_v0.raw_env], ids=["env", "raw_env"])
def test_pettingzoo_api_test(mode: str, make) -> None:
    with warnings.catch_warnings():
        # Its advice for single-array observations; a dict with an action mask is its convention.
        warnings.simplefilter("ignore", UserWarning)
        api_test(make(mode=mode, seed=7), num_cycles=300)


def test_bad_construction_arguments_are_named() -> None:
    with pytest.raises(ValueError, match="mode"):
        belot_v0.raw_env(mode="rubber")
    with pytest.raises(ValueError, match="target"):
        belot_v0.raw_env(mode="match", target=0)
    with pytest.raises(ValueError, match="hands"):
        belot_v0.raw_env(mode="match").reset(options={"hands": deal_hands(random.Random(1), 0)})
    with pytest.raises(RuleError, match="dealt twice"):
        belot_v0.raw_env().reset(options={"hands": [[0] * 8, [1] * 8, [2] * 8, [3] * 8]})


# -- the encoding ---------------------------------------------------------------------------------


def test_sections_tile_the_vector_and_the_docs_describe_each() -> None:
    pos = 0
    for name, size, _ in SECTIONS:
        assert OFFSETS[name] == slice(pos, pos + size)
        pos += size
    assert pos == SIZE
    doc = (ROOT / "docs" / "encoding.md").read_text(encoding="utf-8")
    for name, start, stop, _ in describe():
        assert f"`{name}`" in doc, f"docs/encoding.md does not describe section {name}"
        assert f"{start}:{stop}" in doc, f"docs/encoding.md gives the wrong slice for {name}"


def _check_incremental(deal_or_match, enc: IncrementalEncoder) -> None:
    for seat in range(4):
        ref = encode(deal_or_match.view(seat))
        assert ref.shape == (SIZE,) and ref.dtype == np.float32
        assert np.array_equal(ref, enc.x[seat]), (
            f"seat {seat}: incremental encoder differs in {_sections_differing(ref, enc.x[seat])}"
        )


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_incremental_encoder_equals_encode_of_the_view_along_a_deal(seed: int) -> None:
    rng = random.Random(seed)
    dealer = rng.randrange(4)
    deal = Deal(dealer, deal_hands(rng, dealer))
    enc = IncrementalEncoder()
    enc.start(deal)
    _check_incremental(deal, enc)
    while not deal.is_over:
        seat = deal.to_move
        action = rng.choice(deal.legal_actions())
        deal.apply(action)
        enc.update(deal, seat, action)
        _check_incremental(deal, enc)


def test_incremental_encoder_after_an_all_pass_deal() -> None:
    """R3.6: four passes end the deal; the last three cards are never dealt (R2.3)."""
    rng = random.Random(5)
    deal = Deal(2, deal_hands(rng, 2))
    enc = IncrementalEncoder()
    enc.start(deal)
    for _ in range(4):
        seat = deal.to_move
        deal.apply(CALL_BASE + PASS)
        enc.update(deal, seat, CALL_BASE + PASS)
        _check_incremental(deal, enc)
    assert deal.is_over
    assert enc.x[0][OFFSETS["hand"]].sum() == 5


def test_incremental_encoder_along_a_match() -> None:
    rng = random.Random(11)
    m = Match(rng=random.Random(12))
    enc = IncrementalEncoder()
    enc.start(m.deals[-1])
    deals = 1
    while not m.is_over:
        d = m.current
        seat = m.current_player
        action = rng.choice(m.legal_actions())
        m.apply(action)
        enc.update(d, seat, action)
        if m.is_over:
            enc.set_match(m.score)
        elif len(m.deals) > deals:
            deals = len(m.deals)
            enc.start(m.current, (m.score[0], m.score[1]), m.target, deals - 1)
        _check_incremental(m, enc)
    assert deals >= 2


def test_action_mask_is_the_legal_actions() -> None:
    rng = random.Random(3)
    deal = Deal(0, deal_hands(rng, 0))
    while not deal.is_over:
        for seat in range(4):
            mask = action_mask(deal.view(seat))
            assert mask.shape == (NUM_ACTIONS,) and mask.dtype == np.int8
            expected = deal.legal_actions() if seat == deal.to_move else []
            assert np.flatnonzero(mask).tolist() == sorted(expected)
        deal.apply(rng.choice(deal.legal_actions()))


# -- the information boundary -----------------------------------------------------------------------


def _redeal_others(hands: list[list[int]], observer: int, rng: random.Random) -> list[list[int]]:
    """The same deal for ``observer``; the other three seats' 24 cards shuffled among them."""
    others = [s for s in range(4) if s != observer]
    pool = [c for s in others for c in hands[s]]
    rng.shuffle(pool)
    out = [h[:] for h in hands]
    for k, s in enumerate(others):
        out[s] = pool[8 * k : 8 * k + 8]
    return out


def _compare_along(e1, e2, observer: str, rng: random.Random) -> int:
    """Play actions legal in both envs; the observer's observations must stay equal.  Returns
    how many actions were compared (until the hidden difference makes the games part)."""
    n = 0
    while e1.agents and not e1.terminations[e1.agent_selection]:
        o1, o2 = e1.observe(observer), e2.observe(observer)
        assert np.array_equal(o1["observation"], o2["observation"]), (
            f"{observer} sees a difference in {_sections_differing(o1['observation'], o2['observation'])}"
        )
        assert np.array_equal(o1["action_mask"], o2["action_mask"])
        assert e1.agent_selection == e2.agent_selection
        m1 = e1.observe(e1.agent_selection)["action_mask"]
        m2 = e2.observe(e2.agent_selection)["action_mask"]
        both = np.flatnonzero(m1 & m2).tolist()
        if not both:
            break
        action = rng.choice(both)
        e1.step(action)
        e2.step(action)
        n += 1
    if e1.agents and e2.agents:
        o1, o2 = e1.observe(observer), e2.observe(observer)
        assert np.array_equal(o1["observation"], o2["observation"])
    return n


@pytest.mark.parametrize("seed", range(20))
def test_observation_never_shows_other_seats_hidden_cards(seed: int) -> None:
    """Redealing the other seats' cards changes nothing in a seat's observation, as long as the
    same actions are played (compared until an action legal in one deal is not in the other)."""
    rng = random.Random(seed)
    dealer = rng.randrange(4)
    hands = deal_hands(rng, dealer)
    observer = rng.randrange(4)
    other = _redeal_others(hands, observer, rng) if seed % 2 else _swap_two(hands, observer, rng)
    e1, e2 = belot_v0.raw_env(), belot_v0.raw_env()
    e1.reset(options={"hands": hands, "dealer": dealer})
    e2.reset(options={"hands": other, "dealer": dealer})
    assert _compare_along(e1, e2, f"player_{observer}", rng) >= 4  # the auction at least


def _swap_two(hands: list[list[int]], observer: int, rng: random.Random) -> list[list[int]]:
    """One card swapped between two other seats: the games part late, the play is compared long."""
    a, b = rng.sample([s for s in range(4) if s != observer], 2)
    out = [h[:] for h in hands]
    i, j = rng.randrange(8), rng.randrange(8)
    out[a][i], out[b][j] = out[b][j], out[a][i]
    return out


@pytest.mark.parametrize("seed", range(8))
def test_own_last_three_cards_stay_hidden_during_the_auction(seed: int) -> None:
    """R2.3: bidding is on five cards; the other three are not seen until the auction ends."""
    rng = random.Random(seed)
    hands = deal_hands(rng, 0)
    observer = rng.randrange(4)
    other_seat = rng.choice([s for s in range(4) if s != observer])
    swapped = [h[:] for h in hands]
    i, j = rng.randrange(5, 8), rng.randrange(8)
    swapped[observer][i], swapped[other_seat][j] = swapped[other_seat][j], swapped[observer][i]
    e1, e2 = belot_v0.raw_env(), belot_v0.raw_env()
    e1.reset(options={"hands": hands, "dealer": 0})
    e2.reset(options={"hands": swapped, "dealer": 0})
    name = f"player_{observer}"
    # Everybody passes but the last caller, so the auction ends with a contract after 4+ calls.
    while e1.deal.phase == "auction":
        assert np.array_equal(e1.observe(name)["observation"], e2.observe(name)["observation"])
        if e1.deal.auction.passes < 2:
            action = CALL_BASE + PASS
        else:  # the highest legal call
            action = int(np.flatnonzero(e1.observe(e1.agent_selection)["action_mask"])[-1])
        e1.step(action)
        e2.step(action)
    if e1.deal.phase == "play":  # now the whole hand shows, so the views must differ
        assert not np.array_equal(e1.observe(name)["observation"], e2.observe(name)["observation"])


# -- playing ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["deal", "match"])
def test_random_agents_play_legal_games_to_the_end(mode: str) -> None:
    rng = random.Random(21)
    e = belot_v0.env(mode=mode, seed=21)
    for _ in range(6 if mode == "deal" else 2):
        e.reset()
        steps = _play_out(e, rng)
        raw = e.unwrapped
        assert not e.agents and steps > 4
        assert all("illegal" not in info for info in raw.infos.values())
        deals = raw.match.deals if raw.match is not None else [raw.deal]
        for deal in deals:  # every deal replays through the rules core to the same result
            again = Deal(deal.dealer, deal.dealt, pot=deal.pot)
            for action in deal.actions:
                again.apply(action)
            assert again.is_over and again.result == deal.result
        if raw.match is not None:
            assert raw.match.is_over


def test_match_rewards_add_up_to_the_score_difference() -> None:
    rng = random.Random(4)
    e = belot_v0.env(mode="match", seed=4)
    for _ in range(2):
        e.reset()
        totals = {a: 0.0 for a in e.possible_agents}
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, _ = e.last()
            totals[agent] += reward
            e.step(None if terminated or truncated else _random_action(obs, rng))
        m = e.unwrapped.match
        diff = m.score[0] - m.score[1]
        assert totals == {"player_0": diff, "player_1": -diff, "player_2": diff, "player_3": -diff}
        assert sum(r.points[0] - r.points[1] for r in m.results) == diff
        assert len(m.results) >= 2


def test_deal_reward_is_the_deal_points_difference() -> None:
    e = belot_v0.raw_env(mode="deal", seed=9)
    rng = random.Random(9)
    for _ in range(5):
        e.reset()
        got = {a: 0.0 for a in e.possible_agents}
        results = []
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, info = e.last()
            got[agent] += reward
            if terminated:
                results.append(info["result"])
            e.step(None if terminated or truncated else _random_action(obs, rng))
        p = e.deal.result.points
        assert results == [e.deal.result.to_json()] * 4
        assert got["player_0"] == got["player_2"] == p[0] - p[1] == -got["player_1"] == -got["player_3"]


def test_the_same_seed_gives_the_same_episode() -> None:
    def trace(seed: int) -> list[int]:
        e = belot_v0.env(mode="match", seed=seed)
        e.reset()
        rng = random.Random(0)
        _play_out(e, rng)
        return [a for d in e.unwrapped.match.deals for a in d.actions]

    assert trace(5) == trace(5)
    assert trace(5) != trace(6)


# -- illegal actions ----------------------------------------------------------------------------------


def test_raw_env_raises_on_an_illegal_action_and_changes_nothing() -> None:
    e = belot_v0.raw_env(mode="deal", seed=2)
    e.reset()
    agent = e.agent_selection
    before = e.observe(agent)
    illegal = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(RuleError, match=r"\(R"):
        e.step(illegal)
    with pytest.raises(RuleError, match="not an action"):
        e.step(NUM_ACTIONS)
    after = e.observe(agent)
    assert e.agent_selection == agent
    assert np.array_equal(before["observation"], after["observation"])
    assert np.array_equal(before["action_mask"], after["action_mask"])



_NOT_ACTIONS = (
    st.floats() | st.text(max_size=3000) | st.booleans() | st.none() | st.integers().filter(lambda x: not 0 <= x < NUM_ACTIONS)
    | st.lists(st.integers(0, NUM_ACTIONS - 1), min_size=1, max_size=5) | st.builds(np.float32, st.floats(0, NUM_ACTIONS, width=32))
    | st.builds(lambda x: np.array([x, x]), st.integers(0, NUM_ACTIONS - 1))
)


def _highest_legal(e) -> int:
    legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
    return int(legal[legal < DECLARE_BASE].max())


@settings(max_examples=200, deadline=None)
@given(bad=_NOT_ACTIONS, plays=st.integers(0, 20))
def test_anything_but_a_whole_number_of_an_action_is_refused(bad, plays) -> None:
    """Anything ``step`` may be handed that is not a whole number 0-162 (a float such as 20.7, which
    ``int()`` would make the jack of hearts, a numeral string, a bool, infinity, a huge int, a list, an
    array of two) is a RuleError that changes nothing, with a short message; with ``illegal_reward``
    it ends the game as an illegal action does.  Numpy integers are actions (R5.1)."""
    e = belot_v0.raw_env(mode="deal", seed=3)
    e.reset()
    for _ in range(plays):  # into the auction or the play (the highest call, then card: no redeal)
        e.step(_highest_legal(e))
    agent = e.agent_selection
    before = e.observe(agent)
    with pytest.raises(RuleError, match=r"is not an action") as err:
        e.step(bad)
    assert len(str(err.value)) < 200
    assert e.agent_selection == agent and np.array_equal(before["observation"], e.observe(agent)["observation"])
    legal = int(np.flatnonzero(before["action_mask"])[0])
    e.step(np.int64(legal))  # a numpy integer is an action
    p = belot_v0.raw_env(mode="deal", seed=3, illegal_reward=-1.0)
    p.reset()
    for _ in range(plays):
        p.step(_highest_legal(p))
    agent = p.agent_selection
    p.step(bad)
    assert all(p.terminations.values()) and "is not an action" in p.infos[agent]["illegal"]


def test_env_penalises_an_illegal_action_and_ends_the_game() -> None:
    e = belot_v0.env(mode="match", seed=2)
    e.reset()
    agent = e.agent_selection
    obs, *_ = e.last()
    e.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert all(e.terminations.values())
    assert e.rewards[agent] == belot_v0.ILLEGAL_REWARD
    assert sum(e.rewards.values()) == belot_v0.ILLEGAL_REWARD
    assert "illegal" in e.infos[agent]
    seen = set()
    for a in e.agent_iter():
        seen.add(a)
        e.step(None)
    assert seen == set(e.possible_agents) and not e.agents


def test_step_before_reset_is_refused() -> None:
    e = belot_v0.env()
    with pytest.raises(Exception, match="reset"):
        e.step(0)


def test_wrapper_checks_the_order_after_reset_too(caplog: pytest.LogCaptureFixture) -> None:
    """After `reset`, `env()`'s `last` and `step` are the raw env's own: a step after every agent
    is done still warns and changes nothing, and `agent_iter` still refuses a turn not stepped,
    as with PettingZoo's OrderEnforcingWrapper."""
    e = belot_v0.env(seed=4)
    for _ in range(2):  # a second reset binds the calls again
        e.reset()
        assert e.last()[0]["action_mask"].any()
        _play_out(e, random.Random(4))
        assert not e.agents
        caplog.clear()
        e.step(None)  # PettingZoo's warning (its logger), nothing else
        assert "after all agents are terminated" in caplog.text
        assert not e.agents
    e.reset()
    it = iter(e.agent_iter())
    next(it)
    with pytest.raises(AssertionError, match="need to call step"):
        next(it)
    fresh = belot_v0.env()
    with pytest.raises(Exception, match="reset"):
        fresh.last()
    with pytest.raises(Exception, match="reset"):
        fresh.agent_iter()


# -- optional extras --------------------------------------------------------------------------------


def test_core_imports_without_numpy_pettingzoo_gymnasium() -> None:
    code = (
        "import sys\n"
        "for name in ('numpy', 'pettingzoo', 'gymnasium', 'pyspiel'): sys.modules[name] = None\n"
        "import belot, belot.game, belot.record, belot.bots, belot.cli, belot.env\n"
        "from belot.bots import make_bot\n"
        "make_bot('bot:random', 1)\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_env_observations_equal_encode_of_the_view_on_10000_positions() -> None:
    """The environment's observation (the incremental encoder, one precomputed write per action)
    equals the reference `encode(view)` and `action_mask(view)`, element for element, at 10,000
    random positions of deals and matches, every phase included."""
    rng = random.Random(2025)
    checked = 0
    while checked < 10_000:
        mode = "match" if checked % 3 == 0 else "deal"
        e = belot_v0.raw_env(mode=mode, seed=rng.randrange(2**32), target=rng.choice([41, 151]))
        e.reset()
        while e.agents and not e.terminations[e.agent_selection] and checked < 10_000:
            for agent in (e.agent_selection, rng.choice(e.agents)):  # to act, and any seat
                obs = e.observe(agent)
                view = e.view(agent)
                assert np.array_equal(obs["observation"], encode(view)), _sections_differing(
                    obs["observation"], encode(view))
                assert np.array_equal(obs["action_mask"], action_mask(view))
            obs = e.observe(e.agent_selection)
            checked += 1
            legal = np.flatnonzero(obs["action_mask"]).tolist()
            pass_bias = mode == "deal" and legal[0] == CALL_BASE + PASS and rng.random() < 0.3
            e.step(CALL_BASE + PASS if pass_bias else rng.choice(legal))


def test_precomputed_encoder_writes_never_write_an_entry_twice() -> None:
    """numpy leaves the order of repeated indices in one fancy-indexed write open, so each
    precomputed (indices, values) write of the encoder names every entry once."""
    from belot.env import encoding as enc

    rng = random.Random(8)
    for _ in range(300):  # the auction's writes are built at their first use
        deal = Deal(rng.randrange(4), deal_hands(rng, 0))
        e = enc.IncrementalEncoder()
        e.start(deal)
        while deal.phase == "auction":
            seat, action = deal.to_move, rng.choice(deal.legal_actions())
            deal.apply(action)
            e.update(deal, seat, action)
    assert enc._TURN_WRITES and enc._BID_WRITES
    writes = [*enc._CARD_WRITES, *enc._TURN_WRITES.values(), *enc._BID_WRITES.values()]
    for table in (enc._TO_MOVE_SWITCH, enc._PASSES_SWITCH, enc._CONTRACT_SWITCH, enc._DECLARER_SWITCH,
                  enc._MULT_SWITCH, *enc._LAST_CALL_SWITCH):
        writes += [w for row in table for w in row]
    for index, values in writes:
        assert len(np.unique(index)) == len(index) == len(values)
    for by_winner in enc._WINNER_ONES:
        for index in by_winner:
            assert len(np.unique(index)) == len(index)


# -- the edges of the API ------------------------------------------------------------------------


def test_a_numpy_integer_seed_is_the_same_seed() -> None:
    """``reset(seed=np.int64(3))`` (a seed drawn with numpy) plays the episode of ``seed=3``; it
    was a TypeError from random.Random."""
    for kind in (np.int64, np.uint32, int):
        e = belot_v0.env(mode="deal", seed=kind(3))
        e.reset()
        first = e.unwrapped.deal.dealt
        e.reset(seed=kind(3))
        assert e.unwrapped.deal.dealt == first
        e.reset(seed=3)
        assert e.unwrapped.deal.dealt == first


def test_reset_options_are_checked_and_a_dealer_alone_shuffles_for_that_dealer() -> None:
    """A misspelt option (``{"hand": ...}``) silently played a shuffled deal instead of the one
    meant for duplicate play: it is still ignored (PettingZoo's api_test passes an unknown one) but
    named in a warning.  ``{"dealer": d}`` alone is a shuffled deal dealt by d (it was ignored); a
    match deals its own hands and dealers."""
    e = belot_v0.raw_env(mode="deal")
    for bad in ({"hand": deal_hands(random.Random(0), 0)}, {"seed": 3}):
        with pytest.warns(UserWarning, match=f"ignores reset option.*'{next(iter(bad))}'"):
            e.reset(options=bad)
    for dealer in range(4):
        e.reset(seed=dealer, options={"dealer": dealer})
        assert e.deal.dealer == dealer
    with pytest.raises(ValueError, match="dealer"):
        e.reset(options={"dealer": 4})
    m = belot_v0.raw_env(mode="match")
    with pytest.raises(ValueError, match="dealer"):
        m.reset(options={"dealer": 1})


@pytest.mark.parametrize("bad", ["dealer", 5, ["dealer"]])
def test_reset_options_that_are_not_a_dict_are_refused(bad: object) -> None:
    """``reset(options="dealer")`` warned of ignoring options 'd', 'e', ...; 5 failed inside set()."""
    e = belot_v0.raw_env(mode="deal")
    with pytest.raises(ValueError, match="reset options are a dict"):
        e.reset(options=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", ["OPT-NONZERO", 5])
def test_env_options_are_a_list_of_names(bad: object) -> None:
    """``options="OPT-NONZERO"`` was read letter by letter: "unknown rule option 'O'"."""
    with pytest.raises(ValueError, match="rule options are a list of names"):
        belot_v0.raw_env(options=bad)  # type: ignore[arg-type]


def test_a_target_or_illegal_reward_that_is_not_a_number_is_refused() -> None:
    for bad in (True, 151.0, "151", 10_001, 10**30):  # a target of 10**6 made observations outside the space
        with pytest.raises(ValueError, match="target must be a whole number of game points from 1 to 10000"):
            belot_v0.raw_env(mode="match", target=bad)
    e = belot_v0.raw_env(mode="match", seed=1, target=10_000)
    e.reset(seed=1)
    assert e.observation_space("player_0").contains(e.observe(e.agent_selection))
    for bad in (float("nan"), float("inf"), True, "x"):
        with pytest.raises(ValueError, match="illegal_reward"):
            belot_v0.env(illegal_reward=bad)


def test_a_deep_copy_of_the_env_goes_its_own_way() -> None:
    """Lookahead search copies the environment (``copy.deepcopy``, pickle): the copy observes what
    the original does, and stepping it never changes the original."""
    import copy
    import pickle

    e = belot_v0.env(mode="match", seed=4)
    e.reset()
    rng = random.Random(4)
    for _ in range(30):
        e.step(_random_action(e.last()[0], rng))
    for twin in (copy.deepcopy(e), pickle.loads(pickle.dumps(e))):
        before = [e.observe(a)["observation"].copy() for a in e.agents]
        for a in e.agents:
            assert np.array_equal(twin.observe(a)["observation"], e.observe(a)["observation"])
        for _ in range(30):
            twin.step(_random_action(twin.last()[0], rng))
        assert all(np.array_equal(e.observe(a)["observation"], x) for a, x in zip(e.agents, before))
        u = twin.unwrapped
        for a in twin.agents:
            assert np.array_equal(twin.observe(a)["observation"], encode(u.view(a)))


def test_the_training_example_runs_and_refuses_no_deals() -> None:
    """examples/train_pg.py, cut short: it trains, evaluates and prints what docs/research.md shows;
    ``--eval-deals 0`` printed a mean reward of nan, and is refused."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    script = str(ROOT / "examples" / "train_pg.py")
    out = subprocess.run([sys.executable, script, "--deals", "20", "--eval-deals", "20"],
                         capture_output=True, text=True, timeout=300, env=env, check=True).stdout
    assert out.startswith("before training: mean reward per deal vs random ")
    assert "trained on 20 deals" in out and "after training:  mean reward per deal vs random " in out
    bad = subprocess.run([sys.executable, script, "--eval-deals", "0"], capture_output=True, text=True,
                         timeout=60, env=env)
    assert bad.returncode == 2 and "from 1, not '0'" in bad.stderr and "Traceback" not in bad.stderr


def test_a_match_of_agents_that_always_pass_is_truncated_after_max_deals() -> None:
    """No rule ends a match of all-pass deals (each scores 0): agents that learned to pass every
    hand played one episode forever, and past 32,000 deals the deal-index feature left the
    observation space. After ``max_deals`` deals the episode is truncated, not terminated."""
    for bad in (0, -1, True, 2.0, None):
        with pytest.raises(ValueError, match="max_deals must be a whole number of deals from 1"):
            belot_v0.raw_env(mode="match", max_deals=bad)
    assert belot_v0.raw_env(mode="match").max_deals == 10_000
    e = belot_v0.env(mode="match", seed=5, max_deals=3)
    e.reset(seed=5)
    steps = 0
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        assert reward == 0.0
        if terminated or truncated:
            assert truncated and not terminated, agent
            assert info["truncated"] == "max_deals: 3 deals played" and info["result"]["contract"] is None
            assert e.unwrapped.observation_space(agent).contains(obs)
            e.step(None)
            continue
        e.step(CALL_BASE + PASS)
        steps += 1
    assert steps == 12  # three deals of four passes
    assert e.unwrapped.match.score == [0, 0] and len(e.unwrapped.match.deals) == 4


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_after_a_truncation_the_view_is_the_one_behind_the_observation(seed: int) -> None:
    """At max_deals the match has already dealt the next deal: `view(agent)` gave that deal (an auction,
    with legal actions), not the finished deal the observation shows."""
    from belot.env.encoding import encode
    from belot.game import OVER

    env = belot_v0.raw_env(mode="match", seed=seed, max_deals=1)
    env.reset()
    while not env.truncations[env.agent_selection]:
        env.step(env.legal_actions()[-1] if env.deal.phase == "auction" else env.legal_actions()[0])
    for agent in env.agents:
        v = env.view(agent)
        assert v.phase == OVER and v.deal_index == 0 and v.legal_actions == ()
        assert np.array_equal(env.observe(agent)["observation"], encode(v))
