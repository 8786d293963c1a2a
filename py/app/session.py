"""What one open page holds while it runs, in two typed records instead of a dict per panel.

main.py builds one `Session` at boot and hands it to each panel's `start`; the panels read and
change only its fields, so what the page knows is listed here, once. `Shown` is the roll the
result panel shows: the result, where it came from and — once the deferred log job has written
it — its log entry, which a later choice on the same draw amends and a GM's reveal points at.

Pure Python, like the models it holds: no browser import (py/app/__init__.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from .characters import Roster
from .form_memory import FormMemory
from .log_html import PAGE
from .log_model import RollLog
from .storage import Storage


@dataclass
class Shown:
    """The roll on screen. `source` None: rolled here (or this phone's secret roll judged here
    by the GM's reveal), so its draw may still be played (another card kept, Luck spent);
    "log" or "link": shown again, never played again."""

    result: dict
    source: str | None = None  # None | "log" | "link"
    entry: dict | None = None  # its log entry, set when the deferred log job has written it
    time: str | None = None  # when it was rolled (ISO 8601), once known
    revealed: bool = False  # the GM revealed its secret difficulty: a final verdict
    who: dict | None = None  # whom it was rolled for: {"name", and "skill" when the sheet's}
    seeded: bool = False  # drawn from a ?seed page's sequence: marked wherever it is shown
    withdrawn: bool = False  # taken back with Undo: shown struck through, never played again
    said: tuple[str, ...] = ()  # notes that stay over it however it is redrawn (the GM's reveal)

    @property
    def playable(self) -> bool:
        """Rolled here and still open: another card may be kept, Luck spent, or it undone."""
        return self.source is None and not self.revealed and not self.withdrawn

    @property
    def luck_open(self) -> bool:
        """Luck may still be spent on its dice: rolled here and not withdrawn, the GM's reveal
        included — "the DR is secret: Luck is chosen once the GM reveals it" (the rules)."""
        return self.source is None and not self.withdrawn


@dataclass
class Session:
    """The page's state, from boot until the page is closed."""

    storage: Storage
    seed: int | None = None  # the page's ?seed: draws come from it and checks are logged with it
    rng: random.Random | None = None  # None: the engine's own secure randomness
    log: RollLog | None = None  # None until it has loaded (or when it could not)
    roster: Roster | None = None
    # the result panel
    shown: Shown | None = None
    again: dict | None = None  # the request Re-roll repeats (its draw left out when rolled)
    again_who: dict | None = None  # whom that check was rolled for (Shown.who)
    # the roll log panel
    log_filter: str = ""  # a system's name, or "" for every system
    log_name: str = ""  # a character's name, or "" for everyone's rolls
    log_search: str = ""  # words an entry must hold, or ""
    log_whose: str = ""  # "mine", "table" (rolls added from other phones), or "" for every roll
    log_drawn: int = PAGE  # how many of the (filtered) entries the list draws
    # the characters panel
    picked: int | None = None  # the character rolling, by id
    editing: int | None = None  # the character in the editor; None for a new one
    opened: dict | None = None  # the editor's fields as it opened, to see unsaved edits
    opened_as: dict | None = None  # the character as it opened: what a save merges against
    draft_kept: str | None = None  # the editor's draft as this tab last wrote or restored it
    fill_form: Callable[..., None] | None = None  # main.py's: (mode, a pick's values, fresh)
    rejudged: Callable[[dict, dict], None] | None = None  # result_panel's: (entry, result)
    # the form
    odds_task: object | None = None  # the pending odds refresh (an asyncio task)
    noted: list[tuple[object, str]] = field(default_factory=list)  # (form, field) notes shown
    forms_kept: FormMemory = field(default_factory=FormMemory)  # every form as last left, stored
    prepared: set[str] = field(default_factory=set)  # ids of the check forms shown so far
    afresh: bool = False  # a link opened afresh: forms shown later start as the page draws them
