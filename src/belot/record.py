"""Game records, ``belot-record/1`` (docs/record-format.md): read, replay, write and derive results.

A record is replayed through the same `Match.apply` path as live play, so a record is valid
exactly when every action in it is legal.  Any fault becomes a `RecordError` whose message names
the deal, the action (``auction[i]`` / ``play[i]``) and the rule.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import Any

from . import declarations as decl
from .auction import KONTRA, PASS, SURKONTRA, call_name, call_slot, parse_call
from .cards import CARD_NAMES, parse_card
from .contracts import CONTRACT_NAMES, Rules, UnsupportedOption
from .errors import RecordError, RuleError, shown
from .game import BELOTE_BASE, CALL_BASE, DECLARE_BASE, NUM_ACTIONS, OVER, PLAY, Deal, Match

FORMAT = "belot-record/1"
_TOP_FIELDS = {"format", "options", "players", "target", "deals"}
MAX_BYTES = 64 << 20
"""The largest record `read` takes: a deal is about 1 KB, so this is some 60,000 deals; more is not a
record (``/dev/zero``, a disk image named by mistake) and would fill the memory before failing."""
_DEAL_FIELDS = {"dealer", "hands", "auction", "play"}
_PLAY_FIELDS = {"card", "declare", "belote"}

Move = str | dict[str, Any]
"""One action in the record's notation: ``"JH"``, ``"pass"``, ``{"card": "QH", "belote": true}``,
``{"declare": ["7C", "8C", "9C"]}``."""


def move_of(action: int) -> Move:
    """The record notation of one engine action, independent of the engine's action numbering.

    >>> move_of(20), move_of(CALL_BASE)
    ('JH', 'pass')
    """
    if 0 <= action < BELOTE_BASE:
        return CARD_NAMES[action]
    if action < CALL_BASE:
        return {"card": CARD_NAMES[action - BELOTE_BASE], "belote": True}
    if action < DECLARE_BASE:
        return call_name(action - CALL_BASE)
    if action < NUM_ACTIONS:
        return {"declare": decl.card_list(action - DECLARE_BASE)}
    raise ValueError(f"{shown(action)} is not an action")


def action_of(move: Any) -> int:
    """The engine action of a move in record notation (`move_of`'s inverse); ValueError names the fault."""
    if isinstance(move, str):
        try:
            return parse_card(move)
        except ValueError:
            pass
        try:
            return CALL_BASE + call_slot(parse_call(move))
        except ValueError:
            raise ValueError(f"{shown(move)} is neither a card nor a call") from None
    if isinstance(move, dict) and set(move) == {"card", "belote"} and move["belote"] is True:
        card = move["card"]
        if not isinstance(card, str):
            raise ValueError(f"{shown(card)} is not a card")
        return BELOTE_BASE + parse_card(card)
    if isinstance(move, dict) and set(move) == {"declare"} and isinstance(move["declare"], list):
        cards = [parse_card(c) if isinstance(c, str) else _not_card(c) for c in move["declare"]]
        found = decl.declaration_for_cards(cards)
        if found is None:
            raise ValueError(f"{' '.join(CARD_NAMES[c] for c in cards)} is not a declaration")
        return DECLARE_BASE + found.id
    raise ValueError(f"{shown(move)} is not a move (a card, a call, {{card, belote}} or {{declare}})")


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:  # past Python's limit on the digits of an int read from text (4,300)
        raise RecordError(f"the record has a number {len(text.lstrip('-'))} digits long, too long to read") from None


def _constant(name: str) -> Any:
    raise RecordError(f"the record is not valid JSON: {name} is not a JSON number")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) < len(pairs):  # readers differ on which value counts; the one dropped would go unchecked
        keys = [k for k, _ in pairs]
        twice = next(k for i, k in enumerate(keys) if k in keys[:i])
        raise RecordError(f"the record is not valid: the field {shown(twice)} appears twice in one object")
    return obj


def parse(text: str) -> Any:
    """The JSON document of a record's text; RecordError says what is wrong with it."""
    try:
        return json.loads(text, parse_int=_int, parse_constant=_constant, object_pairs_hook=_object)
    except json.JSONDecodeError as e:
        what = e.msg.removesuffix(" at")  # json's "Invalid control character at", before our " at line"
        raise RecordError(f"the record is not valid JSON: {what} at line {e.lineno} column {e.colno}") from None
    except RecursionError:
        raise RecordError("the record nests its lists and objects too deep to be read as JSON") from None


def read(source: str) -> Any:
    """The JSON document of the record file ``source`` (``-``: standard input).  RecordError says what is
    wrong with the text (not UTF-8, not JSON); OSError, that the file cannot be read."""
    try:
        if source == "-":
            # the bytes, decoded as a file is: not with the locale's encoding or its surrogateescape
            stdin = getattr(sys.stdin, "buffer", None)
            data = stdin.read(MAX_BYTES + 1) if stdin is not None else sys.stdin.read(MAX_BYTES + 1)
        else:
            with open(source, "rb") as f:
                data = f.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            raise RecordError(f"{source}: the record is larger than {MAX_BYTES >> 20} MiB")
        # a byte order mark, which editors on Windows put first, is read past (RFC 8259 allows it)
        text = data.decode("utf-8-sig") if isinstance(data, bytes) else data.removeprefix("\ufeff")
    except UnicodeDecodeError:
        raise RecordError(f"{source}: the record is not UTF-8 text") from None
    if "\0" in text:  # UTF-16 without a byte order mark decodes as UTF-8 with a NUL after each letter
        raise RecordError(f"{source}: the record is not UTF-8 text (it holds NUL bytes: UTF-16?)")
    return parse(text)


def loads(text: str) -> Match:
    """Parse and replay a record; raises RecordError."""
    return replay(parse(text))


def load(source: str) -> Match:
    """Read and replay the record file ``source`` (``-``: standard input); raises RecordError or OSError."""
    return replay(read(source))


def _unknown(fields: Iterable[str], allowed: set[str]) -> list[str]:
    return sorted(k for k in fields if k not in allowed)


def replay(doc: Any) -> Match:
    """Replay a parsed record document into a `Match` (finished or in progress)."""
    if not isinstance(doc, dict):
        raise RecordError("the record must be a JSON object")
    bad = _unknown(doc, _TOP_FIELDS)
    if bad:
        raise RecordError(f"unknown field {shown(bad[0])} in the record")
    if doc.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, not {shown(doc.get('format'))}")
    options = doc.get("options", [])
    if options is None:
        options = []
    if not isinstance(options, list):
        raise RecordError("options must be a list of rule option names")
    try:
        rules = Rules.from_options(options)
    except UnsupportedOption as e:
        raise RecordError(f"options: {e}") from None
    players = doc.get("players")
    if players is not None and (
        not isinstance(players, list) or len(players) != 4 or not all(isinstance(p, str) for p in players)
    ):
        raise RecordError("players must be a list of four names")
    for name in players or ():
        try:
            name.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate, which JSON can spell as "\ud800"
            raise RecordError(f"players: {shown(name)} is not text") from None
    target = doc.get("target", 151)
    if not isinstance(target, int) or isinstance(target, bool) or target <= 0:
        raise RecordError(f"target must be a positive whole number, not {shown(target)}")
    deals = doc.get("deals")
    if not isinstance(deals, list):
        raise RecordError("deals must be a list")
    match = Match(rules, target, players=players)
    for di, deal in enumerate(deals):
        _replay_deal(match, di, deal, last=di == len(deals) - 1)
    return match


def _replay_deal(match: Match, di: int, deal: Any, last: bool) -> None:
    if not isinstance(deal, dict):
        raise RecordError("a deal must be a JSON object", di)
    bad = _unknown(deal, _DEAL_FIELDS)
    if bad:
        raise RecordError(f"unknown field {shown(bad[0])}", di)
    for key in ("dealer", "hands"):
        if key not in deal:
            raise RecordError(f"missing field {key!r}", di)
    if match.winner is not None:
        raise RecordError(f"the match was already won by team {match.winner} (R12.1)", di)
    dealer = deal["dealer"]
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer <= 3:
        raise RecordError(f"dealer must be a seat 0-3, not {shown(dealer)}", di)
    expected = match.next_dealer
    if match.deals and dealer != expected:
        raise RecordError(
            f"the dealer must be seat {expected}, the right of the last dealer, not {dealer} (R2.1)", di
        )
    hands_doc = deal["hands"]
    if not isinstance(hands_doc, list) or len(hands_doc) != 4 or not all(isinstance(h, list) for h in hands_doc):
        raise RecordError("hands must be four lists of cards", di)
    try:
        hands = [[parse_card(c) if isinstance(c, str) else _not_card(c) for c in h] for h in hands_doc]
        if not match.deals:
            match.first_dealer = dealer
        match.deal(hands, dealer)
    except (RuleError, ValueError) as e:
        raise RecordError(str(e), di, "hands") from None
    auction = deal.get("auction", [])
    play = deal.get("play", [])
    if not isinstance(auction, list):
        raise RecordError("auction must be a list of calls", di)
    if not isinstance(play, list):
        raise RecordError("play must be a list of cards", di)
    d = match.deals[-1]
    five = len(d.dealt[0]) < 8  # docs/record-format.md: only a deal passed out may give five cards a hand
    for i, call in enumerate(auction):
        where = f"auction[{i}]"
        try:
            c = parse_call(call)
            if five and c != PASS:
                raise RuleError(f"{call} is not possible: the hands hold five cards each, which only a "
                                "deal that all four passed may give", "R2.3")
            a = d.auction
            if (c == SURKONTRA) != (c in (KONTRA, SURKONTRA) and a.multiplier == 4):
                # the kontra slot is kontra over a plain contract, surkontra over a rekontra (R3.3)
                raise RuleError(f"{call} is not legal: " + (
                    "surkontra is called only over a rekontra" if c == SURKONTRA
                    else "a double of a rekontra is a surkontra (only with OPT-SURCONTRA)"), "R3.3")
            match.apply(CALL_BASE + call_slot(c))
        except (RuleError, ValueError) as e:
            raise RecordError(str(e), di, where) from None
    if play and d.phase != PLAY:
        why = "the auction is not over" if d.phase != OVER else "all four passed, nothing is played (R3.6)"
        raise RecordError(f"cards are played but {why}", di, "play[0]")
    for i, entry in enumerate(play):
        _replay_play(match, d, di, i, entry)
    if not last and not d.is_over:
        raise RecordError("the deal is not finished but another deal follows", di)
    if five and not d.is_over:
        # it could not go on: three cards of each hand are missing (R2.3), and a bid would leave
        # it with no legal action (`belot play --resume` crashed on one)
        raise RecordError("the hands hold five cards each, which only a deal that all four passed may "
                          "give, but this deal is not finished (R2.3)", di, "hands")


def _not_card(c: Any) -> int:
    raise ValueError(f"{shown(c)} is not a card")


def _replay_play(match: Match, d: Deal, di: int, i: int, entry: Any) -> None:
    where = f"play[{i}]"
    declare: Any = []
    belote: Any = False
    if isinstance(entry, dict):
        bad = _unknown(entry, _PLAY_FIELDS)
        if bad:
            raise RecordError(f"unknown field {shown(bad[0])}", di, where)
        if "card" not in entry:
            raise RecordError("missing field 'card'", di, where)
        card_text, declare, belote = entry["card"], entry.get("declare", []), entry.get("belote", False)
    else:
        card_text = entry
    if not isinstance(belote, bool):
        raise RecordError("belote must be true or false", di, where)
    if not isinstance(declare, list) or not all(isinstance(x, list) for x in declare):
        raise RecordError("declare must be a list of declarations, each a list of cards", di, where)
    try:
        if not isinstance(card_text, str):
            raise ValueError(f"{shown(card_text)} is not a card")
        card = parse_card(card_text)
        if match.is_over or d.is_over:
            raise RuleError(f"{card_text} is played after the last trick", "R5.1")
        ids = []
        for cards_doc in declare:
            cards = [parse_card(c) if isinstance(c, str) else _not_card(c) for c in cards_doc]
            found = decl.declaration_for_cards(cards)
            if found is None:
                text = " ".join(CARD_NAMES[c] for c in cards)
                raise RuleError(f"false declaration {text}: not a sequence of 3-8 cards or a carre", "R7.2")
            ids.append(found)
        if ids and d.trick_winners:
            raise RuleError("declarations are made at the player's turn in trick 1", "R7.5")
        # In the record's order, the order the seat announced them in (R7.5), so the replay is the
        # game played; a record listing a sequence before the carré that frees its cards (R7.4) is
        # read carrés first, as a sequence is checked against the cards the carrés leave.
        order = [DECLARE_BASE + found.id for found in ids]
        if not _legal_in_turn(d, order):
            order = [DECLARE_BASE + found.id for found in sorted(ids, key=lambda x: not x.is_carre)]
        for a in order:
            match.apply(a)
        match.apply(BELOTE_BASE + card if belote else card)
    except (RuleError, ValueError) as e:
        raise RecordError(str(e), di, where) from None


def _legal_in_turn(d: Deal, actions: list[int]) -> bool:
    """Whether ``actions`` can be applied to ``d`` one after the other (tried on a copy)."""
    trial = d.clone()
    for a in actions:
        if not trial.is_legal(a):
            return False
        trial.apply(a)
    return True


# -- writing ----------------------------------------------------------------------------------


def deal_to_json(d: Deal) -> dict[str, Any]:
    """One deal of a record, from the actions the deal has applied."""
    play: list[Any] = []
    pending: dict[int, list[int]] = {}
    auction = [call_name(c) for c in d.auction.calls]  # by the calls made: kontra or surkontra
    for seat, a in zip(d.actors, d.actions):
        if CALL_BASE <= a < DECLARE_BASE:
            continue
        if a >= DECLARE_BASE:
            pending.setdefault(seat, []).append(a - DECLARE_BASE)
        else:
            card = CARD_NAMES[a & 31]
            declared = pending.pop(seat, None)
            if declared is None and a < BELOTE_BASE:
                play.append(card)
                continue
            entry: dict[str, Any] = {"card": card}
            if declared:
                entry["declare"] = [decl.card_list(i) for i in declared]  # in the order announced (R7.5)
            if a >= BELOTE_BASE:
                entry["belote"] = True
            play.append(entry)
    return {
        "dealer": d.dealer,
        "hands": [[CARD_NAMES[c] for c in h] for h in d.dealt],
        "auction": auction,
        "play": play,
    }


def to_json(match: Match, players: list[str] | None = None) -> dict[str, Any]:
    doc: dict[str, Any] = {"format": FORMAT, "options": list(match.rules.options)}
    players = players if players is not None else match.players
    if players is not None:
        doc["players"] = list(players)
    doc["target"] = match.start_target
    doc["deals"] = [deal_to_json(d) for d in match.deals]
    return doc


def dumps(match: Match, players: list[str] | None = None) -> str:
    return json.dumps(to_json(match, players), ensure_ascii=False, indent=1)


def write(match: Match, path: str, players: list[str] | None = None) -> None:
    """Write the record atomically (a crash never leaves half a record): a temporary file beside it,
    made with the mode of any new file, renamed into place, ending with a newline.  A symbolic link is written through to
    its target; a path that is not a regular file (a FIFO, /dev/stdout) is written to directly,
    never replaced."""
    import os
    import secrets

    text = dumps(match, players) + "\n"  # a text file ends with a newline (cat, wc -l); JSON allows it
    if os.path.exists(path) and not os.path.isfile(path):
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return
    path = os.path.realpath(path)
    tmp = os.path.join(os.path.dirname(path), f".belot-{secrets.token_hex(8)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the umask applies, as to any new file
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        if os.path.exists(path):  # a file written over keeps its mode (one kept private stays so)
            os.chmod(tmp, os.stat(path).st_mode & 0o7777)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


# -- results ----------------------------------------------------------------------------------


def results(match: Match) -> dict[str, Any]:
    """The results document of docs/record-format.md for a replayed match."""
    out = []
    score = [0, 0]
    for r in match.results:
        score[0] += r.points[0]
        score[1] += r.points[1]
        item = r.to_json()
        item["score"] = list(score)
        out.append(item)
    d = match.current
    if d is not None:
        a = d.auction
        item = {
            "contract": CONTRACT_NAMES[a.contract] if a.contract >= 0 else None,
            "declarer": a.declarer if a.contract >= 0 else None,
            "multiplier": a.multiplier,
            "tricks": list(d.trick_winners),
            "outcome": None,
            "pot": match.pot,
            "score": list(score),
        }
        out.append(item)
    return {"deals": out, "score": list(match.score), "winner": match.winner}
