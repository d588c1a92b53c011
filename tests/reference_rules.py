"""A deliberately naive second reading of the rulebook (docs/rules.md = shared RULES.md), for
differential tests of the engine (tests/test_reference_rules.py).

Written from the rule sentences, not from the engine: no bit masks, no precomputed tables of the
engine, no engine function. Cards are named ("JH") and compared through the orders of R4.1 spelt
out as strings. The only things shared with the engine are the documented encodings: a card int is
``suit * 8 + rank`` (suits C D H S, ranks 7 8 9 T J Q K A, belot.cards), actions are 0-31 a card,
32-63 a card with belote, 64-72 the calls pass C D H S NT AT kontra rekontra (surkontra made through
the kontra slot, docs/rules.md section 6), 73-162 a declaration by id (84 sequences by suit, length
3-8, start from the 7; then the carrés of 9 T J Q K A; belot.declarations).
Slow on purpose: clarity over speed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

RANKS = "789TJQKA"
SUITS = "CDHS"
CONTRACTS = ("C", "D", "H", "S", "NT", "AT")  # R3.1: bidding order, low to high
CALLS = ("pass", "C", "D", "H", "S", "NT", "AT", "kontra", "rekontra")

# R4.1, written high to low as the rulebook writes them
TRUMP_ORDER = "J9ATKQ87"
PLAIN_ORDER = "ATKQJ987"
# R6.1
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
PLAIN_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}


def name(card: int) -> str:
    return RANKS[card % 8] + SUITS[card // 8]


def card_of(text: str) -> int:
    return SUITS.index(text[1]) * 8 + RANKS.index(text[0])


def suit(c: str) -> str:
    return c[1]


def rank(c: str) -> str:
    return c[0]


def team(seat: int) -> int:
    return seat % 2  # R1.2: partners opposite (seats 0 and 2, 1 and 3)


def is_trump(c: str, contract: str) -> bool:
    return contract == "AT" or suit(c) == contract  # R4.2


def power(c: str, contract: str) -> int:
    """Strength of a card within its suit: higher is stronger (R4.1-R4.2)."""
    order = TRUMP_ORDER if is_trump(c, contract) else PLAIN_ORDER
    return len(order) - order.index(rank(c))


def points(c: str, contract: str) -> int:
    return (TRUMP_POINTS if is_trump(c, contract) else PLAIN_POINTS)[rank(c)]


# -- R5: who wins a trick, which cards may be played ------------------------------------------------

def trick_winner(trick: list[tuple[int, str]], contract: str) -> int:
    """The seat winning ``trick`` [(seat, card), ...] so far (R5.6)."""
    led = suit(trick[0][1])
    if contract not in ("NT", "AT"):
        trumps = [(s, c) for s, c in trick if suit(c) == contract]
        if trumps:
            return max(trumps, key=lambda sc: power(sc[1], contract))[0]
    of_led = [(s, c) for s, c in trick if suit(c) == led]
    return max(of_led, key=lambda sc: power(sc[1], contract))[0]


def legal_cards(hand: list[str], trick: list[tuple[int, str]], seat: int, contract: str) -> set[str]:
    """R5.1-R5.5, sentence by sentence."""
    if not trick:
        return set(hand)  # R5.1: the leader plays any card
    led = suit(trick[0][1])
    follow = [c for c in hand if suit(c) == led]
    if contract == "NT":  # R5.4
        return set(follow) if follow else set(hand)
    if contract == "AT":  # R5.5
        if not follow:
            return set(hand)
        highest = max(power(c, contract) for _, c in trick if suit(c) == led)
        above = [c for c in follow if power(c, contract) > highest]
        return set(above) if above else set(follow)
    trump = contract
    if led == trump:  # R5.3
        if not follow:
            return set(hand)
        highest = max(power(c, contract) for _, c in trick if suit(c) == trump)
        above = [c for c in follow if power(c, contract) > highest]
        return set(above) if above else set(follow)
    if follow:  # R5.2: follow with any card of the led suit
        return set(follow)
    winner = trick_winner(trick, contract)
    if winner == (seat + 2) % 4:  # R5.2 (a): partner winning
        return set(hand)
    my_trumps = [c for c in hand if suit(c) == trump]
    if not my_trumps:  # R5.2 (d)
        return set(hand)
    winning_card = next(c for s, c in trick if s == winner)
    if suit(winning_card) == trump:  # R5.2 (b): overtrump if able, otherwise any card
        above = [c for c in my_trumps if power(c, contract) > power(winning_card, contract)]
        return set(above) if above else set(hand)
    return set(my_trumps)  # R5.2 (c): must trump


def belote_allowed(c: str, hand: list[str], trick: list[tuple[int, str]], contract: str) -> bool:
    """R7.7: belote with ``c`` (a legal card of ``hand``, not yet played)."""
    if contract == "NT" or rank(c) not in "KQ":  # R7.1: nothing in NT
        return False
    if contract != "AT" and suit(c) != contract:  # suit contract: trump suit only
        return False
    other = ("Q" if rank(c) == "K" else "K") + suit(c)
    if other not in hand:  # announced with the first of the two played: both still held
        return False
    if not trick:
        return True  # led
    led = suit(trick[0][1])
    if suit(c) == led:
        return True  # follows the led suit
    return contract != "AT"  # a trump on another suit; in AT a discard gives none


# -- R7: declarations ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Decl:
    kind: str  # tierce quarte quint carre
    cards: frozenset[str]
    top: str  # top rank of a sequence (7..A order), the rank of a carré
    length: int

    @property
    def value(self) -> int:
        if self.kind == "carre":
            return {"J": 200, "9": 150}.get(self.top, 100)  # R7.3
        return {3: 20, 4: 50}.get(self.length, 100)  # R7.2


def sequence(s: str, start: int, length: int) -> Decl:
    ranks = RANKS[start:start + length]
    kind = {3: "tierce", 4: "quarte"}.get(length, "quint")
    return Decl(kind, frozenset(r + s for r in ranks), ranks[-1], length)


def carre(r: str) -> Decl:
    return Decl("carre", frozenset(r + s for s in SUITS), r, 4)


# Declaration ids as documented (belot.declarations): 84 sequences, then the 6 carrés
ALL_DECLS: list[Decl] = [sequence(s, start, length) for s in SUITS for length in range(3, 9)
                         for start in range(0, 9 - length)] + [carre(r) for r in "9TJQKA"]
DECL_ID = {d: i for i, d in enumerate(ALL_DECLS)}
SCORING_CARRE_RANKS = "9TJQKA"  # R7.3: 8s and 7s give nothing


def declarable(hand: list[str], announced: list[Decl], options: frozenset[str]) -> set[Decl]:
    """What the holder of ``hand`` may announce next (R7.2-R7.4): a carré not sharing a card with an
    announced declaration; a whole run (3+ cards, one declaration however long, R7.2) of the cards
    not taken by an announced carré (R7.4; OPT-CARRE-FIRST: by any scoring carré held), not sharing
    a card with an announced declaration; OPT-EIGHT-SPLIT: an 8-card run is its top quint and
    bottom tierce."""
    used = set().union(*(d.cards for d in announced)) if announced else set()
    out = set()
    for r in SCORING_CARRE_RANKS:
        d = carre(r)
        if d.cards <= set(hand) and not d.cards & used:
            out.add(d)
    taken = set().union(*(d.cards for d in announced if d.kind == "carre")) if announced else set()
    if "OPT-CARRE-FIRST" in options:
        for r in SCORING_CARRE_RANKS:
            if carre(r).cards <= set(hand):
                taken |= carre(r).cards
    free = set(hand) - taken
    for s in SUITS:
        start = None
        for i in range(9):
            if i < 8 and RANKS[i] + s in free:
                if start is None:
                    start = i
                continue
            if start is not None and i - start >= 3:
                runs = [sequence(s, start, i - start)]
                if i - start == 8 and "OPT-EIGHT-SPLIT" in options:
                    runs = [sequence(s, 3, 5), sequence(s, 0, 3)]
                out.update(d for d in runs if not d.cards & used)
            start = None
    return out


def sequence_rank(d: Decl, options: frozenset[str]) -> tuple[int, int]:
    """R7.6: quint > quarte > tierce (a 6-8 card quint is a quint), then the top card;
    OPT-LENGTH-FIRST: the number of cards, then the top card."""
    if "OPT-LENGTH-FIRST" in options:
        return (d.length, RANKS.index(d.top))
    return (["tierce", "quarte", "quint"].index(d.kind), RANKS.index(d.top))


def carre_rank(d: Decl, options: frozenset[str]) -> int:
    """R7.6: J > 9 > A > T > K > Q; OPT-CARRE-RANK: J > 9 > A > K > Q > T."""
    order = "J9AKQT" if "OPT-CARRE-RANK" in options else "J9ATKQ"
    return len(order) - order.index(d.top)


def contest(team_decls: tuple[list[Decl], list[Decl]], options: frozenset[str]) -> list[int]:
    """R7.6 (and R7.8: a team's declarations count whatever its tricks)."""
    if "OPT-SINGLE-CONTEST" in options:
        def single(d: Decl) -> tuple[int, int, tuple[int, ...]]:
            if d.kind == "carre":
                return (d.value, 1, (carre_rank(d, options),))
            return (d.value, 0, sequence_rank(d, options))
        best = [max(map(single, ds)) if ds else None for ds in team_decls]
        out = [0, 0]
        if best[0] is None and best[1] is None:
            return out
        if best[1] is None or (best[0] is not None and best[0] > best[1]):
            out[0] = sum(d.value for d in team_decls[0])
        elif best[0] is None or best[1] > best[0]:
            out[1] = sum(d.value for d in team_decls[1])
        return out  # exact tie: all cancelled
    out = [0, 0]
    seqs = [[d for d in ds if d.kind != "carre"] for ds in team_decls]
    sbest = [max(sequence_rank(d, options) for d in s) if s else None for s in seqs]
    if sbest[0] is not None and (sbest[1] is None or sbest[0] > sbest[1]):
        out[0] += sum(d.value for d in seqs[0])
    elif sbest[1] is not None and (sbest[0] is None or sbest[1] > sbest[0]):
        out[1] += sum(d.value for d in seqs[1])
    carres = [[d for d in ds if d.kind == "carre"] for ds in team_decls]
    cbest = [max(carre_rank(d, options) for d in c) if c else None for c in carres]
    if cbest[0] is not None and (cbest[1] is None or cbest[0] > cbest[1]):
        out[0] += sum(d.value for d in carres[0])
    elif cbest[1] is not None and (cbest[0] is None or cbest[1] > cbest[0]):
        out[1] += sum(d.value for d in carres[1])
    return out


# -- R10, R11: rounding and scoring ------------------------------------------------------------------

def round_gp(x: int, contract: str, more: bool) -> int:
    """R10.1-R10.3: ``more`` says this team has the larger raw total (or counts as such, R10.4)."""
    f, u = x // 10, x % 10
    if contract == "NT":
        assert u != 5, "R10.3: NT totals are even"
        return f if u <= 4 else f + 1
    pivot = 4 if contract == "AT" else 6
    if u < pivot:
        return f
    if u > pivot:
        return f + 1
    return f if more else f + 1


def whole_pot(tb: int, td: int) -> int:
    """R10.5: round-half-up((T(B) + T(D)) / 10)."""
    s = tb + td
    return s // 10 + (1 if s % 10 >= 5 else 0)


@dataclass
class Score:
    outcome: str  # made hanging inside
    gp_b: int
    gp_d: int
    pot: int


def score(contract: str, tb: int, td: int, mult: int, pot: int, valat: bool,
          options: frozenset[str]) -> Score:
    """R9.2, R10, R11 for raw totals T(B), T(D) and the hanging pot H carried in."""
    if valat and "OPT-VALAT-NO-DOUBLE" in options:
        mult = 1  # scored by R11.1-R11.3
    if mult > 1:  # R11.4: round first, then multiply; the team with more takes all
        stake = whole_pot(tb, td) * mult
        if tb > td:
            return Score("made", stake + pot, 0, 0)
        if td > tb:
            return Score("inside", 0, stake + pot, 0)
        return Score("hanging", 0, 0, pot + stake)
    if tb > td:  # R11.1
        b, d = round_gp(tb, contract, True), round_gp(td, contract, False)
        if "OPT-NONZERO" in options:
            if td > 0 and d == 0:
                b, d = b - 1, 1
            if tb > 0 and b == 0:  # (cannot happen for a made contract, kept for the sentence)
                b, d = 1, d - 1
        return Score("made", b + pot, d, 0)
    if tb < td:  # R11.2
        return Score("inside", 0, whole_pot(tb, td) + pot, 0)
    # R11.3 with R10.4: the defenders' half rounds as "more", the hanging half as "fewer"
    return Score("hanging", 0, round_gp(td, contract, True), pot + round_gp(tb, contract, False))


# -- a whole deal, action by action ------------------------------------------------------------------

CARD_ACTIONS, BELOTE_ACTIONS, CALL_ACTIONS, DECLARE_ACTIONS = 0, 32, 64, 73


@dataclass
class DealOutcome:
    card_points: list[int]
    declarations: list[int]
    belote: list[int]
    valat: int | None
    totals: list[int]
    outcome: str
    points: list[int]
    pot: int
    tricks: list[int]


@dataclass
class RefDeal:
    """One deal (R2.3-R11) from four 8-card hands (card ints, in the order dealt)."""

    dealer: int
    dealt: list[list[int]]
    options: frozenset[str] = frozenset()
    pot: int = 0
    hands: list[list[str]] = field(default_factory=list)
    calls: list[str] = field(default_factory=list)
    phase: str = "auction"
    to_move: int = -1
    contract: str | None = None
    bidder: int = -1
    level: int = 1
    trick: list[tuple[int, str]] = field(default_factory=list)
    tricks: list[tuple[list[tuple[int, str]], int]] = field(default_factory=list)
    declared: list[list[Decl]] = field(default_factory=lambda: [[], [], [], []])
    belotes: list[int] = field(default_factory=list)
    result: DealOutcome | None = None

    def __post_init__(self) -> None:
        self.hands = [[name(c) for c in h] for h in self.dealt]
        self.to_move = (self.dealer + 1) % 4  # R2.3 forehand; R3.1 it calls first

    # R3 -----------------------------------------------------------------------------------------
    def legal_calls(self) -> set[str]:
        seat = self.to_move
        out = {"pass"}
        current = CONTRACTS.index(self.contract) if self.contract else -1
        out.update(CONTRACTS[current + 1:])  # R3.1 strictly higher; R3.2/R3.4 by anyone
        if self.contract is not None:
            own = team(seat) == team(self.bidder)
            if self.level == 1 and not own:
                out.add("kontra")  # R3.3
            if self.level == 2 and own:
                out.add("rekontra")  # R3.3
            if self.level == 4 and not own and "OPT-SURCONTRA" in self.options:
                out.add("kontra")  # surkontra, through the kontra slot
        return out

    def _auction_over(self) -> bool:
        passes = 0
        for c in reversed(self.calls):
            if c != "pass":
                break
            passes += 1
        if passes == 4 and len(self.calls) == 4:
            return True  # R3.6: four passes, no contract
        return passes == 3 and len(self.calls) > 3 and any(c != "pass" for c in self.calls)

    # R5, R7 ---------------------------------------------------------------------------------------
    def legal_actions(self) -> set[int]:
        if self.phase == "auction":
            return {CALL_ACTIONS + CALLS.index(c) for c in self.legal_calls()}
        if self.phase != "play":
            return set()
        assert self.contract is not None
        seat = self.to_move
        hand = self.hands[seat]
        cards = legal_cards(hand, self.trick, seat, self.contract)
        out = {card_of(c) for c in cards}
        out |= {BELOTE_ACTIONS + card_of(c) for c in cards if belote_allowed(c, hand, self.trick, self.contract)}
        if not self.tricks and self.contract != "NT":  # R7.1, R7.5: own turn of trick 1, before the card
            out |= {DECLARE_ACTIONS + DECL_ID[d] for d in declarable(hand, self.declared[seat], self.options)}
        return out

    def apply(self, action: int) -> None:
        assert action in self.legal_actions(), action
        seat = self.to_move
        if self.phase == "auction":
            call = CALLS[action - CALL_ACTIONS]
            if call == "kontra" and self.level == 4:
                self.level = 8
            elif call == "kontra":
                self.level = 2
            elif call == "rekontra":
                self.level = 4
            elif call != "pass":
                self.contract, self.bidder, self.level = call, seat, 1  # R3.4, R3.5
            self.calls.append(call)
            if self._auction_over():
                if self.contract is None:
                    self.phase, self.to_move = "over", -1
                    self.result = None  # redeal
                else:
                    self.phase = "play"
                    self.to_move = (self.dealer + 1) % 4  # R5.1: F leads
            else:
                self.to_move = (seat + 1) % 4  # R1.3
            return
        if action >= DECLARE_ACTIONS:
            self.declared[seat].append(ALL_DECLS[action - DECLARE_ACTIONS])
            return
        c = name(action % 32)
        if action >= BELOTE_ACTIONS:
            self.belotes.append(seat)
        self.hands[seat].remove(c)
        self.trick.append((seat, c))
        if len(self.trick) < 4:
            self.to_move = (seat + 1) % 4
            return
        assert self.contract is not None
        winner = trick_winner(self.trick, self.contract)
        self.tricks.append((self.trick, winner))
        self.trick = []
        self.to_move = winner  # R5.1
        if len(self.tricks) == 8:
            self.phase, self.to_move = "over", -1
            self.result = self._score()

    def _score(self) -> DealOutcome:
        """R6, R7.6-R7.8, R8, R9, R10, R11."""
        contract = self.contract
        assert contract is not None
        cards = [0, 0]
        for k, (trick, winner) in enumerate(self.tricks):
            cards[team(winner)] += sum(points(c, contract) for _, c in trick)
            if k == 7:
                cards[team(winner)] += 10  # R6.2
        if contract == "NT":
            cards = [2 * x for x in cards]  # R6.3
        decls = [0, 0]
        if contract != "NT":
            decls = contest((self.declared[0] + self.declared[2], self.declared[1] + self.declared[3]), self.options)
        belote = [0, 0]
        for seat in self.belotes:
            belote[team(seat)] += 20
        winners = {team(w) for _, w in self.tricks}
        valat = winners.pop() if len(winners) == 1 else None
        totals = [cards[t] + decls[t] + belote[t] for t in (0, 1)]
        if valat is not None:
            totals[valat] += 90  # R8, never doubled
        b = team(self.bidder)
        s = score(contract, totals[b], totals[1 - b], self.level, self.pot, valat is not None, self.options)
        gp = [0, 0]
        gp[b], gp[1 - b] = s.gp_b, s.gp_d
        return DealOutcome(cards, decls, belote, valat, totals, s.outcome, gp, s.pot, [w for _, w in self.tricks])


# -- R2.3 and R12 --------------------------------------------------------------------------------------

def gathered_pack(deal: RefDeal) -> list[int]:
    """OPT-NO-SHUFFLE (R2.2): a finished deal's cards picked up, top first: a played deal's 8 tricks
    in the order played, each trick's cards in play order; an all-pass deal's four hands from the
    forehand on, each in the order dealt."""
    if deal.tricks:
        return [card_of(c) for trick, _ in deal.tricks for _, c in trick]
    return [c for k in range(1, 5) for c in deal.dealt[(deal.dealer + k) % 4]]


def deal_from_pack(pack: list[int], dealer: int) -> list[list[int]]:
    """R2.3: from the top, 3 each from the forehand on, then 2 each, then 3 each."""
    hands: list[list[int]] = [[], [], [], []]
    pos = 0
    for size in (3, 2, 3):
        for k in range(1, 5):
            hands[(dealer + k) % 4] += pack[pos:pos + size]
            pos += size
    return hands


@dataclass
class RefMatch:
    """R12 with OPT-CAPOT-NI and OPT-CAPOT-EN: the score, the target and the winner."""

    target: int = 151
    options: frozenset[str] = frozenset()
    score: list[int] = field(default_factory=lambda: [0, 0])
    winner: int | None = None

    def after_deal(self, points: list[int] | None, valat: bool) -> None:
        """A finished deal: ``points`` None for an all-pass deal (not a scored deal)."""
        assert self.winner is None
        if points is None:
            return
        self.score = [self.score[0] + points[0], self.score[1] + points[1]]
        high = max(self.score)
        if valat:
            if "OPT-CAPOT-EN" not in self.options:
                return  # R12.2: no check after a valat
            if high >= self.target:
                self.target = high + 1  # OPT-CAPOT-EN
        a, b = self.score
        if high >= self.target and a != b:  # R12.1
            leader = 0 if a > b else 1
            if "OPT-CAPOT-NI" in self.options and points[leader] <= 0:
                return
            self.winner = leader
