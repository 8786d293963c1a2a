"""What a screen reader hears of a roll: one sentence of at most MOST_WORDS words, set in the
page's live region each time a result is shown — "Mara, Stealth: Success (IoS 2) — dice 6 3 7 1
2." Who and what, the outcome in the rulebook's name, the number that decided it, what was spent,
and the cards kept or the dice rolled; the result panel holds the rest, one tap away.

Pure, so CPython tests read it; every system is said from its page record (py/app/systems/).
"""

from __future__ import annotations

from collections import Counter

from skillcheck.draw import card_name

from .check_words import kind_of, skill_asked
from .result_html import card_sides, side_title
from .result_notes_html import ANNOUNCED, is_secret
from .systems import deciding, outcome_name, page_of

MOST_WORDS = 25
MOST_WHO = (8, 3)  # the words who-and-what may take, then, for a long draw, the fewest
FACES = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def sentence(result: dict, who: dict | None = None, again: bool = False,
             revealed: bool = False, seeded: bool = False, withdrawn: bool = False) -> str:
    """The roll in one sentence of at most MOST_WORDS words: `who` rolled it (the picked
    character and the sheet's skill), shown `again` (from the log or a link), `revealed` by
    the GM, drawn from a `seeded` sequence, `withdrawn` (taken back: it no longer counts).
    The longer forms come first; a long draw is said more compactly, then the deciding number
    is left out, then who is cut, then the marks are said in a word each, until it fits."""
    marks = [(long, short) for long, short, on in (
        ("shown again", "again", again), ("withdrawn", "withdrawn", withdrawn),
        ("revealed", "revealed", revealed), ("seeded, not random", "seeded", seeded)) if on]
    outcome, number = _outcome(result, spent=not withdrawn)  # a withdrawn roll's, given back
    draws = _draws(result)
    heads = [_head([long for long, _ in marks]), _head([short for _, short in marks])]
    for head in heads:  # the marks said whole first, then in a word each
        for most in MOST_WHO:
            named = _who(result, who, most)
            for numbers in (number, ""):
                for draw in draws:
                    text = f"{head}{named}: {outcome}" + (f", {numbers}" if numbers else "")
                    text += f" — {draw}." if draw else "."
                    if len(text.split()) <= MOST_WORDS:
                        return text
    return f"{heads[1]}{_who(result, who, 2)}: {outcome}."


def _head(marks: list[str]) -> str:
    """"Shown again, withdrawn: " before the rest, or nothing."""
    head = ", ".join(marks)
    return head[:1].upper() + head[1:] + ": " if head else ""


def _outcome(result: dict, spent: bool = True) -> tuple[str, str]:
    """The outcome as the headline names it, and what decided it: the record's number and,
    with `spent`, any stock spent ("IoS 2, 2 Luck spent"); a secret check's number for the
    GM."""
    system = str(result.get("system", ""))
    if is_secret(result):
        number = next((f"{label.lower()} {result[key]} for the GM" for key, label in ANNOUNCED
                       if isinstance(result.get(key), int)), "")
        return "Secret difficulty", number
    outcome = outcome_name(system, str(result.get("outcome", "")))
    number = deciding(result)
    parts = [number] if number and number not in outcome else []
    page = page_of(system)
    paid = result.get(page.resource.spent) if spent and page and page.resource else None
    if isinstance(paid, int) and not isinstance(paid, bool) and paid > 0:
        parts.append(f"{paid} {page.resource.label} spent")
    return outcome, ", ".join(parts)


def _who(result: dict, who: dict | None, most: int) -> str:
    """Who rolled what, "Mara, Stealth"; the kind of check where that is not two parts
    ("Mara, d10 pool", "Card flip, opposed"); cut to `most` words."""
    request = result.get("request") or {}
    parts = [part for part in ((who or {}).get("name"), (who or {}).get("skill")
                               or skill_asked(request)) if part]
    if len(parts) < 2:
        parts.append(kind_of(str(result.get("system", "")), request.get("mode")))
    words = ", ".join(" ".join(str(part).split()) for part in parts)
    cut = words.split()
    return words if len(cut) <= most else " ".join(cut[:most]).rstrip(",:") + "…"


def _draws(result: dict) -> list[str]:
    """The draw, said ever more compactly: each side's kept card, then the first side's with
    how many more sides flipped; every die, then how many of each face, then how many dice."""
    sides = _sides(result)
    if sides:
        said = [_kept(title, side) for title, side in sides]
        forms = [", ".join(said)]
        if len(sides) > 2:
            others = len(sides) - 1
            forms.append(f"{said[0]}, {others} helper{'s' if others != 1 else ''}")
        return forms
    faces = [face for face in result.get("dice") or [] if isinstance(face, int)]
    if not faces:
        return [""]
    noun = "die" if len(faces) == 1 else "dice"
    counts = sorted(Counter(faces).items(), reverse=True)
    grouped = ", ".join(f"{count} {_face(face, count)}" for face, count in counts)
    return [f"{noun} {' '.join(map(str, faces))}", f"{len(faces)} {noun}: {grouped}",
            f"{len(faces)} {noun}"]


def _face(face: int, count: int) -> str:
    """A face as a count of it says it: "five" (1 five), "sixes" (3 sixes), "12s"."""
    word = FACES[face - 1] if 1 <= face <= len(FACES) else str(face)
    return word if count == 1 else word + ("es" if word.endswith(("x", "s")) else "s")


def _sides(result: dict) -> list[tuple[str, dict]]:
    """The sides that flipped cards, as the result panel titles them ("" for a lone hand)."""
    if "cards" in result:
        return [("", result)]
    return [(side_title(path), side) for path, side in card_sides(result)]


def _kept(title: str, side: dict) -> str:
    """One side's card: "kept Ten of Spades", "Opponent took a 7"."""
    cards, kept = side.get("cards") or [], side.get("kept")
    if side.get("take7"):
        words = "took a 7"
    elif isinstance(kept, int) and 0 <= kept < len(cards):
        words = ("kept the lowest, " if side.get("keep_low") else "kept ") + card_name(
            cards[kept])
    else:
        words = "flipped no card"
    return f"{title} {words}" if title else words
