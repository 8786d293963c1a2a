"""The pieces every system's character sheet is read with: names, maps of names, numbers held to
the request field they fill, flags. Each system's record (py/app/systems/) reads its own sheet
with them; characters.py reads the rest of a character.
"""

from __future__ import annotations

from collections.abc import Callable

from skillcheck.request import Whole

from .storage import FieldError, text_field, whole

LONGEST_NAME = 60
MOST_SKILLS = 100
MOST_LUCK = 1000  # the most a character holds
MOST_XP = 1_000_000


def name(value: object, field: str) -> str:
    """A name a player typed: trimmed, one line, not empty."""
    text = text_field(value, field, LONGEST_NAME).strip()
    if not text:
        raise FieldError(field, "must not be empty")
    return text


def named(value: object, field: str, read: Callable[[object, str, str], object],
          known: Callable[[str], str] = str) -> dict:
    """A map of names to values, each read by `read(value, field, name)`; at most MOST_SKILLS.
    `known` spells a name as the engine does ("hs" → "HS"): sheets saved with other cases load,
    and a name given twice in two cases is refused."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise FieldError(field, "must map names to values")
    if len(value) > MOST_SKILLS:
        raise FieldError(field, f"must hold at most {MOST_SKILLS} entries")
    found = {}
    for key, inner in value.items():
        spelled = known(name(key, field))
        if spelled in found:
            raise FieldError(f"{field}.{spelled}", "is listed twice")
        found[spelled] = read(inner, f"{field}.{spelled}", spelled)
    return found


def spelled_as(names) -> Callable[[str], str]:
    """`known` for named(): a name matching one of `names` but for case becomes that one."""
    by_fold = {name.casefold(): name for name in names}
    return lambda name: by_fold.get(name.casefold(), name)


def within(spec: Whole, value: object, field: str) -> int:
    """A sheet's number, checked against the limits of the request field it fills."""
    return whole(value, field, spec.lo, spec.hi)


def number(spec: Whole) -> Callable[[object, str, str], int]:
    """`read` for named(): each value a number the request field `spec` takes."""
    return lambda value, field, _: within(spec, value, field)


def fields_of(value: object, field: str) -> dict:
    """An object of named fields, or FieldError."""
    if not isinstance(value, dict):
        raise FieldError(field, "must be an object of named fields")
    return value


def flag(value: object, field: str) -> bool:
    """A switch: true or false, absent as false."""
    if value is None:
        return False
    if not isinstance(value, bool):
        raise FieldError(field, "must be true or false")
    return value
