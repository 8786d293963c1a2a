"""Playing cards and dice as inline SVG, each one role="img" with a text alternative.

Pure string building (no browser), so CPython tests can check every face and label. Callers
pass what to draw; nothing here decides a rule.
"""

from __future__ import annotations

from html import escape

from skillcheck.draw import card_value

COLOURS = {"S": "black", "H": "red", "D": "red", "C": "black"}

# Suit shapes drawn in a 100 × 100 box, so pips of any size come from one path each.
SUIT_PATHS = {
    "H": "M50 92C36 78 4 58 6 32 8 12 30 4 44 16c3 3 5 6 6 9 1-3 3-6 6-9C70 4 92 12 94 32 "
         "96 58 64 78 50 92Z",
    "D": "M50 2C62 20 76 36 92 50 76 64 62 80 50 98 38 80 24 64 8 50 24 36 38 20 50 2Z",
    "S": "M50 4C64 24 94 40 92 64 90 84 66 88 54 74c2 10 6 17 14 22H32c8-5 12-12 14-22C34 88 "
         "10 84 8 64 6 40 36 24 50 4Z",
    "C": "M50 6a20 20 0 0 1 17 31 20 20 0 1 1-11 34c2 10 6 18 14 25H30c8-7 12-15 14-25A20 20 0 "
         "1 1 33 37 20 20 0 0 1 50 6Z",
}

# Pip centres on the 100 × 140 card face, by card value (the usual layouts of a real deck).
_TOP, _UPPER, _MID, _LOWER, _BOTTOM = 34, 58, 70, 82, 106
_L, _C, _R = 33, 50, 67
PIPS = {
    2: [(_C, _TOP), (_C, _BOTTOM)],
    3: [(_C, _TOP), (_C, _MID), (_C, _BOTTOM)],
    4: [(_L, _TOP), (_R, _TOP), (_L, _BOTTOM), (_R, _BOTTOM)],
    5: [(_L, _TOP), (_R, _TOP), (_C, _MID), (_L, _BOTTOM), (_R, _BOTTOM)],
    6: [(_L, _TOP), (_R, _TOP), (_L, _MID), (_R, _MID), (_L, _BOTTOM), (_R, _BOTTOM)],
    7: [(_L, _TOP), (_R, _TOP), (_C, 52), (_L, _MID), (_R, _MID), (_L, _BOTTOM),
        (_R, _BOTTOM)],
    8: [(_L, _TOP), (_R, _TOP), (_C, 52), (_L, _MID), (_R, _MID), (_C, 88), (_L, _BOTTOM),
        (_R, _BOTTOM)],
    9: [(_L, _TOP), (_R, _TOP), (_L, _UPPER), (_R, _UPPER), (_C, _MID), (_L, _LOWER),
        (_R, _LOWER), (_L, _BOTTOM), (_R, _BOTTOM)],
    10: [(_L, _TOP), (_R, _TOP), (_C, 46), (_L, _UPPER), (_R, _UPPER), (_L, _LOWER),
         (_R, _LOWER), (_C, 94), (_L, _BOTTOM), (_R, _BOTTOM)],
}


def card_parts(code: str) -> tuple[str, str]:
    """"10H" → ("10", "H")."""
    return code[:-1], code[-1]


def _suit(suit: str, x: float, y: float, size: float, flipped: bool = False) -> str:
    """One suit shape centred on (x, y), `size` wide; pips below the middle stand upside down."""
    steps = [f"rotate(180 {x} {y})"] if flipped else []
    steps.append(f"translate({x - size / 2:g} {y - size / 2:g}) scale({size / 100:g})")
    return f'<path d="{SUIT_PATHS[suit]}" transform="{" ".join(steps)}"/>'


def _centre(rank: str, suit: str) -> str:
    value = card_value(rank + suit)
    if rank == "A":
        return _suit(suit, 50, 70, 46)
    if rank in ("J", "Q", "K"):
        return ('<rect class="court" x="22" y="24" width="56" height="92" rx="4"/>'
                f'<text class="court-letter" x="50" y="84" text-anchor="middle">{rank}</text>'
                + _suit(suit, 34, 38, 14) + _suit(suit, 66, 102, 14, flipped=True))
    return "".join(_suit(suit, x, y, 17, flipped=y > 70) for x, y in PIPS[value])


def card_face(code: str) -> str:
    """The front of one card: white face, corner indices, pips (or a court letter)."""
    rank, suit = card_parts(code)
    fit = ' textLength="17" lengthAdjust="spacingAndGlyphs"' if len(rank) > 1 else ""
    corner = (f'<text class="index" x="11" y="22" text-anchor="middle"{fit}>{rank}</text>'
              + _suit(suit, 11, 32, 11))
    return (f'<svg class="face suit-{COLOURS[suit]}" viewBox="0 0 100 140" aria-hidden="true" '
            'focusable="false"><rect class="paper" x="1" y="1" width="98" height="138" rx="8"/>'
            f'{corner}<g transform="rotate(180 50 70)">{corner}</g>{_centre(rank, suit)}</svg>')


CARD_BACK = ('<svg class="back" viewBox="0 0 100 140" aria-hidden="true" focusable="false">'
             '<rect class="back-paper" x="1" y="1" width="98" height="138" rx="8"/>'
             '<rect class="back-field" x="8" y="8" width="84" height="124" rx="4"/></svg>')


def card(code: str, label: str, classes: str = "") -> str:
    """One card as role="img": the face, and a back for the flip animation to turn over."""
    return (f'<span class="card {classes}" role="img" aria-label="{escape(label)}" '
            f'data-card="{escape(code)}"><span class="card-inner">{CARD_BACK}'
            f'{card_face(code)}</span></span>')


def d10_svg(text: str, classes: str = "") -> str:
    """A ten-sided die seen from above: a kite face ringed by the sides."""
    small = " small" if len(text) > 1 else ""
    return (f'<svg class="d10 {classes}" viewBox="0 0 100 100" aria-hidden="true" '
            'focusable="false"><polygon class="body" points="50,3 95,38 86,74 50,97 14,74 5,38"/>'
            '<polygon class="top" points="50,14 80,47 50,80 20,47"/>'
            '<path class="edge" d="M50 3V14M95 38 80 47M86 74 80 47M50 97V80M14 74 20 47M5 38 '
            '20 47"/>'
            f'<text class="pip-text{small}" x="50" y="56" text-anchor="middle">{escape(text)}'
            f'</text>{_underline(text)}</svg>')


def _underline(text: str) -> str:
    """6 and 9 carry a bar on real dice, so they can't be mistaken for each other."""
    return '<path class="edge" d="M42 64H58"/>' if text in ("6", "9") else ""


D6_PIPS = {1: [(50, 50)], 2: [(28, 28), (72, 72)], 3: [(28, 28), (50, 50), (72, 72)],
           4: [(28, 28), (72, 28), (28, 72), (72, 72)],
           5: [(28, 28), (72, 28), (50, 50), (28, 72), (72, 72)],
           6: [(28, 26), (72, 26), (28, 50), (72, 50), (28, 74), (72, 74)]}


def d6_svg(face: int, classes: str = "") -> str:
    """A six-sided die with its pips."""
    pips = "".join(f'<circle class="pip" cx="{x}" cy="{y}" r="{11 if face == 1 else 8.5}"/>'
                   for x, y in D6_PIPS[face])
    return (f'<svg class="d6 {classes}" viewBox="0 0 100 100" aria-hidden="true" '
            'focusable="false"><rect class="body" x="5" y="5" width="90" height="90" rx="16"/>'
            f'{pips}</svg>')


def die(svg: str, label: str, note: str = "", classes: str = "") -> str:
    """One die as role="img" with its text alternative; `note` is shown under it."""
    shown = f'<span class="die-note" aria-hidden="true">{escape(note)}</span>' if note else ""
    return (f'<span class="die {classes}" role="img" aria-label="{escape(label)}">{svg}'
            f'{shown}</span>')


def percentile_faces(roll: int) -> tuple[str, str]:
    """A d100 roll as its tens and units dice: 73 → ("70", "3"), 100 → ("00", "0")."""
    tens, units = divmod(roll % 100, 10)
    return f"{tens}0", str(units)
