"""One server process owns a database file: a second one refuses to start and names the first.

Two `belot serve` processes on one SQLite file both restored and played the same tables (each
refusing the other's writes, freezing them, and seating two people in one seat). The owner holds
an exclusive `flock` on ``<database>.owner`` (beside the file itself, symbolic links followed) for its whole life and writes its pid, host and start
time into it; the operating system drops the lock when the process ends, also on SIGKILL, so a
restart after a crash is never blocked by a stale lock. A hard link is another name of the same
file in a folder of its own, beside which the ``.owner`` file differs: so the owner also holds a
`flock` on the database file itself (one inode, whatever its name), kept open until the process
ends (closing another descriptor of the file would drop SQLite's own POSIX locks in this process;
`flock` locks are apart from those on Linux). Databases that are not a local file
(a server URL such as PostgreSQL) are not locked here: several servers share one with
``belot serve --worker``, which gives each table one owner by a lease (`workers`).
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import time
from typing import IO, Self


class DatabaseOwned(RuntimeError):
    """Another live process owns the database; the message names it."""


class Owner:
    """The lock of one process on one database file (a context manager; `release` ends it)."""

    def __init__(self, db_path: str) -> None:
        # The file's own path: by a symbolic link it is the same database, and must meet the same lock.
        self.db = os.path.realpath(db_path)
        self.path = self.db + ".owner"
        self._file: IO[str] | None = None
        self._db_fd: int | None = None

    def acquire(self) -> Self:
        f = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 - held open for the process's life
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            f.seek(0)
            other = _describe(f.read())
            f.close()
            raise DatabaseOwned(f"the database is in use by another belot serve ({other}); "
                                "stop that server first, or give this one another --db") from None
        try:
            fd = os.open(self.db, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError:
            f.close()
            raise
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            f.close()
            raise DatabaseOwned("the database is in use by another belot serve, which opened it by another "
                                "name (a hard link to the same file); stop that server first, or give this one "
                                "another --db") from None
        f.seek(0)
        f.truncate()
        f.write(json.dumps({"pid": os.getpid(), "host": socket.gethostname(), "since": time.time()}))
        f.flush()
        self._file, self._db_fd = f, fd
        return self

    def release(self) -> None:
        """Drop both locks: at the process's end, once the database is no longer used here."""
        if self._db_fd is not None:
            os.close(self._db_fd)
            self._db_fd = None
        if self._file is not None:
            self._file.close()  # closing drops the lock
            self._file = None

    def __enter__(self) -> Self:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def _describe(text: str) -> str:
    try:
        info = json.loads(text)
        since = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(float(info["since"])))
        return f"process {int(info['pid'])} on {info['host']}, since {since}"
    except (ValueError, KeyError, TypeError):
        return "a process that left no details"
