"""Regenerate the page's screenshots in ``docs/screenshots/`` (``make screenshots``).

Each tab at a 390×844 phone viewport, in Debian's Chromium driven by Playwright, from a real
``crib serve``: a finished game and a game in its second deal (played at random, seeded, so the
pictures are the same each run), then the Camera tab from ``crib serve --demo`` following the
golden deal video (rendered once and cached: ``python -m vision.synth.golden``).

    python docs/screenshots.py            # all tabs
    python docs/screenshots.py --no-camera
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "web"))  # browserkit: find Chromium, run crib serve

from browserkit import CHROMIUM_ARGS, chromium_path, start_server, stop_server  # noqa: E402

from cribbage.game import Settings  # noqa: E402
from cribbage.game.simulate import random_game  # noqa: E402
from cribbage.gamelog import GameStore  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
PHONE = {"width": 390, "height": 844}


def fill(data: Path) -> None:
    """A finished game of Ann v Bob, and one of Ann v Bob in the play of its second deal."""
    store = GameStore(data / "games.sqlite3")
    try:
        settings = {"players": ["Ann", "Bob"], "target": 121}
        _, events = random_game(Settings.from_json(settings), random.Random(11))
        store.apply_many(store.new_game(settings), events)
        _, events = random_game(Settings.from_json(settings), random.Random(5))
        game_id = store.new_game(settings)
        starters = 0
        for n, event in enumerate(events):
            starters += event["type"] == "starter"
            if starters == 2 and event["type"] == "play" and events[n - 1]["type"] == "play":
                store.apply_many(game_id, events[: n + 1])
                break
    finally:
        store.close()


SIX = [("5H", 140, 200, 0), ("5S", 390, 200, 0), ("JD", 640, 200, 0),
       ("QC", 890, 200, 0), ("2H", 1140, 200, 0), ("9S", 640, 540, 0)]
"""Six cards dealt, drawn on a table (the drawn deck the tests read): the Photo tab reads them."""


def shoot_photo(page: object, url: str, tmp: Path, out: Path) -> None:
    """The Photo tab with a photo of six cards dealt read, and which two to throw as dealer."""
    import cv2

    from vision.synth.compose import drawn_table

    photo = tmp / "dealt.jpg"
    cv2.imwrite(str(photo), drawn_table(SIX, width=170))
    page.goto(f"{url}#photo")  # type: ignore[attr-defined]
    page.set_input_files("#photo-file", str(photo))  # type: ignore[attr-defined]
    page.click("#photo-form button.primary")  # type: ignore[attr-defined]
    page.wait_for_selector("#photo-throw:not([hidden])")  # type: ignore[attr-defined]
    page.click('#photo-throw button[data-role="dealer"]')  # type: ignore[attr-defined]
    page.wait_for_selector("#photo-advice li, #photo-advice tr")  # type: ignore[attr-defined]
    page.wait_for_timeout(300)  # type: ignore[attr-defined]
    page.evaluate("() => window.scrollTo(0, 0)")  # type: ignore[attr-defined]
    page.screenshot(path=str(out / "photo.png"), full_page=True,  # type: ignore[attr-defined]
                    clip={"x": 0, "y": 0, "width": PHONE["width"], "height": 1250})
    print("  photo.png (six cards read, which to throw)", flush=True)


def shoot(page: object, url: str, tabs: list[str], out: Path) -> None:
    for tab in tabs:
        page.goto(f"{url}#{tab}")  # type: ignore[attr-defined]
        page.wait_for_timeout(600)  # type: ignore[attr-defined]
        page.evaluate("() => window.scrollTo(0, 0)")  # type: ignore[attr-defined]
        page.wait_for_timeout(100)  # type: ignore[attr-defined]
        page.screenshot(path=str(out / f"{tab}.png"))  # type: ignore[attr-defined]
        print(f"  {tab}.png", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--no-camera", action="store_true", help="skip the Camera tab")
    args = parser.parse_args()
    chromium = chromium_path()
    if chromium is None:
        print("screenshots: Chromium not found (apt-get install -y chromium)", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport=PHONE)
        data = Path(tmp) / "table"
        data.mkdir()
        fill(data)
        print("the page with a game in progress:", flush=True)
        proc, url = start_server(data, "--leds", "sim")
        try:
            shoot(page, url, ["table", "play", "fix", "history", "new"], OUT)
            shoot_photo(page, url, Path(tmp), OUT)
        finally:
            stop_server(proc)
        if not args.no_camera:
            print("the Camera tab, following the golden deal video:", flush=True)
            video = subprocess.run(
                [sys.executable, "-m", "vision.synth.golden"], check=True, capture_output=True,
                text=True,
            ).stdout.strip()
            proc, url = start_server(Path(tmp) / "demo", "--demo", "--leds", "none",
                                     "--camera", f"video:{video}")
            try:
                time.sleep(12)  # a few cards laid
                shoot(page, url, ["camera"], OUT)
            finally:
                stop_server(proc)
        browser.close()
    print(f"written to {OUT.relative_to(ROOT)}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
