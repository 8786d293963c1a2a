"""Shared by every test: build.py is importable, and browser tests carry the `e2e` mark.

A browser test whose Chromium renderer crashed is run once more (pytest-rerunfailures) on a
newly booted page: a crash is Chromium's, not the page's (tests/e2e/crashes.py), yet it still
shows, in the run's list of crashes and as a rerun. Any other failure, and a second crash, fails
the test.
"""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# What Playwright raises when the renderer under a page died: a TargetClosedError from a call
# after it, or a plain Error from a wait it cut short ("Locator.wait_for: Target crashed").
RENDERER_CRASHED = r"(TargetClosedError|\bError): .*(Page crashed|Target crashed)"
sys.path.insert(0, str(ROOT))  # `import build` (build.py is a script at the repo root)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "e2e: runs the built site in Chromium (tests/e2e/)")
    config.addinivalue_line("markers", "vendored: reads the files build.py vendors from npm")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    e2e = ROOT / "tests" / "e2e"
    for item in items:
        if e2e in Path(item.fspath).parents:
            item.add_marker(pytest.mark.e2e)
            item.add_marker(pytest.mark.flaky(reruns=1, only_rerun=[RENDERER_CRASHED]))
