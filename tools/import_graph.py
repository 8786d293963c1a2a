"""The import graph inside one Python package, read from its sources (ast: nothing is imported).

    python3 tools/import_graph.py [PACKAGE_DIR]      # py/app by default
    python3 tools/import_graph.py --mermaid          # only the Mermaid block, for the docs

Prints the package's modules with their layer and what each imports of the package (its
arrows), the counts (modules, layers deep, arrows) and a Mermaid `graph TD` block. A module's
layer is 1 + the longest path of arrows from it down to a leaf: a module that imports nothing of
the package is layer 1, and the deepest stack is how many layers deep the package is. Modules on
a cycle share a layer, and the cycle is named. Every import statement counts, wherever it
stands (in a function too): a dependency all the same. A subpackage's module is named by its
dotted path inside the package (`systems.flip`); an `__init__.py` by its package's name. An
`__init__.py` that imports nothing of the package and that nothing imports (a docstring that
says what the package is) is no module of the graph. Standard library only.
"""

from __future__ import annotations

import argparse
import ast
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools" / "snapshot"))
import preload  # noqa: E402  (the import reader the snapshot's preload already trusts)


@dataclass(frozen=True)
class Graph:
    """The package's modules by name ("main", "systems.flip") and what each imports of it."""

    package: str
    arrows: dict[str, frozenset[str]]

    @property
    def arrow_count(self) -> int:
        return sum(len(targets) for targets in self.arrows.values())


def read_graph(package_dir: Path) -> Graph:
    """The graph of the package in `package_dir`, from every `*.py` file under it."""
    package = package_dir.name
    files = {}
    for path in sorted(package_dir.rglob("*.py")):
        parts = [package, *path.relative_to(package_dir).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        files[".".join(parts)] = path
    arrows = {}
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        home = name if path.name == "__init__.py" else name.rpartition(".")[0]
        arrows[name] = frozenset(imports_of(tree, home, set(files)) - {name})
    imported = set().union(*arrows.values())
    for name, path in files.items():
        if path.name == "__init__.py" and not arrows[name] and name not in imported:
            del arrows[name]
    return Graph(package, {short(package, name): frozenset(short(package, t) for t in targets)
                           for name, targets in arrows.items()})


def imports_of(tree: ast.Module, home: str, known: set[str]) -> set[str]:
    """The known modules (full dotted names) a module's source imports; `home` is the package
    its relative imports start from. The names are read as the snapshot's preload reads them;
    of a name and its parents only the longest counts (`from . import dom`: app.dom, not app)."""
    names = preload.names_imported_by(ast.walk(tree), home, is_package=True)
    longest = {name for name in names if not any(other.startswith(f"{name}.") for other in names)}
    return {deepest(name, known) for name in longest} - {None}


def deepest(name: str, known: set[str]) -> str | None:
    """The longest known module that `name` is or lies in (`a.b.C` → `a.b`), else None."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def short(package: str, name: str) -> str:
    """A module's name inside the package; the package's own __init__ keeps the package's."""
    return name.removeprefix(f"{package}.") if name != package else package


def layers(graph: Graph) -> tuple[dict[str, int], list[list[str]]]:
    """Each module's layer, and the cycles (groups of modules that import each other)."""
    groups = strongly_connected(graph.arrows)
    group_of = {name: index for index, group in enumerate(groups) for name in group}
    layer: dict[int, int] = {}
    for index, group in enumerate(groups):  # dependencies come first (Tarjan's order)
        below = {group_of[t] for name in group for t in graph.arrows[name]} - {index}
        layer[index] = 1 + max((layer[b] for b in below), default=0)
    return ({name: layer[group_of[name]] for name in graph.arrows},
            [sorted(group) for group in groups if len(group) > 1])


def strongly_connected(arrows: dict[str, frozenset[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components, each after every component it imports."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(name: str) -> None:
        index[name] = low[name] = len(index)
        stack.append(name)
        on_stack.add(name)
        for target in sorted(arrows[name]):
            if target not in index:
                visit(target)
                low[name] = min(low[name], low[target])
            elif target in on_stack:
                low[name] = min(low[name], index[target])
        if low[name] == index[name]:
            group = []
            while not group or group[-1] != name:
                group.append(stack.pop())
                on_stack.discard(group[-1])
            groups.append(group)

    for name in sorted(arrows):
        if name not in index:
            visit(name)
    return groups


def mermaid(graph: Graph, layer: dict[str, int]) -> str:
    """A Mermaid `graph TD` block: modules from the top layer down, then every arrow."""
    def node(name: str) -> str:
        ident = name.replace(".", "_")
        return ident if ident == name else f'{ident}["{name}"]'

    order = sorted(graph.arrows, key=lambda name: (-layer[name], name))
    lines = ["```mermaid", "graph TD"]
    lines += [f"  {node(name)}" for name in order if not graph.arrows[name]
              and not any(name in targets for targets in graph.arrows.values())]
    lines += [f"  {node(name)} --> {node(target)}" for name in order
              for target in sorted(graph.arrows[name], key=lambda t: (-layer[t], t))]
    return "\n".join([*lines, "```"])


def report(graph: Graph, package_dir: str) -> str:
    layer, cycles = layers(graph)
    depth = max(layer.values(), default=0)
    lines = [f"{package_dir}: {len(graph.arrows)} modules, {depth} layers deep, "
             f"{graph.arrow_count} arrows", ""]
    width = max((len(name) for name in graph.arrows), default=6)
    lines.append(f"{'layer':>5}  {'module':{width}}  imports of {graph.package}")
    for name in sorted(graph.arrows, key=lambda name: (-layer[name], name)):
        targets = sorted(graph.arrows[name], key=lambda t: (-layer[t], t))
        lines.append(f"{layer[name]:>5}  {name:{width}}  {', '.join(targets) or '-'}")
    for cycle in cycles:
        lines.append(f"cycle: {' ↔ '.join(cycle)}")
    return "\n".join([*lines, "", mermaid(graph, layer)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("package", nargs="?", default="py/app",
                        help="the package's folder (default: py/app)")
    parser.add_argument("--mermaid", action="store_true", help="print only the Mermaid block")
    args = parser.parse_args(argv)
    folder = Path(args.package)
    if not (folder if folder.is_absolute() else Path.cwd() / folder).is_dir():
        folder = ROOT / args.package  # run from anywhere, as build.py's tools are
    if not folder.is_dir():
        parser.error(f"{args.package}: no such folder")
    graph = read_graph(folder)
    if args.mermaid:
        print(mermaid(graph, layers(graph)[0]))
    else:
        print(report(graph, args.package))
    return 0


if __name__ == "__main__":
    sys.exit(main())
