"""Coach benchmark: exact discard advice (all choices, crib included) per deal, beside the anchor.

Run: ``.venv/bin/python benchmarks/bench_discard.py [--deals 300] [--seed 31]``. Pinned to one
core. Prints ms per deal (mean, p95) for the dealer and the pone over random six-card deals,
and how much of it the weighted crib takes (the same deals again with an empty throw table);
then the anchor, MichaelCook/cribbage's C program (every starter and opponent pair scored one
by one), on the same deals, and the ratio. Targets: ours <= 6.5 ms a deal and <= 1/10 of the
anchor's time. It also prints how often the best choice by the total differs from the best by
the kept hand alone (and the points of total that choice loses), and checks our totals against
the anchor's on every choice where the anchor counts right: it counts the double double runs
A-2-2-3-3 and A-A-2-2-3 (any three ranks in a row) as 6 run points instead of 12, so choices
where such five cards can turn up in the hand or the crib are left out.

The anchor is built into ``~/.cache/cribbage-companion/anchor`` with gcc from its source:
``$CRIBBAGE_ANCHOR_SRC`` (a ``cribbage.c``), else ``anchor/src/cribbage.c`` there, else a clone::

    git clone https://github.com/MichaelCook/cribbage ~/.cache/cribbage-companion/anchor/src
    git -C ~/.cache/cribbage-companion/anchor/src checkout be591b69430d7c40e42ac8c2a0af12d04efb29b4

Without the source or gcc it says so on one line and quotes the figure in docs/coach.md.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from cribbage.cards import PACK, Card
from cribbage.coach import advise_discards

ANCHOR_REPO = "https://github.com/MichaelCook/cribbage"
ANCHOR_COMMIT = "be591b69430d7c40e42ac8c2a0af12d04efb29b4"
ANCHOR_DIR = Path.home() / ".cache" / "cribbage-companion" / "anchor"
ANCHOR_QUOTED = "the anchor's figure measured 2026-11-26 on this machine: see docs/coach.md, Figures"


_NO_THROWS: dict[str, float] = {}
"""An empty throw table: no weights, so no weighted crib is computed (the time without it)."""


def _p95(values: list[float]) -> float:
    return sorted(values)[int(0.95 * (len(values) - 1))]


def _anchor_source() -> Path | None:
    env = os.environ.get("CRIBBAGE_ANCHOR_SRC")
    if env:
        return Path(env) if Path(env).is_file() else None
    src = ANCHOR_DIR / "src" / "cribbage.c"
    if src.is_file():
        return src
    if shutil.which("git") is None:
        return None
    clone = subprocess.run(["git", "clone", "--quiet", ANCHOR_REPO, str(ANCHOR_DIR / "src")],
                           capture_output=True, text=True, timeout=120)
    if clone.returncode != 0:
        return None
    subprocess.run(["git", "-C", str(ANCHOR_DIR / "src"), "checkout", "--quiet", ANCHOR_COMMIT], check=False)
    return src if src.is_file() else None


def build_anchor() -> tuple[Path | None, str]:
    """The anchor's binary, built if need be; or ``None`` and why not."""
    source = _anchor_source()
    if source is None:
        return None, f"anchor source not found (set CRIBBAGE_ANCHOR_SRC, or git clone {ANCHOR_REPO})"
    if shutil.which("gcc") is None:
        return None, "gcc not found: the anchor cannot be built"
    binary = ANCHOR_DIR / "cribbage-c"
    if not binary.exists() or binary.stat().st_mtime < source.stat().st_mtime:
        ANCHOR_DIR.mkdir(parents=True, exist_ok=True)
        cmd = ["gcc", "-O3", "-DNDEBUG", "-std=c2x", "-o", str(binary), str(source), "-lm"]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            return None, f"building the anchor failed: {done.stderr.strip().splitlines()[-1:]}"
    return binary, " ".join(["gcc", "-O3", "-DNDEBUG", "-std=c2x", "-o", str(binary), str(source), "-lm"])


def parse_anchor(text: str) -> list[dict[frozenset[str], tuple[float, float]]]:
    """Per deal, ``{discard names: (dealer total, pone total)}`` from the anchor's output."""
    deals: list[dict[frozenset[str], tuple[float, float]]] = []
    for line in text.splitlines():
        if line.startswith("[ "):
            deals.append({})
        elif line.strip() and deals:
            names, rest = line.split(" [", 1)
            mine, theirs = rest.rstrip("]").split("] [")
            deals[-1][frozenset(names.split())] = (float(mine.split()[0]), float(theirs.split()[0]))
    return deals


_MISCOUNTED = ((0, 1, 1, 2, 2), (0, 0, 1, 1, 2))
"""The double double runs the anchor counts as 6: A-2-2-3-3 and A-A-2-2-3 shapes."""


def _anchor_counts_right(keep: list[Card], away: list[Card], unseen: list[Card]) -> bool:
    """Whether no five cards of the hand with a starter, or of the crib, take a miscounted shape."""
    left = {r: sum(1 for c in unseen if c.rank == r) for r in range(1, 14)}
    for known, draws in (([c.rank for c in keep], 1), ([c.rank for c in away], 5 - len(away))):
        for low in range(1, 12):
            for shape in _MISCOUNTED:
                need = [low + s for s in shape]
                rest = list(need)
                try:
                    for r in known:
                        rest.remove(r)
                except ValueError:
                    continue
                if len(rest) == draws and all(rest.count(r) <= left[r] for r in set(rest)):
                    return False
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=31)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    rng = random.Random(args.seed)
    deals = [rng.sample(PACK, 6) for _ in range(args.deals)]
    advise_discards(deals[0], "dealer")  # tables and the pegging file, once
    print(f"coach benchmark: {args.deals} random six-card deals, one core")

    ours: dict[str, float] = {}
    advice: dict[str, list] = {}
    for role in ("dealer", "pone"):
        times, results = [], []
        for dealt in deals:
            start = time.perf_counter()
            results.append(advise_discards(dealt, role))
            times.append((time.perf_counter() - start) * 1000)
        advice[role] = results
        ours[role] = statistics.fmean(times)
        ok = "OK" if ours[role] <= 6.5 else "MISSED"
        print(f"ours, {role:<6}: mean {ours[role]:.2f} ms, p95 {_p95(times):.2f} ms a deal "
              f"(all 15 choices, hand and crib exact, weighted crib, pegging looked up; "
              f"target <= 6.5 ms) {ok}")
        bare = []
        for dealt in deals:
            start = time.perf_counter()
            advise_discards(dealt, role, throws=_NO_THROWS)
            bare.append((time.perf_counter() - start) * 1000)
        print(f"  of which the weighted crib: {ours[role] - statistics.fmean(bare):.2f} ms a deal "
              f"(the same without it: mean {statistics.fmean(bare):.2f} ms)")

    for role in ("dealer", "pone"):
        differ, lost = 0, []
        for dealt, result in zip(deals, advice[role], strict=True):
            best = result.options[0]
            alone = advise_discards(dealt, None, pegging=False).options[0]
            if set(alone.keep) != set(best.keep):
                differ += 1
                other = next(o for o in result.options if set(o.keep) == set(alone.keep))
                lost.append(best.total - other.total)
        mean_lost = statistics.fmean(lost) if lost else 0.0
        print(f"first choice, {role:<6}: the kept hand alone picks another discard in {differ} of "
              f"{len(deals)} deals ({100 * differ / len(deals):.0f}%), losing {mean_lost:.2f} points of "
              f"total on average there (at most {max(lost, default=0):.2f})")

    binary, how = build_anchor()
    if binary is None:
        print(f"anchor: {how}; {ANCHOR_QUOTED}")
        return 0
    print(f"anchor: MichaelCook/cribbage cribbage.c @ {ANCHOR_COMMIT[:7]}, built with: {how}")
    names = ["-".join(c.name for c in dealt) for dealt in deals]
    start = time.perf_counter()
    done = subprocess.run([str(binary), *names], capture_output=True, text=True, check=True)
    anchor_mean = (time.perf_counter() - start) * 1000 / len(deals)
    per_deal = []
    for name in names[:60]:
        start = time.perf_counter()
        subprocess.run([str(binary), name], capture_output=True, check=True)
        per_deal.append((time.perf_counter() - start) * 1000)
    print(f"anchor (both seats at once): mean {anchor_mean:.1f} ms a deal in one process; "
          f"p95 {_p95(per_deal):.1f} ms a deal as its own process (first 60 deals)")
    for role in ("dealer", "pone"):
        ratio = anchor_mean / ours[role]
        ok = "OK" if ratio >= 10 else "MISSED"
        print(f"ratio, {role:<6}: anchor / ours = {ratio:.0f}x (target >= 10x) {ok}")

    figures = parse_anchor(done.stdout)
    compared = agreed = left_out = 0
    worst = 0.0
    for dealt, theirs, dealer, pone in zip(deals, figures, advice["dealer"], advice["pone"], strict=True):
        unseen = [c for c in PACK if c not in dealt]
        totals = {frozenset(c.name for c in o.discard): [o.total] for o in dealer.options}
        for o in pone.options:
            totals[frozenset(c.name for c in o.discard)].append(o.total)
        for o in dealer.options:
            key = frozenset(c.name for c in o.discard)
            if not _anchor_counts_right(list(o.keep), list(o.discard), unseen):
                left_out += 1
                continue
            compared += 1
            gaps = [abs(ours_total - t) for ours_total, t in zip(totals[key], theirs[key], strict=True)]
            worst = max(worst, *gaps)
            agreed += all(g <= 0.05 + 1e-9 for g in gaps)
    print(f"agreement with the anchor (its figures have one decimal): {agreed} of {compared} choices "
          f"within 0.05 for both seats (largest gap {worst:.3f}); {left_out} choices left out where a "
          f"double double run the anchor miscounts can turn up")
    return 0


if __name__ == "__main__":
    sys.exit(main())
