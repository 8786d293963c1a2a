"""tools/screenshots.py still draws the README's pictures: its fills and buttons still exist."""

from __future__ import annotations

import struct

from tools import screenshots


def test_the_flagship_screenshot_is_drawn_at_its_seed(browser, app_url, tmp_path, monkeypatch):
    monkeypatch.setattr(screenshots, "OUT", tmp_path)
    shot = screenshots.SHOTS[0]
    path = screenshots.take(browser, app_url, shot)
    png = path.read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    assert width == 375 * 2 and height > 812 * 2  # the whole phone page, at 2×


def test_the_character_shots_find_her_sheet_and_editor(browser, app_url, tmp_path, monkeypatch):
    monkeypatch.setattr(screenshots, "OUT", tmp_path)
    shot = next(shot for shot in screenshots.SHOTS if shot.editor)
    png = screenshots.take(browser, app_url, shot).read_bytes()
    assert struct.unpack(">II", png[16:24]) == (375 * 2, 812 * 2)  # her editor, on the screen


def test_the_scene_shots_gm_qr_and_tonight_are_drawn(browser, app_url, tmp_path, monkeypatch):
    monkeypatch.setattr(screenshots, "OUT", tmp_path)
    for shot in (shot for shot in screenshots.SHOTS if shot.scene):
        png = screenshots.take(browser, app_url, shot).read_bytes()
        assert struct.unpack(">II", png[16:24]) == (375 * 2, 812 * 2)
