"""Saying a count the way players do at the table: the show's running count (built in
:func:`cribbage.show.spoken_count` from these words) and the points pegged in the play.

>>> number_words(29)
'twenty-nine'
>>> join_phrases([points_words("fifteen", 2), points_words("pair", 2)])
'fifteen for two and pair for two'
"""

from __future__ import annotations

NUMBER_WORDS = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
)
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_LENGTHS = {3: "three", 4: "four", 5: "five"}


def number_words(n: int) -> str:
    """``n`` (0–999) in words: ``number_words(15) == 'fifteen'``.

    >>> number_words(121), number_words(-2)
    ('one hundred and twenty-one', 'minus two')
    """
    if n < 0:
        return "minus " + number_words(-n)
    if n < 20:
        return NUMBER_WORDS[n]
    if n < 100:
        tens, unit = divmod(n, 10)
        return _TENS[tens] + ("-" + NUMBER_WORDS[unit] if unit else "")
    hundreds, rest = divmod(n, 100)
    head = NUMBER_WORDS[hundreds] + " hundred"
    return head + (" and " + number_words(rest) if rest else "")


def run_length_words(length: int) -> str:
    """``'three'`` for a run of three."""
    return _LENGTHS.get(length, number_words(length))


def join_phrases(phrases: list[str]) -> str:
    """Join spoken phrases with commas and a final "and".

    >>> join_phrases(["fifteen two", "fifteen four", "a pair is six"])
    'fifteen two, fifteen four and a pair is six'
    """
    if len(phrases) <= 1:
        return "".join(phrases)
    return ", ".join(phrases[:-1]) + " and " + phrases[-1]


GO = "go"
"""What a player says who cannot lay a card without passing 31."""

PAIR_WORDS = {2: "pair", 6: "pair royal", 12: "double pair royal"}
"""A pair in the play by its points."""

POINTS_WORDS = {
    "fifteen": "fifteen",
    "thirty-one": "thirty-one",
    "go": "last card",
    "heels": "his heels",
    "three-for-last": "three for last",
    "muggins": "muggins!",
    "misdeal": "misdeal penalty",
    "adjust": "adjusted",
    "over-claim": "over-claim pegged",
}
"""What each kind of award pegged outside the show is called at the table."""


def points_words(kind: str, points: int) -> str:
    """Points scored as players say them: ``kind`` (the engine's award kind) scoring ``points``.
    What is said is the whole score, even when fewer took the side to the game hole: at 60 in
    a game of 61 a thirty-one is "thirty-one for two", and game.

    >>> points_words("thirty-one", 2), points_words("go", 1)
    ('thirty-one for two', 'last card for one')
    >>> points_words("pair", 6), points_words("run", 4), points_words("heels", 2)
    ('pair royal for six', 'run of four for four', 'his heels for two')
    >>> points_words("claim", 12)
    'claims twelve'
    """
    if kind == "claim":
        return f"claims {number_words(points)}"
    if kind == "pair":
        what = PAIR_WORDS.get(points, "pair")
    elif kind == "run":
        what = f"run of {run_length_words(points)}"
    else:
        what = POINTS_WORDS.get(kind, kind.replace("-", " "))
    return f"{what} for {number_words(points)}"
