"""The CLI as a user runs it: JSON on stdin, one JSON object out; exit 2 and one error line."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
REQUESTS = [
    {"system": "pool", "trait": 6, "skill": 5, "dr": 3, "bonus": 2, "luck": 1},
    {"system": "pool", "trait": 6, "skill": 5, "secret": True},
    {"system": "swift", "trait": 6, "skill": 5, "bonus": 1},
    {"system": "fluke", "dice_count": 4, "plan": 2, "insurance": 1},
    {"system": "passages", "base": 45, "contested": True},
]


def run(command: list[str], stdin: str | bytes, env: dict | None = None,
        cwd: Path = ROOT) -> subprocess.CompletedProcess:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return subprocess.run(command, input=data, capture_output=True, cwd=cwd, env=env, timeout=60)


def cli(*args: str, stdin: str | bytes) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "py")}
    return run([sys.executable, "-m", "skillcheck", *args], stdin, env)


def one_object(done: subprocess.CompletedProcess) -> dict:
    assert done.returncode == 0, done.stderr
    assert done.stderr == b""
    lines = done.stdout.decode().splitlines()
    assert len(lines) == 1
    answer = json.loads(lines[0])
    assert isinstance(answer, dict)
    return answer


def one_error(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 2
    assert done.stdout == b""
    lines = done.stderr.decode().splitlines()
    assert len(lines) == 1, lines
    assert "Traceback" not in lines[0]
    return lines[0]


@pytest.mark.parametrize("request_", REQUESTS, ids=lambda r: r["system"])
def test_resolve_prints_a_replayable_result(request_):
    result = one_object(cli("resolve", stdin=json.dumps({**request_, "seed": 7})))
    assert result["system"] == request_["system"]
    replayed = one_object(cli("resolve", stdin=json.dumps(result["request"])))
    assert replayed == result


@pytest.mark.parametrize("request_", REQUESTS, ids=lambda r: r["system"])
def test_odds_prints_the_exact_chances(request_):
    from fractions import Fraction

    answer = one_object(cli("odds", stdin=json.dumps(request_)))
    assert sum(Fraction(p) for p in answer["outcomes"].values()) == 1


BAD = [
    ('{"system": "pool", "trait": 11, "skill": 5, "dr": 3}', "trait"),
    ('{"system": "pool", "trait": 5, "skill": 5}', "dr"),
    ('{"system": "swift", "trait": 5, "skill": 5, "secret": true}', "secret"),
    ('{"system": "passages", "base": 2.0}', "base"),
    ('{"system": "dominoes"}', "system"),
    ('{"trait": 3}', "system"),
    ("[1, 2]", "request"),
    ("null", "request"),
    ("{", "request"),
    ("", "request"),
    ('{"system": "passages", "base": NaN}', "base"),
    ("[" * 100_000, "request"),
    (b"\xff\xfe{}", "request"),
]


@pytest.mark.parametrize(("command", "stdin", "field"), [
    *[(command, stdin, field) for command in ("resolve", "odds") for stdin, field in BAD],
    *[(command, '{"system": "fluke", "dice_count": 2, "dice": [1, 7]}', "dice")
      for command in ("resolve", "odds")],
])
def test_bad_input_is_one_error_line(command, stdin, field):
    line = one_error(cli(command, stdin=stdin))
    assert line.startswith(f"error: {field}: ")


@pytest.mark.parametrize("args", [(), ("roll",), ("resolve", "odds")])
def test_bad_command_is_usage(args):
    line = one_error(cli(*args, stdin="{}"))
    assert line.startswith("usage: ")


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A throwaway venv with the project installed by `pip install .`, as a user would.

    Kept fast: one venv per test run, no pip of its own (the host's pip, seen through
    --system-site-packages, installs into it), and a copy of just what the package is built from,
    so the build leaves nothing in the work tree.
    """
    home = tmp_path_factory.mktemp("install")
    source = home / "source"
    source.mkdir()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for name in ("pyproject.toml", project["readme"]):
        assert (ROOT / name).exists(), f"pip install . needs {name}"
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "py" / "skillcheck", source / "py" / "skillcheck",
                    ignore=shutil.ignore_patterns("__pycache__"))
    venv = home / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", "--system-site-packages",
                    str(venv)], check=True, timeout=120)
    done = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
                           "--no-deps", str(source)], capture_output=True, timeout=600)
    assert done.returncode == 0, done.stderr.decode()
    return venv / "bin"


def test_installed_console_script(installed, tmp_path):
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    where = run([str(installed / "python"), "-c", "import skillcheck; print(skillcheck.__file__)"],
                "", env, tmp_path)
    assert str(installed.parent) in where.stdout.decode()
    answer = one_object(run([str(installed / "skillcheck"), "odds"], json.dumps(REQUESTS[0]), env,
                            tmp_path))
    assert set(answer) == {"outcomes", "success"}
    line = one_error(run([str(installed / "skillcheck"), "resolve"], '{"system": "pool"}', env,
                         tmp_path))
    assert line.startswith("error: trait: ")


def test_a_reader_that_goes_away_gets_no_traceback():
    """`skillcheck resolve | head -c 10`: the closed pipe ends the command quietly."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "py")}
    with subprocess.Popen([sys.executable, "-m", "skillcheck", "odds"], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env) as proc:
        proc.stdout.close()  # the reader is gone before anything is written
        _, err = proc.communicate(json.dumps({"system": "passages", "base": 26}).encode(),
                                  timeout=60)
    assert b"Traceback" not in err
    assert proc.returncode == 1


def test_difficulty_names_are_read_in_any_case_and_spacing():
    # Seed 000 writes them "Hard (DTN 16)" and "Difficulty Target Number of 5 (Extremely Easy)".
    request = {"system": "flip", "rank": 1, "aspect": 0, "cards": ["7H"]}
    for typed, dtn, name in (("Hard", 15, "hard"), ("  Very  EASY ", 7, "very easy")):
        result = one_object(cli("resolve", stdin=json.dumps({**request, "difficulty": typed})))
        assert (result["dtn"], result["request"]["difficulty"]) == (dtn, name)
    assert one_error(cli("resolve", stdin=json.dumps({**request, "difficulty": "Hardest"}))
                     ).startswith("error: difficulty: must be one of")
    assert one_object(cli("odds", stdin=json.dumps({**request, "difficulty": "Average"})))
