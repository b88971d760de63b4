"""No silent miss: a card the reader cannot read is flagged, named by place, and the game waits.

The golden deal videos are followed with the real reader made to fail on one chosen card: either
it never finds the card at all (``blind``: only the card's paper shows it is there) or it finds
its index but cannot read it (``unsure``). Each time a flag must name the card's place in
players' words within a second of the card lying still, once, with a crop of the card; the
game must take nothing after it until the players answer; and once answered every event and
the final scores are exact.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import pytest

from companion.tracking import CropFolder, StoreGame
from cribbage.gamelog import GameStore
from vision.camera import source_for_path
from vision.synth.deals import golden_events
from vision.synth.golden import event_keys, golden_video
from vision.track import Follower, Seen, Tracker, Zones
from vision.track.tracker import read_with_reader

pytestmark = pytest.mark.slow
ANSWER_AFTER = 30  # frames the players take to answer (3 s): the game must wait meanwhile


def knocked_out(card: str, how: str) -> Any:
    """The real reader, failing on ``card``: never finding it (``blind``) or finding its index
    unreadable (``unsure``)."""

    def reader(image: Any) -> tuple[list[Seen], list[Seen]]:
        cards, doubts = read_with_reader(image)
        gone = [c for c in cards if c.card == card]
        cards = [c for c in cards if c.card != card]
        if how == "unsure":
            doubts += [Seen(None, 0.0, c.center, c.size) for c in gone]
        return cards, doubts

    return reader


def follow_with_a_miss(card: str, how: str, reset: str, tmp_path: Path) -> dict[str, Any]:
    """Follow the golden video with the reader failing on ``card``; the players answer each
    flag with ``card`` ``ANSWER_AFTER`` frames after it shows."""
    path, truth = golden_video(reset=reset)
    store = GameStore(":memory:")
    game = StoreGame(store, store.new_game({"players": "Ann,Bob"}))
    game.apply({"type": "dealer", "seat": "A"})
    crops = CropFolder(tmp_path)
    follower = Follower(game, Tracker(Zones.default(2), reader=knocked_out(card, how)), save_crop=crops.save)
    source = source_for_path(path)
    source.open()
    flags: dict[int, dict[str, Any]] = {}
    applied: list[tuple[int, dict[str, Any]]] = []
    while (frame := source.read()) is not None:
        follower.feed(frame.image, frame.number)
        for flag in follower.flags:
            flags.setdefault(flag.id, {**flag.to_json(), "shown": frame.number})
        for flag in list(follower.flags):
            if frame.number - flags[flag.id]["shown"] >= ANSWER_AFTER:
                follower.resolve(flag.id, "fix", card)
                flags[flag.id]["answered"] = frame.number
        applied += [(frame.number, a.event) for a in follower.applied[len(applied):]]
    source.close()
    still = next(a["still"] for a in truth["actions"] if card in [a.get("card"), *a.get("cards", [])]
                 or card in [p["card"] for p in a.get("placed", [])])
    return {"flags": list(flags.values()), "applied": applied, "state": game.state(), "still": still,
            "crops": tmp_path, "truth": truth}


CASES = [
    ("JH", "blind", "keep", "starter"),  # the starter turned on the pack
    ("9C", "blind", "keep", "Bob's row"),  # a play laid over the seat's last card
    ("6C", "blind", "keep", "crib"),  # a crib card, in a spread overlapping by a third
    ("8S", "unsure", "turn-down", "Bob's row"),  # an index seen but not read
]


@pytest.mark.parametrize(("card", "how", "reset", "where"), CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_a_card_the_reader_misses_is_flagged_the_game_waits_and_ends_exact(
        card: str, how: str, reset: str, where: str, tmp_path: Path) -> None:
    got = follow_with_a_miss(card, how, reset, tmp_path)
    [flag] = got["flags"]  # one flag for the one card, however often it is seen
    assert where in flag["say"], flag["say"]
    assert got["still"] <= flag["shown"] <= got["still"] + 10, (flag, got["still"])  # within a second
    assert any(c["action"] == "fix" for c in flag["choices"]) and any(
        c["action"] == "dismiss" for c in flag["choices"])
    crop = cv2.imread(str(got["crops"] / flag["crop"]))
    assert crop is not None and max(crop.shape[:2]) >= 100  # the card, not a speck
    waited = [e for n, e in got["applied"] if flag["shown"] <= n < flag["answered"]]
    assert waited == []  # nothing taken while the players had not answered
    assert event_keys([e for _, e in got["applied"]]) == event_keys(got["truth"]["legal_events"])
    assert got["state"]["scores"] == got["truth"]["scores"]


def test_a_camera_that_starts_again_mid_game_never_plays_an_earlier_deal(tmp_path: Path) -> None:
    """``crib serve`` killed in the second deal and started again replays the video from its
    first frame: the first deal's cards must not be played into the second; once the table shows
    the second deal again, the camera goes on and the game ends exact."""
    path, truth = golden_video(reset="turn-down")
    store = GameStore(str(tmp_path / "games.sqlite3"))
    game_id = store.new_game({"players": "Ann,Bob"})
    game = StoreGame(store, game_id)
    events = golden_events(with_go=False)
    deal_2 = next(i for i, e in enumerate(events) if e["type"] == "starter" and e["card"] == "5S")
    for e in events[:deal_2 + 3]:  # through the second deal's starter and its first two plays
        game.apply(e)
    before = game.state()
    follower = Follower(StoreGame(store, game_id), Tracker(Zones.default(2)))  # a new process
    source = source_for_path(path)
    source.open()
    while (frame := source.read()) is not None:
        follower.feed(frame.image, frame.number)
        state = follower.game.state()
        assert state["deal"] == before["deal"] or state["phase"] == "deal"
    source.close()
    first_deal = {e.get("card") for e in events[:deal_2]} - {None}  # none of them is dealt again
    sent = [a.event for a in follower.applied]
    assert not [e for e in sent if e.get("card") in first_deal or set(e.get("cards", ())) & first_deal]
    assert event_keys([*events[:deal_2 + 3], *sent]) == event_keys(truth["legal_events"])
    assert follower.game.state()["scores"] == truth["scores"]
