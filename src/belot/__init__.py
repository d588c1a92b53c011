"""belot: Bulgarian Belot as played in Turkey, Bulgaria and around the Black Sea.

The rules core (`belot.cards`, `contracts`, `auction`, `play`, `declarations`, `scoring`, `game`,
`record`) is pure Python with no third-party imports; everything else builds on it.

>>> import random
>>> from belot import Match
>>> m = Match(rng=random.Random(1))
>>> m.current_player in range(4)
True
"""

from .contracts import Rules
from .game import CHANCE, NUM_ACTIONS, TERMINAL, Deal, DealResult, Match, SeatView, action_name

__all__ = ["CHANCE", "NUM_ACTIONS", "TERMINAL", "Deal", "DealResult", "Match", "Rules", "SeatView", "action_name"]
__version__ = "0.1.0"
