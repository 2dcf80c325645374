"""The package's imports run one way: no circle among its modules (imports inside
functions included), no import inside a function nor below the code, and nothing
imported from the application above the kernel (``service.kernel``)."""

from __future__ import annotations

import ast
from pathlib import Path

import service.aggregates.kaisers_pirates as package

PACKAGE = Path(package.__file__).parent
NAME = package.__name__


def _modules() -> dict[str, ast.Module]:
    return {p.stem: ast.parse(p.read_text(encoding="utf-8")) for p in sorted(PACKAGE.glob("*.py"))}


def _imported(node, modules) -> list[str]:
    """The package's modules an import statement names (relative or absolute)."""
    if isinstance(node, ast.ImportFrom):
        if node.level == 1:
            if node.module:
                return [node.module.split(".")[0]]
            return [a.name for a in node.names if a.name in modules]
        if node.module and node.module.startswith(NAME + "."):
            return [node.module[len(NAME) + 1:].split(".")[0]]
        return []
    return [a.name[len(NAME) + 1:].split(".")[0] for a in node.names if a.name.startswith(NAME + ".")]


def _graph(modules) -> dict[str, set[str]]:
    return {m: {t for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
                for t in _imported(n, modules) if t != m}
            for m, tree in modules.items()}


def _circles(graph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_circle_finder_finds_a_circle():
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle_in_the_package():
    graph = _graph(_modules())
    assert "rules" in graph and graph["rules"]          # the graph is read
    assert _circles(graph) == []


def test_no_import_inside_a_function_nor_below_the_code():
    for name, tree in _modules().items():
        for fn in ast.walk(tree):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                inner = [n.lineno for n in ast.walk(fn) if isinstance(n, (ast.Import, ast.ImportFrom))]
                assert not inner, f"{name}.py imports inside {fn.name} (lines {inner})"
        seen_code = False
        for stmt in tree.body:
            if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                assert not seen_code, f"{name}.py imports below its code (line {stmt.lineno})"
            elif not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)):
                seen_code = True


def test_nothing_imported_from_above_the_kernel():
    for name, tree in _modules().items():
        for n in ast.walk(tree):
            names = ([n.module or ""] if isinstance(n, ast.ImportFrom) and n.level == 0
                     else [a.name for a in n.names] if isinstance(n, ast.Import) else [])
            for m in names:
                if m.split(".")[0] == "service":
                    assert m == "service.kernel" or m.startswith(("service.kernel.", NAME)), \
                        f"{name}.py imports {m}: a game's rules use the kernel only"
