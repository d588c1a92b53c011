"""What one client may ask of the server: bounded JSON, request sizes, connections and tables.

An open server meets hostile clients. Each limit here is one a real attack hit (issue 19): a JSON
integer of 4,301 digits or an array nested 100,000 deep made the decoder raise where nobody caught
it; a 200 MB body was read whole before it was refused; one address held a thousand sockets, or
created 20,000 tables in a minute. `Limits` holds the numbers (``belot serve`` flags set them);
`loads` decodes client JSON within fixed bounds; `Quota` counts what each address holds or did
lately. Over a limit the answer is a `TableError` (HTTP 413/429, or an ``error`` message and a
close over the websocket) that says which limit, never a 500.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
import time
from collections import defaultdict, deque
from dataclasses import dataclass
from typing import Any

from .errors import TableError

MAX_DEPTH = 16  # a client message or body nests 3 deep at most (an action's declare list)
MAX_DIGITS = 20  # no number of the protocol is longer; int() of 4,301+ digits raises anyway
MAX_HEAD = 64 * 1024  # bytes of a request's line and headers (browsers send a few KB, cookies included)


@dataclass(frozen=True)
class Limits:
    """The limits of one server; the defaults suit a public server (docs/protocol.md, "Limits")."""

    max_body: int = 64 * 1024  # bytes of one HTTP request body (the websocket's is uvicorn's ws_max_size)
    ws_per_address: int = 64  # open websockets of one client address
    ws_total: int = 4000  # open websockets of the whole server
    tables_per_minute: int = 20  # tables one address may create in a minute
    waiting_per_address: int = 10  # tables created by one address still waiting for players
    bot_tables: int = 8  # tables with no human seat playing at once, server-wide
    queued_analyses: int = 32  # analyses of finished games waiting for the one analysis worker, server-wide
    analyses_per_address: int = 4  # of those, asked by one address and not yet done
    page_size: int = 50  # tables in one page of the lobby (the most a client may ask for)


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKETS = str.maketrans("", "", "".join(chr(c) for c in range(128) if chr(c) not in "[]{}"))


def depth(text: str) -> int:
    """How deep the arrays and objects of the JSON ``text`` nest (strings skipped)."""
    opened = sum(text.count(c) for c in "[{")
    if opened <= MAX_DEPTH:
        return opened  # cannot be deeper than it has brackets: the common case costs two counts
    brackets = _STRING.sub("", text).translate(_BRACKETS)
    level = deepest = 0
    for ch in brackets:
        if ch in "[{":
            level += 1
            if level > deepest:
                deepest = level
        elif ch in "]}":
            level -= 1
    return deepest


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise TableError("bad_number", f"a number has at most {MAX_DIGITS} digits, not {len(text.lstrip('-'))}", 400,
                         detail={"limit": MAX_DIGITS})
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if len(text) > 2 * MAX_DIGITS or not math.isfinite(value):
        raise TableError("bad_number", f"{text[:2 * MAX_DIGITS]!r} is not a number this server accepts", 400)
    return value


def _constant(text: str) -> Any:
    raise TableError("bad_number", f"{text} is not a JSON number", 400)


def loads(text: str | bytes, what: str = "the message", invalid: str = "bad_json") -> Any:
    """Decode client JSON within `MAX_DEPTH` and `MAX_DIGITS`; TableError (400) saying what is wrong:
    ``too_deep``, ``bad_number``, or ``invalid`` (text that is not JSON at all).

    >>> loads('{"seat": 1}')
    {'seat': 1}
    >>> loads('[' * 50 + ']' * 50)
    Traceback (most recent call last):
    ...
    belot.server.errors.TableError: the message nests 50 deep; at most 16
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise TableError(invalid, f"{what} is not UTF-8 text", 400) from None
    deep = depth(text)
    if deep > MAX_DEPTH:
        raise TableError("too_deep", f"{what} nests {deep} deep; at most {MAX_DEPTH}", 400,
                         detail={"limit": MAX_DEPTH})
    try:
        return json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except (json.JSONDecodeError, RecursionError, ValueError):
        raise TableError(invalid, f"{what} is not valid JSON", 400) from None


class Quota:
    """What each client address holds (websockets) and did lately (tables created), against `Limits`.

    Addresses are as the server sees them: behind a reverse proxy every client shares the proxy's
    address unless uvicorn is told to trust its ``X-Forwarded-For``.
    """

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.sockets: dict[str, int] = defaultdict(int)
        self.sockets_total = 0
        self._created: dict[str, deque[float]] = {}

    def open_socket(self, address: str) -> None:
        """Count one more websocket of ``address``; TableError (429) when over a limit."""
        if self.sockets_total >= self.limits.ws_total:
            raise TableError("too_many_connections",
                             f"the server holds its limit of {self.limits.ws_total} connections; try again later", 429,
                             detail={"reason": "server", "limit": self.limits.ws_total})
        if self.sockets[address] >= self.limits.ws_per_address:
            raise TableError("too_many_connections",
                             f"your address holds its limit of {self.limits.ws_per_address} connections", 429,
                             detail={"reason": "address", "limit": self.limits.ws_per_address})
        self.sockets[address] += 1
        self.sockets_total += 1

    def close_socket(self, address: str) -> None:
        self.sockets_total -= 1
        self.sockets[address] -= 1
        if self.sockets[address] <= 0:
            del self.sockets[address]

    def create_table(self, address: str, now: float | None = None) -> None:
        """Count a table created by ``address``; TableError (429) beyond `Limits.tables_per_minute`."""
        now = time.monotonic() if now is None else now
        recent = self._created.setdefault(address, deque())
        while recent and recent[0] <= now - 60:
            recent.popleft()
        if len(recent) >= self.limits.tables_per_minute:
            wait = max(1, math.ceil(recent[0] + 60 - now))
            raise TableError("too_many_tables", f"your address created {len(recent)} tables in the last minute "
                             f"(at most {self.limits.tables_per_minute}); try again in {wait} s", 429,
                             detail={"reason": "created", "limit": self.limits.tables_per_minute, "retry_after": wait})
        recent.append(now)
        if len(self._created) > 10_000:  # forget addresses that created nothing lately
            for a in [a for a, q in self._created.items() if not q or q[-1] <= now - 60]:
                del self._created[a]




def guarded_http(base: type[asyncio.Protocol], per_address: int, idle: float) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol ``base``, with at most ``per_address`` open connections per client
    address and ``idle`` seconds for a connection to send a whole request (from its start, or from the
    answer to its last request).

    uvicorn keeps a connection that never sends a byte forever, and counts no address: one client
    held 1,003 idle sockets and every other connection got an empty reply. A connection over the
    limit is answered 429 and closed at once; it never reaches the app. Websockets are connections
    too (an upgrade keeps its socket), so this bound is above `Limits.ws_per_address`.
    """
    # The open connections of each address.  A websocket's transport leaves uvicorn's HTTP protocol
    # at the upgrade (no connection_lost here), so closed ones are dropped lazily: when the address
    # is at its limit, and whenever its set has doubled since the last pruning (amortized O(1) a
    # connection: behind a proxy every client has the proxy's address, thousands of connections).
    open_by: dict[str, set[asyncio.BaseTransport]] = {}
    prune_at: dict[str, int] = {}
    body = json.dumps({"error": {"code": "too_many_connections", "rule": None, "message":
                       f"your address holds its limit of {per_address} connections",
                       "detail": {"reason": "address", "limit": per_address}}}).encode()
    refusal = (b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\nconnection: close\r\n"
               b"content-length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
    body = json.dumps(TableError("too_large", f"a request's line and headers have at most {MAX_HEAD} bytes", 431,
                                 detail={"limit": MAX_HEAD}).http_json()).encode()
    head_too_large = (b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json\r\n"
                      b"connection: close\r\ncontent-length: " + str(len(body)).encode() + b"\r\n\r\n" + body)

    def prune(host: str, mine: set[asyncio.BaseTransport]) -> None:
        mine.difference_update([t for t in mine if t.is_closing()])
        prune_at[host] = 2 * len(mine) + 64

    class Guarded(base):  # type: ignore[misc, valid-type]
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)
            peer = transport.get_extra_info("peername")
            host = str(peer[0]) if isinstance(peer, tuple) and peer else ""
            mine = open_by.setdefault(host, set())
            if len(mine) >= per_address or len(mine) >= prune_at.get(host, 64):
                prune(host, mine)
            if len(mine) >= per_address:
                transport.write(refusal)  # type: ignore[attr-defined]
                transport.close()
                return
            mine.add(transport)
            if len(open_by) > 10_000:  # forget addresses whose connections all closed
                for h in [h for h, ts in open_by.items() if all(t.is_closing() for t in ts)]:
                    del open_by[h]
                    prune_at.pop(h, None)
            # The keep-alive timer, armed before the first request too (the first byte disarms it).
            self.timeout_keep_alive_task = self.loop.call_later(idle, self.timeout_keep_alive_handler)
            self._expect_request()

        # The whole request, head and body, is due within ``idle`` seconds of the connection, or of the
        # answer to the one before: the first byte alone was, and a client that sent one more header
        # line every few seconds (slowloris), or a body that never came whole, held its connection for ever.
        _deadline: asyncio.TimerHandle | None = None
        _awaited: object = None  # the request that was the connection's last when the deadline was set
        # Bytes of the request head coming in: uvicorn's httptools protocol keeps every header line
        # however many come, and four connections sending small headers for 10 s took 4.7 GB.
        _head_bytes = 0

        def _expect_request(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            self._awaited = self.cycle
            self._deadline = self.loop.call_later(idle, self._too_slow)

        def _too_slow(self) -> None:
            self._deadline = None
            if not self.transport.is_closing():
                self.transport.close()

        def data_received(self, data: bytes) -> None:
            before = self.cycle
            in_body = before is not None and before.more_body  # these bytes go on with its body
            super().data_received(data)
            cycle = self.cycle
            if self.transport.get_protocol() is self:
                if cycle is not before:  # a head came whole
                    self._head_bytes = 0
                elif not in_body:
                    self._head_bytes += len(data)
                    if self._head_bytes > MAX_HEAD and not self.transport.is_closing():
                        self.transport.write(head_too_large)  # type: ignore[attr-defined]
                        self.transport.close()
            if self._deadline is None:
                return
            whole = cycle is not None and cycle is not self._awaited and not cycle.more_body
            if whole or self.transport.is_closing() or self.transport.get_protocol() is not self:  # or a websocket now
                self._deadline.cancel()
                self._deadline = None

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self.timeout_keep_alive_task is not None and not self.transport.is_closing():  # kept alive, idle
                self._expect_request()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None
            super().connection_lost(exc)

    Guarded.__name__ = Guarded.__qualname__ = f"Guarded{base.__name__}"
    return Guarded


def guarded_websockets(base: Any) -> Any:
    """uvicorn's websocket protocol ``base``, leaving a client's ping unanswered while the client
    reads nothing of what it is sent.

    uvicorn's sans-I/O protocol (its choice when ``websockets`` is installed) writes the pong of each
    ping at once, whatever waits unsent: a client that sent pings and read nothing grew the server
    by 240 MB in 9 s, held as long as it kept the socket open.  While the socket's buffer is over its
    high-water mark (writing paused), a ping's pong is dropped instead: RFC 6455 (5.5.3) lets an
    endpoint answer only the latest of several pings, and this client has not read the last pongs.
    Another protocol (uvicorn's older ones wait for the client to read) is returned as it is.
    """
    if getattr(base, "__name__", None) != "WebSocketsSansIOProtocol":
        return base

    class Guarded(base):  # type: ignore[misc, valid-type]
        def handle_ping(self) -> None:
            if self.writable.is_set():
                super().handle_ping()
            else:
                self.conn.data_to_send()  # the pong the connection queued, dropped

    Guarded.__name__ = Guarded.__qualname__ = f"Guarded{base.__name__}"
    return Guarded


__all__ = ["MAX_DEPTH", "MAX_DIGITS", "MAX_HEAD", "Limits", "Quota", "depth", "guarded_http", "guarded_websockets", "loads"]
