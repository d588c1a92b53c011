"""`belot_v0`: Belot as a PettingZoo AEC environment, over one deal or one whole match.

Agents ``player_0`` .. ``player_3`` are seats 0-3 (teams: seats 0+2 and 1+3).  Each agent observes
``{"observation": float32[SIZE], "action_mask": int8[163]}``: the vector of belot.env.encoding (its
own seat's view only) and the mask over belot.game's fixed action space (all zeros when it is not
that agent's turn).  The deal is shuffled and dealt inside `reset`/`step` from the environment's
own seeded ``random.Random``: there is no chance agent.

Rewards are game points, at the end of each deal, from the agent's team's side: the points its
team scored in that deal minus the points the other team scored (``DealResult.points``, the pot
included), so partners get the same reward, opponents its negative, and an agent's rewards over a
match add up to its team's final score minus the other team's.  A deal in which all four pass
scores 0.  ``mode="deal"`` ends the episode when the deal ends (an all-pass deal included);
``mode="match"`` plays deals to the target (R12, ``target`` 1 to 10,000) and ends when the match is
won, or is truncated (``truncations`` all True, ``info["truncated"]``) after ``max_deals`` deals
(10,000 by default: a match to 10,000 between heuristic bots takes about 1,000; agents that always
pass score nothing and would play forever, since no rule ends a match of all-pass deals).  In deal mode
``reset(options={"hands": [[...] x4], "dealer": d})`` plays a given deal (hands in dealing order,
as in records) instead of a shuffled one, and ``{"dealer": d}`` alone a shuffled deal dealt by d
(other keys are ignored with a warning).  The house rules are the constructor's ``options``, a
list of option names (``raw_env(options=["OPT-SURCONTRA"])``, docs/rules.md section 6; not to be
confused with `reset`'s ``options`` dict); the observation is the same vector under every option
(docs/encoding.md).  When the episode ends, every agent's ``info`` holds
``"result"``: the last deal's result as in docs/record-format.md (one dict, shared by the four
agents' infos).  Each observation is a fresh pair of arrays: the caller may keep or change them.

Illegal actions (any action whose mask bit is 0, out-of-range ints included): with
``illegal_reward=None`` (the default of `raw_env`) `step` raises `belot.errors.RuleError` (a
ValueError naming the rule) and changes nothing; with a number (`env()` uses ``-100.0``) the
game ends at once as with PettingZoo's TerminateIllegalWrapper in its classic games: the offender
gets ``illegal_reward``, the others 0, every agent is terminated and ``infos[offender]["illegal"]``
says why.  `env()` also enforces the call order (reset before step, ...) like PettingZoo's
OrderEnforcingWrapper, of which it is a subclass.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import operator
import random
import warnings
from collections.abc import Iterator
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from ..contracts import CONTRACT_NAMES, Rules
from ..declarations import DECLARATIONS
from ..errors import RuleError, shown
from ..game import DECLARE_BASE, MAX_TARGET, NUM_ACTIONS, OVER, Deal, Match, action_index, action_name
from .encoding import DTYPE, OFFSETS, SIZE, IncrementalEncoder

MODES = ("deal", "match")
ILLEGAL_REWARD = -100.0  # more than a deal can cost short of a rekontra
AGENTS = tuple(f"player_{seat}" for seat in range(4))
_NO_ACTIONS = np.zeros(NUM_ACTIONS, dtype=np.int8)  # copied, then the legal actions set
# The rewards and flags of every agent at a reset, copied (a dict's copy costs less than building it)
_ZEROS: dict[str, float] = dict.fromkeys(AGENTS, 0.0)
_FALSES: dict[str, bool] = dict.fromkeys(AGENTS, False)


def _random(seed: Any) -> random.Random:
    """A generator seeded with ``seed``; a numpy integer seeds as its int (random.Random refuses it)."""
    if seed is not None and not isinstance(seed, (int, float, str, bytes, bytearray)):
        with contextlib.suppress(TypeError):
            seed = operator.index(seed)
    return random.Random(seed)


def env(
    mode: str = "deal", seed: int | None = None, illegal_reward: float | None = ILLEGAL_REWARD, **kwargs: Any
) -> AECEnv:
    """The wrapped environment (the usual entry point); see the module docstring."""
    return _OrderEnforcing(raw_env(mode=mode, seed=seed, illegal_reward=illegal_reward, **kwargs))


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's OrderEnforcingWrapper, without a layer of calls at each step.

    Before the first `reset`, `last`, `step`, `agent_iter`, ``agents`` and ``agent_selection`` are
    refused as in the base class.  After it, `last` and `step` are the raw environment's own bound
    methods (instance attributes set by `reset`): the base version reaches them through layers of
    ``__getattr__`` and ``super()``, which cost more than the game's own work.  What the base
    `step` adds is done by the raw `step` itself: it marks that a step was taken (``_has_updated``,
    kept on the raw environment, which `agent_iter` checks and clears) and warns, changing nothing,
    when every agent is done.  The refusals and warnings are the same."""

    def __init__(self, env: raw_env) -> None:
        self.env = env  # before the base __init__, which sets _has_updated (kept on env)
        super().__init__(env)

    @property
    def _has_updated(self) -> bool:  # type: ignore[override]
        return self.env._stepped  # type: ignore[no-any-return,attr-defined]

    @_has_updated.setter
    def _has_updated(self, value: bool) -> None:
        self.env._stepped = value  # type: ignore[attr-defined]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        super().reset(seed=seed, options=options)
        raw = self.env
        self.__dict__.update(last=raw.last, step=raw.step)  # the per-step calls, straight to the env

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.last(observe)

    def step(self, action: Any) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        self.env.step(action)

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:  # type: ignore[override]
        """The agent to act, until all are done (or ``max_iter`` turns), refusing a turn that was
        not stepped, as `AECOrderEnforcingIterator` does."""
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return self._agent_iter(max_iter)

    def _agent_iter(self, max_iter: int) -> Iterator[str]:
        raw = self.env
        turns = 0  # counted up: max_iter defaults to 2**63, and arithmetic on it costs more than on a small int
        while raw.agents and turns < max_iter:
            turns += 1
            assert raw._stepped, "need to call step() or reset() in a loop over `agent_iter`"  # type: ignore[attr-defined]
            raw._stepped = False  # type: ignore[attr-defined]
            yield raw.agent_selection

    # The two attributes read at every step of an agent_iter loop, looked up directly instead of
    # through two layers of __getattr__ (same refusal before reset).
    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        return self.env.agents  # type: ignore[no-any-return]

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.agent_selection  # type: ignore[no-any-return]


def _seen_action_name(action: int, deal_over: bool) -> str:
    """`action_name`, but a declaration by its kind alone until the deal is over (R7.5)."""
    if action >= DECLARE_BASE and not deal_over:
        return f"declare {DECLARATIONS[action - DECLARE_BASE].kind}"
    return action_name(action)


def _observation_space() -> spaces.Dict:
    high = np.ones(SIZE, dtype=DTYPE)
    high[OFFSETS["announced"]] = 8.0  # counts
    for name in ("trick_points", "score", "target", "pot", "deal_index"):
        high[OFFSETS[name]] = 1000.0  # scaled numbers, far above anything a game reaches
    return spaces.Dict(
        {
            "observation": spaces.Box(low=0.0, high=high, shape=(SIZE,), dtype=DTYPE),
            "action_mask": spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8),
        }
    )


class raw_env(AECEnv):  # lower case: PettingZoo's naming convention
    """Belot deal or match for four agents; see the module docstring."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "belot_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False,
    }

    def __init__(
        self,
        mode: str = "deal",
        seed: int | None = None,
        target: int = 151,
        illegal_reward: float | None = None,
        render_mode: str | None = None,
        options: list[str] | tuple[str, ...] | None = None,
        max_deals: int = 10_000,
    ) -> None:
        super().__init__()
        if mode not in MODES:
            raise ValueError(f"mode must be 'deal' or 'match', not {mode!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'human', 'ansi' or None, not {render_mode!r}")
        # not True, nor 151.0; and no more than the commands and the server take, which keeps the
        # observation's target feature (target / 151) inside the observation space
        if type(target) is not int or not 1 <= target <= MAX_TARGET:
            raise ValueError(f"target must be a whole number of game points from 1 to {MAX_TARGET}, not {shown(target)}")
        if type(max_deals) is not int or max_deals < 1:
            raise ValueError(f"max_deals must be a whole number of deals from 1, not {shown(max_deals)}")
        if illegal_reward is not None:
            reward = None
            if not isinstance(illegal_reward, (bool, str, bytes)):
                with contextlib.suppress(TypeError, ValueError):
                    reward = float(illegal_reward)
            if reward is None or not math.isfinite(reward):
                raise ValueError(f"illegal_reward must be a finite number or None, not {illegal_reward!r}")
        self.rules = Rules.from_options(options)  # UnsupportedOption (a ValueError) names a bad one
        self.mode = mode
        self.illegal_reward = None if illegal_reward is None else float(illegal_reward)
        self.target = target
        self.max_deals = max_deals
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agent_name_mapping = {a: seat for seat, a in enumerate(AGENTS)}
        space = _observation_space()
        self.observation_spaces = {a: space for a in AGENTS}
        action_space = spaces.Discrete(NUM_ACTIONS)
        self.action_spaces = {a: action_space for a in AGENTS}
        self._rng = _random(seed)
        self._encoder = IncrementalEncoder()
        self.match: Match | None = None
        self.deal: Deal | None = None
        self._stepped = False  # a step or reset since the wrapper's agent_iter last looked
        self._done = False  # every agent is terminated (self.terminations all True)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- episode ---------------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = _random(seed)
        self.agents = self.possible_agents[:]
        self.rewards = _ZEROS.copy()
        self._cumulative_rewards = _ZEROS.copy()
        self.terminations = _FALSES.copy()
        self.truncations = _FALSES.copy()
        self.infos: dict[str, dict[str, Any]] = {AGENTS[0]: {}, AGENTS[1]: {}, AGENTS[2]: {}, AGENTS[3]: {}}
        self._rewarded = False  # whether self.rewards holds a nonzero reward
        self._done = False
        self._stepped = True
        options = {} if options is None else options
        if not isinstance(options, dict):  # "x" was read as the option 'x', 5 failed inside set()
            raise ValueError(f"reset options are a dict such as {{'dealer': 0}}, not {shown(options)}")
        unknown = set(options) - {"hands", "dealer"}
        if unknown:  # ignored, as PettingZoo's api_test expects, but a misspelt "hands" is said
            warnings.warn(f"belot_v0 ignores reset option(s) {', '.join(map(repr, sorted(map(str, unknown))))} "
                          "(it knows 'hands' and 'dealer')", UserWarning, stacklevel=2)
        if self.mode == "match":
            if "hands" in options or "dealer" in options:
                raise ValueError(
                    "reset options 'hands' and 'dealer' are for mode='deal'; a match deals its own hands (R2.1)"
                )
            self.match = Match(self.rules, target=self.target, rng=self._rng)
            self.deal = self.match.current
        else:
            self.match = None
            if "hands" in options:  # a given deal (duplicate play, tests)
                dealer = options.get("dealer", 0)
                self.deal = Deal(dealer, options["hands"], self.rules)  # checks the hands and the dealer
            else:  # the given dealer, else one drawn (R2.1)
                dealer = options["dealer"] if "dealer" in options else self._rng.randrange(4)
                self.deal = Deal.shuffled(self._rng, dealer, self.rules)  # checks the dealer
        assert self.deal is not None
        self._encoder.start(self.deal, target=self.target if self.match else 151)
        self.agent_selection = AGENTS[self.deal.to_move]

    def step(self, action: Any) -> None:
        self._stepped = True
        if self._done:
            if self.agents:
                self._was_dead_step(action)
            else:  # as PettingZoo's OrderEnforcingWrapper: a warning, nothing changes
                EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = self.agent_selection
        deal = self.deal
        assert deal is not None
        seat = deal.to_move
        try:
            action = action_index(action)
            # Both raise RuleError before changing anything; Match.apply also scores a finished
            # deal into the match and deals the next one.
            (self.match or deal).apply(action)
        except (RuleError, TypeError, ValueError) as e:
            if self.illegal_reward is None:
                if isinstance(e, RuleError):
                    raise
                raise RuleError(f"{shown(action)} is not an action", "R5.1") from e
            self._illegal(agent, action, e)
            return
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:  # the last step paid rewards: this one pays none unless a deal ends
            self._rewarded = False
            rewards = self.rewards
            for a in AGENTS:
                rewards[a] = 0.0
        self._encoder.update(deal, seat, action)
        if deal.phase == OVER:
            self._close_deal(deal)
            self._accumulate_rewards()
        if not self._done:
            assert self.deal is not None
            self.agent_selection = AGENTS[self.deal.to_move]
        if self.render_mode == "human":
            self.render()

    def _illegal(self, agent: str, action: Any, error: Exception) -> None:
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        assert self.illegal_reward is not None
        self.rewards[agent] = self.illegal_reward
        self._rewarded = True
        self.terminations = {a: True for a in self.agents}
        self._done = True
        self.infos[agent] = {"illegal": f"{shown(action)}: {error}"}
        self._accumulate_rewards()

    def _close_deal(self, deal: Deal) -> None:
        result = deal.result
        assert result is not None
        diff = float(result.points[0] - result.points[1])
        for seat, a in enumerate(AGENTS):
            self.rewards[a] = diff if seat & 1 == 0 else -diff
        self._rewarded = True
        m = self.match
        over = m is None or m.is_over
        if m is None or over or len(m.deals) - 1 >= self.max_deals:  # deals played: m.deals holds the next one too
            if m is not None:
                self._encoder.set_match(m.score)
            done = {a: True for a in self.agents}
            if over:
                self.terminations = done
            else:
                self.truncations = done
            self._done = True
            info: dict[str, Any] = {"result": result.to_json()}  # one dict, the same for every agent
            if not over:
                info["truncated"] = f"max_deals: {self.max_deals} deals played"
            for a in self.agents:
                self.infos[a] = info
            return
        self.deal = m.current
        assert self.deal is not None
        self._encoder.start(self.deal, (m.score[0], m.score[1]), m.target, len(m.deals) - 1)

    # -- observation -----------------------------------------------------------------------------

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.agent_name_mapping[agent]
        deal = self.deal
        mask = _NO_ACTIONS.copy()  # a fresh array, as the observation: the caller may keep or change them
        if deal is not None and deal.to_move == seat and not deal.is_over:
            for a in deal.legal_actions():
                mask[a] = 1
        return {"observation": self._encoder.rows[seat].copy(), "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        agent = self.agent_selection
        obs = self.observe(agent) if observe else None
        return (
            obs,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def legal_actions(self, agent: str | None = None) -> list[int]:
        """The legal actions of ``agent`` (default: the agent to act) as ints."""
        seat = self.agent_name_mapping[agent or self.agent_selection]
        deal = self.deal
        if deal is None or deal.is_over or deal.to_move != seat:
            return []
        return deal.legal_actions()

    def view(self, agent: str) -> Any:
        """The `SeatView` behind ``agent``'s observation (for bots written against belot.game)."""
        seat = self.agent_name_mapping[agent]
        m = self.match
        if m is not None and m.deals and m.deals[-1] is not self.deal:
            # truncated after max_deals: the match has dealt the next deal, which is never played; the
            # observation is of the last deal played, as it closed (`SeatView.past` keeps exactly that)
            past = m.view(seat).past
            return dataclasses.replace(past[-1], past=past[:-1])
        if m is not None:
            return m.view(seat)
        assert self.deal is not None
        return self.deal.view(seat)

    # -- rendering -------------------------------------------------------------------------------

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self._text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _text(self) -> str:
        deal = self.deal
        if deal is None:
            return "belot_v0: call reset() first"
        lines = []
        if self.match is not None:
            lines.append(f"deal {len(self.match.deals)}  score {self.match.score[0]}-{self.match.score[1]}")
        contract = CONTRACT_NAMES[deal.contract] if deal.contract >= 0 else "-"
        mult = deal.auction.multiplier
        lines.append(f"dealer {deal.dealer}  phase {deal.phase}  contract {contract} x{mult}")
        # the table as everyone sees it (no hand is shown): a declaration by its kind only (R7.5)
        last = [f"{s}:{_seen_action_name(a, deal.is_over)}" for s, a in zip(deal.actors[-4:], deal.actions[-4:])]
        lines.append("last actions: " + " ".join(last))
        if not deal.is_over:
            lines.append(f"to move: {AGENTS[deal.to_move]}")
        return "\n".join(lines)

    def close(self) -> None:
        pass
