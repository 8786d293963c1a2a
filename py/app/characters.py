"""Saved characters: their sheets, the form fields a pick fills, and spent resources.

A character is a plain JSON dict, checked field by field whenever it is made, edited or loaded:

    {"id": 1, "name": "Mara", "notes": "", "luck": 3, "xp": 10, "last_spend": None,
     "sheets": {<sheet key>: <that sheet>, ...}}

Each system's record (py/app/systems/) says what its sheet holds, reads it, and fills a
request from it; two systems may share one sheet (the Swift edition reads the d10 pool's).

Names and notes are plain text, shown as text, never as HTML. Functions here are pure and return
new dicts; `Roster` keeps the characters in storage.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from skillcheck.registry import REGISTRY
from skillcheck.skills import ASPECTS

from .collection import Collection, items_of
from .sheet_fields import LONGEST_NAME, MOST_LUCK, MOST_SKILLS, MOST_XP, fields_of
from .sheet_fields import name as typed_name
from .storage import (
    FieldError,
    FileRefused,
    Storage,
    dump,
    parse,
    text_field,
    utc_now,
    whole,
)
from .systems import PAGES, SHEETS, Resource, resource_of

CHARACTERS_KEY = "skillcheck.characters"
KIND = "skillcheck.characters"
LONGEST_NOTES = 2000
MOST_CHARACTERS = 200
LONGEST_FILE = 4_000_000
__all__ = ["ASPECTS", "LONGEST_NAME", "MOST_LUCK", "MOST_SKILLS", "MOST_XP"]  # the editor's too


class SpendError(ValueError):
    """A spend or undo refused; the message is for the player."""


class EditConflict(ValueError):
    """An editor's save refused whole, as another tab changed the character meanwhile: the
    `fields` (of MERGED) it changed too, to other values, and the character as `stored` now
    (None: it was deleted)."""

    def __init__(self, stored: dict | None, fields: list[str]):
        super().__init__(", ".join(fields) if stored else "deleted")
        self.stored = stored
        self.fields = fields


class CharactersFileError(FileRefused):
    """A characters file refused whole; the message is for the player and nothing changed."""


# ---- reading: every field of a character is checked ----------------------------------------------


def read_sheet(key: str, sheet: object) -> dict:
    """A checked sheet of the key `key` (a system's own: swift reads and writes the pool's)."""
    return SHEETS[key].read(fields_of(sheet, f"sheets.{key}"), f"sheets.{key}")


def _last_spend(value: object) -> dict | None:
    if value is None:
        return None
    value = fields_of(value, "last_spend")
    system = value.get("system")
    if resource_of(system) is None:
        raise FieldError("last_spend.system", "must be a system that spends a resource")
    return {"system": system,
            "amount": whole(value.get("amount"), "last_spend.amount", 1, MOST_XP)}


def read_character(raw: object) -> dict:
    """A checked copy of a character holding only known fields; FieldError naming a bad field."""
    raw = fields_of(raw, "character")
    sheets = fields_of(raw.get("sheets") or {}, "sheets")
    for key in sheets:
        if key not in SHEETS:
            raise FieldError(f"sheets.{key}", "must be one of " + ", ".join(SHEETS))
    return {"id": whole(raw.get("id"), "id", 1, 2**52),
            "name": typed_name(raw.get("name"), "name"),
            "notes": text_field(raw.get("notes") or "", "notes", LONGEST_NOTES, lines=True),
            "luck": whole(raw.get("luck", 0), "luck", 0, MOST_LUCK),
            "xp": whole(raw.get("xp", 0), "xp", 0, MOST_XP),
            "last_spend": _last_spend(raw.get("last_spend")),
            "sheets": {key: read_sheet(key, sheets[key]) for key in SHEETS if key in sheets}}


def edited(character: dict, **changes) -> dict:
    """The character with `changes` (name, notes, luck, xp, sheets) applied and checked."""
    unknown = set(changes) - {"name", "notes", "luck", "xp", "sheets"}
    if unknown:
        raise FieldError(sorted(unknown)[0], "is not a field a player edits")
    return read_character({**character, **changes})


def with_sheet(character: dict, system: str, sheet: dict) -> dict:
    """The character with its sheet for `system` replaced (swift shares the pool sheet)."""
    return edited(character, sheets={**character["sheets"], PAGES[system].sheet_key: sheet})


# What the editor changes, merged one by one: the plain fields, and each sheet as a whole.
MERGED = ("name", "notes", "luck", "xp", *(f"sheets.{key}" for key in SHEETS))


def part_of(character: dict, field: str):
    """One of MERGED on `character` (None for a sheet it does not have)."""
    if field.startswith("sheets."):
        return character["sheets"].get(field.removeprefix("sheets."))
    return character[field]


def with_part(character: dict, field: str, value) -> dict:
    """`character` with one of MERGED set to `value` (a sheet: None takes it away)."""
    if not field.startswith("sheets."):
        return {**character, field: value}
    sheets = {k: v for k, v in character["sheets"].items() if k != field.removeprefix("sheets.")}
    if value is not None:
        sheets[field.removeprefix("sheets.")] = value
    return {**character, "sheets": sheets}


def merge_edit(opened: dict, mine: dict, stored: dict) -> tuple[dict, list[str]]:
    """An editor's save on top of what another tab saved meanwhile, field by field (MERGED):
    `opened` is the character as the editor opened it, `mine` as the editor would save it,
    `stored` as storage holds it now. A field only one side changed takes that side's value;
    one both changed, to different values, keeps the stored one and is named in the list of
    conflicts. What the editor does not show (the last spend) is the stored one."""
    merged, conflicts = dict(stored), []
    for field in MERGED:
        was, ours, theirs = part_of(opened, field), part_of(mine, field), part_of(stored, field)
        if ours in (was, theirs):
            continue
        if theirs == was:
            merged = with_part(merged, field, ours)
        else:
            conflicts.append(field)
    return read_character(merged), conflicts


# ---- filling the form ----------------------------------------------------------------------------


def _sheet(character: dict, system: str) -> dict:
    return character["sheets"].get(PAGES[system].sheet_key, {})


def pickable(character: dict, system: str) -> list[str]:
    """What the player can pick to fill the form: skills, then aspects or stats."""
    sheet = _sheet(character, system)
    return [*sheet.get("skills", {}), *sheet.get("aspects", {}), *sheet.get("stats", {})]


def fill(character: dict, system: str, picked: str) -> dict:
    """The request fields a character's skill (or aspect, or stat) gives, as the system's
    record fills them (py/app/systems/); the GM sets the rest. Opposed and team forms put a
    card flip's in a side."""
    fields = PAGES[system].fill(character, _sheet(character, system), picked)
    if fields is None:
        raise FieldError("skill", f"{picked} is not on {character['name']}'s sheet for {system}")
    return fields


# ---- spending Luck and XP ------------------------------------------------------------------------


def limits(character: dict, system: str) -> dict[str, int]:
    """The most the character can offer in a request: {"luck": n} or {"insurance": n}, or {}."""
    resource = resource_of(system)
    if resource is None:
        return {}
    most = character[resource.stock] // resource.cost
    return {resource.field: min(most, REGISTRY[system].spec(resource.field).hi)}


def already_spent(earlier: dict | None) -> int:
    """What the check shown (`earlier`, a result) took from the character: when the player
    changes their choice on the same draw (Luck spent after the roll, another card kept), the
    check is judged again and takes only the rest."""
    resource = resource_of(earlier.get("system")) if earlier else None
    return int(earlier.get(resource.spent) or 0) if resource else 0


def affordable(character: dict, result: dict) -> list[dict]:
    """The Luck offers on the dice of `result` that `character` can still pay: each costs the
    Luck it spends beyond what the check took already."""
    resource = resource_of(result.get("system"))
    offers = result.get("luck_offers") or []
    if resource is None:
        return offers
    left = character[resource.stock] + already_spent(result)
    return [offer for offer in offers if offer["luck_spend"] * resource.cost <= left]


def within_limits(character: dict, request: dict) -> dict:
    """`request` offering no more Luck or Insurance than the character has left: a re-roll
    after a spend repeats the check with what remains rather than being refused."""
    capped = {field: most for field, most in limits(character, request.get("system")).items()
              if isinstance(request.get(field), int) and request[field] > most}
    return {**request, **capped}


def capped_text(character: dict, request: dict, capped: dict) -> str | None:
    """What a player is told when `within_limits` had to lower what `request` offered: the
    stock as storage holds it now ran short (another tab spent meanwhile)."""
    resource = resource_of(request.get("system"))
    if resource is None or capped == request:
        return None
    label = REGISTRY[request["system"]].spec(resource.field).label
    return (f"{character['name']} has only {character[resource.stock]:,} {resource.label} now: "
            f"{label} {capped[resource.field]} was used for this check, not "
            f"{request[resource.field]}.")


def spend_problem(character: dict, request: dict, already: int = 0) -> str | None:
    """Before rolling: why the character cannot offer what `request` offers beyond the `already`
    (`already_spent`) it took for the same draw, or None."""
    resource = resource_of(request.get("system"))
    if resource is None:
        return None
    offered = request.get(resource.field)
    if isinstance(offered, bool) or not isinstance(offered, int):
        return None  # the engine names a bad field itself
    offered -= already // resource.cost
    stock = character[resource.stock]
    if offered * resource.cost <= stock:
        return None
    most = stock // resource.cost
    per = f" ({resource.cost} {resource.label} a point)" if resource.cost > 1 else ""
    return (f"{character['name']} has {stock} {resource.label}: {resource.field} can be at most "
            f"{most}{per}.")


def apply_result(character: dict, result: dict) -> tuple[dict, dict | None]:
    """Take what a check spent from the character: the new character and a spend record
    (None when nothing was spent). SpendError if the character does not have it."""
    resource = resource_of(result.get("system"))
    amount = result.get(resource.spent) if resource else None
    if not amount:
        return character, None
    before = character[resource.stock]
    if amount > before:
        raise SpendError(f"{character['name']} has only {before} {resource.label} now, and this "
                         f"would spend {amount}: nothing was spent.")
    after = before - amount
    spent = read_character({**character, resource.stock: after,
                            "last_spend": {"system": result["system"], "amount": amount}})
    text = f"{character['name']} spent {amount} {resource.label} ({before} → {after})."
    return spent, _record(character, result["system"], resource, amount, before, after, text)


def undo_spend(character: dict) -> tuple[dict, dict]:
    """Give back the character's last spend, once: the new character and an undo record."""
    last = character["last_spend"]
    if last is None:
        raise SpendError(f"{character['name']} has no spend to undo.")
    resource = resource_of(last["system"])
    before = character[resource.stock]
    after = before + last["amount"]
    if after > resource.most:
        raise SpendError(f"{character['name']} cannot hold more than {resource.most} "
                         f"{resource.label}.")
    restored = read_character({**character, resource.stock: after, "last_spend": None})
    text = (f"Undone: {character['name']} got {last['amount']} {resource.label} back "
            f"({before} → {after}).")
    return restored, _record(character, last["system"], resource, last["amount"], before, after,
                             text)


def give_back(character: dict, spend: dict, newest: bool) -> tuple[dict, dict]:
    """What a withdrawn roll spent (its logged `spend`), given back to the character, up to the
    most they can hold: the new character and an undo record. When that spend is their
    `newest`, "Undo last spend" has nothing left to give back."""
    resource = resource_of(spend["system"])
    before = character[resource.stock]
    after = min(resource.most, before + spend["amount"])
    given = after - before
    last = None if newest else character["last_spend"]
    restored = read_character({**character, resource.stock: after, "last_spend": last})
    most = f", the most {character['name']} can hold" if given < spend["amount"] else ""
    text = (f"Roll withdrawn: {character['name']} got {given} {resource.label} back "
            f"({before} → {after}{most}).")
    return restored, _record(character, spend["system"], resource, given, before, after, text)


def _record(character: dict, system: str, resource: Resource, amount: int, before: int,
            after: int, text: str) -> dict:
    """What the log keeps of a spend or undo (log_model.RollLog.record_spend / record_undo)."""
    return {"character": character["id"], "name": character["name"], "system": system,
            "resource": resource.stock, "amount": amount, "before": before, "after": after,
            "text": text}


# ---- files: moving characters to another browser ------------------------------------------------


def counted(count: int) -> str:
    return f"{count:,} character{'s' * (count != 1)}"


def read_file(text: object) -> list[dict]:
    """The characters of an exported file, every one checked; CharactersFileError naming the
    first problem otherwise. Stricter than loading from storage: nothing is left out quietly."""
    try:
        data = parse(text, KIND, LONGEST_FILE)
        raws, _ = items_of(data, Roster.ITEMS)
        if not raws:
            raise ValueError("it holds no characters")
        if len(raws) > MOST_CHARACTERS:
            raise ValueError(f"it holds {counted(len(raws))} and this page keeps at most "
                             f"{MOST_CHARACTERS}")
        characters = [_file_character(n, raw) for n, raw in enumerate(raws, 1)]
        _check_unique(characters)
    except ValueError as error:  # EnvelopeError and FieldError too
        raise CharactersFileError(f"This file could not be imported: {error}. Your characters "
                                  "were not changed.") from None
    return characters


def _file_character(n: int, raw: object) -> dict:
    try:
        return read_character(raw)
    except FieldError as error:
        try:
            which = f"character {n} ({typed_name(raw.get('name'), 'name')})"
        except (AttributeError, FieldError):  # not an object, or no usable name
            which = f"character {n}"
        raise ValueError(f"{which}, {error}") from None


def _check_unique(characters: list[dict]) -> None:
    ids, names = set(), set()
    for character in characters:
        if character["id"] in ids:
            raise ValueError(f"two characters have the id {character['id']}")
        if character["name"].casefold() in names:
            raise ValueError(f"two characters are called {character['name']}")
        ids.add(character["id"])
        names.add(character["name"].casefold())


def import_question(count: int, replaced: list[dict]) -> str:
    """What the page asks before an import replaces characters here (`Roster.replaced_by`)."""
    names = [character["name"] for character in replaced]
    shown = ", ".join(names[:3]) + (f" and {len(names) - 3:,} more" if len(names) > 3 else "")
    if len(names) == 1:
        return (f"Import {counted(count)}? It replaces {shown}, the character here with the same "
                "name: their sheet, Luck and XP here are overwritten.")
    return (f"Import {counted(count)}? It replaces {counted(len(names))} here with the same "
            f"names ({shown}): their sheets, Luck and XP here are overwritten.")


def import_summary(added: int, replaced: int) -> str:
    """What an import did: "Imported 3 characters (1 replaced)."."""
    extra = f" ({replaced:,} replaced)" if replaced else ""
    return f"Imported {counted(added + replaced)}{extra}."


# ---- the roster in storage -----------------------------------------------------------------------


class Roster(Collection):
    """The saved characters of this browser, shared by its tabs (see collection.py). `warnings`
    holds what loading had to tell the player.

    Every change is made on top of what storage holds now, saved at once, and returns the
    warnings to show (storage full, ...).
    """

    KIND = KIND
    LABEL = "characters"
    ITEMS = "characters"
    LONGEST = LONGEST_FILE
    FILE = "characters"
    NOUN = ("character", "characters")

    def __init__(self, storage: Storage, *, key: str = CHARACTERS_KEY,
                 clock: Callable[[], datetime] = utc_now):
        super().__init__(storage, key, clock)

    def read_item(self, raw: object, next_id: int) -> tuple[dict, str]:
        character = read_character(raw)
        if character["id"] >= next_id:
            raise FieldError("id", "must be below next_id")
        return character, dump(character)

    def loadable(self, raws: list) -> list:
        return raws[:MOST_CHARACTERS]

    def admit(self, item: dict, rows: dict) -> bool:
        name = item["name"].casefold()
        return all(other["name"].casefold() != name for other, _ in rows.values())

    def all(self) -> list[dict]:
        """Every character, by name."""
        return sorted(self.items(), key=lambda c: (c["name"].casefold(), c["id"]))

    def create(self, name: str, **fields) -> tuple[dict, list[str]]:
        """A new character called `name` (fields: notes, luck, xp, sheets)."""
        def create() -> dict:
            if len(self._rows) >= MOST_CHARACTERS:
                raise FieldError("name", f"there can be at most {MOST_CHARACTERS} characters")
            character = read_character({**fields, "id": self._next_id, "name": name})
            self._check_name(character)
            self._new_id()
            self._put((character, dump(character)))
            return character
        return self.change(create)

    def update(self, character: dict) -> list[str]:
        """Store an edited character (see `edited`, `with_sheet`, `apply_result`)."""
        character = read_character(character)

        def update() -> None:
            if character["id"] not in self._rows:
                raise FieldError("id", "no such character")
            self._check_name(character)
            self._put((character, dump(character)))
        return self.change(update)[1]

    def save_edit(self, opened: dict, mine: dict) -> tuple[dict, list[str]]:
        """The editor's save: `mine`, the character `opened` as the editor opened it, as edited,
        merged on top of what storage holds now (`merge_edit`). The character saved and
        warnings; EditConflict, and nothing saved, when another tab changed a field this editor
        changed too, or deleted the character."""
        def save() -> dict:
            stored = self.get(opened["id"])
            if stored is None:
                raise EditConflict(None, [])
            merged, conflicts = merge_edit(opened, read_character(mine), stored)
            if conflicts:
                raise EditConflict(stored, conflicts)
            self._check_name(merged)
            self._put((merged, dump(merged)))
            return merged
        return self.change(save)

    def rename(self, character_id: int, name: str) -> tuple[dict, list[str]]:
        self.refresh()
        if character_id not in self._rows:
            raise FieldError("id", "no such character")
        character = edited(self.get(character_id), name=name)
        return character, self.update(character)

    def delete(self, character_id: int) -> list[str]:
        """Forget a character (the page asks first)."""
        return self.change(lambda: self._drop(character_id))[1]

    # -- spending: checked against the stock storage holds now, not this tab's copy

    def spend(self, character_id: int, result: dict, already: int = 0
              ) -> tuple[dict | None, dict | None, list[str]]:
        """Take what `result` spent from the character as stored now (`apply_result`), less the
        `already` (`already_spent`) taken for the same draw before it was judged again: the
        character, the spend record (None when nothing more was spent) and warnings.
        SpendError if the character, as stored now, does not have it."""
        resource = resource_of(result.get("system"))
        if resource and already:
            result = {**result, resource.spent: result[resource.spent]
                      - min(already, result[resource.spent])}

        def spend() -> tuple[dict | None, dict | None]:
            character = self.get(character_id)
            if character is None:
                raise SpendError("That character is no longer saved here.")
            spent, record = apply_result(character, result)
            if record is not None:
                self._put((spent, dump(spent)))
            return spent, record
        (character, record), warnings = self.change(spend)
        return character, record, warnings

    def undo(self, character_id: int) -> tuple[dict, dict, list[str]]:
        """Give back the character's last spend as stored now (`undo_spend`), once: an undo in
        another tab has already cleared it, so the same spend is never given back twice."""
        def undo() -> tuple[dict, dict]:
            character = self.get(character_id)
            if character is None:
                raise SpendError("That character is no longer saved here.")
            restored, record = undo_spend(character)
            self._put((restored, dump(restored)))
            return restored, record
        (character, record), warnings = self.change(undo)
        return character, record, warnings

    def give_back(self, spend: dict, newest: bool) -> tuple[dict | None, list[str]]:
        """`give_back` to the character as stored now: the undo record, None when the
        character is no longer saved here (nothing to give back to), and the warnings."""
        def give() -> dict | None:
            character = self.get(spend["character"])
            if character is None:
                return None
            restored, record = give_back(character, spend, newest)
            self._put((restored, dump(restored)))
            return record
        return self.change(give)

    # -- export, import

    def replaced_by(self, characters: list[dict]) -> list[dict]:
        """The characters here that merging `characters` would replace (the same name in any
        case); CharactersFileError when the merge would hold more than MOST_CHARACTERS."""
        here = {character["name"].casefold(): character for character in self.items()}
        replaced = [here[c["name"].casefold()] for c in characters if c["name"].casefold() in here]
        total = len(self._rows) + len(characters) - len(replaced)
        if total > MOST_CHARACTERS:
            raise CharactersFileError(
                f"This file could not be imported: with it there would be {counted(total)} and "
                f"this page keeps at most {MOST_CHARACTERS}. Your characters were not changed.")
        return replaced

    def merge(self, characters: list[dict]) -> tuple[int, int, list[str]]:
        """Add the characters `read_file` gave: (added, replaced, warnings). A new one gets a new
        id; one named like a character here replaces it and keeps its id, so it stays picked.
        Their last spend is dropped: an undo recorded in another browser does not apply here."""
        def merge() -> int:
            ids = {c["name"].casefold(): c["id"] for c in self.replaced_by(characters)}
            for character in characters:
                character_id = ids.get(character["name"].casefold()) or self._new_id()
                merged = read_character({**character, "id": character_id, "last_spend": None})
                self._put((merged, dump(merged)))
            return len(ids)
        replaced, warnings = self.change(merge)
        return len(characters) - replaced, replaced, warnings

    def _check_name(self, character: dict) -> None:
        name = character["name"].casefold()
        if any(other["name"].casefold() == name and other["id"] != character["id"]
               for other in self.items()):
            raise FieldError("name", f"another character is already called {character['name']}")
