"""The app's icon — a die in front of a playing card — drawn with signed distances and written as
PNG (every size the manifest and iOS ask for) and as an SVG favicon. Standard library only.

    python3 build.py icons     redraw static/icons/ (committed; run it after changing the design)
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "static" / "icons"
THEME = (0x1B, 0x4D, 0x3E)  # the page's felt green (theme-color); the manifest's colours too
CARD = (0xF4, 0xEC, 0xD8)
SUIT = (0xB3, 0x26, 0x2E)
DIE = (0xFF, 0xFF, 0xFF)
PIP = (0x1B, 0x2A, 0x33)
ICONS = {  # file: (size, full-bleed background?, scale of the glyph within the icon)
    "icon-192.png": (192, False, 1.0), "icon-512.png": (512, False, 1.0),
    "maskable-192.png": (192, True, 0.78), "maskable-512.png": (512, True, 0.78),  # safe zone
    "apple-touch-icon.png": (180, True, 0.9),
}
# The glyph, in icon units (0..1) at scale 1, relative to the centre; turns in radians.
CARD_AT, CARD_TURN, CARD_HALF, CARD_RADIUS = (-0.1, -0.05), -0.26, (0.19, 0.27), 0.035
SUIT_AT, SUIT_HALF = (-0.04, -0.09), (0.07, 0.1)  # a diamond, in the card's frame
DIE_AT, DIE_TURN, DIE_HALF, DIE_RADIUS = (0.11, 0.1), 0.2, 0.19, 0.05
PIPS, PIP_RADIUS = ((0, 0), (-0.1, -0.1), (0.1, 0.1), (-0.1, 0.1), (0.1, -0.1)), 0.033


def _local(x: float, y: float, cx: float, cy: float, turn: float) -> tuple[float, float]:
    """(x, y) in the frame of a shape centred at (cx, cy) and turned by `turn` radians."""
    cos, sin = math.cos(turn), math.sin(turn)
    return (x - cx) * cos + (y - cy) * sin, -(x - cx) * sin + (y - cy) * cos


def _rounded(u: float, v: float, half_w: float, half_h: float, radius: float) -> float:
    """Signed distance to a rounded rectangle centred on the origin (negative inside)."""
    qx, qy = abs(u) - half_w + radius, abs(v) - half_h + radius
    return math.hypot(max(qx, 0), max(qy, 0)) + min(max(qx, qy), 0) - radius


def _layers(x: float, y: float, full: bool, s: float) -> list[tuple[float, tuple[int, ...]]]:
    """(distance, colour) of each shape at (x, y), back to front; s scales the glyph."""
    ground = -1.0 if full else _rounded(x - 0.5, y - 0.5, 0.5, 0.5, 0.2)
    cu, cv = _local(x, y, 0.5 + CARD_AT[0] * s, 0.5 + CARD_AT[1] * s, CARD_TURN)
    su, sv = (cu - SUIT_AT[0] * s) / SUIT_HALF[0], (cv - SUIT_AT[1] * s) / SUIT_HALF[1]
    du, dv = _local(x, y, 0.5 + DIE_AT[0] * s, 0.5 + DIE_AT[1] * s, DIE_TURN)
    pips = min(math.hypot(du - a * s, dv - b * s) for a, b in PIPS)
    return [(ground, THEME),
            (_rounded(cu, cv, CARD_HALF[0] * s, CARD_HALF[1] * s, CARD_RADIUS * s), CARD),
            ((abs(su) + abs(sv) - s) * 0.058, SUIT),  # roughly the distance to the diamond
            (_rounded(du, dv, DIE_HALF * s, DIE_HALF * s, DIE_RADIUS * s), DIE),
            (pips - PIP_RADIUS * s, PIP)]


def _pixel(x: float, y: float, full: bool, scale: float, px: float) -> tuple[int, ...]:
    """Colour at icon coordinates (0..1), each edge anti-aliased over one pixel `px`."""
    rgb, alpha = (0.0, 0.0, 0.0), 0.0  # premultiplied
    for distance, colour in _layers(x, y, full, scale):
        cover = min(max(0.5 - distance / px, 0.0), 1.0)
        rgb = tuple(c * cover + o * (1 - cover) for c, o in zip(colour, rgb, strict=True))
        alpha = cover + alpha * (1 - cover)
    if alpha == 0:
        return (0, 0, 0, 0)
    return (*(round(c / alpha) for c in rgb), round(alpha * 255))


def draw_icon(size: int, full: bool, scale: float) -> bytes:
    px = 1 / size
    rows = [[_pixel((i + 0.5) * px, (j + 0.5) * px, full, scale, px) for i in range(size)]
            for j in range(size)]
    return png(rows)


def png(rows: list[list[tuple[int, int, int, int]]]) -> bytes:
    """An 8-bit RGBA PNG of `rows` (lists of (r, g, b, a))."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(
            ">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = b"".join(b"\0" + bytes(v for pixel in row for v in pixel) for row in rows)
    header = struct.pack(">IIBBBBB", len(rows[0]), len(rows), 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's header."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    return struct.unpack(">II", data[16:24])


def svg_icon() -> str:
    """The same glyph as a vector favicon (100 units square)."""
    def hexa(rgb):
        return "#" + "".join(f"{c:02x}" for c in rgb)

    def turned(at, turn):
        return f'transform="translate({50 + at[0] * 100:g} {50 + at[1] * 100:g}) ' \
               f'rotate({math.degrees(turn):.2f})"'

    (cw, ch), (sx, sy), (sw, sh), d = CARD_HALF, SUIT_AT, SUIT_HALF, DIE_HALF
    suit = " ".join(f"{(sx + u) * 100:g},{(sy + v) * 100:g}"
                    for u, v in ((0, -sh), (sw, 0), (0, sh), (-sw, 0)))
    pips = "".join(f'<circle cx="{a * 100:g}" cy="{b * 100:g}" r="{PIP_RADIUS * 100:g}"/>'
                   for a, b in PIPS)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
            f'<rect width="100" height="100" rx="20" fill="{hexa(THEME)}"/>'
            f'<g {turned(CARD_AT, CARD_TURN)}><rect x="{-cw * 100:g}" y="{-ch * 100:g}" '
            f'width="{cw * 200:g}" height="{ch * 200:g}" rx="{CARD_RADIUS * 100:g}" '
            f'fill="{hexa(CARD)}"/><polygon points="{suit}" fill="{hexa(SUIT)}"/></g>'
            f'<g {turned(DIE_AT, DIE_TURN)}><rect x="{-d * 100:g}" y="{-d * 100:g}" '
            f'width="{d * 200:g}" height="{d * 200:g}" rx="{DIE_RADIUS * 100:g}" '
            f'fill="{hexa(DIE)}"/><g fill="{hexa(PIP)}">{pips}</g></g></svg>\n')


def icons(out: Path = OUT) -> None:
    """Write every icon into `out`."""
    out.mkdir(parents=True, exist_ok=True)
    for name, spec in ICONS.items():
        (out / name).write_bytes(draw_icon(*spec))
        print(f"wrote {out / name}")
    (out / "icon.svg").write_text(svg_icon())
    print(f"wrote {out / 'icon.svg'}")
