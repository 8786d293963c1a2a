"""What a screen reader hears of a roll (py/app/spoken_words.py, issue 35 point 10): one sentence
of at most 25 words, naming who and what, the outcome as the rulebook names it, the number that
decided it and the cards kept or the dice rolled — for every system and mode, a secret check and
its reveal, a roll shown again, a Luck spend after the roll; and, over random requests, always
one sentence that fits."""

from __future__ import annotations

import re
import string

import pytest
import skillcheck
from app.log_model import reveal_request
from app.spoken_words import MOST_WORDS, sentence
from app.systems import PAGES, outcome_name
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from skillcheck import SYSTEMS, InvalidRequest
from skillcheck.draw import card_name

MARA = {"name": "Mara", "skill": "Stealth"}
ONE_SENTENCE = re.compile(r"[^.!?]+\.")


def heard(text: str) -> str:
    """`text`, checked to be one sentence of at most MOST_WORDS words (a dash counts as one)."""
    assert ONE_SENTENCE.fullmatch(text), text
    assert len(text.split()) <= MOST_WORDS, text
    return text


# Each system and mode from a forced draw: the exact sentence.
SAID = [
    ({"system": "flip", "rank": 2, "aspect": 3, "dtn": 12, "cards": ["JC", "10S"]}, None,
     "Card flip: Success, total 14 vs DTN 12 — kept Jack of Clubs."),
    ({"system": "flip", "rank": 2, "aspect": 3, "dtn": 12, "skill": "Stealth",
      "cards": ["JC", "10S"]}, None,
     "Stealth, Card flip: Success, total 14 vs DTN 12 — kept Jack of Clubs."),
    ({"system": "flip", "mode": "aspect", "aspect": 2, "difficulty": "hard",
      "cards": ["QH", "4D"]}, None,
     "Card flip, aspect check: Failure, total 14 vs DTN 15 — kept Queen of Hearts."),
    ({"system": "flip", "mode": "opposed",
      "initiator": {"rank": 2, "aspect": 3, "cards": ["6S", "10S"]},
      "opponent": {"rank": 3, "aspect": 1, "cards": ["QH", "9H", "7H"]}}, None,
     "Card flip, opposed: Initiator wins, 13 to 13, tie broken by aspect — Initiator kept Ten "
     "of Spades, Opponent kept Queen of Hearts."),
    ({"system": "flip", "mode": "opposed", "gm_allows_take7": True,
      "initiator": {"rank": 1, "aspect": 3, "take7": True},
      "opponent": {"rank": 1, "aspect": 1, "cards": ["2C"]}}, MARA,
     "Mara, Stealth: Initiator wins, 10 to 3 — Initiator took a 7, Opponent kept Two of Clubs."),
    ({"system": "flip", "mode": "team", "dtn": 12,
      "primary": {"rank": 2, "aspect": 3, "cards": ["AD", "9H", "JH"]},
      "secondaries": [{"rank": 1, "aspect": 2, "cards": ["3D"]},
                      {"rank": 2, "aspect": 2, "cards": ["8D", "KS"]}]}, MARA,
     "Mara, Stealth: Success, total 13 vs DTN 12 — Primary kept Jack of Hearts, 2 helpers."),
    ({"system": "flip", "mode": "team", "dtn": 12,
      "primary": {"rank": 2, "aspect": 3, "cards": ["AD", "9H"]},
      "secondaries": [{"rank": 1, "aspect": 2, "cards": ["3D"]}]}, None,
     "Card flip, team: Failure, total 11 vs DTN 12 — Primary kept Nine of Hearts, Helper 1 "
     "kept Three of Diamonds."),
    ({"system": "flip", "rank": 0, "aspect": 3, "dtn": 10, "cards": ["2C", "KD"]}, None,
     "Card flip: Bad failure, total 5 vs DTN 10 — kept the lowest, Two of Clubs."),
    ({"system": "pool", "trait": 5, "skill": 7, "dr": 2, "dice": [6, 3, 7, 1, 2]}, MARA,
     "Mara, Stealth: Critical Success, IoS 4 — dice 6 3 7 1 2."),
    ({"system": "pool", "trait": 5, "skill": 7, "dr": 2, "dice": [6, 3, 7, 9, 9]}, None,
     "d10 pool: Success (IoS 2) — dice 6 3 7 9 9."),  # its name says its IoS: said once
    ({"system": "pool", "trait": 3, "skill": 7, "dr": 4}, {"name": "Mara"},
     "Mara, d10 pool: Too difficult."),  # nothing was rolled, nothing decided it
    ({"system": "swift", "trait": 5, "skill": 5, "luck": 4, "dice": [5, 5]}, None,
     "Swift: Basic Success, IoS 1 — dice 5 5."),
    ({"system": "fluke", "dice_count": 3, "insurance": 1, "dice": [1, 3, 5]}, {"name": "Dot"},
     "Dot, d6 pool: Failure, total 9 vs 10, 2 XP spent — dice 1 3 5."),
    ({"system": "passages", "base": 40, "dice": [23]}, None,
     "Passages: Skills Success, roll 23 vs 40 — die 23."),
    ({"system": "passages", "base": 40, "practice": True}, None,
     "Passages: Skills Success."),  # practice rolls nothing
]


@pytest.mark.parametrize(("request_", "who", "said"), SAID)
def test_each_system_and_mode_is_one_sentence_naming_outcome_number_and_draw(request_, who,
                                                                             said):
    result = skillcheck.resolve(request_)
    assert heard(sentence(result, who)) == said
    assert outcome_name(result["system"], result["outcome"]) in said


def test_every_system_and_mode_is_said():
    said = {(request["system"], request.get("mode", (PAGES[request["system"]].modes or ("",))[0]))
            for request, _, _ in SAID}
    assert said >= {(system, mode) for system, page in PAGES.items()
                    for mode in page.modes or ("",)}


def test_a_secret_check_says_the_number_for_the_gm_and_its_reveal_the_verdict():
    flip = skillcheck.resolve({"system": "flip", "rank": 2, "aspect": 3, "secret": True,
                               "cards": ["5D", "2D"]})
    assert heard(sentence(flip)) == ("Card flip: Secret difficulty, total 8 for the GM — kept "
                                     "Five of Diamonds.")
    revealed = skillcheck.resolve(reveal_request({"request": flip["request"]}, {"dtn": 9}))
    assert heard(sentence(revealed, revealed=True)) == (
        "Revealed: Card flip: Failure, total 8 vs DTN 9 — kept Five of Diamonds.")
    pool = skillcheck.resolve({"system": "pool", "trait": 5, "skill": 7, "secret": True,
                               "dice": [6, 3, 7, 1, 2]})
    assert heard(sentence(pool, MARA)) == ("Mara, Stealth: Secret difficulty, successes 5 for "
                                           "the GM — dice 6 3 7 1 2.")
    revealed = skillcheck.resolve(reveal_request({"request": pool["request"]}, {"dr": 5}))
    assert heard(sentence(revealed, MARA, revealed=True)) == (
        "Revealed: Mara, Stealth: Basic Success, IoS 1 — dice 6 3 7 1 2.")


def test_a_roll_shown_again_withdrawn_or_seeded_says_so_first():
    result = skillcheck.resolve({"system": "pool", "trait": 5, "skill": 7, "dr": 2,
                                 "dice": [6, 3, 7, 1, 2]})
    assert heard(sentence(result, MARA, again=True)) == (
        "Shown again: Mara, Stealth: Critical Success, IoS 4 — dice 6 3 7 1 2.")
    assert heard(sentence(result, again=True, revealed=True, seeded=True)) == (
        "Shown again, revealed, seeded, not random: d10 pool: Critical Success, IoS 4 — dice 6 "
        "3 7 1 2.")
    assert heard(sentence(result, MARA, withdrawn=True)) == (  # undone: it no longer counts
        "Withdrawn: Mara, Stealth: Critical Success, IoS 4 — dice 6 3 7 1 2.")


def test_luck_spent_after_the_roll_says_the_amended_result():
    request = {"system": "swift", "trait": 5, "skill": 5, "luck": 4, "dice": [5, 5]}
    first = skillcheck.resolve(request)
    assert [offer["luck_spend"] for offer in first["luck_offers"]] == [1, 2]
    amended = skillcheck.resolve({**first["request"], "luck_spend": 2})
    assert heard(sentence(amended, MARA)) == (
        "Mara, Stealth: Critical Success, IoS 3, 2 Luck spent — dice 5 5.")
    assert heard(sentence(amended, MARA, withdrawn=True)) == (  # undone: the Luck came back
        "Withdrawn: Mara, Stealth: Critical Success, IoS 3 — dice 5 5.")


@pytest.mark.parametrize(("request_", "draw"), [
    ({"system": "fluke", "dice_count": 20, "dice": [1, 2, 3, 4, 5, 6] * 3 + [6, 6]},
     "20 dice: 5 sixes, 3 fives, 3 fours, 3 threes, 3 twos, 3 ones."),
    ({"system": "flip", "mode": "team", "dtn": 12, "primary": {"rank": 2, "aspect": 3},
      "secondaries": [{"rank": 1, "aspect": 2}] * 8}, "8 helpers."),
])
def test_a_long_draw_is_said_compactly(request_, draw):
    said = heard(sentence(skillcheck.resolve(request_), MARA))
    assert said.endswith(draw)


def test_a_long_name_is_cut_before_the_outcome_or_the_draw_is_lost():
    result = skillcheck.resolve({"system": "fluke", "dice_count": 20,
                                 "dice": [1, 2, 3, 4, 5, 6] * 3 + [6, 6]})
    who = {"name": " ".join(["Mara"] * 15), "skill": " ".join(["Long", "Skill"] * 10)}
    said = heard(sentence(result, who, again=True, seeded=True))
    assert "Success" in said and said.endswith("20 dice.")


# --- any request ---------------------------------------------------------------------------

def _value(spec: dict):
    if spec["kind"] == "flag":
        return st.booleans()
    if spec["kind"] == "choice":
        return st.sampled_from(spec["options"])
    if spec["kind"] == "hex":
        return st.text("0123456789abcdef", min_size=spec["min"], max_size=spec["max"])
    low, high = spec["min"], spec["max"]
    return st.integers(low, high) | st.integers(max(low, -3), min(high, 12))


DIFFICULTY = {"dtn", "difficulty", "dr", "secret"}  # a check's difficulty, said one way


def _fields(specs: list[dict], names: set[str] | None = None):
    """Those of `specs` (named in `names`) with a value each: one without a default always,
    the rest at random; the difficulty one way (by its number, its word, or kept secret)."""
    specs = [spec for spec in specs if spec["name"] not in {"mode", "keep"}
             and (names is None or spec["name"] in names)]
    either = {spec["name"]: st.just(True) if spec["name"] == "secret" else _value(spec)
              for spec in specs if spec["name"] in DIFFICULTY}
    fields = st.fixed_dictionaries(
        {spec["name"]: _value(spec) for spec in specs
         if "default" not in spec and spec["name"] not in either},
        optional={spec["name"]: _value(spec) for spec in specs
                  if "default" in spec and spec["name"] not in either})
    if not either:
        return fields
    return st.tuples(fields, st.one_of(*(value.map(lambda v, name=name: {name: v})
                                         for name, value in either.items()))).map(
        lambda both: {**both[0], **both[1]})


@st.composite
def requests(draw) -> dict:
    """Any request the page could send, valid or not: each system's fields at random, a mode's
    sides (and up to its most helpers) each with the side fields."""
    system = draw(st.sampled_from(list(PAGES)))
    specs = SYSTEMS[system]["fields"]
    request = {"system": system, **draw(_fields(specs))}
    if draw(st.booleans()):  # no difficulty: an opposed flip has none
        request = {key: value for key, value in request.items() if key not in DIFFICULTY}
    modes = PAGES[system].modes
    if modes:
        request["mode"] = mode = draw(st.sampled_from(modes))
        side = _fields(specs, set(SYSTEMS[system]["side_fields"]))
        for key in {"opposed": ("initiator", "opponent"), "team": ("primary",)}.get(mode, ()):
            request[key] = draw(side)
        if mode == "team":
            request["secondaries"] = draw(st.lists(
                side, max_size=SYSTEMS[system]["max_secondaries"]))
    return request


NAMES = st.lists(st.text(string.ascii_letters + "'-éø", min_size=1, max_size=8),
                 max_size=12).map(" ".join).filter(lambda name: len(name) <= 60)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much,
                                                                   HealthCheck.too_slow])
@given(requests(), st.none() | st.fixed_dictionaries({"name": NAMES}, optional={"skill": NAMES}),
       st.booleans(), st.booleans(), st.booleans(), st.booleans(), st.data())
def test_any_roll_is_one_sentence_of_at_most_25_words(request_, who, again, revealed, seeded,
                                                      withdrawn, data):
    try:
        result = skillcheck.resolve(request_, data.draw(st.randoms(use_true_random=False)))
    except InvalidRequest:
        assume(False)
    event(f"{result['system']} {result.get('mode', '')} {result['outcome']}")
    offers = result.get("luck_offers") or []
    if offers and data.draw(st.booleans()):  # a Luck spend after the roll
        spend = data.draw(st.sampled_from(offers))["luck_spend"]
        result = skillcheck.resolve({**result["request"], "luck_spend": spend})
    said = heard(sentence(result, who, again=again, revealed=revealed, seeded=seeded,
                          withdrawn=withdrawn))
    name = "Secret" if result["outcome"] == "secret" else outcome_name(result["system"],
                                                                       result["outcome"])
    assert name in said
    kept = [card_name(side["cards"][side["kept"]]) for side in (
        result, result.get("initiator"), result.get("primary")) if isinstance(side, dict)
        and side.get("cards") and not side.get("take7")]
    assert all(card in said for card in kept[:1]), said  # the first side's card, always
    if result.get("dice"):
        assert re.search(r"\b(dice|die)\b", said), said
