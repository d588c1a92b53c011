"""House rules chosen at a table (docs/rules.md section 6, docs/protocol.md): the creation body's
``options`` are checked by `Rules.from_options`, stored with the table, played by its match, kept
through a restart, shown in the lobby and the table state, and carried by the finished record."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from test_server import make_client, new_table, state

from belot.server.storage import Storage

OPTIONS = ["OPT-SURCONTRA", "OPT-NONZERO"]


def stored_settings(tmp_path: Path, table_id: str) -> dict[str, Any]:
    stored = Storage(f"sqlite:///{tmp_path / 'belot.sqlite3'}").load(table_id)
    assert stored is not None
    return stored.settings


def test_options_are_stored_played_and_shown(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        r = client.post("/api/tables", json={"seats": ["human", "human", "bot:random", "bot:random"], "options": OPTIONS})
        assert r.status_code == 201, r.text
        table_id = r.json()["table"]["id"]
        table = client.app.state.lobby.tables[table_id]  # type: ignore[attr-defined]
        assert table.match.rules.options == tuple(OPTIONS)
        assert state(client, table_id)["table"]["options"] == OPTIONS
        assert client.get(f"/api/tables/{table_id}").json()["table"]["options"] == OPTIONS
        lobby = client.get("/api/tables").json()["tables"]
        assert [t["options"] for t in lobby if t["id"] == table_id] == [OPTIONS]
    assert stored_settings(tmp_path, table_id)["options"] == OPTIONS


def test_no_options_is_the_bulgarian_default(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        table_id, _ = new_table(client, ["human"] * 4)
        assert state(client, table_id)["table"]["options"] == []


def test_options_survive_a_restart(tmp_path: Path) -> None:
    with make_client(tmp_path) as client:
        table_id, tokens = new_table(client, ["human"] * 4, options=["OPT-CAPOT-EN", "OPT-NO-SHUFFLE"])
    with make_client(tmp_path) as client:
        m = state(client, table_id, tokens[0])
        assert m["table"]["options"] == ["OPT-CAPOT-EN", "OPT-NO-SHUFFLE"]
        table = client.app.state.lobby.tables[table_id]  # type: ignore[attr-defined]
        assert table.match.rules.options == ("OPT-CAPOT-EN", "OPT-NO-SHUFFLE")


def test_a_surkontra_replays_after_a_restart(tmp_path: Path) -> None:
    """R3.3 under OPT-SURCONTRA: the stored kontra action over a rekontra is a surkontra only if the
    restored match has the table's options; without them the stored game would not replay."""
    with make_client(tmp_path) as client:
        table_id, tokens = new_table(client, ["human"] * 4, target=1000, options=["OPT-SURCONTRA"])
        for _ in range(40):
            seat = state(client, table_id)["view"]["to_move"]
            v = state(client, table_id, tokens[seat])["view"]
            names = [a["call"] for a in v["legal"] if "call" in a]
            if v["multiplier"] == 8 or not names:
                break
            ours = seat % 2 == 0
            if not ours and not v["contract"]:
                pick = next(c for c in names if c in ("C", "D", "H", "S"))
            elif ours and v["contract"] and v["multiplier"] in (1, 4) and "kontra" in names:
                pick = "kontra"
            elif not ours and v["multiplier"] == 2 and "rekontra" in names:
                pick = "rekontra"
            else:
                pick = "pass"
            r = client.post(f"/api/tables/{table_id}/action", json={"token": tokens[seat], "action": {"call": pick}})
            assert r.status_code == 200, r.text
        before = state(client, table_id, tokens[0])
        assert before["view"]["multiplier"] == 8 and "surkontra" in [c["call"] for c in before["view"]["calls"]]
    with make_client(tmp_path) as client:
        after = state(client, table_id, tokens[0])
        assert after["view"] == before["view"] and after["seq"] == before["seq"]


def test_settings_stored_before_house_rules_restore_with_none() -> None:
    from belot.server.settings import Settings

    old = Settings().to_json()
    del old["options"]
    assert Settings.from_json(old).options == []


def test_finished_record_and_replay_carry_the_options(tmp_path: Path) -> None:
    """R3.3/R11.4 (OPT-SURCONTRA), R10 (OPT-NONZERO): a bots-only table to a low target."""
    with make_client(tmp_path) as client:
        r = client.post("/api/tables", json={"seats": ["bot:random"] * 4, "target": 1, "options": OPTIONS})
        assert r.status_code == 201, r.text
        table_id = r.json()["table"]["id"]
        end = time.monotonic() + 30
        while state(client, table_id)["table"]["status"] != "finished":
            assert time.monotonic() < end
            time.sleep(0.02)
        assert client.get(f"/api/tables/{table_id}/record").json()["options"] == OPTIONS
        replay = client.get(f"/api/tables/{table_id}/replay").json()
        assert replay["record"]["options"] == OPTIONS and replay["table"]["options"] == OPTIONS


@pytest.mark.parametrize("options, reason", [
    (["OPT-NOPE"], "unknown rule option 'OPT-NOPE'"),
    (["OPT-LATE-DECLARE"], "OPT-LATE-DECLARE is not supported"),
    (["OPT-CAPOT-NI", "OPT-CAPOT-EN"], "OPT-CAPOT-EN and OPT-CAPOT-NI exclude each other"),
    ("OPT-NONZERO", "options"),
    ([7], "options.0"),
])
def test_bad_options_are_refused_and_nothing_is_stored(tmp_path: Path, options: Any, reason: str) -> None:
    with make_client(tmp_path) as client:
        r = client.post("/api/tables", json={"seats": ["human"] * 4, "options": options})
        assert r.status_code == 400, r.text
        error = r.json()["error"]
        assert "options" in error["message"] and reason in error["message"], error
        assert client.get("/api/tables").json()["tables"] == []
    assert Storage(f"sqlite:///{tmp_path / 'belot.sqlite3'}").recent_ids() == []


def test_the_replay_says_which_declarations_counted_as_the_live_summary_does(tmp_path: Path) -> None:
    """The replay's deal summary listed no declaration: its results lacked what the live table's
    summary gets, each announced declaration with whether it counted (R7.6).  Under
    OPT-SINGLE-CONTEST (R7.6's one contest for sequences and carrés together) the verdicts agree with
    the points written, and the last deal's are the live table's own."""
    with make_client(tmp_path) as client:
        for _ in range(4):  # the server deals at random: most often the first match has declarations
            r = client.post("/api/tables", json={"seats": ["bot:heuristic"] * 4, "target": 151,
                                                 "options": ["OPT-SINGLE-CONTEST"]})
            assert r.status_code == 201, r.text
            table_id = r.json()["table"]["id"]
            end = time.monotonic() + 60
            while (live := state(client, table_id))["table"]["status"] != "finished":
                assert time.monotonic() < end
                time.sleep(0.02)
            deals = client.get(f"/api/tables/{table_id}/replay").json()["results"]["deals"]
            if any(any(d["declared_detail"]) for d in deals):
                break
        else:
            raise AssertionError("no declaration in four matches")
    for item in deals:
        detail = item["declared_detail"]
        assert item["declared"] == [[d["cards"] for d in seat] for seat in detail]
        if item["outcome"] == "redeal":  # all four passed: nothing declared, no declaration points written
            assert not any(detail) and "declarations" not in item, item
            continue
        for team in (0, 1):
            counted = sum(d["value"] for seat, ds in enumerate(detail) for d in ds if d["counted"] and seat % 2 == team)
            assert counted == item["declarations"][team], item
    last = {k: v for k, v in live["view"]["result"].items() if k in ("declared", "declared_detail")}
    assert last == {"declared": deals[-1]["declared"], "declared_detail": deals[-1]["declared_detail"]}
