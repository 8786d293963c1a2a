"""One roll per deliberate tap. A thumb's double tap on Roll, Flip or Re-roll lands twice 100–300 ms
apart, and a mouse's double click too: the second would roll again and log a second check that
nobody meant. So a press is ignored when it comes within QUIET_MS of the last press that rolled,
or before that roll's result was drawn (it was made while the page was still busy with it). A
press the rules refused rolled nothing: the next one counts, so a mended typo rolls at once.
Enter held down repeats as key presses; main.py drops those before they become a roll.

Pure: times are given in milliseconds on one clock, the browser's `performance.now()`, which an
event's `timeStamp` also reads (browser.one_roll hands both in). A press is timed by its click,
which keeps the time the tap was made even when it waited behind a slow roll; the form's
submission after it is timed when it runs.
"""

from __future__ import annotations

import math

QUIET_MS = 400


class RollGuard:
    """Which presses start a roll: one per page, shared by every button that rolls, so a tap
    on Roll then on Re-roll within QUIET_MS is one roll too."""

    def __init__(self, quiet_ms: float = QUIET_MS) -> None:
        self.quiet_ms = quiet_ms
        self.last = -math.inf  # when the last press that rolled was made
        self.drawn = -math.inf  # when its result was on the page
        self.busy = False  # a press let through is not done yet (its handler may await)
        self.asked = -math.inf  # when that press was made

    def admits(self, at: float) -> bool:
        """Whether a press made at `at` may roll; then `done` must follow."""
        if self.busy or at < self.drawn or at - self.last < self.quiet_ms:
            return False
        self.busy, self.asked = True, at
        return True

    def done(self, now: float, rolled: bool) -> None:
        """The press let through is done at `now`: it `rolled` (its result is drawn), or the
        rules refused it, or it failed, and it rolled nothing."""
        self.busy = False
        if rolled:
            self.last, self.drawn = self.asked, max(self.drawn, now)
