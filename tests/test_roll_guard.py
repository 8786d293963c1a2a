"""One roll per deliberate tap (issue 35, point 2): the guard every rolling button shares."""

from __future__ import annotations

from app.roll_guard import QUIET_MS, RollGuard
from hypothesis import given
from hypothesis import strategies as st


def rolled(guard: RollGuard, at: float, took: float = 30) -> bool:
    """A press at `at`; a roll it starts has its result drawn `took` ms later."""
    if not guard.admits(at):
        return False
    guard.done(at + took, rolled=True)
    return True


def test_a_double_tap_rolls_once_and_a_tap_after_the_quiet_rolls_again():
    guard = RollGuard()
    assert rolled(guard, 1000)
    assert not rolled(guard, 1100) and not rolled(guard, 1300)  # a thumb's second tap
    assert not rolled(guard, 1000 + QUIET_MS - 1)
    assert rolled(guard, 1000 + QUIET_MS)  # a deliberate second roll
    assert QUIET_MS == 400


def test_a_press_made_before_the_result_was_drawn_is_ignored_however_long_it_took():
    guard = RollGuard()
    assert rolled(guard, 1000, took=900)  # a slow phone: drawn at 1900
    assert not rolled(guard, 1500)  # pressed while the page was still busy with it
    assert rolled(guard, 1901)


def test_while_a_roll_is_still_running_nothing_else_starts_one():
    guard = RollGuard()
    assert guard.admits(1000)
    assert not guard.admits(5000)  # its handler awaits still: no second roll meanwhile
    guard.done(5100, rolled=True)
    assert not guard.admits(5050)  # pressed while it was still being drawn
    assert guard.admits(5200)  # its press was long ago: this one rolls


def test_a_press_the_rules_refused_rolled_nothing_so_the_next_press_counts():
    guard = RollGuard()
    assert rolled(guard, 0)
    assert guard.admits(500)
    guard.done(510, rolled=False)  # a mistake in the form: said beside its box
    assert guard.admits(600)  # mended and pressed again at once: it rolls
    guard.done(620, rolled=True)
    assert not guard.admits(700)  # and a double tap on that one does not


def test_a_failed_press_frees_the_guard_too():
    guard = RollGuard()
    assert guard.admits(0)
    guard.done(10, rolled=False)  # browser.one_roll calls done in a finally
    assert guard.admits(20)


@given(st.lists(st.floats(0, 10_000), min_size=1, max_size=40))
def test_rolls_let_through_are_never_closer_than_the_quiet(times):
    guard = RollGuard()
    through = [at for at in sorted(times) if rolled(guard, at)]
    assert through[0] == min(times)
    assert all(b - a >= QUIET_MS for a, b in zip(through, through[1:], strict=False))
