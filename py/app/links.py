"""Replay links: a URL fragment that carries a check's request with its draw, its time and outcome.

    "#r=1.<payload>"  payload = base64url(raw deflate(JSON {"q": request, "t": time, "o": outcome,
                                                           and "s": true for a seeded roll}))

Opening a link resolves the carried request with its own draw, so it shows the same cards or dice
and never rolls again. A roll drawn from a ?seed page's sequence says so in its link ("s"), never
the seed itself: whoever opens it sees the roll marked as not random. Whatever the fragment holds,
the only exception that escapes is LinkError, whose message is for the player.
"""

from __future__ import annotations

import base64
import binascii
import random
import re
import zlib

import skillcheck

from .forms import parameters, route
from .storage import dump, loads, read_time, text_field

VERSION = 1
KEY = "r="
LONGEST_FRAGMENT = 8000  # characters of payload: far more than any real check needs
LONGEST_JSON = 16_384  # bytes after inflating: a deflate bomb stops here
HONESTY = "A link shows a roll; it does not prove the roll was not edited."
PAYLOAD = re.compile(r"[A-Za-z0-9_-]*")
VERSION_TEXT = re.compile(r"[0-9]{1,6}")  # short, so int() never meets Python's digit limit

DAMAGED = "This replay link is damaged or incomplete: check that it was copied whole."
NOT_A_CHECK = "This replay link does not hold a check Skill Check can show."


class LinkError(ValueError):
    """A link that cannot be replayed; str(error) is a sentence to show the player."""


class MissingDraw(Exception):
    """Raised when showing a roll again would draw something new: its draw is missing."""


class _NoRolling(random.Random):
    """An rng that refuses to be used, so a replay can only show the draw it carries."""

    def random(self):
        raise MissingDraw

    def getrandbits(self, k):
        raise MissingDraw


def share_fragment(result: dict, time: str, seeded: bool = False) -> str:
    """The fragment ("#r=1....") that replays `result`, a result of skillcheck.resolve (one
    drawn from a seed, when `seeded`)."""
    document = {"q": result["request"], "t": read_time(time), "o": result["outcome"],
                **({"s": True} if seeded else {})}
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = packer.compress(dump(document).encode()) + packer.flush()
    payload = base64.urlsafe_b64encode(packed).rstrip(b"=").decode("ascii")
    return f"#{KEY}{VERSION}.{payload}"


def share_url(page_url: str, result: dict, time: str, seeded: bool = False) -> str:
    """The page's address with the replay fragment of `result`: any fragment and any `seed`
    dropped, so whoever opens the link draws at random, not the sender's sequence (a `seeded`
    roll's link says that it was seeded, not which seed). (The address is cut by hand:
    urllib.parse would cost every normal boot about 0.1 s; see forms.parameters.)"""
    address, _, query = page_url.partition("#")[0].partition("?")
    kept = "&".join(pair for pair in query.split("&")
                    if pair and "seed" not in parameters(pair.partition("=")[0] + "=x"))
    return address + (f"?{kept}" if kept else "") + share_fragment(result, time, seeded)


def is_replay(fragment: str) -> bool:
    """Whether a location.hash is a replay link (a damaged one included), not some other state."""
    return isinstance(fragment, str) and fragment.removeprefix("#").startswith(KEY)


def is_link(fragment: str) -> bool:
    """Whether a location.hash is one of the page's links, to be opened: a replay, or a system
    (and its mode) to show. A place on the page ("#result-heading") or anything else is not."""
    return is_replay(fragment) or "system" in route(fragment)


def read_link(fragment: object) -> dict:
    """The fragment's {"request", "time", "outcome", "seeded"}, checked for shape, not yet
    resolved."""
    if not is_replay(fragment):
        raise LinkError("This is not a replay link.")
    version, dot, payload = fragment.removeprefix("#")[len(KEY):].partition(".")
    if not dot or not VERSION_TEXT.fullmatch(version):
        raise LinkError(DAMAGED)
    if int(version) != VERSION:
        raise LinkError("This replay link was made by a newer version of Skill Check: reload "
                        "the page to get it." if int(version) > VERSION else DAMAGED)
    if len(payload) > LONGEST_FRAGMENT:
        raise LinkError("This replay link is too long to be a check.")
    document = _unpack(payload)
    try:
        request, time, outcome = document["q"], document["t"], document["o"]
        seeded = document.get("s", False)
        if not isinstance(request, dict) or not isinstance(seeded, bool):
            raise ValueError("q")
        return {"request": request, "time": read_time(time),
                "outcome": text_field(outcome, "outcome", 40), "seeded": seeded}
    except (KeyError, TypeError, ValueError):
        raise LinkError(NOT_A_CHECK) from None


def _unpack(payload: str) -> object:
    """base64url → inflate (bounded) → JSON; LinkError when any step fails."""
    if not PAYLOAD.fullmatch(payload) or len(payload) % 4 == 1:
        raise LinkError(DAMAGED)
    try:
        packed = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
        unpacker = zlib.decompressobj(-15)
        data = unpacker.decompress(packed, LONGEST_JSON + 1)
    except (binascii.Error, zlib.error):
        raise LinkError(DAMAGED) from None
    if len(data) > LONGEST_JSON or unpacker.unconsumed_tail:
        raise LinkError("This replay link holds more than a check: it was not opened.")
    if not unpacker.eof or unpacker.unused_data:
        raise LinkError(DAMAGED)
    try:
        return loads(data.decode("utf-8"))  # 16 KB of brackets is 8,000 levels: bounded
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise LinkError(NOT_A_CHECK) from None


def replay(request: dict) -> dict:
    """Resolve a request with the draw it carries, never a new one (MissingDraw instead): a link
    or a logged roll shown again. InvalidRequest passes through."""
    return skillcheck.resolve(request, _NoRolling())


def open_link(fragment: object) -> dict:
    """Replay a link: {"result": the same result, "time": when it was first made, "seeded":
    whether it was drawn from a seed}.

    The carried request is resolved with its own draw; a link whose draw is missing, whose request
    the rules refuse, or whose result differs from the outcome it carries raises LinkError.
    """
    link = read_link(fragment)
    try:
        result = replay(link["request"])
    except skillcheck.InvalidRequest as error:
        raise LinkError(f"This replay link's check is not valid ({error}).") from None
    except MissingDraw:
        raise LinkError("This replay link has lost its cards or dice, so it cannot show "
                        "the roll.") from None
    except RecursionError:
        raise LinkError(NOT_A_CHECK) from None
    if result["outcome"] != link["outcome"]:
        raise LinkError(f"This replay link says “{link['outcome']}” but its cards or dice give "
                        f"“{result['outcome']}”: it was edited, or made by another version of "
                        "the rules.")
    return {"result": result, "time": link["time"], "seeded": link["seeded"]}
