"""The environments under house rules (docs/rules.md section 6, docs/encoding.md).

The observation under the defaults is the one of before the options, element for element (a
golden file of random positions, made with that encoder); under `OPT-SURCONTRA` a surkontra shows
in the kontra slot's rows and the x8 entry; PettingZoo's API test passes with options; the
OpenSpiel game takes them as its ``options`` parameter.
"""

from __future__ import annotations

import random
import warnings
from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason="belot[env] extra (numpy) not installed")
pytest.importorskip("pettingzoo", reason="belot[env] extra (pettingzoo) not installed")

from pettingzoo.test import api_test

from belot.game import Match, SeatView

DATA = Path(__file__).resolve().parent / "data" / "encoding-default.npz"


def default_positions() -> list[SeatView]:
    """Views of random seats along ten seeded random matches under the defaults, every third action."""
    views = []
    for seed in range(1, 11):
        rng = random.Random(seed)
        m = Match(rng=random.Random(seed + 100))
        n = 0
        while not m.is_over:
            if n % 3 == 0:
                views.append(m.view(rng.randrange(4)))
            m.apply(rng.choice(m.legal_actions()))
            n += 1
    return views


def test_default_observation_is_the_earlier_one_element_for_element() -> None:
    """docs/encoding.md: under the defaults the vector is the one before `surkontra` was appended,
    with a 0 in that last entry (the golden file holds the earlier encoder's vectors)."""
    from belot.env.encoding import OFFSETS, SIZE, encode

    data = np.load(DATA)
    old_size = int(data["size"][0])
    assert old_size == SIZE - 1 and OFFSETS["surkontra"] == slice(old_size, SIZE)
    views = default_positions()
    expected = np.zeros((len(views), old_size), np.float32)
    expected[data["position"], data["index"]] = data["value"]
    for k, view in enumerate(views):
        x = encode(view)
        assert np.array_equal(x[:old_size], expected[k]), f"position {k} differs"
        assert x[-1] == 0.0


def _surkontra_deal(seed: int):  # type: ignore[no-untyped-def]
    """A deal under OPT-SURCONTRA whose auction is bid, kontra, rekontra, surkontra, then passes."""
    from belot.auction import BID_BASE, KONTRA, PASS, REKONTRA
    from belot.contracts import Rules
    from belot.game import CALL_BASE, Deal, deal_hands

    rng = random.Random(seed)
    dealer = rng.randrange(4)
    deal = Deal(dealer, deal_hands(rng, dealer), Rules.from_options(["OPT-SURCONTRA"]))
    calls = [BID_BASE + rng.randrange(6), KONTRA, REKONTRA, KONTRA, PASS, PASS, PASS]
    return rng, deal, [CALL_BASE + c for c in calls]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_surkontra_is_encoded_in_the_kontra_rows_and_the_x8_entry(seed: int) -> None:
    """R3.3 with OPT-SURCONTRA: the call id 9 of the view shows as a kontra mark and x8, and the
    incremental encoder agrees with `encode` along the deal."""
    from belot.auction import KONTRA, SURKONTRA
    from belot.env.encoding import OFFSETS, IncrementalEncoder, encode

    rng, deal, calls = _surkontra_deal(seed)
    enc = IncrementalEncoder()
    enc.start(deal)
    for i, a in enumerate(calls):
        seat = deal.to_move
        deal.apply(a)
        enc.update(deal, seat, a)
        for o in range(4):
            assert np.array_equal(encode(deal.view(o)), enc.x[o]), (i, o)
        if i == 3:
            view = deal.view(0)
            assert view.calls[-1] == (seat, SURKONTRA) and view.multiplier == 8
            x = encode(view)
            assert x[OFFSETS["surkontra"]][0] == 1.0 and not x[OFFSETS["multiplier"]].any()
            rel = (seat - 0) & 3
            assert x[OFFSETS["last_call"]][9 * rel + KONTRA] == 1.0
            assert x[OFFSETS["kontras"]].sum() == 2.0  # the kontra and the surkontra
    while not deal.is_over:
        seat = deal.to_move
        a = rng.choice(deal.legal_actions())
        deal.apply(a)
        enc.update(deal, seat, a)
        for o in range(4):
            assert np.array_equal(encode(deal.view(o)), enc.x[o])
    assert deal.result is not None and deal.result.multiplier == 8


@pytest.mark.parametrize("mode", ["deal", "match"])
def test_pettingzoo_api_test_under_options(mode: str) -> None:
    from belot.env import belot_v0

    opts = ["OPT-SURCONTRA", "OPT-EIGHT-SPLIT", "OPT-NONZERO", "OPT-NO-SHUFFLE", "OPT-CAPOT-EN"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(belot_v0.env(mode=mode, seed=7, options=opts), num_cycles=300)
    e = belot_v0.raw_env(mode=mode, seed=3, options=opts)
    e.reset()
    assert e.view("player_0").options == tuple(opts)


def test_env_refuses_an_unknown_option() -> None:
    from belot.contracts import UnsupportedOption
    from belot.env import belot_v0

    with pytest.raises(UnsupportedOption, match="OPT-LATE-DECLARE"):
        belot_v0.raw_env(options=["OPT-LATE-DECLARE"])
