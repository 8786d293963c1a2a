"""The walls of docs/architecture.md that no other test holds: the rules import nothing of the
app, the build and its tools import nothing of the browser (neither the page's runtime,
`pyscript`, `js`, `pyodide`, nor an app module that imports it), and the tools import nothing of
the build: build.py stands on tools/, never the other way round. The third wall, that the app's
browser-free modules import no browser module, is tests/test_snapshot_preload.py's."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("preload", ROOT / "tools/snapshot/preload.py")
preload = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(preload)

RUNTIME = {"pyscript", "js", "pyodide"}


def sources(*patterns: str) -> dict[str, str]:
    """The project's files by path from the repository's root, read as text: not the npm
    packages a tool installs beside itself (tools/snapshot/node_modules ships Node's own .py)."""
    return {path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8")
            for pattern in patterns for path in sorted(ROOT.glob(pattern))
            if "node_modules" not in path.relative_to(ROOT).parts}


def imports(path: str, source: str) -> set[str]:
    """Every module name the file imports, its parents included (`app.dom` → `app` too)."""
    name = path.removesuffix(".py").replace("/", ".").removesuffix(".__init__")
    return preload.imported_names(source, name, path.endswith("__init__.py"))


def breaches(files: dict[str, str], forbidden: set[str]) -> dict[str, set[str]]:
    """The files that import any of `forbidden` (or a module inside one), with what."""
    found = {}
    for path, source in files.items():
        hits = {name for name in imports(path, source)
                if any(name == f or name.startswith(f"{f}.") for f in forbidden)}
        if hits:
            found[path] = hits
    return found


def browser_modules() -> set[str]:
    """The runtime's packages, and the app modules that import it, directly or not."""
    app = {path.removeprefix("py/"): text for path, text in sources("py/**/*.py").items()}
    names = {preload.module_name(path) for path in app}
    return RUNTIME | (names - set(preload.pure_modules(app)))


def test_the_rules_import_nothing_of_the_app_nor_the_runtime():
    rules = {path.removeprefix("py/"): text
             for path, text in sources("py/skillcheck/**/*.py").items()}
    assert breaches(rules, {"app", *RUNTIME}) == {}


def test_the_build_and_its_tools_import_nothing_of_the_browser():
    browser = browser_modules()
    assert {"app.main", "app.dom", "pyscript"} <= browser  # the check sees what it checks
    assert breaches(sources("build.py", "tools/**/*.py"), browser) == {}


def panels_importing_panels(files: dict[str, str]) -> dict[str, set[str]]:
    """The panels (py/app/*_panel.py) that import another panel."""
    panels = {path.removeprefix("py/"): text for path, text in files.items()
              if path.endswith("_panel.py")}
    names = {preload.module_name(path) for path in panels}
    return {f"py/{path}": hits for path, hits in breaches(panels, names).items()}


def test_the_panels_import_no_other_panel():
    files = sources("py/app/*.py")
    assert len([path for path in files if path.endswith("_panel.py")]) >= 4
    assert panels_importing_panels(files) == {}


def test_the_tools_import_nothing_of_the_build():
    """tools/screenshots.py runs `build.py build` and serves through tools/site_server.py."""
    tools = sources("tools/**/*.py")
    assert "tools/screenshots.py" in tools and "tools/site_server.py" in tools
    assert breaches(tools, {"build"}) == {}


def test_a_wall_broken_is_seen():
    assert panels_importing_panels({"py/app/log_panel.py": "x = 1\n",
                                    "py/app/qr_panel.py": "from . import log_panel\n"}) == {
        "py/app/qr_panel.py": {"app.log_panel"}}
    rules = {"skillcheck/pool.py": "from app.outcome_words import WORDS\n",
             "skillcheck/swift.py": "def later():\n    import app.links\n",
             "skillcheck/fluke.py": "from .draw import Dice\nimport apple\n"}
    assert set(breaches(rules, {"app"})) == {"skillcheck/pool.py", "skillcheck/swift.py"}
    tools = {"tools/paint.py": "def go():\n    from app import dom\n",
             "tools/words.py": "from app.check_words import title\nimport js2\n"}
    assert breaches(tools, browser_modules()) == {"tools/paint.py": {"app.dom"}}
    shots = {"tools/shots.py": "def main():\n    import build\n",
             "tools/serve.py": "from tools.site_server import Server\nimport builder\n"}
    assert breaches(shots, {"build"}) == {"tools/shots.py": {"build"}}
