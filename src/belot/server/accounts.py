"""Accounts of players who come back: a name, a password, a session cookie, a history and a rating.

Guests still play with no account. An account is a name (`names.clean_name`, unique ignoring case;
no other account nor guest may take one that looks like it, `Accounts.named_like`)
and a password, of which only an argon2id hash is stored (`argon2-cffi`). Logging in sets the
cookie ``belot_session`` (HttpOnly, SameSite=Lax, Secure over https) holding a random token of which
the database keeps only the SHA-256, like a seat's token; expired sessions are deleted (at start,
then at most hourly as sessions are made). Failed logins are counted per client address and per
account name in the database, so every worker on it shares the count (`LoginLimiter`): past the
limit a login is refused with 429 for a while, whatever the password. Passwords and tokens are
never logged nor sent back.

A logged-in player who creates or joins a table plays under the account's name, and the seat is
linked to the account (``belot_seat_accounts``): the lobby lists the account's running tables from
any browser, and `resume` gives the seat a fresh token there. When a match with at least one
account seat ends, `Accounts.finished` writes each account's line of history and its new rating
(`ratings.rate`) in one transaction.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import FastAPI, Request, Response
from pydantic import field_validator
from sqlalchemy.engine import Engine
from starlette.concurrency import run_in_threadpool

from . import ratings
from .errors import TableError
from .names import BadName, clean_name, clean_stored_name, look_alike_keys
from .requests import Body, parse, rematch_request
from .seats import token_hash
from .settings import ENDED, FINISHED
from .storage import (
    Storage,
    account_games_table,
    accounts_table,
    attempts_table,
    meta_table,
    seat_accounts_table,
    sessions_table,
    tables_table,
)

if TYPE_CHECKING:
    from .tables import Lobby, Table

COOKIE = "belot_session"
SESSION_DAYS = 30
SESSION_PURGE_EVERY = 3600.0  # seconds between two deletions of the expired sessions (a scan of the table)
MIN_PASSWORD = 8
LOOKS_REREAD = 64  # account ids `Accounts.named_like` reads again each time (see there)
MAX_PASSWORD = 256  # argon2 takes any length; a bound keeps a request's hashing cost bounded
HASHER = PasswordHasher()  # argon2id, the library's default cost (RFC 9106 low-memory profile)


def name_key(name: str) -> str:
    """What makes two names the same account: case and spacing ignored."""
    return name.casefold()


def check_password(password: str, new: bool) -> None:
    """Refuse a password no account can have: over `MAX_PASSWORD` characters, or (``new``: one being
    registered) under `MIN_PASSWORD`; TableError ``bad_password`` (400) whose ``detail`` names the
    bound (``limit``) and which side of it (``reason``: ``too_long`` / ``too_short``).  A login is
    refused too long the same way, before it is counted or hashed: no password of an account is."""
    if len(password) > MAX_PASSWORD:
        raise TableError("bad_password", f"a password has at most {MAX_PASSWORD} characters, not {len(password)}",
                         400, detail={"limit": MAX_PASSWORD, "reason": "too_long"})
    if new and len(password) < MIN_PASSWORD:
        raise TableError("bad_password", f"a password has at least {MIN_PASSWORD} characters", 400,
                         detail={"limit": MIN_PASSWORD, "reason": "too_short"})


class Credentials(Body):
    """``POST /api/accounts`` and ``POST /api/login``: a name and a password (its length is checked
    by `check_password`, so that a refusal names the bound)."""

    name: str
    password: str

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        return clean_name(v, "name")


class Rematch(Body):
    """``POST /api/tables/{id}/rematch``: the token of a seat of the finished table (or none: the
    logged-in account's seat)."""

    token: str | None = None


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    mu: float
    sigma: float
    games: int

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "rating": rating_json(self.mu, self.sigma), "games": self.games,
                "links": {"profile": f"/u/{self.name}"}}


def rating_json(mu: float, sigma: float) -> dict[str, float]:
    return {"mu": round(mu, 2), "sigma": round(sigma, 2), "ordinal": round(ratings.ordinal(mu, sigma), 2)}


class LoginLimiter:
    """Failed logins per client address and per account name in a sliding window, counted in the
    database (``belot_attempts``), so that every worker on one database shares the count.

    ``tries`` failures within ``window`` seconds, by an address or against a name, refuse the next
    login from that address or for that name until the oldest failure leaves the window. The clock
    is wall-clock time, which every worker reads alike (tests inject their own). Rows leave the
    table as they leave the window. A limiter that no `Accounts` has bound to its database (a test
    of the limiter alone) counts in a private database in memory.
    """

    def __init__(self, tries: int = 5, window: float = 300.0, clock: Callable[[], float] = time.time,
                 scope: str = "login") -> None:
        self.tries, self.window, self.clock, self.scope = tries, window, clock, scope
        self.engine: Engine | None = None

    def bind(self, engine: Engine) -> None:
        if self.engine is None:
            self.engine = engine

    def _db(self) -> Engine:
        if self.engine is None:
            self.engine = sa.create_engine("sqlite://", poolclass=sa.pool.StaticPool,
                                           connect_args={"check_same_thread": False})
            attempts_table.create(self.engine)
        return self.engine

    def keys(self, address: str, name: str | None = None) -> list[str]:
        """What is counted: the address, and the name (as accounts compare names) if given."""
        keys = [f"{self.scope}:a:{address}"]
        if name is not None:
            keys.append(f"{self.scope}:n:{name_key(name)}")
        return keys

    def over(self, keys: list[str], besides: Sequence[int] = ()) -> tuple[int, float] | None:
        """(attempts, the oldest's time) of the first key with ``tries`` attempts in the window, not
        counting the attempts ``besides``; None if no key is at its limit."""
        t = attempts_table.c
        with self._db().connect() as c:
            for key in keys:
                q = sa.select(sa.func.count(), sa.func.min(t.at)).where(t.key == key, t.at > self.clock() - self.window)
                if besides:
                    q = q.where(t.id.not_in(besides))
                n, oldest = c.execute(q).one()
                if n >= self.tries:
                    return int(n), float(oldest)
        return None

    def record(self, keys: list[str]) -> list[int]:
        """Count an attempt under each key (and drop this scope's attempts that left the window)."""
        t = attempts_table
        now = self.clock()
        with self._db().begin() as c:
            c.execute(sa.delete(t).where(t.c.key.startswith(f"{self.scope}:", autoescape=True),
                                         t.c.at <= now - self.window))
            ids = []
            for key in keys:
                row = c.execute(sa.insert(t).values(key=key, at=now)).inserted_primary_key
                assert row is not None
                ids.append(int(row[0]))
            return ids

    def forget(self, ids: Sequence[int]) -> None:
        with self._db().begin() as c:
            c.execute(sa.delete(attempts_table).where(attempts_table.c.id.in_(ids)))

    def hit(self, keys: list[str]) -> tuple[list[int], tuple[int, float] | None]:
        """One more attempt under ``keys``: its ids, or none and what `over` says if a key was at its
        limit (then nothing stays counted).

        The attempt is stored before the others are counted: of attempts made at once (in one
        worker or several) the later ones see the earlier, so no more than ``tries`` get through.
        """
        ids = self.record(keys)
        full = self.over(keys, besides=ids)
        if full is not None:
            self.forget(ids)
            return [], full
        return ids, None

    def wait(self, oldest: float) -> int:
        """Whole seconds until an attempt made at ``oldest`` leaves the window (at least 1)."""
        return max(1, int(oldest + self.window - self.clock()) + 1)

    def attempt(self, address: str, name: str) -> list[int]:
        """A login from ``address`` for ``name``, counted as a failure until `forget` (it succeeded);
        TableError (429) and nothing counted when the address or the name is at its limit."""
        ids, full = self.hit(self.keys(address, name))
        if full is not None:
            raise self._refusal(full[1])
        return ids

    def check(self, address: str, name: str) -> None:
        full = self.over(self.keys(address, name))
        if full is not None:
            raise self._refusal(full[1])

    def failed(self, address: str, name: str) -> None:
        self.record(self.keys(address, name))

    def _refusal(self, oldest: float) -> TableError:
        wait = self.wait(oldest)
        return TableError("too_many_logins", f"too many failed logins from your address or for this name; "
                          f"try again in {wait} seconds", 429, detail={"limit": self.tries, "retry_after": wait})


class Accounts:
    """The accounts' reads and writes (SQLAlchemy core, portable SQL) and what the routes decide."""

    def __init__(self, storage: Storage, limiter: LoginLimiter | None = None, signups_per_hour: int = 10) -> None:
        self.storage = storage
        self.engine = storage.engine
        self.limiter = limiter or LoginLimiter()
        self.limiter.bind(self.engine)
        # Each registration costs an argon2 hash (tens of ms and 64 MiB): a flood of them is refused.
        self.signups = LoginLimiter(tries=signups_per_hour, window=3600.0, clock=self.limiter.clock, scope="signup")
        self.signups.bind(self.engine)
        self._next_purge = 0.0  # when `new_session` next deletes the expired sessions
        # `named_like`: a look-alike key -> the first account's name of that look, read as accounts are added
        self._looks: dict[str, str] = {}
        self._looks_read = 0  # the highest account id read into `_looks`
        self._looks_lock = threading.Lock()

    def check_signup(self, address: str) -> None:
        _, full = self.signups.hit(self.signups.keys(address))
        if full is not None:
            raise TableError("too_many_accounts", f"your address registered {full[0]} accounts in the last hour "
                             f"(at most {self.signups.tries}); try again later", 429,
                             detail={"limit": self.signups.tries, "retry_after": self.signups.wait(full[1])})

    # -- accounts and sessions ------------------------------------------------------------------

    def register(self, name: str, password: str) -> Account:
        check_password(password, new=True)
        self._refuse_taken(name)  # at once, before the hash's tens of ms
        hashed = HASHER.hash(password)
        try:
            with self.engine.begin() as c:
                # Registrations one at a time, on every worker: "Ivan" and "Іvan" registered at the same
                # moment both passed the look-alike check and both became accounts.  Updating the schema's
                # row takes its row lock (PostgreSQL) or the database's write lock (SQLite) until the
                # commit, so the check below, read on this connection, sees every account registered
                # before (a second connection would wait for the pool behind registrations waiting here).
                c.execute(sa.update(meta_table).where(meta_table.c.key == "schema_version").values(value=meta_table.c.value))
                self._refuse_taken(name, c)
                c.execute(sa.insert(accounts_table).values(
                    name=name, name_key=name_key(name), password_hash=hashed, created=time.time(),
                    mu=ratings.DEFAULT_MU, sigma=ratings.DEFAULT_SIGMA, games=0,
                ))
        except sa.exc.IntegrityError:  # registered meanwhile
            raise TableError("name_taken", f"there is already an account named {name!r}", 409) from None
        account = self.by_name(name)
        assert account is not None
        return account

    def _refuse_taken(self, name: str, c: sa.Connection | None = None) -> None:
        like = self.named_like(name, c)
        if like is not None:  # the same name, or one that would pass for it at a table and in a history
            raise TableError("name_taken", f"there is already an account named {like!r}"
                             + ("" if like.casefold() == name.casefold() else f", which {name!r} looks like"), 409)

    def by_name(self, name: str, c: sa.Connection | None = None) -> Account | None:
        """The account of that name, ignoring case; read on ``c`` when given."""
        if c is None:
            with self.engine.connect() as own:
                return self.by_name(name, own)
        row = c.execute(sa.select(accounts_table).where(accounts_table.c.name_key == name_key(name))).first()
        return None if row is None else _account(row)

    def named_like(self, name: str, c: sa.Connection | None = None) -> str | None:
        """The name of an account that ``name`` is, ignoring case, or looks like (`names.look_alike_keys`:
        "Іvan" with a Cyrillic І for "Ivan"), or None.

        Accounts are only ever added, so each call reads only those added since the last one (by
        any worker on the database): one index range, usually empty.  The last few ids are read
        again, as a row committed late by another worker (PostgreSQL's ids are handed out before
        their commits) would otherwise be missed.  ``c``: the connection to read on (`register`'s,
        inside its transaction), else one of its own.
        """
        if c is None:
            with self.engine.connect() as own:
                return self.named_like(name, own)
        same = self.by_name(name, c)
        if same is not None:
            return same.name
        a = accounts_table.c
        rows = c.execute(sa.select(a.id, a.name).where(a.id > self._looks_read - LOOKS_REREAD).order_by(a.id)).all()
        with self._looks_lock:
            for row in rows:
                shown = clean_stored_name(row.name)
                for key in look_alike_keys(shown):
                    self._looks.setdefault(key, shown)
                self._looks_read = max(self._looks_read, row.id)
            return next((self._looks[key] for key in sorted(look_alike_keys(name)) if key in self._looks), None)

    def login(self, name: str, password: str, address: str) -> Account:
        # Counted as a failure from the start: guesses sent at once all count while argon2 runs.
        attempt = self.limiter.attempt(address, name)
        with self.engine.connect() as c:
            row = c.execute(sa.select(accounts_table).where(accounts_table.c.name_key == name_key(name))).first()
        ok = False
        try:
            # An unknown name costs a hash too, so the time does not tell which names exist.
            ok = HASHER.verify(row.password_hash if row is not None else _DUMMY_HASH, password)
        except (VerificationError, InvalidHashError):
            ok = False
        if row is None or not ok:
            raise TableError("bad_login", "wrong name or password", 401)
        self.limiter.forget(attempt)
        return _account(row)

    def new_session(self, account: Account) -> str:
        token = secrets.token_urlsafe(32)
        now = time.time()
        with self.engine.begin() as c:
            c.execute(sa.insert(sessions_table).values(
                token_hash=token_hash(token), account_id=account.id, created=now, expires=now + SESSION_DAYS * 86400,
            ))
        if now >= self._next_purge:
            self.purge_sessions()
        return token

    def purge_sessions(self) -> int:
        """Delete the expired sessions (at start, then at most hourly); returns how many."""
        now = time.time()
        self._next_purge = now + SESSION_PURGE_EVERY
        with self.engine.begin() as c:
            return int(c.execute(sa.delete(sessions_table).where(sessions_table.c.expires <= now)).rowcount)

    def end_session(self, token: str | None) -> None:
        if token:
            with self.engine.begin() as c:
                c.execute(sa.delete(sessions_table).where(sessions_table.c.token_hash == token_hash(token)))

    def of_session(self, token: str | None) -> Account | None:
        if not token or len(token) > 200:
            return None
        s, a = sessions_table.c, accounts_table
        with self.engine.connect() as c:
            row = c.execute(
                sa.select(a).join(sessions_table, s.account_id == a.c.id)
                .where(s.token_hash == token_hash(token), s.expires > time.time())
            ).first()
        return None if row is None else _account(row)

    def current(self, request: Request) -> Account | None:
        return self.of_session(request.cookies.get(COOKIE))

    # -- seats ----------------------------------------------------------------------------------

    def seat_name(self, account: Account | None, name: str | None) -> str | None:
        """The name a seat is taken under: the account's; a guest may not take an account's name."""
        if account is not None:
            return account.name
        if name is None:
            return None
        like = self.named_like(name)
        if like is not None:
            raise TableError("name_registered", f"{name!r} is the name of an account{_as(name, like)}; log in to play "
                             "under it, or choose another name", 409)
        return name

    def check_preset_names(self, names: Sequence[str | None], own_seat: int | None) -> None:
        """The names a new table gives its seats (``names``): a guest who takes such a seat plays under
        it, so none may be an account's, as no ``name`` of a guest may (`seat_name`).  ``own_seat``:
        the seat of a logged-in creator, whose name there is the account's whatever ``names`` says."""
        for i, name in enumerate(names):
            if name is None or i == own_seat:
                continue
            like = self.named_like(name)
            if like is not None:
                raise TableError("name_registered", f"names[{i}]: {name!r} is the name of an account{_as(name, like)}; "
                                 "a guest at that seat would play under it; choose another name", 409)

    def link(self, table_id: str, seat: int, account: Account | None) -> None:
        if account is None:
            return
        with self.engine.begin() as c:
            c.execute(sa.delete(seat_accounts_table).where(
                seat_accounts_table.c.table_id == table_id, seat_accounts_table.c.seat == seat))
            c.execute(sa.insert(seat_accounts_table).values(table_id=table_id, seat=seat, account_id=account.id))

    def unlink(self, table_id: str, seat: int) -> None:
        with self.engine.begin() as c:
            c.execute(sa.delete(seat_accounts_table).where(
                seat_accounts_table.c.table_id == table_id, seat_accounts_table.c.seat == seat))

    def linked(self, table_id: str) -> dict[int, int]:
        """seat -> account id of a table's account seats."""
        with self.engine.connect() as c:
            rows = c.execute(sa.select(seat_accounts_table.c.seat, seat_accounts_table.c.account_id)
                             .where(seat_accounts_table.c.table_id == table_id))
            return {r.seat: r.account_id for r in rows}

    def running(self, account: Account) -> list[tuple[str, int]]:
        """(table id, seat) of the account's tables still played (not finished or abandoned), newest first."""
        sa_, t = seat_accounts_table.c, tables_table.c
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(sa_.table_id, sa_.seat).join(tables_table, t.id == sa_.table_id)
                .where(sa_.account_id == account.id, t.status.notin_(ENDED)).order_by(t.created.desc()).limit(50)
            )
            return [(r.table_id, r.seat) for r in rows]

    # -- the end of a match ---------------------------------------------------------------------

    def finished(self, table: Table) -> None:
        """A match ended: each account seat's history line and new rating (once per table)."""
        links = self.linked(table.id)
        if not links or table.match.winner is None:
            return
        players_json = json.dumps(table.seats.players(), ensure_ascii=False)
        score = list(table.match.score)
        with self.engine.begin() as c:
            if c.execute(sa.select(account_games_table.c.table_id)
                         .where(account_games_table.c.table_id == table.id).limit(1)).first():
                return
            rows = {r.id: r for r in c.execute(sa.select(accounts_table).where(accounts_table.c.id.in_(set(links.values()))))}
            players: list[ratings.Player] = []
            seen: set[int] = set()
            for s, seat in enumerate(table.seats):
                aid = links.get(s)
                if aid is not None and aid in rows and aid not in seen:  # one account at two seats: rated once
                    seen.add(aid)
                    players.append(("account", rows[aid].mu, rows[aid].sigma))
                else:
                    players.append(seat.kind if not seat.is_human else "guest")
            new = ratings.rate(players, table.match.winner)
            now = time.time()
            for s, (mu, sigma) in new.items():
                old = rows[links[s]]
                c.execute(sa.update(accounts_table).where(accounts_table.c.id == old.id)
                          .values(mu=mu, sigma=sigma, games=accounts_table.c.games + 1))
                c.execute(sa.insert(account_games_table).values(
                    table_id=table.id, account_id=old.id, seat=s, finished=now, players=players_json,
                    score0=score[0], score1=score[1], winner=table.match.winner,
                    mu_before=old.mu, sigma_before=old.sigma, mu_after=mu, sigma_after=sigma,
                ))

    # -- pages ----------------------------------------------------------------------------------

    def profile(self, name: str, limit: int = 100) -> dict[str, Any]:
        account = self.by_name(name)
        if account is None:
            raise TableError("no_account", f"there is no account named {name!r}", 404)
        g = account_games_table.c
        with self.engine.connect() as c:
            rows = c.execute(sa.select(account_games_table).where(g.account_id == account.id)
                             .order_by(g.finished.desc()).limit(limit)).all()
        games = []
        for r in rows:
            names = [clean_stored_name(n) for n in json.loads(r.players)]
            team = r.seat % 2
            games.append({
                "table": r.table_id, "finished": r.finished, "seat": r.seat,
                "partner": names[(r.seat + 2) % 4], "opponents": [names[(r.seat + 1) % 4], names[(r.seat + 3) % 4]],
                "players": names, "score": [r.score0, r.score1], "winner": r.winner, "won": r.winner == team,
                "rating_before": rating_json(r.mu_before, r.sigma_before),
                "rating_after": rating_json(r.mu_after, r.sigma_after),
                "links": {"replay": f"/replay/{r.table_id}"},
            })
        return {"account": account.to_json(), "games": games}

    def leaderboard(self, limit: int = 100) -> list[dict[str, Any]]:
        a = accounts_table.c
        with self.engine.connect() as c:
            rows = c.execute(sa.select(accounts_table).where(a.games > 0)
                             .order_by((a.mu - 3 * a.sigma).desc(), a.name_key).limit(limit)).all()
        return [_account(r).to_json() for r in rows]


_DUMMY_HASH = HASHER.hash(secrets.token_urlsafe(16))


def _as(name: str, like: str) -> str:
    """Which account a refused guest's name is taken for, when it is not that name in another case."""
    return "" if name.casefold() == like.casefold() else f" or looks like one ({like!r})"


def _account(row: Any) -> Account:
    return Account(id=row.id, name=clean_stored_name(row.name), mu=row.mu, sigma=row.sigma, games=row.games)


def set_cookie(response: Response, request: Request, token: str) -> None:
    response.set_cookie(COOKIE, token, max_age=SESSION_DAYS * 86400, httponly=True, samesite="lax",
                        secure=request.url.scheme == "https", path="/")


def add_routes(app: FastAPI, lobby: Lobby, accounts: Accounts, body_of: Callable[[Request], Any],
               address_of: Callable[[Request], str]) -> None:
    """The account routes of docs/protocol.md ("Accounts")."""

    @app.post("/api/accounts", status_code=201)
    async def register(request: Request, response: Response) -> dict[str, Any]:
        body = parse(Credentials, await body_of(request))
        accounts.check_signup(address_of(request))
        account = await run_in_threadpool(accounts.register, body.name, body.password)
        set_cookie(response, request, accounts.new_session(account))
        return {"account": account.to_json()}

    @app.post("/api/login")
    async def login(request: Request, response: Response) -> dict[str, Any]:
        body = parse(Credentials, await body_of(request))
        check_password(body.password, new=False)
        account = await run_in_threadpool(accounts.login, body.name, body.password, address_of(request))
        set_cookie(response, request, accounts.new_session(account))
        return {"account": account.to_json()}

    @app.post("/api/logout")
    async def logout(request: Request, response: Response) -> dict[str, Any]:
        accounts.end_session(request.cookies.get(COOKIE))
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
        return {"account": None}

    @app.get("/api/me")
    async def me(request: Request) -> dict[str, Any]:
        account = accounts.current(request)
        if account is None:
            return {"account": None, "tables": []}
        tables = []
        for table_id, seat in accounts.running(account):
            table = lobby.get(table_id)
            if table is not None and table.status not in ENDED:
                tables.append({"table": table.info(), "seat": seat})
        return {"account": account.to_json(), "tables": tables}

    @app.get("/api/users/{name}")
    async def profile(name: str) -> dict[str, Any]:
        try:
            name = clean_name(name)
        except BadName:
            raise TableError("no_account", "there is no account of that name", 404) from None
        return accounts.profile(name)

    @app.get("/api/leaderboard")
    async def leaderboard() -> dict[str, Any]:
        bots = [{"bot": b, "mu": round(mu, 2), "sigma": ratings.BOT_SIGMA,
                 "ordinal": round(ratings.ordinal(mu, ratings.BOT_SIGMA), 2)} for b, mu in ratings.bot_ratings().items()]
        return {"players": accounts.leaderboard(), "bots": bots}

    @app.post("/api/tables/{table_id}/resume")
    async def resume(table_id: str, request: Request) -> dict[str, Any]:
        """A fresh token for the logged-in account's seat at a running table (another browser)."""
        account = accounts.current(request)
        if account is None:
            raise TableError("not_logged_in", "log in to return to your tables", 401)
        table = _table(lobby, table_id)
        seats = [s for s, aid in accounts.linked(table_id).items() if aid == account.id]
        if seats:
            table.check_open()  # abandoned: refused by name
        if not seats or table.status in ENDED:
            raise TableError("not_your_table", "your account holds no seat at this running table", 403)
        token = table.new_token(seats[0])
        return {"table": table.info(), "seat": seats[0], "token": token}

    @app.post("/api/tables/{table_id}/rematch")
    async def rematch(table_id: str, request: Request) -> dict[str, Any]:
        """A new match with the same seats and settings; each player of the finished one who asks
        gets their same seat there (the first to ask creates it).  Until `Lobby.rematch_hold` has
        passed, the seats the finished match's people held are kept for them: nobody else may
        take one.  With several workers `workers.Forward` sends this request to the owner of the
        rematch once there is one."""
        table = _table(lobby, table_id)
        body = parse(Rematch, await body_of(request))
        account = accounts.current(request)
        links = accounts.linked(table_id)
        seat = table.seat_of(body.token)
        if seat is None and account is not None:
            seat = next((s for s, aid in links.items() if aid == account.id), None)
        if seat is None:
            raise TableError("bad_token", "only a player of this table may ask for a rematch", 403)
        if table.status != FINISHED:
            raise TableError("in_progress", "the match is not finished", 409)
        new_id = lobby.storage.rematch_of(table_id)
        new = lobby.get(new_id) if new_id else None
        if new_id is None:
            # every setting, as stored (the house rules were left out, and the rematch played without them)
            request_body = rematch_request(table.settings)
            people = {i for i, st in enumerate(table.seats) if st.is_human and st.token_hash is not None} | set(links)
            try:
                new, _, _ = lobby.create(request_body, address_of(request), rematch_of=table_id, keep=people)
            except sa.exc.IntegrityError:  # another worker made it meanwhile: ask again, to reach its owner
                new = None
        if new is None:
            raise TableError("moved", "another server holds the rematch of this table; try again", 503)
        name = account.name if account is not None else table.seats[seat].name
        linked = links.get(seat)
        if account is not None and linked is not None and linked != account.id:
            account = None  # the seat was another account's: join as its guest name
            name = table.seats[seat].name
        if new.seats[seat].taken:  # asked again (Back, then Rematch): the first answer's browser holds it
            raise TableError("rematch_taken", f"your seat {seat} of the rematch {new.id} is taken already: by the "
                             "browser that asked first, or by someone else once the hold lapsed", 409,
                             detail={"seat": seat, "table": new.id})
        got, token = new.join(seat, name, keeper=True)
        accounts.link(new.id, got, account if account is not None and linked == account.id else None)
        return {"table": new.info(), "seat": got, "token": token}


def _table(lobby: Lobby, table_id: str) -> Table:
    table = lobby.get(table_id)
    if table is None:
        raise TableError("no_table", f"there is no table {table_id!r}", 404)
    return table


__all__ = ["COOKIE", "Account", "Accounts", "Credentials", "LoginLimiter", "add_routes", "check_password", "name_key"]
