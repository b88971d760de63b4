"""What a photo must be for the table to take it in, shared by the page and the card reader.

:mod:`imaging.limits` holds the one pixel budget (how large a photo is read, and when a JPEG is
decoded scaled down), the header read that applies it before anything is decoded, and the check
that a photo's bytes are whole. The page (:mod:`web.uploads`) and the reader (:mod:`vision.image`)
both import it; it imports neither of them, nor any other part of the companion.
"""
