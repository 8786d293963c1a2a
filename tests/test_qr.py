"""QR codes: the vendored qrcode-generator's codes of every system's longest replay link stay at
version 10 or below at error correction M, and the page's drawing of them (app/qr_html.py)
decodes with a decoder library (zxing-cpp) to the very link, modules and quiet zone included."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest
import zxingcpp
from app.qr_html import LEVEL, QUIET, roll_label, segments, svg_html, version_of
from PIL import Image
from test_links import HOST, LONGEST, longest_link

import build

pytestmark = pytest.mark.vendored  # the page's QR library, as vendored from npm

# The page's own call (app/qr_panel.py, code_rows) of the vendored module, run by node.
ROWS = """
import { qrcode } from "./%s";
const texts = JSON.parse(await new Promise((done) => {
  let data = ""; process.stdin.on("data", (c) => data += c).on("end", () => done(data));
}));
console.log(JSON.stringify(texts.map((parts) => {
  const code = qrcode(0, "%s");
  for (const [text, mode] of parts) code.addData(text, mode);
  code.make();
  const size = [...Array(code.getModuleCount()).keys()];
  return size.map((y) => size.map((x) => code.isDark(y, x) ? "1" : "0").join(""));
})));
"""
RUN = re.compile(r"M(\d+) (\d+)h(\d+)v1h-\3z")


def library_rows(texts: list[str]) -> list[list[str]]:
    """Each of `texts` (ASCII) coded by the vendored library as the page codes it, in its
    segments (qr_html.segments)."""
    module = build.ROOT / build.QRCODE_MODULE
    if not module.is_file() or not shutil.which("node"):
        pytest.fail(f"{build.QRCODE_MODULE} and node are needed: run python3 build.py vendor")
    script = ROWS % (build.QRCODE_MODULE, LEVEL)
    coded = json.dumps([segments(text) for text in texts])
    out = subprocess.run(["node", "--input-type=module", "-e", script], input=coded,
                         capture_output=True, text=True, check=True, cwd=build.ROOT)
    return json.loads(out.stdout)


def picture(svg: str, scale: int = 4) -> Image.Image:
    """The <svg> svg_html drew, as the pixels a screen shows: its light square, its dark runs."""
    side = int(re.search(r'viewBox="0 0 (\d+) \1"', svg).group(1))
    image = Image.new("L", (side * scale, side * scale), 255)
    for x, y, length in RUN.findall(re.search(r'<path d="([^"]*)"', svg).group(1)):
        x, y, length = int(x), int(y), int(length)
        image.paste(0, (x * scale, y * scale, (x + length) * scale, (y + 1) * scale))
    return image


@pytest.fixture(scope="module")
def links_and_rows() -> list[tuple[str, list[str]]]:
    links = [longest_link(request) for request in LONGEST.values()]
    return list(zip(links, library_rows(links), strict=True))


def test_every_systems_longest_link_is_a_version_10_code_or_smaller(links_and_rows):
    versions = {version_of(rows) for _, rows in links_and_rows}
    assert max(versions) <= 10, versions


def test_the_drawn_code_decodes_to_its_link(links_and_rows):
    for link, rows in links_and_rows:
        svg = svg_html(rows, "QR code of Mara’s roll")
        found = zxingcpp.read_barcodes(picture(svg), formats=zxingcpp.BarcodeFormat.QRCode)
        assert [(code.text, code.ec_level) for code in found] == [(link, LEVEL)]
        assert f'data-version="{version_of(rows)}"' in svg


def test_the_drawing_keeps_every_module_and_the_quiet_zone():
    rows = ["1010", "0110", "0000", "1111"]
    image = picture(svg_html(rows, "x"), scale=1)
    assert image.size == (4 + 2 * QUIET, 4 + 2 * QUIET)
    drawn = ["".join("1" if image.getpixel((x + QUIET, y + QUIET)) == 0 else "0"
                     for x in range(4)) for y in range(4)]
    assert drawn == rows
    margin = [image.getpixel((x, y)) for x in range(image.width) for y in range(image.height)
              if not (QUIET <= x < QUIET + 4 and QUIET <= y < QUIET + 4)]
    assert set(margin) == {255}


def test_the_text_alternative_is_escaped_and_names_the_roll():
    svg = svg_html(["1"], 'Bob "<b>"')
    assert 'aria-label="Bob &quot;&lt;b&gt;&quot;"' in svg and 'role="img"' in svg
    pool = {"system": "pool"}
    assert roll_label(pool, {"name": "Mara"}) == "QR code of Mara’s roll"
    assert roll_label({"system": "flip"}, {"name": "Mara"}) == "QR code of Mara’s flip"
    assert roll_label(pool) == "QR code of the d10 pool roll"
    assert roll_label({"system": "flip"}) == "QR code of the Card flip"


def test_a_link_at_a_longer_address_still_decodes():
    link = longest_link(LONGEST["flip team of four"]).replace(HOST, HOST + "games/tonight/")
    rows, = library_rows([link])
    found = zxingcpp.read_barcodes(picture(svg_html(rows, "x")))
    assert [code.text for code in found] == [link]
