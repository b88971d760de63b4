"""Following a game from the camera: frames in, the game's events out.

:mod:`vision.track.zones` says where each card counts, :mod:`vision.track.motion` when the table
is still and what changed, :mod:`vision.track.tracker` which cards are laid, and
:mod:`vision.track.follow` what they mean to the game. ``crib track`` and ``crib serve --camera``
join them to a frame source (:mod:`vision.camera`) and a game log.
"""

from vision.track.follow import Applied, Flag, Follower, GamePort, events_json
from vision.track.tracker import Doubt, Seen, Sighting, TableCard, Tracker, read_with_reader
from vision.track.zones import CENTRE, Zones, ZonesError

__all__ = ["CENTRE", "Applied", "Doubt", "Flag", "Follower", "GamePort", "Seen", "Sighting", "TableCard",
           "Tracker", "Zones", "ZonesError", "events_json", "read_with_reader"]
