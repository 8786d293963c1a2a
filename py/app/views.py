"""The page's two sides of the table, each at an address of its own: the player's check (every
address but "#gm") and the GM's side ("#gm"), so a GM's phone can be left open on it. "#play" is
the way back: it shows the player's side and becomes the check's own address again."""

from __future__ import annotations

GM, PLAYER = "#gm", "#play"


def is_side(fragment: object) -> bool:
    """Whether a location.hash only names a side of the table, to be shown as it is."""
    return fragment in (GM, PLAYER)
