"""Where saved data lives: an injected key/value store and a versioned, validated JSON envelope.

The browser passes a localStorage adapter; tests pass `MemoryStorage`. Nothing here imports from
the browser. Every stored document is `{"version": 1, "kind": ..., ...}`. Loading never throws
and never silently loses data: unreadable data is copied to a backup key before anything is
written over it, and when even that fails the original is left alone for the session.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Protocol

from skillcheck.errors import InvalidRequest

VERSION = 1
NEWER_TEXT = "was saved by a newer version of Skill Check"
# How deep lists and objects may nest in any JSON the page reads (stored, imported, linked). The
# page's own documents nest at most 7 deep (a team flip in the log). Python's json parser recurses
# in C once per level, and in the browser it runs out of the engine's stack long before Python's
# recursion limit sees it: at about 5,000 levels in Chromium "Maximum call stack size exceeded"
# killed the runtime for good, so one stored value stopped every later start of the page.
DEEPEST = 100


class Storage(Protocol):
    """What the app needs of localStorage. Any method may raise (full, disabled, sandboxed).

    `get` gives a str or None; anything else (Pyodide turns JS null into `jsnull`, not None)
    counts as nothing stored.
    """

    def get(self, key: str) -> str | None: ...
    def set(self, key: str, value: str) -> None: ...
    def remove(self, key: str) -> None: ...


class StorageFull(Exception):
    """Raised by MemoryStorage when a write would go over its limit (like QuotaExceededError)."""


class MemoryStorage:
    """A dict-backed Storage: the fallback when localStorage is unavailable, and the tests' fake.

    `limit` caps the total characters of keys and values; going over raises `error()`.
    """

    def __init__(self, data: dict[str, str] | None = None, limit: int | None = None,
                 error: type[BaseException] = StorageFull):
        self.data = dict(data or {})
        self.limit = limit
        self.error = error

    def get(self, key: str) -> str | None:
        return self.data.get(key)

    def set(self, key: str, value: str) -> None:
        if self.limit is not None:
            used = sum(len(k) + len(v) for k, v in self.data.items() if k != key)
            if used + len(key) + len(value) > self.limit:
                raise self.error(f"quota exceeded writing {key}")
        self.data[key] = value

    def remove(self, key: str) -> None:
        self.data.pop(key, None)


class FileRefused(ValueError):
    """An exported file an import refused whole; the message is for the player, and nothing
    was changed (the roll log's and the characters' files both say so this way)."""


class EnvelopeError(ValueError):
    """A document that is not ours: bad JSON, wrong shape, other kind, other version."""

    def __init__(self, reason: str, newer: bool = False):
        super().__init__(reason)
        self.newer = newer


class FieldError(InvalidRequest):
    """A stored or typed field that is not valid: "name: must be at most 60 characters".

    A kind of InvalidRequest, so the page shows it beside its field the same way.
    """


def utc_now() -> datetime:
    return datetime.now(UTC)


def stamp(moment: datetime) -> str:
    """A UTC time as ISO 8601 to the second: "2026-11-29T17:48:05Z"."""
    return moment.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def read_time(value: object, name: str = "time") -> str:
    """A stored time: an ISO 8601 string with a time zone, as `stamp` writes it."""
    if not isinstance(value, str) or len(value) > 40:
        raise FieldError(name, "must be an ISO 8601 time")
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise FieldError(name, "must be an ISO 8601 time") from None
    if moment.tzinfo is None:
        raise FieldError(name, "must name its time zone")
    return value


def dump(document: dict) -> str:
    """Compact JSON, the one serialisation used for storage, exports and links."""
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False)


def envelope(kind: str, **body) -> dict:
    return {"version": VERSION, "kind": kind, **body}


_ESCAPE = re.compile(r"\\.", re.DOTALL)  # a backslash and the character it escapes
# Brackets as "(" and ")", quotes kept, everything else left out.
_STRUCTURE = bytes.maketrans(b"[{]}", b"(())")
_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b'[]{}"')


def nesting(text: str, cap: int = DEEPEST + 1) -> int:
    """How deep `text`'s lists and objects nest outside its strings, found without parsing it
    (a 3 MB log in a few ms), up to `cap`: exact for JSON, and for anything else no less than
    json.loads would recurse before it finds the fault."""
    structure = _ESCAPE.sub("", text).encode("utf-8", "surrogatepass").translate(
        _STRUCTURE, _NOT_STRUCTURE)
    # An adjacent pair of quotes has no bracket between them, and taking it out keeps every
    # other quote's parity: what lies between the quotes left is inside strings.
    parens = b"".join(structure.replace(b'""', b"").split(b'"')[::2])
    # Each pass takes out the innermost pairs, one level of every list and object.
    levels = 0
    while b"()" in parens and levels < cap:
        parens = parens.replace(b"()", b"")
        levels += 1
    # Left: closes, then opens, ")))(((": unclosed ones, deeper still.
    return min(cap, levels + max(0, parens.count(b"(") - parens.count(b")")))


def loads(text: str) -> object:
    """json.loads, within bounds: EnvelopeError when `text` nests deeper than DEEPEST (checked
    first: see DEEPEST), ValueError when it is not JSON. Every JSON the page reads comes here."""
    if nesting(text) > DEEPEST:
        raise EnvelopeError(f"it nests lists and objects more than {DEEPEST} levels deep")
    return json.loads(text)


def parse(text: object, kind: str, longest: int) -> dict:
    """JSON text → the envelope's body, checked for version and kind; EnvelopeError otherwise."""
    if not isinstance(text, str):
        raise EnvelopeError("it is not text")
    if len(text) > longest:
        raise EnvelopeError(f"it is larger than {longest:,} characters")
    try:
        data = loads(text)
    except EnvelopeError:
        raise
    except (ValueError, RecursionError):
        raise EnvelopeError("it is not valid JSON") from None
    if not isinstance(data, dict):
        raise EnvelopeError("it is not a Skill Check file")
    version = data.get("version")
    if data.get("kind") != kind:
        raise EnvelopeError("it is not a Skill Check file of the right kind")
    if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
        raise EnvelopeError(f"it {NEWER_TEXT} (format {version})", newer=True)
    if version != VERSION:
        raise EnvelopeError("its format version is not one this page reads")
    return data


def text_field(value: object, name: str, longest: int, lines: bool = False) -> str:
    """Plain text a player typed: a string, capped, no control characters (newlines if `lines`)."""
    if not isinstance(value, str):
        raise FieldError(name, "must be text")
    if len(value) > longest:
        raise FieldError(name, f"must be at most {longest} characters")
    allowed = "\n\t" if lines else ""
    if any(ord(ch) < 32 and ch not in allowed or ord(ch) == 127 for ch in value):
        raise FieldError(name, "must not hold control characters")
    return value


def whole(value: object, name: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise FieldError(name, f"must be a whole number from {lo} to {hi}")
    return value


@dataclass
class Slot:
    """One stored document under one key, with the warnings a player must see about it.

    `frozen` means the stored data could not be read nor backed up, so this session keeps its
    changes in memory only rather than overwrite it. `failing` means the last save failed.
    `rewrite` means bad data was backed up: the owner should save its clean state now, so the
    next load does not back the same bad data up again.
    """

    storage: Storage
    key: str
    kind: str
    label: str
    longest: int
    clock: Callable[[], datetime] = utc_now
    frozen: bool = False
    failing: bool = False
    rewrite: bool = False
    seen: str | None = None  # the text last read or written: what this tab's copy is based on
    warnings: list[str] = field(default_factory=list)

    def load(self, read_body: Callable[[dict], tuple[object, int]]) -> object | None:
        """The stored body as `read_body` makes it, or None (start empty); warnings collected.

        `read_body(data)` returns what it kept and how many items it had to leave out; it raises
        ValueError when nothing of the document is usable.
        """
        try:
            raw = self.storage.get(self.key)
        except Exception as error:  # localStorage can refuse to be read at all
            self.frozen = True
            self.warnings.append(f"Your saved {self.label} could not be read ({failure(error)}); "
                                 "changes this session will not be saved.")
            return None
        if not isinstance(raw, str):  # None, or Pyodide's jsnull from an adapter that kept it
            self.seen = None
            return None
        self.seen = raw
        try:
            kept, dropped = read_body(parse(raw, self.kind, self.longest))
        except EnvelopeError as error:
            if error.newer:
                self.frozen = True
                self.warnings.append(f"Your saved {self.label} {NEWER_TEXT}: this page will not "
                                     "change it. Reload to get the newer version.")
                return None
            self._set_aside(raw, f"could not be read ({error})", "starting afresh")
            return None
        except ValueError as error:
            self._set_aside(raw, f"could not be read ({error})", "starting afresh")
            return None
        if dropped:
            self._set_aside(raw, f"had {dropped} unreadable item{'s' * (dropped != 1)}, left out",
                            "the rest is kept")
        return kept

    def changed(self) -> bool:
        """Whether storage holds other text than this slot last read or wrote (another tab
        saved meanwhile); False when it cannot be read."""
        try:
            raw = self.storage.get(self.key)
        except Exception:
            return False
        return (raw if isinstance(raw, str) else None) != self.seen

    def _set_aside(self, raw: str, problem: str, then: str) -> None:
        """Back the raw data up under a new key before anything may overwrite it."""
        try:
            backup = self._backup_key()
            self.storage.set(backup, raw)
        except Exception as error:
            self.frozen = True
            self.warnings.append(
                f"Your saved {self.label} {problem}. It could not be backed up "
                f"({failure(error)}), so it is left as it was and changes this session will not "
                "be saved.")
            return
        self.rewrite = True
        self.warnings.append(f"Your saved {self.label} {problem}; the original was kept under "
                             f"the key “{backup}”, {then}.")

    def _backup_key(self) -> str:
        base = f"{self.key}.corrupt-{stamp(self.clock()).replace(':', '')}"
        key, n = base, 1
        while isinstance(self.storage.get(key), str):
            n += 1
            key = f"{base}-{n}"
        return key

    def write(self, text: str) -> BaseException | None:
        """Store `text`; the browser's error (QuotaExceededError, SecurityError ...) or None."""
        try:
            self.storage.set(self.key, text)
        except Exception as error:
            return error
        self.seen = text
        return None

    def settle(self, error: BaseException | None) -> list[str]:
        """After a save: a failure keeps the data in memory and warns once until a save works."""
        if error is None:
            self.failing = False
            return []
        if self.failing:
            return []
        self.failing = True
        return [f"Your {self.label} could not be saved ({failure(error)}); it is kept for "
                "this session only. Export it to keep a copy."]


FULL = "browser storage is full"


def failure(error: BaseException) -> str:
    """A short reason for a storage failure, for a player."""
    text = f"{type(error).__name__} {error}".lower()
    if "quota" in text or "full" in text:
        return FULL
    return "browser storage is unavailable"
