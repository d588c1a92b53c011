"""Belot as an OpenSpiel game: one deal for four players, with the deal as chance nodes.

With ``open_spiel`` installed (the ``belot[openspiel]`` extra), importing this module registers
the Python game ``python_belot`` with pyspiel, so ``pyspiel.load_game("python_belot")`` gives a
game that OpenSpiel's algorithms and bots can drive (the Python MCTS and ISMCTS bots, random
rollouts, evaluate_bots ...).  Without it, `BelotGame` / `BelotState` offer the same method names
in pure Python (``new_initial_state``, ``current_player``, ``legal_actions``, ``apply_action``,
``is_chance_node``, ``chance_outcomes``, ``is_terminal``, ``returns``,
``information_state_string/tensor``, ``observation_string/tensor``, ``clone``).  `load_game()`
returns whichever is available.

The game, in OpenSpiel terms:

* **Chance**: the first 32 moves deal the pack one card at a time, in the order of R2.3 (3 cards
  to each seat from the forehand, then 2, then 3).  Each chance node's outcomes are the cards not
  yet dealt, uniformly (a chance outcome per card: a whole deal as one outcome would be 10^17
  outcomes, which no algorithm can enumerate).  Chance actions are card ids 0-31.
* **House rules** are the game parameter ``options``: option names separated by ``+`` (or
  spaces), e.g. ``pyspiel.load_game("python_belot(options=OPT-SURCONTRA+OPT-NONZERO)")``; default
  none (docs/rules.md section 6).  The action space and the observation are the same under every
  option; under `OPT-SURCONTRA` the auction can be longer, so the information-state tensor is.
* **Players** 0-3 are seats; the dealer is the game parameter ``dealer`` (default 0).  Player
  actions are belot.game's 163 actions; `legal_actions` is `Deal.legal_actions`, sorted.
* **Returns** at the end of the deal, in game points from each player's team's side: own team's
  points minus the other team's (R9-R11), so the game is zero-sum and partners share a return.
  An all-pass deal returns 0.  Rewards come only at the end (``RewardModel.TERMINAL``).
* **Information state** (perfect recall) of a player: its own cards (the first five during the
  auction and after an all-pass deal, R2.3), every call, every card played, and the *kind* of each other seat's declaration
  (R7.5: only the kind is said), with the player's own declarations in full.  The tensor is
  belot.env.encoding's vector followed by the auction in order (`MAX_AUCTION` calls x 9 one-hot),
  which makes it perfect-recall; the observation tensor is the encoding vector alone.
"""

from __future__ import annotations

import contextlib
import operator
import random
import re
from typing import Any

import numpy as np

from .. import inference
from ..auction import CALL_NAMES, NUM_CALLS
from ..cards import CARD_NAMES, NUM_CARDS, cards_of
from ..contracts import CARRE_FIRST, EIGHT_SPLIT, SURCONTRA, Rules
from ..declarations import DECLARATIONS, Declaration
from ..errors import RuleError, shown
from ..game import CALL_BASE, DECLARE_BASE, NUM_ACTIONS, Deal, action_index, action_name
from .encoding import OFFSETS, SIZE, encode

GAME_NAME = "python_belot"
NUM_PLAYERS = 4
CHANCE_PLAYER = -1  # OpenSpiel's PlayerId.CHANCE
TERMINAL_PLAYER = -4  # OpenSpiel's PlayerId.TERMINAL
# The longest auction: 3 passes, then up to 18 non-pass calls (each of 6 contracts bid, doubled,
# redoubled once, R3.1-R3.4) with at most 2 passes between two of them, then the 3 final passes.
MAX_AUCTION = 3 + 18 + 2 * 17 + 3
# Under OPT-SURCONTRA each contract may also be surkontra'd: 24 non-pass calls.
MAX_AUCTION_SURCONTRA = 3 + 24 + 2 * 23 + 3
MAX_DECLARATIONS = 8  # a card serves in one declaration (R7.4): at most 2 per seat
MAX_GAME_LENGTH = NUM_CARDS + MAX_AUCTION + NUM_CARDS + MAX_DECLARATIONS
MAX_UTILITY = 1000.0  # a loose bound on one deal's points difference (rekontra x4 included)
MAX_UTILITY_SURCONTRA = 2000.0  # and under OPT-SURCONTRA (x8)
INFO_SIZE = SIZE + MAX_AUCTION * NUM_CALLS
_AUCTION_OFFSET = SIZE


def _dealing_order(dealer: int) -> tuple[int, ...]:
    """Seat receiving the i-th card dealt (R2.3), as belot.game.deal_hands deals."""
    order = []
    for size in (3, 2, 3):
        for k in range(1, 5):
            order.extend([(dealer + k) & 3] * size)
    return tuple(order)


_ORDERS = tuple(_dealing_order(d) for d in range(4))


class _DealBox:
    """Holds the Deal; OpenSpiel clones a Python state by deep-copying its attributes, and this
    makes that copy the rules core's own (fast) `Deal.clone`."""

    __slots__ = ("deal",)

    def __init__(self, deal: Deal | None) -> None:
        self.deal = deal

    def __deepcopy__(self, memo: dict[int, Any]) -> _DealBox:
        return _DealBox(self.deal.clone() if self.deal is not None else None)


class _BelotLogic:
    """The rules of the game in OpenSpiel's vocabulary, shared by the pyspiel and the pure state."""

    _dealer: int
    _rules: Rules
    _deck: list[int]
    _box: _DealBox

    def _init_logic(self, dealer: int, rules: Rules) -> None:
        self._dealer = dealer
        self._rules = rules
        self._deck = []  # chance outcomes so far: cards in dealing order
        self._box = _DealBox(None)

    @property
    def deal(self) -> Deal | None:
        """The belot.game Deal once all 32 cards are dealt (None while dealing)."""
        return self._box.deal

    def current_player(self) -> int:
        deal = self._box.deal
        if deal is None:
            return CHANCE_PLAYER
        if deal.is_over:
            return TERMINAL_PLAYER
        return deal.to_move

    def _legal_actions(self, player: int) -> list[int]:
        deal = self._box.deal
        if deal is None or deal.is_over or player != deal.to_move:
            return []
        return sorted(deal.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._box.deal is not None:
            return []
        dealt = 0
        for c in self._deck:
            dealt |= 1 << c
        rest = [c for c in range(NUM_CARDS) if not dealt >> c & 1]
        p = 1.0 / len(rest)
        return [(c, p) for c in rest]

    def _apply_action(self, action: int) -> None:
        action = action_index(action)
        deal = self._box.deal
        if deal is None:
            if not action < NUM_CARDS or action in self._deck:
                raise RuleError(f"{action} is not a card still to deal", "R2.3")
            self._deck.append(action)
            if len(self._deck) == NUM_CARDS:
                hands: list[list[int]] = [[], [], [], []]
                for seat, card in zip(_ORDERS[self._dealer], self._deck):
                    hands[seat].append(card)
                self._box = _DealBox(Deal(self._dealer, hands, self._rules))
            return
        deal.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE_PLAYER:
            return f"deal {CARD_NAMES[action]}"
        return action_name(action)

    def is_terminal(self) -> bool:
        deal = self._box.deal
        return deal is not None and deal.is_over

    def returns(self) -> list[float]:
        deal = self._box.deal
        if deal is None or deal.result is None:
            return [0.0] * NUM_PLAYERS
        p = deal.result.points
        d = float(p[0] - p[1])
        return [d, -d, d, -d]

    def __str__(self) -> str:
        deal = self._box.deal
        if deal is None:
            return f"dealer {self._dealer}, dealing: " + " ".join(CARD_NAMES[c] for c in self._deck)
        hands = " | ".join(" ".join(CARD_NAMES[c] for c in h) for h in deal.dealt)
        acts = " ".join(f"{s}:{action_name(a)}" for s, a in zip(deal.actors, deal.actions))
        return f"dealer {self._dealer}; hands {hands}; actions {acts}"

    # -- what a player knows --------------------------------------------------------------------

    def _own_cards_dealt(self, player: int) -> list[int]:
        """The player's cards dealt so far and visible to it (the first five until the auction ends)."""
        return [c for seat, c in zip(_ORDERS[self._dealer], self._deck) if seat == player][:5]

    def _information_state_string(self, player: int, private: bool = True) -> str:
        deal = self._box.deal
        if deal is None:
            own = self._own_cards_dealt(player) if private else []
            cards = " ".join(CARD_NAMES[c] for c in own)
            return f"p{player} dealer {self._dealer} dealing {len(self._deck)} hand {cards}"
        if not private:
            hand = ""
        elif deal.phase == "auction" or deal.contract < 0:  # R2.3; all passed, R3.6: never dealt
            hand = " ".join(CARD_NAMES[c] for c in sorted(deal.dealt[player][:5]))
        else:
            hand = " ".join(CARD_NAMES[c] for c in sorted(deal.dealt[player]))
        tokens = []
        for seat, a in zip(deal.actors, deal.actions):
            if a >= DECLARE_BASE and (seat != player or not private):
                tokens.append(f"{seat}:declare {DECLARATIONS[a - DECLARE_BASE].kind}")  # R7.5
            else:
                tokens.append(f"{seat}:{action_name(a)}")
        return f"p{player} dealer {self._dealer} hand {hand} | " + " ".join(tokens)

    def _observation_string(self, player: int, private: bool = True) -> str:
        deal = self._box.deal
        if deal is None:
            return self._information_state_string(player, private)
        v = deal.view(player)
        hand = " ".join(CARD_NAMES[c] for c in v.hand) if private else ""
        calls = " ".join(f"{s}:{CALL_NAMES[c]}" for s, c in v.calls)
        trick = " ".join(f"{s}:{CARD_NAMES[c]}" for s, c in v.trick)
        played = " ".join(CARD_NAMES[c] for c in cards_of(v.played))
        return (f"p{player} phase {v.phase} to_move {v.to_move} hand {hand} | calls {calls} | "
                f"trick {trick} | played {played} | announced {list(v.announced)}")

    def _observation_tensor(self, player: int, private: bool = True) -> np.ndarray:
        deal = self._box.deal
        if deal is None:
            x = np.zeros(SIZE, dtype=np.float32)
            if private:
                for c in self._own_cards_dealt(player):
                    x[OFFSETS["hand"].start + c] = 1.0
            return x
        x = encode(deal.view(player))
        if not private:  # a public observer: no own cards, nor what they imply
            for name in ("hand", "own_declared", "unseen"):
                x[OFFSETS[name]] = 0.0
        return x

    def _information_state_tensor(self, player: int, private: bool = True) -> np.ndarray:
        x = np.zeros(info_size(self._rules), dtype=np.float32)
        x[:SIZE] = self._observation_tensor(player, private)
        deal = self._box.deal
        if deal is not None:
            k = 0
            for a in deal.actions:
                if CALL_BASE <= a < DECLARE_BASE:
                    x[_AUCTION_OFFSET + NUM_CALLS * k + a - CALL_BASE] = 1.0
                    k += 1
        return x

    # -- resampling for ISMCTS --------------------------------------------------------------------

    def _resampled(self, player: int, rng: random.Random) -> tuple[list[int], list[int]]:
        """A deck and the actions of a deal ``player`` cannot tell from this one: the same own
        cards and the same information state, the hidden cards redealt by `_redeal`.

        Another seat's declaration shows only its kind (R7.5), so the sample chooses its own
        declaration of that kind for the seat, and the actions carry it in place of the real one.
        While dealing, the cards dealt so far that the player has not seen (the others', and its own
        beyond the first five, R2.3) are drawn at random from the cards it has not seen.
        """
        deal = self._box.deal
        if deal is None:
            order = _ORDERS[self._dealer]
            known = [i for i in range(len(self._deck)) if order[i] == player][:5]
            seen = {self._deck[i] for i in known}
            rest = [c for c in range(NUM_CARDS) if c not in seen]
            rng.shuffle(rest)
            drawn = iter(rest)
            return [self._deck[i] if i in known else next(drawn) for i in range(len(self._deck))], []
        view = deal.view(player)
        f = inference.facts(view)
        hands, chosen = _redeal(f, rng, self._rules)
        order = _ORDERS[self._dealer]
        own_known = 5 if view.phase == "auction" or view.contract < 0 else 8  # R2.3
        known = [i for i, seat in enumerate(order) if seat == player][:own_known]
        deck = self._deck[:]
        for seat in range(4):
            positions = [i for i, s in enumerate(order) if s == seat and i not in known]
            cards = cards_of(hands[seat] | (f.played_by[seat] if seat != player else 0))
            rng.shuffle(cards)
            for i, c in zip(positions, cards):
                deck[i] = c
        actions = []
        for seat, a in zip(deal.actors, deal.actions):
            if a >= DECLARE_BASE and seat != player:
                a = DECLARE_BASE + chosen[seat].pop(0)
            actions.append(a)
        return deck, actions


def _redeal(f: inference.Facts, rng: random.Random, rules: Rules | None = None,
            tries: int = 200) -> tuple[list[int], list[list[int]]]:
    """`_redeal_once`, and under `OPT-EIGHT-SPLIT` or `OPT-CARRE-FIRST` (where a sequence depends on
    cards beyond its neighbours) again until every seat could have announced its kinds from its
    eight cards (`inference.announceable`); the ids are then those it could have announced."""
    rules = rules or Rules()
    checks = bool(rules.options) and (EIGHT_SPLIT in rules.options or CARRE_FIRST in rules.options)
    k = 0
    while True:
        hands, chosen = _redeal_once(f, rng, rules)
        if not checks:
            return hands, chosen
        ok = True
        for s in range(4):
            if s != f.seat and f.announced[s]:
                found = inference.announceable(hands[s] | f.played_by[s], f.announced[s], rules, chosen[s])
                if found is None:
                    ok = False
                    break
                chosen[s] = found
        k += 1
        if ok:
            return hands, chosen
        if k >= tries:
            raise RuntimeError("no redeal in which the announced kinds are legal was found")


def _redeal_once(f: inference.Facts, rng: random.Random, rules: Rules) -> tuple[list[int], list[list[int]]]:
    """The hidden cards of ``f`` dealt at random so that every fact holds: per seat its unseen
    cards, and the ids of the declarations chosen for the kinds it announced, in order.

    Declarations are chosen one at a time in the order announced, each among those that still
    leave some deal of the cards (`inference.feasible`), backtracking when none does; then the
    cards are dealt one at a time, each to a seat that still leaves a deal.  The real deal
    satisfies every fact, so a deal always exists and this never fails.  The samples are close
    to, not exactly, uniform over the consistent deals.
    """
    me = f.seat
    must = [f.must[s] if s != me else 0 for s in range(4)]  # own belote partners are seen cards
    cannot = list(f.cannot)
    cannot[me] = 0
    belote = must[0] | must[1] | must[2] | must[3]
    todo = [(s, kind) for s in range(4) if s != me for kind in f.announced[s]]
    chosen: list[list[Declaration]] = [[], [], [], []]

    def possible() -> bool:
        rest = f.unseen
        for s in range(4):
            if must[s] & cannot[s] or must[s].bit_count() > f.sizes[s]:
                return False
            rest &= ~must[s]
        return inference.feasible(rest, [f.sizes[s] - must[s].bit_count() for s in range(4)], cannot)

    def choose(i: int, taken: int) -> bool:
        if i == len(todo):
            return True
        s, kind = todo[i]
        blocked = taken | (belote & ~f.must[s])
        options = [d for d in inference.candidates(kind, rules)
                   if inference.declaration_fits(d, f.played_by[s], f.unseen, cannot[s], must[s], blocked, chosen[s],
                                                 rules)]
        rng.shuffle(options)
        for d in options:
            saved = must[s], cannot[s]
            need = d.mask & ~f.played_by[s]
            must[s] |= need
            cannot[s] |= inference.run_neighbours(d, rules) & f.unseen & ~must[s]
            chosen[s].append(d)
            if possible() and choose(i + 1, taken | need):
                return True
            chosen[s].pop()
            must[s], cannot[s] = saved
        return False

    if not (possible() and choose(0, 0)):
        raise RuntimeError("the information state admits no deal: the facts are inconsistent")
    hands = must[:]
    rest = f.unseen & ~(must[0] | must[1] | must[2] | must[3])
    need = [f.sizes[s] - must[s].bit_count() for s in range(4)]
    cards = cards_of(rest)
    rng.shuffle(cards)
    for c in cards:
        seats = [s for s in range(4) if need[s] and not cannot[s] >> c & 1]
        rest ^= 1 << c
        while True:
            r = rng.randrange(sum(need[s] for s in seats))  # a seat with more room is likelier
            for s in seats:
                r -= need[s]
                if r < 0:
                    break
            need[s] -= 1
            if inference.feasible(rest, need, cannot):
                break
            need[s] += 1
            seats.remove(s)
        hands[s] |= 1 << c
    return hands, [[d.id for d in chosen[s]] for s in range(4)]


# -- pure-Python game (always available) ----------------------------------------------------------


class BelotState(_BelotLogic):
    """A state with OpenSpiel's method names, without pyspiel."""

    def __init__(self, game: BelotGame) -> None:
        self._game = game
        self._history: list[int] = []
        self._init_logic(game.dealer, game.rules)

    def get_game(self) -> BelotGame:
        return self._game

    def num_players(self) -> int:
        return NUM_PLAYERS

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE_PLAYER

    def is_player_node(self) -> bool:
        return self.current_player() >= 0

    def _player(self, player: object) -> int:
        """``player`` (the player to act when None) as a seat 0-3: pyspiel refuses any other."""
        p = self.current_player() if player is None else player
        if not isinstance(p, bool):
            with contextlib.suppress(TypeError):
                index = operator.index(p)  # type: ignore[arg-type]
                if 0 <= index < NUM_PLAYERS:
                    return int(index)
        raise ValueError(f"player must be a seat 0-{NUM_PLAYERS - 1}, not {shown(p)}")

    def legal_actions(self, player: int | None = None) -> list[int]:
        if player is None or (type(player) is int and player == CHANCE_PLAYER):
            if self.is_chance_node():
                return [c for c, _ in self.chance_outcomes()]
            if player is None:
                return self._legal_actions(self.current_player())
            return []
        return [] if self.is_chance_node() else self._legal_actions(self._player(player))

    def legal_actions_mask(self, player: int | None = None) -> list[int]:
        mask = [0] * NUM_ACTIONS
        for a in self.legal_actions(player):
            mask[a] = 1
        return mask

    def apply_action(self, action: int) -> None:
        if self.is_terminal():
            raise RuleError("the deal is over", "R5.1")
        self._apply_action(action)
        self._history.append(int(action))

    def history(self) -> list[int]:
        return self._history[:]

    def action_to_string(self, player: int, action: int) -> str:
        return self._action_to_string(player, action)

    def player_return(self, player: int) -> float:
        return self.returns()[player]

    def rewards(self) -> list[float]:
        return self.returns()  # terminal reward model: all of it at the end

    def information_state_string(self, player: int | None = None) -> str:
        return self._information_state_string(self._player(player))

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        return self._information_state_tensor(self._player(player)).tolist()

    def observation_string(self, player: int | None = None) -> str:
        return self._observation_string(self._player(player))

    def observation_tensor(self, player: int | None = None) -> list[float]:
        return self._observation_tensor(self._player(player)).tolist()

    def resample_from_infostate(self, player: int, rng: random.Random) -> BelotState:
        return resample(self, player, rng)

    def clone(self) -> BelotState:
        s = BelotState.__new__(BelotState)
        s._game, s._history, s._dealer, s._deck = self._game, self._history[:], self._dealer, self._deck[:]
        s._rules = self._rules
        s._box = _DealBox(self._box.deal.clone() if self._box.deal is not None else None)
        return s


class BelotGame:
    """The game (pure Python); ``BelotGame({"dealer": 2, "options": "OPT-SURCONTRA"})``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.params = _check_params(params)
        self.dealer: int = self.params["dealer"]
        self.rules: Rules = _rules(self.params)

    def new_initial_state(self) -> BelotState:
        return BelotState(self)

    def num_players(self) -> int:
        return NUM_PLAYERS

    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def max_chance_outcomes(self) -> int:
        return NUM_CARDS

    def max_game_length(self) -> int:
        return max_game_length(self.rules)

    def min_utility(self) -> float:
        return -self.max_utility()

    def max_utility(self) -> float:
        return MAX_UTILITY_SURCONTRA if self.rules.has(SURCONTRA) else MAX_UTILITY

    def utility_sum(self) -> float:
        return 0.0

    def information_state_tensor_shape(self) -> list[int]:
        return [info_size(self.rules)]

    def observation_tensor_shape(self) -> list[int]:
        return [SIZE]

    def __str__(self) -> str:
        opts = f",options={'+'.join(self.rules.options)}" if self.rules.options else ""
        return f"{GAME_NAME}(dealer={self.dealer}{opts})"


def _check_params(params: dict[str, Any] | None) -> dict[str, Any]:
    params = dict(params or {})
    unknown = set(params) - {"dealer", "options"}
    if unknown:
        raise ValueError(f"unknown {GAME_NAME} parameter(s): {', '.join(sorted(unknown))} (known: dealer, options)")
    dealer = params.setdefault("dealer", 0)
    if type(dealer) is not int or not 0 <= dealer <= 3:  # not True, nor 1.0
        raise ValueError(f"dealer must be a seat 0-3, not {dealer!r}")
    opts = params.setdefault("options", "")
    if not isinstance(opts, str) and not (
        isinstance(opts, (list, tuple)) and all(isinstance(name, str) for name in opts)
    ):
        raise ValueError(f"options must be option names (a string, or a list of strings), not {opts!r}")
    _rules(params)  # UnsupportedOption (a ValueError) names a bad option
    return params


def _rules(params: dict[str, Any]) -> Rules:
    """The ``options`` parameter (names separated by ``+``, commas or spaces, or a list) as `Rules`."""
    opts = params.get("options") or ""
    names = [n for n in re.split(r"[+,\s]+", opts) if n] if isinstance(opts, str) else list(opts)
    return Rules.from_options(names)


def max_auction(rules: Rules) -> int:
    return MAX_AUCTION_SURCONTRA if rules.has(SURCONTRA) else MAX_AUCTION


def max_game_length(rules: Rules) -> int:
    return NUM_CARDS + max_auction(rules) + NUM_CARDS + MAX_DECLARATIONS


def info_size(rules: Rules) -> int:
    """The information-state tensor's size: the encoding, then the longest auction one-hot."""
    return SIZE + max_auction(rules) * NUM_CALLS


def resample(state: Any, player: int, rng: random.Random | None = None) -> Any:
    """A state with ``player``'s information state whose hidden cards are redealt consistently
    with it (what ISMCTS needs; the pyspiel state's ``resample_from_infostate``): the facts of
    `belot.inference` hold in it, and other seats' declarations are redrawn within their kinds."""
    rng = rng or random.Random()
    deck, actions = state._resampled(player, rng)
    new = state.get_game().new_initial_state()
    for card in deck:
        new.apply_action(card)
    for a in actions:
        new.apply_action(a)
    return new


# -- pyspiel registration (when open_spiel is installed) -----------------------------------------

try:
    import pyspiel
except ImportError:  # the pure-Python classes above remain
    pyspiel = None

PYSPIEL_AVAILABLE = pyspiel is not None

if pyspiel is not None:
    _GAME_TYPE = pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Belot (Bulgarian rules): one deal",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=NUM_PLAYERS,
        min_num_players=NUM_PLAYERS,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"dealer": 0, "options": ""},
    )
    _GAME_INFO = pyspiel.GameInfo(
        num_distinct_actions=NUM_ACTIONS,
        max_chance_outcomes=NUM_CARDS,
        num_players=NUM_PLAYERS,
        min_utility=-MAX_UTILITY,
        max_utility=MAX_UTILITY,
        utility_sum=0.0,
        max_game_length=MAX_GAME_LENGTH,
    )

    class PyspielBelotGame(pyspiel.Game):  # type: ignore[misc]
        """The registered pyspiel game ``python_belot``."""

        def __init__(self, params: dict[str, Any] | None = None) -> None:
            checked = _check_params(params)
            self.dealer = checked["dealer"]
            self.rules = _rules(checked)
            info = _GAME_INFO
            if self.rules.has(SURCONTRA):
                info = pyspiel.GameInfo(
                    num_distinct_actions=NUM_ACTIONS, max_chance_outcomes=NUM_CARDS, num_players=NUM_PLAYERS,
                    min_utility=-MAX_UTILITY_SURCONTRA, max_utility=MAX_UTILITY_SURCONTRA, utility_sum=0.0,
                    max_game_length=max_game_length(self.rules),
                )
            super().__init__(_GAME_TYPE, info, params or {})

        def new_initial_state(self) -> PyspielBelotState:
            return PyspielBelotState(self)

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> BelotObserver:
            return BelotObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params,
                                 info_size(self.rules))

    class PyspielBelotState(_BelotLogic, pyspiel.State):  # type: ignore[misc]
        def __init__(self, game: PyspielBelotGame) -> None:
            pyspiel.State.__init__(self, game)
            self._init_logic(game.dealer, game.rules)

        def resample_from_infostate(self, player: int, sampler: Any) -> PyspielBelotState:
            """For OpenSpiel's Python ISMCTSBot, which calls it with a probability sampler."""
            return resample(self, player, random.Random(int(sampler() * 2**32)))

    class BelotObserver:
        """OpenSpiel's PyObserver for python_belot: information state when ``perfect_recall``,
        else the observation; a public observer (no private info) hides the own cards."""

        def __init__(self, iig_obs_type: Any, params: Any, size: int = INFO_SIZE) -> None:
            if params:
                raise ValueError(f"observation parameters are not supported; got {params}")
            self.perfect_recall = bool(iig_obs_type.perfect_recall)
            self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
            self.tensor = np.zeros(size if self.perfect_recall else SIZE, np.float32)
            self.dict = {"observation": self.tensor}

        def set_from(self, state: PyspielBelotState, player: int) -> None:
            if self.perfect_recall:
                self.tensor[:] = state._information_state_tensor(player, self.private)
            else:
                self.tensor[:] = state._observation_tensor(player, self.private)

        def string_from(self, state: PyspielBelotState, player: int) -> str:
            if self.perfect_recall:
                return state._information_state_string(player, self.private)
            return state._observation_string(player, self.private)

    if GAME_NAME not in pyspiel.registered_names():
        pyspiel.register_game(_GAME_TYPE, PyspielBelotGame)


def load_game(params: dict[str, Any] | None = None) -> Any:
    """``pyspiel.load_game("python_belot", params)`` when open_spiel is installed, else the
    pure-Python `BelotGame` with the same method names."""
    if pyspiel is not None:
        return pyspiel.load_game(GAME_NAME, params or {})
    return BelotGame(params)
