"""The auction (R3): calls, who may make them, kontra/rekontra, escapes and the end of bidding.

Calls are small ints: ``PASS``, a bid ``BID_BASE + contract`` for C D H S NT AT, ``KONTRA`` and
``REKONTRA``, and under `OPT-SURCONTRA` ``SURKONTRA`` (R3.3, x8).  The auction keeps only what the
rules need; its legal calls are a 9-bit mask of call *slots*: the kontra slot is the doubling team's
call, kontra over a plain contract and surkontra over a rekontra, so the action space is the same
under every option.  The auction's own list of calls keeps ``SURKONTRA`` apart for views and records.
"""

from __future__ import annotations

from .contracts import AT, CONTRACT_NAMES, NO_CONTRACT
from .errors import RuleError, shown

PASS = 0
BID_BASE = 1  # calls 1..6 bid contracts C..AT
KONTRA = 7
REKONTRA = 8
NUM_CALLS = 9  # call slots (and actions): SURKONTRA is made through the kontra slot
SURKONTRA = 9  # OPT-SURCONTRA (R3.3): the doubling team redoubles a rekontra, x8
CALL_NAMES = ("pass", *CONTRACT_NAMES, "kontra", "rekontra", "surkontra")
_BY_NAME = {name: i for i, name in enumerate(CALL_NAMES)}
# The call that set a contract's multiplier (R3.3): a doubled contract is named by it ("AT rekontra").
DOUBLING = {2: "kontra", 4: "rekontra", 8: "surkontra"}

# Bits of the calls that outbid each contract (index contract + 1, so -1 = no contract yet).
_HIGHER_BIDS = tuple(
    sum(1 << (BID_BASE + c) for c in range(current + 1, AT + 1)) for current in range(-1, AT + 1)
)
_PASS_AND_HIGHER_BIDS = tuple(1 << PASS | bids for bids in _HIGHER_BIDS)  # pass is always legal (R3.1)
_KONTRA_BIT, _REKONTRA_BIT = 1 << KONTRA, 1 << REKONTRA


def parse_call(text: str) -> int:
    try:
        return _BY_NAME[text]
    except (KeyError, TypeError):
        raise ValueError(
            f"{shown(text)} is not a call (pass, C, D, H, S, NT, AT, kontra, rekontra)"
        ) from None


def call_name(call: int) -> str:
    return CALL_NAMES[call]


def call_slot(call: int) -> int:
    """The slot (action) through which ``call`` is made: surkontra goes through the kontra slot."""
    return KONTRA if call == SURKONTRA else call


def bid_contract(call: int) -> int:
    return call - BID_BASE


class Auction:
    """Bidding state of one deal.  Seats are 0-3 in calling order from the forehand ``first``."""

    __slots__ = ("first", "calls", "contract", "declarer", "multiplier", "passes", "done", "surcontra")

    def __init__(self, first: int, surcontra: bool = False) -> None:
        self.first = first
        self.surcontra = surcontra  # OPT-SURCONTRA
        self.calls: list[int] = []
        self.contract = NO_CONTRACT
        self.declarer = -1
        self.multiplier = 1
        self.passes = 0
        self.done = False

    def copy(self) -> Auction:
        a = Auction.__new__(Auction)
        a.first, a.calls, a.contract, a.declarer = self.first, self.calls[:], self.contract, self.declarer
        a.multiplier, a.passes, a.done, a.surcontra = self.multiplier, self.passes, self.done, self.surcontra
        return a

    @property
    def to_call(self) -> int:
        return (self.first + len(self.calls)) & 3

    def legal_mask(self) -> int:
        """Bits of the calls the player to call may make (R3.1-R3.4)."""
        if self.done:
            return 0
        contract = self.contract
        mask = _PASS_AND_HIGHER_BIDS[contract + 1]
        if contract >= 0:
            same_team = (self.first + len(self.calls) + self.declarer) % 2 == 0  # parity of seats
            if self.multiplier == 1 and not same_team:
                mask |= _KONTRA_BIT  # R3.3
            elif self.multiplier == 2 and same_team:
                mask |= _REKONTRA_BIT  # R3.3
            elif self.multiplier == 4 and not same_team and self.surcontra:
                mask |= _KONTRA_BIT  # OPT-SURCONTRA (R3.3): surkontra, through the kontra slot
        return mask

    def apply(self, call: int) -> None:
        if not (self.legal_mask() >> call) & 1:
            raise RuleError(*self.explain(call))
        self.record(call)

    def record(self, call: int) -> None:
        """Apply a call already known to be legal (`apply` without the check, for a caller that
        checked it against `legal_mask`)."""
        calls = self.calls
        calls.append(call)
        if call == PASS:
            self.passes += 1
            # R3.6: three passes after any other call end the auction; four passes, no contract.
            if (self.passes == 3 and self.contract >= 0) or self.passes == 4:
                self.done = True
            return
        self.passes = 0
        if call == KONTRA:
            if self.multiplier == 4:  # OPT-SURCONTRA: the kontra slot over a rekontra
                self.calls[-1] = SURKONTRA
                self.multiplier = 8
            else:
                self.multiplier = 2
        elif call == REKONTRA:
            self.multiplier = 4
        else:
            self.contract = call - BID_BASE  # R3.4: a higher bid removes any doubling
            self.declarer = (self.first + len(calls) - 1) & 3  # R3.5: the seat that bid it
            self.multiplier = 1

    def explain(self, call: int) -> tuple[str, str]:
        """Why ``call`` is refused now: (message, rule id)."""
        name = CALL_NAMES[call] if 0 <= call < NUM_CALLS else repr(call)
        if self.done:
            return f"{name} is not legal: the auction is over", "R3.6"
        if BID_BASE <= call <= BID_BASE + AT:
            current = CONTRACT_NAMES[self.contract]
            return f"{name} is not legal: a bid must be higher than {current}", "R3.1"
        if call == KONTRA:
            if self.contract < 0:
                return "kontra is not legal: there is no contract to double", "R3.3"
            if self.multiplier == 4 and not self.surcontra:
                return "surkontra is not legal: there is no third level (only with OPT-SURCONTRA)", "R3.3"
            if self.multiplier == 4:
                return "surkontra is not legal: only the team that doubled may redouble a rekontra", "R3.3"
            if self.multiplier == 8:
                return "kontra is not legal: there is no fourth level", "R3.3"
            if self.multiplier > 1:
                return "kontra is not legal: the contract is already doubled", "R3.3"
            return "kontra is not legal: the contract was bid by your own team", "R3.3"
        if call == REKONTRA:
            if self.multiplier != 2:
                return "rekontra is not legal: only a kontra can be redoubled", "R3.3"
            return "rekontra is not legal: only the contract team may redouble", "R3.3"
        return f"{name} is not a call", "R3.1"
