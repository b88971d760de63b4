"""Real-camera effects for the deal videos: low light, exposure and white-balance drift, lamp
flicker bands, a bump of the table, a tilted camera, a lamp's shadow and warm light, H.264.

:class:`Effects` names them (all off by default); :func:`vision.synth.video.render_video` takes
one (or its JSON form, a mapping) as ``effects=`` and applies it with a :class:`Camera`:

* the lamp (``shadow``, ``warm``) and the exposure of ``low_light`` change the fixed light of
  the table (and the hands under it): no cost per frame;
* ``tilt`` and ``bumps`` warp each frame (a homography: the camera turned ``tilt`` degrees about
  the frame's horizontal axis, the far side at the top; a bump shakes the picture a few pixels
  and a fraction of a degree for ``bump_frames`` frames); the truth's quads carry the tilt (not
  the shake, which is over in half a second);
* ``drift`` (slow auto-exposure and white-balance wander, and a step of the exposure when a
  hand comes in), ``flicker`` (a rolling shutter under a lamp on 50/60 Hz mains: horizontal
  bands that roll between frames) and ``low_light``'s sensor noise (shot noise and read noise,
  amplified by the gain) are applied to each frame in one pass;
* ``h264_kbps`` writes the ``.mp4`` as H.264 at that bit rate with ``ffmpeg`` (libx264, one
  thread: the same bytes each time) instead of OpenCV's mp4v.

Everything is drawn from the video's seed: the same arguments give the same frames.

>>> e = Effects.from_json({"low_light": 1, "bumps": [2.5]})
>>> e.to_json()
{'low_light': 1.0, 'bumps': [2.5]}
>>> cam = Camera(e, (320, 180), 10, seed=0)
>>> frame = np.full((180, 320, 3), 128, np.uint8)
>>> shaken = [cam.geometry(k) is not None for k in range(24, 31)]
>>> shaken
[False, True, True, True, True, True, False]
>>> float(cam.process(frame, 0, hands=False).std()) > 3  # low light: a noisy frame
True
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

__all__ = ["Camera", "Effects", "H264Writer", "ffmpeg_path"]

U8 = npt.NDArray[np.uint8]
F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Effects:
    """The real-camera effects of a deal video (each 0 or empty: off).

    ``low_light`` (0-1): a dim room: the camera's gain rises to ``1 + 2 * low_light`` but the
    picture still ends ``1 - 0.45 * low_light`` as bright, and its noise (shot noise, growing
    with the signal, and read noise, both amplified by the gain) is stronger.
    ``drift`` (0-1): auto-exposure and white balance wander slowly (gain ±10 %, each colour
    ±5 % at ``drift=1``, over 5-40 s), and the exposure steps down 8 % (settling in ~0.4 s) while
    a hand is in view, back when it leaves.
    ``flicker`` (0-1): the depth of the bands a rolling shutter records under a lamp on
    ``mains_hz`` mains (the light pulses at twice that); 0.1 is ±10 %.
    ``bumps``: seconds at which the table is bumped; the picture shakes ``bump_px`` (at 1280 px
    wide, scaled) and up to 0.5° for ``bump_frames`` frames.
    ``tilt``: degrees the camera leans from straight down (the far side at the top).
    ``shadow`` (0-1): a lamp's soft shadow band across the table, this much darker.
    ``warm`` (0-1): a warm (tungsten) light cast: red up, blue down.
    ``h264_kbps``: write H.264 at this bit rate (needs ffmpeg; 0: OpenCV's mp4v).
    """

    low_light: float = 0.0
    drift: float = 0.0
    flicker: float = 0.0
    mains_hz: float = 50.0
    bumps: tuple[float, ...] = field(default=())
    bump_px: float = 6.0
    bump_frames: int = 5
    tilt: float = 0.0
    shadow: float = 0.0
    warm: float = 0.0
    h264_kbps: int = 0

    @classmethod
    def from_json(cls, data: Effects | Mapping[str, Any] | None) -> Effects:
        """Effects from a mapping (unknown keys refused), an :class:`Effects` or None (none)."""
        if data is None:
            return cls()
        if isinstance(data, Effects):
            return data
        known = {f.name: f for f in fields(cls)}
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise ValueError(f"unknown effect {unknown[0]!r} (known: {', '.join(known)})")
        kw: dict[str, Any] = {}
        for k, v in data.items():
            if k == "bumps":
                kw[k] = tuple(float(t) for t in v)
            elif k in ("h264_kbps", "bump_frames"):
                kw[k] = int(v)
            else:
                kw[k] = float(v)
        return cls(**kw)

    def to_json(self) -> dict[str, Any]:
        """The effects that differ from none, JSON-friendly (part of the golden videos' digest)."""
        base = asdict(Effects())
        out = {}
        for k, v in asdict(self).items():
            if v != base[k]:
                out[k] = list(v) if isinstance(v, tuple) else v
        return out

    def merged(self, other: Effects | Mapping[str, Any] | None) -> Effects:
        """These effects with those of ``other`` that are set laid over them."""
        return replace(self, **{k: getattr(Effects.from_json(other), k)
                                for k in Effects.from_json(other).to_json()})

    @property
    def any(self) -> bool:
        """True when some effect is on."""
        return bool(self.to_json())


def ffmpeg_path() -> str | None:
    """The ``ffmpeg`` program, or None where it is not installed (Debian: ``apt-get install ffmpeg``)."""
    return shutil.which("ffmpeg")


class H264Writer:
    """Frames (BGR, uint8) piped raw to ``ffmpeg``, written as H.264 (libx264, yuv420p) at
    ``kbps`` in an MP4; one encoder thread and bit-exact flags, so the file is reproducible."""

    def __init__(self, path: Path, size: tuple[int, int], fps: float, kbps: int) -> None:
        exe = ffmpeg_path()
        if exe is None:
            raise OSError("H.264 needs ffmpeg (apt-get install ffmpeg); OpenCV here cannot write it")
        w, h = size
        cmd = [
            exe, "-hide_banner", "-loglevel", "error", "-y",
            "-f", "rawvideo", "-pix_fmt", "bgr24", "-s", f"{w}x{h}", "-r", f"{fps:g}", "-i", "-",
            "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-threads", "1",
            "-b:v", f"{kbps}k", "-maxrate", f"{kbps}k", "-bufsize", f"{2 * kbps}k",
            "-g", str(max(1, round(2 * fps))),
            "-fflags", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1",
            str(path),
        ]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stderr=subprocess.PIPE)
        self.size = size

    def write(self, frame: U8) -> None:
        """Encode one frame."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(np.ascontiguousarray(frame).tobytes())

    def release(self) -> None:
        """Finish the file; raises OSError with ffmpeg's message when it failed."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        err = self.proc.stderr.read().decode(errors="replace") if self.proc.stderr else ""
        if self.proc.wait() != 0:
            raise OSError(f"ffmpeg failed: {err.strip()}")


def tilt_homography(size: tuple[int, int], degrees: float) -> F64:
    """The homography from a straight-down view to one ``degrees`` off vertical (the camera
    turned about the frame's horizontal axis, a 60° lens across the width), recentred and zoomed
    just enough that no pixel comes from outside the straight view.

    >>> m = tilt_homography((1280, 720), 10)
    >>> top = cv2.perspectiveTransform(np.float64([[[0, 0], [1280, 0]]]), m)[0]
    >>> bottom = cv2.perspectiveTransform(np.float64([[[0, 720], [1280, 720]]]), m)[0]
    >>> bool(top[1, 0] - top[0, 0] < bottom[1, 0] - bottom[0, 0])  # the far side looks narrower
    True
    """
    w, h = size
    if degrees == 0:
        return np.eye(3)
    f = 0.5 * w / np.tan(np.radians(30))
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
    t = -np.radians(degrees)  # the top of the frame turns away: the far side
    rot = np.array([[1, 0, 0], [0, np.cos(t), -np.sin(t)], [0, np.sin(t), np.cos(t)]])
    m = k @ rot @ np.linalg.inv(k)
    c = cv2.perspectiveTransform(np.float64([[[w / 2, h / 2]]]), m)[0, 0]
    m = np.array([[1, 0, w / 2 - c[0]], [0, 1, h / 2 - c[1]], [0, 0, 1]]) @ m
    corners = np.float64([[[0, 0], [w, 0], [w, h], [0, h]]])

    def covered(s: float) -> bool:
        z = np.array([[s, 0, w / 2 * (1 - s)], [0, s, h / 2 * (1 - s)], [0, 0, 1]])
        src = cv2.perspectiveTransform(corners, np.linalg.inv(z @ m))[0]
        return bool(np.all(src >= -0.5) and np.all(src[:, 0] <= w + 0.5) and np.all(src[:, 1] <= h + 0.5))

    lo, hi = 1.0, 2.0
    for _ in range(30):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if covered(mid) else (mid, hi)
    z = np.array([[hi, 0, w / 2 * (1 - hi)], [0, hi, h / 2 * (1 - hi)], [0, 0, 1]])
    return z @ m


class Camera:
    """Applies :class:`Effects` to a video of ``size`` at ``fps``, drawn from ``seed``."""

    NOISE_SCALE = 8.0  # sigma is looked up as a uint8 of sigma * NOISE_SCALE

    def __init__(self, effects: Effects, size: tuple[int, int], fps: float, seed: int) -> None:
        self.e = effects
        self.w, self.h = size
        self.fps = fps
        rng = np.random.default_rng([seed, 2])
        self.rng = rng
        w, h = size
        # the lamp: a soft shadow band (fixed) and the warm cast
        self.shadow_map: F32 | None = None
        if effects.shadow > 0:
            yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
            ang = rng.uniform(-0.6, 0.6) + np.pi / 2 * int(rng.integers(2))
            cx, cy = rng.uniform(0.3, 0.7) * w, rng.uniform(0.3, 0.7) * h
            d = (xx - cx) * np.cos(ang) + (yy - cy) * np.sin(ang)
            width = rng.uniform(0.06, 0.12) * h
            soft = rng.uniform(0.03, 0.06) * h
            band = 1 / (1 + np.exp(-(width - np.abs(d)) / soft))
            self.shadow_map = (1 - effects.shadow * band).astype(np.float32)
            self.shadow_line = (float(cx), float(cy), float(ang), float(width))
        # exposure (what the picture ends as) and the sensor's gain
        self.exposure = 1 - 0.45 * effects.low_light
        self.gain = 1 + 2 * effects.low_light
        # sensor noise of a pixel recorded at level I (0-255), its signal I / gain before the gain:
        # sigma = gain * sqrt(k * I / gain + read^2), looked up from I
        self.noise_lut: U8 | None = None
        if effects.low_light > 0:
            level = np.arange(256, dtype=np.float64)
            sigma = self.gain * np.sqrt(0.12 * level / self.gain + 2.0**2)
            self.noise_lut = np.clip(sigma * self.NOISE_SCALE, 0, 255).astype(np.uint8)
            pad = 16
            self.pad = pad
            self.bank = [
                (rng.standard_normal((h + pad, w, 3), dtype=np.float32) / self.NOISE_SCALE) for _ in range(4)
            ]
        # drift: slow sinusoids with random periods and phases
        self.drift_terms = [
            (float(rng.uniform(12, 25)), float(rng.uniform(0, 2 * np.pi))),
            (float(rng.uniform(5, 9)), float(rng.uniform(0, 2 * np.pi))),
        ]
        self.wb_terms = [(float(rng.uniform(15, 40)), float(rng.uniform(0, 2 * np.pi))) for _ in range(3)]
        self.ae = 0.0  # the exposure's step state (follows a hand in view)
        self.ae_frame = -1
        # flicker: the frame clock runs a little off the mains, with jitter
        self.clock = 1 + float(rng.choice([-1, 1])) * float(rng.uniform(0.002, 0.006))
        self.flicker_phase = float(rng.uniform(0, 1))
        self.readout = 1 / 30  # seconds for the rolling shutter to read the frame top to bottom
        # bumps: the frames shaken and their motion
        self.shakes: dict[int, F64] = {}
        self.bump_spans: list[tuple[int, int]] = []
        scale = w / 1280
        for t in effects.bumps:
            k0 = round(t * fps)
            direction = rng.uniform(0, 2 * np.pi)
            rot = rng.uniform(-0.5, 0.5)
            phase = rng.uniform(0, np.pi / 3)
            n = max(1, effects.bump_frames)
            for j in range(n):
                env = np.exp(-j / max(1.0, n / 2.5)) * np.cos(np.pi * 0.9 * j + phase)
                amp = effects.bump_px * scale * env
                dx, dy = amp * np.cos(direction), amp * np.sin(direction)
                r = np.radians(rot * env)
                c, s = np.cos(r), np.sin(r)
                m = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
                m = np.array([[1, 0, w / 2 + dx], [0, 1, h / 2 + dy], [0, 0, 1]]) @ m
                m = m @ np.array([[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1]])
                self.shakes[k0 + j] = m
            self.bump_spans.append((k0, k0 + n - 1))
        self.tilt = tilt_homography(size, effects.tilt) if effects.tilt else None

    # -- the fixed light
    def light(self, light: F32) -> F32:
        """The table's fixed light with the lamp's shadow, its warm cast and the exposure."""
        out = light
        if self.shadow_map is not None:
            out = out * self.shadow_map[..., None]
        if self.e.warm > 0:
            k = self.e.warm
            cast = np.array([1 - 0.18 * k, 1 - 0.02 * k, 1 + 0.12 * k], np.float32)  # B, G, R
            out = out * cast[None, None, :]
        if self.exposure != 1:
            out = out * np.float32(self.exposure)
        return out.astype(np.float32)

    # -- geometry
    def geometry(self, index: int) -> F64 | None:
        """The homography warping frame ``index`` (tilt, then a bump's shake), or None."""
        shake = self.shakes.get(index)
        if self.tilt is None and shake is None:
            return None
        m = self.tilt if self.tilt is not None else np.eye(3)
        return shake @ m if shake is not None else m

    def quad(self, quad: npt.NDArray[Any]) -> npt.NDArray[np.float32]:
        """A quad of the straight view as the tilted camera sees it (the truth's quads)."""
        if self.tilt is None:
            return np.asarray(quad, np.float32)
        q = np.asarray(quad, np.float64).reshape(1, -1, 2)
        return cv2.perspectiveTransform(q, self.tilt)[0].astype(np.float32)

    # -- photometry
    def gains(self, index: int, hands: bool) -> F32:
        """Per-channel gain (B, G, R) of frame ``index`` from the drift (1 without it)."""
        t = index / self.fps
        g = np.ones(3, np.float32)
        if self.e.drift > 0:
            a = 0.10 * self.e.drift
            wander = 0.6 * np.sin(2 * np.pi * t / self.drift_terms[0][0] + self.drift_terms[0][1])
            wander += 0.4 * np.sin(2 * np.pi * t / self.drift_terms[1][0] + self.drift_terms[1][1])
            # the exposure steps when a hand comes in and settles (first order, ~0.4 s)
            target = -0.08 * self.e.drift if hands else 0.0
            k = 1 - np.exp(-1 / (self.fps * 0.4))
            self.ae += (target - self.ae) * k
            self.ae_frame = index
            wb = [1 + 0.05 * self.e.drift * np.sin(2 * np.pi * t / p + ph) for p, ph in self.wb_terms]
            g = (1 + a * wander + self.ae) * np.array(wb, np.float32)
        return g.astype(np.float32)

    def rows(self, index: int) -> F32 | None:
        """Per-row gain of frame ``index`` from the flicker bands (None without them)."""
        if self.e.flicker <= 0:
            return None
        t0 = index / self.fps * self.clock + self.flicker_phase
        y = np.arange(self.h, dtype=np.float64) / self.h
        light_hz = 2 * self.e.mains_hz
        wave = np.sin(2 * np.pi * light_hz * (t0 + y * self.readout))
        return (1 + self.e.flicker * wave).astype(np.float32)

    def process(self, frame: U8, index: int, hands: bool) -> U8:
        """Frame ``index`` as the camera records it: warped, its gains and noise applied.
        ``hands``: a hand is in view (the exposure reacts)."""
        m = self.geometry(index)
        if m is not None:
            frame = cv2.warpPerspective(frame, m, (self.w, self.h), flags=cv2.INTER_LINEAR,
                                        borderMode=cv2.BORDER_REPLICATE)
        gains = self.gains(index, hands)
        rows = self.rows(index)
        changes = bool(np.any(gains != 1))
        if rows is None and not changes and self.noise_lut is None:
            return frame
        f = frame.astype(np.float32)
        if rows is not None:
            f *= rows[:, None, None] * gains[None, None, :]
        elif changes:
            f *= gains[None, None, :]
        if self.noise_lut is not None:
            sigma = cv2.LUT(frame, self.noise_lut).astype(np.float32)
            bank = self.bank[int(self.rng.integers(len(self.bank)))]
            dy = int(self.rng.integers(0, self.pad))
            f += sigma * bank[dy : dy + self.h]
        f += 0.5
        np.clip(f, 0, 255, out=f)
        return f.astype(np.uint8)

    def to_json(self) -> dict[str, Any]:
        """What the truth records of the camera: the tilt's homography, the bumps' frames."""
        out: dict[str, Any] = {"effects": self.e.to_json()}
        if self.tilt is not None:
            out["tilt_homography"] = np.round(self.tilt, 8).tolist()
        if self.bump_spans:
            out["bumps"] = [{"start": a, "end": b} for a, b in self.bump_spans]
        return out
