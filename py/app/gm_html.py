"""The GM's side as the page draws it: the list of committed secrets and the words that go with a
code handed to a player or a reveal, as escaped HTML. Pure, so CPython tests read it; times come
through a `when(iso) -> text` the page passes in.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from .check_words import system_name
from .gm_links import code_of, grouped
from .systems import PAGES


def difficulty_words(secret: dict) -> str:
    """"DR 4", "DTN 15": the difficulty as the player's reveal box calls it."""
    return f"{PAGES[secret['system']].reveal.field.upper()} {secret['difficulty']}"


def secret_name(secret: dict) -> str:
    """What the GM called it, else its system's secret: "Lock on the vault door"."""
    return secret["label"] or f"A {system_name(secret['system'])} secret"


def secret_html(secret: dict, when: Callable[[str], str]) -> str:
    """One secret: its name, system and difficulty, when it was committed (and revealed), its
    typed code, and what the GM does with it next."""
    ident = f"secret-{secret['id']}"
    revealed = secret.get("revealed")
    state = (f'<p class="hint">Revealed at <time datetime="{escape(revealed)}">'
             f'{escape(when(revealed))}</time>: show it again to each player who rolled.</p>'
             if revealed else '<p class="hint">Not revealed yet.</p>')
    return (f'<li class="secret{" revealed" if revealed else ""}" data-secret="{secret["id"]}">'
            f'<h4 id="{ident}">{escape(secret_name(secret))}</h4>'
            f'<p class="secret-about">{escape(system_name(secret["system"]))}, '
            f'{escape(difficulty_words(secret))} · committed at <time datetime="'
            f'{escape(secret["time"])}">{escape(when(secret["time"]))}</time></p>'
            f'<p class="secret-code">Code <code>{escape(code_of(secret["commitment"]))}</code></p>'
            f'{state}<div class="tool-row">'
            f'<button type="button" class="tool" data-show="commit" aria-describedby="{ident}">'
            'Show the code</button>'
            f'<button type="button" class="tool strong" data-show="reveal" '
            f'aria-describedby="{ident}">Reveal</button>'
            f'<button type="button" class="tool danger" data-clear aria-describedby="{ident}">'
            'Clear</button></div></li>')


def secrets_html(secrets: list[dict], when: Callable[[str], str]) -> str:
    return "".join(secret_html(secret, when) for secret in secrets)


def commit_words(secret: dict) -> tuple[str, str, str]:
    """The dialog for a code handed to a player: its title, what to do, the code to type."""
    return (f"Code: {secret_name(secret)}",
            "For the player, before the roll: scan this, open the link, or type the code into "
            "the secret roll's \u201cGM's code\u201d box.", code_of(secret["commitment"]))


def reveal_words(secret: dict) -> tuple[str, str, str]:
    """The dialog for a reveal: its title, what it says, the difficulty and salt to type."""
    return (f"Reveal: {secret_name(secret)}",
            f"{difficulty_words(secret)}. The player's page checks it against your code and "
            "says \u201cverified\u201d.",
            f"{difficulty_words(secret)} · salt {grouped(secret['salt'])}")
