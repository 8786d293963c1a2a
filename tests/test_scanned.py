"""What "Scan a code" makes of a code (app/scanned.py): a link to this very page that the page
opens (a roll's, a GM's, a shared log's) is opened by its fragment, a shared log's codes one
after another; anything else is named plainly, quoting little of it, and a camera refused says
what to do instead."""

from __future__ import annotations

import pytest
import skillcheck
from app import gm_links
from app.links import share_url
from app.log_codes import code_links, sharable
from app.scanned import (
    INSTEAD,
    NOT_OURS,
    SHOWN_TEXT,
    Sequence,
    camera_problem,
    fragment_of,
    said_of,
)
from evenings import evening
from hypothesis import given
from hypothesis import strategies as st

PAGE = "https://table.example/skillcheck/"
ROLL = skillcheck.resolve({"system": "pool", "trait": 5, "skill": 7, "dr": 3,
                           "dice": [6, 3, 7, 1, 9]})
LINK = share_url(PAGE, ROLL, "2026-11-29T18:00:00Z", who={"name": "Mara"})
FRAGMENT = "#" + LINK.partition("#")[2]


@pytest.mark.parametrize("page", [
    PAGE, PAGE + "index.html", PAGE + "?seed=4", PAGE + "#system=flip", PAGE + FRAGMENT,
    "HTTPS://Table.Example/skillcheck/",
])
def test_a_replay_link_to_this_page_opens_by_its_fragment(page):
    assert fragment_of(LINK, page) == FRAGMENT
    assert fragment_of(f"  {LINK}\n", page) == FRAGMENT  # a reader's stray white space


def test_every_kind_of_the_pages_links_opens():
    assert fragment_of(PAGE + "#system=flip&mode=team", PAGE) == "#system=flip&mode=team"
    assert fragment_of(PAGE + "index.html#r=2.damaged", PAGE) == "#r=2.damaged"  # says so
    sealed = skillcheck.commit("pool", 4, "0" * 32)
    for gm in (gm_links.commit_fragment("pool", sealed["commitment"]),
               gm_links.reveal_fragment("pool", 4, sealed["salt"])):  # the GM's, by the scanner
        assert fragment_of(PAGE + gm, PAGE) == gm


def test_a_shared_logs_codes_are_opened_once_each_until_the_last():
    codes = [fragment_of(link, PAGE) for link in code_links(PAGE, sharable(evening(60).items()))]
    assert len(codes) >= 3 and None not in codes
    sequence = Sequence()
    fresh, said, done = sequence.take(codes[1])
    assert (fresh, done) == (True, False)
    assert said == f"Code 2 of {len(codes)} read, {len(codes) - 1} more to go: point at the next."
    assert sequence.take(codes[1])[::2] == (False, False)  # the same code, still in front
    for code in codes[2:]:
        assert sequence.take(code)[::2] == (True, False)
    fresh, said, done = sequence.take(codes[0])
    assert (fresh, done) == (True, True) and said.endswith("every code is read.")


def test_any_other_link_ends_the_scan_and_a_damaged_code_is_opened_to_be_named():
    assert Sequence().take(FRAGMENT) == (True, "", True)
    fresh, said, done = Sequence().take("#log=1.damaged")
    assert fresh and done and "damaged" in said


@pytest.mark.parametrize("code", [
    LINK.replace("https:", "http:"),  # another origin: scheme,
    LINK.replace("table.example", "table.example:8443"),  # port,
    LINK.replace("table.example", "evil.example"),  # host
    LINK.replace("/skillcheck/", "/other/"),  # another page on the same host
    LINK.replace("/skillcheck/", "/skillcheck/sub/"),
    PAGE, PAGE + "#result-heading",  # this page, but no link it opens
    "javascript:alert(1)//" + FRAGMENT, "data:text/html,<b>x</b>" + FRAGMENT,
    FRAGMENT, "r=2.abc", "", "WIFI:S:cafe;T:WPA;P:secret;;",
])
def test_nothing_else_is_opened(code):
    assert fragment_of(code, PAGE) is None


def test_what_is_not_opened_is_named():
    assert said_of("https://evil.example/menu#r=2.x", PAGE) == (
        f"{NOT_OURS}: it is a link to evil.example.")
    assert said_of(PAGE + "#result-heading", PAGE).startswith(
        "This code is a link to Skill Check, but to nothing it opens")
    assert said_of("WIFI:S:cafe;T:WPA;;", PAGE) == (
        f"{NOT_OURS}: it holds the text “WIFI:S:cafe;T:WPA;;”.")
    assert said_of(" \n", PAGE) == f"{NOT_OURS}: it is empty."


@given(st.text())
def test_what_is_said_quotes_little_and_on_one_line(text):
    said = said_of(text, PAGE)
    assert said.startswith(("This code is", NOT_OURS))
    assert "\n" not in said and len(said) <= len(NOT_OURS) + SHOWN_TEXT + 30


@pytest.mark.parametrize(("name", "starts"), [
    ("NotAllowedError", "The camera is not allowed for this page (permission denied)."),
    ("NotFoundError", "This device has no camera the page can use."),
    ("NotReadableError", "The camera is in use by another app."),
    ("", "The camera could not be started."), ("SomethingNew", "The camera could not be started."),
])
def test_a_camera_refused_says_why_and_what_to_do_instead(name, starts):
    assert camera_problem(name) == f"{starts} {INSTEAD}"
