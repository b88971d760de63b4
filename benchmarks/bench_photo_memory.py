"""How much memory photo uploads take: run ``python benchmarks/bench_photo_memory.py``.

The worst photo the page takes is a small PNG that decodes to nearly the pixel budget: 6300 x 6300
pixels (39.7 MP, 120 MB decoded) in about 130 KB. For each scenario a fresh ``crib serve``
(waitress, the card reader running) is started in a subprocess on a free port; one small photo is
read first (the reader loads its networks), then ``--uploads`` (10) such PNGs are sent at once
from as many threads, and the server's peak resident memory (``VmHWM``, Linux) is printed:

* ``readers 2``: the page as served (``PHOTO_READERS`` 2, the others wait their turn);
* ``readers N``: every upload read at once (one reader per upload), for comparison.

Target: under 1 GB peak with the default readers. Uploads wait up to 120 s for a turn here, so
that every one is decoded (a table answers a long wait with 503 "busy" instead).
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import uuid
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SIDE = 6300  # 39.7 MP: just under the 40 MP a PNG is read at
TARGET_MB = 1024

SERVER = """
import sys
from pathlib import Path
from companion.service import ServeConfig, serve
readers = int(sys.argv[2])
sys.exit(serve(ServeConfig(data_dir=Path(sys.argv[1]), port=0, leds="none",
                           web={"PHOTO_READERS": readers, "PHOTO_WAIT_S": 120.0})))
"""


def worst_png() -> bytes:
    """A PNG of ``SIDE`` x ``SIDE`` pixels of one colour with a few lines: tiny, huge decoded."""
    import cv2
    import numpy as np

    img = np.full((SIDE, SIDE, 3), (40, 110, 30), np.uint8)
    for k in range(0, SIDE, 700):
        cv2.line(img, (k, 0), (SIDE - k, SIDE), (230, 230, 230), 9)
    return bytes(cv2.imencode(".png", img, [cv2.IMWRITE_PNG_COMPRESSION, 9])[1])


def small_png() -> bytes:
    import cv2
    import numpy as np

    return bytes(cv2.imencode(".png", np.full((480, 640, 3), 90, np.uint8))[1])


def peak_mb(pid: int) -> float:
    """The process's peak resident memory so far, MB (``VmHWM`` in ``/proc/PID/status``)."""
    text = Path(f"/proc/{pid}/status").read_text()
    match = re.search(r"VmHWM:\s+(\d+) kB", text)
    assert match, "no VmHWM: this benchmark needs Linux"
    return int(match.group(1)) / 1024


class Phone:
    """A client with its own session: the CSRF token, then multipart uploads."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        with self.opener.open(url + "api/session", timeout=30) as response:
            self.csrf = json.loads(response.read())["csrf"]

    def upload(self, data: bytes) -> int:
        boundary = uuid.uuid4().hex
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; "
                f"filename=\"hand.png\"\r\nContent-Type: image/png\r\n\r\n").encode()
        body += data + f"\r\n--{boundary}--\r\n".encode()
        request = urllib.request.Request(
            self.url + "api/photos", data=body, method="POST",
            headers={"Content-Type": f"multipart/form-data; boundary={boundary}",
                     "X-CSRF-Token": self.csrf})
        try:
            with self.opener.open(request, timeout=300) as response:
                return int(response.status)
        except urllib.error.HTTPError as exc:
            return int(exc.code)


def scenario(readers: int, uploads: int, photo: bytes) -> tuple[float, float, float, Counter[int]]:
    """Baseline and peak MB of a fresh server, the seconds the uploads took, their statuses."""
    with tempfile.TemporaryDirectory() as data:
        proc = subprocess.Popen([sys.executable, "-c", SERVER, data, str(readers)], cwd=ROOT,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            assert proc.stdout is not None
            match = re.search(r"open (http://127\.0\.0\.1:\d+/)", proc.stdout.readline())
            assert match, "crib serve did not start"
            url = match.group(1)
            assert Phone(url).upload(small_png()) == 201  # the reader loads its networks
            base = peak_mb(proc.pid)
            phones = [Phone(url) for _ in range(uploads)]
            start = threading.Barrier(uploads)
            codes: list[int] = []

            def send(phone: Phone) -> None:
                start.wait()
                codes.append(phone.upload(photo))

            threads = [threading.Thread(target=send, args=(p,)) for p in phones]
            began = time.perf_counter()
            for t in threads:
                t.start()
            for t in threads:
                t.join(600)
            took = time.perf_counter() - began
            return base, peak_mb(proc.pid), took, Counter(codes)
        finally:
            proc.terminate()
            proc.wait(30)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--uploads", type=int, default=10, help="photos sent at once (default 10)")
    args = parser.parse_args()
    photo = worst_png()
    print(f"worst photo: PNG {SIDE}x{SIDE} ({SIDE * SIDE / 1e6:.1f} MP) in {len(photo) / 1024:.0f} KB; "
          f"{args.uploads} sent at once")
    verdict = 0
    for readers in (2, args.uploads):
        base, peak, took, codes = scenario(readers, args.uploads, photo)
        statuses = ", ".join(f"{n} x {code}" for code, n in sorted(codes.items()))
        print(f"readers {readers:2d}: peak {peak:6.0f} MB (after one small photo {base:4.0f} MB); "
              f"{statuses} in {took:.1f} s")
        if readers == 2 and peak >= TARGET_MB:
            print(f"  over the {TARGET_MB} MB target")
            verdict = 1
    return verdict


if __name__ == "__main__":
    sys.exit(main())
