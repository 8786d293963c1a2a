"""The page's rule systems: one record per system (py/app/systems/<id>.py, see record.py), in
the order of the rules' registry (py/skillcheck/registry.py), which is the only list of them.

A rules module without a record, or a record missing a piece, fails here at import with the
system's and the piece's name. The rest of the app loops over PAGES; no module outside this
package names a system.
"""

from __future__ import annotations

import importlib
import re

from skillcheck import SYSTEMS
from skillcheck.registry import REGISTRY

from .record import MissingPiece, Points, Resource, Reveal, Sheet, SystemPage, named_fields


def _record(system: str) -> SystemPage:
    """The record in py/app/systems/<system>.py, checked."""
    module = f"{__name__}.{system}"
    try:
        found = importlib.import_module(module)
    except ModuleNotFoundError as error:
        if error.name != module:
            raise
        raise MissingPiece(system, "record", "is missing: write it, as "
                           "docs/adding-a-system.md says") from None
    record = getattr(found, "PAGE", None)
    if not isinstance(record, SystemPage) or record.id != system:
        raise MissingPiece(system, "PAGE", f"must be the SystemPage of {system!r}")
    return record


def _registered() -> dict[str, SystemPage]:
    pages = {system: _record(system) for system in REGISTRY}
    sheets = [page.sheet.key for page in pages.values() if page.sheet]
    for page in pages.values():
        if page.sheet_key not in sheets:
            raise MissingPiece(page.id, "reads", f"names no system's sheet ({', '.join(sheets)})")
    if len(set(sheets)) != len(sheets):
        raise MissingPiece(sheets[0], "sheet", "keys must differ between systems")
    return pages


PAGES = _registered()
SHEETS: dict[str, Sheet] = {page.sheet.key: page.sheet for page in PAGES.values() if page.sheet}
FIRST = next(iter(PAGES))  # the system a new page shows, and its first kind of check
FIRST_MODE = (PAGES[FIRST].modes or (None,))[0]
# The seed's list of skills, which a sheet's skills name where a system's pick says so.
SKILL_LIST: list[dict] = next((SYSTEMS[system].get("skills", []) for system, page in
                               PAGES.items() if page.pick.seed_skill), [])


def page_of(system: object) -> SystemPage | None:
    """The record of `system`, or None for a name that is not one (from a link, a stored log)."""
    return PAGES.get(system) if isinstance(system, str) else None


def resource_of(system: object) -> Resource | None:
    """The stock `system` spends (Luck, XP), or None."""
    found = page_of(system)
    return found.resource if found else None


def points_offered(request: dict) -> tuple[str, str] | None:
    """The spendable points a request offers (its system's resource field, above 0), as
    (field, how a summary says them: "Luck 3"); None when it offers none."""
    page = page_of(request.get("system"))
    field = page.resource.field if page and page.resource else None
    value = request.get(field) if field else None
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        return None
    return field, page.said.get(field, field + " {}").format(value)


def outcome_name(system: str, outcome: str) -> str:
    """The rulebook's name of an outcome ("Basic Success"), or the outcome as a sentence."""
    found = page_of(system)
    words = found.outcomes.get(outcome) if found else None
    return words[0] if words else outcome[:1].upper() + outcome[1:]


def outcome_meaning(system: str, outcome: str) -> str:
    """One line on what the outcome means at the table, or "" for one the rulebook leaves be."""
    found = page_of(system)
    words = found.outcomes.get(outcome) if found else None
    return words[1] if words else ""


def deciding(result: dict) -> str:
    """The number that decided a result, as its record says it ("IoS 2", "total 14 vs DTN
    12", "13 to 12"): the first of the record's `deciding` whose fields the result holds; ""
    where none does (a secret check, a pool too difficult to roll)."""
    found = page_of(result.get("system"))
    for words in found.deciding if found else ():
        if all(_held(result, name) for name in named_fields(words)):
            return words.format_map(result)
    return ""


def _held(result: dict, name: str) -> bool:
    """Whether the result holds the field `name` ("primary[total]") as a number or a word."""
    value: object = result
    for key in re.findall(r"\w+", name):
        value = value.get(key) if isinstance(value, dict) else None
    return isinstance(value, int | str) and not isinstance(value, bool)


__all__ = ["FIRST", "FIRST_MODE", "PAGES", "SHEETS", "SKILL_LIST", "MissingPiece", "Points",
           "Resource", "Reveal", "SystemPage", "deciding", "outcome_meaning", "outcome_name",
           "page_of", "points_offered", "resource_of"]
