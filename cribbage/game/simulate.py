"""Random legal games, event by event: for property tests, benchmarks and demos.

Cards are dealt from a shuffled pack; each seat lays a random card that fits (or says go) and
lays away random cards. ``hands_known=False`` sends only what a camera sees (no hands, no
discards; goes inferred where a later card shows them), and shows the hands with their cards.

>>> import random
>>> from cribbage.game.settings import Settings
>>> game, events = random_game(Settings.from_json({"target": 61}), random.Random(7))
>>> game.phase, max(game.scores.values())
('over', 61)
>>> events[0]["type"]
'dealer'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from cribbage.cards import PACK, Card
from cribbage.game.game import Game
from cribbage.game.settings import Settings

__all__ = ["random_events", "random_game"]


def random_game(
    settings: Settings,
    rng: random.Random,
    *,
    hands_known: bool = True,
    claims: bool = False,
    max_deals: int = 60,
    on_event: Callable[[Game, dict[str, Any]], None] | None = None,
) -> tuple[Game, list[dict[str, Any]]]:
    """Play a whole game at random; returns the final game and the events sent.

    ``claims`` makes shows claim a random count at or below the truth (claim counting).
    ``on_event(game, event)`` is called after each event is applied.
    """
    game, events = Game(settings), []
    for game, event in random_events(settings, rng, hands_known=hands_known, claims=claims,
                                     max_deals=max_deals):
        events.append(event)
        if on_event is not None:
            on_event(game, event)
    return game, events


def random_events(
    settings: Settings,
    rng: random.Random,
    *,
    hands_known: bool = True,
    claims: bool = False,
    max_deals: int = 60,
    dealer: str | None = None,
) -> Iterator[tuple[Game, dict[str, Any]]]:
    """The events of a random game one at a time, each with the game after it: what
    :func:`random_game` plays, for a caller that sends them at its own pace (``crib serve
    --demo``). ``dealer`` names the first dealer's seat (drawn at random when ``None``).

    >>> import itertools
    >>> from cribbage.game.settings import Settings
    >>> events = random_events(Settings.from_json({}), random.Random(7), hands_known=False,
    ...                        dealer="B")
    >>> [event for _game, event in itertools.islice(events, 2)]
    [{'type': 'dealer', 'seat': 'B'}, {'type': 'starter', 'card': '4H'}]
    """
    v = settings.variant
    n = settings.seats
    letters = [chr(65 + i) for i in range(n)]
    state = {"game": Game(settings)}

    def send(event: dict[str, Any]) -> Iterator[tuple[Game, dict[str, Any]]]:
        state["game"] = state["game"].apply(event)
        yield state["game"], event

    yield from send({"type": "dealer", "seat": dealer if dealer is not None else rng.choice(letters)})
    for _ in range(max_deals):
        game = state["game"]
        if game.phase == "over":
            break
        pack = list(PACK)
        rng.shuffle(pack)
        dealt = {s: [pack.pop() for _ in range(v.dealt)] for s in range(n)}
        crib_card = pack.pop() if v.crib_from_pack else None
        kept: dict[int, list[Card]] = {}
        for s in range(n):
            away = rng.sample(dealt[s], v.discard)
            kept[s] = [c for c in dealt[s] if c not in away]
            if hands_known:
                yield from send({"type": "hand", "seat": letters[s], "cards": [c.name for c in dealt[s]]})
                yield from send({"type": "discard", "seat": letters[s], "cards": [c.name for c in away]})
            if state["game"].phase == "over":
                break
        if hands_known and crib_card is not None and state["game"].phase == "deal":
            yield from send({"type": "crib-card", "card": crib_card.name})
        if state["game"].phase != "deal":
            break
        yield from send({"type": "starter", "card": pack.pop().name})
        yield from _play(state, send, kept, rng, hands_known)
        game = state["game"]
        if game.phase != "show":
            continue
        deal = game.deal
        assert deal is not None
        for s in deal.show_order:
            event: dict[str, Any] = {"type": "show", "seat": letters[s]}
            if not hands_known:
                event["cards"] = [c.name for c in kept[s]]
            if claims:
                event["claim"] = _claim(state["game"], kept[s], rng)
            yield from send(event)
            if state["game"].phase == "over":
                break
        if state["game"].phase == "over":
            break
        crib = [c for s in range(n) for c in dealt[s] if c not in kept[s]]
        if crib_card is not None:
            crib.append(crib_card)
        event = {"type": "crib"}
        if not hands_known:
            event["cards"] = [c.name for c in crib]
        if claims:
            event["claim"] = _claim(state["game"], crib, rng, crib=True)
        yield from send(event)


def _claim(game: Game, cards: list[Card], rng: random.Random, *, crib: bool = False) -> int:
    from cribbage.show import show_total

    assert game.deal is not None and game.deal.starter is not None
    truth = show_total(cards, game.deal.starter, crib=crib)
    return truth if rng.random() < 0.6 else rng.randint(0, truth)


def _play(
    state: dict[str, Game],
    send: Callable[[dict[str, Any]], Iterator[tuple[Game, dict[str, Any]]]],
    kept: dict[int, list[Card]],
    rng: random.Random,
    hands_known: bool,
) -> Iterator[tuple[Game, dict[str, Any]]]:
    """Lay cards until the play is over. Without known hands a go is sent only when the
    game cannot infer it: when the seat that said it lays next, or when no card follows."""
    held = {s: list(cards) for s, cards in kept.items()}
    shadow = state["game"]  # follows every go, sent or not
    pending: list[dict[str, Any]] = []
    while shadow.phase == "play":
        letter = shadow.next
        assert letter is not None
        seat = ord(letter) - 65
        fits = [c for c in held[seat] if shadow.count + c.value <= 31]
        if fits:
            card = rng.choice(fits)
            held[seat].remove(card)
            event = {"type": "play", "seat": letter, "card": card.name}
            for go in pending:
                if go["seat"] == letter:  # one's own go is never inferred
                    yield from send(go)
            pending.clear()
            yield from send(event)
            shadow = state["game"]
        else:
            event = {"type": "go", "seat": letter}
            if hands_known:
                yield from send(event)
                shadow = state["game"]
            else:
                pending.append(event)
                shadow = shadow.apply(event)
    for event in pending:
        yield from send(event)
