"""The whole tree imports one way: no import cycle among the modules of ``server``,
``protocol``, ``client``, ``bench``, ``deploy`` and ``tools``, counting the imports
inside functions and under ``TYPE_CHECKING`` (a cycle dodged by a late import is still
a cycle), and the layers keep their direction: ``protocol`` imports nothing of ours,
``server/patience`` and ``server/solver`` stay sans-I/O (no services, store or net),
``server/net`` reaches games and storage only through services, and
``bench``/``deploy``/``tools`` never import the tests; no module of theirs is over
:data:`MOST_LINES` lines (issue 39: a module that long holds more than one concept).
The web client's modules (``web/*.mjs``) have no import cycle either, and none is
longer than one job."""

from __future__ import annotations

import ast
import posixpath
import re
from collections.abc import Iterator, Set
from pathlib import Path

from tests.client.test_structure import cycle

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("server", "protocol", "client", "bench", "deploy", "tools")
#: the most lines a module of ours has
MOST_LINES = 700


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            found[module_name(path)] = path
    return found


def imported(name: str, path: Path, known: Set[str]) -> Iterator[str]:
    """The modules of ``known`` that ``name`` imports, wherever the import stands: for
    each import the most specific module it names (``from .x import y``: ``x.y`` when
    that is a module, else ``x``)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[list[str]] = []
        if isinstance(node, ast.Import):
            targets = [[alias.name] for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            parts = package.split(".")  # ``from .x``: x in the package, ``..x`` above it
            base = parts[: len(parts) - node.level + 1] if node.level else []
            stem = ".".join([*base, *([node.module] if node.module else [])])
            targets = [[f"{stem}.{alias.name}", stem] for alias in node.names]
        for choices in targets:
            for target in choices:
                module = next((p for p in _prefixes(target) if p in known), None)
                if module is not None:
                    if module != name:
                        yield module
                    break


def _prefixes(target: str) -> list[str]:
    """``a.b.c``, ``a.b``, ``a``: the most specific first."""
    parts = target.split(".")
    return [".".join(parts[:i]) for i in range(len(parts), 0, -1)]


def import_graph() -> dict[str, set[str]]:
    found = modules()
    return {name: set(imported(name, path, found.keys())) for name, path in found.items()}


def test_the_tree_has_no_import_cycle() -> None:
    graph = import_graph()
    assert {"server.services.games", "protocol.messages", "bench.winrate"} <= graph.keys()
    assert "server.services.records" in graph["server.services.games"]  # edges are seen
    assert cycle(graph) is None, " → ".join(cycle(graph) or [])


def test_the_layers_keep_their_direction() -> None:
    graph = import_graph()
    for name, deps in graph.items():
        top = name.split(".")[0]
        if top == "protocol":
            assert all(d.startswith("protocol") for d in deps), (name, deps)
        if name.startswith(("server.patience", "server.solver")):
            io = ("server.services", "server.store", "server.net")
            bad = {d for d in deps if d.startswith(io)}
            assert not bad, (name, bad)
        if top in ("bench", "deploy", "tools", "server", "protocol", "client"):
            assert not any(d.startswith("tests") for d in deps), (name, deps)
        if name.startswith("server.net") and name != "server.net.app":
            # the edge only translates frames: games and storage come through services
            # (the app, the process's composition root, builds the store it hands them)
            bad = {d for d in deps if d.startswith(("server.store", "server.patience"))}
            assert not bad, (name, bad)


def test_no_module_is_over_the_most_lines() -> None:
    long = {
        name: lines
        for name, path in modules().items()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    }
    assert not long, f"split by concept: {long}"


# -- the web client (web/*.mjs) ------------------------------------------------------

WEB = ROOT / "web"
#: lines: a web module longer than this does more than one job (issue 39)
WEB_MODULE_LINES = 500


def web_import_graph() -> dict[str, set[str]]:
    """Each module of the web client (vendored libraries aside) → the modules of ours
    it imports (``import … from "./x.mjs"``, relative paths resolved)."""
    graph: dict[str, set[str]] = {}
    for path in sorted(WEB.rglob("*.mjs")):
        name = path.relative_to(WEB).as_posix()
        if name.startswith("vendor/"):
            continue
        text = path.read_text(encoding="utf-8")
        targets = re.findall(r'^\s*import\b[^;]*?\bfrom\s+"(\.{1,2}/[^"]+)"', text, re.M | re.S)
        targets += re.findall(r'\bimport\(\s*"(\.{1,2}/[^"]+)"\s*\)', text)
        resolved = {posixpath.normpath(posixpath.join(posixpath.dirname(name), t)) for t in targets}
        graph[name] = {t for t in resolved if not t.startswith("vendor/")}
    return graph


def test_the_web_client_has_no_import_cycle() -> None:
    graph = web_import_graph()
    assert {"app.mjs", "board.mjs", "store.mjs", "screens/home.mjs"} <= graph.keys()
    assert "store.mjs" in graph["session.mjs"]  # edges are seen
    assert all(deps <= graph.keys() for deps in graph.values()), graph
    assert cycle(graph) is None, " → ".join(cycle(graph) or [])


def test_no_web_module_is_longer_than_one_job() -> None:
    long = {
        path.relative_to(WEB).as_posix(): n
        for path in WEB.rglob("*.mjs")
        if not path.relative_to(WEB).as_posix().startswith("vendor/")
        and (n := len(path.read_text(encoding="utf-8").splitlines())) > WEB_MODULE_LINES
    }
    assert not long, long
