"""The GM's side, browser-free (issue 37 point 2): the GM's links and typed codes, the secrets kept
on the GM's phone, the player's log finding the secret roll a reveal opens, the form's code box,
and the words the GM's page shows."""

from __future__ import annotations

import json
import re

import pytest
import skillcheck
from app import forms, gm_html, gm_links
from app.gm_secrets import MOST_SECRETS, Secrets, read_secret
from app.log_model import RollLog
from app.result_notes_html import revealed_note
from app.storage import FieldError, MemoryStorage
from hypothesis import given
from hypothesis import strategies as st
from skillcheck import InvalidRequest

SALT = "00112233445566778899aabbccddeeff"
POOL = {"system": "pool", "trait": 5, "skill": 7, "secret": True, "dice": [8, 3, 9, 1, 2]}


def test_the_rules_give_a_difficulty_in_the_form_its_commitment_hashes():
    assert skillcheck.difficulty({"system": "flip", "difficulty": "hard"}) == 15
    assert skillcheck.difficulty({"system": "flip", "dtn": 15}) == 15
    assert skillcheck.difficulty({"system": "pool", "dr": 4}) == 4
    with pytest.raises(InvalidRequest, match="^system:"):
        skillcheck.difficulty({"system": "fluke", "dr": 4})
    with pytest.raises(InvalidRequest, match="^dr:"):
        skillcheck.difficulty({"system": "pool", "dr": 99})


def test_the_form_reads_a_code_in_groups_as_plain_lowercase_hex():
    assert forms.value_of(forms.HEX, " 3F9A 01bc-77d0·4e2a ") == "3f9a01bc77d04e2a"
    assert forms.value_of(forms.HEX, "   ") is None
    code = skillcheck.SYSTEMS["pool"]["fields"]
    spec = next(spec for spec in code if spec["name"] == "commitment")
    assert (spec["kind"], spec["min"], spec["max"]) == ("hex", 24, 64)
    assert spec["form"]["on_when"] == "secret"


@given(st.text("0123456789abcdef", min_size=32, max_size=64))
def test_a_code_groups_in_fours_and_reads_back(digits):
    grouped = gm_links.grouped(digits)
    assert all(len(group) == 4 for group in grouped.split()[:-1])
    assert forms.value_of(forms.HEX, grouped) == digits
    assert gm_links.code_of(digits) == gm_links.grouped(digits[:24])


def test_the_links_round_trip():
    sealed = skillcheck.commit("pool", 4, SALT)
    commit = gm_links.commit_fragment("pool", sealed["commitment"])
    assert gm_links.is_commit(commit) and not gm_links.is_reveal(commit)
    assert gm_links.read_commit(commit) == ("pool", sealed["commitment"])
    reveal = gm_links.reveal_fragment("flip", 15, SALT)
    assert gm_links.is_reveal(reveal)
    assert gm_links.read_reveal(reveal) == ("flip", {"dtn": 15}, SALT)


@pytest.mark.parametrize("fragment", [
    "#commit=", "#commit=pool", "#commit=fluke." + "a" * 64, "#commit=pool." + "a" * 63,
    "#commit=pool." + "g" * 64, "#commit=pool." + "a" * 64 + ".x", "#reveal=pool.4",
    "#reveal=pool.-4." + SALT, "#reveal=pool.4." + SALT[:-1], "#reveal=pool.4444." + SALT,
    "#reveal=passages.4." + SALT, "#reveal=pool.٤." + SALT,
])
def test_a_damaged_link_is_a_sentence_never_an_exception(fragment):
    read = gm_links.read_commit if gm_links.is_commit(fragment) else gm_links.read_reveal
    with pytest.raises(gm_links.GmLinkError, match="damaged or incomplete"):
        read(fragment)


def test_the_gms_secrets_are_kept_across_tabs_until_cleared():
    storage = MemoryStorage()
    mine, other = Secrets(storage), Secrets(storage)
    secret, warnings = mine.commit("flip", {"difficulty": "hard"}, "  Lock on   the vault door ")
    assert warnings == []
    assert secret["label"] == "Lock on the vault door" and secret["difficulty"] == 15
    assert secret["commitment"] == skillcheck.commit("flip", 15, secret["salt"])["commitment"]
    assert re.fullmatch("[0-9a-f]{32}", secret["salt"])
    other.refresh()
    assert other.get(secret["id"]) == secret
    shown, _ = other.reveal(secret["id"])
    again, _ = mine.reveal(secret["id"])
    assert again["revealed"] == shown["revealed"]  # the first reveal's time stays
    assert Secrets(storage).newest_first()[0]["revealed"] == shown["revealed"]
    mine.clear(secret["id"])
    assert len(Secrets(storage)) == 0
    assert other.reveal(secret["id"])[0] is None


def test_two_commits_never_share_a_salt_and_the_oldest_goes_past_the_most():
    secrets = Secrets(MemoryStorage())
    for n in range(MOST_SECRETS + 1):
        secrets.commit("pool", {"dr": 1 + n % 9}, f"lock {n}")
    assert len(secrets) == MOST_SECRETS
    assert secrets.newest_first()[-1]["label"] == "lock 1"
    assert len({s["salt"] for s in secrets.items()}) == MOST_SECRETS


@pytest.mark.parametrize("difficulty, field", [
    ({"dr": 0}, "dr"), ({"dr": "four"}, "dr"), ({"difficulty": "impossible-ish"}, "difficulty"),
])
def test_a_difficulty_the_rules_refuse_names_its_field_and_keeps_nothing(difficulty, field):
    secrets = Secrets(MemoryStorage())
    system = "flip" if "difficulty" in difficulty else "pool"
    with pytest.raises(InvalidRequest) as refused:
        secrets.commit(system, difficulty, "")
    assert refused.value.field == field
    with pytest.raises(FieldError, match="^label:"):
        secrets.commit("pool", {"dr": 2}, "x" * 81)
    assert len(secrets) == 0


@pytest.mark.parametrize("change", [
    {"difficulty": 5}, {"salt": "f" * 32}, {"commitment": "0" * 64}, {"system": "fluke"},
    {"label": "a\nb"}, {"extra": 1}, {"revealed": "yesterday"},
])
def test_a_stored_secret_that_does_not_hold_together_is_refused(change):
    sealed = skillcheck.commit("pool", 4, SALT)
    good = {"id": 1, "time": "2026-12-04T20:00:00+00:00", "label": "", "system": "pool",
            "difficulty": 4, **sealed}
    assert read_secret(good) == good
    with pytest.raises(FieldError):
        read_secret({**good, **change})


def test_a_stored_secret_with_a_bad_field_is_dropped_on_load_and_the_rest_kept():
    storage = MemoryStorage()
    secrets = Secrets(storage)
    kept, _ = secrets.commit("pool", {"dr": 4}, "kept")
    secrets.commit("pool", {"dr": 5}, "spoiled")
    data = json.loads(storage.get("skillcheck.gm"))
    data["secrets"][1]["difficulty"] = 6  # no longer what it committed to
    storage.set("skillcheck.gm", json.dumps(data))
    assert [s["label"] for s in Secrets(storage).items()] == ["kept"]


def logged_secret(log: RollLog, commitment: str | None, system_request: dict = POOL) -> dict:
    request = {**system_request, **({"commitment": commitment} if commitment else {})}
    entry, _ = log.record_check(skillcheck.resolve(request))
    return entry


def test_a_reveal_opens_the_newest_secret_roll_it_matches_and_then_its_reveal():
    log = RollLog(MemoryStorage())
    sealed = skillcheck.commit("pool", 4, SALT)
    other = skillcheck.commit("pool", 4, "f" * 32)
    assert log.opened_by("pool", 4, SALT) == (None, False)
    logged_secret(log, None)  # a secret roll with no code is never opened by a reveal
    assert log.opened_by("pool", 4, SALT) == (None, False)
    first = logged_secret(log, sealed["commitment"][:24])  # a typed code: 96 bits
    logged_secret(log, other["commitment"])
    assert log.opened_by("pool", 4, SALT) == (first, True)
    assert log.opened_by("pool", 5, SALT) == (None, True)  # a changed difficulty opens none
    assert log.opened_by("flip", 4, SALT) == (None, False)
    judged = skillcheck.resolve({**first["request"], "dr": 4, "salt": SALT})
    assert judged["verified"] is True
    revealed, _ = log.record_reveal(first["id"], judged)
    assert log.opened_by("pool", 4, SALT) == (revealed, True)  # judged once, shown again


def test_a_withdrawn_secret_roll_is_not_opened():
    log = RollLog(MemoryStorage())
    sealed = skillcheck.commit("pool", 4, SALT)
    entry = logged_secret(log, sealed["commitment"])
    log.withdraw(entry["id"])
    assert log.opened_by("pool", 4, SALT) == (None, False)


def test_the_gms_page_says_a_secret_in_a_gms_words_and_escapes_the_label():
    sealed = skillcheck.commit("pool", 4, SALT)
    secret = {"id": 7, "time": "2026-12-04T20:00:00+00:00", "label": "<b>Vault</b>",
              "system": "pool", "difficulty": 4, **sealed}
    html = gm_html.secret_html(secret, lambda iso: "20:00")
    assert "&lt;b&gt;Vault&lt;/b&gt;" in html and "<b>" not in html
    assert "d10 pool, DR 4" in html and gm_links.code_of(sealed["commitment"]) in html
    assert "Not revealed yet" in html
    assert "Revealed at" in gm_html.secret_html({**secret, "revealed": secret["time"]}, str)
    title, _, typed = gm_html.reveal_words({**secret, "label": ""})
    assert title == "Reveal: A d10 pool secret"
    assert typed == "DR 4 · salt 0011 2233 4455 6677 8899 aabb ccdd eeff"
    assert gm_html.commit_words(secret)[2] == gm_links.code_of(sealed["commitment"])


def test_a_verified_reveal_says_so():
    assert revealed_note({"dr": 4}).endswith("judged on the same draw.")
    assert "Verified: it matches the GM's commitment" in revealed_note({"dr": 4}, True)
