"""A browser test runs once more only when Chromium's renderer crashed (tests/conftest.py)."""

import re
import subprocess
import sys
from pathlib import Path

REPO_CONFTEST = Path(__file__).resolve().parent / "conftest.py"

# The repository's conftest, its idea of where browser tests live moved into the sandbox.
CONFTEST = f"""
import importlib.util
from pathlib import Path

spec = importlib.util.spec_from_file_location("repo_conftest", {str(REPO_CONFTEST)!r})
repo = importlib.util.module_from_spec(spec)
spec.loader.exec_module(repo)
repo.ROOT = Path(__file__).parent
pytest_configure = repo.pytest_configure
pytest_collection_modifyitems = repo.pytest_collection_modifyitems
"""

# Stand-ins named and worded as Playwright's errors after a renderer crash, and a plain failure.
TESTS = """
class TargetClosedError(Exception):
    pass

class Error(Exception):
    pass

calls, waits = [], []

def test_crashed_once():
    calls.append(1)
    if len(calls) == 1:
        raise TargetClosedError("Locator.wait_for: Page crashed")

def test_crashed_once_while_waiting():
    waits.append(1)
    if len(waits) == 1:
        raise Error("Locator.wait_for: Target crashed")

def test_crashed_twice():
    raise TargetClosedError("Page.click: Target crashed")

def test_closed_without_a_crash():
    raise TargetClosedError("Target page, context or browser has been closed")

def test_plain_failure():
    assert False
"""


def outcomes(tmp_path: Path, where: str) -> dict[str, int]:
    """Run TESTS in `where` under the repository's conftest: {"passed": n, "rerun": n, ...}."""
    (tmp_path / "conftest.py").write_text(CONFTEST)
    folder = tmp_path / where
    folder.mkdir(parents=True)
    (folder / "test_sample.py").write_text(TESTS)
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "-p", "no:playwright", "-p", "no:base_url", str(folder)],
                         cwd=tmp_path, capture_output=True, text=True)
    summary = run.stdout.strip().splitlines()[-1]
    return {word: int(count) for count, word in re.findall(r"(\d+) (\w+)", summary)}


def test_a_browser_test_runs_again_only_after_a_renderer_crash(tmp_path):
    assert outcomes(tmp_path, "tests/e2e") == {"failed": 3, "passed": 2, "rerun": 3}


def test_other_tests_never_run_again(tmp_path):
    assert outcomes(tmp_path, "tests") == {"failed": 5}
