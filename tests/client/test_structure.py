"""The client's modules import each other one way: no import cycle, counting the
imports inside functions and under ``TYPE_CHECKING`` (a cycle dodged by a late
import is still a cycle), and no screen imports the app (screens ask their
:class:`~client.host.Host`)."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping, Set
from pathlib import Path

from client.app import PasyansApp
from client.host import Host

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "client"

Graph = Mapping[str, Set[str]]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted((ROOT / PACKAGE).rglob("*.py"))}


def imported(name: str, path: Path, known: Set[str]) -> Iterator[str]:
    """Every module of ``known`` that ``name`` imports, wherever the import stands."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            parts = package.split(".")  # ``from .x``: x in the package, ``..x`` above it
            base = parts[: len(parts) - node.level + 1] if node.level else []
            stem = ".".join([*base, *([node.module] if node.module else [])])
            targets = [stem, *(f"{stem}.{alias.name}" for alias in node.names)]
        for target in targets:
            parts = target.split(".")
            for i in range(1, len(parts) + 1):  # a module, and the packages it is in
                prefix = ".".join(parts[:i])
                if prefix in known and prefix != name:
                    yield prefix


def import_graph() -> dict[str, set[str]]:
    found = modules()
    return {name: set(imported(name, path, found.keys())) for name, path in found.items()}


def cycle(graph: Graph) -> list[str] | None:
    """One import cycle of ``graph`` (its modules in order, the first again at the
    end), or None when the graph is acyclic."""
    done: set[str] = set()
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        if node in path:
            return [*path[path.index(node) :], node]
        if node in done:
            return None
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            found = visit(nxt)
            if found is not None:
                return found
        path.pop()
        done.add(node)
        return None

    for start in sorted(graph):
        found = visit(start)
        if found is not None:
            return found
    return None


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_a_late_import_counts(tmp_path: Path) -> None:
    """An import inside a function is an edge of the graph like any other."""
    path = tmp_path / "late.py"
    path.write_text("def f() -> None:\n    from .app import PasyansApp\n", encoding="utf-8")
    known = {"client.app", "client.late"}
    assert set(imported("client.late", path, known)) == {"client.app"}


def test_the_client_has_no_import_cycle() -> None:
    graph = import_graph()
    assert {"client.app", "client.cli", "client.screens.board"} <= graph.keys()
    assert "client.launch" in graph["client.cli"]  # the graph sees the imports
    assert cycle(graph) is None, " → ".join(cycle(graph) or [])


def test_screens_ask_the_host_not_the_app() -> None:
    graph = import_graph()
    for name, deps in graph.items():
        if name.startswith("client.screens"):
            assert "client.app" not in deps, f"{name} imports the app"
            assert "client.cli" not in deps, f"{name} imports the command line"


def test_the_app_is_a_host() -> None:
    app: Host = PasyansApp("")  # mypy checks the protocol; isinstance its members
    assert isinstance(app, Host)
