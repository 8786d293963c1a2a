"""Words and small HTML the table features add around a result: where a shown roll came from,
the number a secret check's player announces, the GM's difficulty typed in to reveal it, and
the line a player pastes into a chat.

Pure (no browser); every text is escaped here, so a name or a link can never become markup.
"""

from __future__ import annotations

from html import escape

from .check_words import SEEDED, title
from .links import HONESTY
from .log_html import draw_text
from .storage import FieldError
from .systems import PAGES, deciding, outcome_name

# What the player says aloud when the GM keeps the difficulty, by the result's field.
ANNOUNCED = (("total", "Total"), ("successes", "Successes"))



def is_secret(result: dict | None) -> bool:
    return bool(result) and result.get("outcome") == "secret"


def source_html(kind: str, when: str, inputs: list[tuple[str, str]] = ()) -> str:
    """The line over a roll that was not just made: the log's, or a replay link's with the
    roll's inputs (read-only: label, value) and a button to roll the same check oneself."""
    if kind == "link":
        shown = "".join(f'<div><dt>{escape(label)}</dt><dd>{escape(value)}</dd></div>'
                        for label, value in inputs)
        return (f'<div class="source replay"><p><strong>Replay of a roll from '
                f'{escape(when)}</strong>. Nothing was rolled again.</p>'
                f'<p class="hint">{escape(HONESTY)}</p>'
                + (f'<dl class="replay-inputs" aria-label="What was rolled">{shown}</dl>'
                   if shown else "")
                + '<button type="button" class="tool strong" data-roll-myself>'
                  "Roll this check myself</button></div>")
    return (f'<div class="source"><p><strong>From the log: a roll from {escape(when)}'
            "</strong>. Nothing was rolled again.</p></div>")


def announce_html(result: dict) -> str:
    """A secret check's number, big and plain, for the player to tell the GM."""
    for key, label in ANNOUNCED:
        if isinstance(result.get(key), int):
            return (f'<p class="announce" data-announce="{key}"><span>{escape(label)}</span> '
                    f'<strong>{result[key]}</strong><span class="hint">Tell the GM; they '
                    "know the difficulty.</span></p>")
    return ""


def reveal_difficulty(system: str, text: str) -> dict:
    """What the GM typed → the request fields that judge the same draw: {"dtn": 15},
    {"difficulty": "hard"} or {"dr": 4}. The rules check the value itself."""
    reveal = PAGES[system].reveal
    fields = reveal.typed(text)
    if fields is None:
        raise FieldError("reveal", f"is needed: {reveal.hint}")
    return fields


def revealed_note(difficulty: dict, verified: bool = False) -> str:
    """The line over a revealed result: which difficulty judged the same draw, and whether it
    was checked against the GM's commitment made before the roll."""
    (field, value), = difficulty.items()
    named = {"dtn": "DTN", "dr": "DR"}.get(field, "difficulty")
    checked = (" Verified: it matches the GM's commitment made before the roll."
               if verified else "")
    return f"Revealed by the GM: {named} {value}, judged on the same draw.{checked}"


def share_text(result: dict, link: str, who: dict | None = None, seeded: bool = False) -> str:
    """A roll as one line for a chat app, its replay link last: "Mara · Stealth (d10 pool):
    Basic Success (IoS 1) — 6 3 7 1 2 — https://…", the outcome named as the headline names it;
    a `seeded` roll's line starts "[Seeded — not random]"."""
    outcome = outcome_name(str(result["system"]), str(result["outcome"]))
    said = _deciding(result)
    draw = draw_text(result["request"])
    parts = [f"{title(result['request'], **(who or {}))}: {outcome}"
             + (f" ({said})" if said and said not in outcome else ""), draw, link]
    return ("[" + SEEDED + "] " if seeded else "") + " — ".join(part for part in parts if part)


def _deciding(result: dict) -> str:
    """The number that decided the outcome, as the result shows it; a secret check's, the one
    the player announces."""
    if is_secret(result):
        return next((f"{label} {result[key]}" for key, label in ANNOUNCED
                     if isinstance(result.get(key), int)), "")
    return deciding(result)
