"""The GM's links and codes: a commitment handed to a player before a secret roll, and the reveal
that opens it afterwards (contract, "Committed secret difficulty").

    "#commit=SYSTEM.COMMITMENT"        the commitment's 64 hex digits: the player's page takes
                                       it into a secret roll of SYSTEM
    "#reveal=SYSTEM.DIFFICULTY.SALT"   the difficulty (its number) and the 32-hex-digit salt:
                                       the player's page judges the secret roll it opens

Where no camera serves, the same is typed: the commitment's first 96 bits (24 hex digits) and
the salt, each in groups of 4 (`grouped`). Reading a link is strict; whatever it holds, the only
exception is GmLinkError, whose message is for the player.
"""

from __future__ import annotations

import re

from skillcheck.commitment import SALT_BYTES, SHORTEST

from .systems import PAGES

COMMIT_KEY, REVEAL_KEY = "commit=", "reveal="
GROUP = 4
COMMITMENT = re.compile(r"[0-9a-f]{64}")
SALT = re.compile(rf"[0-9a-f]{{{2 * SALT_BYTES}}}")
DIFFICULTY = re.compile(r"[0-9]{1,3}")
DAMAGED = "This GM's link is damaged or incomplete: check that it was copied whole."


class GmLinkError(ValueError):
    """A GM's link that cannot be opened; str(error) is a sentence to show the player."""


def grouped(hex_text: str) -> str:
    """Hex digits as typed from another screen: "3f9a 01bc 77d0 …"."""
    return " ".join(hex_text[i:i + GROUP] for i in range(0, len(hex_text), GROUP))


def code_of(commitment: str) -> str:
    """The commitment's typed code: its first 96 bits, grouped."""
    return grouped(commitment[:SHORTEST])


def secret_systems() -> list[str]:
    """The systems whose GM may keep a difficulty secret (and so commit to it), in page order."""
    return [system for system, page in PAGES.items() if page.reveal is not None]


def commit_fragment(system: str, commitment: str) -> str:
    return f"#{COMMIT_KEY}{system}.{commitment}"


def reveal_fragment(system: str, difficulty: int, salt: str) -> str:
    return f"#{REVEAL_KEY}{system}.{difficulty}.{salt}"


def is_commit(fragment: object) -> bool:
    return isinstance(fragment, str) and fragment.removeprefix("#").startswith(COMMIT_KEY)


def is_reveal(fragment: object) -> bool:
    return isinstance(fragment, str) and fragment.removeprefix("#").startswith(REVEAL_KEY)


def _parts(fragment: str, key: str, count: int) -> list[str]:
    parts = fragment.removeprefix("#")[len(key):].lower().split(".")
    if len(parts) != count or parts[0] not in secret_systems():
        raise GmLinkError(DAMAGED)
    return parts


def read_commit(fragment: str) -> tuple[str, str]:
    """A commitment link's (system, commitment)."""
    system, commitment = _parts(fragment, COMMIT_KEY, 2)
    if not COMMITMENT.fullmatch(commitment):
        raise GmLinkError(DAMAGED)
    return system, commitment


def read_reveal(fragment: str) -> tuple[str, dict, str]:
    """A reveal link's (system, its difficulty as the request field that judges it: {"dtn": 15},
    salt)."""
    system, difficulty, salt = _parts(fragment, REVEAL_KEY, 3)
    if not DIFFICULTY.fullmatch(difficulty) or not SALT.fullmatch(salt):
        raise GmLinkError(DAMAGED)
    return system, {PAGES[system].reveal.field: int(difficulty)}, salt
