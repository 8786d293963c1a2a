"""What every rule system module shares (issue 15): `read` checks a request into a frozen
dataclass whose `echo()` is the request a result carries for replay, and `SYSTEM` is the entry
the registry lists."""

from __future__ import annotations

import dataclasses
import json

import pytest
from skillcheck import flip, fluke, passages, pool, resolve, swift
from skillcheck.flip import rules as flip_rules
from skillcheck.registry import REGISTRY

# The module that holds each system's `read`, `judge` and `SYSTEM`.
MODULES = {"flip": (flip_rules, flip), "pool": (pool, pool), "swift": (swift, swift),
           "fluke": (fluke, fluke), "passages": (passages, passages)}

# Requests that leave defaults out, and cover every optional part of each echo.
REQUESTS = [
    {"system": "flip", "rank": 2, "aspect": 3, "difficulty": "Hard", "keep": 1},
    {"system": "flip", "mode": "aspect", "aspect": 2, "secret": True},
    {"system": "flip", "mode": "opposed", "gm_allows_take7": True,
     "initiator": {"rank": 2, "aspect": 3, "take7": True},
     "opponent": {"rank": 1, "aspect": 1, "skill": "Dueling"}},
    {"system": "flip", "mode": "team", "dtn": 16, "gm_raises_dtn": True,
     "primary": {"rank": 2, "aspect": 3}, "secondaries": [{"rank": 1, "aspect": 0}] * 3},
    {"system": "pool", "trait": 5, "skill": 7, "dr": 4, "luck": 3, "luck_spend": 2},
    {"system": "pool", "trait": 5, "skill": 7, "secret": True, "bonus": 1},
    {"system": "pool", "trait": 3, "skill": 7, "dr": 5},
    {"system": "swift", "trait": 6, "skill": 8},
    {"system": "swift", "trait": 6, "skill": 8, "luck": 4, "luck_spend": 1},
    {"system": "fluke", "dice_count": 3, "challenge": True},
    {"system": "fluke", "dice_count": 5, "plan": 2, "insurance": 1},
    {"system": "passages", "base": 32, "contested": True},
    {"system": "passages", "base": 32, "practice": True},
]


def test_every_system_has_one_module_with_the_same_parts():
    assert set(MODULES) == set(REGISTRY)
    for name, (rules, entry) in MODULES.items():
        assert entry.SYSTEM is REGISTRY[name]
        assert callable(rules.read) and callable(rules.judge)


@pytest.mark.parametrize("request_", REQUESTS, ids=lambda r: json.dumps(r)[:60])
def test_read_gives_a_frozen_check_and_reading_its_echo_gives_the_same_check(request_):
    read = MODULES[request_["system"]][0].read
    check = read(request_)
    assert dataclasses.is_dataclass(check)
    field = dataclasses.fields(check)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(check, field, None)
    echoed = resolve({**request_, "seed": 7})["request"]
    assert read(json.loads(json.dumps(echoed))) == check


@pytest.mark.parametrize("request_", [r for r in REQUESTS if r["system"] != "flip"],
                         ids=lambda r: json.dumps(r)[:60])
def test_a_dice_systems_echo_is_the_request_its_result_carries(request_):
    result = resolve({**request_, "seed": 7})
    check = MODULES[request_["system"]][0].read(request_)
    assert check.echo(result["dice"]) == result["request"]
    assert "seed" not in result["request"]
