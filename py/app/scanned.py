"""What a code read by "Scan a code" is (app/scan_panel.py), and what the page says of it and of
a camera or reader it cannot use: browser-free, so CPython tests read every case.

A code is opened only when it is a link to this very page (the same origin and path, as a
phone's camera app would open it) whose fragment is one of the page's links (`links.is_link`:
a replay, a code of a shared log, a system; or a GM's commitment or reveal, gm_links). Anything
else is named and never opened: the page only ever sets its own fragment, never goes to another
address. The codes of a shared log come in a sequence, read one after another without closing
the scanner (`Sequence`).
"""

from __future__ import annotations

import re

from . import gm_links
from .links import is_link, is_log_part
from .log_codes import CodeError, read_code

READER = "static/vendor/jsqr/jsQR.js"  # jsQR, where build.py vendors it (JSQR_MODULE)
LOOKING = "Point the camera at a Skill Check code"
INSTEAD = "Use your phone’s camera app, or paste the link into the address bar."
NOT_OURS = "This code is not a Skill Check link"
NO_CAMERA = f"This browser lets the page use no camera. {INSTEAD}"
NO_READER = f"This browser cannot read QR codes here. {INSTEAD}"
# getUserMedia's refusals (DOMException names) in a player's words
CAMERA_PROBLEMS = {
    "NotAllowedError": "The camera is not allowed for this page (permission denied)",
    "SecurityError": "The camera is not allowed for this page",
    "NotFoundError": "This device has no camera the page can use",
    "OverconstrainedError": "This device has no camera the page can use",
    "NotReadableError": "The camera is in use by another app",
    "AbortError": "The camera could not be started",
}
SHOWN_TEXT = 40  # characters of a code's text quoted back at most
# RFC 3986's appendix B, cut to what is compared: scheme, authority, path, fragment (the query
# is the page's own business: a link's fragment alone holds what it opens). Cut by hand, like
# links.share_url: urllib.parse would cost every boot about 0.1 s under Pyodide.
URL = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):(?://([^/?#]*))?([^?#]*)(?:\?[^#]*)?(#.*)?", re.S)


def _parts(url: str) -> tuple[str, str, str, str] | None:
    """(scheme, host, path, fragment) of a web address, the first two in lower case and the path
    without a last "index.html" (the page's two names for itself); None for anything else."""
    found = URL.fullmatch(url.strip())
    if found is None or found[1].lower() not in ("http", "https") or not found[2]:
        return None
    path = found[3] or "/"
    return found[1].lower(), found[2].lower(), path.removesuffix("index.html"), found[4] or ""


def fragment_of(text: str, page_url: str) -> str | None:
    """The fragment to open ("#r=2.…") when the code's `text` is a link to the page at
    `page_url` that the page opens; None for anything else."""
    code, page = _parts(text), _parts(page_url)
    if code is None or page is None or code[:3] != page[:3] or not opens(code[3]):
        return None
    return code[3]


def opens(fragment: str) -> bool:
    """Whether the page opens this fragment as a link: one of its own, or a GM's."""
    return is_link(fragment) or gm_links.is_commit(fragment) or gm_links.is_reveal(fragment)


class Sequence:
    """The codes of shared logs read in one opening of the scanner: each is opened once (a code
    held in front of the camera is read many times a second), and the scanner goes on to the
    next until every code of its set is read."""

    def __init__(self) -> None:
        self.read: dict[str, set[int]] = {}

    def take(self, fragment: str) -> tuple[bool, str, bool]:
        """(whether to open `fragment` now, what the status line says, whether scanning ends).
        A code of a shared log is opened the first time it is read and said as "Code 3 of 12
        read"; scanning ends at the last code of its set, and after any other link at once."""
        if not is_log_part(fragment):
            return True, "", True
        try:
            code = read_code(fragment)
        except CodeError as error:  # opened all the same: the log's panel says what is wrong
            return True, str(error), True
        seen = self.read.setdefault(code.batch, set())
        fresh = code.index not in seen
        seen.add(code.index)
        left = code.count - len(seen)
        more = f"{left} more to go: point at the next." if left else "every code is read."
        return fresh, f"Code {code.index} of {code.count} read, {more}", not left


def said_of(text: str, page_url: str) -> str:
    """What the scanner says of a code it does not open, never more than SHOWN_TEXT characters
    of what the code holds (set as text, never as markup)."""
    code, page = _parts(text), _parts(page_url)
    if code is not None and page is not None and code[:3] == page[:3]:
        return ("This code is a link to Skill Check, but to nothing it opens: point at a "
                "roll’s or the GM’s code.")
    if code is not None:
        return f"{NOT_OURS}: it is a link to {_short(code[1])}."
    if not text.strip():
        return f"{NOT_OURS}: it is empty."
    return f"{NOT_OURS}: it holds the text “{_short(' '.join(text.split()))}”."


def camera_problem(name: str) -> str:
    """The sentence for getUserMedia refusing with the DOMException `name`, and what to do."""
    return f"{CAMERA_PROBLEMS.get(name, 'The camera could not be started')}. {INSTEAD}"


def _short(text: str) -> str:
    return text if len(text) <= SHOWN_TEXT else text[:SHOWN_TEXT - 1] + "…"
