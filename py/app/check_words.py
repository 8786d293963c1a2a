"""What a check is called and how its inputs read, in the player's words, wherever the page
names one: the result's header, the Re-roll button, the roll log, the text shared to a chat.

Pure, so CPython tests read it. The engine's field names ("dice_count", "dtn") never reach the
player from here: each is said with a short label, a default left unsaid.
"""

from __future__ import annotations

from skillcheck import SYSTEMS

from .systems import page_of

MODES = {"opposed": "opposed", "team": "team", "aspect": "aspect check"}  # unopposed: unsaid
SIDES = {"initiator": "Initiator", "opponent": "Opponent", "primary": "Primary"}
LEFT_OUT = {"system", "mode", "cards", "dice", "keep", "seed", "luck_spend", "dtn"}
# A roll drawn from a ?seed page's sequence, wherever it goes: its result, its chat line.
SEEDED = "Seeded — not random"


def system_name(system: str) -> str:
    """The one name the page gives a system: "d10 pool"."""
    return SYSTEMS.get(system, {}).get("label") or system


def kind_of(system: str, mode: str | None = None) -> str:
    """The system, and the kind of flip when it is not the plain one: "Card flip, opposed"."""
    kind = MODES.get(mode or "")
    return f"{system_name(system)}, {kind}" if kind else system_name(system)


def title(request: dict, name: str | None = None, skill: str | None = None) -> str:
    """Who rolled what: "Mara · Stealth (d10 pool)", "Stealth (Card flip)", "d10 pool". A flip's
    request names its seed skill; a character's pick names the sheet's skill instead."""
    skill = skill or skill_asked(request)
    kind = kind_of(request.get("system", ""), request.get("mode"))
    who = " · ".join(part for part in (name, skill) if part)
    return f"{who} ({kind})" if who else kind


def skill_asked(request: dict) -> str | None:
    """The skill a flip request names (a side's, in opposed and team flips)."""
    for side in (request, *(request.get(key) for key in ("initiator", "primary"))):
        if isinstance(side, dict) and isinstance(side.get("skill"), str) and side["skill"]:
            return side["skill"]
    return None


def summary(request: dict, result: dict | None = None) -> str:
    """The inputs in a line: "Trait 6, Skill 5, DR 2, Luck 3 offered (1 spent)"; a flip:
    "rank 2, aspect 3, flip +1 vs average"; opposed: "Initiator rank 2, aspect 3 vs Opponent
    rank 4". Fields at their defaults are left unsaid."""
    defaults, said = _defaults(request.get("system")), _said(request.get("system"))
    spent = (result or {}).get("luck_used")
    parts = _inputs(request, defaults, said, spent)
    sides = [f"{SIDES[key]} {_line(_inputs(request[key], defaults, said))}"
             for key in SIDES if isinstance(request.get(key), dict)]
    helpers = request.get("secondaries")
    if isinstance(helpers, list) and helpers:
        sides.append(f"{len(helpers)} helper{'s' if len(helpers) != 1 else ''}")
    text = _line(parts)
    if sides:
        text = " vs ".join(sides) if request.get("mode") == "opposed" else ", ".join(
            [*sides[:1], *([text] if text else []), *sides[1:]])
    against = _against(request)
    return f"{text} vs {against}" if against and text else text or (against and f"vs {against}")


def set_in(system: str, values: dict) -> str:
    """What a folded part of a form holds away from its defaults, said as the log says it:
    "flip +1, takes a 7, own cards"; "" when nothing is."""
    draw = SYSTEMS.get(system, {}).get("draw", {}).get("label")
    own = [f"own {draw}"] if draw and values.get(draw) else []
    return _line([*_inputs(values, _defaults(system), _said(system)), *own])


def _defaults(system: str) -> dict:
    return {spec["name"]: spec.get("default") for spec in SYSTEMS.get(system, {}).get("fields", ())}


def _said(system: str) -> dict[str, str]:
    page = page_of(system)
    return page.said if page else {}


def _line(parts: list[str]) -> str:
    return ", ".join(parts)


def _inputs(obj: dict, defaults: dict, said: dict[str, str], spent: int | None = None
            ) -> list[str]:
    """Each input set away from its default, in the order the engine lists its fields, as
    its system's record says it."""
    parts = []
    order = list(defaults)  # the engine's own order of its fields
    for key, value in sorted(obj.items(), key=lambda item: order.index(item[0])
                             if item[0] in order else len(order)):
        if (key in LEFT_OUT or value is None or value is False
                or isinstance(value, str | dict | list)):
            continue  # a skill's name is in the title, sides and the difficulty said apart
        if key in defaults and defaults[key] == value and value is not True:
            continue
        words = said.get(key, key.replace("_", " ") + (" {}" if value is not True else ""))
        if value is True:
            parts.append(words)
        elif key == "luck" and spent is not None:
            parts.append(f"{words.format(value)} offered ({spent} spent)")
        else:
            parts.append(words.format(value) if isinstance(value, int) else f"{words} {value}")
    return parts


def _against(request: dict) -> str:
    """The difficulty a check is judged against: "DTN 16", "average", "" when none is given."""
    if isinstance(request.get("dtn"), int):
        return f"DTN {request['dtn']}"
    if isinstance(request.get("difficulty"), str):
        return request["difficulty"]
    return ""
