"""Bots: players that see one seat's view and return one of its legal actions.

A bot never receives the game state, only `SeatView` (its own cards and what is public), so it
cannot cheat.  Bots are named (``random``, ``heuristic``, ``pimc``, ``expert``, ...) and every app makes them
with `make_bot` from a name such as ``bot:heuristic``; a bot is reproducible from its seed.
"""

from __future__ import annotations

import importlib
from typing import Protocol

from ..errors import shown
from ..game import SeatView


class Bot(Protocol):
    name: str

    def act(self, view: SeatView) -> int:
        """One of ``view.legal_actions``."""
        ...


# name -> "module:Class", strongest first (the order of the levels offered to players); modules are
# imported only when the bot is made.
REGISTRY: dict[str, str] = {
    "expert": "belot.bots.expert:ExpertBot",
    "pimc": "belot.bots.pimc:PimcBot",
    "heuristic": "belot.bots.heuristic:HeuristicBot",
    "random": "belot.bots.random_bot:RandomBot",
}


def bot_names() -> list[str]:
    """The registered bots, strongest first."""
    return list(REGISTRY)


def make_bot(name: str, seed: int | None = None) -> Bot:
    """Make the bot called ``name`` (``random`` or ``bot:random``); ValueError for unknown names."""
    key = name.removeprefix("bot:")
    if key not in REGISTRY:
        raise ValueError(f"unknown bot {shown(name)}; known bots: {', '.join(bot_names())}")
    module, cls = REGISTRY[key].split(":")
    return getattr(importlib.import_module(module), cls)(seed=seed)  # type: ignore[no-any-return]
