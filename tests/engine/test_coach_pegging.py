"""The pegging model: the simulated play scores as :class:`cribbage.play.Play` does; the table."""

from __future__ import annotations

import json
import random
from itertools import combinations_with_replacement

import pytest

from cribbage.cards import PACK, RANKS, parse_cards
from cribbage.coach.pegging import TABLE_PATH, greedy_lay, main, pegging_figure, simulate_play
from cribbage.play import Play


@pytest.mark.parametrize("single_series", [False, True])
def test_the_simulated_play_pegs_what_the_engine_pegs(single_series: bool) -> None:
    rng = random.Random(11)
    kept = 3 if single_series else 4
    for _ in range(400):
        cards = rng.sample(PACK, 2 * kept)
        hands = [cards[:kept], cards[kept:]]
        log: list[tuple[int, int | None]] = []
        points = simulate_play([[c.rank - 1 for c in h] for h in hands], single_series=single_series, log=log)
        play = Play(2, single_series=single_series)
        held = [list(h) for h in hands]
        for seat, rank in log:
            if rank is None:
                play.go(seat)
            else:
                card = next(c for c in held[seat] if c.rank - 1 == rank)
                held[seat].remove(card)
                play.lay(seat, card)
        play.finish()
        assert play.over or not any(held)
        assert [play.totals()[0], play.totals()[1]] == points


def test_the_greedy_player_takes_points_and_leads_safely() -> None:
    assert greedy_lay([10, 4], [9], 10) == 4  # fifteen two
    assert greedy_lay([2, 7], [7], 8) == 7  # a pair
    assert greedy_lay([4, 3, 12], [], 0) == 3  # leads the 4, not the 5 nor the king
    assert greedy_lay([12, 0], [9, 8, 8], 28) == 0  # the only card that fits


def test_the_table_covers_every_kept_hand() -> None:
    data = json.loads(TABLE_PATH.read_text())
    for variant, kept in (("six-card", 4), ("five-card", 3)):
        keys = {"".join(RANKS[r] for r in ranks) for ranks in combinations_with_replacement(range(13), kept)}
        assert set(data[variant]) == keys
        assert all(0 < dealer < 12 and 0 < pone < 12 for dealer, pone in data[variant].values())
        # The dealer, who answers the lead and most often lays the last card, pegs more.
        rows = list(data[variant].values())
        assert sum(r[0] for r in rows) > sum(r[1] for r in rows)
    assert pegging_figure(parse_cards("5H 5S 5D TC"), "dealer") == data["six-card"]["555T"][0]
    assert pegging_figure(parse_cards("TC 5H 5S"), "pone", "five-card") == data["five-card"]["55T"][1]
    assert pegging_figure(parse_cards("5H 5S 5D TC"), "dealer", "three-player") is None


def test_the_table_is_rebuilt_by_its_command(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "pegging.json"
    assert main(["--plays", "2", "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["meta"]["plays"] == 2 and len(data["six-card"]) == 1820 and len(data["five-card"]) == 455
    assert "wrote" in capsys.readouterr().out
