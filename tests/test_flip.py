"""Seed 000, the card flip: the rulebook's examples, every ruling's edges, bad input, replay."""

import json
import random
from fractions import Fraction

import pytest
from contract_checks import check_odds, check_result, check_seeded
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from skillcheck import SYSTEMS, InvalidRequest, odds, resolve
from skillcheck.draw import DECK, Draw, card_value
from skillcheck.skills import SKILLS

LADDER = {"extremely easy": 5, "very easy": 7, "easy": 9, "average": 12, "hard": 15,
          "very hard": 18, "near impossible": 21, "impossible": 25}


def flip(**fields) -> dict:
    return resolve({"system": "flip", **fields})


def refused(field: str, **fields) -> InvalidRequest:
    """The request is refused, naming `field`; the error is returned for its reason."""
    with pytest.raises(InvalidRequest) as caught:
        flip(**fields)
    assert caught.value.field == field, str(caught.value)
    assert str(caught.value).startswith(f"{field}: ")
    return caught.value


def hand(*values: int) -> list[str]:
    """Distinct cards with these values (suits taken in turn)."""
    used: dict[int, int] = {}
    cards = []
    for v in values:
        used[v] = used.get(v, 0) + 1
        cards.append(["A", *map(str, range(2, 11)), "J", "Q", "K"][v - 1] + "SHDC"[used[v] - 1])
    return cards


# --- The rulebook's examples ----------------------------------------------------------------

def test_wrongway_tony_knowledge_history_flips_two_keeps_the_higher_adds_three():
    # "He has a Skill Rank of 2 ... a value of 3 in [AI]. He will flip 2 cards and take the
    # higher one and then add 3 to that value."
    for seed in range(50):
        result = flip(skill="Knowledge", rank=2, aspect=3, dtn=12, seed=seed)
        values = [card_value(c) for c in result["cards"]]
        assert len(values) == 2 and not result["keep_low"]
        assert result["kept_value"] == max(values) == values[result["kept"]]
        assert result["total"] == max(values) + 3
        assert result["success"] == (result["total"] >= 12)
    assert flip(skill="Knowledge", rank=2, aspect=3, dtn=12, cards=["5H", "9C"])["total"] == 12


def test_tony_in_the_library_needs_a_twelve_from_three_cards():
    # "(flip+1) giving him 3 cards" ... "(shift+1). Along with his +3 for Acquired Intellect, he'd
    # only need a 12" against "Hard (DTN 16)".
    library = {"skill": "Knowledge", "rank": 2, "aspect": 3, "flip": 1, "shift": 1, "dtn": 16}
    made = flip(**library, cards=["3D", "QS", "7H"])
    assert (made["outcome"], made["total"], made["margin"], made["kept"]) == ("success", 16, 0, 1)
    assert made["explain"] == [
        "Uses Knowledge, an Advanced skill on Acquired Intellect [AI].",
        "Flipped 3 cards: rank 2, flip +1.", "Turned up 3D, QS, 7H.",
        "Kept Q (12) + aspect 3 + shift 1 = 16 against DTN 16 (hard): success."]
    missed = flip(**library, cards=["JS", "JD", "2C"])
    assert (missed["outcome"], missed["total"], missed["margin"]) == ("failure", 15, -1)
    assert len(flip(**library, seed=7)["cards"]) == 3


def test_tony_climbs_the_ladder_with_his_climbing_specialization():
    # Athletics (Basic, HS), "allows the Climbing specialty", "Difficulty Target Number of 5
    # (Extremely Easy)". A specialization "gives you an extra card on the flip (flip+1)".
    climb = {"skill": "Athletics", "rank": 1, "aspect": 2, "specialization": True,
             "difficulty": "extremely easy"}
    result = flip(**climb, cards=["4H", "2S"])
    assert result["dtn"] == 5 and result["total"] == 6 and result["outcome"] == "success"
    assert "Flipped 2 cards: rank 1, specialization +1." in result["explain"]
    assert "Uses Athletics, a Basic skill on Hard Strength [HS]." in result["explain"]
    # The bottom of the ladder: no "next lower difficulty", so no bad failure.
    assert flip(**climb, cards=["AH", "2S"])["outcome"] == "failure"
    assert flip(**climb, cards=["5H", "2S"])["outcome"] == "great success"  # 7: very easy


def test_hard_strength_aspect_check_flips_three_adds_three():
    # "A character with a Hard Strength of 3 would flip 3 cards and add 3 to the final result."
    for seed in range(30):
        result = flip(mode="aspect", aspect=3, dtn=12, seed=seed)
        values = [card_value(c) for c in result["cards"]]
        assert len(values) == 3 and result["total"] == max(values) + 3
    result = flip(mode="aspect", aspect=3, dtn=12, rank=9, skill="Nonsense", cards=hand(4, 9, 2))
    assert result["total"] == 12 and "rank" not in result["request"]
    assert "Flipped 3 cards: aspect 3." in result["explain"]


# --- Levels of success and failure at the ladder's edges ------------------------------------

# "it's going to be Hard (DTN 16)": a DTN's rating is the highest ladder value at or below it;
# "if a character would have exceeded the next higher difficulty rating" / "would have failed
# the next lower difficulty rating" — the next higher is the first ladder value above the DTN,
# the next lower the value under the DTN's own rating (16 → 12, 15 → 12, 13 → 9).
@pytest.mark.parametrize(("dtn", "total", "outcome"), [
    (16, 18, "great success"), (16, 17, "success"), (16, 16, "success"), (16, 15, "failure"),
    (16, 14, "failure"), (16, 12, "failure"), (16, 11, "bad failure"),
    (15, 18, "great success"), (15, 17, "success"), (15, 12, "failure"), (15, 11, "bad failure"),
    (13, 15, "great success"), (13, 9, "failure"), (13, 8, "bad failure"),
    (5, 7, "great success"), (5, 6, "success"), (5, 4, "failure"), (5, -30, "failure"),
    (4, 5, "great success"), (4, 3, "failure"), (0, 0, "success"), (0, 5, "great success"),
    (25, 60, "success"), (25, 24, "failure"), (25, 20, "bad failure"),
    (24, 25, "great success"), (24, 24, "success"), (24, 18, "failure"), (24, 17, "bad failure"),
    (30, 60, "success"), (30, 21, "failure"), (30, 20, "bad failure"), (100, 57, "failure"),
    (100, 21, "failure"), (100, 20, "bad failure"),
])
def test_levels_reach_the_next_rating_or_fall_below_the_one_under(dtn, total, outcome):
    # One card: a 7 (rank 1), so the aspect and shift make the total.
    aspect = max(-20, min(50, total - 7))
    result = flip(rank=1, aspect=aspect, shift=total - 7 - aspect, dtn=dtn, cards=["7H"])
    assert (result["total"], result["outcome"]) == (total, outcome)
    assert result["margin"] == total - dtn
    assert result["success"] == (total >= dtn)


def test_levels_are_explained_with_the_rating_they_reach():
    great = flip(rank=1, aspect=11, dtn=16, cards=["7H"])
    assert great["explain"][-1] == (
        "Great success: 18 reaches very hard (18), the next difficulty above DTN 16.")
    bad = flip(rank=1, aspect=0, dtn=12, cards=["7H"])
    assert bad["explain"][-1] == (
        "Bad failure: 7 is below easy (9), the next difficulty below DTN 12 (average).")
    assert flip(rank=1, aspect=8, dtn=15, cards=["7H"])["explain"][-1].endswith(
        "against DTN 15 (hard): success.")


def test_difficulty_names_the_ladder_value():
    for name, dtn in LADDER.items():
        assert flip(rank=1, aspect=0, difficulty=name, cards=["7H"])["dtn"] == dtn
        assert flip(rank=1, aspect=0, difficulty=name, dtn=dtn, cards=["7H"])["dtn"] == dtn
    assert [step["dtn"] for step in SYSTEMS["flip"]["ladder"]] == list(LADDER.values())
    assert "hard (DTN 15), but dtn is 16" in str(refused("difficulty", rank=1, aspect=0,
                                                        difficulty="hard", dtn=16))
    # Seed 000 writes "Hard (DTN 16)": a name is read in any case and spacing.
    assert flip(rank=1, aspect=0, difficulty=" Very  Hard", cards=["7H"])["request"][
        "difficulty"] == "very hard"
    refused("difficulty", rank=1, aspect=0, difficulty="Hardest")
    refused("difficulty", rank=1, aspect=0, difficulty=15)
    refused("dtn", rank=1, aspect=0)


# --- Cards flipped, kept low, chosen --------------------------------------------------------

@pytest.mark.parametrize(("fields", "count", "low"), [
    ({"rank": 0}, 2, True), ({"rank": 0, "flip": -1}, 3, True), ({"rank": 1, "flip": -1}, 2, True),
    ({"rank": 1, "flip": -4}, 5, True), ({"rank": 0, "flip": 1}, 1, False),
    ({"rank": 0, "specialization": True}, 1, False), ({"rank": 3, "flip": -2}, 1, False),
    ({"rank": 52}, 52, False), ({"rank": 0, "flip": -50}, 52, True),
    ({"rank": 2, "flip": 1, "specialization": True}, 4, False),
])
def test_cards_flipped_and_which_end_is_kept(fields, count, low):
    for seed in range(5):
        result = flip(aspect=1, dtn=10, seed=seed, **fields)
        values = [card_value(c) for c in result["cards"]]
        assert len(values) == count == len(set(result["cards"]))
        assert result["keep_low"] == low
        assert result["kept_value"] == (min(values) if low else max(values))


def test_keeping_the_low_is_explained():
    result = flip(rank=0, flip=-1, aspect=2, dtn=5, cards=hand(9, 4, 12))
    assert result["kept_value"] == 4 and result["kept"] == 1
    assert ("Flipped 3 cards, keeping the lowest: rank 0, flip −1 come to −1, "
            "so 2 − (−1) = 3.") in result["explain"]


def test_the_player_may_keep_another_card():
    result = flip(rank=3, aspect=2, dtn=9, cards=hand(13, 5, 9), keep=2)
    assert (result["kept"], result["kept_value"], result["total"]) == (2, 9, 11)
    assert result["request"]["keep"] == 2
    assert "Kept the chosen 9 + aspect 2 = 11 against DTN 9 (easy): success." in result["explain"]
    assert flip(rank=3, aspect=2, dtn=9, seed=4, keep=0)["kept"] == 0
    assert "index from 0 to 2" in str(refused("keep", rank=3, aspect=2, dtn=9, keep=3))
    refused("keep", rank=0, aspect=2, dtn=9, keep=0)
    refused("keep", rank=3, aspect=2, dtn=9, keep=-1)
    refused("keep", rank=3, aspect=2, dtn=9, keep=True)


def test_ties_in_value_keep_the_first_of_them():
    assert flip(rank=3, aspect=0, dtn=5, cards=["9H", "KS", "KD"])["kept"] == 1
    assert flip(rank=0, flip=-1, aspect=0, dtn=5, cards=["9H", "2S", "2D"])["kept"] == 1


# --- Forced cards ---------------------------------------------------------------------------

@pytest.mark.parametrize("cards", [
    ["7H"], ["7H", "8H", "9H"], [], ["7H", "7H"], ["1H", "7S"], ["11S", "7S"], ["QX", "7S"],
    ["7h", "8s"], [7, 8], ["7H", None], "7H 8S", {"0": "7H"}, ["10", "8S"], ["H7", "8S"],
    ["JOKER", "8S"], ["10H ", "8S"], list(DECK) + ["7H"],
])
def test_forced_cards_are_checked(cards):
    refused("cards", rank=2, aspect=1, dtn=9, cards=cards)


def test_forced_cards_are_checked_per_side():
    refused("initiator.cards", mode="opposed", initiator={"rank": 1, "aspect": 1, "cards": []},
            opponent={"rank": 1, "aspect": 1})
    refused("opponent.cards", mode="opposed", initiator={"rank": 1, "aspect": 1},
            opponent={"rank": 1, "aspect": 1, "cards": ["AS", "AS"]})
    refused("secondaries.1.cards", mode="team", dtn=9, primary={"rank": 1, "aspect": 1},
            secondaries=[{"rank": 1, "aspect": 1}, {"rank": 1, "aspect": 1, "cards": ["ZZ"]}])


@pytest.mark.parametrize("cards", ["7H", list(DECK) + ["7H"]])
def test_a_side_whose_cards_are_not_a_short_list_is_named(cards):
    refused("initiator.cards", mode="opposed", initiator={"rank": 1, "aspect": 1, "cards": cards},
            opponent={"rank": 1, "aspect": 1})


def test_every_card_code_reads_as_its_value():
    values = [flip(rank=1, aspect=0, dtn=0, cards=[code])["kept_value"] for code in DECK]
    assert sorted(values) == sorted(list(range(1, 14)) * 4)
    assert flip(rank=1, aspect=0, dtn=0, cards=["10D"])["kept_value"] == 10
    assert flip(rank=1, aspect=0, dtn=0, cards=["AC"])["explain"][-1].startswith("Kept A (1)")


# --- Take a 7 -------------------------------------------------------------------------------

def test_take_a_seven():
    # "he is assumed to have flipped a card with a face value of 7. Aspects and flip shifts are
    # then added in normally."
    result = flip(rank=1, aspect=2, shift=1, dtn=9, take7=True)
    assert (result["cards"], result["kept"], result["kept_value"]) == ([], None, 7)
    assert (result["total"], result["outcome"]) == (10, "success")
    assert result["explain"][0] == "Took a 7 instead of flipping (rank 1 is at least 1)."
    assert flip(rank=1, aspect=2, dtn=9, take7=True, cards=[])["total"] == 9
    assert flip(mode="aspect", aspect=1, dtn=9, take7=True)["total"] == 8


def test_take_a_seven_needs_a_rank_and_no_cards():
    # "You may only do this on skills you have at least one rank in."
    assert "at least one rank" in str(refused("take7", rank=0, aspect=2, dtn=9, take7=True))
    assert "aspect of at least 1" in str(refused("take7", mode="aspect", aspect=0, dtn=9,
                                                 take7=True))
    refused("cards", rank=1, aspect=2, dtn=9, take7=True, cards=["7H"])
    refused("keep", rank=1, aspect=2, dtn=9, take7=True, keep=0)
    refused("take7", rank=1, aspect=2, dtn=9, take7="yes")


def test_the_gm_may_allow_a_seven_in_an_opposed_flip():
    # "but the GM may rule that it can be done in rare circumstances where the difference in
    # skill levels between the two opponents is dramatically different."
    duel = flip(mode="opposed", gm_allows_take7=True, initiator={"rank": 9, "aspect": 4,
                                                                 "take7": True},
                opponent={"rank": 1, "aspect": 0, "cards": ["KS"]})
    assert duel["initiator"]["take7"] and duel["initiator"]["total"] == 11
    assert (duel["outcome"], duel["request"]["gm_allows_take7"]) == ("opponent", True)
    assert duel["explain"][0] == ("The GM allows taking a 7 in this opposed flip (rare "
                                  "circumstances).")
    check_result(duel, duel["request"])
    # 11 against one card: only a Queen or King beats it (a Jack ties, and aspect 4 wins).
    assert check_odds(duel["request"]) == {"initiator": Fraction(11, 13),
                                           "opponent": Fraction(2, 13)}
    refused("gm_allows_take7", mode="opposed", gm_allows_take7="yes",
            initiator={"rank": 1, "aspect": 0}, opponent={"rank": 1, "aspect": 0})
    assert "GM may allow" in str(refused(
        "initiator.take7", mode="opposed", initiator={"rank": 9, "aspect": 4, "take7": True},
        opponent={"rank": 1, "aspect": 0}))


def test_the_gm_may_raise_a_teams_dtn_when_a_helper_fails_badly():
    # "If someone fails by enough, the GM may decide to increase the DTN by one category higher."
    # DTN 16: the helper's 2 + aspect 5 = 7 is below easy (9), a bad failure against 12.
    raised = flip(mode="team", dtn=16, gm_raises_dtn=True,
                  primary={"rank": 2, "aspect": 3, "cards": ["QS", "4D"]},
                  secondaries=[{"rank": 1, "aspect": 5, "cards": ["2C"]}])
    assert raised["secondaries"][0]["outcome"] == "bad failure"
    assert (raised["dtn"], raised["raised_from"], raised["primary"]["dtn"]) == (18, 16, 18)
    # Q + aspect 3 − 1 = 14: below hard (15), the next lower rating of DTN 18.
    assert raised["primary"]["total"] == 14 and raised["outcome"] == "bad failure"
    assert ("A helper failed badly, so the GM raises the DTN one category: 16 → DTN 18 "
            "(very hard).") in raised["explain"]
    check_result(raised, raised["request"])
    plain = resolve({**raised["request"], "gm_raises_dtn": False})
    assert (plain["dtn"], plain["raised_from"], plain["outcome"]) == (16, None, "failure")
    # A plain failure raises nothing; nor does a bad failure at the top of the ladder.
    helped = flip(mode="team", dtn=16, gm_raises_dtn=True, primary={"rank": 1, "aspect": 3},
                  secondaries=[{"rank": 1, "aspect": 5, "cards": ["6C"]}])
    assert helped["secondaries"][0]["outcome"] == "failure" and helped["dtn"] == 16
    top = flip(mode="team", dtn=30, gm_raises_dtn=True, primary={"rank": 1, "aspect": 3},
               secondaries=[{"rank": 1, "aspect": 0, "cards": ["2C"]}])
    assert top["dtn"] == 30 and top["raised_from"] is None


def test_no_take_a_seven_in_opposed_flips():
    # "You may not normally take a 7 in an opposed check".
    side = {"rank": 3, "aspect": 2}
    refused("initiator.take7", mode="opposed", initiator={**side, "take7": True}, opponent=side)
    refused("opponent.take7", mode="opposed", initiator=side, opponent={**side, "take7": True})


# --- Advanced skills, limits, too many cards ------------------------------------------------

def test_advanced_at_rank_0_needs_a_familiarity():
    refused("rank", rank=0, aspect=2, dtn=9, advanced=True)
    refused("primary.rank", mode="team", dtn=9, primary={"rank": 0, "aspect": 1,
                                                          "skill": "Craft"})
    result = flip(rank=0, aspect=2, dtn=9, advanced=True, familiarity=True, seed=3)
    assert len(result["cards"]) == 2 and result["keep_low"]
    assert ("Flipped 2 cards, keeping the lowest: rank 0 with a Familiarity comes to 0, "
            "so 2 − 0 = 2.") in result["explain"]
    assert len(flip(rank=1, aspect=2, dtn=9, skill="Knowledge", seed=3)["cards"]) == 1


@pytest.mark.parametrize(("field", "good", "bad"), [
    ("rank", [0, 52], [-1, 53, 2.0, True, "2", None]),
    ("aspect", [-20, 50], [-21, 51, 1.5, False, "3", None]),
    ("flip", [-1, 10], [-53, 53, 1.0, True, "1"]),
    ("shift", [-50, 50], [-51, 51, 0.5, "1", []]),
    ("dtn", [0, 100], [-1, 101, 12.0, True, "12"]),
    ("specialization", [True, False], [1, "true", 0]),
    ("advanced", [False], [1, "no"]),
    ("familiarity", [True], [0, "yes"]),
])
def test_limits(field, good, bad):
    base = {"rank": 2, "aspect": 1, "dtn": 9}
    for value in good:
        assert flip(**{**base, field: value, "seed": 1})["outcome"]
    for value in bad:
        if value is None:  # a required field that is missing
            refused(field, **{k: v for k, v in base.items() if k != field})
        else:
            refused(field, **{**base, field: value})


def test_no_more_than_52_cards():
    assert "needs 53 cards, but the deck has 52" in str(refused("flip", rank=52, flip=1,
                                                               aspect=0, dtn=9))
    refused("rank", rank=52, specialization=True, aspect=0, dtn=9)
    refused("flip", rank=0, flip=-51, aspect=0, dtn=9)
    refused("flip", mode="aspect", aspect=50, flip=3, dtn=9)
    refused("flip", mode="aspect", aspect=-20, flip=-31, dtn=9)
    refused("initiator.flip", mode="opposed", initiator={"rank": 2, "flip": 51, "aspect": 0},
            opponent={"rank": 1, "aspect": 0})
    # The primary may gain a flip+1 from the team, so needs room for it.
    assert "with the team's flip+1" in str(refused(
        "primary.rank", mode="team", dtn=9, primary={"rank": 52, "aspect": 0},
        secondaries=[{"rank": 1, "aspect": 0}]))
    assert flip(mode="team", dtn=9, primary={"rank": 52, "aspect": 0}, seed=1)["primary"][
        "kept_value"] == 13


def test_unknown_fields_are_ignored():
    result = flip(rank=2, aspect=1, dtn=9, seed=5, colour="blue", initiator=3)
    assert result == flip(rank=2, aspect=1, dtn=9, seed=5)


def test_mode_is_checked():
    refused("mode", mode="contested", rank=1, aspect=1, dtn=9)
    with pytest.raises(InvalidRequest, match="^request: "):
        resolve(["flip"])


# --- Opposed flips ----------------------------------------------------------------------------

def opposed(mine: dict, theirs: dict) -> dict:
    return flip(mode="opposed", initiator=mine, opponent=theirs)


@pytest.mark.parametrize(("mine", "theirs", "outcome", "tiebreak"), [
    ((9, 3), (7, 3), "initiator", None),
    ((7, 3), (9, 3), "opponent", None),
    ((7, 3), (8, 2), "initiator", "aspect"),   # 10 against 10; aspect 3 beats 2
    ((8, 2), (7, 3), "opponent", "aspect"),
    ((7, 3), (7, 3), "initiator", "initiator"),
    ((1, -5), (1, -5), "initiator", "initiator"),
])
def test_opposed_higher_wins_then_aspect_then_initiator(mine, theirs, outcome, tiebreak):
    result = opposed({"rank": 1, "aspect": mine[1], "cards": hand(mine[0])},
                     {"rank": 1, "aspect": theirs[1], "cards": hand(theirs[0])})
    assert (result["outcome"], result["tiebreak"]) == (outcome, tiebreak)
    assert result["success"] == (outcome == "initiator")
    assert result["margin"] == result["initiator"]["total"] - result["opponent"]["total"]


def test_opposed_is_explained_side_by_side():
    result = opposed({"skill": "Stealth", "rank": 2, "aspect": 3, "cards": ["7H", "4C"]},
                     {"skill": "Notice [IP]", "rank": 1, "aspect": 2, "shift": 0,
                      "cards": ["8S"]})
    assert result["explain"] == [
        "Initiator uses Stealth, a Basic skill on Soft Strength [SS].",
        "Initiator flipped 2 cards: rank 2.", "Initiator turned up 7H, 4C.",
        "Initiator kept 7 + aspect 3 = 10.",
        "Opponent uses Notice [IP], a Basic skill on [IP].",
        "Opponent flipped 1 card: rank 1.", "Opponent turned up 8S.",
        "Opponent kept 8 + aspect 2 = 10.",
        "Tied at 10; aspect 3 beats 2: the initiator wins."]
    assert result["initiator"]["dtn"] is None and result["opponent"]["margin"] is None


def test_each_opposed_side_flips_its_own_deck():
    # Both sides flipping all 52 cards: only possible with a fresh deck each.
    result = flip(mode="opposed", seed=2, initiator={"rank": 52, "aspect": 0},
                  opponent={"rank": 52, "aspect": 0})
    assert sorted(result["initiator"]["cards"]) == sorted(result["opponent"]["cards"])
    assert result["tiebreak"] == "initiator"


# --- Team flips -------------------------------------------------------------------------------

def team(dtn: int, secondaries: list[list[str] | None], primary_cards=None, **primary) -> dict:
    """A team where each secondary is rank 1, aspect 5 with its one card (None: takes a 7)."""
    helpers = [{"rank": 1, "aspect": 5, **({"cards": c} if c else {"take7": True})}
               for c in secondaries]
    lead = {"rank": 2, "aspect": 3, **primary}
    if primary_cards:
        lead["cards"] = primary_cards
    return flip(mode="team", dtn=dtn, primary=lead, secondaries=helpers)


@pytest.mark.parametrize(("secondaries", "grants", "flip_bonus", "shift"), [
    ([["KH"]], ["flip+1"], 1, 0),
    ([["2H"]], ["shift-1"], 0, -1),
    ([["KH"], ["QH"], ["2H"]], ["flip+1", "shift+1", "shift-1"], 1, 0),
    ([["2H"], ["KH"], ["QH"]], ["shift-1", "flip+1", "shift+1"], 1, 0),
    ([["2H"], ["3H"]], ["shift-1", "shift-1"], 0, -2),
    ([["KH"], ["KS"], ["KD"], ["KC"]], ["flip+1", "shift+1", "shift+1", "shift+1"], 1, 3),
    ([None, None], ["shift-1", "shift-1"], 0, -2),   # 7 + 5 = 12 < 15
])
def test_team_grants(secondaries, grants, flip_bonus, shift):
    # DTN 18: the secondaries flip against hard (15), so a card of 10 or more with aspect 5.
    count = 2 + flip_bonus
    result = team(18, secondaries, primary_cards=hand(*range(13, 13 - count, -1)))
    assert [s["grant"] for s in result["secondaries"]] == grants
    assert result["granted"] == {"flip": flip_bonus, "shift": shift}
    assert all(s["dtn"] == 15 for s in result["secondaries"])
    assert [s["success"] for s in result["secondaries"]] == [g != "shift-1" for g in grants]
    assert len(result["primary"]["cards"]) == count
    assert result["primary"]["total"] == 13 + 3 + shift
    assert result["outcome"] == result["primary"]["outcome"]


def test_team_primary_cards_count_after_the_granted_flip():
    # "The first successful secondary grants a (flip+1) ... Then the primary makes his flip": a
    # helper's draw decides the primary's count, so the primary's forced draw is fitted to it —
    # completed from the same deck minus the cards shown, or cut to its first cards.
    short = {"rank": 2, "aspect": 3, "cards": ["KH", "QH"]}
    for seed in range(20):
        result = flip(mode="team", dtn=16, seed=seed, primary=short,
                      secondaries=[{"rank": 1, "aspect": 5, "cards": ["KS"]}])
        cards = result["primary"]["cards"]
        assert cards[:2] == ["KH", "QH"] and len(cards) == 3 and cards[2] not in ("KH", "QH")
        check_result(result, result["request"])
    long = team(16, [["2S"]], primary_cards=["KH", "QH", "2C"])
    assert long["primary"]["cards"] == ["KH", "QH"] and long["granted"]["flip"] == 0
    assert resolve(long["request"]) == long
    # Other sides' counts are their own: a forced draw there must still be exact.
    assert "exactly 2 cards" in str(refused("secondaries.0.cards", mode="team", dtn=16,
                                            primary=short,
                                            secondaries=[{"rank": 2, "aspect": 5,
                                                          "cards": ["KS"]}]))
    assert "exactly 2 cards" in str(refused("cards", rank=2, aspect=3, dtn=16, cards=["KS"]))
    refused("primary.cards", mode="team", dtn=16, primary={**short, "cards": ["KH", "KH"]},
            secondaries=[])
    refused("primary.keep", mode="team", dtn=16,
            primary={"rank": 2, "aspect": 3, "keep": 2},
            secondaries=[{"rank": 1, "aspect": 5, "cards": ["2S"]}])
    # Rank 0 keeps the low of 2, but the team's flip+1 makes it one card, kept high.
    result = team(16, [["KH"]], primary_cards=["5D"], rank=0)
    assert not result["primary"]["keep_low"] and result["primary"]["kept_value"] == 5


# "Secondary participants flip with a DTN one level lower": the next lower rating, so a team
# at "Hard (DTN 16)" helps against 12, as a team at Hard 15 does.
@pytest.mark.parametrize(("dtn", "secondary_dtn"), [
    (16, 12), (15, 12), (13, 9), (12, 9), (9, 7), (7, 5), (6, 6), (5, 5), (3, 3), (0, 0),
    (25, 21), (26, 21), (100, 21)])
def test_secondaries_flip_one_difficulty_lower(dtn, secondary_dtn):
    result = team(dtn, [["7H"]])
    assert result["secondaries"][0]["dtn"] == secondary_dtn
    assert result["dtn"] == result["primary"]["dtn"] == dtn


def test_team_draws_each_secondary_in_turn_then_the_primary():
    result = flip(mode="team", dtn=12, seed=99, primary={"rank": 3, "aspect": 2},
                  secondaries=[{"rank": 1, "aspect": 2}, {"rank": 2, "aspect": 2},
                               {"rank": 4, "aspect": 2}])
    draw = Draw(random.Random(99))
    expected = [draw.cards(n, None, "cards") for n in (1, 2, 4)]
    assert [s["cards"] for s in result["secondaries"]] == expected
    primary_count = 3 + result["granted"]["flip"]
    assert result["primary"]["cards"] == draw.cards(primary_count, None, "cards")
    duel = flip(mode="opposed", seed=5, initiator={"rank": 2, "aspect": 0},
                opponent={"rank": 3, "aspect": 0})
    draw = Draw(random.Random(5))
    assert [duel["initiator"]["cards"], duel["opponent"]["cards"]] == [
        draw.cards(2, None, "cards"), draw.cards(3, None, "cards")]


def test_team_is_explained():
    result = team(16, [["KH"], ["2C"]], primary_cards=["4S", "9D", "QH"])
    assert result["explain"] == [
        "The helpers flip against DTN 12, one difficulty below 16.",
        "Helper 1 flipped 1 card: rank 1.", "Helper 1 turned up KH.",
        "Helper 1 kept K (13) + aspect 5 = 18 against DTN 12 (average): great success, so "
        "flip +1 for the primary.",
        "Helper 2 flipped 1 card: rank 1.", "Helper 2 turned up 2C.",
        "Helper 2 kept 2 + aspect 5 = 7 against DTN 12 (average): bad failure, so shift −1 "
        "for the primary.",
        "Helper 2 failed by enough that the GM may raise the DTN one step.",
        "The team gives the primary flip +1 and shift −1.",
        "Primary flipped 3 cards: rank 2, team flip +1.", "Primary turned up 4S, 9D, QH.",
        "Primary kept Q (12) + aspect 3 + team shift −1 = 14 against DTN 16 (hard): failure."]


def test_team_sides_may_take_a_seven_and_the_team_may_be_alone():
    result = flip(mode="team", dtn=9, primary={"rank": 1, "aspect": 2, "take7": True},
                  secondaries=[{"rank": 1, "aspect": 0, "take7": True}])
    assert result["granted"] == {"flip": 1, "shift": 0}      # 7 against very easy (7)
    assert result["primary"]["total"] == 9 and result["primary"]["cards"] == []
    alone = flip(mode="team", dtn=9, primary={"rank": 1, "aspect": 2}, seed=1)
    assert alone["secondaries"] == [] and alone["granted"] == {"flip": 0, "shift": 0}


def test_team_limits():
    helper = {"rank": 1, "aspect": 1}
    assert flip(mode="team", dtn=9, primary=helper, secondaries=[helper] * 8, seed=1)
    refused("secondaries", mode="team", dtn=9, primary=helper, secondaries=[helper] * 9)
    refused("secondaries", mode="team", dtn=9, primary=helper, secondaries={"0": helper})
    refused("secondaries.0", mode="team", dtn=9, primary=helper, secondaries=[5])
    refused("primary", mode="team", dtn=9)
    refused("secondaries.2.aspect", mode="team", dtn=9, primary=helper,
            secondaries=[helper, helper, {"rank": 1}])
    refused("dtn", mode="team", primary=helper)


# --- Secret difficulty ------------------------------------------------------------------------

def test_a_secret_dtn_leaves_the_judging_to_the_gm():
    # "the GM generally should keep target numbers secret."
    result = flip(rank=2, aspect=3, secret=True, cards=["9S", "JH"])
    assert (result["outcome"], result["success"], result["dtn"], result["margin"]) == (
        "secret", None, None, None)
    assert result["total"] == 14 and result["kept"] == 1
    assert result["explain"][-1] == (
        "Kept J (11) + aspect 3 = 14; the DTN is secret, so the GM judges it.")
    revealed = resolve({**result["request"], "dtn": 15})
    assert revealed["cards"] == result["cards"] and revealed["outcome"] == "failure"
    assert flip(rank=2, aspect=3, secret=True, difficulty="average",
                cards=["9S", "JH"])["outcome"] == "success"
    assert flip(mode="aspect", aspect=2, secret=True, seed=3)["outcome"] == "secret"


def test_secret_only_for_unopposed_and_aspect_flips():
    side = {"rank": 1, "aspect": 1}
    refused("secret", mode="opposed", secret=True, initiator=side, opponent=side)
    refused("secret", mode="team", secret=True, dtn=9, primary=side)
    refused("secret", rank=1, aspect=1, secret="yes")
    assert flip(mode="opposed", secret=False, initiator=side, opponent=side, seed=1)


# --- Replay, seeds, the description ---------------------------------------------------------

EXAMPLES = [
    {"system": "flip", "skill": "Knowledge", "rank": 2, "aspect": 3, "flip": 1, "shift": 1,
     "dtn": 16},
    {"system": "flip", "rank": 0, "flip": -2, "aspect": 4, "difficulty": "easy"},
    {"system": "flip", "rank": 3, "aspect": 1, "dtn": 9, "take7": True, "shift": -1},
    {"system": "flip", "rank": 3, "aspect": 1, "secret": True},
    {"system": "flip", "rank": 3, "aspect": 1, "dtn": 12, "keep": 1},
    {"system": "flip", "mode": "aspect", "aspect": -2, "dtn": 3},
    {"system": "flip", "mode": "opposed", "initiator": {"rank": 2, "aspect": 3, "skill": "Stealth"},
     "opponent": {"rank": 1, "aspect": 2, "specialization": True, "keep": 0}},
    {"system": "flip", "mode": "team", "difficulty": "very hard",
     "primary": {"rank": 3, "aspect": 3, "skill": "Investigation"},
     "secondaries": [{"rank": 2, "aspect": 2}, {"rank": 1, "aspect": 4, "take7": True},
                     {"rank": 0, "aspect": 3}]},
]


@pytest.mark.parametrize("request_", EXAMPLES, ids=lambda r: r.get("mode", "unopposed"))
def test_replay_and_seeds(request_):
    check_seeded(request_)
    check_odds(request_)
    results = {json.dumps(flip(**{**request_, "seed": seed}), sort_keys=True)
               for seed in range(20)}
    assert len(results) > 1 or request_.get("take7")


def test_an_rng_overrides_the_seed():
    request_ = {**EXAMPLES[0], "seed": 1}
    assert resolve(request_, random.Random(2)) == resolve({**request_, "seed": 2})


def test_the_system_description():
    system = SYSTEMS["flip"]
    assert (system["label"], system["seed"], system["button"]) == ("Card flip", "000", "Flip")
    assert system["modes"] == ["unopposed", "aspect", "opposed", "team"]
    assert system["winners"] == ["great success", "success", "initiator"]
    assert set(system["outcomes"]) == {"great success", "success", "failure", "bad failure",
                                      "initiator", "opponent", "secret"}
    fields = {f["name"]: f for f in system["fields"]}
    assert (fields["rank"]["min"], fields["rank"]["max"]) == (0, 52)
    assert (fields["aspect"]["min"], fields["aspect"]["max"]) == (-20, 50)
    assert fields["flip"]["default"] == 0 and fields["mode"]["default"] == "unopposed"
    assert set(system["side_fields"]) <= set(fields)
    assert system["max_secondaries"] == 8
    assert len(system["skills"]) == len(SKILLS)
    json.dumps(system)


# --- Property tests -----------------------------------------------------------------------------

def sides(aspect_check: bool = False):
    """Valid sides: every count fits the deck even with the team's flip+1."""
    def build(rank, aspect, flip_, shift, spec, advanced, familiarity, take7, skill, keep_seed):
        side = {"aspect": aspect, "flip": flip_, "shift": shift}
        if not aspect_check:
            side |= {"rank": rank, "specialization": spec, "advanced": advanced,
                     "familiarity": familiarity or rank == 0}
            if skill:
                side["skill"] = skill
        base = aspect if aspect_check else rank + spec
        if take7 and base - spec >= 1:
            side["take7"] = True
        elif keep_seed is not None and base + flip_ > keep_seed:
            side["keep"] = keep_seed
        return side
    return st.builds(build, st.integers(0, 40), st.integers(-20, 40), st.integers(-10, 10),
                     st.integers(-50, 50), st.booleans(), st.booleans(), st.booleans(),
                     st.booleans(), st.sampled_from([None, *[s.name for s in SKILLS]]),
                     st.none() | st.integers(0, 5))


def requests():
    dtn = st.integers(0, 100)
    return st.one_of(
        st.builds(lambda s, d: {"system": "flip", **s, "dtn": d}, sides(), dtn),
        st.builds(lambda s: {"system": "flip", **s, "secret": True}, sides()),
        st.builds(lambda s, d: {"system": "flip", "mode": "aspect", **s, "dtn": d},
                  sides(aspect_check=True), dtn),
        st.builds(lambda a, b: {"system": "flip", "mode": "opposed",
                                "initiator": a, "opponent": b},
                  sides().map(lambda s: {k: v for k, v in s.items() if k != "take7"}),
                  sides().map(lambda s: {k: v for k, v in s.items() if k != "take7"})),
        st.builds(lambda p, h, d: {"system": "flip", "mode": "team", "dtn": d, "primary": p,
                                   "secondaries": h},
                  sides().map(lambda s: {k: v for k, v in s.items() if k != "keep"}),
                  st.lists(sides(), max_size=8), dtn),
    )


def check_side(side: dict) -> None:
    values = [card_value(c) for c in side["cards"]]
    assert len(set(side["cards"])) == len(values)
    if side["take7"]:
        assert side["kept"] is None and side["kept_value"] == 7 and not values
    else:
        assert values[side["kept"]] == side["kept_value"]
    if side["dtn"] is not None:
        assert side["margin"] == side["total"] - side["dtn"]


# "Nothing runs long": each example (several resolves and odds) must finish within a second —
# generous for a loaded test machine; a runaway loop or a huge enumeration would blow it.
LONG = 1000


@settings(max_examples=150, deadline=LONG, suppress_health_check=[HealthCheck.too_slow])
@given(requests(), st.integers(0, 2**63 - 1))
def test_any_valid_request_resolves_to_a_well_formed_result(request_, seed):
    result = resolve({**request_, "seed": seed})
    check_result(result, request_)
    mode = request_.get("mode", "unopposed")
    for side in ([result] if mode in ("unopposed", "aspect") else
                 [result["initiator"], result["opponent"]] if mode == "opposed" else
                 [result["primary"], *result["secondaries"]]):
        check_side(side)
    check_odds(request_)


JUNK = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=4),
    max_leaves=12)


def paths(obj, prefix=()):
    """Every place in a request a value could be swapped: each key and list item, nested."""
    yield prefix
    items = (obj.items() if isinstance(obj, dict) else
             enumerate(obj) if isinstance(obj, list) else ())
    for key, value in items:
        yield from paths(value, (*prefix, key))


def swapped(obj, where, junk):
    if not where:
        return junk
    head, *rest = where
    copy = dict(obj) if isinstance(obj, dict) else list(obj)
    copy[head] = swapped(obj[head], rest, junk)
    return copy


FIELD_NAMES = ["rank", "aspect", "flip", "shift", "dtn", "difficulty", "secret", "take7", "keep",
               "cards", "skill", "mode", "specialization", "advanced", "familiarity", "primary",
               "secondaries", "initiator", "opponent", "seed", "system"]


@settings(max_examples=400, deadline=LONG, suppress_health_check=[HealthCheck.too_slow])
@given(requests(), st.data(), JUNK, st.sampled_from(FIELD_NAMES))
def test_junk_anywhere_raises_only_invalid_request(request_, data, junk, name):
    where = data.draw(st.sampled_from(list(paths(request_))))
    target = swapped(request_, where, junk)
    if isinstance(target, dict) and data.draw(st.booleans()):
        target = {**target, name: junk}           # or a field that was not there at all
    for call in (resolve, odds):
        try:
            answer = call(target)
        except InvalidRequest as error:
            assert str(error).startswith(f"{error.field}: ")
        else:
            json.dumps(answer)
