"""Pictures of STL files without a display: a small flat-shaded renderer (numpy + Pillow).

OpenSCAD's own ``-o picture.png`` needs an OpenGL context, which a headless machine has not
("Can't create OpenGL OffscreenView" without an X server), so the assembly guide's pictures are
drawn from the rendered STL here: triangles turned to the view, sorted far to near (painter's
algorithm) and filled with a grey shaded by the angle to the light.

>>> import numpy as np
>>> cube = read_stl_bytes(_CUBE_STL)
>>> cube.shape
(2, 3, 3)
>>> png = render_png(cube, size=(80, 60))
>>> png[:4]
b'\\x89PNG'
"""

from __future__ import annotations

import io
import math
import re
from pathlib import Path

import numpy as np

__all__ = ["read_stl", "read_stl_bytes", "render_png"]

_CUBE_STL = b"""solid t
facet normal 0 0 1
outer loop
vertex 0 0 0
vertex 1 0 0
vertex 0 1 0
endloop
endfacet
facet normal 0 0 1
outer loop
vertex 1 0 0
vertex 1 1 0
vertex 0 1 0
endloop
endfacet
endsolid t
"""


def read_stl_bytes(data: bytes) -> np.ndarray:
    """Triangles ``(n, 3, 3)`` of an ASCII or binary STL."""
    if data[:5] == b"solid" and b"facet" in data[:400]:
        nums = re.findall(rb"vertex\s+(\S+)\s+(\S+)\s+(\S+)", data)
        return np.array(nums, dtype=float).reshape(-1, 3, 3)
    count = int.from_bytes(data[80:84], "little")
    rec = np.frombuffer(data, dtype=np.dtype([("n", "<f4", 3), ("v", "<f4", (3, 3)), ("a", "<u2")]),
                        count=count, offset=84)
    return rec["v"].astype(float)


def read_stl(path: str | Path) -> np.ndarray:
    return read_stl_bytes(Path(path).read_bytes())


def render_png(tris: np.ndarray, size: tuple[int, int] = (900, 650), azimuth: float = -35.0,
               elevation: float = 35.0, colour: tuple[int, int, int] = (205, 170, 120),
               background: tuple[int, int, int] = (245, 245, 242)) -> bytes:
    """A PNG of the triangles seen from ``azimuth`` (degrees around z) and ``elevation``."""
    from PIL import Image, ImageDraw

    a, e = math.radians(azimuth), math.radians(elevation)
    rz = np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])
    rx = np.array([[1, 0, 0], [0, math.cos(e), -math.sin(e)], [0, math.sin(e), math.cos(e)]])
    # look along -y after the turn: screen x = x, screen y = z, depth = y
    view = rx @ rz
    pts = tris.reshape(-1, 3) @ view.T
    pts = pts.reshape(-1, 3, 3)
    normals = np.cross(pts[:, 1] - pts[:, 0], pts[:, 2] - pts[:, 0])
    lengths = np.linalg.norm(normals, axis=1)
    keep = lengths > 1e-12
    pts, normals = pts[keep], normals[keep] / lengths[keep, None]
    facing = normals[:, 1] < 0  # towards the viewer (who looks along +y)
    pts, normals = pts[facing], normals[facing]
    light = np.array([-0.4, -0.7, 0.6])
    light /= np.linalg.norm(light)
    shade = 0.35 + 0.65 * np.clip(normals @ light, 0, 1)
    w, h = size
    if not len(pts):
        raise ValueError("nothing to draw: no triangle faces the view")
    xy = pts[:, :, [0, 2]]
    lo, hi = xy.reshape(-1, 2).min(axis=0), xy.reshape(-1, 2).max(axis=0)
    scale = 0.92 * min(w / max(hi[0] - lo[0], 1e-9), h / max(hi[1] - lo[1], 1e-9))
    centre = (lo + hi) / 2
    sx = (xy[:, :, 0] - centre[0]) * scale + w / 2
    sy = h / 2 - (xy[:, :, 1] - centre[1]) * scale
    order = np.argsort(-pts[:, :, 1].mean(axis=1))  # far (large depth) first
    img = Image.new("RGB", size, background)
    draw = ImageDraw.Draw(img)
    base = np.array(colour, dtype=float)
    for i in order:
        c = tuple(int(v) for v in base * shade[i])
        draw.polygon(list(zip(sx[i], sy[i], strict=True)), fill=c, outline=c)
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()
