"""One change at a time across the tabs of a browser: the cross-tab lock every change to the log
and the characters takes, and what it carries.

Every tab reads localStorage from a copy of its own, and learns of another tab's save only when
a message from it arrives. So two tabs that each read, change and write the log or the
characters at the same moment can each write over what the other just saved. A cross-tab lock
(the Web Locks API) makes the changes take turns, but a turn can begin before the last turn's
write has reached this tab, and then reads a stale copy (docs/security.md). So
the lock also carries what was saved under it last: after its turn, a tab that wrote holds a
second, never-contended lock per key it wrote, whose name gives a count and a fingerprint of the
text (`token`). The next tab to take a turn lists the locks held (the browser answers that in
order with the turn itself) and waits until its own copy of each key is the text last saved
under the lock (`behind`) before it reads anything.

A change is a plain synchronous read-modify-write (`Collection.change` and what calls it). It
is queued and run in the order it was asked for, in one turn with the changes queued before it,
so a roll's log write, put off until the result is on screen, is still made before a later
spend on the same roll. Where the browser has no Web Locks (an http:// address other than
localhost), changes run at once, each a synchronous read-modify-write of this tab's copy.

Pure Python: the lock is handed in (`Locks`; browser.py adapts navigator.locks), so tests
drive two tabs over one store under CPython.
"""

from __future__ import annotations

import asyncio
import time
import traceback
import zlib
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from .storage import Storage

LOCK = "skillcheck.shared"  # the one lock of every change to the log and the characters
TOKEN = "skillcheck.saved"  # the start of a token's name: TOKEN, count, key, fingerprint
PATIENCE = 2.0  # seconds a turn waits for another tab's save to reach this one
POLL = 0.005  # seconds between two looks at this tab's copy while it waits


def fingerprint(text: str | None) -> str:
    """A short name for a stored text: its length and CRC-32 ("none" when nothing is stored)."""
    if text is None:
        return "none"
    return f"{len(text)}-{zlib.crc32(text.encode('utf-8', 'surrogatepass')):08x}"


def token(count: int, key: str, text: str | None) -> str:
    """The name of the lock saying that `text` was the `count`th save of `key` under the lock."""
    return f"{TOKEN} {count} {key} {fingerprint(text)}"


@dataclass(frozen=True)
class Saved:
    """What a token says: the `count`th save of `key` under the lock stored the text whose
    fingerprint is `mark`; `name` is the token's own."""

    count: int
    key: str
    mark: str
    name: str


def latest(names: Iterable[str]) -> dict[str, Saved]:
    """Per key, the newest save that the held locks `names` tell of (the highest count)."""
    found: dict[str, Saved] = {}
    for name in names:
        parts = str(name).split(" ")
        if len(parts) != 4 or parts[0] != TOKEN or not parts[1].isdigit():
            continue
        saved = Saved(int(parts[1]), parts[2], parts[3], str(name))
        if saved.key not in found or saved.count > found[saved.key].count:
            found[saved.key] = saved
    return found


def behind(storage: Storage, saved: dict[str, Saved], own: Iterable[str] = ()) -> list[str]:
    """The keys whose text this tab reads is not yet the one last saved under the lock. A token
    in `own` (this tab's) names a save this tab made itself, and so reads already."""
    mine = set(own)
    late = []
    for key, last in saved.items():
        if last.name in mine:
            continue
        try:
            text = storage.get(key)
        except Exception:  # unreadable: the change itself will say so
            continue
        if fingerprint(text if isinstance(text, str) else None) != last.mark:
            late.append(key)
    return late


class Recorded:
    """A Storage that remembers what it wrote since `take` was last called."""

    def __init__(self, storage: Storage):
        self.storage = storage
        self._written: dict[str, str | None] = {}

    def get(self, key: str) -> str | None:
        return self.storage.get(key)

    def set(self, key: str, value: str) -> None:
        self.storage.set(key, value)
        self._written[key] = value

    def remove(self, key: str) -> None:
        self.storage.remove(key)
        self._written[key] = None

    def take(self) -> dict[str, str | None]:
        """What was written since the last call: key → text (None: removed)."""
        written, self._written = self._written, {}
        return written


class Locks(Protocol):
    """What the page needs of navigator.locks (browser.py's adapter)."""

    def request(self, name: str, granted: Callable[[], Awaitable[None]],
                refused: Callable[[str], None]) -> None:
        """Ask for the exclusive lock `name`: once it is held, `granted()` runs, and the lock is
        let go when that is done; `refused(why)` runs instead if the browser will not give it."""

    async def held(self) -> list[str]:
        """The names of the locks held now, by this tab or any other."""

    async def hold(self, name: str) -> Callable[[], None]:
        """Take the shared lock `name`, and keep it until the function returned is called."""


Done = Callable[[object, BaseException | None], None]  # told a change's answer, or its error


class Turns:
    """This tab's changes to the shared data, each run once, in the order they were asked for,
    in turns at the lock (`locks`; None where the browser has none: then at once).

    `waits` counts the turns that waited for another tab's save to arrive, and `gave_up` those
    that went on without it after PATIENCE seconds (another writer that takes no lock: an old
    version of the page in another tab, or the browser's developer tools)."""

    def __init__(self, storage: Recorded, locks: Locks | None, *,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                 clock: Callable[[], float] = time.monotonic,
                 warn: Callable[[str], None] = print):
        self.storage = storage
        self.locks = locks
        self.sleep = sleep
        self.clock = clock
        self.warn = warn
        self.waits = 0
        self.gave_up = 0
        self._queue: list[tuple[Callable[[], object], Done]] = []
        self._asked = False
        self._held: dict[str, tuple[str, Callable[[], None]]] = {}  # key → its token, let go

    def __len__(self) -> int:
        return len(self._queue)

    def add(self, job: Callable[[], object], done: Done) -> None:
        """Queue `job`; it runs at this tab's next turn (see `ask`)."""
        self._queue.append((job, done))

    def change(self, job: Callable[[], object]) -> asyncio.Future:
        """Queue `job` and ask for a turn now: a future of its answer (or its error), set once
        it and every change queued before it have run."""
        future = asyncio.get_event_loop().create_future()

        def done(answer: object, error: BaseException | None) -> None:
            if future.done():
                return
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(answer)
        self.add(job, done)
        self.ask()
        return future

    def ask(self) -> None:
        """Ask for a turn at the lock, unless one is asked for already or nothing is queued."""
        if self._asked or not self._queue:
            return
        if self.locks is None:
            self.run()
            return
        self._asked = True
        try:
            self.locks.request(LOCK, self._turn, self._refused)
        except Exception:
            self._refused(traceback.format_exc())

    def _refused(self, why: str) -> None:
        """The browser refused the lock (a sandbox): the changes are made at once, as without."""
        self.warn(f"Skill Check: no cross-tab lock ({why}); changes are made at once.")
        self._asked = False
        self.run()

    def run(self) -> None:
        """Run every queued change now, those queued meanwhile too (on the lock's turn; or
        without it, as the page is closed); one that fails does not stop the next."""
        while self._queue:
            job, done = self._queue.pop(0)
            try:
                answer = job()
            except Exception as error:
                done(None, error)
            else:
                done(answer, None)

    async def _turn(self) -> None:
        saved: dict[str, Saved] = {}
        try:
            saved = latest(await self.locks.held())
            await self._catch_up(saved)
        except Exception:  # a turn that cannot see the tokens still makes its changes
            self.warn(traceback.format_exc())
        self._asked = False  # what is queued from now on asks for a turn of its own
        self.storage.take()  # what this tab wrote outside a turn is no change to tell of
        self.run()
        written = self.storage.take()
        try:
            await self._tell(written, saved)
        except Exception:
            self.warn(traceback.format_exc())

    async def _catch_up(self, saved: dict[str, Saved]) -> None:
        """Wait until this tab reads what was last saved under the lock, PATIENCE at most."""
        own = [name for name, _ in self._held.values()]
        if not behind(self.storage, saved, own):
            return
        self.waits += 1
        until = self.clock() + PATIENCE
        while late := behind(self.storage, saved, own):
            if self.clock() >= until:
                self.gave_up += 1
                self.warn(f"Skill Check: {', '.join(late)} did not arrive from another tab in "
                          f"{PATIENCE} s; this change is made on what this tab has.")
                return
            await self.sleep(POLL)

    async def _tell(self, written: dict[str, str | None], saved: dict[str, Saved]) -> None:
        """Hold a token for each key this turn wrote (before the turn ends), and let go of the
        tokens they replace."""
        for key, text in written.items():
            count = saved[key].count + 1 if key in saved else 1
            name = token(count, key, text)
            release = await self.locks.hold(name)
            old = self._held.get(key)
            self._held[key] = (name, release)
            if old is not None:
                old[1]()
