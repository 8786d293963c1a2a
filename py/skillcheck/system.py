"""What every rule system module provides: a fifth system is one module and one registry line."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from .draw import Draw
from .request import Form


@dataclass(frozen=True)
class System:
    """One rule system: how to resolve a check, its exact odds, and how its form looks.

    `resolve(request, draw)` returns the contract's result dict (including `request`: the checked
    request with its draw filled in, which replays to the same result). `odds(request)` returns
    `{"outcomes": {name: Fraction}, "success": Fraction | None, ...}`; the package turns the
    fractions into strings.
    """

    name: str
    label: str
    seed: str
    button: str
    outcomes: tuple[str, ...]
    winners: tuple[str, ...]
    resolve: Callable[[dict, Draw], dict]
    odds: Callable[[dict], dict]
    fields: tuple = ()
    modes: tuple[str, ...] = ()
    extra: dict = field(default_factory=dict)
    # The box for a draw made at the table; its label is the request field (cards or dice).
    draw: Form | None = None
    # A system whose GM may keep the difficulty secret (and commit to it): `difficulty` reads it
    # from a request as the reveal carries it, canonical (a number); `difficulty_keys` are the
    # fields it reads, the number's first and then a name's (the card flip's ladder).
    difficulty: Callable[[dict], int] | None = None
    difficulty_keys: tuple[str, ...] = ()
    # Faster ways to the odds of one request with a number field set to 0, 1, … most: field →
    # (request, most) → the odds answers, in that order (skillcheck.odds_by; absent: odds
    # once per value).
    ladders: dict[str, Callable[[dict, int], list[dict]]] = field(default_factory=dict)

    def spec(self, name: str):
        """The spec of the field `name`, as this system's form shows it (KeyError if none)."""
        found = [spec for spec in self.fields if spec.name == name]
        if not found:
            raise KeyError(f"{self.name} has no field {name!r}")
        return found[0]

    def describe(self) -> dict:
        """A JSON-able description the page builds its forms and labels from."""
        return {
            "name": self.name,
            "label": self.label,
            "seed": self.seed,
            "button": self.button,
            "outcomes": list(self.outcomes),
            "winners": list(self.winners),
            "modes": list(self.modes),
            "fields": [spec.describe() for spec in self.fields],
            **({"draw": self.draw.describe()} if self.draw else {}),
            **self.extra,
        }


def odds_from(outcomes: dict[str, Fraction], winners) -> dict:
    """The usual odds answer: outcome chances and success as the sum of the winning ones."""
    return {"outcomes": outcomes, "success": sum((outcomes.get(w, Fraction(0)) for w in winners),
                                                  Fraction(0))}
