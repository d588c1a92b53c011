"""The Python API of README.md: `Deal`, `Match`, `action_name`, as a researcher drives them.

The README's example runs as printed; an action is accepted as any whole number 0-162 (an int or
a numpy integer, as the environments accept it) and anything else is refused with RuleError
naming it, changing nothing; a clone's actions never change the original; deals, matches and
views survive pickling (multiprocessing, checkpoints) and go on identically.
"""

from __future__ import annotations

import pickle
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from belot import Deal, Match, action_name
from belot.errors import RuleError
from belot.game import NUM_ACTIONS

ROOT = Path(__file__).resolve().parents[1]


def _state(game: Deal | Match) -> tuple:
    """What a deal or match is: every seat's view, every action, and a match's score and generator."""
    views = tuple(game.view(seat) for seat in range(4))
    if isinstance(game, Deal):
        return views, game.actions[:]
    assert game.rng is not None
    return views, [d.actions[:] for d in game.deals], game.score[:], game.rng.getstate()

# Everything that is not a whole number 0-162 (bools are not numbers of actions either)
NOT_ACTIONS = st.one_of(
    st.integers(max_value=-1), st.integers(min_value=NUM_ACTIONS), st.booleans(), st.floats(),
    st.text(max_size=4), st.none(), st.lists(st.integers(0, NUM_ACTIONS - 1), max_size=2),
)


def test_the_readme_example_runs_as_printed() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## The Python API"):]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    out = subprocess.run([sys.executable, "-c", code.group(1)], capture_output=True, text=True, timeout=120, check=True)
    score, deal = out.stdout.splitlines()
    assert re.fullmatch(r"\[\d+, \d+\] [01]", score)
    assert deal.startswith("['AT', 'kontra', 'rekontra', 'pass', 'pass', 'pass'] ")


@settings(max_examples=150, deadline=None)
@given(bad=NOT_ACTIONS)
def test_action_name_refuses_what_is_not_an_action(bad) -> None:
    """Not ``8C`` for True, nor an IndexError for -1 or a TypeError for "5"."""
    with pytest.raises(RuleError, match="is not an action"):
        action_name(bad)


def test_action_name_names_every_action() -> None:
    names = [action_name(a) for a in range(NUM_ACTIONS)]
    assert len(set(names)) == NUM_ACTIONS
    assert names[20] == "JH" and names[32 + 30] == "KS+belote" and names[64] == "pass"


def _whole_numbers():
    """Whole-number types an action may come in: an int and, with numpy, its integer types."""
    np = pytest.importorskip("numpy")
    return [int, np.int64, np.int32, np.int16, np.uint8, np.intp]


def test_deal_and_match_accept_an_action_as_a_numpy_integer() -> None:
    """`rng.choice(np.flatnonzero(mask))` or ``np.argmax`` give numpy integers; the environments
    take them, and so do `Deal.apply` and `Match.apply`, which keep the action as an int."""
    for kind in _whole_numbers():
        deal = Deal.shuffled(random.Random(1), dealer=3)
        match = Match(rng=random.Random(1))
        rng = random.Random(5)
        while not deal.is_over:
            a = rng.choice(deal.legal_actions())
            deal.apply(kind(a))
            match.apply(kind(rng.choice(match.legal_actions())))
        assert all(type(a) is int for a in deal.actions + match.deals[0].actions)


@settings(max_examples=150, deadline=None)
@given(bad=NOT_ACTIONS, steps=st.integers(0, 40))
def test_deal_and_match_refuse_what_is_not_an_action_and_change_nothing(bad, steps: int) -> None:
    rng = random.Random(steps)
    deal, match = Deal.shuffled(random.Random(2), dealer=0), Match(rng=random.Random(2))
    for _ in range(steps):
        if not deal.is_over:
            deal.apply(rng.choice(deal.legal_actions()))
        match.apply(rng.choice(match.legal_actions()))
    for game in (deal, match):
        before = _state(game)
        with pytest.raises(RuleError):
            game.apply(bad)
        assert _state(game) == before


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_clone_or_a_pickled_copy_goes_its_own_way(seed: int) -> None:
    """Playing a clone (or an unpickled copy) on never changes the original, and an unpickled
    match deals the same future (its random generator travels with it)."""
    rng = random.Random(seed)
    match = Match(rng=random.Random(seed))
    while not match.is_over:
        before = _state(match)
        seat = match.current_player
        view = match.view(seat)
        assert pickle.loads(pickle.dumps(view)) == view
        for copy in (match.clone(), pickle.loads(pickle.dumps(match))):
            for _ in range(rng.randrange(1, 12)):
                if copy.is_over:
                    break
                copy.apply(rng.choice(copy.legal_actions()))
            assert _state(match) == before
        twin = pickle.loads(pickle.dumps(match))
        a = rng.choice(match.legal_actions())
        match.apply(a)
        twin.apply(a)
        assert twin.score == match.score and twin.view(seat) == match.view(seat)


def test_numpy_integers_are_taken_for_dealers_hands_and_targets_as_for_actions() -> None:
    """Actions and seeds took numpy integers, but Deal(np.int64(0), hands), Match(first_dealer=
    np.int64(1)) and hands as a numpy array were refused ("np.int64(16) is not a card"). They are
    their ints now, and what the deal stores (and a record writes) is plain ints."""
    np = pytest.importorskip("numpy")
    from belot.record import dumps, loads

    hands = [list(range(i * 8, i * 8 + 8)) for i in range(4)]
    d = Deal(np.int64(0), np.array(hands))
    assert type(d.dealer) is int and {type(c) for h in d.dealt for c in h} == {int}
    m = Match(first_dealer=np.int64(1), target=np.int64(151))
    m.deal(np.array(hands))
    assert m.target == 151 and type(m.target) is int
    assert loads(dumps(m)).deals[0].dealt == m.deals[0].dealt
    for bad in (True, 1.0, "1", np.float64(1.0)):  # still no bool, float or text for a seat
        with pytest.raises(ValueError, match="dealer must be a seat"):
            Deal(bad, hands)


class _HalfRandom(random.Random):
    """A generator of its own: its shuffles differ from random.Random's with the same seed."""

    def random(self) -> float:
        return 0.5 * super().random()


@pytest.mark.parametrize("rng", [_HalfRandom(3), random.SystemRandom()], ids=["subclass", "system"])
def test_a_match_with_any_random_generator_can_be_cloned(rng: random.Random) -> None:
    """Match(rng=random.SystemRandom()).clone() raised NotImplementedError, and a subclass of Random
    became a plain Random in the clone, which then dealt other cards than the match itself would."""
    m = Match(rng=rng, target=1001)
    c = m.clone()
    assert type(c.rng) is type(rng)
    while len(m.deals) < 2:  # the same actions in both: the next deal comes from each one's generator
        a = m.legal_actions()[0]
        m.apply(a)
        c.apply(a)
    if type(rng) is _HalfRandom:
        assert c.deals[1].dealt == m.deals[1].dealt
