"""The roll log as the page lists it: one line per entry, newest first, as escaped HTML.

Pure, so CPython tests read it. Times are shown by a `when(iso) -> text` the page passes in
(the browser knows the player's clock and language); everything else comes from the entry.
A check or a reveal is a button (tapping it shows that roll again); a spend or an undo is a note.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from skillcheck import SYSTEMS

from .log_model import draw_of
from .result_html import sentence_case, side_title, tone

PAGE = 50  # entries drawn at first and at each "show more": a long log costs no more than this
KINDS_SHOWN_AGAIN = ("check", "reveal")


def system_label(system: str) -> str:
    return SYSTEMS.get(system, {}).get("label") or system


def draw_text(request: dict) -> str:
    """The cards or dice a request carries: "JC 10S", or by side "Initiator 3H 4D · Opponent 2H"."""
    draws = draw_of(request)
    if len(draws) == 1:
        return " ".join(map(str, next(iter(draws.values()))))
    return " · ".join(f"{side_title(path.rsplit('.', 1)[0])} {' '.join(map(str, items))}"
                      for path, items in draws.items())


def entry_html(entry: dict, when: Callable[[str], str]) -> str:
    """One entry as a list item."""
    time = (f'<time class="log-when" datetime="{escape(entry["time"])}">'
            f"{escape(when(entry['time']))}</time>")
    system = f'<span class="log-system">{escape(system_label(entry["system"]))}</span>'
    if entry["kind"] not in KINDS_SHOWN_AGAIN:
        return (f'<li class="log-note" data-kind="{entry["kind"]}">{time}{system}'
                f'<span class="log-summary">{escape(entry["summary"])}</span></li>')
    outcome = sentence_case(entry["outcome"])
    if entry["kind"] == "reveal":
        outcome = f"Revealed: {outcome}"
    draw = draw_text(entry["request"])
    return (f'<li><button type="button" class="log-entry" data-entry="{entry["id"]}">'
            f"{time}{system}"
            f'<span class="log-outcome {tone(entry["success"])}">{escape(outcome)}</span>'
            + seed_mark(entry)
            + f'<span class="log-summary">{escape(entry["summary"])}</span>'
            + (f'<span class="log-draw">{escape(draw)}</span>' if draw else "")
            + "</button></li>")


def seed_mark(entry: dict) -> str:
    """A check drawn from the page's ?seed says so: repeatable, not random."""
    if entry.get("seed") is None:
        return ""
    return (f'<span class="log-seed" data-seed="{entry["seed"]}">Seed {entry["seed"]}'
            " — not random</span>")


def list_html(entries: list[dict], when: Callable[[str], str]) -> str:
    return "".join(entry_html(entry, when) for entry in entries)


def entries(count: int) -> str:
    """"1 entry", "1,234 entries"."""
    return f"{count:,} {'entry' if count == 1 else 'entries'}"


def count_text(shown: int, total: int, system: str | None) -> str:
    """"Showing 50 of 1,234 entries" (of one system when filtered)."""
    which = f" {system_label(system)}" if system else ""
    if total == 0:
        return f"No{which} entries yet." if system else "Nothing rolled yet."
    noun = "entry" if total == 1 else "entries"
    if shown >= total:
        return f"{total:,}{which} {noun}."
    return f"Showing the newest {shown:,} of {total:,}{which} {noun}."


def filter_options_html() -> str:
    """The systems to filter by; "" is every system."""
    return '<option value="">All systems</option>' + "".join(
        f'<option value="{escape(name)}">{escape(system_label(name))}</option>'
        for name in SYSTEMS)
