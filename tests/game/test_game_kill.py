"""A pulled plug: a real process writing a game is killed with SIGKILL at random instants.

Each time, the database must open, pass ``PRAGMA integrity_check``, hold every event the
child reported committed (at most the one in flight may be lost, or may have landed just
before the kill), fold every game, and take new events.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time

import pytest

CHILD = r"""
import random, sys
from cribbage.game import Settings
from cribbage.game.simulate import random_game
from cribbage.gamelog import GameStore

path, seed = sys.argv[1], int(sys.argv[2])
rng = random.Random(seed)
store = GameStore(path)
while True:
    _, events = random_game(Settings.from_json({}), rng, hands_known=rng.random() < 0.5)
    gid = store.new_game({})
    print("game", gid, flush=True)
    for event in events:
        state = store.apply(gid, event, source="child")
        print("event", gid, state["events"], flush=True)
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_sigkill_mid_game_loses_at_most_the_event_in_flight(tmp_path):
    from cribbage.gamelog import GameStore

    path = str(tmp_path / "killed.db")
    rng = random.Random(20261121)
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    for round_ in range(6):
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, path, str(round_)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        )
        lines: list[str] = []
        reader = threading.Thread(target=lines.extend, args=(child.stdout,), daemon=True)
        reader.start()
        deadline = time.monotonic() + 30
        while not any(line.startswith("event") for line in lines):
            assert child.poll() is None, child.stderr.read() if child.stderr else ""
            assert time.monotonic() < deadline, "the child never committed an event"
            time.sleep(0.01)
        time.sleep(rng.uniform(0.0, 0.4))
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
        reader.join(timeout=30)
        assert child.returncode == -signal.SIGKILL

        reported: dict[int, int] = {}
        for line in lines:
            parts = line.split()
            if parts[0] == "game":
                reported[int(parts[1])] = 0
            elif parts[0] == "event" and len(parts) == 3:
                reported[int(parts[1])] = int(parts[2])

        with sqlite3.connect(path) as db:
            assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            stored = dict(db.execute("SELECT game_id, count(*) FROM events GROUP BY game_id"))
        for gid, count in reported.items():
            assert stored.get(gid, 0) in (count, count + 1), (round_, gid, count, stored)

        with GameStore(path) as store:
            for game in store.games():
                state = store.state(game["id"])
                assert state["events"] == stored.get(game["id"], 0)
            # the log takes new events after the crash
            gid = store.new_game({})
            store.apply(gid, {"type": "dealer", "seat": "A"})
