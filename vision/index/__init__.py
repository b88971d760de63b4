"""Finding corner indices: ink blobs paired as a rank glyph above a suit pip, in steps.

- :mod:`vision.index.ink`: ink, darker than the paper round it, at a darkness level;
- :mod:`vision.index.paper`: where paper is, and how far each place is from clear paper;
- :mod:`vision.index.pairing`: each glyph-sized blob paired with a pip below it (the card's "down");
- :mod:`vision.index.whole`: a small index that is one blob, its glyph and pip placed by its shape;
- :mod:`vision.index.tiling`: the second look at tiny glyphs, twice the size, tile by tile;
- :mod:`vision.index.dedupe`: a candidate found twice kept once, the least crowded first;
- :mod:`vision.index.looks`: the looks at a photo, which run these steps;
- :mod:`vision.index.types`: the values they pass on (:class:`Candidate`, :class:`BlobId`, ...).

Only the geometry is returned: the network (:mod:`vision.cnn`) reads the upright patch cut from the
photo itself (:mod:`vision.patch`). The tuning constants are in :mod:`vision.tuning`.

>>> import numpy as np
>>> find_indices(np.full((120, 160, 3), 200, np.uint8))
[]
"""

from __future__ import annotations

from vision.index.looks import find_indices, first_look, look_unread
from vision.index.tiling import look_again
from vision.index.types import BlobId, Candidate, Look

__all__ = ["BlobId", "Candidate", "Look", "find_indices", "first_look", "look_again", "look_unread"]
