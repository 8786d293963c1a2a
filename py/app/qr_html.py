"""QR codes as the page draws them: the modules of a code (from the vendored qrcode-generator,
app/qr_panel.py) as an SVG, dark on light whatever the page's colours, inside the quiet zone a
scanner needs, with a text alternative that names what the code holds.

Pure, so CPython tests read it; the drawing is escaped, so no text can become markup.
"""

from __future__ import annotations

import re
from html import escape

from skillcheck import SYSTEMS

from .check_words import system_name

LIBRARY = "static/vendor/qrcode/qrcode.mjs"  # build.py vendors it there (QRCODE_MODULE)
# Error correction M: a code still reads with 15 % of it lost (a thumb, a glare). A roll's
# replay link fits version 10 at M (57 modules a side, up to 213 bytes), which a phone's camera
# reads across a table from a phone's screen (tests/test_qr.py, docs/contract.md).
LEVEL = "M"
QUIET = 4  # modules of light margin around the code, as the QR standard asks
DARK = re.compile(r"1+")
# A text's last run of digits, coded in numeric mode (10 bits for 3 digits, not 24) when it is
# this long: a shared log's codes end in one (log_codes.py); shorter runs stay bytes.
DIGIT_RUN = re.compile(r"[0-9]{12,}\Z")


def segments(text: str) -> list[tuple[str, str]]:
    """`text` as the segments of its code, each (text, the library's mode): "Byte", and
    "Numeric" for a long last run of digits; decoded, they give `text` again."""
    run = DIGIT_RUN.search(text)
    if run is None:
        return [(text, "Byte")]
    head = text[:run.start()]
    return [(head, "Byte")] * bool(head) + [(run[0], "Numeric")]


def version_of(rows: list[str]) -> int:
    """A code's version (1–40) from its size: 21 modules a side for version 1, 4 more each."""
    return (len(rows) - 17) // 4


def svg_html(rows: list[str], label: str) -> str:
    """The code whose rows of modules are `rows` ("1" dark, "0" light) as an <svg role="img">
    named `label`: one path of dark runs on a light square, quiet zone included, so a dark page
    never shows through and no style sheet can invert it."""
    side = len(rows) + 2 * QUIET
    runs = "".join(f"M{run.start() + QUIET} {y + QUIET}h{len(run[0])}v1h-{len(run[0])}z"
                   for y, row in enumerate(rows) for run in DARK.finditer(row))
    return (f'<svg class="qr" viewBox="0 0 {side} {side}" role="img" '
            f'aria-label="{escape(label)}" data-version="{version_of(rows)}" '
            f'shape-rendering="crispEdges"><rect width="{side}" height="{side}" fill="#fff"/>'
            f'<path d="{runs}" fill="#000"/></svg>')


def roll_label(result: dict, who: dict | None = None) -> str:
    """What a roll's QR code is called: "QR code of Mara's roll", "… of the d10 pool roll"
    (a card flip's is a flip: "QR code of the Card flip")."""
    system = str(result.get("system", ""))
    noun = str(SYSTEMS.get(system, {}).get("button") or "roll").lower()
    name = (who or {}).get("name")
    if name:
        return f"QR code of {name}’s {noun}"
    kind = system_name(system)
    return f"QR code of the {kind}" if kind.lower().endswith(noun) else (
        f"QR code of the {kind} {noun}")
