"""The server's modules import each other without a cycle (issue 16: the server split by
concern, dependencies in their own module), and no test hook rides in the settings."""

from __future__ import annotations

import ast
from pathlib import Path

import deadwood_knock.server as server_package
from deadwood_knock.server import Settings

PACKAGE = "deadwood_knock.server"
ROOT = Path(server_package.__file__).resolve().parent


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([PACKAGE, *parts])


def _modules() -> dict[str, Path]:
    return {_module_name(path): path for path in ROOT.rglob("*.py")}


def import_graph() -> dict[str, set[str]]:
    """module -> the server modules it imports, at the top or inside a function alike."""
    modules = _modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")
                    anchor = anchor[: len(anchor) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                # `from package import module` imports the module; else the package itself.
                for alias in node.names:
                    candidate = f"{base}.{alias.name}"
                    targets.append(candidate if candidate in modules else base)
            for target in targets:
                if target in modules and target != name:
                    graph[name].add(target)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a path that returns to its start, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_walk_finds_a_cycle_when_there_is_one() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_no_import_cycle_inside_the_server() -> None:
    graph = import_graph()
    # The walk sees the real edges (a sanity check that it parses what it should).
    assert "deadwood_knock.server.deps" in graph["deadwood_knock.server.routes.matches"]
    assert "deadwood_knock.server.routes" in graph["deadwood_knock.server.app"]
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


def test_routers_import_no_other_router_and_services_import_no_router() -> None:
    graph = import_graph()
    routes = {name for name in graph if name.startswith(f"{PACKAGE}.routes.")}
    for name, imported in graph.items():
        if name in routes:
            assert not imported & routes, f"{name} imports another router"
        elif name not in (f"{PACKAGE}.routes", f"{PACKAGE}.app"):
            assert not imported & (routes | {f"{PACKAGE}.routes"}), f"{name} imports a router"


def test_settings_carry_no_test_hook() -> None:
    assert "extra_games" not in Settings.model_fields
