"""tools/import_graph.py on small packages of its own: which imports make arrows, the layers, the
counts and the Mermaid block docs/architecture.md is drawn with."""

from __future__ import annotations

from pathlib import Path

from tools import import_graph

# A package of four layers: panel → model → store → errors, with words beside the model; every
# kind of import the tool must read, and some it must not draw.
FAKE = {
    "__init__.py": '"""A fake page package: a docstring, no imports."""\n',
    "panel.py": "from . import model, words\nfrom .store import Store\nimport pyscript\n",
    "model.py": "import json\nfrom .store import Store\nfrom fake.errors import Bad\n",
    "words.py": "def later():\n    from fake import errors  # an import in a function counts\n",
    "store.py": "import fake.errors\nfrom .errors import Bad as Refused\n",
    "errors.py": "class Bad(Exception):\n    pass\n",
}


def package(tmp_path: Path, files: dict[str, str], name: str = "fake") -> Path:
    root = tmp_path / name
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    return root


def test_relative_absolute_and_late_imports_make_arrows_and_outside_imports_do_not(tmp_path):
    graph = import_graph.read_graph(package(tmp_path, FAKE))
    assert graph.arrows == {
        "panel": {"model", "words", "store"},
        "model": {"store", "errors"},
        "words": {"errors"},
        "store": {"errors"},
        "errors": set(),
    }
    assert graph.arrow_count == 7


def test_a_layer_is_the_longest_path_down_to_a_leaf(tmp_path):
    layer, cycles = import_graph.layers(import_graph.read_graph(package(tmp_path, FAKE)))
    assert layer == {"panel": 4, "model": 3, "store": 2, "words": 2, "errors": 1}
    assert cycles == []


def test_a_subpackage_is_named_by_its_path_and_its_init_counts_when_it_imports(tmp_path):
    root = package(tmp_path, {
        "__init__.py": "",
        "main.py": "from .systems import REGISTRY\nfrom .systems.flip import FLIP\n",
        "systems/__init__.py": "from . import flip, pool\nREGISTRY = (flip, pool)\n",
        "systems/flip.py": "from ..words import TONE\n",
        "systems/pool.py": "from .. import words\n",
        "words.py": "import app.systems.flip.missing  # a name inside flip: an arrow to flip\n",
    }, name="app")
    graph = import_graph.read_graph(root)
    assert graph.arrows == {
        "main": {"systems", "systems.flip"},
        "systems": {"systems.flip", "systems.pool"},
        "systems.flip": {"words"},
        "systems.pool": {"words"},
        "words": {"systems.flip"},
    }
    layer, cycles = import_graph.layers(graph)
    assert cycles == [["systems.flip", "words"]]
    assert layer == {"systems.flip": 1, "words": 1,  # a cycle shares one layer
                     "systems.pool": 2, "systems": 3, "main": 4}


def test_an_init_that_is_imported_is_a_module(tmp_path):
    graph = import_graph.read_graph(package(tmp_path, {
        "__init__.py": "VERSION = 1\n", "cli.py": "from fake import VERSION\n"}))
    assert graph.arrows == {"fake": set(), "cli": {"fake"}}


def test_the_report_gives_the_counts_the_table_and_a_mermaid_block(tmp_path):
    text = import_graph.report(import_graph.read_graph(package(tmp_path, FAKE)), "py/fake")
    assert text.splitlines()[0] == "py/fake: 5 modules, 4 layers deep, 7 arrows"
    assert "    4  panel   model, store, words" in text
    assert "    1  errors  -" in text
    block = text[text.index("```mermaid"):]
    assert block.splitlines()[:3] == ["```mermaid", "graph TD", "  panel --> model"]
    assert block.count(" --> ") == 7 and block.endswith("```")


def test_mermaid_names_dotted_modules_apart_and_lists_a_module_tied_to_nothing(tmp_path):
    graph = import_graph.read_graph(package(tmp_path, {
        "__init__.py": "", "alone.py": "", "ui/__init__.py": "",
        "ui/panel.py": "from ..alone import x\nfrom . import bits\n", "ui/bits.py": ""}))
    block = import_graph.mermaid(graph, import_graph.layers(graph)[0])
    assert 'ui_panel["ui.panel"] --> alone' in block
    assert 'ui_panel["ui.panel"] --> ui_bits["ui.bits"]' in block
    assert "ui" not in graph.arrows  # the docstring-only subpackage __init__ is no module


def test_the_command_prints_the_mermaid_block_alone(tmp_path, capsys):
    assert import_graph.main([str(package(tmp_path, FAKE)), "--mermaid"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("```mermaid\ngraph TD\n") and "modules" not in out
