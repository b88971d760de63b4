"""The camera mast: how high the camera must be to see the play area, and its printed parts.

A camera looking straight down from height ``h`` sees ``2 h tan(fov / 2)`` along each axis. The
Raspberry Pi Camera Module 3 sees 66° x 41° (4608 x 2592 px), the Wide version 102° x 67°;
the sensor's long side lies along the table's long side. The height is the larger of the two
axes' needs, plus a margin so that a card at the edge of the area is still whole in the picture.

The mast is two lengths of 16 mm aluminium tube (bought, cut to the lengths below): a vertical
post in a printed clamp on the table edge, and an arm from a printed elbow out over the middle
of the play area, ending in a printed camera head holding the module face down.

>>> m = MastSpec()
>>> round(camera_height(700, 500, 66, 41)), round(camera_height(700, 500, 102, 67))
(702, 397)
>>> m.post_length("standard"), m.post_length("wide"), m.arm_length()
(732, 426, 365)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["CAMERAS", "MastSpec", "camera_height", "ground_mm_per_px"]

#: name → (horizontal FOV°, vertical FOV°, width px, height px)
CAMERAS = {"standard": (66.0, 41.0, 4608, 2592), "wide": (102.0, 67.0, 4608, 2592)}


def camera_height(area_w: float, area_h: float, hfov: float, vfov: float, margin: float = 0.05) -> float:
    """Lowest height (mm) from which a camera pointing down sees ``area_w`` x ``area_h`` mm,
    with ``margin`` (a fraction) to spare on every side.

    >>> round(camera_height(1000, 100, 90, 60), 1)  # 1000 mm at 90°: 500 mm, plus 5 %
    525.0
    """
    if area_w <= 0 or area_h <= 0:
        raise ValueError("the area must have a positive size")
    if not (0 < hfov < 180 and 0 < vfov < 180):
        raise ValueError("fields of view are between 0 and 180 degrees")
    need_w = area_w / 2 / math.tan(math.radians(hfov) / 2)
    need_h = area_h / 2 / math.tan(math.radians(vfov) / 2)
    return max(need_w, need_h) * (1 + margin)


def ground_mm_per_px(height: float, hfov: float, width_px: int) -> float:
    """Millimetres of table per pixel at the image centre from ``height``.

    >>> round(ground_mm_per_px(734, 66, 4608), 3)
    0.207
    """
    return 2 * height * math.tan(math.radians(hfov) / 2) / width_px


@dataclass(frozen=True)
class MastSpec:
    """The area the camera must see and the mast's sizes (mm).

    The default area, 700 x 500 mm, is the middle of a 90 cm card table: the crib, the starter,
    the pegging cards in front of each player and the hands laid down for the show.
    """

    area_w: float = 700.0
    area_h: float = 500.0
    edge_to_centre: float = 400.0  # table edge (the clamp) to the middle of the area
    tube: float = 16.0  # aluminium tube outside diameter
    socket_depth: float = 30.0
    clamp_depth: float = 11.0  # the post's foot: 8 mm jaw + 3 mm socket floor above the table
    head_drop: float = 40.0  # the post's top to the lens (elbow and head)

    def height(self, camera: str = "standard") -> float:
        hfov, vfov, *_ = CAMERAS[camera]
        return camera_height(self.area_w, self.area_h, hfov, vfov)

    def post_length(self, camera: str = "standard") -> int:
        """Vertical tube to cut (mm, rounded up): its foot sits ``clamp_depth`` above the table
        top in the clamp's socket, and the lens ``head_drop`` below its top."""
        return math.ceil(self.height(camera) + self.head_drop - self.clamp_depth)

    def arm_length(self) -> int:
        """Horizontal tube from the elbow to the camera head: the post stands 20 mm in from the
        table edge and the lens sits 15 mm past the arm's end in the head."""
        return math.ceil(self.edge_to_centre - 20 - 15)

    def scad_constants(self) -> str:
        return (f"TUBE = {self.tube}; SOCKET = {self.socket_depth}; "
                f"POST = {self.post_length('wide')}; ARM = {self.arm_length()};"
                f"  // post cut for the Wide camera; {self.post_length('standard')} mm for the standard")

    SCAD_MODULES = r"""
module socket(h = SOCKET) {
    difference() { cylinder(d = TUBE + 8, h = h); translate([0, 0, 3]) cylinder(d = TUBE + 0.4, h = h); }
}
module mast_clamp() {  // a C-clamp for a table top up to 40 mm thick, M6 thumbscrew from below
    difference() {
        union() {
            translate([-25, -20, 0]) cube([50, 40, 8]);            // upper jaw, on the table
            translate([-25, -20 - 8, -48]) cube([50, 8, 56]);      // spine down the table edge
            translate([-25, -20, -48]) cube([50, 40, 8]);          // lower jaw, under the table
            translate([0, 0, 5]) socket();
        }
        translate([0, 5, -60]) cylinder(d = 6.4, h = 30);          // M6 screw through the lower jaw
        translate([0, 5, -44]) cylinder(d = 11.5, h = 5, $fn = 6); // its nut
    }
}
module elbow() {
    rotate([0, 0, 0]) socket();
    translate([0, 0, SOCKET + TUBE / 2 + 4]) rotate([0, 90, 0]) socket();
    translate([0, 0, SOCKET]) sphere(d = TUBE + 8);
}
module camera_head() {  // a socket for the arm and a plate holding the Camera Module 3 face down
    difference() {
        union() {
            rotate([0, 90, 0]) socket();
            translate([-18, -17, -TUBE / 2 - 16]) cube([36, 34, 3]);
            translate([-18, -3, -TUBE / 2 - 16]) cube([6, 6, 16]);
        }
        translate([0, 0, -TUBE / 2 - 20]) cylinder(d = 9, h = 10);           // the lens
        for (x = [-10.5, 10.5], y = [-6.25, 6.25])                          // M2 holes, 21 x 12.5
            translate([x, y, -TUBE / 2 - 20]) cylinder(d = 2.2, h = 10);
    }
}
module mast_assembly() {
    mast_clamp();
    color("silver") translate([0, 0, 8]) cylinder(d = TUBE, h = POST);
    translate([0, 0, POST - SOCKET + 8]) elbow();
    color("silver") translate([0, 0, POST + 8 + TUBE / 2 + 4]) rotate([0, 90, 0]) cylinder(d = TUBE, h = ARM);
    translate([ARM + SOCKET, 0, POST + 8 + TUBE / 2 + 4]) rotate([0, 0, 180]) camera_head();
}
"""
