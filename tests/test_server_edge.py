"""The server's edge on its own: names cleaned (NFC, no lone surrogates, controls or invisible
characters, at most 32 characters) and one process per database file."""

from __future__ import annotations

import os
import subprocess
import sys
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from belot.server.names import MAX_NAME, BadName, clean_name, clean_stored_name
from belot.server.owner import DatabaseOwned, Owner


@pytest.mark.parametrize("bad", [
    "\ud800", "a\udfffb", "", "   ", "\u200b", "\u202eevil", "a\x00b", "tab\there", "x" * 33, 5, None, ["a"],
    "\u2028", "\ue000",
])
def test_bad_names_are_refused_naming_the_field(bad):
    with pytest.raises(BadName, match=r"^names\[2\]: "):
        clean_name(bad, "names[2]")


@pytest.mark.parametrize("raw,clean", [
    ("  Ayşe  ", "Ayşe"), ("Иван", "Иван"), ("A\u0301da", "Áda"), ("a  b", "a b"), ("x" * 32, "x" * 32),
    ("Ahmet 😀", "Ahmet 😀"),
])
def test_good_names_are_normalised(raw, clean):
    assert clean_name(raw) == clean


@given(st.text(alphabet=st.characters(codec=None), max_size=40))
def test_any_text_is_refused_or_stored_safely(text):
    """Whatever a client sends: either a clear refusal, or a name that encodes, is NFC, is short and
    has no invisible or control character; and a stored value is always made safe to show."""
    try:
        name = clean_name(text)
    except BadName as e:
        assert str(e).startswith("name: ")
    else:
        name.encode("utf-8")
        assert unicodedata.normalize("NFC", name) == name and 0 < len(name) <= MAX_NAME
        assert not any(unicodedata.category(ch) in ("Cc", "Cf", "Cs") for ch in name)
    shown = clean_stored_name(text)
    shown.encode("utf-8")
    assert 0 < len(shown) <= MAX_NAME


def test_a_second_owner_is_refused_and_named(tmp_path):
    db = tmp_path / "belot.sqlite3"
    with Owner(str(db)), pytest.raises(DatabaseOwned, match=r"process \d+ on "):
        Owner(str(db)).acquire()
    Owner(str(db)).acquire().release()  # released: free again


def test_a_second_owner_by_another_name_of_the_file_is_refused(tmp_path):
    """A symbolic link to the database is the same database: its lock was beside the link, and two
    servers played the same tables."""
    db = tmp_path / "belot.sqlite3"
    db.touch()
    (tmp_path / "link.sqlite3").symlink_to(db)
    (tmp_path / "folder").mkdir()
    (tmp_path / "folder" / "db.sqlite3").symlink_to("../link.sqlite3")
    with Owner(str(db)):
        for other in (tmp_path / "link.sqlite3", tmp_path / "folder" / "db.sqlite3"):
            with pytest.raises(DatabaseOwned, match=r"process \d+ on "):
                Owner(str(other)).acquire()
    with Owner(str(tmp_path / "link.sqlite3")), pytest.raises(DatabaseOwned):
        Owner(str(db)).acquire()


def test_a_second_owner_by_a_hard_link_is_refused(tmp_path):
    """A hard link is the same file under a name of its own (here in another folder), and its
    ``.owner`` file is another: two servers on it played the same tables."""
    db = tmp_path / "belot.sqlite3"
    db.touch()
    (tmp_path / "other").mkdir()
    os.link(db, tmp_path / "other" / "copy.sqlite3")
    with Owner(str(db)), pytest.raises(DatabaseOwned, match="hard link"):
        Owner(str(tmp_path / "other" / "copy.sqlite3")).acquire()
    with Owner(str(tmp_path / "other" / "copy.sqlite3")), pytest.raises(DatabaseOwned):
        Owner(str(db)).acquire()
    Owner(str(db)).acquire().release()  # both released: free again


def test_the_lock_goes_with_a_killed_process(tmp_path):
    """SIGKILL drops the lock: a restart after a crash is not blocked by a stale owner file."""
    db = tmp_path / "belot.sqlite3"
    code = f"import sys,time; from belot.server.owner import Owner; o = Owner({str(db)!r}).acquire(); print('held', flush=True); time.sleep(60)"
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert p.stdout is not None and p.stdout.readline().strip() == "held"
        with pytest.raises(DatabaseOwned, match=f"process {p.pid} "):
            Owner(str(db)).acquire()
    finally:
        p.kill()
        p.wait()
    Owner(str(db)).acquire().release()
