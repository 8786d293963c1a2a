"""Items with ids under one storage key, shared by every tab of the browser: the roll log and the
characters are both one of these.

Two tabs share one localStorage but each keeps a copy in memory. So no change is written from
that copy alone: every change re-reads what storage holds now, takes in another tab's items
(merged by id), applies itself and writes the result back (read–modify–write). An open tab takes
in the other's changes when the browser says the key changed (the `storage` event: `refresh`).
While a save fails, this tab's own changes are kept apart, so that taking in another tab's
never drops them.

Each item is stored as its JSON text, made once; a save joins the texts. A subclass says how
one stored item is read (`read_item`) and which items a load keeps (`admit`, `loadable`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from datetime import datetime

from .storage import (
    FULL,
    FieldError,
    Slot,
    Storage,
    dump,
    envelope,
    failure,
    stamp,
    utc_now,
    whole,
)

Row = tuple[dict, str]  # an item and its JSON text
BIGGEST_NEXT_ID = 2**52  # so counting on from a stored next_id stays below 2**53, JS's safe limit


def items_of(data: dict, key: str) -> tuple[list, int]:
    """A stored or exported document's list of raw items under `key`, and its next id."""
    raws = data.get(key)
    if not isinstance(raws, list):
        raise FieldError(key, "must be a list")
    return raws, whole(data.get("next_id"), "next_id", 1, BIGGEST_NEXT_ID)


class Collection(ABC):
    """Items by id, oldest first, kept in storage under `key`; `warnings` says what loading and
    refreshing had to tell the player. Subclasses set the class attributes below."""

    KIND: str  # the envelope's kind
    LABEL: str  # what the player calls it: "roll log"
    ITEMS: str  # the envelope's list of items: "entries"
    LONGEST: int  # characters of the stored document
    FILE: str  # the export's name: skillcheck-FILE-2026-11-29.json
    NOUN: tuple[str, str] = ("item", "items")
    SHEDS_OLDEST = False  # when storage is full, drop the oldest items so the newest fits

    def __init__(self, storage: Storage, key: str, clock: Callable[[], datetime] = utc_now):
        self.clock = clock
        self._slot = Slot(storage, key, self.KIND, self.LABEL, self.LONGEST, clock)
        self._rows: dict[int, Row] = {}
        self._next_id = 1
        # what this tab changed that storage does not hold yet: id → row, or None for a
        # deletion; None as a whole when this tab replaced everything (an import)
        self._unsaved: dict[int, Row | None] | None = {}
        self.warnings = self._slot.warnings
        self._take(self._slot.load(self._read_tolerant))

    # -- what a subclass says

    @abstractmethod
    def read_item(self, raw: object, next_id: int) -> Row:
        """A stored item, checked, with its JSON text; ValueError naming a bad field."""

    def loadable(self, raws: list) -> list:
        """Which of the stored items a load reads at all (a cap on how many)."""
        return raws

    def admit(self, item: dict, rows: dict[int, Row]) -> bool:
        """Whether a loaded item may join those already kept (a unique name, ...)."""
        return True

    # -- reading

    def __len__(self) -> int:
        return len(self._rows)

    def items(self) -> list[dict]:
        """Oldest first. The collection's own dicts: read them, don't change them."""
        return [item for item, _ in self._rows.values()]

    def get(self, item_id: int) -> dict | None:
        row = self._rows.get(item_id)
        return row and row[0]

    @property
    def unsaved(self) -> bool:
        """True while what is in memory is not in storage (storage full, unreadable or newer)."""
        return self._slot.failing or self._slot.frozen

    def refresh(self) -> bool:
        """Take in what another tab stored since this one last read or wrote; True if anything
        changed. A tab whose storage is frozen keeps its own copy."""
        if self._slot.frozen or not self._slot.changed():
            return False
        self._take(self._slot.load(self._read_tolerant))
        return True

    # -- changing: always on top of what storage holds now

    def change(self, edit: Callable[[], object]) -> tuple[object, list[str]]:
        """Read–modify–write: take in storage's items, run `edit` (which uses `_put`, `_drop`,
        `_new_id`), then save; `edit`'s answer and the warnings to show."""
        self.refresh()
        answer = edit()
        return answer, self._save()

    def _new_id(self) -> int:
        self._next_id += 1
        return self._next_id - 1

    def _put(self, row: Row) -> None:
        self._rows[row[0]["id"]] = row
        if self._unsaved is not None:
            self._unsaved[row[0]["id"]] = row

    def _drop(self, item_id: int) -> None:
        self._rows.pop(item_id, None)
        if self._unsaved is not None:
            self._unsaved[item_id] = None

    def _replace(self, rows: list[Row], next_id: int) -> list[str]:
        """Everything replaced by this tab's choice (an import): not merged with storage."""
        self._rows = {item["id"]: (item, text) for item, text in rows}
        self._next_id = next_id
        self._unsaved = None
        return self._save()

    # -- export

    def export_name(self) -> str:
        """A file name for the export: "skillcheck-log-2026-11-29.json" (the UTC date)."""
        return f"skillcheck-{self.FILE}-{stamp(self.clock())[:10]}.json"

    def export_json(self, ids: list[int] | None = None) -> str:
        """The stored document's text (of the items `ids` only, if given)."""
        head = dump(envelope(self.KIND, next_id=self._next_id, **{self.ITEMS: []}))[:-2]
        texts = (self._rows[i][1] for i in ids) if ids is not None else (
            text for _, text in self._rows.values())
        # head + items + "]}" in one allocation: the joined items serve as the separator
        return ",".join(texts).join((head, "]}"))

    # -- storage

    def _take(self, loaded: tuple[dict[int, Row], int] | None) -> None:
        """Storage's items, with this tab's unsaved changes on top; ids keep counting up."""
        rows, next_id = loaded if loaded is not None else ({}, 1)
        self._next_id = max(self._next_id, next_id)
        if self._unsaved is None:
            return
        for item_id, row in self._unsaved.items():
            if row is None:
                rows.pop(item_id, None)
            else:
                rows[item_id] = row
        self._rows = rows
        if self._slot.rewrite:  # bad data was backed up: store the clean copy now
            self._slot.rewrite = False
            self.warnings += self._save()

    def _read_tolerant(self, data: dict) -> tuple[tuple[dict[int, Row], int], int]:
        """Loading keeps every readable item; the count of the rest triggers a backup."""
        raws, next_id = items_of(data, self.ITEMS)
        rows: dict[int, Row] = {}
        for raw in self.loadable(raws):
            known = self._known(raw)
            try:
                item, text = known or self.read_item(raw, next_id)
            except ValueError:
                continue
            if item["id"] not in rows and self.admit(item, rows):
                rows[item["id"]] = (item, text)
        return (rows, next_id), len(raws) - len(rows)

    def _known(self, raw: object) -> Row | None:
        """This tab's row when `raw` is the item it already checked, unchanged: taking in
        another tab's save then checks only what that tab changed, not the whole log again."""
        item_id = raw.get("id") if isinstance(raw, dict) else None
        known = self._rows.get(item_id) if isinstance(item_id, int) else None
        return known if known is not None and known[0] == raw else None

    def _save(self) -> list[str]:
        if self._slot.frozen:
            return []
        error = self._slot.write(self.export_json())
        shed: list[str] = []
        if error is not None and self.SHEDS_OLDEST and failure(error) == FULL:
            error, shed = self._shed_oldest(error)
        warnings = self._slot.settle(error)
        if error is None:
            self._unsaved = {}
        return warnings + shed

    def _shed_oldest(self, error: BaseException) -> tuple[BaseException | None, list[str]]:
        """Storage is full: store without the fewest oldest items that makes it fit (the newest
        always stays), found by halving; the error again when even the newest alone does not."""
        ids = list(self._rows)

        def fits(drop: int) -> bool:
            return self._slot.write(self.export_json(ids[drop:])) is None

        lo, hi = 1, len(ids) - 1
        if hi < 1 or not fits(hi):
            return error, []
        while lo < hi:  # storage holds the text without ids[:hi] after every success
            middle = (lo + hi) // 2
            if fits(middle):
                hi = middle
            else:
                lo = middle + 1
        for item_id in ids[:hi]:
            del self._rows[item_id]
        noun = self.NOUN[hi != 1]
        return None, [f"Browser storage is full: the oldest {hi:,} {noun} of your {self.LABEL} "
                      f"were dropped so that the newest could be saved. Export the {self.LABEL} "
                      "now to keep a copy of the rest."]
