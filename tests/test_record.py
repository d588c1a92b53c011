"""belot-record/1: the shared examples replay exactly; writing round-trips; bad records exit 2."""

import copy
import json
import os
import re
import subprocess
import sys

import pytest
from conftest import make_hands
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from belot.cli import main
from belot.contracts import AT
from belot.declarations import DECLARATIONS
from belot.errors import RecordError
from belot.game import CALL_BASE, DECLARE_BASE, Match
from belot.record import dumps, loads, replay, results, to_json


def load_example(examples_dir, n):
    return json.loads((examples_dir / f"match-{n}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("n", [1, 2, 3])
def test_examples_replay_to_their_results(examples_dir, n):
    m = replay(load_example(examples_dir, n))
    expected = json.loads((examples_dir / f"match-{n}.results.json").read_text(encoding="utf-8"))
    assert results(m) == expected


@pytest.mark.parametrize("n", [1, 2, 3])
def test_examples_round_trip(examples_dir, n):
    doc = load_example(examples_dir, n)
    assert to_json(replay(doc)) == doc
    assert to_json(loads(dumps(replay(doc)))) == doc


def test_examples_are_the_shared_ones():
    from conftest import EXAMPLES, SHARED

    shared = SHARED / "examples"
    if not shared.is_dir():
        pytest.skip(f"no shared/ folder beside the checkout ({shared}) to compare the copies with")
    for p in sorted(shared.glob("*.json")):
        assert (EXAMPLES / p.name).read_bytes() == p.read_bytes(), p.name


def test_replay_json_cli(examples_dir, capsys):
    assert main(["replay", str(examples_dir / "match-2.json"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == json.loads((examples_dir / "match-2.results.json").read_text(encoding="utf-8"))


def test_replay_text_cli(examples_dir, capsys):
    assert main(["replay", str(examples_dir / "match-1.json")]) == 0
    out = capsys.readouterr().out
    assert "Deal 1: H by" in out and "made" in out and "wins" in out
    assert "score 289 - 171" in out.replace("  ", " ") or "289 - 171" in out


def test_a_record_may_stop_in_the_middle_of_a_deal(examples_dir):
    doc = load_example(examples_dir, 1)
    doc["deals"] = doc["deals"][:2]
    doc["deals"][1]["play"] = doc["deals"][1]["play"][:13]
    m = replay(doc)
    r = results(m)
    assert r["deals"][-1]["outcome"] is None and len(r["deals"][-1]["tricks"]) == 3
    assert to_json(m) == doc


def _error(doc) -> str:
    with pytest.raises(RecordError) as e:
        replay(doc)
    return str(e.value)


def _cli_error(tmp_path, capsys, text: str) -> str:
    p = tmp_path / "bad.json"
    p.write_text(text, encoding="utf-8")
    assert main(["replay", str(p)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err
    return err


def test_bad_json_exit_2(tmp_path, capsys):
    assert "not valid JSON" in _cli_error(tmp_path, capsys, '{"format": "belot-record/1", ')


def test_unknown_fields_are_errors(examples_dir):
    doc = load_example(examples_dir, 1)
    doc["comment"] = "x"
    assert "unknown field 'comment'" in _error(doc)
    doc = load_example(examples_dir, 1)
    doc["deals"][2]["note"] = 1
    assert _error(doc) == "deal 2: unknown field 'note'"
    doc = load_example(examples_dir, 1)
    doc["deals"][0]["play"][0]["why"] = 1
    assert _error(doc) == "deal 0, play[0]: unknown field 'why'"


def test_unknown_and_unsupported_options(examples_dir):
    doc = load_example(examples_dir, 1)
    doc["options"] = ["OPT-NOPE"]
    assert "unknown rule option 'OPT-NOPE'" in _error(doc)
    doc["options"] = ["OPT-LATE-DECLARE"]
    assert "OPT-LATE-DECLARE is not supported: it needs declarations announced out of turn" in _error(doc)
    doc["options"] = ["OPT-CAPOT-NI", "OPT-CAPOT-EN"]
    assert "options: rule options OPT-CAPOT-EN and OPT-CAPOT-NI exclude each other (R12)" in _error(doc)
    doc["options"] = [7]
    assert "rule option 7 is not a name" in _error(doc)


def test_card_not_held(examples_dir):
    doc = load_example(examples_dir, 1)
    # deal 0: seat 1 (forehand) leads; 9D belongs to seat 2
    doc["deals"][0]["play"][0] = "9D"
    assert _error(doc) == "deal 0, play[0]: 9D is not in the player's hand (R5.1)"


def test_illegal_card(examples_dir):
    doc = load_example(examples_dir, 1)
    # deal 0, hearts: seat 1 leads 7D; seat 2 holds 9D and KD and must follow diamonds
    doc["deals"][0]["play"][1] = "QH"
    assert _error(doc) == "deal 0, play[1]: QH is not legal: must follow diamonds (R5.2)"


def test_false_declaration(examples_dir):
    doc = load_example(examples_dir, 1)
    doc["deals"][0]["play"][1] = {"card": "9D", "declare": [["7C", "8C", "9C"]]}
    assert "deal 0, play[1]: false declaration 7C 8C 9C: the player does not hold it" in _error(doc)
    doc["deals"][0]["play"][1] = {"card": "9D", "declare": [["QH", "KC", "QC"]]}
    assert "not a sequence" in _error(doc)


def test_declaration_after_trick_one(examples_dir):
    doc = load_example(examples_dir, 1)
    doc["deals"][0]["play"][4] = {"card": doc["deals"][0]["play"][4], "declare": [["7C", "8C", "9C"]]}
    assert "deal 0, play[4]: declarations are made" in _error(doc) and "(R7.5)" in _error(doc)


def test_false_belote(examples_dir):
    doc = load_example(examples_dir, 1)
    doc["deals"][0]["play"][1] = {"card": "9D", "belote": True}
    assert _error(doc) == (
        "deal 0, play[1]: no belote with 9D: belote is the king and queen of one suit (R7.7)"
    )


def test_illegal_call(examples_dir):
    doc = load_example(examples_dir, 1)
    doc["deals"][0]["auction"] = ["H", "kontra", "kontra"]
    assert _error(doc).startswith("deal 0, auction[2]: kontra is not legal")
    doc["deals"][0]["auction"] = ["H", "double"]
    assert "deal 0, auction[1]: 'double' is not a call" in _error(doc)


def test_play_after_the_match_is_won(examples_dir):
    doc = load_example(examples_dir, 1)
    extra = copy.deepcopy(doc["deals"][-1])
    extra["dealer"] = (extra["dealer"] + 1) % 4
    doc["deals"].append(extra)
    n = len(doc["deals"]) - 1
    assert _error(doc) == f"deal {n}: the match was already won by team 0 (R12.1)"


def test_unfinished_deal_followed_by_another(examples_dir):
    doc = load_example(examples_dir, 1)
    doc["deals"][0]["play"] = doc["deals"][0]["play"][:5]
    assert _error(doc) == "deal 0: the deal is not finished but another deal follows"


def test_wrong_dealer(examples_dir):
    doc = load_example(examples_dir, 1)
    doc["deals"][1]["dealer"] = 3
    assert _error(doc) == "deal 1: the dealer must be seat 1, the right of the last dealer, not 3 (R2.1)"


def test_structural_errors():
    assert "format must be" in _error({"format": "x", "deals": []})
    assert "must be a JSON object" in _error([])
    assert "target must be" in _error({"format": "belot-record/1", "target": -3, "deals": []})
    assert "deal 0: missing field 'hands'" in _error({"format": "belot-record/1", "deals": [{"dealer": 0}]})


def test_missing_file_exit_2(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nope.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_cli_exit_status_in_a_real_process(tmp_path):
    p = tmp_path / "bad.json"
    p.write_text("[1, 2", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "belot", "replay", str(p)], capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.startswith("belot replay: the record is not valid JSON")
    assert proc.stdout == ""


def test_random_match_cli_is_reproducible_and_replays(tmp_path, capsys):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert main(["random-match", "--seed", "7", "--out", str(a)]) == 0
    assert main(["random-match", "--seed", "7", "--out", str(b)]) == 0
    assert a.read_bytes() == b.read_bytes()
    capsys.readouterr()
    assert main(["replay", str(a), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["winner"] in (0, 1)
    m = replay(json.loads(a.read_text(encoding="utf-8")))
    assert isinstance(m, Match) and m.is_over


def test_record_out_is_written_where_the_path_leads(tmp_path, capsys):
    """``--out`` through a symbolic link writes the file it points to (the link stays); a FIFO (as
    /dev/stdout may be) gets the record and stays a FIFO; a new file gets the usual mode (the
    umask's), not a temporary file's 0600; a directory is one line and exit 2.  The file is the bytes
    printed on standard output, the final newline included (a POSIX text file: cat, wc -l)."""
    import os
    import stat
    import threading

    assert main(["random-match", "--seed", "7"]) == 0
    expected = capsys.readouterr().out
    assert expected.endswith("}\n")
    target, link = tmp_path / "target.json", tmp_path / "link.json"
    target.write_text("old")
    link.symlink_to(target)
    assert main(["random-match", "--seed", "7", "--out", str(link)]) == 0
    assert link.is_symlink() and target.read_text(encoding="utf-8") == expected
    fifo, got = tmp_path / "fifo", []
    os.mkfifo(fifo)
    reader = threading.Thread(target=lambda: got.append(fifo.read_text(encoding="utf-8")), daemon=True)
    reader.start()
    assert main(["random-match", "--seed", "7", "--out", str(fifo)]) == 0
    reader.join(10)
    assert got == [expected] and stat.S_ISFIFO(os.stat(fifo).st_mode)
    old = os.umask(0o027)
    try:
        assert main(["random-match", "--seed", "7", "--out", str(tmp_path / "new.json")]) == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "new.json").st_mode) == 0o640
    os.chmod(tmp_path / "new.json", 0o600)  # a file written over keeps its mode: it was made 0644
    assert main(["random-match", "--seed", "7", "--out", str(tmp_path / "new.json")]) == 0
    assert stat.S_IMODE(os.stat(tmp_path / "new.json").st_mode) == 0o600
    assert main(["random-match", "--seed", "7", "--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"belot random-match: cannot write {tmp_path}: Is a directory\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo", "link.json", "new.json", "target.json"]


@pytest.mark.parametrize("encoding, name", [("latin-1", "Иван"), ("ascii", "Ayşe")])
def test_output_the_terminal_cannot_encode_is_escaped_not_a_traceback(examples_dir, tmp_path, encoding, name):
    """A player's name that standard output's encoding lacks (a Cyrillic name on a Latin-1 terminal,
    a redirect in the C locale of an older system) is written with backslash escapes; the command
    still prints its results and exits 0."""
    doc = load_example(examples_dir, 1)
    doc["players"] = [name] * 4
    p = tmp_path / "named.json"
    p.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    env = {**os.environ, "PYTHONIOENCODING": f"{encoding}:strict"}
    for extra in ([], ["--json"]):
        proc = subprocess.run([sys.executable, "-m", "belot", "replay", str(p), *extra],
                              capture_output=True, env=env, timeout=60)
        assert proc.returncode == 0 and proc.stderr == b"", proc.stderr.decode(errors="replace")[-300:]
        if extra:
            assert json.loads(proc.stdout)["winner"] == 0
        else:
            assert b"team 0 (" + name.encode("ascii", "backslashreplace") + b" and " in proc.stdout


def test_a_player_name_that_is_not_text_is_a_record_error(examples_dir, capsys):
    """JSON can spell a lone UTF-16 surrogate ("\\ud800"), which is no character: such a name could
    never be printed or written back as UTF-8, so the record is refused, naming it."""
    doc = load_example(examples_dir, 1)
    doc["players"][2] = "Ali\ud800"
    with pytest.raises(RecordError, match=r"players: 'Ali\\ud800' is not text"):
        replay(doc)


def test_a_record_on_standard_input_must_be_utf8(monkeypatch, capsys):
    """``-`` reads the bytes of standard input: bytes that are not UTF-8 are refused as they are in a
    file, whatever the locale decodes standard input with."""
    import io

    fake = io.TextIOWrapper(io.BytesIO(b'{"format": "belot-record/1", "players": ["\xff", "b", "c", "d"], "deals": []}'),
                            encoding="utf-8", errors="surrogateescape")
    monkeypatch.setattr(sys, "stdin", fake)
    assert main(["replay", "-"]) == 2
    assert capsys.readouterr().err == "belot replay: -: the record is not UTF-8 text\n"


# -- bad records from the whole input space ------------------------------------------------------

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=3000),
    lambda inner: st.lists(inner, max_size=40) | st.dictionaries(st.text(max_size=3000), inner, max_size=5),
    max_leaves=60,
)


def _nodes(node, path=()):
    yield path
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for k, v in items:
        yield from _nodes(v, (*path, k))


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(n=st.sampled_from([1, 2, 3]), data=st.data())
def test_any_node_of_a_record_replaced_is_replayed_or_named(examples_dir, n, data):
    """Any node of a valid record (a field, a hand, one card, one call) replaced by any JSON value, or
    deleted: replay gives a match or a RecordError, one line that quotes at most a short piece of the
    bad value (a 3,000-character name or a 40-element list must not come back whole)."""
    doc = load_example(examples_dir, n)
    for _ in range(data.draw(st.integers(1, 3), label="changes")):
        path = data.draw(st.sampled_from([p for p in _nodes(doc) if p]), label="path")
        parent = doc
        for k in path[:-1]:
            parent = parent[k]
        if data.draw(st.booleans(), label="delete"):
            del parent[path[-1]]
        else:
            parent[path[-1]] = data.draw(_JSON, label="value")
    try:
        results(replay(doc))
    except RecordError as e:
        assert "\n" not in str(e) and len(str(e)) < 400, str(e)[:500]


@pytest.mark.parametrize("command", ["replay", "analyze", "solve"])
def test_a_record_nested_too_deep_exits_2(tmp_path, capsys, command):
    """JSON nested past Python's recursion limit is a record error, not a traceback."""
    p = tmp_path / "deep.json"
    p.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    assert main([command, str(p)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"belot {command}: the record nests its lists and objects too deep to be read as JSON")


_NUMBER = re.compile(r"(?<=[:\[,])(\s*)(-?\d+)(?=\s*[,\]}])")


@pytest.mark.parametrize("command", [["replay"], ["analyze"], ["solve"], ["play", "--resume"]])
def test_a_number_too_long_or_not_json_is_named_in_one_line(examples_dir, tmp_path, capsys, command):
    """A record with a 5,000-digit number printed Python's traceback (``int()`` reads no more than
    4,300 digits); NaN and Infinity, which are not JSON, were read as floats. Each is a record error."""
    text = (examples_dir / "match-1.json").read_text(encoding="utf-8")
    numbers = list(_NUMBER.finditer(text))
    assert len(numbers) >= 10  # the target, each deal's dealer...
    cases = [(m, "9" * 5000, "the record has a number 5000 digits long, too long to read") for m in numbers]
    cases += [(numbers[i], c, f"the record is not valid JSON: {c} is not a JSON number")
              for i, c in ((0, "NaN"), (3, "Infinity"), (-1, "-Infinity"))]
    for m, replacement, says in cases:
        path = tmp_path / "bad.json"
        path.write_text(text[:m.start(2)] + replacement + text[m.end(2):], encoding="utf-8")
        assert main([*command, str(path)]) == 2
        err = capsys.readouterr().err
        assert err.endswith(f"{says}\n") and err.count("\n") == 1, (replacement[:9], err[:300])


@pytest.mark.parametrize("command", [["random-match", "--seed", "1", "--out", "{dir}/r.json"],
                                     ["selfplay", "--games", "1", "--bots", "random", "--target", "20",
                                      "--out", "{dir}/sp"]])
def test_a_write_error_without_an_errno_text_is_named_not_none(tmp_path, monkeypatch, capsys, command):
    """The commands' one message for a file they cannot use (commands._fail.cannot): an OSError
    raised with a message only (strerror None) said 'cannot write FILE: None'."""
    import os

    def refuse(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise OSError("quota exceeded")

    monkeypatch.setattr(os, "replace", refuse)  # the last step of every whole-file write
    assert main([a.replace("{dir}", str(tmp_path)) for a in command]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"belot {command[0]}: cannot write {tmp_path}/") and err.endswith(".json: quota exceeded\n"), err
    assert not [p for p in tmp_path.rglob("*") if p.is_file()]  # no temporary file left


@pytest.mark.parametrize("command", ["replay", "solve", "analyze"])
def test_a_file_larger_than_any_record_is_refused_before_it_fills_the_memory(tmp_path, monkeypatch, capsys, command):
    """``belot replay /dev/zero`` (or a disk image named by mistake) read until the memory ran out and
    the process was killed; a file above `record.MAX_BYTES` is refused, naming it, after reading no
    more than that.  Shown with a smaller bound on a valid record padded with spaces."""
    import belot.record
    from belot.commands.random_match import random_match

    path = tmp_path / "big.json"
    path.write_text(dumps(random_match(1)) + " " * 10_000, encoding="utf-8")
    monkeypatch.setattr(belot.record, "MAX_BYTES", 10_000)
    assert main([command, str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"belot {command}: {path}: the record is larger than ") and err.count("\n") == 1, err


def test_dev_zero_is_not_a_record(capsys):
    import os

    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    assert main(["replay", "/dev/zero"]) == 2
    assert capsys.readouterr().err == "belot replay: /dev/zero: the record is larger than 64 MiB\n"


@pytest.mark.parametrize("argv, message", [
    (["random-match", "--seed", "1", "--out", ""], "belot random-match: --out: the file name is empty\n"),
    (["replay", ""], "belot replay: the record's file name is empty\n"),
    (["solve", ""], "belot solve: the record's file name is empty\n"),
    (["analyze", ""], "belot analyze: the record's file name is empty\n"),
])
def test_an_empty_file_name_is_named_as_such(argv, message, capsys):
    """``--out ''`` printed the record instead (taken for no --out); ``replay ''`` said 'cannot read :'."""
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert err == message and out == ""


def test_a_record_that_starts_with_a_byte_order_mark_is_read_past_it(examples_dir, tmp_path):
    """A record saved by a Windows editor starts with a BOM: it was refused with Python's advice
    "decode using utf-8-sig". RFC 8259 lets a reader ignore it; belot never writes one."""
    from belot.record import load

    raw = (examples_dir / "match-1.json").read_bytes()
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + raw)
    assert results(load(str(path))) == results(loads(raw.decode("utf-8")))


@pytest.mark.parametrize("spelled", [" QD", "QD ", "QD\u3000", "\tQD"])
def test_a_card_is_its_two_characters_exactly(examples_dir, spelled):
    """A card with spaces around it ("QD" and 1,000 spaces) was read as the card, in hands and in play;
    the format names a card by its two characters, as "qd" and " pass" are refused."""
    doc = load_example(examples_dir, 1)
    first = doc["deals"][0]["play"][0]
    card = first if isinstance(first, str) else first["card"]
    bad = copy.deepcopy(doc)
    bad["deals"][0]["play"][0] = spelled.replace("QD", card)
    with pytest.raises(RecordError, match="is not a card"):
        replay(bad)
    bad = copy.deepcopy(doc)
    hand = bad["deals"][0]["hands"][0]
    hand[0] = spelled.replace("QD", hand[0])
    with pytest.raises(RecordError, match="is not a card"):
        replay(bad)


def test_a_replay_announces_a_seats_declarations_in_the_order_played():
    """R7.4, R7.5: a seat may announce a tierce and then a carré that shares no card with it; the
    record keeps that order and its replay is the game played (the same actions, the same
    announcements in every view, the same results), not the carré moved first.  A record that lists
    a sequence before the carré that frees its cards (the quarte 9D-QD before the carré of kings)
    still replays, the carré announced first."""
    m = Match(first_dealer=3)
    d = m.deal(make_hands({0: "KC KD KH KS 7C 8C 9C AD"}))
    for call in (CALL_BASE + 1 + AT, CALL_BASE, CALL_BASE, CALL_BASE):
        m.apply(call)
    tierce, carre = sorted((a for a in d.legal_actions() if a >= DECLARE_BASE),
                           key=lambda a: DECLARATIONS[a - DECLARE_BASE].is_carre)
    m.apply(tierce)
    m.apply(carre)
    while not d.is_over:
        m.apply(m.legal_actions()[0])
    doc = to_json(m)
    assert doc["deals"][0]["play"][0]["declare"] == [["7C", "8C", "9C"], ["KC", "KD", "KH", "KS"]]
    again = replay(doc)
    assert again.deals[0].actions == d.actions
    assert again.results == m.results
    assert [again.view(s).announced for s in range(4)] == [m.view(s).announced for s in range(4)]
    assert to_json(again) == doc

    m = Match(first_dealer=3)
    m.deal(make_hands({0: "KC KD KH KS QD JD TD 9D"}))
    doc = to_json(m)
    doc["deals"][0]["auction"] = ["AT", "pass", "pass", "pass"]
    doc["deals"][0]["play"] = [{"card": "9D", "declare": [["9D", "TD", "JD", "QD"], ["KC", "KD", "KH", "KS"]]}]
    announced = replay(doc).deals[0].declared[0]
    assert [DECLARATIONS[i].kind for i in announced] == ["carre", "quarte"]
