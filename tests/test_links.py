"""Replay links: every system and mode round-trips, short enough for a QR code across a table,
links of the first version still open, and no junk gets past LinkError."""

from __future__ import annotations

import base64
import contextlib
import json
import zlib

import pytest
import skillcheck
from app.links import (
    HONESTY,
    LATEST_TIME,
    LONGEST_FRAGMENT,
    WORDS,
    LinkError,
    compact,
    is_link,
    is_replay,
    open_link,
    read_link,
    share_fragment,
    share_url,
)
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

TIME = "2026-11-29T18:00:00Z"


def side(rank, aspect, cards, **extra):
    return {"rank": rank, "aspect": aspect, "cards": cards, **extra}


# Requests written by hand from the contract, each carrying its draw.
BY_HAND = {
    "flip unopposed": {"system": "flip", "rank": 2, "aspect": 3, "shift": 1, "dtn": 15,
                       "cards": ["7H", "KS"]},
    "flip unopposed keep": {"system": "flip", "mode": "unopposed", "rank": 3, "aspect": 1,
                            "difficulty": "hard", "cards": ["2C", "QD", "9S"], "keep": 2},
    "flip keep low": {"system": "flip", "rank": 0, "aspect": 2, "advanced": True,
                      "familiarity": True, "dtn": 9, "cards": ["4H", "JD"]},
    "flip take 7": {"system": "flip", "rank": 1, "aspect": 4, "dtn": 12, "take7": True},
    "flip secret": {"system": "flip", "rank": 2, "aspect": 3, "secret": True,
                    "cards": ["5S", "8C"]},
    "flip aspect": {"system": "flip", "mode": "aspect", "aspect": 3, "dtn": 12,
                    "cards": ["2C", "9D", "QH"]},
    "flip opposed": {"system": "flip", "mode": "opposed",
                     "initiator": side(2, 3, ["AH", "3D"]), "opponent": side(1, 3, ["6S"])},
    "flip team": {"system": "flip", "mode": "team", "dtn": 15,
                  "primary": side(2, 3, ["JS", "9D"]),
                  "secondaries": [side(1, 2, ["3H"]), side(1, 0, ["2H"])]},
    "pool": {"system": "pool", "trait": 5, "skill": 6, "dr": 3, "bonus": 1, "luck": 2,
             "dice": [7, 2, 9, 6, 10]},
    "pool too difficult": {"system": "pool", "trait": 2, "skill": 7, "dr": 4},
    "pool secret": {"system": "pool", "trait": 4, "skill": 7, "secret": True,
                    "dice": [1, 8, 8, 3]},
    "pool flubbed": {"system": "pool", "trait": 10, "skill": 10, "dr": 2,
                     "dice": [10, 10, 10, 1, 2, 3, 4, 5, 6, 7]},
    "swift": {"system": "swift", "trait": 4, "skill": 5, "luck": 2, "dice": [4, 6]},
    "fluke": {"system": "fluke", "dice_count": 4, "penalty": 2, "plan": 3, "dice": [2, 3, 1, 6]},
    "fluke insured": {"system": "fluke", "dice_count": 3, "insurance": 2, "dice": [1, 1, 5]},
    "fluke challenge": {"system": "fluke", "dice_count": 2, "challenge": True, "dice": [6, 4]},
    "passages": {"system": "passages", "base": 26, "dice": [14]},
    "passages contested": {"system": "passages", "base": 32, "contested": True, "dice": [100]},
    "passages practice": {"system": "passages", "base": 40, "practice": True},
}


def engine_ready(system: str) -> bool:
    """Whether the engine helper's module for `system` has landed (not the pending stand-in)."""
    try:
        skillcheck.resolve({"system": system})
    except skillcheck.InvalidRequest as error:
        return error.field != "system"
    return True


def resolved(request: dict) -> dict:
    if not engine_ready(request["system"]):
        pytest.skip(f"the {request['system']} engine is not written yet")
    return skillcheck.resolve(request)


def pack(document: object, raw: bytes | None = None, version: int = 1) -> str:
    """A link packed by hand: version 1's {"q", "t", "o"}, or version 2's list, with its words."""
    data = raw if raw is not None else json.dumps(document).encode()
    packer = zlib.compressobj(9, zlib.DEFLATED, -15, zdict=WORDS if version == 2 else b"")
    packed = packer.compress(data) + packer.flush()
    return f"#r={version}." + base64.urlsafe_b64encode(packed).rstrip(b"=").decode()


SECONDS = 1_795_975_200  # TIME, as version 2 carries it


def at_default(request: dict) -> list[str]:
    """The fields of `request` (its sides' too) that hold their rules' default."""
    defaults = {spec["name"]: spec["default"] for spec in
                skillcheck.SYSTEMS[request["system"]]["fields"] if spec.get("default") is not None}
    sides = [request, *(value for value in request.values() if isinstance(value, dict)),
             *(side for side in request.get("secondaries", ()))]
    return [key for side in sides for key, value in side.items() if key != "mode"
            and key in defaults and value == defaults[key] and type(value) is type(defaults[key])]


@pytest.mark.parametrize("name", BY_HAND)
def test_a_link_carries_the_request_time_and_outcome_exactly(name):
    request = BY_HAND[name]
    fragment = share_fragment({"request": request, "outcome": "success"}, TIME)
    assert fragment.startswith("#r=2.")
    assert read_link(fragment) == {"request": compact(request), "time": TIME,
                                   "outcome": "success", "seeded": False, "who": None}
    assert read_link(fragment[1:])["request"] == compact(request)  # with or without the "#"
    assert json.loads(zlib.decompressobj(-15, zdict=WORDS).decompress(base64.urlsafe_b64decode(
        fragment[5:] + "=" * (-len(fragment[5:]) % 4)))) == [compact(request), SECONDS, "success"]


def test_a_link_leaves_out_what_the_rules_read_as_their_default_but_system_and_mode():
    request = {"system": "flip", "mode": "unopposed", "rank": 2, "aspect": 3, "flip": 0,
               "shift": 1, "take7": False, "specialization": True, "dtn": 15, "cards": ["7H"]}
    assert compact(request) == {"system": "flip", "mode": "unopposed", "rank": 2, "aspect": 3,
                                "shift": 1, "specialization": True, "dtn": 15, "cards": ["7H"]}
    team = resolved({"system": "flip", "mode": "team", "dtn": 15, "primary": side(2, 3, None),
                     "secondaries": [side(1, 2, None, flip=0, advanced=False)] * 3})["request"]
    assert at_default(team) and not at_default(compact(team))
    assert compact(team)["secondaries"][0] == {"rank": 1, "aspect": 2,
                                               "cards": team["secondaries"][0]["cards"]}
    fluke = {"system": "fluke", "dice_count": 3, "base": 10, "penalty": 0, "insurance": 0}
    assert compact(fluke) == {"system": "fluke", "dice_count": 3}
    # a number is not a flag: flip 0 goes, but a flag's False is not a 0, nor True a 1
    assert compact({"system": "pool", "trait": 3, "skill": 4, "bonus": False, "secret": 0}) == {
        "system": "pool", "trait": 3, "skill": 4, "bonus": False, "secret": 0}
    unknown = {"system": "chess", "flip": 0, "mode": "blitz"}
    assert compact(unknown) == unknown
    assert compact({"system": ["flip"], "flip": 0}) == {"system": ["flip"], "flip": 0}


@pytest.mark.parametrize("name", BY_HAND)
def test_opening_a_link_shows_the_same_result_without_rolling(name):
    result = resolved(BY_HAND[name])
    replay = open_link(share_fragment(result, TIME))
    assert replay == {"result": result, "time": TIME, "seeded": False, "who": None}
    assert skillcheck.resolve(read_link(share_fragment(result, TIME))["request"]) == result


SEEDED = [
    {"system": "flip", "rank": 3, "aspect": 2, "dtn": 15},
    {"system": "flip", "mode": "aspect", "aspect": 4, "difficulty": "average"},
    {"system": "flip", "mode": "opposed", "initiator": {"rank": 2, "aspect": 3},
     "opponent": {"rank": 3, "aspect": 1, "specialization": True}},
    {"system": "flip", "mode": "team", "dtn": 18, "primary": {"rank": 2, "aspect": 3},
     "secondaries": [{"rank": 1, "aspect": 2}] * 8},
    {"system": "pool", "trait": 7, "skill": 5, "dr": 4, "bonus": 2, "luck": 3},
    {"system": "swift", "trait": 3, "skill": 4, "bonus": 1, "luck": 5},
    {"system": "fluke", "dice_count": 20, "insurance": 20},
    {"system": "passages", "base": 77},
]


@pytest.mark.parametrize("request_", SEEDED, ids=lambda r: r["system"] + " " + r.get("mode", ""))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_engine_results_replay_from_their_links(request_, seed):
    result = resolved({**request_, "seed": seed})
    fragment = share_fragment(result, TIME)
    assert len(fragment) < 300  # fits a chat message, even a team of eight
    assert open_link(fragment)["result"] == result


def sides(mode: str, side: st.SearchStrategy) -> st.SearchStrategy:
    """A flip's sides for `mode`, each drawn from `side`."""
    if mode == "opposed":
        return st.fixed_dictionaries({"initiator": side, "opponent": side})
    if mode == "team":
        return st.fixed_dictionaries({"primary": side,
                                      "secondaries": st.lists(side, min_size=1, max_size=8)})
    return st.just({})


def any_request(system: str) -> st.SearchStrategy:
    """Requests of `system` from its own field specs: any field left out or given a value near
    its default (small, so most requests are valid), flip sides drawn the same way."""
    fields = {}
    for spec in skillcheck.SYSTEMS[system]["fields"]:
        if spec["name"] in ("mode", "keep"):
            continue
        if spec["kind"] == "whole":
            fields[spec["name"]] = st.integers(max(spec["min"], -3), min(spec["max"], 7))
        elif spec["kind"] == "flag":
            fields[spec["name"]] = st.booleans()
        elif spec["kind"] == "hex":
            fields[spec["name"]] = st.text("0123456789abcdef", min_size=spec["min"],
                                           max_size=spec["max"])
        else:
            fields[spec["name"]] = st.sampled_from(spec["options"])
    flat = st.fixed_dictionaries({"system": st.just(system)}, optional=fields)
    if system != "flip":
        return flat
    return st.sampled_from(skillcheck.SYSTEMS["flip"]["modes"]).flatmap(
        lambda mode: st.tuples(flat, sides(mode, st.fixed_dictionaries({}, optional=fields)))
        .map(lambda parts: {**parts[0], **parts[1], "mode": mode}))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.sampled_from(sorted(skillcheck.SYSTEMS)).flatmap(any_request), st.randoms())
def test_any_check_of_any_system_replays_from_its_short_link_as_it_was(request_, rng):
    try:
        result = skillcheck.resolve(request_, rng)
    except skillcheck.InvalidRequest:
        assume(False)
    seeded = rng.random() < 0.5
    fragment = share_fragment(result, TIME, seeded)
    assert not at_default(read_link(fragment)["request"])
    assert open_link(fragment) == {"result": result, "time": TIME, "seeded": seeded, "who": None}


@pytest.mark.parametrize("name", BY_HAND)
def test_links_of_the_first_version_still_open(name):
    result = resolved(BY_HAND[name])
    link = pack({"q": result["request"], "t": TIME, "o": result["outcome"]})
    assert link.startswith("#r=1.")
    assert open_link(link) == {"result": result, "time": TIME, "seeded": False, "who": None}


# Links as they were shared, each kept here as it was: no later change to either format (version
# 2's dictionary above all) may stop them opening.
KEPT_LINKS = {
    "#r=1.DY3BCsIwEET_Zc5bSCJGu9_hyeIhjRFCV6NJeiil_-7CwBze8GbHD7yjba2nNxjfUgSEXkPu4DOhLVkE7Alz-a"
    "wNbAmyxgXsFKZYk-5eQVoiPCv4pJVjAk8XcjSSJ2sehxpV7ozzg7WDG2_2ysZo7npWFM2hJtlw_AE": "pool",
    "#r=1.vZE9TwMxDIb_i-dUSlLxUc8MqCtMRQzWxSesJrkjSZGOqv8dB8SxMFfyYL_-emSf4R3wDHWpjRMgjFFmMJCmwBo1"
    "pqRRaBnQ3RiYiyQqS-8olI-A3gDVmYcGuDU_zWgN1DcZ27fX6Mh3gCPFyqprqVCUT2oy5VWm8EF54LAKIyWJQkXasmoDlV"
    "ABX2D_pEi7B3i96EAephy0kHvql8r9UflrUW0fO9A_BPZaBL4T9KPoBvDW326c2_jds7tHa9UOerapv5gkngrD5Qs":
        "flip team",
    "#r=2.iyYiJZphJkEjeOKEpj1zYE6z1DGDpD5Dc0tTS3NTIwMDeAaLBQA": "pool",
    "#r=2.i6ZW8MGt9AoG6rJ0AVlCTJgiNBp7IDsMSZEBkiIjkCKgMkNzS1NLc1MjAwNEao0FAA": "flip team",
}


@pytest.mark.parametrize("link", KEPT_LINKS)
def test_links_shared_before_open_as_they_did(link):
    assert open_link(link) == {"result": resolved(BY_HAND[KEPT_LINKS[link]]), "time": TIME,
                               "seeded": False, "who": None}


# How long a link gets on a realistic host, by the largest inputs a table uses (ranks and pools
# near the top of what players have, every modifier set): the QR code holding it must stay at
# version 10 or below at error correction M, which holds 213 bytes (tests/test_qr.py).
HOST = "https://example.github.io/skillcheck/"
MOST_BYTES = 213


def realistic(rank, aspect, **extra):
    return {"rank": rank, "aspect": aspect, **extra}


LONGEST = {
    "flip unopposed": {"system": "flip", "rank": 4, "aspect": 3, "shift": 1, "dtn": 15,
                       "specialization": True},
    "flip secret": {"system": "flip", "rank": 4, "aspect": 3, "secret": True},
    "flip aspect": {"system": "flip", "mode": "aspect", "aspect": 4, "flip": 1,
                    "difficulty": "near impossible"},
    "flip opposed": {"system": "flip", "mode": "opposed",
                     "initiator": realistic(4, 3, specialization=True, skill="Animal Handling"),
                     "opponent": realistic(3, 4)},
    "flip team of four": {"system": "flip", "mode": "team", "dtn": 18,
                          "primary": realistic(4, 3, specialization=True, skill="Intimidation"),
                          "secondaries": [realistic(3, 2), realistic(2, 3), realistic(3, 1)]},
    "pool": {"system": "pool", "trait": 10, "skill": 7, "dr": 4, "bonus": 3, "luck": 12},
    "pool secret": {"system": "pool", "trait": 10, "skill": 7, "secret": True, "bonus": 3},
    "swift": {"system": "swift", "trait": 6, "skill": 7, "bonus": 2, "luck": 12},
    "fluke": {"system": "fluke", "dice_count": 20, "penalty": -3, "plan": 2, "insurance": 4},
    "fluke challenge": {"system": "fluke", "dice_count": 6, "challenge": True},
    "passages": {"system": "passages", "base": 77, "contested": True},
}


def longest_link(request: dict) -> str:
    """The longest replay link of `request` over twenty draws, at HOST."""
    return max((share_url(HOST, resolved({**request, "seed": seed}), TIME) for seed in range(20)),
               key=lambda link: len(link.encode()))


@pytest.mark.parametrize("name", LONGEST)
def test_every_system_and_mode_makes_a_link_a_version_10_qr_code_holds(name):
    assert len(longest_link(LONGEST[name]).encode()) <= MOST_BYTES


def test_share_url_replaces_any_fragment_of_the_page_address():
    result = {"request": BY_HAND["passages"], "outcome": "success"}
    url = share_url("https://example.org/app/?x=1#system=flip", result, TIME)
    assert url.startswith("https://example.org/app/?x=1#r=2.")
    assert read_link(url.split("#", 1)[1])["request"] == BY_HAND["passages"]


@pytest.mark.parametrize(("page", "start"), [
    ("https://example.org/app/?seed=42#system=flip", "https://example.org/app/#r=2."),
    ("https://example.org/app/?x=1&seed=42&seed=7&y=2", "https://example.org/app/?x=1&y=2#r=2."),
])
def test_a_shared_link_never_carries_the_pages_seed(page, start):
    url = share_url(page, {"request": BY_HAND["passages"], "outcome": "success"}, TIME)
    assert url.startswith(start) and "seed" not in url


def test_is_replay_tells_links_from_other_page_state():
    assert is_replay("#r=1.abc") and is_replay("r=9") and not is_replay("#system=flip")
    assert not is_replay("") and not is_replay(None)


def test_a_seeded_roll_says_so_in_its_link_but_never_its_seed():
    result = skillcheck.resolve(BY_HAND["pool"])
    url = share_url("https://example.org/app/?seed=42#system=pool", result, TIME, seeded=True)
    assert "seed" not in url and "42" not in url.partition("#")[0]
    opened = open_link(url[url.index("#"):])
    assert opened["seeded"] is True and opened["result"] == result
    assert open_link(share_fragment(result, TIME))["seeded"] is False  # old links: not seeded


def test_a_seeded_version_1_link_still_says_so():
    document = {"q": BY_HAND["pool"], "t": TIME, "o": "basic", "s": True}
    assert read_link(pack(document))["seeded"] is True


@pytest.mark.parametrize("mark", ["yes", 1, None, {}, False])
def test_a_seeded_mark_that_is_not_true_is_refused(mark):
    version_2 = [BY_HAND["pool"], SECONDS, "basic", mark]
    for fragment in (pack(version_2, version=2), pack(version_2 + [True], version=2)):
        with pytest.raises(LinkError, match="does not hold a check"):
            read_link(fragment)
    if mark is not False:  # version 1 wrote "s" only when true, but read false as not seeded
        with pytest.raises(LinkError, match="does not hold a check"):
            read_link(pack({"q": BY_HAND["pool"], "t": TIME, "o": "basic", "s": mark}))


@pytest.mark.parametrize(("fragment", "link"), [
    ("#system=flip", True), ("#system=pool&mode=x", True), ("#r=1.abc", True), ("#r=", True),
    ("#result-heading", False), ("#odds-heading", False), ("#mode=opposed", False), ("", False),
    ("#", False), ("#reset", False), ("#systemflip", False),
])
def test_only_a_system_or_a_replay_is_a_link_to_open(fragment, link):
    assert is_link(fragment) is link


def test_the_honesty_note_says_a_link_proves_nothing():
    assert "does not prove" in HONESTY


# ---- junk ----------------------------------------------------------------------------------------


GOOD = share_fragment({"request": BY_HAND["pool"], "outcome": "basic"}, TIME)

JUNK = {
    "not a link": ("#system=flip", "not a replay link"),
    "no version": ("#r=" + GOOD[5:], "damaged"),
    "version 3": ("#r=3." + GOOD[5:], "newer version"),
    "version 2 labelled 1": ("#r=1." + GOOD[5:], "damaged"),  # no dictionary: no words
    "version 0": ("#r=0." + GOOD[5:], "damaged"),
    "version word": ("#r=one." + GOOD[5:], "damaged"),
    "5,000-digit version": ("#r=" + "9" * 5000 + "." + GOOD[5:], "damaged"),
    "unicode digits": ("#r=١." + GOOD[5:], "damaged"),
    "empty payload": ("#r=1.", "damaged"),
    "truncated": (GOOD[:-6], "damaged"),
    "cut to one char": (GOOD[:6], "damaged"),
    "bad alphabet": (GOOD[:10] + "+/" + GOOD[12:], "damaged"),
    "padding": (GOOD + "==", "damaged"),
    "random bytes": ("#r=1." + "ÿ\x00\u2603<>" * 9, "damaged"),
    "not deflate": ("#r=1." + base64.urlsafe_b64encode(b"hello world!").decode(), "damaged"),
    "trailing data": (pack(None, raw=b"{}")[:-1] + "AAAAAA", "damaged"),
    "oversized": ("#r=1." + "A" * (LONGEST_FRAGMENT + 4), "too long"),
    "deflate bomb": (pack(None, raw=b"[" + b" " * 5_000_000 + b"]"), "more than a check"),
    "not JSON": (pack(None, raw=b"hello, not json"), "does not hold a check"),
    "not UTF-8": (pack(None, raw=b'{"q": "\xff"}'), "does not hold a check"),
    "nested deep": (pack(None, raw=b"[" * 5000 + b"]" * 5000), "does not hold a check"),
    "JSON list": (pack([1, 2, 3]), "does not hold a check"),
    "request not object": (pack({"q": [1], "t": TIME, "o": "basic"}), "does not hold a check"),
    "no time": (pack({"q": BY_HAND["pool"], "o": "basic"}), "does not hold a check"),
    "bad time": (pack({"q": BY_HAND["pool"], "t": "yesterday", "o": "basic"}),
                 "does not hold a check"),
    "outcome number": (pack({"q": BY_HAND["pool"], "t": TIME, "o": 3}), "does not hold a check"),
    "unknown system": (pack({"q": {"system": "chess"}, "t": TIME, "o": "mate"}), "not valid"),
    "bad field": (pack({"q": {**BY_HAND["passages"], "base": 500}, "t": TIME, "o": "success"}),
                  "not valid .base:"),
    "wrong draw": (pack({"q": {**BY_HAND["passages"], "dice": [1, 2]}, "t": TIME,
                         "o": "success"}), "not valid .dice:"),
    "draw removed": (pack({"q": {"system": "passages", "base": 26}, "t": TIME, "o": "success"}),
                     "lost its cards or dice"),
    "outcome edited": (pack({"q": BY_HAND["passages"], "t": TIME, "o": "double down"}),
                       "it was edited"),
    # version 2: a list [request, seconds, outcome], deflated with its dictionary
    "v2 trailing data": (pack(None, raw=b"[]", version=2)[:-1] + "AAAAAA", "damaged"),
    "v2 deflate bomb": (pack(None, raw=b"[" + b" " * 5_000_000 + b"]", version=2),
                        "more than a check"),
    "v2 not JSON": (pack(None, raw=b"hello, not json", version=2), "does not hold a check"),
    "v2 holding version 1's object": (pack({"q": BY_HAND["pool"], "t": TIME, "o": "barely"},
                                           version=2), "does not hold a check"),
    "v2 two items": (pack([BY_HAND["pool"], SECONDS], version=2), "does not hold a check"),
    "v2 a fourth item not true": (pack([BY_HAND["pool"], SECONDS, "barely", 1], version=2),
                      "does not hold a check"),
    "v2 request list": (pack([[1], SECONDS, "barely"], version=2), "does not hold a check"),
    "v2 time before 1970": (pack([BY_HAND["pool"], -1, "barely"], version=2),
                            "does not hold a check"),
    "v2 time after 9999": (pack([BY_HAND["pool"], LATEST_TIME + 1, "barely"], version=2),
                           "does not hold a check"),
    "v2 time a bool": (pack([BY_HAND["pool"], True, "barely"], version=2),
                       "does not hold a check"),
    "v2 time a fraction": (pack([BY_HAND["pool"], SECONDS + 0.5, "barely"], version=2),
                           "does not hold a check"),
    "v2 time as text": (pack([BY_HAND["pool"], TIME, "barely"], version=2),
                        "does not hold a check"),
    "v2 outcome number": (pack([BY_HAND["pool"], SECONDS, 3], version=2),
                          "does not hold a check"),
    "v2 bad field": (pack([{**BY_HAND["pool"], "trait": 11}, SECONDS, "barely"], version=2),
                     "not valid .trait:"),
    "v2 draw removed": (pack([{"system": "pool", "trait": 5, "skill": 6, "dr": 3}, SECONDS,
                              "barely"], version=2), "lost its cards or dice"),
    "v2 outcome edited": (pack([BY_HAND["pool"], SECONDS, "critical"], version=2),
                          "it was edited"),
}


def test_the_last_second_a_link_can_carry_opens():
    link = pack([BY_HAND["passages"], LATEST_TIME, "success"], version=2)
    assert open_link(link)["time"] == "9999-12-31T23:59:59Z"
    assert read_link(pack([BY_HAND["passages"], 0, "success"], version=2))["time"] == (
        "1970-01-01T00:00:00Z")


@pytest.mark.parametrize("name", JUNK)
def test_junk_gets_a_clear_message(name):
    fragment, words = JUNK[name]
    with pytest.raises(LinkError) as caught:
        open_link(fragment)
    assert words.split(" .")[0] in str(caught.value)
    if " ." in words:
        assert f"({words.split(' .')[1]}" in str(caught.value)
    assert str(caught.value).endswith((".", ")", ":"))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=300))
def test_fuzz_any_text_after_the_prefix_only_raises_link_error(tail):
    for fragment in ("#r=2." + tail, "#r=1." + tail, "#r=" + tail, tail):
        with contextlib.suppress(LinkError):
            open_link(fragment)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=400), st.sampled_from([1, 2]))
def test_fuzz_any_inflated_bytes_only_raise_link_error(raw, version):
    with pytest.raises(LinkError):
        open_link(pack(None, raw=raw, version=version))


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=5),
    max_leaves=20)

FIELD_NAMES = st.sampled_from(["system", "mode", "rank", "aspect", "flip", "shift", "dtn",
                               "difficulty", "cards", "keep", "take7", "secret", "initiator",
                               "opponent", "primary", "secondaries", "trait", "skill", "dr",
                               "bonus", "luck", "dice", "dice_count", "base", "penalty", "plan",
                               "challenge", "insurance", "contested", "practice", "seed"])

@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.fixed_dictionaries({"system": st.sampled_from(sorted(skillcheck.SYSTEMS))}),
       st.dictionaries(FIELD_NAMES, JSON, max_size=8), st.text(max_size=12) | JSON,
       st.sampled_from([1, 2]))
def test_fuzz_well_packed_links_of_any_request_only_raise_link_error(base, fields, outcome,
                                                                     version):
    request = {**fields, **base}
    document = ({"q": request, "t": TIME, "o": outcome} if version == 1
                else [request, SECONDS, outcome])
    try:
        replay = open_link(pack(document, version=version))
    except LinkError:
        return
    assert replay["result"]["outcome"] == outcome and replay["time"] == TIME


# ---- whose roll a link says it is (issue 38.2) --------------------------------------------------

def test_a_link_names_whose_roll_it_is_and_reads_it_back():
    result = skillcheck.resolve({"system": "pool", "trait": 5, "skill": 7, "dr": 3,
                                 "dice": [6, 3, 7, 1, 9]})
    who = {"name": "Mara", "skill": "Lockpicking"}
    for seeded in (False, True):
        link = open_link(share_fragment(result, "2026-12-04T12:00:00Z", seeded, who))
        assert (link["who"], link["seeded"], link["result"]) == (who, seeded, result)
    named = open_link(share_fragment(result, "2026-12-04T12:00:00Z",
                                                 who={"name": "Mara"}))
    assert named["who"] == {"name": "Mara"}
    bare = open_link(share_fragment(result, "2026-12-04T12:00:00Z"))
    assert bare["who"] is None


@pytest.mark.parametrize("marks", [[False, "Mara"], [False, {"n": 3}], [False, {"x": "Mara"}],
                                   [1, {"n": "Mara"}], [True, {"n": "M" * 131}],
                                   [True, {"n": "Mara"}, True], [False]])
def test_a_link_whose_name_is_not_a_name_is_refused(marks):
    document = [{"system": "pool", "trait": 5, "skill": 7, "dr": 3, "dice": [6, 3, 7, 1, 9]},
                0, "critical", *marks]
    packer = zlib.compressobj(9, zlib.DEFLATED, -15, zdict=WORDS)
    packed = packer.compress(json.dumps(document).encode()) + packer.flush()
    fragment = "#r=2." + base64.urlsafe_b64encode(packed).rstrip(b"=").decode()
    with pytest.raises(LinkError, match="does not hold a check"):
        read_link(fragment)
