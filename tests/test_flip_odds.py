"""Exact odds of the card flip: against plain enumeration written here, against icepool, against
100,000 seeded flips, and the fairness of the default (SystemRandom) deck."""

import math
import random
import time
from collections import Counter
from fractions import Fraction
from itertools import combinations, product
from statistics import NormalDist

import icepool
import pytest
from contract_checks import check_odds, hoeffding_bound
from skillcheck import InvalidRequest, odds, resolve
from skillcheck.draw import Draw, card_value
from skillcheck.exact import deck_extreme

# --- An independent model: the deck, the ladder and the rulings, written plainly -------------

DECK_VALUES = [v for v in range(1, 14) for _ in range(4)]
STEPS = (5, 7, 9, 12, 15, 18, 21, 25)


def lower_rating(dtn: int) -> int | None:
    """The ladder value under the DTN's own rating (the highest value at or below it)."""
    own = [v for v in STEPS if v <= dtn]
    lower = [v for v in STEPS if own and v < own[-1]]
    return lower[-1] if lower else None


def level(total: int, dtn: int) -> str:
    if total >= dtn:
        higher = [v for v in STEPS if v > dtn]
        return "great success" if higher and total >= higher[0] else "success"
    lower = lower_rating(dtn)
    return "bad failure" if lower is not None and total < lower else "failure"


def count_and_end(n: int) -> tuple[int, bool]:
    return (n, False) if n >= 1 else (2 - n, True)


def kept_counts(count: int, low: bool) -> Counter:
    """How many of the C(52, count) hands keep each value: every hand listed."""
    pick = min if low else max
    return Counter(pick(DECK_VALUES[i] for i in hand)
                   for hand in combinations(range(52), count))


def as_fractions(answer: dict) -> dict[str, Fraction]:
    return {name: Fraction(p) for name, p in answer.items()}


def flip(**fields) -> dict:
    return {"system": "flip", **fields}


# --- The kept card --------------------------------------------------------------------------

@pytest.mark.parametrize("count", [1, 2, 3])
@pytest.mark.parametrize("low", [False, True])
def test_kept_card_matches_every_hand_listed(count, low):
    hands = math.comb(52, count)
    listed = {v: Fraction(k, hands) for v, k in kept_counts(count, low).items()}
    assert deck_extreme(count, low) == listed


DECK = icepool.Deck(range(1, 14), times=4)


@pytest.mark.parametrize("count", [1, 2, 3, 4, 7, 10, 13, 20, 26, 40, 49, 51, 52])
def test_kept_card_matches_icepool(count):
    high = DECK.deal(count).highest(1).sum()
    low = DECK.deal(count).lowest(1).sum()
    assert deck_extreme(count, False) == {v: high.probability(v) for v in high.outcomes()
                                          if high.probability(v)}
    assert deck_extreme(count, True) == {v: low.probability(v) for v in low.outcomes()
                                         if low.probability(v)}
    # The same numbers reach the page: a secret flip's odds carry the total's distribution.
    totals = odds(flip(rank=count, aspect=2, shift=-1, secret=True))["totals"]
    assert {int(t): Fraction(p) for t, p in totals.items()} == {
        v + 1: high.probability(v) for v in high.outcomes() if high.probability(v)}
    if count >= 2:
        totals = odds(flip(rank=0, flip=2 - count, aspect=0, secret=True))["totals"]
        assert {int(t): Fraction(p) for t, p in totals.items()} == {
            v: low.probability(v) for v in low.outcomes() if low.probability(v)}


# --- Unopposed and aspect flips -------------------------------------------------------------

UNOPPOSED = [
    flip(skill="Knowledge", rank=2, aspect=3, flip=1, shift=1, dtn=16),   # Tony in the library
    flip(skill="Knowledge", rank=2, aspect=3, dtn=12),
    flip(rank=1, aspect=2, specialization=True, difficulty="extremely easy"),
    flip(rank=0, aspect=4, dtn=9),
    flip(rank=0, flip=-1, aspect=8, dtn=12),
    flip(rank=1, aspect=5, dtn=15),
    flip(rank=3, aspect=14, shift=-2, dtn=25),
    flip(rank=2, aspect=-3, shift=3, dtn=4),
    flip(rank=2, aspect=20, dtn=30),
    flip(mode="aspect", aspect=3, dtn=12),                 # "a Hard Strength of 3"
    flip(mode="aspect", aspect=0, dtn=5),
    flip(mode="aspect", aspect=-1, flip=2, dtn=0),
]


def listed_unopposed(request: dict) -> dict[str, Fraction]:
    """Every hand of the request, judged plainly."""
    base = request["aspect"] if request.get("mode") == "aspect" else request["rank"]
    n = base + request.get("flip", 0) + request.get("specialization", False)
    count, low = count_and_end(n)
    dtn = request["dtn"] if "dtn" in request else {"extremely easy": 5}[request["difficulty"]]
    outcomes: Counter = Counter()
    for value, ways in kept_counts(count, low).items():
        outcomes[level(value + request["aspect"] + request.get("shift", 0), dtn)] += ways
    return {name: Fraction(k, math.comb(52, count)) for name, k in outcomes.items()}


@pytest.mark.parametrize("request_", UNOPPOSED, ids=str)
def test_unopposed_odds_match_every_hand_listed(request_):
    assert check_odds(request_) == listed_unopposed(request_)


def test_take_a_seven_is_certain():
    assert odds(flip(rank=1, aspect=2, dtn=9, take7=True)) == {
        "outcomes": {"success": "1"}, "success": "1", "totals": {"9": "1"}}
    assert check_odds(flip(rank=1, aspect=2, shift=-1, dtn=9, take7=True)) == {"failure": 1}
    assert check_odds(flip(mode="aspect", aspect=4, dtn=5, take7=True)) == {"great success": 1}


def test_odds_ignore_seed_cards_and_keep():
    # "seed, cards, dice and keep in the request are ignored by odds": the best card is kept.
    plain = flip(rank=3, aspect=2, dtn=12)
    assert odds({**plain, "seed": 4, "cards": ["AS", "2S", "3S"], "keep": 0}) == odds(plain)


def test_odds_refuse_a_draw_resolve_refuses():
    # ...but a draw the rules refuse is refused by both the same way (issue 13).
    junk = {**flip(rank=3, aspect=2, dtn=12), "cards": "junk", "keep": "junk"}
    with pytest.raises(InvalidRequest, match="^keep: must be a whole number from 0 to 51$"):
        odds(junk)
    with pytest.raises(InvalidRequest, match="^keep: must be a whole number from 0 to 51$"):
        resolve(junk)


def test_secret_odds_give_the_totals_only():
    answer = odds(flip(rank=2, aspect=3, flip=1, shift=1, secret=True))
    assert answer["outcomes"] == {"secret": "1"} and answer["success"] is None
    assert sum(map(Fraction, answer["totals"].values())) == 1
    judged = odds(flip(rank=2, aspect=3, flip=1, shift=1, dtn=16))
    assert judged["totals"] == answer["totals"]
    # A secret flip with its difficulty revealed is judged as usual.
    assert odds(flip(rank=2, aspect=3, flip=1, shift=1, secret=True, dtn=16)) == judged


# --- Opposed flips --------------------------------------------------------------------------

def listed_opposed(mine: dict, theirs: dict) -> dict[str, Fraction]:
    """Every pair of hands (one deck each), grouped by the pair of kept cards."""
    sides = []
    for side in (mine, theirs):
        count, low = count_and_end(side["rank"] + side.get("flip", 0))
        sides.append((kept_counts(count, low), math.comb(52, count), side["aspect"]))
    (a_ways, a_hands, a_aspect), (b_ways, b_hands, b_aspect) = sides
    wins: Counter = Counter()
    for (a, wa), (b, wb) in product(a_ways.items(), b_ways.items()):
        ta, tb = a + a_aspect, b + b_aspect
        initiator = ta > tb or (ta == tb and a_aspect >= b_aspect)
        wins["initiator" if initiator else "opponent"] += wa * wb
    return {name: Fraction(k, a_hands * b_hands) for name, k in wins.items()}


@pytest.mark.parametrize(("mine", "theirs"), [
    ({"rank": 1, "aspect": 2}, {"rank": 1, "aspect": 2}),
    ({"rank": 2, "aspect": 3}, {"rank": 1, "aspect": 4}),
    ({"rank": 1, "aspect": 2}, {"rank": 2, "aspect": 3}),
    ({"rank": 0, "aspect": 5}, {"rank": 0, "flip": -1, "aspect": 6}),
    ({"rank": 3, "aspect": 1}, {"rank": 1, "aspect": 3}),
])
def test_opposed_odds_match_every_pair_of_hands(mine, theirs):
    request = flip(mode="opposed", initiator=mine, opponent=theirs)
    assert check_odds(request) == listed_opposed(mine, theirs)


@pytest.mark.parametrize(("aspects", "ties_to"), [((3, 4), "opponent"), ((4, 3), "initiator"),
                                                  ((3, 3), "initiator")])
def test_opposed_ten_cards_a_side_matches_icepool(aspects, ties_to):
    mine = DECK.deal(10).highest(1).sum() + aspects[0]
    theirs = DECK.deal(10).highest(1).sum() + aspects[1] + 1   # and a shift+1
    margin = mine - theirs
    win = sum((margin.probability(m) for m in margin.outcomes() if m > 0), Fraction(0))
    win += margin.probability(0) if ties_to == "initiator" else 0
    chances = check_odds(flip(mode="opposed", initiator={"rank": 10, "aspect": aspects[0]},
                              opponent={"rank": 10, "aspect": aspects[1], "shift": 1}))
    assert chances["initiator"] == win and chances["opponent"] == 1 - win


# --- Team flips -----------------------------------------------------------------------------

def listed_team(dtn: int, primary: dict, helpers: list[dict],
                gm_raise: bool = False) -> dict[str, Fraction]:
    """Every card of every one-card secondary (one deck each; a taken 7 is fixed), then every
    hand of the primary with what the team gave — against a DTN one step up when the GM raises
    it for a helper's bad failure."""
    lower = lower_rating(dtn)
    target = dtn if lower is None else lower
    choices = [[7] if h.get("take7") else DECK_VALUES for h in helpers]
    outcome: Counter = Counter()
    primary_hands = {}
    for cards in product(*choices):
        wins = [card + h["aspect"] >= target for card, h in zip(cards, helpers, strict=True)]
        successes = sum(wins)
        bonus_flip = 1 if successes else 0
        bonus_shift = (successes - 1 if successes else 0) - (len(wins) - successes)
        count, low = count_and_end(primary["rank"] + bonus_flip)
        if count not in primary_hands:
            primary_hands[count] = kept_counts(count, low)
        weight = Fraction(1, math.prod(len(c) for c in choices) * math.comb(52, count))
        bad = any(level(card + h["aspect"], target) == "bad failure"
                  for card, h in zip(cards, helpers, strict=True))
        higher = [v for v in STEPS if v > dtn]
        against = higher[0] if gm_raise and bad and higher else dtn
        for value, ways in primary_hands[count].items():
            outcome[level(value + primary["aspect"] + bonus_shift, against)] += ways * weight
    return {name: p for name, p in outcome.items() if p}


@pytest.mark.parametrize(("dtn", "primary", "helpers"), [
    (16, {"rank": 1, "aspect": 4}, [{"rank": 1, "aspect": 5}, {"rank": 1, "aspect": 3}]),
    (12, {"rank": 0, "aspect": 6}, [{"rank": 1, "aspect": 2}, {"rank": 1, "aspect": 0},
                                    {"rank": 1, "aspect": 2, "take7": True}]),
    (5, {"rank": 1, "aspect": 0}, [{"rank": 1, "aspect": -3}, {"rank": 1, "aspect": 1}]),
    (30, {"rank": 2, "aspect": 12}, [{"rank": 1, "aspect": 12}]),
])
@pytest.mark.parametrize("gm_raise", [False, True])
def test_team_odds_match_every_deal(dtn, primary, helpers, gm_raise):
    # "If someone fails by enough, the GM may decide to increase the DTN by one category higher."
    request = flip(mode="team", dtn=dtn, primary=primary, secondaries=helpers,
                   gm_raises_dtn=gm_raise)
    assert check_odds(request) == listed_team(dtn, primary, helpers, gm_raise)


def test_team_odds_carry_the_primarys_totals():
    answer = odds(flip(mode="team", dtn=16, primary={"rank": 2, "aspect": 3},
                       secondaries=[{"rank": 2, "aspect": 3}] * 3))
    totals = {int(t): Fraction(p) for t, p in answer["totals"].items()}
    assert sum(totals.values()) == 1
    assert Fraction(answer["success"]) == sum(p for t, p in totals.items() if t >= 16)


# --- Speed: the page recomputes odds on every keystroke, ~3x slower under Pyodide -------------

HEAVY = [
    flip(mode="opposed", initiator={"rank": 10, "aspect": 3}, opponent={"rank": 10, "aspect": 4}),
    flip(mode="team", dtn=18, primary={"rank": 5, "aspect": 3, "specialization": True},
         secondaries=[{"rank": 2 + i % 4, "aspect": 1 + i % 3, "flip": i % 2 - 1}
                      for i in range(8)]),
]


@pytest.mark.parametrize("request_", HEAVY, ids=["opposed 10 a side", "team of 8"])
def test_odds_are_quick(request_):
    best = math.inf
    for _ in range(5):
        start = time.perf_counter()
        odds(request_)
        best = min(best, time.perf_counter() - start)
    assert best < 0.050, f"{best * 1000:.1f} ms"


# --- Frequencies of seeded flips against the exact odds -------------------------------------

def agrees(counts: Counter, runs: int, exact: dict, events: int) -> None:
    """Hoeffding with a union bound over all `events` frequencies compared in this test (see
    contract_checks.hoeffding_bound): a fair engine fails this less than once in 10,000 runs."""
    bound = hoeffding_bound(events, runs)
    assert set(counts) <= set(exact)
    for key, p in exact.items():
        assert abs(counts[key] / runs - p) < bound, (key, counts[key] / runs, float(p), bound)


def test_100000_seeded_flips_land_as_the_odds_say():
    request = flip(rank=2, aspect=5, dtn=15)      # all four outcomes likely
    answer = odds(request)
    outcomes, totals = as_fractions(answer["outcomes"]), as_fractions(answer["totals"])
    assert len(outcomes) == 4
    rng, runs = random.Random(20240), 100_000
    seen_outcomes: Counter = Counter()
    seen_totals: Counter = Counter()
    for _ in range(runs):
        result = resolve(request, rng)
        seen_outcomes[result["outcome"]] += 1
        seen_totals[str(result["total"])] += 1
    events = len(outcomes) + len(totals)
    agrees(seen_outcomes, runs, outcomes, events)
    agrees(seen_totals, runs, totals, events)


@pytest.mark.parametrize("request_", [
    flip(mode="opposed", initiator={"rank": 2, "aspect": 3}, opponent={"rank": 3, "aspect": 2}),
    flip(mode="team", dtn=15, primary={"rank": 2, "aspect": 3},
         secondaries=[{"rank": 2, "aspect": 4}]),
], ids=["opposed", "team"])
def test_20000_seeded_opposed_and_team_flips_land_as_the_odds_say(request_):
    exact = check_odds(request_)
    rng, runs = random.Random(7), 20_000
    agrees(Counter(resolve(request_, rng)["outcome"] for _ in range(runs)), runs, exact,
           len(exact))


# --- The default deck is fair ---------------------------------------------------------------

def chi_square_critical(df: int, alpha: float) -> float:
    """Wilson–Hilferty: (χ²/df)^(1/3) is close to normal with mean 1 − 2/(9df) and variance
    2/(9df), so the upper-alpha point is df·(1 − 2/(9df) + z·√(2/(9df)))³. Standard library only.
    (Checked against the exact tail: at alpha 5e-5 the true tail beyond it is 3.2e-5 for 3
    degrees of freedom and 4.2e-5 for 12, so the test errs towards passing a fair deck.)"""
    z = NormalDist().inv_cdf(1 - alpha)
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def chi_square(counts: Counter, cells: list[str], total: int) -> float:
    expected = total / len(cells)
    return sum((counts[cell] - expected) ** 2 / expected for cell in cells)


def test_the_system_random_deck_is_fair_by_rank_and_suit():
    # 13,000 flips with no seed and no rng: the operating system's source. Two tests, each at
    # alpha 5e-5, so a fair deck fails this less than once in 10,000 runs.
    runs = 13_000
    cards = [resolve(flip(rank=1, aspect=0, dtn=0))["cards"][0] for _ in range(runs)]
    ranks = Counter(card[:-1] for card in cards)
    suits = Counter(card[-1] for card in cards)
    rank_cells = ["A", *map(str, range(2, 11)), "J", "Q", "K"]
    assert chi_square(ranks, rank_cells, runs) < chi_square_critical(12, 5e-5)
    assert chi_square(suits, list("SHDC"), runs) < chi_square_critical(3, 5e-5)
    assert set(ranks) == set(rank_cells) and set(suits) == set("SHDC")


def test_the_chi_square_test_can_fail():
    # The same statistic catches a deck that, one flip in six, shows the higher of two cards.
    rng = random.Random(3)
    draw = Draw(rng)
    cards = [max(draw.cards(2 if rng.random() < 1 / 6 else 1, None, "cards"), key=card_value)
             for _ in range(13_000)]
    ranks = Counter(card[:-1] for card in cards)
    statistic = chi_square(ranks, ["A", *map(str, range(2, 11)), "J", "Q", "K"], 13_000)
    assert statistic > chi_square_critical(12, 5e-5)
