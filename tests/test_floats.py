"""Seeded bots decide the same on every Python, and a tournament's figures come out the same: no
float they compare or print goes through the built-in ``sum()``, whose rounding changed in Python
3.12 (it compensates now, and near-ties between cards broke the other way; `belot.floats`)."""

from __future__ import annotations

import builtins
from collections.abc import Iterable

import pytest
from test_expert import small
from test_sampling import random_positions

from belot.bots.pimc import PimcBot
from belot.floats import total
from belot.tournament import TournamentSpec, run_tournament

_builtin_sum = builtins.sum


def _ints_only(values: Iterable[float], /, start: float = 0) -> float:
    """The built-in sum for ints (exact on every Python); a float in it fails the test."""
    items = list(values)
    if type(start) is float or any(type(x) is float for x in items):
        raise AssertionError(f"a float sum through the built-in sum(): {items[:4]}...")
    return _builtin_sum(items, start)


def test_seeded_decisions_add_no_float_with_the_builtin_sum(monkeypatch: pytest.MonkeyPatch) -> None:
    """pimc and expert, calls and cards (expert values deals by the match: fractional equities)."""
    positions = [d.view(d.to_move) for d, _ in random_positions(40, 77, bot="heuristic")]
    positions = [v for v in positions if len(v.legal_actions) > 1]
    assert {v.phase for v in positions} >= {"auction", "play"}
    before = [(PimcBot(seed=i).act(v), small(i).act(v)) for i, v in enumerate(positions)]
    monkeypatch.setattr(builtins, "sum", _ints_only)
    assert [(PimcBot(seed=i).act(v), small(i).act(v)) for i, v in enumerate(positions)] == before


def test_tournament_figures_add_no_float_with_the_builtin_sum(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = TournamentSpec("heuristic", "random", deals=4, seed=3)
    before = run_tournament(spec).figures(timing=False)
    monkeypatch.setattr(builtins, "sum", _ints_only)
    assert run_tournament(spec).figures(timing=False) == before


def test_total_adds_left_to_right() -> None:
    xs = [0.1, 0.2, 0.3, 1e16, 1.0, -1e16]
    acc = 0.0
    for x in xs:
        acc += x
    assert total(xs) == acc and total([]) == 0.0 and total(iter([1, 2.5])) == 3.5
