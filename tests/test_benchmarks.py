"""What the benchmarks' verdicts rest on (benchmarks/rounds.py): the order pages take in each
round, and the interval given each ratio to the bare page, which must be the ratio's own spread,
repeatable, and paired only when the rounds are."""

import importlib.util
import statistics

import build

# Loaded from its file: benchmarks/ is not a package, and its engines.py shares a name with the
# e2e tests' own.
_SPEC = importlib.util.spec_from_file_location("rounds", build.ROOT / "benchmarks" / "rounds.py")
rounds = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(rounds)

# Two pages measured in the same rounds; round 3 was slow for both (the machine was busy).
APP = [700.0, 720.0, 1400.0, 710.0, 690.0, 730.0]
BARE = [2000.0, 2050.0, 4000.0, 2020.0, 1980.0, 2070.0]


def test_the_interval_holds_the_ratio_of_the_medians():
    low, high = rounds.ratio_interval(APP, BARE)
    assert low <= statistics.median(APP) / statistics.median(BARE) <= high


def test_the_same_samples_give_the_same_interval():
    assert rounds.ratio_interval(APP, BARE) == rounds.ratio_interval(list(APP), list(BARE))


def test_rounds_are_resampled_together_when_both_pages_ran_in_them():
    # Paired, the slow round counts against both pages at once, and the ratio barely moves;
    # resampled apart (one bare round fewer), it can meet a slow app with a fast bare page.
    paired = rounds.ratio_interval(APP, BARE)
    apart = rounds.ratio_interval(APP, BARE[:-1])
    assert paired[1] - paired[0] < apart[1] - apart[0]
    assert paired[1] < 0.37 < apart[1]


def test_identical_rounds_leave_no_spread():
    assert rounds.ratio_interval([1.0] * 4, [2.0] * 4) == (0.5, 0.5)


def test_the_text_names_the_ratio_and_its_interval():
    assert rounds.ratio_text([1.0] * 4, [2.0] * 4) == "0.50× bare (0.50–0.50)"


def test_each_page_takes_each_place_in_turn():
    names = ["app", "bare", "app before"]
    orders = [rounds.in_turn(names, round_) for round_ in range(1, 4)]
    assert all(sorted(order) == sorted(names) for order in orders)
    assert {order.index(name) for order in orders for name in names[:1]} == {0, 1, 2}
    assert [order[0] for order in orders] == ["bare", "app before", "app"]
