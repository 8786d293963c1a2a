"""Saved characters: what a sheet holds per system, the form fields it fills, and spent resources.

A character is a plain JSON dict, checked field by field whenever it is made, edited or loaded:

    {"id": 1, "name": "Mara", "notes": "", "luck": 3, "xp": 10, "last_spend": None,
     "sheets": {
       "flip":     {"aspects": {"AI": 3, ...},
                    "skills": {"Athletics": {"rank": 2, "specialization": "Climbing",
                                             "familiarity": False},
                               "Knowledge: History": {...}}},
       "pool":     {"traits": {"Dexterity": 5},              (read by both pool and swift)
                    "skills": {"Lockpicking": {"trait": "Dexterity", "score": 7, "bonus": 0}}},
       "fluke":    {"stats": {"Intelligence": 2}, "skills": {"Sneak": 3}},   (dice counts)
       "passages": {"skills": {"Lockpicking": 26}}}}                         (skill bases)

Names and notes are plain text, shown as text, never as HTML. Functions here are pure and return
new dicts; `Roster` keeps the characters in storage.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from skillcheck.fluke import XP_PER_POINT
from skillcheck.registry import REGISTRY
from skillcheck.request import Whole
from skillcheck.skills import ASPECTS, BY_NAME

from .collection import Collection, items_of
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

CHARACTERS_KEY = "skillcheck.characters"
KIND = "skillcheck.characters"
LONGEST_NAME = 60
LONGEST_NOTES = 2000
MOST_SKILLS = 100
MOST_CHARACTERS = 200
MOST_LUCK = 1000
MOST_XP = 1_000_000
LONGEST_FILE = 4_000_000
SHEET_OF = {"flip": "flip", "pool": "pool", "swift": "pool", "fluke": "fluke",
            "passages": "passages"}
# The request field each number of a sheet fills: a sheet holds only what the engine takes there.
ASPECT = REGISTRY["flip"].spec("aspect")
RANK = REGISTRY["flip"].spec("rank")
TRAIT = REGISTRY["pool"].spec("trait")
SCORE = REGISTRY["pool"].spec("skill")
BONUS = REGISTRY["pool"].spec("bonus")
DICE = REGISTRY["fluke"].spec("dice_count")
BASE = REGISTRY["passages"].spec("base")


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


@dataclass(frozen=True)
class Resource:
    """A stock a system spends: how a request offers it and how a result reports it."""

    stock: str  # the character's field
    field: str  # the request field that offers it
    cost: int  # stock per point of that field
    spent: str  # the result field that says how much was spent
    label: str
    most: int  # the most a character can hold


RESOURCES = {
    "pool": Resource("luck", "luck", 1, "luck_used", "Luck", MOST_LUCK),
    "swift": Resource("luck", "luck", 1, "luck_used", "Luck", MOST_LUCK),
    "fluke": Resource("xp", "insurance", XP_PER_POINT, "xp_spent", "XP", MOST_XP),
}


def most_offered(system: str, field: str) -> int:
    """The contract's limit on a request field (luck 100, insurance 20), from the engine."""
    return REGISTRY[system].spec(field).hi


# ---- reading: every field of a character is checked ----------------------------------------------


def _name(value: object, field: str) -> str:
    """A name a player typed: trimmed, one line, not empty."""
    text = text_field(value, field, LONGEST_NAME).strip()
    if not text:
        raise FieldError(field, "must not be empty")
    return text


def _named(value: object, field: str, read: Callable[[object, str, str], object],
           known: Callable[[str], str] = str) -> dict:
    """A map of names to values, each read by `read(value, field, name)`; at most MOST_SKILLS.
    `known` spells a name as the engine does ("hs" → "HS"): sheets saved with other cases load,
    and a name given twice in two cases is refused."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise FieldError(field, "must map names to values")
    if len(value) > MOST_SKILLS:
        raise FieldError(field, f"must hold at most {MOST_SKILLS} entries")
    named = {}
    for key, inner in value.items():
        name = known(_name(key, field))
        if name in named:
            raise FieldError(f"{field}.{name}", "is listed twice")
        named[name] = read(inner, f"{field}.{name}", name)
    return named


def spelled_as(names) -> Callable[[str], str]:
    """`known` for _named: a name matching one of `names` but for case becomes that one."""
    by_fold = {name.casefold(): name for name in names}
    return lambda name: by_fold.get(name.casefold(), name)


def within(spec: Whole, value: object, field: str) -> int:
    """A sheet's number, checked against the limits of the request field it fills."""
    return whole(value, field, spec.lo, spec.hi)


def _number(spec: Whole) -> Callable[[object, str, str], int]:
    return lambda value, field, _: within(spec, value, field)


def _object(value: object, field: str) -> dict:
    if not isinstance(value, dict):
        raise FieldError(field, "must be an object of named fields")
    return value


def _flag(value: object, field: str) -> bool:
    if value is None:
        return False
    if not isinstance(value, bool):
        raise FieldError(field, "must be true or false")
    return value


SKILL_NAME = spelled_as(BY_NAME)
ASPECT_NAME = spelled_as(ASPECTS)


def flip_skill_name(name: str) -> str:
    """A flip-sheet skill name with its skill spelled as the list does: "knowledge: History" →
    "Knowledge: History" (the type is the player's own word)."""
    base, colon, kind = name.partition(":")
    return f"{SKILL_NAME(base.strip())}: {kind.strip()}".rstrip() if colon else SKILL_NAME(name)


def seed_skill(name: str):
    """The seed's skill a flip-sheet skill name stands for: "Athletics", or "Knowledge: History"
    for the skills that vary by type; None when the name is neither."""
    base, colon, kind = name.partition(":")
    skill = BY_NAME.get(base.strip() if colon else name)
    if skill is None or skill.by_type != bool(colon) or (colon and not kind.strip()):
        return None
    return skill


def _aspect(value: object, field: str, name: str) -> int:
    if name not in ASPECTS:
        raise FieldError(field, "is not an aspect: they are " + " ".join(ASPECTS))
    return within(ASPECT, value, field)


def _flip_skill(value: object, field: str, name: str) -> dict:
    skill = seed_skill(name)
    if skill is None:
        raise FieldError(field, "must be a skill of the list (Craft, Knowledge and Profession "
                         "with their type, as in “Knowledge: History”)")
    value = _object(value, field)
    familiarity = _flag(value.get("familiarity"), f"{field}.familiarity")
    if familiarity and not skill.by_type:
        # "Craft, Knowledge, and Profession skills can have Familiarities."
        raise FieldError(f"{field}.familiarity", "only Craft, Knowledge and Profession have one")
    specialization = value.get("specialization") or ""
    return {"rank": within(RANK, value.get("rank"), f"{field}.rank"),
            "specialization": text_field(specialization, f"{field}.specialization",
                                         LONGEST_NAME).strip(),
            "familiarity": familiarity}


def _pool_skill(traits: dict) -> Callable[[object, str, str], dict]:
    def read(value: object, field: str, _: str) -> dict:
        value = _object(value, field)
        trait = spelled_as(traits)(_name(value.get("trait"), f"{field}.trait"))
        if trait not in traits:
            raise FieldError(f"{field}.trait", "must be one of the character's traits")
        return {"trait": trait, "score": within(SCORE, value.get("score"), f"{field}.score"),
                "bonus": within(BONUS, value.get("bonus", 0), f"{field}.bonus")}
    return read


def _flip_sheet(value: dict, field: str) -> dict:
    return {"aspects": _named(value.get("aspects"), f"{field}.aspects", _aspect, ASPECT_NAME),
            "skills": _named(value.get("skills"), f"{field}.skills", _flip_skill,
                             flip_skill_name)}


def _pool_sheet(value: dict, field: str) -> dict:
    traits = _named(value.get("traits"), f"{field}.traits", _number(TRAIT))
    return {"traits": traits,
            "skills": _named(value.get("skills"), f"{field}.skills", _pool_skill(traits))}


def _fluke_sheet(value: dict, field: str) -> dict:
    return {"stats": _named(value.get("stats"), f"{field}.stats", _number(DICE)),
            "skills": _named(value.get("skills"), f"{field}.skills", _number(DICE))}


def _passages_sheet(value: dict, field: str) -> dict:
    return {"skills": _named(value.get("skills"), f"{field}.skills", _number(BASE))}


SHEETS = {"flip": _flip_sheet, "pool": _pool_sheet, "fluke": _fluke_sheet,
          "passages": _passages_sheet}


def read_sheet(system: str, sheet: object) -> dict:
    """A checked sheet for `system` (swift reads and writes the pool sheet)."""
    key = SHEET_OF[system]
    return SHEETS[key](_object(sheet, f"sheets.{key}"), f"sheets.{key}")


def _last_spend(value: object) -> dict | None:
    if value is None:
        return None
    value = _object(value, "last_spend")
    system = value.get("system")
    if not isinstance(system, str) or system not in RESOURCES:
        raise FieldError("last_spend.system", "must be a system that spends a resource")
    return {"system": system,
            "amount": whole(value.get("amount"), "last_spend.amount", 1, MOST_XP)}


def read_character(raw: object) -> dict:
    """A checked copy of a character holding only known fields; FieldError naming a bad field."""
    raw = _object(raw, "character")
    sheets = _object(raw.get("sheets") or {}, "sheets")
    for key in sheets:
        if key not in SHEETS:
            raise FieldError(f"sheets.{key}", "must be one of " + ", ".join(SHEETS))
    return {"id": whole(raw.get("id"), "id", 1, 2**52),
            "name": _name(raw.get("name"), "name"),
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
    return edited(character, sheets={**character["sheets"], SHEET_OF[system]: sheet})


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
    return character["sheets"].get(SHEET_OF[system], {})


def pickable(character: dict, system: str) -> list[str]:
    """What the player can pick to fill the form: skills, then aspects or stats."""
    sheet = _sheet(character, system)
    return [*sheet.get("skills", {}), *sheet.get("aspects", {}), *sheet.get("stats", {})]


def _fill_flip(character: dict, sheet: dict, name: str) -> dict | None:
    if name in sheet.get("aspects", {}):
        return {"mode": "aspect", "aspect": sheet["aspects"][name]}
    entry = sheet.get("skills", {}).get(name)
    if entry is None:
        return None
    skill = seed_skill(name)
    fields = {"rank": entry["rank"], "advanced": skill.advanced,
              "familiarity": entry["familiarity"], "specialization": False}
    if skill.aspect in sheet["aspects"]:
        fields["aspect"] = sheet["aspects"][skill.aspect]
    return fields


def _fill_pool(character: dict, sheet: dict, name: str) -> dict | None:
    entry = sheet.get("skills", {}).get(name)
    if entry is None:
        return None
    return {"trait": sheet["traits"][entry["trait"]], "skill": entry["score"],
            "bonus": entry["bonus"], "luck": min(character["luck"], most_offered("pool", "luck"))}


def _fill_fluke(character: dict, sheet: dict, name: str) -> dict | None:
    count = sheet.get("skills", {}).get(name, sheet.get("stats", {}).get(name))
    return None if count is None else {"dice_count": count}


def _fill_passages(character: dict, sheet: dict, name: str) -> dict | None:
    base = sheet.get("skills", {}).get(name)
    return None if base is None else {"base": base}


FILLS = {"flip": _fill_flip, "pool": _fill_pool, "swift": _fill_pool, "fluke": _fill_fluke,
         "passages": _fill_passages}


def fill(character: dict, system: str, name: str) -> dict:
    """The request fields a character's skill (or aspect, or stat) gives; the GM sets the rest.

    flip skill:   rank, aspect (when the sheet has its value), advanced, familiarity,
                  specialization=False (the GM says whether it applies); an aspect gives
                  mode="aspect" and aspect. Opposed and team forms put these in a side.
    pool, swift:  trait, skill, bonus, luck (all the Luck the character has, up to 100: the
                  engine spends only what the roll needs).
    fluke:        dice_count (a skill or a stat).   passages: base.
    """
    fields = FILLS[system](character, _sheet(character, system), name)
    if fields is None:
        raise FieldError("skill", f"{name} is not on {character['name']}'s sheet for {system}")
    return fields


# ---- spending Luck and XP ------------------------------------------------------------------------


def limits(character: dict, system: str) -> dict[str, int]:
    """The most the character can offer in a request: {"luck": n} or {"insurance": n}, or {}."""
    resource = RESOURCES.get(system)
    if resource is None:
        return {}
    most = character[resource.stock] // resource.cost
    return {resource.field: min(most, most_offered(system, resource.field))}


def already_spent(earlier: dict | None) -> int:
    """What the check shown (`earlier`, a result) took from the character: when the player
    changes their choice on the same draw (Luck spent after the roll, another card kept), the
    check is judged again and takes only the rest."""
    resource = RESOURCES.get(earlier.get("system")) if earlier else None
    return int(earlier.get(resource.spent) or 0) if resource else 0


def affordable(character: dict, result: dict) -> list[dict]:
    """The Luck offers on the dice of `result` that `character` can still pay: each costs the
    Luck it spends beyond what the check took already."""
    resource = RESOURCES.get(result.get("system"))
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
    resource = RESOURCES.get(request.get("system"))
    if resource is None or capped == request:
        return None
    label = REGISTRY[request["system"]].spec(resource.field).label
    return (f"{character['name']} has only {character[resource.stock]:,} {resource.label} now: "
            f"{label} {capped[resource.field]} was used for this check, not "
            f"{request[resource.field]}.")


def spend_problem(character: dict, request: dict, already: int = 0) -> str | None:
    """Before rolling: why the character cannot offer what `request` offers beyond the `already`
    (`already_spent`) it took for the same draw, or None."""
    resource = RESOURCES.get(request.get("system"))
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
    resource = RESOURCES.get(result.get("system"))
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
    resource = RESOURCES[last["system"]]
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


def _record(character: dict, system: str, resource: Resource, amount: int, before: int,
            after: int, text: str) -> dict:
    """What the log keeps of a spend or undo (history.RollLog.record_spend / record_undo)."""
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
            which = f"character {n} ({_name(raw.get('name'), 'name')})"
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
        resource = RESOURCES.get(result.get("system"))
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
