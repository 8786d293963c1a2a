"""The roll log: every check, reveal and spend, newest first, kept in storage across reloads.

Pure Python: storage is injected (see storage.py). Entries are plain JSON dicts:

    common  id (int), kind, time (ISO 8601 UTC), system, summary (one line of plain text)
    check   outcome, success (bool | None), request (the result's request, draw included),
            seed (the page's ?seed when the draw came from it; left out otherwise),
            name and skill (who rolled it and what, when a character's pick filled the form;
            left out otherwise)
            withdrawn (ISO 8601 UTC: when the player took it back with Undo; left out otherwise)
            shared (true: rolled on another phone and added from its replay link, at the time
            it was rolled there; left out for this page's own rolls)
    reveal  the same as check (its seed is the secret check's), plus reveals (the id of the
            secret check it judges)
    spend   character, name, resource ("luck" | "xp"), amount, before, after, check (id | None)
    undo    the same as spend, plus undoes (the id of the spend it gives back, or None)

Each entry's JSON text is made once, when it is added; saving joins those texts, so a roll costs
one small serialisation plus one join however long the log is.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime

from skillcheck import SYSTEMS
from skillcheck.commitment import opens

from .check_words import summary as check_summary
from .check_words import system_name
from .collection import Collection, items_of
from .storage import (
    EnvelopeError,
    FieldError,
    FileRefused,
    Storage,
    dump,
    parse,
    read_time,
    stamp,
    text_field,
    utc_now,
    whole,
)

LOG_KEY = "skillcheck.log"
KIND = "skillcheck.log"
CAP = 5000
# Characters of JSON the log keeps: under the browsers' localStorage quota (about 5 million
# characters an origin) with room for the characters, so big team flips do not reach it first.
BIGGEST_LOG = 3_000_000
LONGEST_ENTRY = 8000
LONGEST_FILE = 20_000_000
LONGEST_SUMMARY = 300
BIGGEST_ID = 2**53 - 1  # JavaScript's largest safe integer
BIGGEST_AMOUNT = 10**7
BIGGEST_SEED = 2**63 - 1  # the contract's limit on a seed
KINDS = ("check", "reveal", "spend", "undo")
WHO = ("name", "skill")  # a check's character and the sheet's skill, when known
LONGEST_WHO = 130  # a character's name, or a skill's ("Knowledge: " and its type)
# A team flip's request is the deepest: request → secondaries → a side → its cards, 4 levels.
DEEPEST_REQUEST = 8
RESOURCES = ("luck", "xp")
DRAW_KEYS = ("cards", "dice")
# What a re-roll leaves out: the draw, the chosen card among it, and a seed that would redraw it.
REPLAY_KEYS = (*DRAW_KEYS, "keep", "seed")
# The Luck a player chose to spend on the dice shown is a choice about those dice, not the check.
REROLL_DROPS = (*REPLAY_KEYS, "luck_spend")


class LogFileError(FileRefused):
    """An import the log refused; the message is for the player and the log is unchanged."""


class WithdrawError(LookupError):
    """An Undo refused, the log unchanged; the message is for the player."""


def counts(entry: dict) -> bool:
    """Whether an entry counts as a roll: a check or a reveal not withdrawn. Whatever counts
    rolls (Re-roll's last check, a reveal's secret) asks this, so a withdrawn roll counts
    nowhere."""
    return entry["kind"] in ("check", "reveal") and "withdrawn" not in entry


def changed_since(shown: dict, stored: dict | None) -> str | None:
    """How the log entry of a roll on screen (`shown`, as this tab last had it) changed in
    another tab (`stored`, as saved now): "withdrawn" (Undo this roll), "rejudged" (its request
    amended: a spend given back with Undo last spend, or Luck spent where it is shown too), or
    None — also when the entry is gone (cleared: what is on screen stays as it was)."""
    if stored is None:
        return None
    if "withdrawn" in stored and "withdrawn" not in shown:
        return "withdrawn"
    if json.dumps(stored["request"], sort_keys=True) != json.dumps(shown["request"],
                                                                      sort_keys=True):
        return "rejudged"
    return None


# ---- requests: draws, re-rolls, reveals, one-line summaries --------------------------------------


def strip_draw(request: dict) -> dict:
    """A copy of `request` without its draw (at any depth) nor the Luck chosen after seeing it,
    so resolving it rolls afresh."""
    def strip(value):
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in REROLL_DROPS}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value
    return strip(request)


def draw_of(request: dict) -> dict[str, list]:
    """The cards and dice a request carries, by dotted path: {"initiator.cards": [...], ...}."""
    found: dict[str, list] = {}

    def walk(value, prefix: str) -> None:
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, inner in items:
            name = f"{prefix}{key}"
            if key in DRAW_KEYS and isinstance(inner, list):
                found[name] = inner
            elif isinstance(inner, dict | list):
                walk(inner, name + ".")
    walk(request, "")
    return found


def summarize(request: dict, result: dict | None = None) -> str:
    """One line of a check's inputs in the player's words (check_words.summary), cut to fit."""
    text = check_summary(request, result)
    return text if len(text) <= LONGEST_SUMMARY else text[:LONGEST_SUMMARY - 1] + "…"


def reveal_request(entry: dict, difficulty: dict) -> dict:
    """A secret check's request, same draw, with the GM's difficulty ({"dtn": 15}) filled in. It
    stays marked secret: a pool revealed with a DR above its Trait keeps the dice rolled."""
    return {**entry["request"], **difficulty}


# ---- reading entries: every field of every loaded entry is checked -------------------------------


def _id(value: object, name: str) -> int:
    return whole(value, name, 1, BIGGEST_ID)


def _maybe_id(value: object, name: str) -> int | None:
    return None if value is None else _id(value, name)


def _judged(raw: dict, system: str) -> dict:
    outcome = text_field(raw.get("outcome"), "outcome", 40)
    success = raw.get("success")
    if success is not None and not isinstance(success, bool):
        raise FieldError("success", "must be true, false or null")
    request = raw.get("request")
    if not isinstance(request, dict) or request.get("system") != system:
        raise FieldError("request", "must be a request of the entry's system")
    shallow(request, "request", DEEPEST_REQUEST)
    judged = {"outcome": outcome, "success": success, "request": request}
    for field in WHO:
        if raw.get(field) is not None:
            judged[field] = text_field(raw[field], field, LONGEST_WHO)
    return judged


def shallow(value: object, name: str, deepest: int) -> None:
    """FieldError unless `value` nests at most `deepest` lists and objects: a stored or imported
    request is walked again when the log is drawn, and a deep one would raise RecursionError at
    every load. Checked with a stack, so the check itself cannot recurse too deep."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > deepest:
                raise FieldError(name, f"must not nest more than {deepest} levels deep")
            stack.extend((inner, depth + 1)
                         for inner in (item.values() if isinstance(item, dict) else item))


def _spent(raw: dict, system: str) -> dict:
    resource = raw.get("resource")
    if resource not in RESOURCES:
        raise FieldError("resource", "must be luck or xp")
    return {
        "character": _id(raw.get("character"), "character"),
        "name": text_field(raw.get("name"), "name", 60),
        "resource": resource,
        "amount": whole(raw.get("amount"), "amount", 1, BIGGEST_AMOUNT),
        "before": whole(raw.get("before"), "before", 0, BIGGEST_AMOUNT),
        "after": whole(raw.get("after"), "after", 0, BIGGEST_AMOUNT),
    }


def read_entry(raw: object) -> dict:
    """A checked copy of one stored entry holding only known fields; ValueError naming a field."""
    if not isinstance(raw, dict):
        raise FieldError("entry", "must be an object")
    kind = raw.get("kind")
    if kind not in KINDS:
        raise FieldError("kind", "must be one of " + ", ".join(KINDS))
    system = raw.get("system")
    if system not in SYSTEMS:
        raise FieldError("system", "must be one of " + ", ".join(SYSTEMS))
    entry = {"id": _id(raw.get("id"), "id"), "kind": kind, "time": read_time(raw.get("time")),
             "system": system, "summary": text_field(raw.get("summary"), "summary",
                                                     LONGEST_SUMMARY)}
    if kind in ("check", "reveal"):
        entry.update(_judged(raw, system))
    else:
        entry.update(_spent(raw, system))
    if kind in ("check", "reveal") and raw.get("seed") is not None:
        entry["seed"] = whole(raw["seed"], "seed", 0, BIGGEST_SEED)
    if kind == "check" and raw.get("shared") is not None:
        if raw["shared"] is not True:
            raise FieldError("shared", "must be true when given")
        entry["shared"] = True
    if kind in ("check", "reveal") and raw.get("withdrawn") is not None:
        entry["withdrawn"] = read_time(raw["withdrawn"], "withdrawn")
    if kind == "reveal":
        entry["reveals"] = _id(raw.get("reveals"), "reveals")
    elif kind == "spend":
        entry["check"] = _maybe_id(raw.get("check"), "check")
    elif kind == "undo":
        entry["undoes"] = _maybe_id(raw.get("undoes"), "undoes")
    return entry


def checked(raw: object, next_id: int) -> tuple[dict, str]:
    """A stored entry read and checked, with its JSON text; ValueError naming a bad field."""
    entry = read_entry(raw)
    if entry["id"] >= next_id:
        raise FieldError("id", "must be below the log's next_id")
    text = dump(entry)
    if len(text) > LONGEST_ENTRY:
        raise FieldError("entry", f"must be at most {LONGEST_ENTRY} characters of JSON")
    return entry, text


# ---- the log -------------------------------------------------------------------------------------


class RollLog(Collection):
    """The roll log of this browser, shared by its tabs (see collection.py). `warnings` holds
    what loading had to tell the player.

    Entries are kept oldest first; `entries()` gives them newest first. The log keeps at most
    `cap` entries and `biggest` characters of JSON; over either, the oldest are dropped.
    """

    KIND = KIND
    LABEL = "roll log"
    ITEMS = "entries"
    LONGEST = LONGEST_FILE
    FILE = "log"
    NOUN = ("entry", "entries")
    SHEDS_OLDEST = True

    def __init__(self, storage: Storage, *, key: str = LOG_KEY, cap: int = CAP,
                 biggest: int = BIGGEST_LOG, clock: Callable[[], datetime] = utc_now):
        self.cap = cap
        self.biggest = biggest
        self.dropped = 0
        super().__init__(storage, key, clock)

    def read_item(self, raw: object, next_id: int) -> tuple[dict, str]:
        return checked(raw, next_id)

    def loadable(self, raws: list) -> list:
        return raws[-self.cap:]

    # -- reading

    def entries(self, system: str | None = None, name: str | None = None,
                search: str = "", whose: str = "") -> list[dict]:
        """Newest first; only one system's entries when `system` is given, one character's
        when `name` is, those whose words hold every word of `search` (in any case), and with
        `whose` "mine" this page's own, "table" the rolls added from other phones."""
        words = search.casefold().split()
        return [e for e in reversed(self.items())
                if (system is None or e["system"] == system)
                and (not whose or ("shared" in e) == (whose == "table"))
                and (name is None or e.get("name") == name)
                and all(word in searchable(e) for word in words)]

    def names(self) -> list[str]:
        """The characters the log names, in alphabetical order (any case)."""
        return sorted({e["name"] for e in self.items() if e.get("name")}, key=str.casefold)

    def last_check(self, system: str | None = None) -> dict | None:
        """The newest check of this page's own that counts (of `system` if given): what one-tap
        re-roll repeats."""
        return next((e for e in self.entries(system, whose="mine")
                     if e["kind"] == "check" and counts(e)), None)

    # -- adding: each on top of what storage holds now, so no tab drops another's entries

    def record_check(self, result: dict, summary: str | None = None, seed: int | None = None,
                     who: dict | None = None) -> tuple[dict, list[str]]:
        """Log the result of `skillcheck.resolve` (drawn from the page's `seed`, if given; rolled
        for `who`, {"name", "skill"}, if known); returns the entry and any warnings to show."""
        request = result["request"]
        return self._add("check", result["system"],
                         summarize(request, result) if summary is None else summary,
                         outcome=result["outcome"], success=result["success"], request=request,
                         **({} if seed is None else {"seed": seed}), **_who(who))

    def amend_check(self, check_id: int, result: dict, seed: int | None = None,
                    who: dict | None = None) -> tuple[dict, list[str]]:
        """The player's later choice on a logged check (another card kept), or a spend given back
        on a check or a reveal: the entry now says what was chosen and keeps its id and time
        (and its kind), so one flip stays one entry. A check no longer in the log (cleared or
        replaced meanwhile) is logged afresh. `seed`: a side flipped afresh drew from the
        page's seed."""
        self.refresh()
        earlier = self.get(check_id)
        if (earlier is None or earlier["kind"] not in ("check", "reveal")
                or earlier["system"] != result["system"]):
            return self.record_check(result, seed=seed, who=who)
        request = result["request"]
        seeded = {} if seed is None else {"seed": seed}
        said = "Revealed: " if earlier["kind"] == "reveal" else ""
        row = checked({**earlier, "summary": said + summarize(request, result),
                       "outcome": result["outcome"], "success": result["success"],
                       "request": request, **seeded}, self._next_id)

        def amend() -> dict:
            self._put(row)
            return row[0]
        return self.change(amend)

    def opened_by(self, system: str, difficulty: int, salt: str) -> tuple[dict | None, bool]:
        """What a GM's reveal opens here: the newest counted secret check of `system` whose
        commitment the difficulty and salt hash to — its reveal if it has one already, so a
        roll is judged once — and whether any such check is waiting for a GM's reveal."""
        waiting = [e for e in self.entries(system) if e["kind"] == "check"
                   and e["outcome"] == "secret" and counts(e) and "commitment" in e["request"]]
        opened = next((e for e in waiting
                       if opens(e["request"]["commitment"], system, difficulty, salt)), None)
        revealed = opened and next((e for e in self.entries(system) if e["kind"] == "reveal"
                                    and e.get("reveals") == opened["id"]), None)
        return revealed or opened, bool(waiting)

    def same_roll(self, result: dict, time: str) -> dict | None:
        """The entry of this very roll (its request, draw included, and the second it was
        rolled), if the log holds it: a roll is one entry however often it is added."""
        self.refresh()
        request = result["request"]
        return next((e for e in self.items() if e["kind"] in ("check", "reveal")
                     and e["time"] == time and e["request"] == request), None)

    def add_shared(self, result: dict, time: str, who: dict | None = None
                   ) -> tuple[dict, bool, list[str]]:
        """A roll made on another phone (its replay link opened here) added to this table log,
        marked as such, at the time it was rolled, for `who` when the link says: (its entry,
        whether it was added now, warnings). The same roll again adds nothing."""
        [(entry, added)], warnings = self.merge_shared([(result, time, who)])
        return entry, added, warnings

    def merge_shared(self, rolls: list[tuple[dict, str, dict | None]]
                     ) -> tuple[list[tuple[dict, bool]], list[str]]:
        """Rolls made on other phones, each (result, the time it was rolled, whose or None),
        added in one change as add_shared adds one, in their order: for each, (its entry,
        whether it was added now), and the warnings. A roll the log holds already (this page's
        own, or added before), or met earlier among `rolls`, is not added again; nothing this
        log holds is dropped but by the log's own cap."""
        def merge() -> list[tuple[dict, bool]]:
            held: dict[str, list[dict]] = {}
            for e in self.items():
                if e["kind"] in ("check", "reveal"):
                    held.setdefault(e["time"], []).append(e)
            found = []
            for result, time, who in rolls:
                entry = next((e for e in held.get(time, ()) if e["request"] == result["request"]),
                             None)
                if entry is None:
                    entry = self._append(
                        "check", result["system"], summarize(result["request"], result),
                        time=time, outcome=result["outcome"], success=result["success"],
                        request=result["request"], shared=True, **_who(who))
                    held.setdefault(time, []).append(entry)
                    found.append((entry, True))
                else:
                    found.append((entry, False))
            return found

        self.refresh()  # as `change` does, but nothing new is not saved: no write, no event
        found = merge()
        if not any(added for _, added in found):
            return found, []
        return found, self._trim() + self._save()

    def record_reveal(self, secret_id: int, result: dict) -> tuple[dict, list[str]]:
        """Log the GM's reveal of the secret check `secret_id` (`result` judges its draw)."""
        self.refresh()
        original = self.get(secret_id)
        if original is None or original["kind"] != "check" or original["outcome"] != "secret":
            raise ValueError(f"entry {secret_id} is not a secret check in the log")
        if not counts(original):
            raise ValueError(f"entry {secret_id} was withdrawn: there is nothing to reveal")
        if result["system"] != original["system"]:
            raise ValueError("a reveal must judge a check of the same system")
        request = result["request"]
        return self._add("reveal", result["system"], "Revealed: " + summarize(request, result),
                         outcome=result["outcome"], success=result["success"], request=request,
                         reveals=secret_id, **_who(original),
                         **({"seed": original["seed"]} if "seed" in original else {}))

    def record_spend(self, spend: dict, check_id: int | None = None) -> tuple[dict, list[str]]:
        """Log a spend record of characters.apply_result, linked to the check that spent it."""
        return self._add("spend", spend["system"], spend["text"], **_spend_fields(spend),
                         check=check_id)

    def record_undo(self, undo: dict, undoes: int | None = None) -> tuple[dict, list[str]]:
        """Log an undo record of characters.undo_spend, linked to the spend it gives back:
        `undoes`, else that character's last spend as storage holds it now (another tab's
        spend included)."""
        self.refresh()
        if undoes is None:
            spent = self.newest_spend(undo["character"])
            undoes = spent and spent["id"]
        return self._add("undo", undo["system"], undo["text"], **_spend_fields(undo),
                         undoes=undoes)

    def newest_spend(self, character_id: int) -> dict | None:
        """The character's newest spend in the log, given back or not."""
        return next((e for e in reversed(self.items()) if e["kind"] == "spend"
                     and e["character"] == character_id), None)

    def withdraw(self, check_id: int) -> tuple[dict, list[dict], list[str]]:
        """Undo of a roll made by mistake: its entry kept, marked withdrawn (the table trusts a
        log that never loses a roll silently), and the spends it made that were not given back
        yet, for the caller to give back (spending.withdraw), and the warnings its save gave.
        WithdrawError when the roll is no longer in the log as one that counts (deleted,
        cleared or withdrawn in another tab)."""
        self.refresh()
        entry = self.get(check_id)
        if entry is None or entry["kind"] != "check":
            raise WithdrawError("That roll is no longer in the log (deleted or cleared), so "
                                "there is nothing to withdraw.")
        if not counts(entry):
            raise WithdrawError("That roll was already withdrawn.")
        given_back = {e["undoes"] for e in self.items() if e["kind"] == "undo"}
        spends = [e for e in self.items() if e["kind"] == "spend" and e["check"] == check_id
                  and e["id"] not in given_back]
        row = checked({**entry, "withdrawn": stamp(self.clock())}, self._next_id)

        def withdraw() -> dict:
            self._put(row)
            return row[0]
        withdrawn, warnings = self.change(withdraw)
        return withdrawn, spends, warnings

    def _add(self, kind: str, system: str, summary: str, time: str | None = None,
             **fields) -> tuple[dict, list[str]]:
        def add() -> tuple[dict, list[str]]:
            entry = self._append(kind, system, summary, time, **fields)
            return entry, self._trim()

        (entry, warnings), saved = self.change(add)
        return entry, warnings + saved

    def _append(self, kind: str, system: str, summary: str, time: str | None = None,
                **fields) -> dict:
        """A new entry on top, inside a change (`change`); its time is now unless given."""
        row = checked({"id": self._next_id, "kind": kind, "time": time or stamp(self.clock()),
                       "system": system, "summary": summary, **fields}, self._next_id + 1)
        self._new_id()
        self._put(row)
        return row[0]

    def _trim(self) -> list[str]:
        """Over the cap (by count or by size): the oldest go, and the player is told once."""
        rows = list(self._rows.values())
        over = max(0, len(rows) - self.cap)
        size = sum(len(text) for _, text in rows[over:])
        while over < len(rows) - 1 and size > self.biggest:
            size -= len(rows[over][1])
            over += 1
        for entry, _ in rows[:over]:
            self._drop(entry["id"])
        self.dropped += over
        if not over or self.dropped > over:
            return []
        return [f"The log keeps the newest {self.cap:,} entries (and {self.biggest:,} "
                "characters): the oldest are now dropped as new ones come in."]

    # -- deleting, clearing, export, import

    def delete(self, entry_id: int) -> list[str]:
        """Forget one entry (the player asked), in storage too, so every tab loses it."""
        return self.change(lambda: self._drop(entry_id))[1]

    def clear(self) -> list[str]:
        """Empty the log (the page asks first): every entry stored now. Ids keep counting up."""
        def clear() -> None:
            for item_id in list(self._rows):
                self._drop(item_id)
        return self.change(clear)[1]

    def import_json(self, text: object) -> tuple[int, list[str]]:
        """Replace the log with an exported file's; LogFileError (log unchanged) if it is bad."""
        try:
            data = parse(text, KIND, LONGEST_FILE)
            raws, next_id = items_of(data, self.ITEMS)
            if len(raws) > self.cap:
                raise ValueError(f"it holds more than {self.cap:,} entries")
            rows = []
            for n, raw in enumerate(raws, 1):
                try:
                    rows.append(checked(raw, next_id))
                except ValueError as error:
                    raise ValueError(f"entry {n}: {error}") from None
            if len({entry["id"] for entry, _ in rows}) != len(rows):
                raise ValueError("two entries share an id")
        except (EnvelopeError, ValueError) as error:
            raise LogFileError(f"This file could not be imported: {error}. "
                               "Your log was not changed.") from None
        return len(rows), self._replace(rows, next_id)


def _who(who: dict | None) -> dict:
    """The name and skill fields `who` has (a check's character and skill), for an entry."""
    return {field: who[field] for field in WHO if who and who.get(field)}


def searchable(entry: dict) -> str:
    """What a search looks through: the entry's words as the log shows them, in one case."""
    return " ".join(str(entry.get(field) or "") for field in (
        "name", "skill", "summary", "outcome")).casefold() + " " + system_name(
        entry["system"]).casefold() + " withdrawn" * ("withdrawn" in entry)


def _spend_fields(record: dict) -> dict:
    return {k: record[k] for k in ("character", "name", "resource", "amount", "before", "after")}

