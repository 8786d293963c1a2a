"""Replay links: a URL fragment that carries a check's request with its draw, its time and outcome.

    "#r=2.<payload>"  payload = base64url(raw deflate, preset dictionary WORDS, of the JSON
                      [request, Unix time in seconds, outcome], and a fourth item, true, for a
                      seeded roll; or, for a roll a character's sheet filled, a fourth item
                      saying whether it was seeded and a fifth, {"n": name, "k": skill}, whose
                      roll it is), the request without the fields its rules read as their
                      default when absent
    "#r=1.<payload>"  payload = base64url(raw deflate(JSON {"q": request, "t": time, "o": outcome,
                                                          and "s": true for a seeded roll}))

A shared log's codes ("#log=1.<set>.<index>.<count>.<digits>", log_codes.py) carry many rolls
as these documents; `is_link` opens them too.

The page writes version 2: short enough for a QR code another phone reads across a table (a
team flip of four with its cards, on a github.io address, fits a version 9 code; version 1 needed
384 bytes, a version 14). Version 1 links, shared before, still open.

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
from datetime import UTC, datetime, timedelta

import skillcheck
from skillcheck.request import is_whole

from .forms import parameters, route
from .link_words import WORDS
from .storage import FieldError, dump, loads, read_time, stamp, text_field

VERSION = 2  # the version links are written in; every earlier one is still read
KEY = "r="
LOG_PART_KEY = "log="  # one code of a shared log's sequence (log_codes.py)
LONGEST_FRAGMENT = 8000  # characters of payload: far more than any real check needs
LONGEST_JSON = 16_384  # bytes after inflating: a deflate bomb stops here
LONGEST_WHO = 130  # a character's name, or a skill's (as the log keeps them)
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)  # version 2's times are seconds since then
SECOND = timedelta(seconds=1)
LATEST_TIME = 253_402_300_799  # 9999-12-31T23:59:59Z, the last second a datetime holds
HONESTY = "A link shows a roll; it does not prove the roll was not edited."
PAYLOAD = re.compile(r"[A-Za-z0-9_-]*")
VERSION_TEXT = re.compile(r"[0-9]{1,6}")  # short, so int() never meets Python's digit limit
KEPT = ("system", "mode")  # never left out: they choose the form a replay is shown in

DICTIONARIES = {1: b"", 2: WORDS}  # each readable version's preset dictionary

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


def share_fragment(result: dict, time: str, seeded: bool = False, who: dict | None = None
                   ) -> str:
    """The fragment ("#r=2....") that replays `result`, a result of skillcheck.resolve (one
    drawn from a seed, when `seeded`; rolled for `who`, {"name", "skill"}, when known)."""
    packed = deflate(dump(roll_document(result, time, seeded, who)))
    payload = base64.urlsafe_b64encode(packed).rstrip(b"=").decode("ascii")
    return f"#{KEY}{VERSION}.{payload}"


def roll_document(result: dict, time: str, seeded: bool = False, who: dict | None = None
                  ) -> list:
    """What a version 2 link holds of a roll (see the module's docstring), before packing; a
    shared log (log_codes.py) is a list of these."""
    seconds = (datetime.fromisoformat(read_time(time)) - EPOCH) // SECOND
    named = {key: who[field] for key, field in (("n", "name"), ("k", "skill"))
             if who and who.get(field)}
    marks = [seeded, named] if named.get("n") else [True] if seeded else []
    return [compact(result["request"]), seconds, result["outcome"], *marks]


def deflate(text: str) -> bytes:
    """`text` as raw deflate with version 2's preset dictionary."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15, zdict=WORDS)
    return packer.compress(text.encode()) + packer.flush()


def compact(request: dict) -> dict:
    """`request` without the fields that hold the default its system's rules read when they are
    absent ("shift": 0, "take7": false, in each side too), by the rules' own field specs: opened,
    it resolves to the same result, with the same request."""
    system = request.get("system")
    described = skillcheck.SYSTEMS.get(system) if isinstance(system, str) else None
    defaults = {spec["name"]: spec["default"] for spec in (described or {}).get("fields", ())
                if spec.get("default") is not None and spec["name"] not in KEPT}

    def bare(value):
        if isinstance(value, list):
            return [bare(item) for item in value]
        if isinstance(value, dict):
            return {key: bare(item) for key, item in value.items() if not (
                key in defaults and type(item) is type(defaults[key]) and item == defaults[key])}
        return value

    return bare(request)


def share_url(page_url: str, result: dict, time: str, seeded: bool = False,
              who: dict | None = None) -> str:
    """The page's address with the replay fragment of `result`: any fragment and any `seed`
    dropped, so whoever opens the link draws at random, not the sender's sequence (a `seeded`
    roll's link says that it was seeded, not which seed). (The address is cut by hand:
    urllib.parse would cost every normal boot about 0.1 s; see forms.parameters.)"""
    return page_address(page_url) + share_fragment(result, time, seeded, who)


def page_address(page_url: str) -> str:
    """The page's address for a link to it: no fragment, and no `seed` in its query."""
    address, _, query = page_url.partition("#")[0].partition("?")
    kept = "&".join(pair for pair in query.split("&")
                    if pair and "seed" not in parameters(pair.partition("=")[0] + "=x"))
    return address + (f"?{kept}" if kept else "")


def is_replay(fragment: str) -> bool:
    """Whether a location.hash is a replay link (a damaged one included), not some other state."""
    return isinstance(fragment, str) and fragment.removeprefix("#").startswith(KEY)


def is_log_part(fragment: str) -> bool:
    """Whether a location.hash is one code of a shared log's sequence (log_codes.py), a damaged
    one included."""
    return isinstance(fragment, str) and fragment.removeprefix("#").startswith(LOG_PART_KEY)


def is_link(fragment: str) -> bool:
    """Whether a location.hash is one of the page's links, to be opened: a replay, a code of a
    shared log, or a system (and its mode) to show. A place on the page ("#result-heading") or
    anything else is not."""
    return is_replay(fragment) or is_log_part(fragment) or "system" in route(fragment)


def read_link(fragment: object) -> dict:
    """The fragment's {"request", "time", "outcome", "seeded", "who"}, checked for shape, not
    yet resolved; "who" is {"name", and "skill" when known} or None."""
    if not is_replay(fragment):
        raise LinkError("This is not a replay link.")
    version, dot, payload = fragment.removeprefix("#")[len(KEY):].partition(".")
    if not dot or not VERSION_TEXT.fullmatch(version):
        raise LinkError(DAMAGED)
    if int(version) not in DICTIONARIES:
        raise LinkError("This replay link was made by a newer version of Skill Check: reload "
                        "the page to get it." if int(version) > VERSION else DAMAGED)
    if len(payload) > LONGEST_FRAGMENT:
        raise LinkError("This replay link is too long to be a check.")
    return read_document(int(version), _unpack(payload, DICTIONARIES[int(version)]))


def read_document(version: int, document: object) -> dict:
    """A link's unpacked document (of `version`) as {"request", "time", "outcome", "seeded",
    "who"}, checked for shape; LinkError (NOT_A_CHECK) when it holds something else."""
    try:
        request, time, outcome, seeded, who = _fields(version, document)
        if not isinstance(request, dict) or not isinstance(seeded, bool):
            raise ValueError("q")
        return {"request": request, "time": read_time(time),
                "outcome": text_field(outcome, "outcome", 40), "seeded": seeded,
                "who": _who(who)}
    except (KeyError, TypeError, ValueError, FieldError):
        raise LinkError(NOT_A_CHECK) from None


def _fields(version: int, document: object) -> tuple[object, object, object, object, object]:
    """(request, ISO time, outcome, seeded, whose roll or None) as a link of `version` holds
    them; KeyError, TypeError or ValueError when it holds something else."""
    if version == 1:
        return document["q"], document["t"], document["o"], document.get("s", False), None
    if not isinstance(document, list):
        raise TypeError("a version 2 link holds a list")
    request, seconds, outcome, *marks = document
    if len(marks) > 2 or (len(marks) == 1 and marks[0] is not True):
        raise ValueError("s")
    if not is_whole(seconds) or not 0 <= seconds <= LATEST_TIME:
        raise ValueError("t")
    seeded = bool(marks) and marks[0]
    return request, stamp(EPOCH + seconds * SECOND), outcome, seeded, (
        marks[1] if len(marks) == 2 else None)


def _who(raw: object) -> dict | None:
    """Whose roll a link says it is, checked: {"name", and "skill" when it names one}."""
    if raw is None:
        return None
    if not isinstance(raw, dict) or set(raw) - {"n", "k"}:
        raise ValueError("who")
    who = {"name": text_field(raw.get("n"), "name", LONGEST_WHO)}
    if raw.get("k") is not None:
        who["skill"] = text_field(raw["k"], "skill", LONGEST_WHO)
    return who


def _unpack(payload: str, words: bytes) -> object:
    """base64url → inflate (bounded, with the version's preset dictionary) → JSON; LinkError
    when any step fails."""
    if not PAYLOAD.fullmatch(payload) or len(payload) % 4 == 1:
        raise LinkError(DAMAGED)
    try:
        packed = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    except binascii.Error:
        raise LinkError(DAMAGED) from None
    return inflate(packed, words, LONGEST_JSON, DAMAGED,
                   "This replay link holds more than a check: it was not opened.")


def inflate(packed: bytes, words: bytes, longest: int, damaged: str, too_big: str) -> object:
    """Raw deflate (with the preset dictionary `words`) → at most `longest` bytes → JSON;
    LinkError(damaged) when it does not inflate whole, LinkError(too_big) past `longest` (a
    deflate bomb stops there), LinkError(NOT_A_CHECK) when it is not JSON."""
    try:
        unpacker = zlib.decompressobj(-15, zdict=words)
        data = unpacker.decompress(packed, longest + 1)
    except zlib.error:
        raise LinkError(damaged) from None
    if len(data) > longest or unpacker.unconsumed_tail:
        raise LinkError(too_big)
    if not unpacker.eof or unpacker.unused_data:
        raise LinkError(damaged)
    try:
        return loads(data.decode("utf-8"))  # storage.loads bounds the nesting first
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise LinkError(NOT_A_CHECK) from None


def replay(request: dict) -> dict:
    """Resolve a request with the draw it carries, never a new one (MissingDraw instead): a link
    or a logged roll shown again. InvalidRequest passes through."""
    return skillcheck.resolve(request, _NoRolling())


def open_link(fragment: object) -> dict:
    """Replay a link: {"result": the same result, "time": when it was first made, "seeded":
    whether it was drawn from a seed, "who": whose roll it says it is, or None}.

    The carried request is resolved with its own draw; a link whose draw is missing, whose request
    the rules refuse, or whose result differs from the outcome it carries raises LinkError.
    """
    return replayed(read_link(fragment))


def replayed(link: dict) -> dict:
    """A read link (read_link, read_document) resolved with its own draw, as open_link gives it;
    LinkError when its draw is missing, its request refused or its outcome not what it says."""
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
    return {"result": result, "time": link["time"], "seeded": link["seeded"],
            "who": link["who"]}
