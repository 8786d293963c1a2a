"""The knobs under a result (issue 35.5): the fields each system steps, and how a row says them."""

from __future__ import annotations

import pytest
from app import systems
from app.adjust_html import Knob, adjust_html, adjusted
from skillcheck.registry import REGISTRY


@pytest.mark.parametrize("system", systems.PAGES)
def test_every_mode_steps_its_difficulty_or_the_number_most_changed(system):
    modes = systems.PAGES[system].modes or (None,)
    fields = {spec["name"]: spec for spec in REGISTRY[system].describe()["fields"]}
    for mode in modes:
        stepped = adjusted(system, mode)
        assert 1 <= len(stepped) <= 2
        for name in stepped:
            assert fields[name.rsplit(".", 1)[-1]]["kind"] in ("whole", "choice")


def test_a_system_without_knobs_draws_no_row():
    assert adjusted("chess", None) == ()
    assert adjust_html([]) == ""


def test_a_row_names_each_knob_and_disables_the_way_it_cannot_go():
    html = adjust_html([Knob("dr", "DR", "10", down=True, up=False),
                        Knob("opponent.rank", "Opponent · Rank", "3", True, True)])
    assert html.count('role="group"') == 1 and ">Next roll<" in html
    assert ('data-adjust="dr" data-adjust-step="1" aria-label="DR up" disabled>+' in html)
    assert 'aria-label="DR down">−' in html
    assert '<output data-adjust-value="opponent.rank">3</output>' in html
    assert 'aria-label="Opponent · Rank up">+' in html


def test_labels_and_values_are_escaped():
    html = adjust_html([Knob("x", "<b>", "<i>", False, False)])
    assert "<b>" not in html and "&lt;b&gt;" in html and "&lt;i&gt;" in html
