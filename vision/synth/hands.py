"""A hand and forearm reaching over the table, seen from above, for the deal videos.

``hand_sprite`` draws a right hand, palm down, fingers pointing up the sprite (towards -y), its
forearm and a sleeve running down the sprite: a union of filled ellipses, capsules and polygons,
shaded from the distance to its outline (rounded limbs are darker at their edges), with
knuckle creases and nails. Its ``anchor`` is the fingertips' midpoint: the point that
touches a card. :class:`HandLayer` puts a sprite into a frame at any position and direction,
with the card it carries under the fingers, a soft shadow on the table and motion blur along
its movement.

>>> import numpy as np
>>> s = hand_sprite(60, tone=2, sleeve=(90, 60, 40), length=400)
>>> s.image.shape[2], s.image.dtype, int(s.image[int(s.anchor[1]) + 120, int(s.anchor[0]), 3])
(4, dtype('uint8'), 255)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

U8 = npt.NDArray[np.uint8]
F32 = npt.NDArray[np.float32]

# skin tones (BGR), light to dark
SKIN_TONES: tuple[tuple[int, int, int], ...] = (
    (168, 190, 232),
    (140, 172, 222),
    (112, 150, 205),
    (88, 126, 182),
    (62, 96, 148),
    (44, 68, 108),
)
SLEEVES: tuple[tuple[int, int, int], ...] = (
    (90, 60, 40),
    (60, 60, 60),
    (40, 40, 130),
    (120, 110, 100),
    (50, 90, 50),
    (30, 30, 30),
    (150, 150, 150),
    (110, 70, 110),
)


@dataclass
class HandSprite:
    """A hand's picture (BGRA) pointing up, and the fingertip point ``anchor`` (x, y) in it."""

    image: U8
    anchor: tuple[float, float]


def _capsule(img: U8, p0: tuple[float, float], p1: tuple[float, float], r: float, col: int) -> None:
    a = (round(p0[0] * 4), round(p0[1] * 4))
    b = (round(p1[0] * 4), round(p1[1] * 4))
    cv2.line(img, a, b, col, max(1, round(2 * r)), cv2.LINE_AA, 2)


def hand_sprite(
    card_width: float,
    tone: int = 0,
    sleeve: tuple[int, int, int] = (90, 60, 40),
    length: float = 1200,
    seed: int = 0,
) -> HandSprite:
    """A right hand palm down, fingers up, forearm and sleeve running ``length`` px down the
    sprite; sized for cards ``card_width`` px wide (a palm is a little wider than a card).
    ``tone`` indexes ``SKIN_TONES``.

    >>> s = hand_sprite(100, tone=0, length=600)
    >>> s.image.shape[0] >= 600, 0 < s.anchor[0] < s.image.shape[1]
    (True, True)
    """
    rng = np.random.default_rng(seed)
    u = float(card_width)
    w = int(2.3 * u)
    h = int(length + 0.4 * u)
    cx, top = w / 2, 0.25 * u  # the fingertips' line
    skin = np.zeros((h, w), np.uint8)
    # fingers: index, middle, ring, little (thumb on the left: a right hand, palm down)
    fx = (-0.4, -0.13, 0.14, 0.39)
    flen = (0.98, 1.08, 1.0, 0.78)
    fr = 0.112 * u
    knuckle_y = top + 1.0 * u
    tips: list[tuple[float, float]] = []
    for x, ln in zip(fx, flen, strict=True):
        tip = (cx + x * u * 1.05 + rng.normal(0, 0.02) * u, knuckle_y - ln * u)
        base = (cx + x * u * 0.95, knuckle_y + 0.1 * u)
        tips.append(tip)
        _capsule(skin, tip, base, fr if x > 0.3 else fr * 1.05, 255)
    # palm (back of the hand)
    cv2.ellipse(
        skin,
        (round(cx * 4), round((knuckle_y + 0.45 * u) * 4)),
        (round(0.56 * u * 4), round(0.62 * u * 4)),
        0,
        0,
        360,
        255,
        -1,
        cv2.LINE_AA,
        2,
    )
    # thumb: from the palm's left, angled forward
    _capsule(
        skin, (cx - 0.55 * u, knuckle_y + 0.55 * u), (cx - 0.78 * u, knuckle_y - 0.05 * u), 0.16 * u, 255
    )
    _capsule(skin, (cx - 0.78 * u, knuckle_y - 0.05 * u), (cx - 0.7 * u, knuckle_y - 0.35 * u), 0.14 * u, 255)
    # wrist and forearm
    wrist_y = knuckle_y + 1.15 * u
    arm = np.array(
        [
            (cx - 0.55 * u, knuckle_y + 0.5 * u),
            (cx + 0.56 * u, knuckle_y + 0.5 * u),
            (cx + 0.45 * u, wrist_y),
            (cx + 0.55 * u, wrist_y + 1.2 * u),
            (cx + 0.6 * u, h),
            (cx - 0.6 * u, h),
            (cx - 0.55 * u, wrist_y + 1.2 * u),
            (cx - 0.45 * u, wrist_y),
        ],
        np.float32,
    )
    cv2.fillPoly(skin, [np.round(arm * 4).astype(np.int32)], 255, cv2.LINE_AA, 2)
    # shading: rounded limbs are darker towards their outline
    dist = cv2.distanceTransform((skin > 127).astype(np.uint8), cv2.DIST_L2, 5)
    shade = 0.72 + 0.33 * np.clip(dist / (0.16 * u), 0, 1) ** 0.6
    # a soft light from one side, and low-frequency blotches
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    shade *= 1.0 + 0.06 * (xx - cx) / u
    blot = cv2.resize(rng.normal(0, 1, (max(2, h // int(u / 2 + 1)), 5)).astype(np.float32), (w, h))
    shade *= 1.0 + 0.025 * blot
    col = np.array(SKIN_TONES[tone % len(SKIN_TONES)], np.float32) * rng.uniform(0.95, 1.05, 3).astype(
        np.float32
    )
    bgr = shade[..., None] * col[None, None, :]
    # creases between the fingers' bases and over the knuckles, nails at the tips
    marks = np.zeros((h, w), np.float32)
    for x in fx:
        kx = cx + x * u * 0.95
        cv2.ellipse(
            marks,
            (round(kx * 4), round((knuckle_y + 0.05 * u) * 4)),
            (round(0.08 * u * 4), round(0.04 * u * 4)),
            0,
            200,
            340,
            1.0,
            max(1, round(u / 60)),
            cv2.LINE_AA,
            2,
        )
    marks = cv2.GaussianBlur(marks, (0, 0), max(0.6, u / 110))
    bgr *= (1 - 0.25 * marks)[..., None]
    for t in tips:
        nail = np.zeros((h, w), np.float32)
        cv2.ellipse(
            nail,
            (round(t[0] * 4), round((t[1] + 0.13 * u) * 4)),
            (round(0.07 * u * 4), round(0.1 * u * 4)),
            0,
            0,
            360,
            1.0,
            -1,
            cv2.LINE_AA,
            2,
        )
        nail = cv2.GaussianBlur(nail, (0, 0), max(0.5, u / 150))
        bgr = bgr * (1 - 0.2 * nail[..., None]) + (
            np.array([200, 205, 235], np.float32) * 0.2 * nail[..., None]
        )
    # the sleeve from the mid forearm down
    sleeve_y = wrist_y + rng.uniform(0.9, 1.5) * u
    cuff = np.array(
        [
            (cx - 0.85 * u, sleeve_y),
            (cx + 0.85 * u, sleeve_y + 0.08 * u),
            (cx + 0.9 * u, h),
            (cx - 0.9 * u, h),
        ],
        np.float32,
    )
    sl = np.zeros((h, w), np.uint8)
    cv2.fillPoly(sl, [np.round(cuff * 4).astype(np.int32)], 255, cv2.LINE_AA, 2)
    sdist = cv2.distanceTransform((sl > 127).astype(np.uint8), cv2.DIST_L2, 5)
    sshade = 0.7 + 0.35 * np.clip(sdist / (0.3 * u), 0, 1) ** 0.7
    folds = 1.0 + 0.08 * np.sin(yy / (0.23 * u) + 2 * np.sin(xx / (0.5 * u)))
    sbgr = (sshade * folds)[..., None] * np.array(sleeve, np.float32)[None, None, :]
    sa = (sl.astype(np.float32) / 255.0)[..., None]
    alpha = np.maximum(skin, sl).astype(np.float32)
    bgr = bgr * (1 - sa) + sbgr * sa
    out = np.dstack([np.clip(bgr, 0, 255).astype(np.uint8), alpha.astype(np.uint8)])
    return HandSprite(out, (cx, top + 0.05 * u))


@dataclass
class HandPose:
    """Where a hand is in one frame: fingertips at ``grip`` (x, y), pointing along ``angle``
    (radians in the image; 0 = right, -pi/2 = up), moving ``velocity`` px per frame; ``carry``:
    a card it holds (BGRA face, centre (x, y), angle in degrees, width in px, x-scale for a flip)."""

    grip: tuple[float, float]
    angle: float
    sprite: HandSprite
    velocity: tuple[float, float] = (0.0, 0.0)
    carry: tuple[U8, tuple[float, float], float, float, float] | None = None


class HandLayer:
    """Draws hands (and the cards they carry) over a frame: shadow, motion blur, lighting.

    ``light``: the video's fixed lighting (H x W x 3 float32 gain) applied to the hand's colours;
    ``exposure``: the fraction of a frame interval the shutter is open (motion blur length).
    """

    def __init__(
        self,
        size: tuple[int, int],
        light: F32 | None = None,
        exposure: float = 0.5,
        shadow_offset: tuple[float, float] = (12.0, 18.0),
        shadow_blur: float = 10.0,
        blur: bool = True,
    ) -> None:
        self.w, self.h = size
        self.light = light
        self.exposure = exposure
        self.shadow_offset = shadow_offset
        self.shadow_blur = shadow_blur
        self.blur = blur
        self._light8: F32 | None = None

    def draw(self, frame: U8, pose: HandPose) -> tuple[int, int, int, int, U8] | None:
        """Draw ``pose`` onto ``frame`` (BGR uint8) in place; returns the region it touched
        (x0, y0, x1, y1) and the coverage there (uint8 0..255: hand, card and shadow), or None.

        A moving hand is drawn at half resolution (its motion blur hides the difference), and
        its shadow at a quarter."""
        spr = pose.sprite
        sh, sw = spr.image.shape[:2]
        ax, ay = spr.anchor
        # sprite -> frame: rotate "up" (-y) onto the pose's direction, anchor onto the grip
        rot = pose.angle + np.pi / 2
        c, s = np.cos(rot), np.sin(rot)
        gx, gy = pose.grip
        m = np.array([[c, -s, gx - (c * ax - s * ay)], [s, c, gy - (s * ax + c * ay)]], np.float32)
        corners = np.array([[0, 0, 1], [sw, 0, 1], [sw, sh, 1], [0, sh, 1]], np.float32) @ m.T
        pts = [corners]
        cq = None
        if pose.carry is not None:
            face, (ccx, ccy), cang, cwid, sx = pose.carry
            fh, fw = face.shape[:2]
            a = np.radians(cang)
            ca, sa = np.cos(a), np.sin(a)
            hw, hh = cwid * max(abs(sx), 0.02) / 2, cwid * fh / fw / 2
            loc = np.array([[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]], np.float32)
            cq = (loc @ np.array([[ca, sa], [-sa, ca]], np.float32)) + np.array([ccx, ccy], np.float32)
            pts.append(cq)
        allp = np.concatenate(pts)
        vx, vy = pose.velocity
        blur_len = float(np.hypot(vx, vy)) * self.exposure if self.blur else 0.0
        ox, oy = self.shadow_offset
        pad = int(abs(ox) + abs(oy) + 3 * self.shadow_blur + blur_len) + 4
        x0 = max(0, int(np.floor(allp[:, 0].min())) - pad)
        y0 = max(0, int(np.floor(allp[:, 1].min())) - pad)
        x1 = min(self.w, int(np.ceil(allp[:, 0].max())) + pad)
        y1 = min(self.h, int(np.ceil(allp[:, 1].max())) + pad)
        if x1 - x0 < 8 or y1 - y0 < 8:
            return None
        rw, rh = x1 - x0, y1 - y0
        k = 0.5 if blur_len > 3 else 1.0  # working scale
        sw_, sh_ = max(2, round(rw * k)), max(2, round(rh * k))
        to_roi = np.float32([[k, 0, -x0 * k], [0, k, -y0 * k]])
        m_roi = to_roi[:, :2] @ m
        m_roi[:, 2] += to_roi[:, 2]
        layer = cv2.warpAffine(
            spr.image,
            m_roi,
            (sw_, sh_),
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=(0, 0, 0, 0),
        )
        la = layer[..., 3].astype(np.float32) * (1 / 255.0)
        col = layer[..., :3].astype(np.float32) * la[..., None]  # premultiplied
        if cq is not None and pose.carry is not None:
            face = pose.carry[0]
            fh, fw = face.shape[:2]
            src = np.float32([[0, 0], [fw, 0], [fw, fh], [0, fh]])
            dst = ((cq - np.float32([x0, y0])) * k).astype(np.float32)
            hm = cv2.getPerspectiveTransform(src, dst)
            cw_ = cv2.warpPerspective(
                face,
                hm,
                (sw_, sh_),
                flags=cv2.INTER_LINEAR,
                borderMode=cv2.BORDER_CONSTANT,
                borderValue=(0, 0, 0, 0),
            )
            ca_ = cw_[..., 3].astype(np.float32) * (1 / 255.0)
            col += cw_[..., :3].astype(np.float32) * (ca_ * (1 - la))[..., None]
            la += ca_ * (1 - la)
        if blur_len > 1.5:
            col, la = _motion_blur(col, la, vx * self.exposure * k, vy * self.exposure * k)
        # the shadow on the table, at a quarter of the working scale
        q = 0.25
        small = cv2.resize(la, (max(2, round(sw_ * q)), max(2, round(sh_ * q))), interpolation=cv2.INTER_AREA)
        sm = cv2.warpAffine(small, np.float32([[1, 0, ox * k * q], [0, 1, oy * k * q]]), small.shape[::-1])
        sm = cv2.GaussianBlur(sm, (0, 0), max(0.5, self.shadow_blur * k * q)) * (0.45 * 255)
        sm8 = cv2.resize(sm.astype(np.uint8), (rw, rh), interpolation=cv2.INTER_LINEAR)
        if self.light is not None:
            col *= self._light(x0, y0, x1, y1, sw_, sh_)
        col8 = np.clip(col, 0, 255).astype(np.uint8)
        la8 = (la * 255 + 0.5).astype(np.uint8)
        if k != 1.0:
            col8 = cv2.resize(col8, (rw, rh), interpolation=cv2.INTER_LINEAR)
            la8 = cv2.resize(la8, (rw, rh), interpolation=cv2.INTER_LINEAR)
        keep = cv2.multiply(255 - sm8, 255 - la8, scale=1 / 255)
        roi = frame[y0:y1, x0:x1]
        roi[:] = cv2.add(cv2.multiply(roi, cv2.cvtColor(keep, cv2.COLOR_GRAY2BGR), scale=1 / 255), col8)
        return x0, y0, x1, y1, cv2.max(la8, sm8)

    def _light(self, x0: int, y0: int, x1: int, y1: int, w: int, h: int) -> F32:
        """The light over a region, at ``w`` x ``h`` (the light is smooth: taken from 1/8 scale)."""
        assert self.light is not None
        if self._light8 is None:
            self._light8 = cv2.resize(
                self.light, (max(2, self.w // 8), max(2, self.h // 8)), interpolation=cv2.INTER_AREA
            )
        lh, lw = self._light8.shape[:2]
        a0, b0 = min(lw - 1, x0 // 8), min(lh - 1, y0 // 8)
        a1, b1 = max(a0 + 1, min(lw, -(-x1 // 8))), max(b0 + 1, min(lh, -(-y1 // 8)))
        return cv2.resize(self._light8[b0:b1, a0:a1], (w, h), interpolation=cv2.INTER_LINEAR)


def _motion_blur(col: F32, alpha: F32, dx: float, dy: float) -> tuple[F32, F32]:
    """Average of copies shifted along (dx, dy) (a box blur along the motion)."""
    n = int(min(9, max(2, np.ceil(np.hypot(dx, dy)))))
    acc_c = np.zeros_like(col)
    acc_a = np.zeros_like(alpha)
    h, w = alpha.shape
    for k in range(n):
        t = k / (n - 1) - 0.5
        sx, sy = round(t * dx), round(t * dy)
        ys0, ys1 = max(0, -sy), min(h, h - sy)
        xs0, xs1 = max(0, -sx), min(w, w - sx)
        if ys1 <= ys0 or xs1 <= xs0:
            continue
        acc_c[ys0 + sy : ys1 + sy, xs0 + sx : xs1 + sx] += col[ys0:ys1, xs0:xs1]
        acc_a[ys0 + sy : ys1 + sy, xs0 + sx : xs1 + sx] += alpha[ys0:ys1, xs0:xs1]
    return acc_c / n, acc_a / n
