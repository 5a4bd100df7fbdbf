"""The package's layout: no module imports, however indirectly, a module that imports it.

The graph is read from the sources (ast), not from a run: every `import` and
`from … import` counts, at the top of a module or inside a function, since an import
deferred into a function is still a circle a reader has to follow. Importing
`a.b.c` also runs the packages `a.b` above it, so those are edges too. Only what is
imported under `if TYPE_CHECKING:` is left out: it never runs, and it is how a contract
(play/session.py) names the types of the sessions that implement it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import weathering_tui

PACKAGE = Path(weathering_tui.__file__).parent


def modules() -> dict[str, Path]:
    """Every module of the package by its dotted name (a package: its __init__.py)."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def imported(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project's modules that `name` (at `path`) imports anywhere in its source."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: list[str] = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If)
        and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")
        for inner in ast.walk(node)
    }
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            targets += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module or ""
            for alias in node.names:  # `from pkg import module` imports that module
                sub = f"{base}.{alias.name}"
                targets.append(sub if sub in known else base)
    edges = set()
    for target in targets:
        while target and target not in known:  # a name inside a module: the module
            target = target.rpartition(".")[0]
        if not target:
            continue  # not the project's
        parts = target.split(".")
        for end in range(2, len(parts) + 1):  # the packages above it run first
            module = ".".join(parts[:end])
            if module != name and not name.startswith(module + "."):
                edges.add(module)
    return edges


def import_graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imported(name, path, known) for name, path in known.items()}


def groups(graph: dict[str, set[str]]) -> list[set[str]]:
    """The groups of two or more modules that import one another, however indirectly
    (Tarjan's strongly connected components, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        index[start] = low[start] = len(index)
        stack.append(start)
        work = [(start, iter(sorted(graph[start])))]
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    work.append((successor, iter(sorted(graph[successor]))))
                    break
                if successor in stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = set(stack[stack.index(node) :])
                    del stack[stack.index(node) :]
                    if len(group) > 1:
                        found.append(group)
    return found


def way_round(graph: dict[str, set[str]], group: set[str]) -> list[str]:
    """A shortest circle through the group's first module, within the group."""
    first = min(group)
    paths = {first: [first]}
    queue = [first]
    while queue:
        node = queue.pop(0)
        for successor in sorted(graph[node] & group):
            if successor == first:
                return paths[node] + [first]
            if successor not in paths:
                paths[successor] = paths[node] + [successor]
                queue.append(successor)
    raise AssertionError("a group of modules that import one another has a circle")


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle for each group of modules that import one another."""
    return [way_round(graph, group) for group in groups(graph)]


def test_the_walk_reads_imports_at_the_top_and_in_functions():
    graph = import_graph()
    assert "weathering_tui.engine" in graph["weathering_tui.bots.heuristic"]
    # cli/saves.py imports the journal inside its functions only
    assert "weathering_tui.storage.journal" in graph["weathering_tui.cli.saves"]
    assert "weathering_tui.storage" in graph["weathering_tui.cli.saves"]  # the package above
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_imports_a_module_that_imports_it():
    found = cycles(import_graph())
    assert not found, "import circles: " + "; ".join(" → ".join(c) for c in found)
