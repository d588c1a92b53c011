"""Make tests/data/server-v1.sqlite3 with the schema-1 server (seed + engine action ints); runs only on the code of commit 123f67e (kept to show how the fixture was made)."""
import asyncio
import json
import random
import sys
from pathlib import Path

from belot.server.protocol import action_to_json
from belot.server.storage import Storage
from belot.server.tables import Lobby

out = sys.argv[1]

async def main():
    st = Storage.for_path(out)
    lobby = Lobby(st, bot_delay=0.0, grace=3600)
    rng = random.Random(5)

    def play(t, tokens, until):
        while not until(t):
            s = t.match.current_player
            assert s in tokens, s
            legal = t.match.legal_actions()
            # prefer declarations when offered, to exercise them
            decls = [a for a in legal if a >= 73]
            a = decls[0] if decls and rng.random() < 0.8 else rng.choice(legal)
            t.submit(s, action_to_json(a), t.seq)

    # 1: finished, four humans, target 41
    t1, _, _ = lobby.create({"seats": ["human"] * 4, "target": 41})
    tok1 = {s: t1.join(s, f"p{s}")[1] for s in range(4)}
    play(t1, tok1, lambda t: t.match.is_over)
    # 2: unfinished, mid-play of deal 0 with declarations possible, two humans + two bots seats
    t2, _, _ = lobby.create({"seats": ["human"] * 4, "target": 151, "names": ["Ayşe", None, "Mehmet", None]})
    tok2 = {s: t2.join(s, None)[1] for s in range(4)}
    play(t2, tok2, lambda t: t.match.current is not None and t.match.current.phase == "play" and len(t.match.current.trick_winners) >= 2)
    # 3: unfinished, in deal >= 2 auction
    t3, _, _ = lobby.create({"seats": ["human"] * 4, "target": 301, "turn_timer": 120})
    tok3 = {s: t3.join(s, f"n{s}")[1] for s in range(4)}
    play(t3, tok3, lambda t: len(t.match.deals) >= 3 and t.match.current is not None and len(t.match.current.actions) == 2)
    # 4: waiting for a second human
    t4, _, _ = lobby.create({"seats": ["human", "bot:random", "human", "bot:random"], "seat": 0, "name": "solo"})
    # 5: a bot-only table played to its end by bots
    t5, _, _ = lobby.create({"seats": ["bot:random"] * 4, "target": 21})
    for _ in range(2000):
        if t5.match.is_over: break
        await asyncio.sleep(0.001)
    assert t5.match.is_over
    for t in (t1, t2, t3, t4, t5):
        print(t.id, t.status, t.seq, len(t.match.deals))
    doc = {"tables": {t.id: {"status": t.status, "seq": t.seq} for t in (t1, t2, t3, t4, t5)},
           "tokens": {t2.id: tok2, t3.id: tok3, t1.id: tok1}}
    Path(out + ".json").write_text(json.dumps(doc, indent=1))
    lobby.close()
    st.close()

asyncio.run(main())
