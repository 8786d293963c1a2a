"""Where randomness enters: a fresh shuffled deck per side, fair dice, forced draws for replay.

Everything random goes through one `Draw`, built from the caller's rng, the request's seed, or
the operating system's crypto source (crypto.getRandomValues under Pyodide). `random.shuffle` and
`randint` use rejection sampling, so no face is favoured by a modulo.
"""

from __future__ import annotations

import random

from .errors import InvalidRequest
from .request import SEED, read_list

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)
RANK_NAMES = ("Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
              "Jack", "Queen", "King")
SUIT_NAMES = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}


def card_value(code: str) -> int:
    """A=1, 2..10, J=11, Q=12, K=13."""
    return RANKS.index(code[:-1]) + 1


def card_name(code: str) -> str:
    """"QH" → "Queen of Hearts"."""
    return f"{RANK_NAMES[card_value(code) - 1]} of {SUIT_NAMES[code[-1]]}"


def make_rng(request: dict, rng: random.Random | None) -> random.Random:
    """The caller's rng, else one seeded by the request, else the system's crypto source."""
    if rng is not None:
        return rng
    seed = SEED.read(request)
    if seed is not None:
        return random.Random(seed)
    return random.SystemRandom()


class Draw:
    """Cards and dice for one check: taken from the forced draw when given, else from the rng."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def cards(self, count: int, forced: object, field: str, complete: bool = False) -> list[str]:
        """`count` cards off the top of a freshly shuffled 52-card deck, or the forced ones.

        With `complete` (a count that another side's draw decides), a forced draw short of the
        count is completed from the same deck, minus the cards already shown; a longer one keeps
        its first cards."""
        if forced is not None:
            if not complete or not isinstance(forced, list):
                return check_cards(forced, count, field)
            shown = check_cards(forced, len(forced), field)
            if len(shown) >= count:
                return shown[:count]
            deck = [code for code in DECK if code not in shown]
            self.rng.shuffle(deck)
            return shown + deck[:count - len(shown)]
        deck = list(DECK)
        self.rng.shuffle(deck)
        return deck[:count]

    def dice(self, count: int, sides: int, forced: object, field: str) -> list[int]:
        """`count` fair dice of `sides` faces, or the forced ones."""
        if forced is not None:
            return check_dice(forced, count, sides, field)
        return [self.rng.randint(1, sides) for _ in range(count)]


def check_cards(forced: object, count: int, field: str) -> list[str]:
    cards = read_list({field: forced}, field, "", 52)
    if cards is None or len(cards) != count:
        raise InvalidRequest(field, f"must list exactly {count} card{'s' if count != 1 else ''}")
    for code in cards:
        if not isinstance(code, str) or code not in DECK:
            raise InvalidRequest(field, "cards are written rank then suit, like 7H, 10S or QD")
    if len(set(cards)) != len(cards):
        raise InvalidRequest(field, "the same card cannot come up twice in one flip")
    return list(cards)


def check_dice(forced: object, count: int, sides: int, field: str) -> list[int]:
    dice = read_list({field: forced}, field, "", 100)
    if dice is None or len(dice) != count:
        raise InvalidRequest(field, f"must list exactly {count} di{'ce' if count != 1 else 'e'}")
    for face in dice:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= sides:
            raise InvalidRequest(field, f"each die must be a whole number from 1 to {sides}")
    return list(dice)
