"""The GM's committed secret difficulty (contract, 2026-12-02): `commit`, its CLI, and the reveal
judged only when the difficulty and salt hash back to the commitment the roll kept."""

from __future__ import annotations

import hashlib
import json
import re

import pytest
from contract_checks import check_result
from hypothesis import given
from hypothesis import strategies as st
from skillcheck import InvalidRequest, commit, odds, resolve
from skillcheck.flip.rules import LADDER
from test_cli import cli, one_error, one_object

SALT = "00112233445566778899aabbccddeeff"
# The contract's recipe, worked out apart from the package (`printf %s TEXT | sha256sum`):
# SHA-256 of "skillcheck-commit-v1|SYSTEM|DIFFICULTY|SALT", lowercase hex.
VECTORS = [
    ("flip", 15, SALT, "8b4b2607cb20f6b93106bdb4bff2c1bfbf80fdfcf1395dacd225f7c322e02074"),
    ("pool", 4, "ffeeddccbbaa99887766554433221100",
     "e810ba7a46b916b2178b403491c34a3f084dbf69b2df747bd4b230825f91ca06"),
]
HEX64 = re.compile(r"[0-9a-f]{64}")


@pytest.mark.parametrize(("system", "difficulty", "salt", "commitment"), VECTORS)
def test_the_contracts_recipe(system, difficulty, salt, commitment):
    assert commit(system, difficulty, salt) == {"commitment": commitment, "salt": salt}
    text = f"skillcheck-commit-v1|{system}|{difficulty}|{salt}".encode()
    assert hashlib.sha256(text).hexdigest() == commitment


@pytest.mark.parametrize(("name", "dtn"), LADDER)
def test_a_ladder_name_commits_as_its_number(name, dtn):
    assert commit("flip", name, SALT) == commit("flip", dtn, SALT)
    # Typed as players type it, in any case and spacing.
    assert commit("flip", "  " + name.title().replace(" ", "  "), SALT) == commit("flip", dtn, SALT)


def test_a_salt_is_16_fresh_bytes_from_secrets(monkeypatch):
    made = commit("pool", 3)
    assert HEX64.fullmatch(made["commitment"]) and re.fullmatch(r"[0-9a-f]{32}", made["salt"])
    assert made == commit("pool", 3, made["salt"])
    assert commit("pool", 3)["salt"] != made["salt"]
    asked = []

    def token_hex(nbytes):
        asked.append(nbytes)
        return "ab" * nbytes

    monkeypatch.setattr("skillcheck.commitment.secrets.token_hex", token_hex)
    assert commit("flip", 12)["salt"] == "ab" * 16 and asked == [16]


def test_a_given_salt_is_read_in_either_case_and_kept_lowercase():
    assert commit("flip", 15, SALT.upper()) == commit("flip", 15, SALT)


@pytest.mark.parametrize(("args", "message"), [
    (("swift", 3), "system: must be one of flip, pool"),
    (("fluke", 3), "system: must be one of flip, pool"),
    (("passages", 3), "system: must be one of flip, pool"),
    (("dice", 3), "system: must be one of flip, pool"),
    ((None, 3), "system: is needed: one of flip, pool"),
    ((5, 3), "system: must be one of flip, pool"),
    (("flip", 101), "dtn: must be a whole number from 0 to 100"),
    (("flip", -1), "dtn: must be a whole number from 0 to 100"),
    (("flip", 15.0), "dtn: must be a whole number from 0 to 100"),
    (("flip", True), "dtn: must be a whole number from 0 to 100"),
    (("flip", None), "dtn: is needed: a whole number from 0 to 100, or a difficulty"),
    (("flip", "harder"), "difficulty: must be one of extremely easy, very easy, easy, average,"
                         " hard, very hard, near impossible, impossible"),
    (("pool", 0), "dr: must be a whole number from 1 to 10"),
    (("pool", 11), "dr: must be a whole number from 1 to 10"),
    (("pool", "4"), "dr: must be a whole number from 1 to 10"),
    (("pool", None), "dr: is needed: a whole number from 1 to 10"),
    (("pool", 4, ""), "salt: must be 32 hex digits (0-9, a-f)"),
    (("pool", 4, SALT[:-1]), "salt: must be 32 hex digits (0-9, a-f)"),
    (("pool", 4, SALT + "0"), "salt: must be 32 hex digits (0-9, a-f)"),
    (("pool", 4, "g" * 32), "salt: must be 32 hex digits (0-9, a-f)"),
    (("pool", 4, " " + SALT[1:]), "salt: must be 32 hex digits (0-9, a-f)"),
    (("pool", 4, 5), "salt: must be 32 hex digits (0-9, a-f)"),
    (("pool", 4, bytes(16)), "salt: must be 32 hex digits (0-9, a-f)"),
])
def test_bad_input_names_its_field(args, message):
    with pytest.raises(InvalidRequest) as caught:
        commit(*args)
    assert str(caught.value) == message


def test_the_cli_commits():
    for system, difficulty, salt, commitment in VECTORS:
        key = "dtn" if system == "flip" else "dr"
        assert one_object(cli("commit", stdin=json.dumps(
            {"system": system, key: difficulty, "salt": salt}))) == {
                "commitment": commitment, "salt": salt}
    by_name = one_object(cli("commit", stdin=json.dumps(
        {"system": "flip", "difficulty": "Hard", "salt": SALT})))
    assert by_name["commitment"] == VECTORS[0][3]
    fresh = one_object(cli("commit", stdin='{"system": "pool", "dr": 4}'))
    assert fresh == commit("pool", 4, fresh["salt"])


@pytest.mark.parametrize(("stdin", "line"), [
    ('{"system": "swift", "dr": 4}', "error: system: must be one of flip, pool"),
    ('{"system": "pool", "dtn": 4}', "error: dr: is needed: a whole number from 1 to 10"),
    ('{"system": "flip", "dtn": 16, "difficulty": "hard"}',
     "error: difficulty: is hard (DTN 15), but dtn is 16"),
    ('{"system": "pool", "dr": 4, "salt": "ABC"}', "error: salt: must be 32 hex digits (0-9, a-f)"),
    ('[1]', "error: request: must be an object of named fields"),
    ('{"system": ', "error: request: not valid JSON"),
])
def test_the_cli_refuses_bad_input_in_one_line(stdin, line):
    assert one_error(cli("commit", stdin=stdin)).startswith(line)


# --- The reveal -------------------------------------------------------------------------------

POOL_ROLL = {"system": "pool", "trait": 5, "skill": 6, "bonus": 1, "luck": 2, "secret": True,
             "dice": [1, 2, 3, 9, 9]}
FLIP_ROLL = {"system": "flip", "rank": 2, "aspect": 3, "secret": True, "cards": ["3H", "QH"]}


def test_a_committed_pool_roll_is_judged_at_a_matching_reveal():
    sealed = commit("pool", 4)
    secret = resolve({**POOL_ROLL, "commitment": sealed["commitment"]})
    assert (secret["outcome"], secret["request"]["commitment"]) == ("secret", sealed["commitment"])
    assert "verified" not in secret
    assert "The GM committed to the difficulty before the roll." in secret["explain"]
    check_result(secret, secret["request"])
    revealed = resolve({**secret["request"], "dr": 4, "salt": sealed["salt"]})
    assert revealed["verified"] is True
    assert revealed["explain"][-1] == ("DR 4 and the salt match the GM's commitment made before"
                                       " the roll: verified.")
    plain = resolve({**POOL_ROLL, "dr": 4})
    assert {key: revealed[key] for key in plain if key not in ("explain", "request")} == {
        key: value for key, value in plain.items() if key not in ("explain", "request")}
    assert revealed["request"]["salt"] == sealed["salt"]
    check_result(revealed, revealed["request"])


def test_a_committed_flip_is_judged_by_dtn_or_ladder_name():
    sealed = commit("flip", "hard")
    secret = resolve({**FLIP_ROLL, "commitment": sealed["commitment"]})
    check_result(secret, secret["request"])
    for difficulty in ({"dtn": 15}, {"difficulty": "Hard"}):
        revealed = resolve({**secret["request"], **difficulty, "salt": sealed["salt"]})
        assert (revealed["outcome"], revealed["verified"]) == ("success", True)
        assert "DTN 15 and the salt match" in revealed["explain"][-1]
        check_result(revealed, revealed["request"])
    aspect = resolve({"system": "flip", "mode": "aspect", "aspect": 2, "secret": True,
                      "commitment": sealed["commitment"], "dtn": 15, "salt": sealed["salt"]})
    assert aspect["verified"] is True


@pytest.mark.parametrize("reveal", [
    {"dr": 3},  # another DR than the one committed
    {"dr": 4, "salt": None},  # no salt: "refused the same way"
    {"dr": 4, "salt": "ffeeddccbbaa99887766554433221100"},  # another salt
    {"dr": 4, "salt": "short"},
    {"dr": 4, "salt": 12},
])
def test_a_reveal_that_does_not_hash_back_is_refused_on_salt(reveal):
    sealed = commit("pool", 4, SALT)
    roll = {**POOL_ROLL, "commitment": sealed["commitment"]}
    request = {**roll, "salt": SALT, **reveal}
    for call in (resolve, odds):  # one request, one verdict
        with pytest.raises(InvalidRequest) as caught:
            call(request)
        assert str(caught.value) == "salt: does not match the GM's commitment"


def test_a_committed_flip_revealed_with_another_dtn_is_refused():
    sealed = commit("flip", 15, SALT)
    roll = {**FLIP_ROLL, "commitment": sealed["commitment"], "salt": SALT}
    with pytest.raises(InvalidRequest, match="^salt: does not match the GM's commitment$"):
        resolve({**roll, "difficulty": "very hard"})
    with pytest.raises(InvalidRequest, match="^salt: does not match the GM's commitment$"):
        resolve({**roll, "dtn": 16})
    # The same DTN committed under the other system's name does not open it either.
    pool_seal = commit("pool", 4, SALT)
    with pytest.raises(InvalidRequest, match="^salt: "):
        resolve({**roll, "commitment": pool_seal["commitment"], "dtn": 4})


def test_a_committed_roll_revealed_above_the_trait_is_checked_too():
    sealed = commit("pool", 6, SALT)
    roll = {**POOL_ROLL, "commitment": sealed["commitment"]}
    revealed = resolve({**roll, "dr": 6, "salt": SALT})
    assert (revealed["outcome"], revealed["verified"]) == ("too difficult", True)
    check_result(revealed, revealed["request"])
    with pytest.raises(InvalidRequest, match="^salt: "):
        resolve({**roll, "dr": 7, "salt": SALT})


def test_a_typed_code_compares_the_first_96_bits():
    sealed = commit("pool", 4, SALT)
    code = sealed["commitment"][:24].upper()  # the page's code, turned back to hex
    secret = resolve({**POOL_ROLL, "commitment": code})
    assert secret["request"]["commitment"] == code.lower()
    assert resolve({**secret["request"], "dr": 4, "salt": SALT})["verified"] is True
    with pytest.raises(InvalidRequest, match="^salt: "):
        resolve({**secret["request"], "dr": 5, "salt": SALT})


@pytest.mark.parametrize("commitment", ["", "abc", "a" * 23, "a" * 65, "z" * 64, 5, ["a" * 64]])
def test_a_commitment_must_be_hex_of_96_to_256_bits(commitment):
    for call in (resolve, odds):
        with pytest.raises(InvalidRequest, match="^commitment: must be 24 to 64 hex digits"):
            call({**POOL_ROLL, "commitment": commitment})


@pytest.mark.parametrize("request_", [
    {"system": "pool", "trait": 3, "skill": 5, "dr": 2},
    {"system": "flip", "rank": 2, "aspect": 1, "dtn": 12},
    {"system": "flip", "mode": "team", "dtn": 12, "primary": {"rank": 1, "aspect": 1}},
    {"system": "flip", "mode": "opposed", "initiator": {"rank": 1, "aspect": 0},
     "opponent": {"rank": 2, "aspect": 0}},
])
def test_only_a_secret_roll_carries_a_commitment(request_):
    # Dropping `secret` from a committed reveal cannot skip its check.
    request_ = {**request_, "commitment": "a" * 64, "salt": SALT}
    for call in (resolve, odds):
        with pytest.raises(InvalidRequest, match="^commitment: only a secret roll carries"):
            call(request_)


DIFFICULTIES = st.one_of(
    st.tuples(st.just("pool"), st.integers(1, 10)),
    st.tuples(st.just("flip"), st.integers(0, 100)),
    st.tuples(st.just("flip"), st.sampled_from([name for name, _ in LADDER])))
SALTS = st.binary(min_size=16, max_size=16).map(bytes.hex)


def _reveal_fields(system: str, difficulty) -> dict:
    if system == "pool":
        return {"dr": difficulty}
    return {"difficulty": difficulty} if isinstance(difficulty, str) else {"dtn": difficulty}


def _number(difficulty) -> int:
    return dict(LADDER).get(difficulty, difficulty)


@given(DIFFICULTIES, SALTS, st.integers(0, 100))
def test_a_commitment_opens_with_its_own_difficulty_and_salt_only(committed, salt, other):
    system, difficulty = committed
    sealed = commit(system, difficulty, salt)
    roll = {**(POOL_ROLL if system == "pool" else FLIP_ROLL), "commitment": sealed["commitment"]}
    secret = resolve(roll)
    revealed = resolve({**secret["request"], **_reveal_fields(system, difficulty), "salt": salt})
    assert revealed["verified"] is True
    other = other % 10 + 1 if system == "pool" else other
    if other != _number(difficulty):
        with pytest.raises(InvalidRequest, match="^salt: does not match"):
            resolve({**secret["request"], **_reveal_fields(system, other), "salt": salt})
