#!/usr/bin/env bash
# Re-render the pictures in hardware/images/ from board.scad (needs openscad and xvfb-run:
# apt-get install -y openscad xvfb). Run after `crib board scad --out hardware/board.scad`.
set -e
cd "$(dirname "$0")"
r() { out=$1; part=$2; shift 2; timeout 300 xvfb-run -a openscad -q -D "part=\"$part\"" -o images/$out.png --imgsize=1000,750 --viewall --autocenter "$@" board.scad; echo "rendered $out"; }
r board board
r underside board --camera=0,0,0,235,0,25,0
r deck-1 deck-1
r lid-1 lid-1
r key key
r assembly assembly
r mast-clamp mast-clamp
r elbow elbow
r camera-head camera-head
