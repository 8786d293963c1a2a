"""Form fields ↔ request dicts, with no browser in sight so it runs under CPython's tests too.

The page reads each control of the shown form as (name, kind, raw text) and hands the list here.
Nothing here knows a rule: a control's kind alone says how its text becomes JSON, and dotted names
("initiator.rank", "secondaries.2.aspect") become nested objects and lists — the same paths the
engine names in its InvalidRequest messages.
"""

from __future__ import annotations

import copy
import re

# What a control's text turns into, by kind: the input type, or the control's data-as.
NUMBER, CHECKBOX, SELECT, FLAG, LIST, HEX = ("number", "checkbox", "select-one", "flag", "list",
                                             "hex")
# ASCII digits only, and few enough that int() is cheap and never hits Python's digit limit:
# longer text goes to the engine as text, which names the field.
MOST_DIGITS = 20
WHOLE = re.compile(rf"[+-]?[0-9]{{1,{MOST_DIGITS}}}")
INDEX = re.compile(r"[0-9]+")
SEED = re.compile(r"[0-9]{1,19}")
BIGGEST_SEED = 2**63 - 1  # the contract's limit on a request's seed
SEPARATORS = re.compile(r"[\s,;]+")
CODE_BREAKS = re.compile(r"[\s\-·.]+")
SYSTEM_AND_MODE = ("system", "mode")
ESCAPES = re.compile(r"(?:%[0-9A-Fa-f]{2})+")


def value_of(kind: str, raw):
    """The JSON value of one control, or None to leave the field out of the request.

    An empty number is left out, so the engine says it is needed; text that is not a whole
    number goes through as text, so the engine names the field rather than the page guessing.
    """
    if kind in (CHECKBOX, FLAG):
        return bool(raw)
    text = str(raw).strip()
    if not text:
        return None
    if kind == NUMBER:
        return int(text) if WHOLE.fullmatch(text) else text
    if kind == LIST:
        return [_item(token) for token in SEPARATORS.split(text) if token]
    if kind == HEX:  # a code read off another screen, in groups: "3f9a 01bc-…"
        return CODE_BREAKS.sub("", text).lower()
    return text


def _item(token: str):
    """One entry of a typed-in draw: a die face (7) or a card code (7H, 10s → 10S). "00" is how
    percentile dice show 100 (double-ought), so it is read as 100."""
    if token == "00":
        return 100
    return int(token) if WHOLE.fullmatch(token) else token.upper()


def request_from(system: str, mode: str | None, controls) -> dict:
    """A request from (dotted name, kind, raw) triples; lists come from numeric path segments."""
    return {"system": system, **({"mode": mode} if mode else {}), **tree_from(controls)}


def tree_from(controls) -> dict:
    """Nested JSON from (dotted name, kind, raw) triples: any form, not only a check's."""
    tree: dict = {}
    for name, kind, raw in controls:
        value = value_of(kind, raw)
        if value is not None:
            _put(tree, name.split("."), value)
    return _lists(tree)


def _put(tree: dict, keys: list[str], value) -> None:
    for key in keys[:-1]:
        tree = tree.setdefault(key, {})
    tree[keys[-1]] = value


def _lists(tree):
    """Objects whose keys are all 0, 1, 2 … become lists, in index order."""
    if not isinstance(tree, dict):
        return tree
    fixed = {key: _lists(value) for key, value in tree.items()}
    if fixed and all(INDEX.fullmatch(key) for key in fixed):
        return [fixed[key] for key in sorted(fixed, key=int)]
    return fixed


def values_of(request: dict) -> dict[str, object]:
    """The inverse of request_from: a request's fields by dotted name ("primary.rank",
    "secondaries.1.aspect"), as text for boxes and True/False for ticks; its system, mode and
    any list that is not a list of sides (a draw) are left out."""
    found: dict[str, object] = {}

    def walk(value, name: str) -> None:
        if isinstance(value, dict):
            for key, inner in value.items():
                if name or key not in SYSTEM_AND_MODE:
                    walk(inner, f"{name}{key}.")
        elif isinstance(value, list):
            if value and all(isinstance(item, dict) for item in value):
                for i, item in enumerate(value):
                    walk(item, f"{name}{i}.")
        elif isinstance(value, bool) or value is None:
            found[name[:-1]] = bool(value)
        else:
            found[name[:-1]] = str(value)

    walk(request, "")
    return found


def with_value(request: dict, field: str, value) -> dict:
    """A copy of `request` with the dotted `field` ("secondaries.0.keep") set to `value`."""
    changed = copy.deepcopy(request)
    *parents, last = field.split(".")
    _at(changed, parents)[last] = value
    return changed


def value_at(request: dict, field: str):
    """The value at the dotted `field` of `request` ("initiator.rank"), or None if it has none."""
    try:
        return _at(request, field.split("."))
    except (KeyError, IndexError, TypeError, ValueError):
        return None


def _at(tree, keys: list[str]):
    for key in keys:
        tree = tree[int(key)] if isinstance(tree, list) else tree[key]
    return tree


def renumbered(text: str, group: str, index: int, sep: str = ".") -> str:
    """A repeated group's name (or id, with sep "-") moved to position `index`:
    secondaries.3.rank → secondaries.1.rank; flip-team-secondaries-3-rank → ...-1-rank."""
    pattern = rf"(^|{re.escape(sep)}){re.escape(group)}{re.escape(sep)}\d+(?={re.escape(sep)}|$)"
    return re.sub(pattern, lambda m: f"{m.group(1)}{group}{sep}{index}", text, count=1)


def route(fragment: str) -> dict[str, str]:
    """The system (and mode) a link names: "#system=flip&mode=opposed" → {"system": ..., ...}."""
    pairs = parameters(fragment.lstrip("#"))
    return {key: pairs[key][-1] for key in SYSTEM_AND_MODE if key in pairs}


def fragment(system: str, mode: str | None) -> str:
    """The link back: the inverse of route()."""
    return f"#system={system}" + (f"&mode={mode}" if mode else "")


def seeded_text(seed: int) -> str:
    """The line shown near the roll button while a seed is in force."""
    return f"Repeatable draws: seed {seed} — not random"


def seed_from(query: str) -> int | None:
    """`?seed=N` fixes the page's randomness for demos and tests; anything else means none.
    N is ASCII digits within the contract's seed range: "٣" or 5,000 digits seed nothing."""
    values = parameters(query.lstrip("?")).get("seed")
    text = values[-1].strip() if values else ""
    if SEED.fullmatch(text) and int(text) <= BIGGEST_SEED:
        return int(text)
    return None


def parameters(text: str) -> dict[str, list[str]]:
    """A link's query or fragment as urllib.parse.parse_qs reads it (blank values dropped),
    without importing urllib.parse: under Pyodide it pulls in ipaddress, about 0.1 s of every
    normal boot."""
    found: dict[str, list[str]] = {}
    for pair in text.split("&"):
        name, equals, value = pair.partition("=")
        if equals and value:
            found.setdefault(_unquote(name), []).append(_unquote(value))
    return found


def _unquote(text: str) -> str:
    """urllib.parse.unquote_plus: each run of %XX escapes decoded as UTF-8, bad bytes as U+FFFD."""
    def decoded(run: re.Match) -> str:
        return bytes.fromhex(run[0].replace("%", "")).decode("utf-8", "replace")

    return ESCAPES.sub(decoded, text.replace("+", " "))
