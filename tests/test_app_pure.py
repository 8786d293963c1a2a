"""The page's pure Python (app.forms, app.result_html, app.pieces_svg) under CPython. The forms
are drawn from the engine's own field descriptions at build time (tests/test_page_macros.py)."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from urllib.parse import parse_qs

import pytest
import skillcheck
from app import forms, pieces_svg, result_html, systems
from hypothesis import given
from hypothesis import strategies as st
from skillcheck.draw import DECK, card_value

from tools.page_macros import expand

ROOT = Path(__file__).resolve().parents[1]
INDEX = expand((ROOT / "index.html").read_text(encoding="utf-8"))  # the page the browser gets


# --- forms: controls → request ----------------------------------------------------------------

@pytest.mark.parametrize(("kind", "raw", "value"), [
    ("number", "7", 7), ("number", "-3", -3), ("number", " 12 ", 12), ("number", "", None),
    ("number", "2.5", "2.5"), ("number", "1e3", "1e3"),
    ("checkbox", True, True), ("checkbox", False, False),
    ("flag", "Climbing", True), ("flag", "", False),
    ("select-one", "hard", "hard"), ("select-one", "", None),
    ("list", "7h, 10s QD", ["7H", "10S", "QD"]), ("list", "3 9,10", [3, 9, 10]),
    ("list", " ", None),
])
def test_each_kind_of_control_becomes_json(kind, raw, value):
    assert forms.value_of(kind, raw) == value


def test_values_of_is_the_inverse_of_request_from_for_what_a_form_holds():
    controls = [("dtn", "number", "15"), ("difficulty", "select-one", "hard"),
                ("primary.rank", "number", "4"), ("primary.take7", "checkbox", False),
                ("secondaries.0.rank", "number", "1"), ("secondaries.1.rank", "number", "3")]
    request = forms.request_from("flip", "team", controls)
    assert forms.values_of(request) == {name: raw for name, _, raw in controls}
    drawn = {**request, "cards": ["7H"], "primary": {**request["primary"], "cards": ["2C"]}}
    assert forms.values_of(drawn) == forms.values_of(request)  # the draw is not the form's


def test_dotted_names_nest_and_numbered_ones_become_lists():
    request = forms.request_from("flip", "team", [
        ("difficulty", "select-one", "hard"), ("primary.rank", "number", "2"),
        ("secondaries.1.aspect", "number", "4"), ("secondaries.0.aspect", "number", "1"),
        ("secondaries.0.cards", "list", "ah"), ("dtn", "number", ""),
    ])
    assert request == {"system": "flip", "mode": "team", "difficulty": "hard",
                       "primary": {"rank": 2},
                       "secondaries": [{"aspect": 1, "cards": ["AH"]}, {"aspect": 4}]}
    assert forms.request_from("pool", None, []) == {"system": "pool"}


def test_text_that_is_not_a_number_reaches_the_engine_which_names_the_field():
    request = forms.request_from("passages", None, [("base", "number", "4.5")])
    with pytest.raises(skillcheck.InvalidRequest, match="^base: "):
        skillcheck.resolve(request)


@pytest.mark.parametrize(("kind", "text"), [("number", "9" * 5000), ("list", "3 " + "1" * 5000),
                                           ("number", "-" + "1" * 30), ("number", "٣")])
def test_a_number_too_long_for_int_reaches_the_engine_as_text(kind, text):
    value = forms.value_of(kind, text)
    long_one = value if kind == "number" else value[1]
    assert isinstance(long_one, str)  # the engine names the field; int() never saw it


def test_an_empty_number_is_left_out_so_the_engine_says_it_is_needed():
    request = forms.request_from("pool", None, [("trait", "number", ""), ("skill", "number", "5"),
                                                ("dr", "number", "2")])
    with pytest.raises(skillcheck.InvalidRequest, match="^trait: is needed"):
        skillcheck.odds(request)


def test_a_field_of_a_request_is_set_by_its_path_leaving_the_original():
    request = {"system": "flip", "primary": {"cards": ["2S"]}, "secondaries": [{"rank": 1}]}
    assert forms.with_value(request, "secondaries.0.keep", 1)["secondaries"] == [
        {"rank": 1, "keep": 1}]
    assert forms.with_value(request, "keep", 0)["keep"] == 0
    assert request == {"system": "flip", "primary": {"cards": ["2S"]},
                       "secondaries": [{"rank": 1}]}


@pytest.mark.parametrize(("field", "title"), [
    ("primary.cards", "Primary"), ("secondaries.1.cards", "Helper 2"), ("initiator", "Initiator"),
])
def test_sides_are_named_as_the_page_names_them(field, title):
    assert result_html.side_title(field) == title


@pytest.mark.parametrize(("text", "sep", "moved"), [
    ("secondaries.3.rank", ".", "secondaries.1.rank"),
    ("flip-team-secondaries-3-rank", "-", "flip-team-secondaries-1-rank"),
    ("flip-team-secondaries-3-rank-error", "-", "flip-team-secondaries-1-rank-error"),
    ("primary.rank", ".", "primary.rank"),
    ("notsecondaries.3.rank", ".", "notsecondaries.3.rank"),
])
def test_renumbering_moves_only_the_groups_index(text, sep, moved):
    assert forms.renumbered(text, "secondaries", 1, sep) == moved


def test_links_name_a_system_and_mode_and_round_trip():
    assert forms.route("#system=flip&mode=opposed") == {"system": "flip", "mode": "opposed"}
    assert forms.route("#system=passages") == {"system": "passages"}
    assert forms.route("") == {}
    assert forms.route(forms.fragment("flip", "team")) == {"system": "flip", "mode": "team"}
    assert forms.fragment("pool", None) == "#system=pool"


@pytest.mark.parametrize(("query", "seed"), [
    ("?seed=42", 42), ("?x=1&seed=7", 7), ("", None), ("?seed=abc", None), ("?seed=-1", None),
    ("?seed=٣", None), ("?seed=4%D9%A3", None), ("?seed=" + "9" * 5000, None),
    (f"?seed={2**63 - 1}", 2**63 - 1), (f"?seed={2**63}", None),
])
def test_the_seed_parameter(query, seed):
    assert forms.seed_from(query) == seed


LINK_TEXT = st.text(alphabet=st.sampled_from("&=+%;#?aZ09cfCF é€\n"), max_size=40)


@given(LINK_TEXT)
def test_link_parameters_read_as_parse_qs_reads_them(text):
    assert forms.parameters(text) == parse_qs(text)


@pytest.mark.parametrize("text", ["seed=%34%32", "system=%66lip&mode=team", "a=%C3%A9+%E2",
                                  "x=%zz"])
def test_link_parameters_decode_escapes_as_parse_qs_does(text):
    assert forms.parameters(text) == parse_qs(text)


def test_reading_links_imports_no_urllib():
    """urllib.parse brings ipaddress with it: about 0.1 s of a normal boot under Pyodide."""
    probe = ("import sys, app.forms, app.links; app.forms.route('#system=pool');"
             "app.forms.seed_from('?seed=1'); print(sorted(name for name in sys.modules"
             " if name.startswith(('urllib', 'ipaddress'))))")
    found = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                           check=True, cwd=ROOT / "py").stdout
    assert found.strip() == "[]"


# --- report: the odds as shown ----------------------------------------------------------------

@pytest.mark.parametrize(("p", "shown"), [
    (Fraction(1, 2), "50.0 %"), (Fraction(1), "100.0 %"), (Fraction(0), "0.0 %"),
    (Fraction(1, 3), "33.3 %"), (Fraction(2, 3), "66.7 %"), (Fraction(1, 10_000), "<0.1 %"),
    (Fraction(9999, 10_000), ">99.9 %"), (Fraction(1, 2000), "0.1 %"),
    (Fraction(1999, 2000), ">99.9 %"), (Fraction(1, 8), "12.5 %"), (Fraction(1, 16), "6.3 %"),
])
def test_percentages_never_round_a_possible_outcome_away(p, shown):
    assert result_html.percent(p) == shown


ODDS_REQUESTS = [
    {"system": "flip", "rank": 2, "aspect": 3, "difficulty": "hard"},
    {"system": "flip", "mode": "opposed", "initiator": {"rank": 2, "aspect": 2},
     "opponent": {"rank": 3, "aspect": 1}},
    {"system": "flip", "mode": "team", "dtn": 15, "primary": {"rank": 2, "aspect": 2},
     "secondaries": [{"rank": 1, "aspect": 2}]},
    {"system": "pool", "trait": 5, "skill": 7, "dr": 4, "bonus": 2},
    {"system": "swift", "trait": 5, "skill": 6},
    {"system": "fluke", "dice_count": 3},
    {"system": "passages", "base": 50},
]


@pytest.mark.parametrize("request_", ODDS_REQUESTS, ids=lambda r: r["system"] + str(len(r)))
def test_the_odds_shown_are_the_engines_exact_fractions_summing_to_one(request_):
    odds = skillcheck.odds(request_)
    shown = result_html.odds_html(odds, skillcheck.SYSTEMS[request_["system"]])
    rows = dict(re.findall(r'data-outcome="([^"]+)" data-fraction="([^"]+)"', shown))
    assert rows == odds["outcomes"]
    assert sum(map(Fraction, rows.values())) == 1
    for name, p in rows.items():
        assert f'title="{p}"' in shown and result_html.percent(Fraction(p)) in shown, name


@pytest.mark.parametrize("request_", [*ODDS_REQUESTS, {**ODDS_REQUESTS[0], "secret": True}],
                         ids=lambda r: r["system"] + str(len(r)))
def test_results_and_odds_carry_no_style_attribute_the_security_policy_would_refuse(request_):
    odds = skillcheck.odds(request_)
    shown = (result_html.odds_html(odds, skillcheck.SYSTEMS[request_["system"]])
             + result_html.result_html(skillcheck.resolve(request_, random.Random(7))))
    assert " style=" not in shown
    lengths = [float(x) for x in re.findall(r'<rect (?:y="[^"]+" )?\w+="([0-9.]+)"', shown)]
    assert lengths and all(1.5 <= length <= 100 for length in lengths)


def test_a_bar_is_its_length_at_least_a_sliver_across_or_up():
    assert '<rect width="42.500" height="1" rx="3" ry="0.5"/>' in result_html.bar(42.5, across=True)
    assert '<rect width="1.500" height="1" rx="3" ry="0.5"/>' in result_html.bar(0.0, across=True)
    assert '<rect y="75.000" width="1" height="25.000"/>' in result_html.bar(25, across=False)


@pytest.mark.parametrize(("p", "words"), [
    ("16807/100000", "about 1 in 6 — 16,807 in 100,000"), ("1/2", "1 in 2"),
    ("343/6250", "about 1 in 18 — 343 in 6,250"), ("1/15625", "1 in 15,625"),
    ("93/100", "about 13 in 14 — 93 in 100"), ("999/1000", "999 in 1,000"),
    ("2401/4000", "about 3 in 5 — 2,401 in 4,000"), ("1", "every time"), ("0", "never"),
])
def test_a_chance_is_said_as_people_say_it_then_exactly(p, words):
    assert result_html.chance_words(Fraction(p)) == words


@given(st.fractions(min_value=0, max_value=1, max_denominator=10**6))
def test_the_words_always_end_on_the_exact_chance(p):
    words = result_html.chance_words(p)
    if 0 < p < 1:
        assert words.endswith(f"{p.numerator:,} in {p.denominator:,}")


def test_each_odds_row_opens_on_the_rulebooks_name_its_meaning_and_its_chance_in_words():
    odds = skillcheck.odds({"system": "pool", "trait": 5, "skill": 7, "dr": 3})
    shown = result_html.odds_html(odds, skillcheck.SYSTEMS["pool"])
    names = re.findall(r'<span class="odds-name">([^<]+)</span>', shown)
    assert names[:3] == ["Critical Success", "Success (IoS 2)", "Basic Success"]
    assert shown.count("<details><summary>") == len(odds["outcomes"])
    assert "About 1 in 6 — 16,807 in 100,000.</p>" in shown
    assert "IoS 1: exactly the DR." in shown
    assert shown.count("Increment of Success") == 1 and shown.count("Difficulty Rating") == 1
    opposed = result_html.odds_html(skillcheck.odds({
        "system": "flip", "mode": "opposed", "initiator": {"rank": 2, "aspect": 3},
        "opponent": {"rank": 2, "aspect": 2}}), skillcheck.SYSTEMS["flip"])
    assert "Initiator wins" in opposed and "Difficulty Target Number" not in opposed


@pytest.mark.parametrize("request_", [
    {"system": "flip", "rank": 3, "aspect": 2, "secret": True},
    {"system": "pool", "trait": 5, "skill": 7, "bonus": 1, "secret": True}])
def test_a_secret_chart_gives_the_gm_each_number_and_the_chance_of_at_least_it(request_):
    odds = skillcheck.odds(request_)
    shown = result_html.odds_html(odds, skillcheck.SYSTEMS[request_["system"]])
    at_least = {int(t): Fraction(p) for t, p in re.findall(
        r'<tr data-total="(-?\d+)" data-at-least="([^"]+)">', shown)}
    assert set(at_least) == {int(t) for t in odds["totals"]}
    for total, p in at_least.items():  # at least N: success against that DTN or DR
        judged = {**request_, "secret": False,
                  **({"dtn": total} if request_["system"] == "flip" else {"dr": total})}
        if request_["system"] == "flip" or total >= 1:
            assert p == Fraction(skillcheck.odds(judged)["success"]), total
        assert f"<td>{result_html.percent(p)}</td></tr>" in shown


def test_odds_rows_follow_the_systems_order_of_outcomes():
    shown = result_html.odds_html({"outcomes": {"failure": "1/4", "great success": "3/4"},
                              "success": "3/4"}, skillcheck.SYSTEMS["flip"])
    assert shown.index("Great success") < shown.index("Failure")
    assert "Chance of success <strong>75.0 %</strong>" in shown


# --- report: results drawn as cards and dice --------------------------------------------------

def images(html: str) -> list[str]:
    return re.findall(r'role="img" aria-label="([^"]*)"', html)


def test_a_flip_shows_every_card_with_the_kept_one_marked_and_others_choosable():
    result = skillcheck.resolve({"system": "flip", "rank": 3, "aspect": 2, "dtn": 12,
                                 "cards": ["2S", "KH", "10D"]})
    shown = result_html.result_html(result, offers=True)
    assert images(shown) == ["Two of Spades", "King of Hearts, kept", "Ten of Diamonds"]
    assert re.findall(r'data-keep-path="keep" data-keep="(\d)"', shown) == ["0", "2"]
    assert "Great success" in shown or "Success" in shown
    for line in result["explain"]:
        assert result_html.escape(line) in shown


def test_a_result_shown_again_or_revealed_offers_no_other_card():
    """A roll from the log or a link, or one the GM revealed, is a verdict, not a choice."""
    result = skillcheck.resolve({"system": "flip", "rank": 3, "aspect": 2, "dtn": 12,
                                 "cards": ["2S", "KH", "10D"]})
    shown = result_html.result_html(result, offers=False)
    assert images(shown) == ["Two of Spades", "King of Hearts, kept", "Ten of Diamonds"]
    assert "data-keep=" not in shown and "Tap another card" not in shown


def test_keep_low_marks_the_low_card_and_offers_no_other():
    result = skillcheck.resolve({"system": "flip", "rank": 0, "aspect": 2, "dtn": 5,
                                 "cards": ["9C", "4D"]})
    shown = result_html.result_html(result)
    assert images(shown) == ["Nine of Clubs", "Four of Diamonds, kept (the lowest must be kept)"]
    assert "data-keep=" not in shown


def test_opposed_and_team_sides_each_show_their_cards_with_their_own_keep_path():
    team = skillcheck.resolve({"system": "flip", "mode": "team", "dtn": 12,
                               "primary": {"rank": 1, "aspect": 2, "cards": ["5S", "9H"]},
                               "secondaries": [{"rank": 2, "aspect": 2, "cards": ["QC", "3D"]}]})
    shown = result_html.result_html(team, offers=True)
    assert images(shown) == ["Five of Spades", "Nine of Hearts, kept", "Queen of Clubs, kept",
                             "Three of Diamonds"]
    assert 'data-keep-path="primary.keep" data-keep="0"' in shown
    assert 'data-keep-path="secondaries.0.keep" data-keep="1"' in shown
    opposed = skillcheck.resolve({"system": "flip", "mode": "opposed",
                                  "initiator": {"rank": 1, "aspect": 2, "cards": ["7S"]},
                                  "opponent": {"rank": 1, "aspect": 2, "cards": ["7H"]}})
    shown = result_html.result_html(opposed)
    assert "Initiator wins" in shown and images(shown) == ["Seven of Spades, kept",
                                                           "Seven of Hearts, kept"]


def test_opposed_and_team_flips_explain_under_why_and_say_keep_another_once():
    """Issue 35.6: a result of several sides folds its numbered lines under "Why" (open where
    the page says so) and says once, under the sides, that another card can be kept."""
    team = skillcheck.resolve({"system": "flip", "mode": "team", "dtn": 12,
                               "primary": {"rank": 2, "aspect": 2, "cards": ["5S", "9H"]},
                               "secondaries": [{"rank": 2, "aspect": 2, "cards": ["QC", "3D"]}]})
    for why_open, opening in ((False, '<details class="why">'),
                              (True, '<details class="why" open>')):
        shown = result_html.result_html(team, offers=True, why_open=why_open)
        why = shown[shown.index(opening):]
        assert why.startswith(opening + '<summary>Why</summary><ol class="explain">')
        assert all(result_html.escape(line) in why for line in team["explain"])
        assert shown.count("Tap another card") == 1
        assert shown.index("Tap another card") > shown.rindex('class="side-result"')
    one = skillcheck.resolve({"system": "flip", "rank": 2, "aspect": 2, "dtn": 12})
    assert '<ol class="explain">' in result_html.result_html(one, why_open=False)
    assert "why" not in result_html.result_html(one, why_open=False)


def test_take_a_7_shows_a_counted_seven_not_a_card():
    result = skillcheck.resolve({"system": "flip", "rank": 2, "aspect": 1, "dtn": 5, "take7": True})
    assert images(result_html.result_html(result)) == ["Took a 7: no card flipped"]


def test_pool_dice_show_successes_and_lowered_faces():
    result = skillcheck.resolve({"system": "pool", "trait": 4, "skill": 6, "dr": 3, "bonus": 2,
                                 "dice": [3, 8, 10, 6]})
    labels = images(result_html.result_html(result))
    assert labels == ["d10 showing 3, a success", "d10 showing 8, lowered to 6, a success",
                      "d10 showing 10, not a success", "d10 showing 6, a success"]
    assert sum(label.endswith(", a success") for label in labels) == result["successes"]


def test_swift_shows_two_plain_d10s_and_the_lowered_roll():
    result = skillcheck.resolve({"system": "swift", "trait": 4, "skill": 4, "bonus": 3,
                                 "dice": [9, 4]})
    shown = result_html.result_html(result)
    assert images(shown) == ["d10 showing 9", "d10 showing 4"]
    assert 'data-fact="roll"><dt>Roll</dt><dd>13 → 10</dd>' in shown
    unlowered = skillcheck.resolve({"system": "swift", "trait": 4, "skill": 4, "dice": [2, 4]})
    assert 'data-fact="roll"><dt>Roll</dt><dd>6</dd>' in result_html.result_html(unlowered)


def test_fluke_marks_ones_and_the_insured_ones():
    result = skillcheck.resolve({"system": "fluke", "dice_count": 4, "insurance": 1,
                                 "dice": [1, 5, 1, 6]})
    assert images(result_html.result_html(result)) == [
        "d6 showing 1, an insured one", "d6 showing 5", "d6 showing 1, a one", "d6 showing 6"]


@pytest.mark.parametrize(("roll", "tens", "units"), [(73, "70", "3"), (100, "00", "0"),
                                                      (10, "10", "0"), (5, "00", "5")])
def test_percentile_is_two_d10s(roll, tens, units):
    result = skillcheck.resolve({"system": "passages", "base": 40, "dice": [roll]})
    assert images(result_html.result_html(result)) == [f"tens die showing {tens}",
                                                   f"units die showing {units}"]


def test_text_from_a_result_is_escaped():
    shown = result_html.result_html({"system": "x", "outcome": "<b>", "success": True,
                                "explain": ["<script>alert(1)</script>"]})
    assert "<script>" not in shown and "&lt;b&gt;" in shown


# --- render: the pictures -----------------------------------------------------------------------

def test_every_card_has_its_name_colour_corner_indices_and_pips():
    for code in DECK:
        face = pieces_svg.card_face(code)
        rank, suit = pieces_svg.card_parts(code)
        colour = "red" if suit in "HD" else "black"
        assert f"suit-{colour}" in face
        assert face.count(f">{rank}</text>") == 2 + (rank in "JQK")  # two corners (+ court letter)
        value = card_value(code)
        centre = face.split("</g>", 1)[1]
        assert centre.count("<path") == (1 if rank == "A" else 2 if rank in "JQK" else value)


def test_d6_faces_have_their_pips_and_sixes_and_nines_are_underlined():
    for face in range(1, 7):
        assert pieces_svg.d6_svg(face).count('class="pip"') == face
    assert "M42 64H58" in pieces_svg.d10_svg("6") and "M42 64H58" not in pieces_svg.d10_svg("8")


# --- the page as shipped ---------------------------------------------------------------------

def test_before_python_loads_the_button_waits_and_one_sentence_is_the_live_region():
    assert re.search(r'<button id="roll"[^>]*disabled>Loading the rules…</button>', INDEX)
    assert re.search(r'<p id="spoken" class="vh" role="status" aria-live="polite" '
                     r'aria-atomic="true"></p>', INDEX)
    panel = re.search(r'<div id="result"[^>]*>', INDEX).group(0)
    assert "aria-live" not in panel and "role" not in panel  # read by a tap, not at each roll
    assert 'src="py/main.py"' in INDEX and 'src="static/js/sw-register.js"' in INDEX


def test_luck_offers_are_buttons_only_on_a_roll_just_made():
    # "The same applies if the player wants to spend any Luck Points on the roll".
    result = skillcheck.resolve({"system": "swift", "trait": 5, "skill": 5, "luck": 4,
                                 "dice": [5, 5]})
    html = result_html.result_html(result, offers=True)
    assert re.findall(r'data-luck-spend="(\d+)">([^<]*)<', html) == [
        ("1", "Spend 1 Luck → Success (IoS 2)"), ("2", "Spend 2 Luck → Critical Success")]
    assert "luck-offer" not in result_html.result_html(result)
    assert result_html.luck_offers_html({**result, "luck_offers": []}) == ""


def test_an_offer_after_a_first_spend_names_the_extra_cost_and_the_total():
    request = {"system": "pool", "trait": 5, "skill": 7, "dr": 3, "luck": 5,
               "dice": [1, 2, 9, 9, 3]}
    first = skillcheck.resolve({**request, "luck_spend": 2})
    assert first["luck_used"] == 2
    assert re.findall(r'data-luck-spend="(\d+)">([^<]*)<', result_html.luck_offers_html(first)) \
        == [("4", "2 more Luck → Critical Success (4 in all)")]


def test_the_bars_chance_says_what_points_it_counts():
    request = {"system": "pool", "trait": 5, "skill": 5, "dr": 3, "luck": 3}
    offered = systems.points_offered(request)
    assert offered == ("luck", "Luck 3")
    odds, bare = skillcheck.odds(request), skillcheck.odds({**request, "luck": 0})
    assert Fraction(bare["success"]) < Fraction(odds["success"])
    said = re.sub("<[^>]+>", "", result_html.chance_html(odds, bare, offered[1]))
    assert said == (f"{result_html.percent(Fraction(bare['success']))} to succeed · "
                    f"{result_html.percent(Fraction(odds['success']))} with Luck 3")
    assert systems.points_offered({**request, "luck": 0}) is None
    assert systems.points_offered({"system": "passages", "base": 50}) is None
    assert systems.points_offered({"system": "fluke", "dice_count": 3, "base": 9,
                                   "insurance": 2}) == ("insurance", "Insurance 2")
    # points that change nothing are not said
    assert result_html.chance_html(odds, odds, "Luck 3") == result_html.chance_html(odds)


def test_luck_alone_is_said_without_a_bonus_of_nothing():
    result = skillcheck.resolve({"system": "pool", "trait": 4, "skill": 5, "dr": 3, "luck": 9,
                                 "dice": [1, 2, 6, 9]})
    spent = [line for line in result["explain"] if line.startswith("Spent")]
    assert spent == ["Spent 1 Luck to lower 6 to 5."]
    bonus = skillcheck.resolve({"system": "pool", "trait": 4, "skill": 5, "dr": 3, "bonus": 1,
                                "luck": 9, "dice": [1, 2, 6, 9]})
    assert any(line.startswith("Spent 1 of 1 Bonus") for line in bonus["explain"])


def test_luck_offers_name_the_outcome_as_the_headline_does():
    # Seed 002's "Barely Succeeding": 1 and 2 of a Skill 5 against DR 3, the 6 one Luck away.
    kept = skillcheck.resolve({"system": "pool", "trait": 4, "skill": 5, "dr": 3, "luck": 9,
                               "luck_spend": 0, "dice": [1, 2, 6, 9]})
    offered = re.findall(r"Luck → ([^<]*)<", result_html.luck_offers_html(kept))
    # Five Luck buy the 9 as well: past the DR, a success by its IoS (ruled 2026-12-02).
    assert offered == ["Barely Succeeding", "Success (IoS 2)"]
    barely = skillcheck.resolve({**kept["request"], "luck_spend": 1})
    assert offered[0] in result_html.headline(barely)
    disaster = skillcheck.resolve({"system": "pool", "trait": 4, "skill": 2, "dr": 4, "luck": 4,
                                   "dice": [1, 5, 6, 9]})
    assert "Spend 3 Luck → Failure<" in result_html.luck_offers_html(disaster)


def test_double_ought_typed_in_my_dice_is_a_hundred():
    # Seed 004: "A roll of precisely 100% means the Action fails" — the dice show it as 00.
    assert forms.value_of(forms.LIST, "00, 7") == [100, 7]
    assert forms.value_of(forms.LIST, "0 000") == [0, 0]  # only the double-ought reading
    request = forms.request_from("passages", None, [("base", "number", "40"),
                                                    ("dice", "list", " 00 ")])
    assert skillcheck.resolve(request)["outcome"] == "critical fail"
