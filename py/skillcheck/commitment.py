"""The GM's committed secret difficulty: a hash made before the roll, checked at the reveal.

The GM commits to a difficulty on the GM's own device and hands the player only the commitment;
the player's secret roll keeps it, and the reveal (difficulty and salt) is judged only if they
hash to it again — so a difficulty chosen after the roll can never match (contract, 2026-12-02).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from .errors import InvalidRequest
from .request import Hex

VERSION = "skillcheck-commit-v1"
SALT_BYTES = 16
HEXDIGITS = frozenset("0123456789abcdef")
# A typed code compares the commitment's first 96 bits: 24 hex digits at the least.
SHORTEST = 24
MISMATCH = "does not match the GM's commitment"
# What a secret check's form takes from the GM's page (shown only while the check is secret).
COMMITMENT = Hex("commitment", "GM's code", SHORTEST, 64)
GM_CODE = "optional: from the GM's phone, so the reveal can be checked"


def digest(system: str, difficulty: int, salt: str) -> str:
    """SHA-256, lowercase hex, of "skillcheck-commit-v1|SYSTEM|DIFFICULTY|SALT"."""
    return hashlib.sha256(f"{VERSION}|{system}|{difficulty}|{salt}".encode()).hexdigest()


def opens(commitment: str, system: str, difficulty: int, salt: str) -> bool:
    """Whether the difficulty and salt hash to `commitment` (all of it, or the first 96 bits or
    more that a typed code holds)."""
    return digest(system, difficulty, salt).startswith(commitment)


def _hex(value: object) -> str | None:
    """`value` as lowercase hex digits, or None if it is not a string of them."""
    if not isinstance(value, str) or not value:
        return None
    lowered = value.lower()
    return lowered if set(lowered) <= HEXDIGITS else None


def read_salt(value: object) -> str:
    """A salt the GM gives: 32 hex digits (16 bytes), read in either case, kept lowercase."""
    salt = _hex(value)
    if salt is None or len(salt) != 2 * SALT_BYTES:
        raise InvalidRequest("salt", f"must be {2 * SALT_BYTES} hex digits (0-9, a-f)")
    return salt


def seal(system: str, difficulty: int, salt: object = None) -> dict:
    """The commitment to a canonical difficulty, and the salt that opens it (16 bytes from
    `secrets` unless given)."""
    salt = secrets.token_hex(SALT_BYTES) if salt is None else read_salt(salt)
    return {"commitment": digest(system, difficulty, salt), "salt": salt}


@dataclass(frozen=True)
class Seal:
    """A secret request's commitment, and the salt once a reveal has matched it."""

    commitment: str
    salt: str | None = None

    def echo(self) -> dict:
        """What the checked request keeps, so the reveal replays with its proof."""
        return {"commitment": self.commitment} | ({"salt": self.salt} if self.salt else {})

    def result(self) -> dict:
        """`verified: true` on a reveal that matched; nothing on the secret roll itself."""
        return {"verified": True} if self.salt else {}

    def explain(self, named: str) -> list[str]:
        if self.salt is None:
            return ["The GM committed to the difficulty before the roll."]
        return [f"{named} and the salt match the GM's commitment made before the roll: verified."]


def read_seal(request: dict, system: str, difficulty: int | None, secret: bool) -> Seal | None:
    """The request's `commitment`, if any; with a difficulty (the reveal), its `salt` must hash
    the difficulty back to it, else InvalidRequest on `salt` — a missing salt too."""
    if request.get("commitment") is None:
        return None
    if not secret:
        raise InvalidRequest("commitment", "only a secret roll carries the GM's commitment")
    commitment = COMMITMENT.read(request)
    if difficulty is None:
        return Seal(commitment)
    salt = _hex(request.get("salt"))
    if salt is None or len(salt) != 2 * SALT_BYTES or not opens(
            commitment, system, difficulty, salt):
        raise InvalidRequest("salt", MISMATCH)
    return Seal(commitment, salt)
