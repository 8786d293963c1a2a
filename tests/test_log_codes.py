"""The whole evening at once (issue 38.3): a log's rolls as a sequence of QR codes' page links or
as a file, read back strictly (every bad code is a sentence, never an exception), and merged
into another page's table log, deduplicated, without dropping its own entries."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

import pytest
import skillcheck
import zxingcpp
from app import log_codes
from app.log_codes import (
    CODES_KEY,
    MOST_CODES,
    CodeError,
    Codes,
    code_links,
    read_code,
    read_file,
    receive,
    sharable,
)
from app.log_model import RollLog
from app.qr_html import LEVEL, segments, svg_html, version_of
from app.storage import FileRefused, MemoryStorage, StorageFull, dump
from evenings import evening
from hypothesis import given, settings
from hypothesis import strategies as st

HOST = "https://someone.github.io/skill-check/"
NOW = datetime(2026, 12, 4, 23, 0, tzinfo=UTC)


def fragment(link: str) -> str:
    return link[link.index("#"):]


def fresh_codes() -> Codes:
    return Codes(MemoryStorage(), clock=lambda: NOW)


def rows_of(log: RollLog) -> list[tuple]:
    """What a merge must keep of each roll: its draw, time, whose, and whether it is shared."""
    return [(e["request"], e["time"], e.get("name"), e.get("skill"), e.get("shared"))
            for e in log.items() if e["kind"] == "check"]


def send(links: list[str], log: RollLog, codes: Codes | None = None) -> list[str]:
    codes = codes or fresh_codes()
    return [receive(fragment(link), log, codes)[0] for link in links]


@pytest.fixture(scope="module")
def tonight_200() -> RollLog:
    return evening(200)


def test_two_hundred_rolls_round_trip_as_codes_in_order_or_not(tonight_200):
    rolls = sharable(tonight_200.items())
    assert len(rolls) == 200
    links = code_links(HOST + "?seed=4#system=flip", rolls)
    assert all(link.startswith(HOST + "#log=1.") for link in links)  # no seed, no fragment
    said = send(links[::-1], other := RollLog(MemoryStorage()))  # any order will do
    assert said[:-1] == [f"Log from another phone: {n} of {len(links)} codes read — show the "
                         "next." for n in range(1, len(links))]
    assert said[-1] == "200 rolls added from another phone, 0 already here."
    assert rows_of(other) == [(*row[:4], True) for row in rows_of(tonight_200)]


def test_two_hundred_rolls_take_few_codes_each_read_at_version_15_or_below(tonight_200):
    """The measure: 200 flips of an evening, as a github.io page links them, in codes drawn
    by the vendored library as the page draws them, each decoded by zxing-cpp."""
    from test_qr import library_rows, picture

    links = code_links(HOST, sharable(tonight_200.items()))
    packed = log_codes.pack(sharable(tonight_200.items()))
    print(f"\n200 rolls: {len(dump(log_codes.documents(tonight_200.items()))):,} characters "
          f"of JSON, {len(packed):,} bytes packed, {len(links)} codes of "
          f"{[len(link) for link in links][0]} characters")
    assert len(links) <= 12
    for link, rows in zip(links, library_rows(links), strict=True):
        assert version_of(rows) <= log_codes.CODE_VERSION
        found = zxingcpp.read_barcodes(picture(svg_html(rows, "x")),
                                       formats=zxingcpp.BarcodeFormat.QRCode)
        assert [(code.text, code.ec_level) for code in found] == [(link, LEVEL)]
    assert version_of(library_rows(links[:1])[0]) == log_codes.CODE_VERSION  # filled up


def test_a_code_ends_in_digits_that_the_code_holds_as_digits():
    assert segments("https://x/#log=1.AbCdEfGh.1.2.0123456789012") == [
        ("https://x/#log=1.AbCdEfGh.1.2.", "Byte"), ("0123456789012", "Numeric")]
    assert segments("https://x/#r=2.abc123") == [("https://x/#r=2.abc123", "Byte")]
    assert segments("12345678901234") == [("12345678901234", "Numeric")]


@given(st.binary(max_size=60))
def test_bytes_and_digits_round_trip(data):
    digits = log_codes.to_digits(data)
    assert digits.isdigit() or not data
    assert log_codes.from_digits(digits) == data


def test_what_goes_is_every_roll_that_counts_or_tonights():
    log = RollLog(MemoryStorage(), clock=iter(
        NOW + timedelta(hours=h) for h in range(-30, 30)).__next__)
    roll = lambda request: skillcheck.resolve(request)  # noqa: E731
    early = log.record_check(roll({"system": "swift", "trait": 4, "skill": 5}))[0]
    secret = log.record_check(roll({"system": "pool", "trait": 4, "skill": 5, "secret": True}))
    seeded = log.record_check(roll({"system": "passages", "base": 30}), seed=3)[0]
    gone = log.record_check(roll({"system": "fluke", "dice_count": 3}))[0]
    log.withdraw(gone["id"])
    for _ in range(12):  # twelve hours later
        log.record_check(roll({"system": "swift", "trait": 3, "skill": 2}))
    late = log.record_check(roll({"system": "swift", "trait": 4, "skill": 5}))[0]
    assert secret[0]["outcome"] == "secret" and seeded["seed"] == 3
    every = sharable(log.items())
    assert [e["id"] for e in every][:1] == [early["id"]] and late in every
    assert len(every) == 14
    tonight = sharable(log.items(), "tonight")
    assert early not in tonight and late in tonight and len(tonight) == 13


def test_the_merge_keeps_the_pages_own_rolls_and_adds_each_roll_once(tonight_200):
    rolls = sharable(tonight_200.items())
    here = RollLog(MemoryStorage())
    mine = [here.record_check(skillcheck.resolve({"system": "swift", "trait": 4, "skill": 5}))[0]
            for _ in range(3)]
    held = rolls[5]  # already added here from its replay link
    here.add_shared({"request": held["request"], "outcome": held["outcome"],
                     "success": held["success"], "system": "flip"}, held["time"],
                    {"name": held["name"], "skill": held["skill"]})
    links = code_links(HOST, rolls)
    codes = fresh_codes()
    assert send(links, here, codes)[-1] == "199 rolls added from another phone, 1 already here."
    assert here.items()[:3] == mine  # never dropped, never marked
    assert len(here) == 203
    assert send(links, here, codes)[-1] == "0 rolls added from another phone, 200 already here."
    assert len(here) == 203
    assert codes.storage.get(CODES_KEY) is None  # a merged set is forgotten

    # The other way: this page's own rolls, coming back from the other phone, are here already.
    back, there = code_links(HOST, sharable(here.items())), evening(200)  # the fixture's twin
    assert send(back, there, fresh_codes())[-1] == (
        "3 rolls added from another phone, 200 already here.")
    assert "shared" not in there.items()[0] and len(there) == 203


def test_a_set_is_kept_across_pages_and_a_code_read_twice_counts_once(tonight_200):
    links = code_links(HOST, sharable(tonight_200.items())[:40])
    assert len(links) >= 2
    storage = MemoryStorage()
    first = Codes(storage, clock=lambda: NOW)
    log = RollLog(storage)
    assert receive(fragment(links[0]), log, first)[0].startswith(
        f"Log from another phone: 1 of {len(links)} codes read")
    again = Codes(storage, clock=lambda: NOW)  # another tab, or the page reloaded
    assert receive(fragment(links[0]), log, again)[0].startswith("Log from another phone: 1 of")
    said = [receive(fragment(link), log, again)[0] for link in links[1:]]
    assert said[-1] == "40 rolls added from another phone, 0 already here."


BAD = {
    "#log=": log_codes.DAMAGED,
    "#log=1": log_codes.DAMAGED,
    "#log=2.AbCdEfGh.1.2.123": log_codes.NEWER,
    "#log=0.AbCdEfGh.1.2.123": log_codes.DAMAGED,
    "#log=1.AbCdEfGh.1.2": log_codes.DAMAGED,
    "#log=1.AbCdEfGh.1.2.123.4": log_codes.DAMAGED,
    "#log=1.AbCdEf.1.2.123": log_codes.DAMAGED,  # a set id too short
    "#log=1.AbCd$fGh.1.2.123": log_codes.DAMAGED,
    "#log=1.AbCdEfGh.0.2.123": log_codes.DAMAGED,
    "#log=1.AbCdEfGh.3.2.123": log_codes.DAMAGED,  # past the count
    "#log=1.AbCdEfGh.01.2.123": log_codes.DAMAGED,  # a leading zero
    f"#log=1.AbCdEfGh.1.{MOST_CODES + 1}.123": log_codes.DAMAGED,
    "#log=1.AbCdEfGh.1.2.12a": log_codes.DAMAGED,
    "#log=1.AbCdEfGh.1.2.": log_codes.DAMAGED,
    "#log=1.AbCdEfGh.1.2.1234": log_codes.DAMAGED,  # no byte count makes four digits
    "#log=1.AbCdEfGh.1.2.999": log_codes.DAMAGED,  # 999 is more than a byte
    "#log=1.AbCdEfGh.1.2.99999999999999999": log_codes.DAMAGED,  # more than 7 bytes
    "#log=1.AbCdEfGh.1.2." + "1" * 5000: log_codes.TOO_BIG,
    "#log=1.AbCdEfGh.1.2." + "0" * 4097: log_codes.TOO_BIG,
    "#r=2.abc": "This is not a code of a shared log.",
}


def test_every_bad_code_is_a_sentence_and_keeps_nothing():
    log = RollLog(MemoryStorage())
    codes = fresh_codes()
    for text, said in BAD.items():
        with pytest.raises(CodeError) as refused:
            read_code(text)
        assert str(refused.value) == said, text
        assert receive(text, log, codes) == (said, [], True), text
    assert codes.storage.get(CODES_KEY) is None and len(log) == 0


@settings(max_examples=300)
@given(st.text(alphabet="0123456789.AbCdEfGh-_x#", max_size=60))
def test_no_fragment_raises_anything_but_a_code_error(tail):
    try:
        read_code("#log=" + tail)
    except CodeError as error:
        assert str(error).endswith(".")


def test_a_misread_or_foreign_code_is_caught_and_the_set_read_again(tonight_200):
    links = code_links(HOST, sharable(tonight_200.items())[:40])
    log, codes = RollLog(MemoryStorage()), fresh_codes()
    head, digits = fragment(links[0]).rsplit(".", 1)
    misread = f"{head}.{str(int(digits[:17]) ^ 1).zfill(17)}{digits[17:]}"  # one bit off
    assert receive(misread, log, codes)[0].startswith("Log from another phone: 1 of")
    said = [receive(fragment(link), log, codes)[0] for link in links[1:]]
    assert said[-1] == log_codes.NOT_FITTING and len(log) == 0
    assert codes.storage.get(CODES_KEY) is None  # forgotten: read again from the first
    batch = fragment(links[0]).split(".")[1]
    foreign = f"#log=1.{batch}.1.{len(links) + 1}.123"  # same set, another count
    receive(fragment(links[0]), log, codes)
    assert receive(foreign, log, codes) == (log_codes.NOT_FITTING, [], True)
    assert [receive(fragment(link), log, codes)[0] for link in links][-1] == (
        "40 rolls added from another phone, 0 already here.")


def test_a_code_storage_refuses_is_said_not_counted(tonight_200):
    class Full(MemoryStorage):
        def set(self, key, value):
            raise StorageFull("quota exceeded")
    link = code_links(HOST, sharable(tonight_200.items())[:40])[0]
    said, _, problem = receive(fragment(link), RollLog(MemoryStorage()), Codes(Full()))
    assert said == "This code could not be kept (browser storage is full): nothing was added."
    assert problem


def test_stored_sets_are_read_tolerantly_and_old_ones_forgotten(tonight_200):
    storage = MemoryStorage()
    storage.set(CODES_KEY, "{not json")
    rolls = sharable(tonight_200.items())
    old, new = code_links(HOST, rolls[:40]), code_links(HOST, rolls[:41])
    log = RollLog(MemoryStorage())
    receive(fragment(old[0]), log, Codes(storage, clock=lambda: NOW - timedelta(days=3)))
    stored = json.loads(storage.get(CODES_KEY))
    assert [held["parts"].keys() for held in stored["sets"].values()] == [{"1"}]
    hacked = {"version": 1, "kind": log_codes.CODES_KIND, "sets": {
        "AbCdEfGh": {"count": 2, "time": "x", "parts": {}},
        "BbCdEfGh": {"count": 2, "time": "2026-12-04T22:00:00Z", "parts": {"9": "123"}},
        **stored["sets"]}}
    storage.set(CODES_KEY, json.dumps(hacked))
    receive(fragment(new[0]), log, Codes(storage, clock=lambda: NOW))
    stored = json.loads(storage.get(CODES_KEY))
    assert list(stored["sets"]) == [fragment(new[0]).split(".")[1]]  # old and bad ones gone


def test_too_many_codes_or_too_long_an_address_is_refused_before_any_is_shown(tonight_200,
                                                                             monkeypatch):
    rolls = sharable(tonight_200.items())
    with pytest.raises(CodeError, match="too long for QR codes"):
        code_links(HOST + "x" * 400, rolls)
    monkeypatch.setattr(log_codes, "MOST_CODES", 3)
    with pytest.raises(CodeError, match=r"would take \d+ QR codes, more than 3"):
        code_links(HOST, rolls)


def test_the_file_merges_the_same_way_and_a_roll_that_does_not_replay_is_left_out(tonight_200):
    rolls = sharable(tonight_200.items())[:20]
    text = log_codes.file_text(rolls)
    assert re.fullmatch(r"skillcheck-rolls-2026-12-04\.json", log_codes.file_name(lambda: NOW))
    read, left_out = read_file(text)
    assert left_out == 0 and [time for _, time, _ in read] == [e["time"] for e in rolls]
    data = json.loads(text)
    data["rolls"][3][2] = "great success" if data["rolls"][3][2] != "great success" else "failure"
    data["rolls"][4] = "not a roll"
    read, left_out = read_file(json.dumps(data))
    assert (len(read), left_out) == (18, 2)
    found, _ = RollLog(MemoryStorage()).merge_shared(read)
    assert log_codes.merged_text(found, left_out) == (
        "18 rolls added from another phone, 0 already here. 2 rolls could not be read "
        "(damaged, or judged otherwise by today’s rules) and were left out.")
    assert read_file(tonight_200.export_json()) is None  # a backup: Import's own way
    assert read_file("{oops") is None
    for bad in ({**data, "version": 2}, {**data, "rolls": {}}):
        with pytest.raises(FileRefused, match=r"^This file could not be read: .*\. Your log"):
            read_file(json.dumps(bad))
