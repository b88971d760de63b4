"""Variants as settings: five-card, three players, four players in partnership, 61 or 121."""

from __future__ import annotations

import pytest

from cribbage.errors import RuleError
from cribbage.game import Settings

from .helpers import explained, new, refused, run


def test_settings_defaults_and_refusals():
    six = Settings.from_json({})
    assert (six.variant.name, six.target, six.counting, six.muggins) == ("six-card", 121, "auto",
                                                                       False)
    assert Settings.from_json({"variant": "six-card", "target": 61}).target == 61
    five = Settings.from_json({"variant": "five-card"})
    assert five.target == 61 and five.three_for_last
    assert not Settings.from_json({"variant": "five-card", "three_for_last": False}).three_for_last
    for bad in [{"variant": "crazy"}, {"target": 100}, {"players": "Ann"},
                {"counting": "maybe"}, {"muggins": True, "overclaim": "peg"},
                {"variant": "three-player", "players": ["Ann", "Bob"]}]:
        with pytest.raises(RuleError):
            Settings.from_json(bad)


def test_five_card_three_for_last_single_series_and_three_card_flush():
    game = run(new(variant="five-card"), {"type": "dealer", "seat": "B"})
    assert game.scores == {"A": 3, "B": 0}  # the pone pegs 3 at the start
    game = run(game, {"type": "starter", "card": "KD"}, "A TS", "B TH", "A 9S")
    assert game.scores == {"A": 3, "B": 2}
    game = run(game, "B go")
    assert game.phase == "play" and game.next == "A"
    game = run(game, "A go")  # neither can play: A laid last, and the play stops
    assert game.phase == "show" and game.scores == {"A": 4, "B": 2}
    refused(game, {"type": "show", "seat": "A", "cards": ["TS", "9S"]}, "hand-size")
    refused(game, {"type": "show", "seat": "A", "cards": ["TS", "5S", "2S"]}, "show")  # 9S laid
    game = run(game, {"type": "show", "seat": "A", "cards": ["TS", "9S", "5S"]})
    items = [(i["kind"], i["points"]) for i in game.to_json()["shows"][0]["items"]]
    assert items == [("fifteen", 2), ("fifteen", 2), ("flush", 3)]  # a 3-card flush
    assert game.scores["A"] == 4 + 7


def test_five_card_game_is_to_61():
    game = run(new(variant="five-card"), {"type": "dealer", "seat": "B"},
               {"type": "adjust", "seat": "B", "points": 60})
    assert game.winner is None
    game = run(game, {"type": "adjust", "seat": "B", "points": 1})
    assert game.winner == "B" and game.skunk == "skunk"  # A has 3, below 31


def test_five_card_hand_sizes():
    game = run(new(variant="five-card"), {"type": "dealer", "seat": "A"})
    refused(game, {"type": "hand", "seat": "B", "cards": ["5C", "5D", "JS", "6H"]}, "hand-size")
    game = run(game, {"type": "hand", "seat": "B", "cards": ["5C", "5D", "JS", "6H", "7H"]})
    refused(game, {"type": "discard", "seat": "B", "cards": ["7H"]}, "hand-size")
    game = run(game, {"type": "discard", "seat": "B", "cards": ["7H", "6H"]})
    assert game.to_json()["hands"]["B"]["kept"] == ["5C", "5D", "JS"]


def test_three_players_crib_card_order_and_last_to_lay_takes_go():
    game = run(new(variant="three-player", players="Ann,Bob,Cat"), {"type": "dealer", "seat": "C"})
    game = run(game, {"type": "crib-card", "card": "2H"})
    refused(game, {"type": "crib-card", "card": "3H"}, "crib-card")
    refused(game, {"type": "discard", "seat": "A", "cards": ["2C", "3C"]}, "hand-size")
    game = run(game, {"type": "discard", "seat": "A", "cards": ["AC"]},
               {"type": "discard", "seat": "B", "cards": ["AD"]},
               {"type": "discard", "seat": "C", "cards": ["AS"]},
               {"type": "starter", "card": "KD"})
    assert game.next == "A"  # left of the dealer leads
    game = run(game, "A 9S", "B 9H", "C 9D")
    assert game.scores == {"A": 0, "B": 2, "C": 6}
    game = run(game, "A go", "B go")
    assert game.next == "C"  # C can still play
    game = run(game, "C 2S")  # 29
    game = run(game, "C go")  # nobody can: C laid last
    assert game.scores == {"A": 0, "B": 2, "C": 7} and game.count == 0 and game.next == "A"
    # the rest laid out so the show can start
    game = run(game, "A 3S", "B 3H", "C 3D", "A 4S", "B 4H", "C 4D")
    assert game.scores == {"A": 0, "B": 2 + 2 + 2, "C": 7 + 6 + 6}
    game = run(game, "A 2C")
    assert game.next == "B"  # C is out of cards
    game = run(game, "B 2D")  # pair, and the last card of the play
    assert game.scores["B"] == 6 + 2 + 1
    assert game.phase == "show"
    assert [game.next] == ["A"]
    game = run(game, {"type": "show", "seat": "A"}, {"type": "show", "seat": "B"})
    refused(game, {"type": "crib"}, "show-order")
    game = run(game, {"type": "show", "seat": "C"})
    assert game.to_json()["crib"]["known"] == ["AC", "AD", "AS", "2H"]
    game = run(game, {"type": "crib"})  # known: three discards and the card dealt to it
    assert game.dealer == "A" and game.phase == "deal"
    explained(game)


def test_crib_card_only_with_three_players():
    refused(run(new(), {"type": "dealer", "seat": "A"}), {"type": "crib-card", "card": "2H"},
            "variant")


def test_four_players_score_in_partnership():
    game = run(new(variant="four-player", players="Ann,Bob,Cat,Dan"),
               {"type": "dealer", "seat": "D"}, {"type": "starter", "card": "KD"})
    state = game.to_json()
    assert state["scores"] == {"AC": 0, "BD": 0}
    assert [s["name"] for s in state["sides"]] == ["Ann & Cat", "Bob & Dan"]
    assert game.next == "A"
    game = run(game, "A 7S", "B 7H", "C 7D", "D 7C")
    assert game.scores == {"AC": 6, "BD": 2 + 12}
    refused(game, {"type": "discard", "seat": "A", "cards": ["AC"]}, "phase")


def test_four_players_muggins_callers_are_the_other_partnership():
    game = run(new(variant="four-player", counting="claim", muggins=True),
               {"type": "dealer", "seat": "D"}, {"type": "starter", "card": "KD"},
               "A 7S", {"type": "play", "seat": "B", "card": "7H", "claim": 0})
    assert game.pending[0]["callers"] == ["A", "C"]
    refused(game, {"type": "muggins", "seat": "D"}, "muggins")
    game = run(game, {"type": "muggins", "seat": "C"})
    assert game.scores == {"AC": 2, "BD": 0}


def test_variants_are_built_with_keywords():
    from cribbage.game.settings import VARIANTS, Variant

    with pytest.raises(TypeError):
        Variant("six-card", 2, 6, 2, 4, 0, 121, False, False, False)  # type: ignore[misc]
    five = VARIANTS["five-card"]
    assert (five.seats, five.dealt, five.discard, five.kept, five.target) == (2, 5, 2, 3, 61)
    assert five.three_for_last and five.single_series and not five.partners
    three = VARIANTS["three-player"]
    assert (three.crib_from_pack, three.crib_size, three.partners) == (1, 4, False)
    assert all(v.crib_size == 4 for v in VARIANTS.values())


def test_a_variant_names_its_seats_and_sides():
    from cribbage.game.settings import VARIANTS

    assert VARIANTS["four-player"].to_json()["sides"] == [
        {"id": "AC", "seats": ["A", "C"]}, {"id": "BD", "seats": ["B", "D"]},
    ]
    three = VARIANTS["three-player"].to_json()
    assert three["seats"] == ["A", "B", "C"] and [s["id"] for s in three["sides"]] == ["A", "B", "C"]
    assert VARIANTS["five-card"].to_json()["kept"] == 3
    for name, variant in VARIANTS.items():
        settings = Settings.from_json({"variant": name})
        assert [side for side, _ in settings.sides] == [s["id"] for s in variant.to_json()["sides"]]
        assert len(settings.colours) == len(variant.sides)
