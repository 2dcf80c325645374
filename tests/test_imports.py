"""Imports run one way: no circle anywhere in service/, tools/, event_store/, and a
game package imports nothing of this project but itself and the kernel.

The graph is read from the source with ``ast``: every ``import`` and ``from ...
import`` statement, at any depth (inside functions and ``if TYPE_CHECKING``
blocks too), relative imports resolved; ``from pkg import name`` is an arrow to
``pkg.name`` when that is a module, else to ``pkg``.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOP = ("service", "tools", "event_store")
GAMES_PKG = "service.aggregates"
KERNEL = "service.kernel"

def modules() -> dict[str, Path]:
    """Every module of the project: dotted name -> file."""
    out = {}
    for top in TOP:
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _is_package(name: str, mods: dict[str, Path]) -> bool:
    return mods[name].name == "__init__.py"


def _resolve(node: ast.ImportFrom, here: str, mods: dict[str, Path]) -> str:
    if not node.level:
        return node.module or ""
    base = here.split(".")
    if not _is_package(here, mods):
        base = base[:-1]
    if node.level > 1:
        base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _owner(name: str, mods: dict[str, Path]) -> str | None:
    """The project module ``name`` is (or lies in), None outside the project."""
    while name and name not in mods:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(name: str, mods: dict[str, Path]) -> set[str]:
    """The project modules ``name`` imports (itself left out)."""
    tree = ast.parse(mods[name].read_text(), str(mods[name]))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            pkg = _resolve(node, name, mods)
            targets = [f"{pkg}.{a.name}" if f"{pkg}.{a.name}" in mods else pkg for a in node.names]
        else:
            continue
        for target in targets:
            owner = _owner(target, mods)
            if owner is not None and owner != name:
                found.add(owner)
    return found


def graph() -> dict[str, set[str]]:
    mods = modules()
    return {name: imports_of(name, mods) for name in mods}


def circles(g: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for root in sorted(g):
        if root in index:
            continue
        work = [(root, iter(sorted(g[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(g[w]))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    scc = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        scc.append(w)
                        if w == v:
                            break
                    if len(scc) > 1:
                        out.append(sorted(scc))
    return out


def game_of(name: str) -> str | None:
    """``service.aggregates.loot`` for any module of that package; None outside the games."""
    parts = name.split(".")
    if len(parts) >= 3 and name.startswith(GAMES_PKG + "."):
        return ".".join(parts[:3])
    return None


def _inside(name: str, pkg: str) -> bool:
    return name == pkg or name.startswith(pkg + ".")


def upward(g: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Arrows from a game package to anything of the project outside it and the kernel."""
    out = []
    for src, targets in g.items():
        game = game_of(src)
        if game is None:
            continue
        for dst in sorted(targets):
            if not (_inside(dst, game) or _inside(dst, KERNEL)):
                out.append((src, dst))
    return out


def test_the_graph_is_read():
    g = graph()
    # a few arrows that are surely there, each of a different form
    assert "service.kernel.machine" in g["service.kernel.local"]  # from .machine import ...
    assert "service.kernel.errors" in g["tools.common"] or "service.kernel" in g["tools.common"]
    assert all(KERNEL in d or d.startswith(KERNEL) for d in g["service.aggregates.loot"] if game_of(d) is None)


def test_the_walk_finds_a_circle_and_an_upward_arrow():
    g = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert circles(g) == [["a", "b", "c"]]
    g = {"service.aggregates.x.rules": {"service.kernel.rules", "service.snapshots", "service.aggregates.x.state"},
         "service.aggregates.x.state": set(), "service.kernel.rules": set(), "service.snapshots": set()}
    assert upward(g) == [("service.aggregates.x.rules", "service.snapshots")]


def test_no_import_circle():
    bad = circles(graph())
    assert not bad, "import circles: " + "; ".join(" <-> ".join(c) for c in bad)


def test_games_import_only_themselves_and_the_kernel():
    bad = upward(graph())
    assert not bad, "a game imports above the kernel: " + "; ".join(f"{a} -> {b}" for a, b in bad)
