"""The GM's committed secrets, kept on the GM's own phone: each difficulty the GM committed to,
with the salt that opens it, until the GM clears it — across reloads and tabs, like the log.

A secret stays listed once revealed (marked so, with the time): several players may roll against
the one lock on the vault door, and each needs the reveal shown to their phone. Changing them is
the Collection's read–modify–write, made at the page's cross-tab lock (gm_panel.py).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import skillcheck
from skillcheck.commitment import digest

from .collection import Collection
from .gm_links import COMMITMENT, SALT, secret_systems
from .storage import FieldError, Storage, dump, read_time, stamp, text_field, utc_now, whole

GM_KEY = "skillcheck.gm"
KIND = "skillcheck.gm"
LONGEST_LABEL = 80
MOST_SECRETS = 200
LONGEST = 200_000  # characters of the stored document: 200 secrets, far more than an evening
FIELDS = ("id", "time", "label", "system", "difficulty", "salt", "commitment", "revealed")


def read_secret(raw: object) -> dict:
    """A stored secret, every field checked, and its commitment checked against the rest."""
    if not isinstance(raw, dict) or set(raw) - set(FIELDS):
        raise FieldError("secret", "must be an object of the GM's fields")
    system = raw.get("system")
    if system not in secret_systems():
        raise FieldError("system", "must be a system with a secret difficulty")
    salt, commitment = raw.get("salt"), raw.get("commitment")
    if not isinstance(salt, str) or not SALT.fullmatch(salt):
        raise FieldError("salt", "must be 32 hex digits")
    difficulty = whole(raw.get("difficulty"), "difficulty", 0, 999)
    if commitment != digest(system, difficulty, salt) or not COMMITMENT.fullmatch(commitment):
        raise FieldError("commitment", "must be the difficulty's and salt's commitment")
    secret = {"id": whole(raw.get("id"), "id", 1, 2**52), "time": read_time(raw.get("time")),
              "label": text_field(raw.get("label", ""), "label", LONGEST_LABEL),
              "system": system, "difficulty": difficulty, "salt": salt,
              "commitment": commitment}
    if raw.get("revealed") is not None:
        secret["revealed"] = read_time(raw["revealed"], "revealed")
    return secret


class Secrets(Collection):
    """The GM's secrets, oldest first; the newest are listed first (`newest_first`)."""

    KIND = KIND
    LABEL = "GM's secrets"
    ITEMS = "secrets"
    LONGEST = LONGEST
    FILE = "gm"
    NOUN = ("secret", "secrets")

    def __init__(self, storage: Storage, *, key: str = GM_KEY,
                 clock: Callable[[], datetime] = utc_now):
        super().__init__(storage, key, clock)

    def read_item(self, raw: object, next_id: int) -> tuple[dict, str]:
        secret = read_secret(raw)
        if secret["id"] >= next_id:
            raise FieldError("id", "must be below next_id")
        return secret, dump(secret)

    def loadable(self, raws: list) -> list:
        return raws[-MOST_SECRETS:]

    def newest_first(self) -> list[dict]:
        return self.items()[::-1]

    def commit(self, system: str, difficulty: dict, label: str,
               salt: str | None = None) -> tuple[dict, list[str]]:
        """A new secret: `difficulty` as the GM typed it ({"difficulty": "hard"}, {"dr": 4}),
        committed to in its canonical number with a fresh salt (`salt` for tests).
        InvalidRequest names the field the rules refuse; the oldest secret goes past 200."""
        label = " ".join(text_field(label, "label", LONGEST_LABEL).split())
        request = {"system": system, **difficulty}
        number = skillcheck.difficulty(request)
        sealed = skillcheck.commit(system, number, salt)

        def commit() -> dict:
            while len(self._rows) >= MOST_SECRETS:
                self._drop(next(iter(self._rows)))
            secret = {"id": self._new_id(), "time": stamp(self.clock()), "label": label,
                      "system": system, "difficulty": number, **sealed}
            self._put((secret, dump(secret)))
            return secret
        return self.change(commit)

    def reveal(self, secret_id: int) -> tuple[dict | None, list[str]]:
        """Mark the secret revealed (its first reveal's time stays); None if it is gone."""
        def reveal() -> dict | None:
            secret = self.get(secret_id)
            if secret is None or "revealed" in secret:
                return secret
            shown = {**secret, "revealed": stamp(self.clock())}
            self._put((shown, dump(shown)))
            return shown
        return self.change(reveal)

    def clear(self, secret_id: int) -> tuple[None, list[str]]:
        return self.change(lambda: self._drop(secret_id))
