"""The log passed to another phone at once (issue 38.3): tonight's rolls, or the whole log's, as a
file or as a short sequence of QR codes, which the other page merges into its table log
(RollLog.merge_shared): deduplicated, keeping its own entries.

    "#log=1.<set>.<index>.<count>.<digits>"   one code's page link
        set     8 base64url characters, the start of the SHA-256 of the packed batch: the codes
                of one batch go together, another batch's never mix in, and a damaged piece is
                caught once every piece is in
        index   1 to count; count 1 to MOST_CODES (no leading zeros)
        digits  this code's piece of the packed batch, each 7 bytes as 17 digits (a last k bytes
                as the fewest digits that hold 256**k values): a QR code holds digits in its
                numeric mode at 3⅓ bits each (qr_html.segments), where base64 costs 8 bits for
                every 6, so a batch takes about a quarter fewer codes
    {"version": 1, "kind": "skillcheck.shared-log", "rolls": [...]}   the file

The packed batch is raw deflate, with replay links' preset dictionary, of the JSON list of the
rolls' version 2 link documents (links.roll_document); the file holds the same list. A roll
travels as its own replay link carries it and is checked as one when it arrives
(links.read_document, links.replayed): a roll that does not replay is left out and counted.
Which rolls go: those that count (not withdrawn), neither secret (the GM has not judged it) nor
drawn from a seed (a demonstration).

The codes read so far wait in storage (`Codes`, under CODES_KEY) until their set is whole; the
panel takes each one, and merges, in one turn at the cross-tab lock (`receive`). Whatever a code
or a file holds, the only exception that escapes is CodeError or FileRefused, whose message is
for the player. Pure: storage and the clock are handed in.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from . import links, tonight
from .link_words import WORDS
from .log_model import CAP, RollLog, counts
from .storage import (
    EnvelopeError,
    FileRefused,
    Storage,
    dump,
    envelope,
    failure,
    loads,
    parse,
    read_time,
    stamp,
    utc_now,
)

VERSION = 1
KEY = links.LOG_PART_KEY
CODES_KEY = "skillcheck.log-codes"
CODES_KIND = "skillcheck.log-codes"
FILE_KIND = "skillcheck.shared-log"
# Each code at most version 15 at error correction M (77 modules a side, 415 data bytes): a
# sequence is read with the other phone held close, so its codes may be larger than a single
# roll's (version 10, read across a table); 200 flips of an evening, about 4 KB packed, take
# 12 codes (tests/test_log_codes.py measures it), 60 rolls 5.
CODE_VERSION = 15
DATA_BITS = 415 * 8  # version 15-M's data codewords
MOST_CODES = 40
SMALLEST_PIECE = 32  # bytes of the batch a code holds at least: else the address is too long
LONGEST_DIGITS = 4095  # the most a code's numeric segment can count, in any version
LONGEST_BATCH = 4_000_000  # bytes of JSON a batch or a file inflates to at most (a bomb stops)
MOST_ROLLS = CAP
KEEP_SETS = 4  # sets of codes kept while they are read; the oldest goes
STALE = timedelta(days=2)  # a set not finished in two days is forgotten
SET_ID = re.compile(r"[A-Za-z0-9_-]{8}")
NUMBER = re.compile(r"[1-9][0-9]{0,2}")
DIGITS = re.compile(r"[0-9]+")
CHUNK = 7  # bytes → 17 digits
DIGITS_OF = [len(str(256**k - 1)) if k else 0 for k in range(CHUNK + 1)]  # 0 3 5 8 10 13 15 17
BYTES_OF = {digits: k for k, digits in enumerate(DIGITS_OF)}

DAMAGED = ("This code of a shared log is damaged or incomplete: show it again and scan it "
           "once more.")
NEWER = ("This code of a shared log was made by a newer version of Skill Check: reload the page "
         "to get it.")
TOO_BIG = "This code holds more than a piece of a log: it was not read."
NOT_FITTING = ("The codes of this log do not fit together (one was misread): show them again "
               "from the first.")
NOT_ROLLS = "This shared log does not hold rolls Skill Check can read."


class CodeError(ValueError):
    """A code (or a set of codes) that cannot be taken in; str(error) is for the player."""


# ---- what goes: the rolls chosen, packed ---------------------------------------------------------

def sharable(entries: list[dict], part: str = "all") -> list[dict]:
    """The rolls of `entries` (oldest first) that go to another phone, oldest first: those of
    tonight (tonight.tonight) when `part` is "tonight", else all that count; never a secret one
    nor one drawn from a seed."""
    rolls = tonight.tonight(entries) if part == "tonight" else [
        e for e in entries if counts(e) and e["outcome"] != "secret"]
    return [e for e in rolls if "seed" not in e]


def documents(entries: list[dict]) -> list[list]:
    """Each roll as its replay link's document, saying whose roll it is."""
    return [links.roll_document(e, e["time"], False, {k: e[k] for k in ("name", "skill")
                                                       if e.get(k)}) for e in entries]


def pack(entries: list[dict]) -> bytes:
    return links.deflate(dump(documents(entries)))


def set_id(packed: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(packed).digest()[:6]).decode("ascii")


# ---- bytes ↔ digits ------------------------------------------------------------------------------

def to_digits(data: bytes) -> str:
    return "".join(str(int.from_bytes(data[i:i + CHUNK], "big")).zfill(
        DIGITS_OF[len(data[i:i + CHUNK])]) for i in range(0, len(data), CHUNK))


def from_digits(text: str) -> bytes:
    """The bytes `to_digits` made of `text`; CodeError(DAMAGED) for digits it never makes."""
    full, rest = divmod(len(text), DIGITS_OF[CHUNK])
    if rest not in BYTES_OF:
        raise CodeError(DAMAGED)
    sizes = [CHUNK] * full + ([BYTES_OF[rest]] if rest else [])
    data, at = bytearray(), 0
    for size in sizes:
        value = int(text[at:at + DIGITS_OF[size]])
        if value >= 256**size:
            raise CodeError(DAMAGED)
        data += value.to_bytes(size, "big")
        at += DIGITS_OF[size]
    return bytes(data)


def _numeric_bits(digits: int) -> int:
    return 10 * (digits // 3) + (0, 4, 7)[digits % 3]


def piece_size(prefix: int) -> int:
    """Bytes of the batch one code holds after a `prefix` of that many bytes (its address and
    the fragment up to the digits), in byte mode, the digits in numeric mode: all in version
    CODE_VERSION at M (byte count 16 bits, digit count 12, each after a 4-bit mode)."""
    free = DATA_BITS - (4 + 16 + 8 * prefix) - (4 + 12)
    digits = 0
    while _numeric_bits(digits + 1) <= free:
        digits += 1
    whole, rest = divmod(digits, DIGITS_OF[CHUNK])
    return CHUNK * whole + max(k for k, d in enumerate(DIGITS_OF) if d <= rest)


def code_links(page_url: str, entries: list[dict]) -> list[str]:
    """The page links of the codes that carry `entries` (sharable's), in order; CodeError when
    they would take more than MOST_CODES codes, or the page's address leaves a code no room."""
    address = links.page_address(page_url)
    packed = pack(entries)
    batch = set_id(packed)
    head = f"#{KEY}{VERSION}.{batch}."
    size = piece_size(len(address.encode()) + len(head) + len("999.999."))
    if size < SMALLEST_PIECE:
        raise CodeError("This page’s address is too long for QR codes of the log: send it as "
                        "a file.")
    pieces = [packed[at:at + size] for at in range(0, len(packed), size)]
    if len(pieces) > MOST_CODES:
        raise CodeError(f"These rolls would take {len(pieces)} QR codes, more than "
                        f"{MOST_CODES}: share tonight’s rolls, or send them as a file.")
    return [f"{address}{head}{n}.{len(pieces)}.{to_digits(piece)}"
            for n, piece in enumerate(pieces, 1)]


# ---- a code read: checked strictly ---------------------------------------------------------------

@dataclass(frozen=True)
class Code:
    """One code's link, read: its set, its place in it (1-based) and its piece, as digits."""

    batch: str
    index: int
    count: int
    digits: str


def read_code(fragment: object) -> Code:
    """A location.hash that is a shared log's code, checked; CodeError saying what is wrong."""
    if not links.is_log_part(fragment):
        raise CodeError("This is not a code of a shared log.")
    body = fragment.removeprefix("#")[len(KEY):]
    if len(body) > LONGEST_DIGITS + 40:
        raise CodeError(TOO_BIG)
    fields = body.split(".")
    if not links.VERSION_TEXT.fullmatch(fields[0]):
        raise CodeError(DAMAGED)
    if int(fields[0]) != VERSION:
        raise CodeError(NEWER if int(fields[0]) > VERSION else DAMAGED)
    if len(fields) != 5:
        raise CodeError(DAMAGED)
    _, batch, index, count, digits = fields
    if not (SET_ID.fullmatch(batch) and NUMBER.fullmatch(index) and NUMBER.fullmatch(count)
            and DIGITS.fullmatch(digits)):
        raise CodeError(DAMAGED)
    if not 1 <= int(index) <= int(count) or int(count) > MOST_CODES:
        raise CodeError(DAMAGED)
    if len(digits) > LONGEST_DIGITS:
        raise CodeError(TOO_BIG)
    from_digits(digits)  # digits no code holds: refused now, not once the set is whole
    return Code(batch, int(index), int(count), digits)


# ---- the codes read so far, in storage -----------------------------------------------------------

class Codes:
    """The sets of codes this browser has read and not yet merged, under CODES_KEY: {set id:
    {"count", "time" (of the last code read), "parts": {index: digits}}}. Anything unreadable
    there is dropped: these are a few minutes' scanning, not the player's data. Called inside
    a turn at the cross-tab lock (browser.change), so a read–modify–write is never lost."""

    def __init__(self, storage: Storage, clock: Callable[[], datetime] = utc_now):
        self.storage = storage
        self.clock = clock

    def _sets(self) -> dict[str, dict]:
        try:
            data = parse(self.storage.get(CODES_KEY), CODES_KIND, 1_000_000)
        except Exception:  # absent, unreadable or refused: none kept
            return {}
        sets = data.get("sets")
        return {batch: held for batch, held in (sets.items() if isinstance(sets, dict) else ())
                if _held(batch, held)}

    def _store(self, sets: dict[str, dict]) -> None:
        now = self.clock()
        kept = sorted(((b, h) for b, h in sets.items()
                       if now - datetime.fromisoformat(h["time"]) <= STALE),
                      key=lambda item: item[1]["time"])[-KEEP_SETS:]
        try:
            if kept:
                self.storage.set(CODES_KEY, dump(envelope(CODES_KIND, sets=dict(kept))))
            else:
                self.storage.remove(CODES_KEY)
        except Exception as error:
            raise CodeError(f"This code could not be kept ({failure(error)}): nothing was "
                            "added.") from None

    def take(self, code: Code) -> tuple[int, bytes | None]:
        """Keep `code`: how many of its set are read now, and the packed batch once all are
        (its set then forgotten, merged or not). The same code read again counts once;
        CodeError when it does not belong with its set, or the whole set does not fit."""
        sets = self._sets()
        held = sets.get(code.batch, {"count": code.count, "parts": {}})
        if held["count"] != code.count:
            raise CodeError(NOT_FITTING)
        held["parts"][str(code.index)] = code.digits
        held["time"] = stamp(self.clock())
        sets[code.batch] = held
        read = len(held["parts"])
        if read < code.count:
            self._store(sets)
            return read, None
        del sets[code.batch]
        self._store(sets)
        packed = b"".join(from_digits(held["parts"][str(n)]) for n in range(1, code.count + 1))
        if set_id(packed) != code.batch:
            raise CodeError(NOT_FITTING)
        return read, packed


def _held(batch: object, held: object) -> bool:
    """Whether a stored set has the shape `Codes.take` writes."""
    if not (isinstance(batch, str) and SET_ID.fullmatch(batch) and isinstance(held, dict)):
        return False
    count, parts, time = held.get("count"), held.get("parts"), held.get("time")
    try:
        read_time(time)
    except ValueError:
        return False
    return (type(count) is int and 1 <= count <= MOST_CODES and isinstance(parts, dict)
            and all(isinstance(n, str) and NUMBER.fullmatch(n) and int(n) <= count
                    and isinstance(d, str) and DIGITS.fullmatch(d) and len(d) <= LONGEST_DIGITS
                    for n, d in parts.items()))


# ---- what arrives: rolls, checked, then merged ---------------------------------------------------

def rolls_of(document: object) -> tuple[list[tuple[dict, str, dict | None]], int]:
    """A batch's (or a file's) list of roll documents → the rolls that replay, each (result,
    time, whose), and how many were left out (damaged, refused by today's rules, seeded);
    CodeError(NOT_ROLLS) when it is not such a list."""
    if not isinstance(document, list) or len(document) > MOST_ROLLS:
        raise CodeError(NOT_ROLLS)
    rolls, left_out = [], 0
    for item in document:
        try:
            link = links.replayed(links.read_document(2, item))
        except links.LinkError:
            left_out += 1
            continue
        if link["seeded"]:
            left_out += 1
            continue
        rolls.append((link["result"], link["time"], link["who"]))
    return rolls, left_out


def unpack(packed: bytes) -> object:
    try:
        return links.inflate(packed, WORDS, LONGEST_BATCH, NOT_FITTING,
                             "This shared log holds more than a log: it was not read.")
    except links.LinkError as error:
        raise CodeError(str(error)) from None


def merged_text(found: list[tuple[dict, bool]], left_out: int) -> str:
    """"12 rolls added from another phone, 3 already here." (and those left out)."""
    added = sum(new for _, new in found)
    text = (f"{rolls_said(added)} added from another phone, {len(found) - added:,} already here."
            if found else "No roll was added from another phone.")
    if left_out:
        text += (f" {rolls_said(left_out)} could not be read (damaged, or judged otherwise by "
                 f"today’s rules) and {'was' if left_out == 1 else 'were'} left out.")
    return text


def rolls_said(count: int) -> str:
    """"1 roll", "1,234 rolls"."""
    return f"{count:,} roll{'s' * (count != 1)}"


def receive(fragment: str, log: RollLog, codes: Codes) -> tuple[str, list[str], bool]:
    """A code's link opened here: kept, and once its set is whole, merged into `log`; what to
    tell the player, the log's warnings, and whether it is a problem (the code refused). Run
    in one turn at the cross-tab lock."""
    try:
        code = read_code(fragment)
        read, packed = codes.take(code)
        if packed is None:
            return (f"Log from another phone: {read} of {code.count} codes read — show the "
                    "next.", [], False)
        rolls, left_out = rolls_of(unpack(packed))
    except CodeError as error:
        return str(error), [], True
    found, warnings = log.merge_shared(rolls)
    return merged_text(found, left_out), warnings, False


# ---- the file ------------------------------------------------------------------------------------

def file_name(clock: Callable[[], datetime] = utc_now) -> str:
    return f"skillcheck-rolls-{stamp(clock())[:10]}.json"


def file_text(entries: list[dict]) -> str:
    return dump(envelope(FILE_KIND, rolls=documents(entries)))


def read_file(text: str) -> tuple[list[tuple[dict, str, dict | None]], int] | None:
    """A shared log's file → (its rolls that replay, how many were left out); None when the
    text is no shared log (a backup of the log, or something else: the caller decides);
    FileRefused, saying why, for a shared log that cannot be read."""
    if len(text) > LONGEST_BATCH:
        return None
    try:
        data = loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("kind") != FILE_KIND:
        return None
    try:
        return rolls_of(parse(text, FILE_KIND, LONGEST_BATCH).get("rolls"))
    except (EnvelopeError, CodeError) as error:
        raise FileRefused(f"This file could not be read: {str(error).rstrip('.')}. Your log "
                          "was not changed.") from None
