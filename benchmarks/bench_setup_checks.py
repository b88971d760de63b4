"""The live set-up checks beside the tracker: does the tracker keep its frame rate?

    python benchmarks/bench_setup_checks.py [--runs 1] [--paced] [--askers 5]

Follows the golden deal video (rendered once, then cached: :mod:`vision.synth.golden`) with
``crib serve``'s camera service (:class:`companion.camera.CameraService`, the ``video:`` backend)
twice: once alone, once while ``--askers`` threads ask for the set-up checks five times a second
each, as phones with the Camera tab's Set-up step open would (``GET /api/camera/checks``; the
service runs them at most once a second, in the asker's thread, never the tracker's). Prints,
per run, the tracker's frame rate (frames it followed per second of wall time), how many times
the checks ran and how long each took, and whether the game came out with the video's scores.

Unpaced (the default), the video is read as fast as the tracker takes its frames, every one of
them: the frame rate is the tracker's throughput. ``--paced`` plays it at its own 10 frames/s,
as a camera would, and prints the share of the frames the tracker followed (a tracker that
falls behind skips to the newest frame).

The bar (issue 38): the checks at least once a second, the tracker at 10 frames/s or more.

    python benchmarks/bench_setup_checks.py --large

Memory at the 40 MP limit instead: the camera service follows ten 6300x6300 PNG frames
(``frames:``) and a 6000x6000 MJPEG video of ten frames (``video:``), each in a fresh process,
and asks for the checks once; prints each process's peak resident memory (``VmHWM``) with the
ring of small copies, and with a ring that keeps the full frames (as it did before issue 46) for
comparison. The bar (issue 46): under 1 GB with the small copies.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import cv2

import vision.camera.check as check
from companion.camera import CameraService
from companion.service import Companion
from cribbage.gamelog import GameStore
from vision.synth.golden import golden_video


def follow(path: Path, truth: dict[str, Any], askers: int, paced: bool) -> dict[str, Any]:
    """Follow the video once; ``askers`` threads ask for the checks meanwhile (0: none)."""
    data = Path(tempfile.mkdtemp())
    companion = Companion(GameStore(data / "games.sqlite3"), leds="none")
    settings = truth.get("settings") or {"players": ["Ann", "Bob"]}
    game = companion.new_game(settings)
    companion.apply(game, {"type": "dealer", "seat": truth.get("dealer", "A")})
    camera = CameraService(companion, f"video:{path}", data, realtime=paced)
    companion.attach_camera(camera)
    taken: list[tuple[float, int]] = []  # (when, frame number) of each frame the tracker followed
    runs: list[tuple[float, float]] = []  # (start, end) of each run of the checks
    follower_cls = camera._follower_cls

    class Timed(follower_cls):  # type: ignore[misc, valid-type]
        def feed(self, image: Any, number: int, *rest: Any) -> Any:
            taken.append((time.monotonic(), number))
            return super().feed(image, number, *rest)

    camera._follower_cls = Timed
    real_check = check.check_frames

    def timed_check(frames: Any, *rest: Any) -> Any:
        began = time.monotonic()
        try:
            return real_check(frames, *rest)
        finally:
            runs.append((began, time.monotonic()))

    check.check_frames = timed_check
    reports: list[dict[str, Any]] = []
    asks = [0]
    done = threading.Event()

    def ask() -> None:
        while not done.wait(0.2):
            report = camera.checks()
            asks[0] += 1
            if report is not None and (not reports or report is not reports[-1]):
                reports.append(report)

    pollers = [threading.Thread(target=ask, daemon=True) for _ in range(askers)]
    start = time.monotonic()
    camera.start()
    for poller in pollers:
        poller.start()
    while camera.capture.status()["state"] not in ("ended", "stopped") and time.monotonic() - start < 600:
        time.sleep(0.05)

    def last_taken() -> int:  # the newest frame the tracker took (paced, it skips to the newest)
        recent = list(camera._recent)
        return int(recent[-1].seq) if recent else 0

    while last_taken() < camera.capture.status()["frames"] and time.monotonic() - start < 600:
        time.sleep(0.01)  # the last frame delivered is being followed
    elapsed = time.monotonic() - start
    done.set()
    for poller in pollers:
        poller.join()
    camera.close()
    check.check_frames = real_check
    skipped = [(t, b - a - 1) for (_, a), (t, b) in itertools.pairwise(taken) if b - a > 1]
    in_check = sum(n for t, n in skipped if any(r0 <= t <= r1 + 0.2 for r0, r1 in runs))
    scores = companion.state(game)["scores"]
    companion.close()
    delivered = camera.capture.status()["frames"]
    unique = {id(r): r for r in reports}.values()
    return {"fps": camera.followed / elapsed, "followed": camera.followed, "delivered": delivered,
            "seconds": elapsed, "checks": camera.checks_run, "asks": asks[0],
            "per_second": camera.checks_run / elapsed,
            "ms": [r["ms"] for r in unique], "scores": scores, "exact": scores == truth["scores"],
            "skipped": sum(n for _, n in skipped), "in_check": in_check}


LARGE = {"photos": (6300, 6300), "video": (6000, 6000)}
GB = 1 << 30


def large_source(kind: str, folder: Path) -> str:
    """Ten frames at the 40 MP limit of a good table (stretched to the size) as a source spec."""
    from vision.synth.setup_frames import good_frame

    width, height = LARGE[kind]
    image = cv2.resize(good_frame(2, "procedural-5", "wood_dark")[0], (width, height),
                       interpolation=cv2.INTER_CUBIC)
    if kind == "photos":
        first = folder / "f000.png"
        cv2.imwrite(str(first), image, [cv2.IMWRITE_PNG_COMPRESSION, 1])
        for k in range(1, 10):  # the same bytes under ten names: each is decoded on its own
            (folder / f"f{k:03d}.png").hardlink_to(first)
        return f"frames:{folder}"
    path = folder / "large.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (width, height))
    for _ in range(10):
        writer.write(image)
    writer.release()
    return f"video:{path}"


def large_child(spec: str, full: bool) -> None:
    """Follow ``spec`` to its end, ask for the checks once, print the peak RSS as JSON."""
    import json

    import companion.camera as service

    if full:  # the ring as it was: the frames themselves
        service.Kept.of = classmethod(  # type: ignore[method-assign, assignment]
            lambda cls, frame, seq: cls(frame.image, frame.size, seq, frame.field_of_view))
    data = Path(tempfile.mkdtemp())
    companion = Companion(GameStore(data / "games.sqlite3"), leds="none")
    companion.new_game({"players": ["Ann", "Bob"]})
    camera = CameraService(companion, spec, data, realtime=False)
    companion.attach_camera(camera)
    camera.start()
    start = time.monotonic()
    while (camera.capture.status()["state"] not in ("ended", "stopped") or camera.followed < 10) \
            and time.monotonic() - start < 900:
        time.sleep(0.05)
    report = camera.checks() or {}
    kept = [k.image.shape for k in camera._recent if k.image is not None]
    companion.close()
    peak = next(int(line.split()[1]) * 1024 for line in Path("/proc/self/status").read_text().splitlines()
                if line.startswith("VmHWM:"))
    print(json.dumps({"peak": peak, "followed": camera.followed, "kept": kept[-1] if kept else None,
                      "size": [report.get("width"), report.get("height")], "ok": report.get("ok"),
                      "seconds": round(time.monotonic() - start, 1)}))


def large(full_too: bool) -> bool:
    """The ``--large`` run: each source in a fresh process, small copies (and full frames)."""
    import json
    import subprocess

    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for kind in LARGE:
            folder = Path(tmp) / kind
            folder.mkdir()
            spec = large_source(kind, folder)
            for full in (False, True) if full_too else (False,):
                out = subprocess.run([sys.executable, __file__, "--large-child", spec]
                                     + (["--full"] if full else []),
                                     capture_output=True, text=True, check=False)
                if out.returncode:
                    print(f"  {kind}: the run failed: {out.stderr.strip().splitlines()[-1:]}")
                    ok = False
                    continue
                r = json.loads(out.stdout.strip().splitlines()[-1])
                ring = "full frames" if full else "small copies"
                print(f"  {kind} {LARGE[kind][0]}x{LARGE[kind][1]}, ring of {ring}: peak RSS "
                      f"{r['peak'] / 2**20:.0f} MB; {r['followed']} frames followed in {r['seconds']} s, "
                      f"kept {r['kept']}, checks said {r['size']} ok={r['ok']}", flush=True)
                ok &= full or r["peak"] < GB
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1, help="each case this many times")
    parser.add_argument("--askers", type=int, default=5,
                        help="threads asking for the checks, 5 a second each")
    parser.add_argument("--paced", action="store_true", help="play the video at its own 10 frames/s")
    parser.add_argument("--large", action="store_true",
                        help="peak memory on frames at the 40 MP limit instead (issue 46)")
    parser.add_argument("--full", action="store_true", help="with --large: also a ring of full frames")
    parser.add_argument("--large-child", metavar="SPEC", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    if args.large_child:
        large_child(args.large_child, args.full)
        return 0
    if args.large:
        return 0 if large(args.full) else 1
    path, truth = golden_video(None, "keep", progress=True)
    frames = truth["frames"] if isinstance(truth["frames"], int) else len(truth["frames"])
    how = "paced" if args.paced else "unpaced (every frame, as fast as the tracker takes them)"
    print(f"{path.name}: {frames} frames at {truth['fps']} frames/s, {how}", flush=True)
    ok = True
    for run in range(args.runs):
        for askers in (0, args.askers):
            r = follow(path, truth, askers, args.paced)
            label = "tracker alone" if not askers else f"with the live checks ({askers} askers)"
            line = (f"  run {run + 1}, {label:>32}: tracker {r['fps']:.1f} frames/s "
                    f"({r['followed']}/{r['delivered']} frames in {r['seconds']:.1f} s); ")
            if askers:
                ms = r["ms"] or [0.0]
                line += (f"checks ran {r['checks']} times ({r['per_second']:.2f}/s for {r['asks']} asks), "
                         f"{statistics.mean(ms):.0f} ms mean, {max(ms):.0f} ms max (the first "
                         f"{ms[0]:.0f} ms); ")
            if args.paced:
                line += f"frames skipped {r['skipped']} ({r['in_check']} while the checks ran); "
            line += f"scores {'exact' if r['exact'] else 'WRONG'} {r['scores']}"
            print(line, flush=True)
            ok &= r["exact"] and r["fps"] >= 10 and (not askers or r["per_second"] >= 0.5)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
