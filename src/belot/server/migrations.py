"""The steps that bring an older server database up to the current schema, one per version.

`Storage.migrate` reads the stored ``schema_version`` and runs every later step in order, all in
one transaction, so a database is either migrated whole or left as it was.  A step is frozen with
the schema it reads: it never depends on code that may change after it was written (the engine's
action numbering, say), so an old database migrates the same way forever.

* 1 -> 2: the action log stored the engine's action ints (the 163-action numbering of 2026) and a
  restart re-shuffled from the table's seed.  From 2 the log holds each action in the record
  notation of belot-record/1 (``"JH"``, ``"pass"``, ``{"card": "QH", "belote": true}``,
  ``{"declare": ["7C", "8C", "9C"]}``) in ``belot_moves``, and a restart deals the stored hands.
* 2 -> 3: ``belot_tables.open`` (listed in the lobby) and its index, so that a lobby page is one
  index range, not a scan of every table (20,000 stored tables made a lobby answer 467 ms).
* 3 -> 4: ``belot_analyses`` holds the analysis of a finished game (status, progress, the
  belot-analysis/1 document), one row a table; older databases simply have none yet.
* 4 -> 5: accounts (issue 21): ``belot_accounts``, ``belot_sessions``, ``belot_seat_accounts``
  (which account holds a seat), ``belot_account_games`` (an account's finished matches and its
  rating before and after each) and ``belot_rematches``. New tables only; nothing existing changes.
* 5 -> 6: what several workers on one database must see alike: ``belot_attempts`` (failed logins
  and registrations, which were counted in each process's memory, so N workers allowed N times the
  guesses) and ``belot_reservations`` (a rematch's seats kept for their players a while). New
  tables only.
* 6 -> 7: ``belot_tables.seen``, when a person was last known at an unfinished table with a human
  seat, so that one nobody is at for long is closed as ``abandoned`` (a new status) instead of being
  kept, and replayed at every start, for ever.  An unfinished table of an older database was last
  seen at its last action by a person (or its creation): what it was left at is all that is known.
  An ended table has none, so that the index ``belot_tables_seen`` holds only the unfinished.
* 7 -> 8: indexes of ``belot_analyses.status`` and ``belot_tables.status, seen``.  With several
  workers each one looks at every heartbeat (1.5 s) for the queued and running analyses, the tables
  in play that no live worker owns, and those a person was at when their worker stopped.  Each was
  a scan of every analysed game or every stored table, in the server's event loop: with 100,000
  finished games on SQLite, 60-70 ms, 120-190 ms and 155-180 ms a heartbeat, against 0.3-2 ms each
  with the indexes.  And ``belot_tables.created``: every lobby page lists the newest tables of any
  status, which sorted every stored table (20 ms, 144 ms cold).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa

# -- 1 -> 2 --------------------------------------------------------------------------------------

_V1_RANKS, _V1_SUITS = "789TJQKA", "CDHS"
_V1_CARDS = tuple(_V1_RANKS[c % 8] + _V1_SUITS[c // 8] for c in range(32))
_V1_CALLS = ("pass", "C", "D", "H", "S", "NT", "AT", "kontra", "rekontra")


def _v1_declarations() -> list[list[str]]:
    """The cards of declarations 0..89 as schema 1 numbered them: sequences by suit, length 3-8 and
    start, then the carrés of 9 T J Q K A."""
    out = []
    for suit in range(4):
        for length in range(3, 9):
            for start in range(9 - length):
                out.append([_V1_CARDS[8 * suit + r] for r in range(start, start + length)])
    for rank in range(2, 8):
        out.append([_V1_CARDS[8 * s + rank] for s in range(4)])
    return out


_V1_DECLARATIONS = _v1_declarations()


def v1_move(action: int) -> Any:
    """A schema-1 action int in record notation."""
    if 0 <= action < 32:
        return _V1_CARDS[action]
    if action < 64:
        return {"card": _V1_CARDS[action - 32], "belote": True}
    if action < 73:
        return _V1_CALLS[action - 64]
    if action < 163:
        return {"declare": _V1_DECLARATIONS[action - 73]}
    raise ValueError(f"{action!r} is not a schema-1 action")


def _to_2(c: sa.Connection) -> None:
    old = sa.Table(
        "belot_actions", sa.MetaData(),
        sa.Column("table_id", sa.String(32)), sa.Column("seq", sa.Integer), sa.Column("seat", sa.Integer),
        sa.Column("action", sa.Integer), sa.Column("bot", sa.Boolean), sa.Column("at", sa.Float),
    )
    new = sa.Table(
        "belot_moves", sa.MetaData(),
        sa.Column("table_id", sa.String(32)), sa.Column("seq", sa.Integer), sa.Column("seat", sa.Integer),
        sa.Column("move", sa.Text), sa.Column("bot", sa.Boolean), sa.Column("at", sa.Float),
    )
    if not sa.inspect(c).has_table("belot_actions"):
        return
    rows = c.execute(sa.select(old).order_by(old.c.table_id, old.c.seq)).all()
    if rows:
        c.execute(sa.insert(new), [
            {"table_id": r.table_id, "seq": r.seq, "seat": r.seat, "move": json.dumps(v1_move(r.action)),
             "bot": r.bot, "at": r.at}
            for r in rows
        ])
    old.drop(c)


# -- 2 -> 3 --------------------------------------------------------------------------------------


def _to_3(c: sa.Connection) -> None:
    """The lobby reads an index instead of every table: ``belot_tables.open`` (not finished and a
    human seat free) and the index ``belot_tables_lobby`` (open, created, id)."""
    tables = sa.Table(
        "belot_tables", sa.MetaData(),
        sa.Column("id", sa.String(32)), sa.Column("created", sa.Float), sa.Column("settings", sa.Text),
        sa.Column("status", sa.String(16)), sa.Column("open", sa.Boolean),
    )
    seats = sa.Table(
        "belot_seats", sa.MetaData(),
        sa.Column("table_id", sa.String(32)), sa.Column("seat", sa.Integer), sa.Column("token_hash", sa.String(64)),
    )
    columns = {col["name"] for col in sa.inspect(c).get_columns("belot_tables")}
    if "open" not in columns:
        c.exec_driver_sql("ALTER TABLE belot_tables ADD COLUMN open BOOLEAN NOT NULL DEFAULT FALSE")
    taken = {(r.table_id, r.seat) for r in c.execute(sa.select(seats).where(seats.c.token_hash.is_not(None)))}
    listed = []
    for r in c.execute(sa.select(tables.c.id, tables.c.settings).where(tables.c.status != "finished")):
        kinds = json.loads(r.settings)["seats"]
        if any(kind == "human" and (r.id, s) not in taken for s, kind in enumerate(kinds)):
            listed.append(r.id)
    for i in range(0, len(listed), 500):
        c.execute(sa.update(tables).where(tables.c.id.in_(listed[i:i + 500])).values(open=True))
    sa.Index("belot_tables_lobby", tables.c.open, tables.c.created, tables.c.id).create(c, checkfirst=True)


# -- 3 -> 4 --------------------------------------------------------------------------------------


def _to_4(c: sa.Connection) -> None:
    """The analyses of finished games: ``belot_analyses``."""
    # `Storage.migrate` creates missing tables before the steps run; this keeps the step whole on its own.
    sa.Table(
        "belot_analyses", sa.MetaData(),
        sa.Column("table_id", sa.String(32), primary_key=True), sa.Column("status", sa.String(16), nullable=False),
        sa.Column("done", sa.Integer, nullable=False), sa.Column("total", sa.Integer, nullable=False),
        sa.Column("result", sa.Text, nullable=True), sa.Column("updated", sa.Float, nullable=False),
    ).create(c, checkfirst=True)


def _beside_tables() -> sa.MetaData:
    """A MetaData holding a stub of ``belot_tables`` (its id), for new tables whose foreign keys name it."""
    m = sa.MetaData()
    sa.Table("belot_tables", m, sa.Column("id", sa.String(32), primary_key=True))
    return m


def _create_new(c: sa.Connection, m: sa.MetaData) -> None:
    """Create the tables of ``m`` but the stub of ``belot_tables``, each if absent; nothing else changes."""
    m.create_all(c, tables=[t for name, t in m.tables.items() if name != "belot_tables"], checkfirst=True)


# -- 4 -> 5 --------------------------------------------------------------------------------------


def _to_5(c: sa.Connection) -> None:
    """The account tables, as schema 5 defined them (created if absent; nothing else changes)."""
    m = _beside_tables()
    sa.Table(
        "belot_accounts", m,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("name_key", sa.String(100), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False), sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False, server_default="0"),
    )
    sa.Table(
        "belot_sessions", m,
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("belot_accounts.id"), nullable=False, index=True),
        sa.Column("created", sa.Float, nullable=False), sa.Column("expires", sa.Float, nullable=False),
    )
    sa.Table(
        "belot_seat_accounts", m,
        sa.Column("table_id", sa.String(32), sa.ForeignKey("belot_tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("belot_accounts.id"), nullable=False, index=True),
    )
    sa.Table(
        "belot_account_games", m,
        sa.Column("table_id", sa.String(32), sa.ForeignKey("belot_tables.id"), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("belot_accounts.id"), primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False), sa.Column("finished", sa.Float, nullable=False),
        sa.Column("players", sa.Text, nullable=False),
        sa.Column("score0", sa.Integer, nullable=False), sa.Column("score1", sa.Integer, nullable=False),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("mu_before", sa.Float, nullable=False), sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False), sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Index("belot_account_games_by_account", "account_id", "finished"),
    )
    sa.Table(
        "belot_rematches", m,
        sa.Column("table_id", sa.String(32), sa.ForeignKey("belot_tables.id"), primary_key=True),
        sa.Column("new_table_id", sa.String(32), sa.ForeignKey("belot_tables.id"), nullable=False),
    )
    _create_new(c, m)


# -- 5 -> 6 --------------------------------------------------------------------------------------


def _to_6(c: sa.Connection) -> None:
    """The attempts of the login limits and the rematches' kept seats, as schema 6 defined them."""
    m = _beside_tables()
    sa.Table(
        "belot_attempts", m,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(200), nullable=False), sa.Column("at", sa.Float, nullable=False),
        sa.Index("belot_attempts_by_key", "key", "at"), sa.Index("belot_attempts_by_time", "at"),
    )
    sa.Table(
        "belot_reservations", m,
        sa.Column("table_id", sa.String(32), sa.ForeignKey("belot_tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True), sa.Column("until", sa.Float, nullable=False, index=True),
    )
    _create_new(c, m)


# -- 6 -> 7 --------------------------------------------------------------------------------------


def _to_7(c: sa.Connection) -> None:
    """``belot_tables.seen``, filled for the unfinished tables with a human seat."""
    tables = sa.Table(
        "belot_tables", sa.MetaData(),
        sa.Column("id", sa.String(32)), sa.Column("created", sa.Float), sa.Column("settings", sa.Text),
        sa.Column("status", sa.String(16)), sa.Column("seen", sa.Float),
    )
    moves = sa.Table(
        "belot_moves", sa.MetaData(),
        sa.Column("table_id", sa.String(32)), sa.Column("bot", sa.Boolean), sa.Column("at", sa.Float),
    )
    columns = {col["name"] for col in sa.inspect(c).get_columns("belot_tables")}
    if "seen" not in columns:
        c.exec_driver_sql("ALTER TABLE belot_tables ADD COLUMN seen FLOAT")
    sa.Index("belot_tables_seen", tables.c.seen).create(c, checkfirst=True)
    acted = sa.select(sa.func.max(moves.c.at)).where(moves.c.table_id == tables.c.id, moves.c.bot == sa.false())
    rows = c.execute(sa.select(tables.c.id, tables.c.created, tables.c.settings, acted.scalar_subquery().label("acted"))
                     .where(tables.c.status.in_(("waiting", "playing")))).all()
    for r in rows:
        if "human" in json.loads(r.settings)["seats"]:
            seen = r.created if r.acted is None else max(r.created, r.acted)
            c.execute(sa.update(tables).where(tables.c.id == r.id).values(seen=seen))


# -- 7 -> 8 --------------------------------------------------------------------------------------


def _to_8(c: sa.Connection) -> None:
    """The indexes of ``belot_analyses.status``, ``belot_tables.status, seen`` and ``belot_tables.created``."""
    analyses = sa.Table("belot_analyses", sa.MetaData(), sa.Column("status", sa.String(16)))
    sa.Index("belot_analyses_status", analyses.c.status).create(c, checkfirst=True)
    tables = sa.Table("belot_tables", sa.MetaData(), sa.Column("status", sa.String(16)), sa.Column("seen", sa.Float),
                      sa.Column("created", sa.Float))
    sa.Index("belot_tables_status", tables.c.status, tables.c.seen).create(c, checkfirst=True)
    sa.Index("belot_tables_created", tables.c.created).create(c, checkfirst=True)


STEPS: dict[int, Callable[[sa.Connection], None]] = {
    2: _to_2, 3: _to_3, 4: _to_4, 5: _to_5, 6: _to_6, 7: _to_7, 8: _to_8,
}
"""The step that makes each version from the one before it."""

__all__ = ["STEPS", "v1_move"]
