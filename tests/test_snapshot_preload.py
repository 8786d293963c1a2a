"""Which modules the build imports into the Pyodide snapshot (tools/snapshot/preload.py)."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("preload", ROOT / "tools/snapshot/preload.py")
preload = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(preload)


def test_module_names_follow_the_file_layout():
    assert preload.module_name("app/forms.py") == "app.forms"
    assert preload.module_name("skillcheck/__init__.py") == "skillcheck"
    assert preload.module_name("app/data.json") is None


def test_browser_imports_make_a_module_and_its_importers_impure():
    sources = {
        "app/__init__.py": "",
        "app/main.py": "from pyscript import document\nfrom . import forms\n",
        "app/forms.py": "import skillcheck\n",
        "app/render.py": "def draw():\n    import js\n    return js.document\n",
        "app/history.py": "from .render import draw\n",
        "app/deep/__init__.py": "from .. import forms\n",
        "app/ffi.py": "from pyodide.ffi import create_proxy\n",
        "skillcheck/__init__.py": "from .draw import Draw\n",
        "skillcheck/draw.py": "import random\n",
        "skillcheck/__main__.py": "import sys\n",
    }
    assert preload.pure_modules(sources) == [
        "app", "app.deep", "app.forms", "skillcheck", "skillcheck.draw",
    ]


def test_relative_imports_resolve_against_the_package():
    names = preload.imported_names("from ..x import y\nfrom . import z\n", "a.b.c", False)
    assert {"a.x", "a.x.y", "a.b", "a.b.z"} <= names


def test_the_rules_package_is_pure_and_goes_into_the_snapshot():
    sources = {
        str(path.relative_to(ROOT / "py")): path.read_text(encoding="utf-8")
        for path in (ROOT / "py").rglob("*.py")
    }
    pure = preload.pure_modules(sources)
    rules = {preload.module_name(path) for path in sources if path.startswith("skillcheck/")}
    assert rules - {"skillcheck.__main__"} <= set(pure)


def _sources(package: str) -> dict[str, str]:
    return {str(path.relative_to(ROOT / "py")): path.read_text(encoding="utf-8")
            for path in (ROOT / "py" / package).rglob("*.py")}


def browser_modules(sources: dict[str, str]) -> set[str]:
    """The app modules that import the browser, themselves or through another app module."""
    names = {preload.module_name(path) for path in sources}
    return names - set(preload.pure_modules(sources))


def may_import_the_browser(name: str) -> bool:
    """py/app/__init__.py's rule: only the panels, main, dom and browser."""
    module = name.removeprefix("app.")
    return module.endswith("_panel") or module in ("main", "dom", "browser")


def test_only_the_panels_main_dom_and_browser_import_the_browser():
    sources = _sources("app")
    assert sorted(n for n in browser_modules(sources) if not may_import_the_browser(n)) == []
    assert browser_modules(sources) >= {"app.main", "app.dom", "app.browser"}


def test_the_rule_is_broken_by_a_pure_module_that_imports_pyscript():
    sources = _sources("app")
    sources["app/forms.py"] += "\nfrom pyscript import web\n"
    sources["app/storage.py"] += "\nfrom . import dom\n"
    broken = sorted(n for n in browser_modules(sources) if not may_import_the_browser(n))
    assert "app.forms" in broken and "app.storage" in broken
