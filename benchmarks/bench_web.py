"""How fast the companion page is live: run ``python benchmarks/bench_web.py``.

Starts ``crib serve`` (waitress) on 127.0.0.1 on a free port with a fresh data folder, then

1. opens 20 live pages (server-sent event streams) on one game, sends 30 events from another
   client and times how long each event takes to reach all 20 pages (target: 200 ms);
2. holds 50 live pages open at once, sends 10 events, checks every page gets every one and
   that ordinary requests keep being answered meanwhile (target: no errors);
3. times an event to the score shown on a real page in Chromium, when Chromium is installed
   (target: within 1 s);
4. weighs the first load of the live page: HTML, CSS, script, icon, the state and the board
   drawing (target: under 100 KB).

Loopback only; every loop has a deadline and the server is stopped at the end.
``--pages N`` and ``--events N`` change the sizes of part 1.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

DEADLINE_S = 10.0


class Server:
    """``crib serve`` in a subprocess on a free port."""

    def __init__(self, data: Path, max_live: int) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port",
             "0", "--data", str(data), "--leds", "none", "--max-live", str(max_live)],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        match = re.search(r"open http://(127\.0\.0\.1):(\d+)/", line)
        if not match:
            self.proc.kill()
            raise SystemExit(f"crib serve did not start: {line!r}")
        self.host, self.port = match.group(1), int(match.group(2))

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class Client:
    """A phone that changes the game: session cookie + CSRF token."""

    def __init__(self, server: Server) -> None:
        self.conn = http.client.HTTPConnection(server.host, server.port, timeout=DEADLINE_S)
        self.conn.request("GET", "/api/session")
        response = self.conn.getresponse()
        self.cookie = response.getheader("Set-Cookie", "").split(";")[0]
        self.csrf = json.loads(response.read())["csrf"]

    def post(self, path: str, body: object) -> dict:
        self.conn.request("POST", path, json.dumps(body), {
            "Content-Type": "application/json", "Cookie": self.cookie, "X-CSRF-Token": self.csrf,
        })
        response = self.conn.getresponse()
        data = json.loads(response.read())
        if response.status >= 300:
            raise SystemExit(f"POST {path} refused: {data}")
        return data  # type: ignore[no-any-return]

    def get(self, path: str) -> tuple[int, bytes]:
        self.conn.request("GET", path)
        response = self.conn.getresponse()
        return response.status, response.read()


class LivePage(threading.Thread):
    """One open page: follows a game's stream and notes when each state arrives."""

    def __init__(self, server: Server, game: int) -> None:
        super().__init__(daemon=True)
        self.server, self.game = server, game
        self.seen: dict[int, float] = {}  # events in the game -> arrival time
        self.status = 0
        self.opened = threading.Event()
        self.error: str | None = None
        self.stop = False

    def run(self) -> None:
        try:
            conn = http.client.HTTPConnection(self.server.host, self.server.port, timeout=30)
            conn.request("GET", f"/api/stream?game={self.game}")
            response = conn.getresponse()
            self.status = response.status
            self.opened.set()
            if response.status != 200:
                self.error = f"status {response.status}"
                return
            kind = ""
            while not self.stop:
                line = response.fp.readline()
                if not line:
                    break
                text = line.decode().rstrip("\n")
                if text.startswith("event: "):
                    kind = text[7:]
                elif text.startswith("data: ") and kind == "state":
                    state = json.loads(text[6:])["state"]
                    self.seen.setdefault(state["events"], time.perf_counter())
            conn.close()
        except Exception as exc:
            self.error = f"{type(exc).__name__}: {exc}"
            self.opened.set()


def open_pages(server: Server, game: int, n: int) -> list[LivePage]:
    pages = [LivePage(server, game) for _ in range(n)]
    for page in pages:
        page.start()
    for page in pages:
        page.opened.wait(DEADLINE_S)
    deadline = time.monotonic() + DEADLINE_S
    while time.monotonic() < deadline and not all(p.seen or p.error for p in pages):
        time.sleep(0.01)
    return pages


def wait_for(pages: list[LivePage], events: int) -> bool:
    deadline = time.monotonic() + DEADLINE_S
    while time.monotonic() < deadline:
        if all(events in p.seen for p in pages if not p.error):
            return True
        time.sleep(0.001)
    return False


def close(pages: list[LivePage]) -> None:
    for page in pages:
        page.stop = True


def fan_out(server: Server, n_pages: int, n_events: int) -> list[float]:
    client = Client(server)
    game = client.post("/api/games", {"players": ["Alice", "Bob"]})["game_id"]
    pages = open_pages(server, game, n_pages)
    errors = [p.error for p in pages if p.error]
    if errors:
        raise SystemExit(f"live pages failed: {errors[:3]}")
    latencies = []
    for k in range(n_events):
        t0 = time.perf_counter()
        state = client.post(f"/api/games/{game}/events",
                            {"type": "adjust", "seat": "AB"[k % 2], "points": 1,
                             "reason": "benchmark"})["state"]
        if not wait_for(pages, state["events"]):
            raise SystemExit(f"event {k + 1} did not reach every page in {DEADLINE_S} s")
        latencies.append(max(p.seen[state["events"]] for p in pages) - t0)
        time.sleep(0.02)
    close(pages)
    return latencies


def hold(server: Server, n_pages: int, n_events: int) -> tuple[int, int, int]:
    """Returns (pages connected, events each page got, ordinary request errors)."""
    client = Client(server)
    game = client.post("/api/games", {"players": ["Carol", "Dave"]})["game_id"]
    pages = open_pages(server, game, n_pages)
    connected = sum(1 for p in pages if p.status == 200 and not p.error)
    reader = Client(server)
    request_errors = 0
    last = 0
    for k in range(n_events):
        last = client.post(f"/api/games/{game}/events",
                           {"type": "adjust", "seat": "AB"[k % 2], "points": 1,
                            "reason": "benchmark"})["state"]["events"]
        status, _ = reader.get(f"/api/games/{game}")
        request_errors += status != 200
    wait_for(pages, last)
    got = min(sum(1 for e in p.seen if e > 0) for p in pages)
    close(pages)
    return connected, got, request_errors


def first_load(server: Server) -> dict[str, int]:
    client = Client(server)
    sizes: dict[str, int] = {}
    _status, html = client.get("/")
    sizes["/"] = len(html)
    for url in re.findall(rb'(?:src|href)="(/[^"]*)"', html):
        sizes[url.decode()] = len(client.get(url.decode())[1])
    sizes["/api/games/latest"] = len(client.get("/api/games/latest")[1])
    sizes["/api/board.svg (3 tracks)"] = len(client.get("/api/board.svg?tracks=3&target=121")[1])
    return sizes


def browser_latency(server: Server, n_events: int) -> list[float] | str:
    """Milliseconds from sending an event to a real Chromium page showing the new score."""
    chromium = "/usr/bin/chromium"
    if not Path(chromium).exists():
        return "skipped: Chromium not found (apt-get install -y chromium)"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return "skipped: playwright is not installed"
    client = Client(server)
    game = client.post("/api/games", {"players": ["Eve", "Finn"]})["game_id"]
    args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run"]
    out = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=args)
        page = browser.new_page()
        page.goto(f"http://{server.host}:{server.port}/games/{game}")
        page.wait_for_function("() => document.querySelector('#live').textContent === 'live'",
                               timeout=DEADLINE_S * 1000)
        page.evaluate("""() => {
            window.__seen = {};
            new MutationObserver(() => {
              const t = document.querySelector('#scores .score[data-side="A"] .pts');
              if (t && !(t.textContent in window.__seen)) window.__seen[t.textContent] = Date.now();
            }).observe(document.querySelector('#scores'),
                       {subtree: true, childList: true, characterData: true});
        }""")
        for _ in range(n_events):
            t0 = time.time() * 1000
            score = client.post(f"/api/games/{game}/events",
                                {"type": "adjust", "seat": "A", "points": 1,
                                 "reason": "benchmark"})["state"]["scores"]["A"]
            page.wait_for_function("(s) => window.__seen[s] !== undefined", arg=str(score),
                                   timeout=DEADLINE_S * 1000)
            out.append(page.evaluate("(s) => window.__seen[s]", str(score)) - t0)
            time.sleep(0.05)
        browser.close()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=20)
    parser.add_argument("--events", type=int, default=30)
    parser.add_argument("--hold", type=int, default=50)
    args = parser.parse_args(argv)
    max_live = 64  # crib serve's default: 64 live pages, 72 waitress threads
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "one", max_live)
        try:
            print(f"crib serve on {server.host}:{server.port} (waitress, {max_live + 8} "
                  f"threads, --max-live {max_live}), {os.cpu_count()} CPUs")
            lat = sorted(x * 1000 for x in fan_out(server, args.pages, args.events))
            print(f"event to all {args.pages} live pages ({args.events} events): "
                  f"median {statistics.median(lat):.1f} ms, "
                  f"95th {lat[int(0.95 * (len(lat) - 1))]:.1f} ms, max {lat[-1]:.1f} ms "
                  f"(target 200 ms: {'met' if lat[-1] < 200 else 'MISSED'})")
            seen = browser_latency(server, 10)
            if isinstance(seen, str):
                print(f"event to a page in Chromium: {seen}")
            else:
                seen.sort()
                print(f"event to the score on a page in Chromium (10 events): median "
                      f"{statistics.median(seen):.0f} ms, max {seen[-1]:.0f} ms "
                      f"(target 1 s: {'met' if seen[-1] < 1000 else 'MISSED'})")
            sizes = first_load(server)
            total = sum(sizes.values())
            detail = ", ".join(f"{k} {v / 1000:.1f}" for k, v in sizes.items())
            print(f"first load of the live page: {total / 1000:.1f} KB ({detail}) "
                  f"(target 100 KB: {'met' if total < 100_000 else 'MISSED'})")
        finally:
            server.stop()
        # a fresh server: closed pages free their slot only at the next heartbeat (15 s)
        server = Server(Path(tmp) / "two", max_live)
        try:
            connected, got, errors = hold(server, args.hold, 10)
            ok = connected == args.hold and got == 10 and errors == 0
            print(f"{args.hold} live pages held: {connected} connected, each got {got}/10 "
                  f"events, {errors} errors on other requests ({'ok' if ok else 'FAILED'})")
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
