"""Freed memory handed back to the system between deals (companion.memory), as crib serve does."""

from __future__ import annotations

import platform
import re
from pathlib import Path

import pytest

from companion.demo import SETTINGS, demo_events
from companion.memory import FreeBetweenDeals, release_free_memory
from companion.service import Companion
from cribbage.gamelog import GameStore

GLIBC = platform.system() == "Linux" and platform.libc_ver()[0] == "glibc"


def rss_anon_mb() -> float:
    """This process's anonymous resident memory (heap, stacks), MB."""
    text = Path("/proc/self/status").read_text()
    return int(re.search(r"^RssAnon:\s+(\d+)", text, re.M)[1]) / 1024  # type: ignore[index]


@pytest.mark.skipif(not GLIBC, reason="malloc_trim is glibc's")
def test_memory_freed_in_the_middle_of_the_heap_goes_back_to_the_system() -> None:
    release_free_memory()  # holes the tests before left are not counted
    before = rss_anon_mb()
    blocks = [bytes(1000) + bytes([i % 256]) for i in range(32000)]  # 32 MB in malloc's own chunks
    pin = bytes(1000) + b"x"  # allocated after them: the heap's top cannot shrink past it
    held = rss_anon_mb()
    assert held - before > 16
    del blocks
    freed = rss_anon_mb()
    assert release_free_memory() is True
    after = rss_anon_mb()
    assert len(pin) == 1001
    # free() alone keeps the holes; malloc_trim(0) gives them back
    assert freed - after > 16, (before, held, freed, after)


def test_a_game_played_releases_once_a_deal_and_at_each_new_game() -> None:
    table = Companion(GameStore(":memory:"))
    calls: list[int] = []
    free = FreeBetweenDeals(every_s=0.0, release=lambda: calls.append(1) is None)
    table.add_listener(free)
    try:
        game = table.new_game(dict(SETTINGS))
        assert len(calls) == 1  # a game started
        deals = set()
        for event in demo_events():
            state = table.apply(game, event, source="demo")
            deals.add(state["deal"])
        assert state["phase"] == "over"
        assert len(deals) > 3
        assert len(calls) == 1 + len(deals)  # and once as each deal began, never on a card
        table.new_game(dict(SETTINGS))
        assert len(calls) == 2 + len(deals)
    finally:
        table.close()


def test_releases_are_never_closer_than_every_s() -> None:
    table = Companion(GameStore(":memory:"))
    free = FreeBetweenDeals(every_s=3600.0, release=lambda: True)
    table.add_listener(free)
    try:
        game = table.new_game(dict(SETTINGS))
        for event in demo_events():
            table.apply(game, event, source="demo")
        table.new_game(dict(SETTINGS))
        assert free.releases == 1
    finally:
        table.close()


def test_crib_serve_releases_between_deals(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """serve() adds the listener to the companion it runs (stopped before it listens)."""
    from companion import service

    built: list[Companion] = []
    real_build = Companion.build

    def build(config: service.ServeConfig) -> Companion:
        built.append(real_build(config))
        return built[-1]

    def no_server(config: service.ServeConfig, app: object) -> object:
        raise OSError(98, "stopped here by the test")

    from companion import memory

    limited: list[int] = []
    monkeypatch.setattr(memory, "limit_arenas", lambda arenas=memory.ARENAS: limited.append(arenas))
    monkeypatch.setattr(Companion, "build", staticmethod(build))
    monkeypatch.setattr(service, "make_server", no_server)
    with pytest.raises(Exception, match="cannot listen"):
        service.serve(service.ServeConfig(data_dir=tmp_path, leds="none"))
    assert any(isinstance(listener, FreeBetweenDeals) for listener in built[0]._listeners)
    assert limited == [1]


ARENA_PROBE = """
import re, sys, threading
from companion.memory import limit_arenas
if sys.argv[1] == "limit":
    assert limit_arenas(1)
def work():
    blocks = [bytes(2000) + bytes([i % 256]) for i in range(2000)]
    done.wait()
done = threading.Event()
threads = [threading.Thread(target=work) for _ in range(8)]
for t in threads: t.start()
heaps = 0  # glibc's thread arenas: anonymous maps that begin on a 64 MB boundary
for line in open("/proc/self/maps"):
    m = re.match(r"([0-9a-f]+)-[0-9a-f]+ rw", line)
    if m and len(line.split()) == 5 and int(m[1], 16) % (64 << 20) == 0:
        heaps += 1
done.set()
print(heaps)
"""


@pytest.mark.skipif(not GLIBC, reason="mallopt(M_ARENA_MAX) is glibc's")
def test_limited_arenas_are_shared_by_the_threads() -> None:
    import subprocess
    import sys

    def heaps(mode: str) -> int:
        out = subprocess.run([sys.executable, "-c", ARENA_PROBE, mode], capture_output=True,
                             text=True, check=True, cwd=Path(__file__).parents[1])
        return int(out.stdout)

    assert heaps("limit") == 0 < heaps("default")  # one arena: the main heap, no thread's own


@pytest.mark.parametrize(("meminfo_kb", "cgroup", "limit", "pages"), [
    (439_316, "0::/\n", None, 16),  # a Pi Zero 2 W: 429 MB after the camera's reserve
    (3_900_000, "0::/\n", None, 64),  # a Pi 4 with 4 GB
    (3_900_000, "0::/crib\n", ("crib/memory.max", "536870912"), 16),  # held to 512 MB (v2)
    (3_900_000, "0::/crib\n", ("crib/memory.max", "max"), 64),  # a v2 group with no limit
    (3_900_000, "4:memory:/crib\n", ("memory/crib/memory.limit_in_bytes", "536870912"), 16),  # v1
    (3_900_000, "4:memory:/crib\n", ("memory/crib/memory.limit_in_bytes", "9223372036854771712"), 64),
])
def test_live_pages_follow_the_machines_memory(tmp_path: Path, meminfo_kb: int, cgroup: str,
                                               limit: tuple[str, str] | None, pages: int) -> None:
    from companion.memory import live_pages, machine_memory

    (tmp_path / "meminfo").write_text(f"MemTotal:       {meminfo_kb} kB\nMemFree:  1000 kB\n")
    (tmp_path / "cgroup").write_text(cgroup)
    if limit is not None:
        (tmp_path / limit[0]).parent.mkdir(parents=True)
        (tmp_path / limit[0]).write_text(limit[1] + "\n")
    memory = machine_memory(str(tmp_path / "meminfo"), str(tmp_path / "cgroup"), str(tmp_path))
    assert live_pages(memory) == pages


def test_crib_serve_sizes_its_threads_to_the_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no --max-live, a machine under 1 GB gets 16 live pages and 24 server threads."""
    from companion import memory
    from companion.cli import build_parser
    from companion.service import ServeConfig

    seen: list[ServeConfig] = []
    monkeypatch.setattr(memory, "machine_memory", lambda: 512 << 20)
    monkeypatch.setattr("companion.service.serve", lambda config: seen.append(config) or 0)
    args = build_parser().parse_args(["serve", "--leds", "none"])
    assert args.handler(args) == 0
    assert seen[0].max_live == 16 and seen[0].server_threads == 24
    args = build_parser().parse_args(["serve", "--leds", "none", "--max-live", "40"])
    assert args.handler(args) == 0 and seen[1].max_live == 40  # said by name: as said
