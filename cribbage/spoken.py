"""Saying a count the way players do at the table.

>>> number_words(29)
'twenty-nine'
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
