"""The server's database, behind one small interface (`Storage`), with SQLAlchemy Core.

What is stored is the game as its record (belot-record/1): per table its settings, per seat who
holds it (a hash of the secret token), the hands of every deal as dealt, and the action log in the
record's notation (``"JH"``, ``"pass"``, ``{"declare": [...]}``; `belot.record.move_of`).  A
table's state is always derived from these by dealing the stored hands and replaying the actions
through the rules core; the seed only shuffles deals not yet dealt.  Older databases are brought
up to date on open (`migrate`, with the steps of `migrations`).
Every accepted action is written in its own transaction (`append_action`) before anyone hears
of it.  The default database is SQLite (WAL journal: a committed action survives the server
process being killed); PostgreSQL (``postgresql://user@host/db``, driven by psycopg 3: the
``postgres`` extra) holds the same schema, and is what several workers share (``--worker``).
Only portable SQL is written here: SQLite's PRAGMAs run on SQLite connections alone.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from ..record import Move
from .migrations import STEPS

SCHEMA_VERSION = 8
log = logging.getLogger("belot.server")

metadata = sa.MetaData()
meta_table = sa.Table(
    "belot_meta", metadata,
    sa.Column("key", sa.String(64), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
)
tables_table = sa.Table(
    "belot_tables", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),  # shuffles the deals to come; never replayed
    sa.Column("settings", sa.Text, nullable=False),  # JSON: target, seats, names, substitute, turn_timer
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("record", sa.Text, nullable=True),  # the finished match's record (belot-record/1)
    # Listed in the lobby: not finished and a human seat free. Kept with every write that changes it,
    # so a lobby page is one range of the index below, however many tables are stored.
    sa.Column("open", sa.Boolean, nullable=False, server_default=sa.false()),
    # Schema 7: when a person was last known at an unfinished table with a human seat (a socket of
    # theirs closed, a request with a seat's token); NULL while one is there, and for a table of bots
    # only, and once it ended.  A table nobody was at for the server's `abandon_after` is closed as
    # ``abandoned``; its index makes finding those one range, however many tables are stored.
    sa.Column("seen", sa.Float, nullable=True),
    sa.Index("belot_tables_lobby", "open", "created", "id"),
    sa.Index("belot_tables_seen", "seen"),
    # schema 8: the tables in play, and those of them with a person there (a worker's heartbeat looks
    # for both every 1.5 s), are one range however many finished tables are stored
    sa.Index("belot_tables_status", "status", "seen"),
    sa.Index("belot_tables_created", "created"),  # schema 8: the newest tables, which every lobby page lists
)
seats_table = sa.Table(
    "belot_seats", metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("belot_tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("name", sa.String(100), nullable=True),
)
deals_table = sa.Table(
    "belot_deals", metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("belot_tables.id"), primary_key=True),
    sa.Column("deal_index", sa.Integer, primary_key=True),
    sa.Column("dealer", sa.Integer, nullable=False),
    sa.Column("hands", sa.Text, nullable=False),  # JSON: four lists of card names, in dealing order
)
moves_table = sa.Table(
    "belot_moves", metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("belot_tables.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("move", sa.Text, nullable=False),  # JSON: the action in record notation (belot.record.move_of)
    sa.Column("bot", sa.Boolean, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

analyses_table = sa.Table(  # schema 3: the analysis of a finished game (belot.server.analysis_jobs)
    "belot_analyses", metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("belot_tables.id"), primary_key=True),
    sa.Column("status", sa.String(16), nullable=False),  # queued, running, done, failed
    sa.Column("done", sa.Integer, nullable=False),
    sa.Column("total", sa.Integer, nullable=False),
    sa.Column("result", sa.Text, nullable=True),  # JSON: belot-analysis/1, or the error of a failed one
    sa.Column("updated", sa.Float, nullable=False),
    # schema 8: each worker's heartbeat looks for the queued and running ones (`AnalysisJobs.resume`)
    sa.Index("belot_analyses_status", "status"),
)


# -- accounts (schema 4; read and written by `accounts` and `ratings`) --------------------------
accounts_table = sa.Table(
    "belot_accounts", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(100), nullable=False),  # as registered (clean_name)
    sa.Column("name_key", sa.String(100), nullable=False, unique=True),  # casefolded: one account a name
    sa.Column("password_hash", sa.String(255), nullable=False),  # argon2id, never the password
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("mu", sa.Float, nullable=False),  # OpenSkill rating (ratings.py)
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False, server_default="0"),
)
sessions_table = sa.Table(
    "belot_sessions", metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),  # SHA-256 of the cookie's token
    sa.Column("account_id", sa.Integer, sa.ForeignKey("belot_accounts.id"), nullable=False, index=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("expires", sa.Float, nullable=False),
)
seat_accounts_table = sa.Table(
    "belot_seat_accounts", metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("belot_tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("belot_accounts.id"), nullable=False, index=True),
)
account_games_table = sa.Table(
    "belot_account_games", metadata,  # one row per account per finished match it played: its history
    sa.Column("table_id", sa.String(32), sa.ForeignKey("belot_tables.id"), primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("belot_accounts.id"), primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("finished", sa.Float, nullable=False),
    sa.Column("players", sa.Text, nullable=False),  # JSON: the four names by seat
    sa.Column("score0", sa.Integer, nullable=False),
    sa.Column("score1", sa.Integer, nullable=False),
    sa.Column("winner", sa.Integer, nullable=True),
    sa.Column("mu_before", sa.Float, nullable=False),
    sa.Column("sigma_before", sa.Float, nullable=False),
    sa.Column("mu_after", sa.Float, nullable=False),
    sa.Column("sigma_after", sa.Float, nullable=False),
    sa.Index("belot_account_games_by_account", "account_id", "finished"),
)
rematches_table = sa.Table(
    "belot_rematches", metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("belot_tables.id"), primary_key=True),
    sa.Column("new_table_id", sa.String(32), sa.ForeignKey("belot_tables.id"), nullable=False),
)

# -- schema 6: what every worker on the database must see alike ----------------------------------
attempts_table = sa.Table(
    "belot_attempts", metadata,  # failed logins and registrations in their window (accounts.LoginLimiter)
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("key", sa.String(200), nullable=False),  # "login:a:ADDRESS", "login:n:NAME KEY", "signup:a:ADDRESS"
    sa.Column("at", sa.Float, nullable=False),  # wall-clock time, as every worker reads it
    sa.Index("belot_attempts_by_key", "key", "at"),
    sa.Index("belot_attempts_by_time", "at"),
)
reservations_table = sa.Table(
    "belot_reservations", metadata,  # a rematch's seats kept for the players of the finished match
    sa.Column("table_id", sa.String(32), sa.ForeignKey("belot_tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("until", sa.Float, nullable=False, index=True),
)


# Several workers on one database (``belot serve --worker``): each table in play is owned by one
# worker, that holds its lease until ``expires`` (renewed by the owner's heartbeat).  A table
# whose lease has expired is taken over by another worker.  New tables, not a new schema version:
# `migrate` creates them in any older database, and a single server never writes them.
workers_table = sa.Table(
    "belot_workers", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("address", sa.String(200), nullable=False),  # where the other workers reach it (http://host:port)
    sa.Column("seen", sa.Float, nullable=False),
)
leases_table = sa.Table(
    "belot_leases", metadata,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("worker", sa.String(32), nullable=False),
    sa.Column("expires", sa.Float, nullable=False),
)


_UNFINISHED = ("waiting", "playing")  # the statuses of a table in which something may still be played


class LeaseLost(RuntimeError):
    """This worker no longer owns the table it tried to write (another took it over)."""


# Built once: constructing a statement per action costs more than executing it.
_INSERT_MOVE = sa.insert(moves_table)
# A worker's action in one statement (PostgreSQL): renew the table's lease if this worker holds it
# and insert the move only then.  One round trip in autocommit instead of BEGIN, the fence, the
# insert and COMMIT (four): the worker waits for the database on its event loop.  The lease row is
# locked to the statement's commit, as in `Storage._fence`.  (The parameters are not named after
# the lease's columns: an UPDATE would take those for values to set.)
_LEASE = (sa.update(leases_table)
          .where(leases_table.c.table_id == sa.bindparam("lease_table"), leases_table.c.worker == sa.bindparam("lease_worker"))
          .values(expires=sa.bindparam("lease_expires", type_=sa.Float))
          .returning(leases_table.c.table_id)
          .cte("lease"))
_FENCED_MOVE = sa.insert(moves_table).from_select(
    ["table_id", "seq", "seat", "move", "bot", "at"],
    sa.select(_LEASE.c.table_id, sa.bindparam("seq", type_=sa.Integer), sa.bindparam("seat", type_=sa.Integer),
              sa.bindparam("move", type_=sa.Text), sa.bindparam("bot", type_=sa.Boolean),
              sa.bindparam("at", type_=sa.Float)),
).returning(moves_table.c.seq)


@dataclass
class DealRow:
    deal_index: int
    dealer: int
    hands: list[list[str]]


@dataclass
class StoredTable:
    """One table as stored: enough to rebuild its live state."""

    id: str
    created: float
    seed: int
    settings: dict[str, Any]
    status: str
    seats: dict[int, tuple[str | None, str | None]]  # seat -> (token hash, name)
    deals: list[DealRow] = field(default_factory=list)
    moves: list[tuple[int, Move, bool]] = field(default_factory=list)  # (seat, move, bot) by seq
    record: str | None = None
    kept: dict[int, float] = field(default_factory=dict)  # seat -> until when a rematch keeps it for its player
    seen: float | None = None  # when a person was last known at the table (None: one is, or bots only)


class StorageError(RuntimeError):
    """The database cannot be opened or is of an unknown schema."""


class Storage:
    """All the server's reads and writes.  Methods are short transactions; none holds game logic."""

    def __init__(self, url: str, checkpoint_every: float | None = None) -> None:
        """``checkpoint_every``: with SQLite, copy the journal into the database from a background
        thread every so many seconds instead of during a commit (a checkpoint waits for the disk,
        which would hold up the server's event loop; the thread does not hold the GIL meanwhile)."""
        url = engine_url(url)
        self.url = url
        self.sqlite = url.startswith("sqlite")
        # Set by a worker (`workers.Worker`): every write of a table then checks, in its own
        # transaction, that this worker still holds the table's lease (a fence: a worker that lost
        # a table can never write into its history, even if it has not noticed yet).
        self.worker: str | None = None
        self.lease_seconds = 6.0
        kwargs: dict[str, Any] = {}
        if self.sqlite:
            kwargs["connect_args"] = {"check_same_thread": False}
        self.engine: Engine = sa.create_engine(url, **kwargs)
        self._conn: sa.Connection | None = None
        self._autocommit: sa.Connection | None = None  # a worker's one-statement writes
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None
        if self.sqlite:
            background = checkpoint_every is not None
            sa.event.listen(self.engine, "connect", lambda dbapi, _rec: _sqlite_pragmas(dbapi, background))
        self.migrate()
        if self.sqlite and checkpoint_every is not None:
            self._checkpointer = threading.Thread(
                target=self._checkpoint_loop, args=(checkpoint_every,), name="belot-checkpoint", daemon=True
            )
            self._checkpointer.start()

    def _checkpoint_loop(self, every: float) -> None:
        while not self._stop.wait(every):
            try:
                with self.engine.connect() as c:
                    c.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            except sa.exc.SQLAlchemyError as e:  # the next round tries again; commits are safe in the journal
                log.warning("checkpoint failed: %s", e)

    @classmethod
    def for_path(cls, path: str) -> Storage:
        return cls(f"sqlite:///{path}")

    def close(self) -> None:
        if self._checkpointer is not None:
            self._stop.set()
            self._checkpointer.join(timeout=10)
            self._checkpointer = None
        for conn in (self._conn, self._autocommit):
            if conn is not None:
                conn.close()
        self._conn = self._autocommit = None
        self.engine.dispose()

    def _hot(self) -> sa.Connection:
        """One connection kept open for the per-action writes (a pool checkout each time costs more
        than the insert).  The server calls storage from its one event loop, never concurrently."""
        if self._conn is None or self._conn.closed or self._conn.invalidated:
            self._conn = self.engine.connect()
        return self._conn

    # -- schema -------------------------------------------------------------------------------

    def migrate(self) -> None:
        """Create the tables, or bring an older schema up to date (one step per version)."""
        metadata.create_all(self.engine)
        with self.engine.begin() as c:
            row = c.execute(sa.select(meta_table.c.value).where(meta_table.c.key == "schema_version")).first()
            version = int(row[0]) if row else 0
            if version > SCHEMA_VERSION:
                raise StorageError(
                    f"the database has schema version {version}, newer than this belot ({SCHEMA_VERSION})"
                )
            if row is not None:
                for step in range(version + 1, SCHEMA_VERSION + 1):
                    log.info("migrating the database to schema version %d", step)
                    STEPS[step](c)
            if row is None:
                c.execute(sa.insert(meta_table).values(key="schema_version", value=str(SCHEMA_VERSION)))
            elif version < SCHEMA_VERSION:
                c.execute(
                    sa.update(meta_table).where(meta_table.c.key == "schema_version").values(value=str(SCHEMA_VERSION))
                )

    # -- writes -------------------------------------------------------------------------------

    def create_table(
        self, table_id: str, seed: int, settings: dict[str, Any], status: str, first_deal: DealRow,
        open: bool = False, rematch_of: str | None = None, kept: dict[int, float] | None = None,
        attended: bool = True,
    ) -> float:
        """Store a new table; ``rematch_of``: it is the rematch of that finished table, whose players
        ``kept`` seats wait for (seat -> until when).  Each finished table has one rematch: a second
        one (another worker made it meanwhile) raises IntegrityError, and nothing is stored.
        ``attended``: it has a human seat, so it is closed once nobody is at it for long (its
        ``seen`` starts at its creation)."""
        created = time.time()
        with self.engine.begin() as c:
            c.execute(sa.insert(tables_table).values(
                id=table_id, created=created, seed=seed, settings=json.dumps(settings), status=status, open=open,
                seen=created if attended else None,
            ))
            c.execute(sa.insert(seats_table), [
                {"table_id": table_id, "seat": s, "token_hash": None, "name": None} for s in range(4)
            ])
            c.execute(sa.insert(deals_table).values(
                table_id=table_id, deal_index=first_deal.deal_index, dealer=first_deal.dealer,
                hands=json.dumps(first_deal.hands),
            ))
            if rematch_of is not None:
                c.execute(sa.insert(rematches_table).values(table_id=rematch_of, new_table_id=table_id))
            if kept:
                c.execute(sa.delete(reservations_table).where(reservations_table.c.until < created))
                c.execute(sa.insert(reservations_table), [
                    {"table_id": table_id, "seat": s, "until": until} for s, until in kept.items()
                ])
        return created

    def set_seat(
        self, table_id: str, seat: int, token_hash: str | None, name: str | None, status: str | None = None,
        open: bool | None = None,
    ) -> None:
        """Give the seat to a token (join) or free it (``token_hash`` None); optionally set the status
        and whether the lobby lists the table."""
        with self.engine.begin() as c:
            self._fence(c, table_id)
            c.execute(
                sa.update(seats_table)
                .where(seats_table.c.table_id == table_id, seats_table.c.seat == seat)
                .values(token_hash=token_hash, name=name)
            )
            rc = reservations_table.c
            c.execute(sa.delete(reservations_table).where(rc.table_id == table_id, rc.seat == seat))  # taken or given up
            values: dict[str, Any] = {}
            if status is not None:
                values["status"] = status
            if open is not None:
                values["open"] = open
            if values:
                c.execute(sa.update(tables_table).where(tables_table.c.id == table_id).values(**values))

    def append_action(
        self,
        table_id: str,
        seq: int,
        seat: int,
        move: Move,
        bot: bool,
        new_deals: Sequence[DealRow] = (),
        status: str | None = None,
        record: str | None = None,
    ) -> None:
        """One accepted action (in record notation), with the deal it caused to be dealt and the status
        it set, atomically.

        The primary key (table, seq) makes a second writer of the same step fail instead of forking
        the history.
        """
        if self.worker is not None and not new_deals and status is None and record is None:
            a = self._autocommit
            if a is None or a.closed or a.invalidated:
                a = self._autocommit = self.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
            done = a.execute(_FENCED_MOVE, {
                "lease_table": table_id, "lease_worker": self.worker, "lease_expires": time.time() + self.lease_seconds,
                "seq": seq, "seat": seat, "move": json.dumps(move), "bot": bot, "at": time.time(),
            })
            if done.first() is None:
                raise LeaseLost(f"worker {self.worker} does not own table {table_id}")
            return
        c = self._hot()
        with c.begin():
            self._fence(c, table_id)
            c.execute(_INSERT_MOVE, {
                "table_id": table_id, "seq": seq, "seat": seat, "move": json.dumps(move), "bot": bot,
                "at": time.time(),
            })
            if new_deals:
                c.execute(sa.insert(deals_table), [
                    {"table_id": table_id, "deal_index": d.deal_index, "dealer": d.dealer, "hands": json.dumps(d.hands)}
                    for d in new_deals
                ])
            if status is not None or record is not None:
                values: dict[str, Any] = {}
                if status is not None:
                    values["status"] = status
                    if status == "finished":
                        values["open"] = False
                        values["seen"] = None
                if record is not None:
                    values["record"] = record
                c.execute(sa.update(tables_table).where(tables_table.c.id == table_id).values(**values))

    # -- abandoned tables ------------------------------------------------------------------------

    def set_seen(self, table_id: str, seen: float | None) -> None:
        """When a person was last known at the table (None: one is there now).  Not a write of the
        game: no lease is needed, and an ended table keeps the value it had."""
        t = tables_table.c
        with self.engine.begin() as c:
            c.execute(sa.update(tables_table).where(t.id == table_id, t.status.in_(_UNFINISHED)).values(seen=seen))

    def seen_at_start(self, now: float) -> None:
        """On start nobody is connected: an unfinished table with a human seat that had a person at
        it when the server stopped (``seen`` NULL) has nobody from ``now``.  With several workers,
        only the tables no live worker owns."""
        t, lc = tables_table.c, leases_table.c
        q = sa.select(t.id, t.settings).where(t.status.in_(_UNFINISHED), t.seen.is_(None))
        if self.worker is not None:
            q = q.where(~sa.exists().where(lc.table_id == t.id, lc.expires >= now))
        with self.engine.begin() as c:
            ids = [r.id for r in c.execute(q) if "human" in json.loads(r.settings)["seats"]]
            for i in range(0, len(ids), 500):
                c.execute(sa.update(tables_table).where(t.id.in_(ids[i:i + 500]), t.seen.is_(None)).values(seen=now))

    def idle_ids(self, before: float) -> list[str]:
        """The unfinished tables nobody was known at since ``before``, the longest idle first."""
        t = tables_table.c
        with self.engine.connect() as c:
            return [r[0] for r in c.execute(sa.select(t.id).where(t.seen < before, t.status.in_(_UNFINISHED))
                                            .order_by(t.seen))]

    def abandon(self, table_id: str, before: float | None = None) -> bool:
        """Close an unfinished table as ``abandoned`` (every stored action stays; it leaves the lobby).
        ``before``: only if nobody was known at it since then, and (with several workers) no live
        worker owns it: a table that is not in this server's memory.  Without, the table is this
        server's own (a worker's write is fenced by its lease).  True if it was closed now."""
        t, lc = tables_table.c, leases_table.c
        where = [t.id == table_id, t.status.in_(_UNFINISHED)]
        if before is not None:
            where.append(t.seen < before)
            if self.worker is not None:
                where.append(~sa.exists().where(lc.table_id == t.id, lc.expires >= time.time()))
        with self.engine.begin() as c:
            if before is None:
                self._fence(c, table_id)
            done = c.execute(sa.update(tables_table).where(*where).values(status="abandoned", open=False, seen=None))
            return done.rowcount == 1

    # -- leases (several workers) --------------------------------------------------------------

    def _fence(self, c: sa.Connection, table_id: str) -> None:
        """In a worker's write transaction: renew the table's lease, or raise `LeaseLost`.  On
        PostgreSQL the updated lease row stays locked to the commit, so a takeover waits for this
        write (and then replays it) or this write sees the takeover and is refused."""
        if self.worker is None:
            return
        lc = leases_table.c
        done = c.execute(sa.update(leases_table).where(lc.table_id == table_id, lc.worker == self.worker)
                         .values(expires=time.time() + self.lease_seconds))
        if done.rowcount != 1:
            raise LeaseLost(f"worker {self.worker} does not own table {table_id}")

    def register_worker(self, worker: str, address: str) -> None:
        with self.engine.begin() as c:
            c.execute(sa.delete(workers_table).where(workers_table.c.id == worker))
            c.execute(sa.insert(workers_table).values(id=worker, address=address, seen=time.time()))

    def claim(self, table_id: str, worker: str) -> bool:
        """Take the table's lease if nobody holds it or it has expired (True), or renew our own."""
        now = time.time()
        lc = leases_table.c
        try:
            with self.engine.begin() as c:
                done = c.execute(sa.update(leases_table).where(
                    lc.table_id == table_id, sa.or_(lc.worker == worker, lc.expires < now),
                ).values(worker=worker, expires=now + self.lease_seconds))
                if done.rowcount == 1:
                    return True
                if c.execute(sa.select(lc.worker).where(lc.table_id == table_id)).first() is not None:
                    return False
                c.execute(sa.insert(leases_table).values(table_id=table_id, worker=worker,
                                                         expires=now + self.lease_seconds))
                return True
        except sa.exc.IntegrityError:  # another worker inserted it first
            return False

    def renew(self, worker: str) -> set[str]:
        """The heartbeat: extend every lease this worker holds (also the expired ones nobody took
        yet); returns the tables it holds."""
        now = time.time()
        lc = leases_table.c
        with self.engine.begin() as c:
            c.execute(sa.update(workers_table).where(workers_table.c.id == worker).values(seen=now))
            c.execute(sa.update(leases_table).where(lc.worker == worker).values(expires=now + self.lease_seconds))
            return {r[0] for r in c.execute(sa.select(lc.table_id).where(lc.worker == worker))}

    def release(self, table_id: str, worker: str) -> None:
        lc = leases_table.c
        with self.engine.begin() as c:
            c.execute(sa.delete(leases_table).where(lc.table_id == table_id, lc.worker == worker))

    def owner_of(self, table_id: str) -> tuple[str, str] | None:
        """(worker, address) of the live owner of a table, if any."""
        lc, w = leases_table.c, workers_table.c
        q = sa.select(lc.worker, w.address).join(workers_table, w.id == lc.worker).where(
            lc.table_id == table_id, lc.expires >= time.time())
        with self.engine.connect() as c:
            row = c.execute(q).first()
        return None if row is None else (row[0], row[1])

    def orphans(self, status: str) -> list[str]:
        """Tables of ``status`` that no live worker owns (never claimed, or their lease expired)."""
        t, lc = tables_table.c, leases_table.c
        q = (sa.select(t.id).outerjoin(leases_table, lc.table_id == t.id)
             .where(t.status == status, sa.or_(lc.table_id.is_(None), lc.expires < time.time()))
             .order_by(t.created))
        with self.engine.connect() as c:
            return [r[0] for r in c.execute(q)]

    # -- reads --------------------------------------------------------------------------------

    def unfinished_ids(self, status: str | None = None) -> list[str]:
        """The tables not finished (only those of ``status`` if given), oldest first."""
        where = tables_table.c.status != "finished" if status is None else tables_table.c.status == status
        with self.engine.connect() as c:
            rows = c.execute(sa.select(tables_table.c.id).where(where).order_by(tables_table.c.created))
            return [r[0] for r in rows]

    def open_page(self, limit: int, before: tuple[float, str] | None = None) -> list[tuple[float, str]]:
        """(created, id) of up to ``limit`` tables the lobby lists, newest first, older than ``before``."""
        t = tables_table.c
        q = sa.select(t.created, t.id).where(t.open == sa.true())
        if before is not None:
            q = q.where(sa.or_(t.created < before[0], sa.and_(t.created == before[0], t.id < before[1])))
        q = q.order_by(t.created.desc(), t.id.desc()).limit(limit)
        with self.engine.connect() as c:
            return [(r[0], r[1]) for r in c.execute(q)]

    def rematch_of(self, table_id: str) -> str | None:
        """The id of the rematch of the finished table ``table_id``, if one was made."""
        with self.engine.connect() as c:
            row = c.execute(sa.select(rematches_table.c.new_table_id)
                            .where(rematches_table.c.table_id == table_id)).first()
        return None if row is None else str(row[0])

    def recent_ids(self, limit: int = 100) -> list[str]:
        with self.engine.connect() as c:
            rows = c.execute(sa.select(tables_table.c.id).order_by(tables_table.c.created.desc()).limit(limit))
            return [r[0] for r in rows]

    def load(self, table_id: str) -> StoredTable | None:
        with self.engine.connect() as c:
            t = c.execute(sa.select(tables_table).where(tables_table.c.id == table_id)).first()
            if t is None:
                return None
            seats = {
                r.seat: (r.token_hash, r.name)
                for r in c.execute(sa.select(seats_table).where(seats_table.c.table_id == table_id))
            }
            deals = [
                DealRow(r.deal_index, r.dealer, json.loads(r.hands))
                for r in c.execute(
                    sa.select(deals_table).where(deals_table.c.table_id == table_id).order_by(deals_table.c.deal_index)
                )
            ]
            moves = [
                (r.seat, json.loads(r.move), bool(r.bot))
                for r in c.execute(
                    sa.select(moves_table.c.seq, moves_table.c.seat, moves_table.c.move, moves_table.c.bot)
                    .where(moves_table.c.table_id == table_id)
                    .order_by(moves_table.c.seq)
                )
            ]
            kept = {r.seat: r.until for r in c.execute(
                sa.select(reservations_table).where(reservations_table.c.table_id == table_id))}
        return StoredTable(
            id=t.id, created=t.created, seed=t.seed, settings=json.loads(t.settings), status=t.status,
            seats=seats, deals=deals, moves=moves, record=t.record, kept=kept, seen=t.seen,
        )


def engine_url(url: str) -> str:
    """``url`` with its driver named: a bare ``postgresql://`` (or ``postgres://``) is psycopg 3,
    the driver of the ``postgres`` extra (SQLAlchemy's own default, psycopg2, is not installed)."""
    for bare in ("postgresql://", "postgres://"):
        if url.startswith(bare):
            return "postgresql+psycopg://" + url.removeprefix(bare)
    return url


def is_server_url(url: str) -> bool:
    """A database server several processes can share (not a SQLite file)."""
    return not engine_url(url).startswith("sqlite")


def _sqlite_pragmas(dbapi_connection: Any, background_checkpoints: bool) -> None:
    # WAL + synchronous=NORMAL: a commit is in the journal before it returns, so it survives the
    # server process dying (SIGKILL); only a power loss may drop the very last commits.
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    # After a checkpoint the journal is cut back to this size: a burst of writes does not leave a
    # journal of hundreds of megabytes behind (a flood of tables once grew it to 284 MB).
    cur.execute("PRAGMA journal_size_limit=67108864")
    if background_checkpoints:
        cur.execute("PRAGMA wal_autocheckpoint=0")
    cur.close()


__all__ = ["SCHEMA_VERSION", "DealRow", "LeaseLost", "Storage", "StorageError", "StoredTable", "engine_url", "is_server_url"]
