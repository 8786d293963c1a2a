"""Shared by every test: build.py is importable, and browser tests carry the `e2e` mark."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # `import build` (build.py is a script at the repo root)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "e2e: runs the built site in Chromium (tests/e2e/)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    e2e = ROOT / "tests" / "e2e"
    for item in items:
        if e2e in Path(item.fspath).parents:
            item.add_marker(pytest.mark.e2e)
