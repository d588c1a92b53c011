"""A table's game as stored: dealing its deals, writing each accepted action with what it caused,
and rebuilding the match from storage (the stored hands dealt, the stored moves replayed)."""

from __future__ import annotations

import random

from .. import record as belot_record
from ..cards import CARD_NAMES, parse_card
from ..contracts import Rules
from ..game import CHANCE, Match
from ..record import Move, action_of, move_of
from .settings import FINISHED
from .storage import DealRow, Storage


def deal_next(match: Match, seed: int) -> None:
    """Shuffle and deal the match's next deal (R2): deal ``i`` of a table comes from its seed and ``i``.

    Only deals not yet dealt are shuffled; a dealt deal is stored and always restored as stored.
    """
    match.deal(match.next_hands(random.Random(f"{seed}/{len(match.deals)}")))


def bot_seed(seed: int, seq: int) -> int:
    """The seed of the bot that makes action ``seq`` of the table seeded ``seed``.

    Drawn from the table's secret seed and ``seq`` (the string seed goes through SHA-512), so a
    bot's choices reveal nothing of the shuffles, and a table replays the same game wherever it is
    played: in another process, on Ray, or on the worker that took it over.

    >>> bot_seed(7, 12) == bot_seed(7, 12) != bot_seed(7, 13)
    True
    """
    return random.Random(f"{seed}/bot/{seq}").getrandbits(32)


def new_match(target: int, seed: int, rules: Rules | None = None) -> Match:
    """A table's match with its first deal dealt (the first dealer drawn from the seed, R2.1)."""
    match = Match(rules, target=target, first_dealer=random.Random(seed).randrange(4))
    deal_next(match, seed)
    return match


def deal_row(match: Match, i: int) -> DealRow:
    d = match.deals[i]
    return DealRow(i, d.dealer, [[CARD_NAMES[c] for c in h] for h in d.dealt])


def replay_stored(target: int, deals: list[DealRow], moves: list[tuple[int, Move, bool]],
                  rules: Rules | None = None) -> Match:
    """The match of a stored table: its hands dealt as stored, its moves applied in order.

    Raises RuleError or ValueError when the stored game is not a legal game.
    """
    match = Match(rules, target=target, first_dealer=deals[0].dealer if deals else None)
    rows = iter(deals)

    def deal_stored() -> None:
        row = next(rows, None)
        if row is None:
            raise ValueError(f"deal {len(match.deals)} was played but its hands are not stored")
        match.deal([[parse_card(c) for c in h] for h in row.hands], row.dealer)

    for seq, (seat, move, _bot) in enumerate(moves):
        if match.current_player == CHANCE:
            deal_stored()
        if match.current_player != seat:
            raise ValueError(f"move {seq} is stored for seat {seat}, but seat {match.current_player} is to move")
        match.apply(action_of(move))
    if match.current_player == CHANCE:
        deal_stored()
    if next(rows, None) is not None:
        raise ValueError("more deals are stored than were played")
    return match


class GameLog:
    """The storage of one table's game: every write of the table goes through here."""

    def __init__(self, storage: Storage, table_id: str, seed: int) -> None:
        self.storage = storage
        self.table_id = table_id
        self.seed = seed

    def advance(self, match: Match, action: int) -> Match:
        """The match after ``action`` (the next deal dealt when one ended), on a copy; RuleError if illegal."""
        trial = match.clone()
        trial.apply(action)
        if trial.current_player == CHANCE:
            deal_next(trial, self.seed)
        return trial

    def append(self, seq: int, seat: int, action: int, bot: bool, before: Match, after: Match,
               players: list[str]) -> str | None:
        """Store action ``seq`` (that made ``after`` of ``before``) with the deals it dealt and, when it
        ended the match, the status and the record, in one transaction; returns the new status or None.
        Raises SQLAlchemyError (and nothing is stored) when the database refuses it."""
        new_deals = [deal_row(after, i) for i in range(len(before.deals), len(after.deals))]
        status = FINISHED if after.is_over else None
        text = belot_record.dumps(after, players) if after.is_over else None
        self.storage.append_action(self.table_id, seq, seat, move_of(action), bot, new_deals, status, text)
        return status

    def set_seat(self, seat: int, token_hash: str | None, name: str | None, status: str | None = None,
                 open: bool | None = None) -> None:
        self.storage.set_seat(self.table_id, seat, token_hash, name, status, open)

    def set_seen(self, seen: float | None) -> None:
        """When a person was last known at the table (None: one is there now)."""
        self.storage.set_seen(self.table_id, seen)

    def abandon(self) -> None:
        """Store the table as closed, abandoned: every action stays as stored."""
        self.storage.abandon(self.table_id)


__all__ = ["GameLog", "deal_next", "deal_row", "new_match", "replay_stored"]
