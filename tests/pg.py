"""A throwaway PostgreSQL cluster for the server tests: `initdb` in a temporary folder, one server
on a free local port, a fresh database per test.

PostgreSQL refuses to run as root, so as root the cluster belongs to an unprivileged user
(``nobody``) and its programs run through ``runuser``.  Where no cluster can be started (no
PostgreSQL programs, no psycopg) the PostgreSQL tests skip with the reason; with
``BELOT_REQUIRE_POSTGRES=1`` (CI, `.ci/run`) they fail instead.
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile

import pytest

REQUIRED = os.environ.get("BELOT_REQUIRE_POSTGRES") == "1"
USER = "nobody"  # runs the cluster when the tests run as root


def unavailable(reason: str) -> None:
    if REQUIRED:
        pytest.fail(f"PostgreSQL is required (BELOT_REQUIRE_POSTGRES=1) but {reason}")
    pytest.skip(f"no PostgreSQL server can be started here: {reason}")


def _bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)
    return candidates[0] if candidates else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    """One running PostgreSQL server; `new_database` hands out an empty database's URL.

    For tests it skips what makes a commit durable (fsync, synchronous commit, full page writes):
    faster, and nothing outlives the cluster.  ``durable=True`` keeps PostgreSQL's defaults, as a
    deployment does (the benchmarks use it).
    """

    def __init__(self, durable: bool = False) -> None:
        initdb, pg_ctl = _bin("initdb"), _bin("pg_ctl")
        if initdb is None or pg_ctl is None:
            raise RuntimeError("initdb/pg_ctl not found (install Debian's postgresql package)")
        try:
            import psycopg  # noqa: F401
        except ImportError as e:
            raise RuntimeError("psycopg is not installed (pip install -e '.[postgres]')") from e
        self.pg_ctl = pg_ctl
        self.dir = tempfile.mkdtemp(prefix="belot-pg-")
        self.data = os.path.join(self.dir, "data")
        self.prefix: list[str] = []
        if os.geteuid() == 0:
            runuser = shutil.which("runuser")
            if runuser is None:
                raise RuntimeError("running as root and runuser is missing")
            os.chmod(self.dir, 0o755)
            shutil.chown(self.dir, USER)
            self.prefix = [runuser, "-u", USER, "--"]
        self.port = _free_port()
        self._run([initdb, "-D", self.data, "-U", "belot", "--auth=trust", "-E", "UTF8", "--no-sync"])
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.dir} -c max_connections=200"
        if not durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run([pg_ctl, "-D", self.data, "-o", options, "-l", os.path.join(self.dir, "log"), "-w", "start"])
        self._names = itertools.count()

    def _run(self, cmd: list[str]) -> None:
        r = subprocess.run(self.prefix + cmd, capture_output=True, text=True, cwd=self.dir)
        if r.returncode != 0:
            raise RuntimeError(f"{os.path.basename(cmd[0])} failed: {(r.stderr or r.stdout).strip()[-500:]}")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://belot@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        import psycopg

        name = f"belot_test_{os.getpid()}_{next(self._names)}"
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=belot dbname=postgres", autocommit=True) as c:
            c.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        subprocess.run([*self.prefix, self.pg_ctl, "-D", self.data, "-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(self.dir, ignore_errors=True)


_cluster: Cluster | None = None
_failure: str | None = None


def cluster() -> Cluster:
    """The session's cluster, started on first use (skips, or fails when required, if it cannot be)."""
    global _cluster, _failure
    if _cluster is None and _failure is None:
        try:
            _cluster = Cluster()
        except (RuntimeError, OSError) as e:
            _failure = str(e)
    if _cluster is None:
        unavailable(_failure or "unknown")
    assert _cluster is not None
    return _cluster


def stop() -> None:
    global _cluster
    if _cluster is not None:
        _cluster.stop()
        _cluster = None


def database_url(kind: str, sqlite_path: str) -> str:
    """The URL of an empty database of ``kind`` ("sqlite": the file ``sqlite_path``)."""
    if kind == "sqlite":
        return f"sqlite:///{sqlite_path}"
    return cluster().new_database()
