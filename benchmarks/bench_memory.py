"""The whole companion in a Pi Zero 2 W's memory: run ``python benchmarks/bench_memory.py``.

    python benchmarks/bench_memory.py [--video PATH] [--limit-mb 512] [--phones 4] [--passes 1]
                                      [-- extra crib serve arguments]

Starts ``crib serve --demo --camera video:PATH`` (``make run``'s demo: the golden deal video,
``python -m vision.synth.golden``, followed at its own 10 frames/s by the camera service and the
tracker) in a memory cgroup of ``--limit-mb`` (512 MB, a Zero 2 W's RAM) with swap capped at
nothing, then opens ``--phones`` phones: each holds the live stream (``/api/stream``, server-sent
events) and polls as the Camera tab does (``/api/camera`` each second, the snapshot every two,
the game every two). It follows the video to its end (``--passes`` times) while sampling, twice a
second, the server's resident memory (``VmRSS`` of it and any child process), its threads and the
cgroup's usage, and prints:

* peak RSS (``VmHWM`` and the samples' highest) and steady RSS (the median of the second half);
* threads (highest);
* whether the kernel killed anything for memory (the cgroup's ``oom_kill`` count, or the server
  dying of SIGKILL) and whether anything went to swap (``VmSwap``, the cgroup's swap use).

The limit is a cgroup v2 ``memory.max`` (with ``memory.swap.max`` 0) where ``/sys/fs/cgroup`` is
writable, else a cgroup v1 ``memory.limit_in_bytes`` (and ``memory.memsw.limit_in_bytes``); the
line ``limit:`` says which. Without either (not root, or no memory controller) nothing is
enforced: the figures are sampled only and the line says so. (``prlimit --as`` is not used: Python
and its libraries reserve far more address space than they touch.)

Target (issue 44): serve + camera + tracker at most 150 MB RSS at the peak, four phones open, no
OOM and no swap. The exit status is 1 when the target is missed, the server died or a phone
neither had an event on its stream nor (its stream refused beyond ``--max-live``) read its game.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import http.cookiejar
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_MB = 150
RETRY_STREAM_S = 30.0  # the page tries a refused stream again after this (web/static/app.js)
KB = 1024


# --- the memory cgroup -------------------------------------------------------------------------


@dataclass
class Cgroup:
    """A memory cgroup the server runs in (``kind``: "v2", "v1") or none ("none": sampled only)."""

    kind: str
    path: Path | None = None
    why: str = ""

    @classmethod
    def make(cls, limit: int) -> Cgroup:
        """A new cgroup limited to ``limit`` bytes with no swap; ``kind`` "none" if none can be
        made (``why`` says why).

        >>> Cgroup.make.__doc__.split()[0]
        'A'
        """
        name = f"crib-bench-{os.getpid()}"
        # v2, else v1: the file that marks it, the limit's file, the swap's file and its value
        # (v1's memsw is RAM + swap: the same limit means no swap at all)
        for kind, root, sign, limit_file, swap_file, swap in (
                ("v2", Path("/sys/fs/cgroup"), "cgroup.controllers", "memory.max", "memory.swap.max", "0"),
                ("v1", Path("/sys/fs/cgroup/memory"), "memory.limit_in_bytes", "memory.limit_in_bytes",
                 "memory.memsw.limit_in_bytes", str(limit))):
            if not (root / sign).is_file():
                continue
            path = root / name
            try:
                path.mkdir()
                (path / limit_file).write_text(str(limit))
                if (path / swap_file).exists():
                    (path / swap_file).write_text(swap)
                return cls(kind, path)
            except OSError as exc:
                _remove(path)
                return cls("none", why=f"cgroup {kind} at {root} is not writable ({exc.strerror})")
        return cls("none", why="no memory cgroup controller mounted")

    def describe(self, limit: int) -> str:
        mb = limit // (KB * KB)
        if self.kind == "v2":
            return f"cgroup v2 memory.max {mb} MB, memory.swap.max 0 ({self.path})"
        if self.kind == "v1":
            return f"cgroup v1 memory.limit_in_bytes {mb} MB, memsw the same: no swap ({self.path})"
        return f"NOT ENFORCED ({self.why}): RSS sampled and compared with {mb} MB only"

    def wrap(self, argv: list[str]) -> list[str]:
        """``argv`` started inside the cgroup (the shell joins it, then becomes the server)."""
        if self.path is None:
            return argv
        return ["sh", "-c", f'echo $$ > "{self.path}/cgroup.procs" && exec "$@"', "sh", *argv]

    def usage(self) -> int:
        """Bytes the cgroup holds now (page cache included); 0 without one."""
        name = {"v2": "memory.current", "v1": "memory.usage_in_bytes"}.get(self.kind)
        return _read_int(self.path / name) if self.path and name else 0

    def peak(self) -> int:
        name = {"v2": "memory.peak", "v1": "memory.max_usage_in_bytes"}.get(self.kind)
        return _read_int(self.path / name) if self.path and name else 0

    def swap(self) -> int:
        """Bytes in swap now (v2 ``memory.swap.current``; v1 ``swap`` in ``memory.stat``)."""
        if self.path is None:
            return 0
        if self.kind == "v2":
            return _read_int(self.path / "memory.swap.current")
        try:
            match = re.search(r"^swap (\d+)", (self.path / "memory.stat").read_text(), re.M)
        except OSError:
            return 0
        return int(match.group(1)) if match else 0

    def oom_kills(self) -> int:
        if self.path is None:
            return 0
        name = "memory.events" if self.kind == "v2" else "memory.oom_control"
        try:
            text = (self.path / name).read_text()
        except OSError:
            return 0
        match = re.search(r"^oom_kill (\d+)", text, re.M)
        return int(match.group(1)) if match else 0

    def remove(self) -> None:
        if self.path is not None:
            _remove(self.path)


def _read_int(path: Path) -> int:
    try:
        return int(path.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0


def _remove(path: Path) -> None:
    for _ in range(50):  # the server's processes leave it a moment after they exit
        try:
            path.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError:
            time.sleep(0.1)


# --- sampling /proc ----------------------------------------------------------------------------


def proc_status(pid: int) -> dict[str, int]:
    """``VmRSS``, ``VmHWM``, ``VmSwap``, ``RssAnon``, ``RssFile`` (kB) and ``Threads`` of ``pid``
    ({} once it is gone)."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return {}
    out = {}
    for key in ("VmRSS", "VmHWM", "VmSwap", "RssAnon", "RssFile", "Threads"):
        match = re.search(rf"^{key}:\s+(\d+)", text, re.M)
        out[key] = int(match.group(1)) if match else 0
    return out


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (espeak-ng and the like), from ``/proc/*/stat``."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    out, todo = [], [pid]
    while todo:
        parent = todo.pop()
        kids = [p for p, pp in parents.items() if pp == parent]
        out.extend(kids)
        todo.extend(kids)
    return out


PER_MINUTE = 120  # samples a minute (one each half second)


@dataclass
class Samples:
    rss_kb: list[int] = field(default_factory=list)  # the server and its children
    threads: list[int] = field(default_factory=list)
    cgroup: list[int] = field(default_factory=list)
    hwm_kb: int = 0
    cgroup_swap: int = 0  # bytes, the most seen
    anon_kb: list[int] = field(default_factory=list)  # the server's own heap and stacks
    file_kb: list[int] = field(default_factory=list)  # its libraries' pages (shared with others)
    swap_kb: int = 0

    def take(self, pid: int, cgroup: Cgroup) -> bool:
        main = proc_status(pid)
        if not main:
            return False
        rss = main["VmRSS"] + sum(proc_status(p).get("VmRSS", 0) for p in descendants(pid))
        self.rss_kb.append(rss)
        self.threads.append(main["Threads"])
        self.anon_kb.append(main["RssAnon"])
        self.file_kb.append(main["RssFile"])
        self.hwm_kb = max(self.hwm_kb, main["VmHWM"])
        self.swap_kb = max(self.swap_kb, main["VmSwap"])
        self.cgroup.append(cgroup.usage())
        self.cgroup_swap = max(self.cgroup_swap, cgroup.swap())
        return True


def swap_device() -> str:
    """Whether this machine has swap at all (``SwapTotal`` in ``/proc/meminfo``)."""
    match = re.search(r"^SwapTotal:\s+(\d+)", Path("/proc/meminfo").read_text(), re.M)
    total = int(match.group(1)) if match else 0
    return f"{total // KB} MB of swap on this machine" if total else "no swap device on this machine"


# --- the phones --------------------------------------------------------------------------------


class Phone:
    """A phone at the table: its own session, the live stream held open, the Camera tab polled.

    It follows the newest game as the page does (``web/static/app.js``): a ``games`` event naming
    another game moves its stream there, and a stream refused with 404 (its game was replaced
    while it reconnected: each pass of the demo deletes the last pass's game) re-reads
    ``/api/games/latest`` and reconnects to that game (``rejoins``). A 404 for the game that is
    still the newest is an error. A stream refused with 503 (the server holds ``--max-live``
    streams already) is the page's fallback: it polls its game every second and tries the stream
    again after 30 s (``fallbacks``, ``game_polls``).
    """

    def __init__(self, url: str, port: int, game: int, stop: threading.Event) -> None:
        self.url, self.port, self.game, self.stop = url, port, game, stop
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.events = 0
        self.polls = 0
        self.moves = 0  # ``games`` events that moved the stream to the newest game
        self.rejoins = 0  # streams refused for a game replaced, reconnected to the newest
        self.fallbacks = 0  # streams refused with 503 (--max-live reached): polled instead
        self.game_polls = 0
        self.errors: list[str] = []
        self.threads = [threading.Thread(target=self.listen, daemon=True),
                        threading.Thread(target=self.poll, daemon=True)]

    def start(self) -> None:
        self.get("api/session")
        for t in self.threads:
            t.start()

    def get(self, path: str) -> bytes:
        with self.opener.open(self.url + path, timeout=30) as response:
            return bytes(response.read())

    def latest(self) -> int | None:
        """The newest game's id, as the page re-reads it (None if it cannot be read)."""
        try:
            return int(json.loads(self.get("api/games/latest"))["game_id"])
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def listen(self) -> None:
        """Hold ``/api/stream`` open (reconnecting as a browser would) and count its events."""
        while not self.stop.is_set():
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            try:
                conn.request("GET", f"/api/stream?game={self.game}",
                             headers={"Accept": "text/event-stream"})
                response = conn.getresponse()
                if response.status == 404 and (newest := self.latest()) not in (None, self.game):
                    self.game = newest  # the page's game was replaced: it follows the newest
                    self.rejoins += 1
                    continue
                if response.status == 503:  # every live slot taken: the page polls, as here
                    self.fallbacks += 1
                    self.poll_game(RETRY_STREAM_S)
                    continue
                if response.status != 200:
                    self.errors.append(f"stream {response.status} for game {self.game}")
                    self.stop.wait(1.5)
                    continue
                self.follow(response)
            except OSError as exc:
                if not self.stop.is_set():
                    self.errors.append(f"stream: {exc}")
                    self.stop.wait(1.5)
            finally:
                conn.close()

    def follow(self, response: http.client.HTTPResponse) -> None:
        """Read the stream's events until it ends, or until a ``games`` event names a newer game
        (the page then loads that game and reconnects to it)."""
        kind = b""
        while not self.stop.is_set():
            line = response.fp.readline()
            if not line:
                return
            if line.startswith(b"event:"):
                self.events += 1
                kind = line[6:].strip()
            elif line.startswith(b"data:") and kind == b"games":
                with contextlib.suppress(ValueError, TypeError, KeyError):
                    latest = int(json.loads(line[5:])["latest"])
                    if latest != self.game:
                        self.game = latest
                        self.moves += 1
                        return

    def poll_game(self, seconds: float) -> None:
        """The page without its stream: its game read every second for ``seconds``."""
        until = time.monotonic() + seconds
        while time.monotonic() < until and not self.stop.wait(1.0):
            try:
                self.get(f"api/games/{self.game}")
                self.game_polls += 1
            except OSError as exc:
                if not self.stop.is_set() and "404" not in str(exc):  # a game replaced meanwhile
                    self.errors.append(f"api/games/{self.game}: {exc}")
                if "404" in str(exc) and (newest := self.latest()) not in (None, self.game):
                    self.game = newest

    def poll(self) -> None:
        tick = 0
        while not self.stop.wait(1.0):
            paths = ["api/camera"]
            if tick % 2 == 0:
                paths += ["api/camera/snapshot.jpg", "api/games/latest"]
            for path in paths:
                try:
                    self.get(path)
                    self.polls += 1
                except OSError as exc:
                    if not self.stop.is_set():
                        self.errors.append(f"{path}: {exc}")
            tick += 1


# --- the run -----------------------------------------------------------------------------------


def golden_path() -> Path:
    out = subprocess.run([sys.executable, "-m", "vision.synth.golden", "--reset", "turn-down"],
                         cwd=ROOT, capture_output=True, text=True, check=True)
    return Path(out.stdout.strip().splitlines()[-1])


def frame_count(path: Path) -> int:
    import cv2

    capture = cv2.VideoCapture(str(path))
    try:
        return int(capture.get(cv2.CAP_PROP_FRAME_COUNT))
    finally:
        capture.release()


def wait_json(opener_get: object, path: str, want: object, timeout: float) -> object:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = json.loads(opener_get(path))  # type: ignore[operator]
            if want(value):  # type: ignore[operator]
                return value
        except (OSError, ValueError):
            pass
        time.sleep(0.25)
    raise TimeoutError(f"{path} never answered as expected")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--video", type=Path, default=None, help="deal video (default: golden)")
    parser.add_argument("--limit-mb", type=int, default=512)
    parser.add_argument("--phones", type=int, default=4)
    parser.add_argument("--passes", type=int, default=1, help="times through the video (default 1)")
    parser.add_argument("serve_args", nargs="*", help="more crib serve arguments (after --)")
    args = parser.parse_args()
    video = args.video or golden_path()
    frames = frame_count(video)
    limit = args.limit_mb * KB * KB
    cgroup = Cgroup.make(limit)
    print(f"video: {video.name}, {frames} frames; {args.phones} phones; "
          f"limit: {cgroup.describe(limit)}")
    samples = Samples()
    stop = threading.Event()
    phones: list[Phone] = []
    ok = True
    with tempfile.TemporaryDirectory() as data:
        argv = [str(ROOT / ".venv/bin/crib") if (ROOT / ".venv/bin/crib").exists() else "crib",
                "serve", "--demo", "--camera", f"video:{video}", "--port", "0", "--data", data,
                *args.serve_args]
        proc = subprocess.Popen(cgroup.wrap(argv), cwd=ROOT, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
        began = time.monotonic()
        try:
            assert proc.stdout is not None
            match = re.search(r"open (http://127\.0\.0\.1:(\d+)/)", proc.stdout.readline())
            if not match:
                print(f"crib serve did not start (exit {proc.wait(30)})")
                return 1
            url, port = match.group(1), int(match.group(2))
            probe = Phone(url, port, 0, stop)
            latest = wait_json(probe.get, "api/games/latest", lambda v: v.get("game_id"), 60)
            game = int(latest["game_id"])  # type: ignore[index]
            phones = [Phone(url, port, game, stop) for _ in range(args.phones)]
            for phone in phones:
                phone.start()
            want = frames * args.passes
            seen = 0
            while proc.poll() is None and seen < want and time.monotonic() - began < 60 + want:
                samples.take(proc.pid, cgroup)
                with contextlib.suppress(OSError, ValueError):
                    seen = int(json.loads(probe.get("api/camera")).get("frames") or 0)
                time.sleep(0.5)
            samples.take(proc.pid, cgroup)
            took = time.monotonic() - began
            died = proc.poll()
        finally:
            stop.set()
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(30)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
            oom = cgroup.oom_kills()
            cg_peak = cgroup.peak()
            swap = max(samples.swap_kb * KB, samples.cgroup_swap, cgroup.swap())
            cgroup.remove()
    rss = samples.rss_kb
    half = rss[len(rss) // 2:] or [0]
    peak = max([samples.hwm_kb, *rss]) / KB
    steady = statistics.median(half) / KB
    print(f"followed {seen} of {want} frames in {took:.0f} s; phones: "
          f"{sum(p.events for p in phones)} stream events, {sum(p.polls for p in phones)} polls, "
          f"{sum(len(p.errors) for p in phones)} errors; moved to the newest game "
          f"{sum(p.moves for p in phones)} times on a games event, "
          f"{sum(p.rejoins for p in phones)} after a 404")
    polling = sum(1 for p in phones if p.fallbacks)
    if polling:
        print(f"{polling} phones polled their game instead ({sum(p.game_polls for p in phones)} "
              "reads): the stream refused beyond --max-live, as the page falls back")
    minutes = [statistics.median(rss[i:i + PER_MINUTE]) / KB for i in range(0, len(rss), PER_MINUTE)]
    print("RSS each minute (MB): " + " ".join(f"{m:.0f}" for m in minutes)
          + (f"; after the first minute it grew {max(minutes[1:]) - minutes[1]:+.0f} MB"
             if len(minutes) > 2 else ""))
    print(f"RSS: peak {peak:.0f} MB, steady {steady:.0f} MB (median of the second half); "
          f"threads: {max(samples.threads or [0])}")
    if rss:
        at = rss.index(max(rss))
        print(f"  at the sampled peak: {samples.anon_kb[at] / KB:.0f} MB anonymous (heap, stacks, "
              f"buffers), {samples.file_kb[at] / KB:.0f} MB of library and file pages")
    if cgroup.kind != "none":
        print(f"cgroup: peak {cg_peak / KB / KB:.0f} MB (page cache included), "
              f"now-and-then median {statistics.median(samples.cgroup or [0]) / KB / KB:.0f} MB")
    print(f"OOM: {'yes' if oom or died == -9 else 'no'} (oom_kill {oom}, server "
          f"{'exited ' + str(died) if died is not None else 'ran to the end'}); "
          f"swap: {'yes' if swap else 'no'} ({swap // KB} kB; {swap_device()})")
    if died is not None or oom:
        ok = False
    if seen < want:
        print("  the video was not followed to its end")
        ok = False
    if any(p.events == 0 and p.game_polls == 0 for p in phones):
        print("  a phone neither had an event on its stream nor read its game")
        ok = False
    if peak > TARGET_MB:
        print(f"  over the {TARGET_MB} MB target")
        ok = False
    for phone in phones[:1]:
        for error in phone.errors[:3]:
            print(f"  phone error: {error}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
