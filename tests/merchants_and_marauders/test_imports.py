"""The package's imports run one way (DESIGN.md, "Inside a game package"): no circle
between its modules, counting imports inside functions too; no import at the bottom of
a file or inside a function (the type checker's imports, under ``if TYPE_CHECKING:`` after
the module's own, count as the top's); nothing above the kernel (``service.kernel``) imported."""

import ast
from pathlib import Path

import service.aggregates.merchants_and_marauders as package

ROOT = Path(package.__file__).parent
PKG = package.__name__
MODULES = {p.stem: p for p in ROOT.glob("*.py")}


def imports():
    """{module: [(imported sibling or outside module, where)]}, where: "top", "bottom"
    (after the first statement that is not an import) or "function"."""
    out = {}
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text())
        top, code_seen = {}, False
        for node in tree.body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                top[id(node)] = "bottom" if code_seen else "top"
            elif isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
                # the type checker's imports (none at run time), after the module's own
                top.update((id(n), "top") for n in node.body if isinstance(n, (ast.Import, ast.ImportFrom)))
            elif not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
                code_seen = True
        found = []
        for node in ast.walk(tree):
            where = top.get(id(node), "function")
            if isinstance(node, ast.ImportFrom):
                if node.level == 1:
                    names = [node.module.split(".")[0]] if node.module else [a.name for a in node.names]
                    found += [(n, where) for n in names]
                elif node.module:
                    found.append((node.module, where))
            elif isinstance(node, ast.Import):
                found += [(a.name, where) for a in node.names]
        out[name] = found
    return out


def test_no_import_at_the_bottom_of_a_file_or_inside_a_function():
    late = [(m, n, w) for m, found in imports().items() for n, w in found if w != "top"]
    assert late == []


def test_nothing_above_the_kernel_is_imported():
    up = [(m, n) for m, found in imports().items() for n, _ in found
          if n.startswith("service") and not n.startswith(("service.kernel", PKG))]
    assert up == []


def test_the_modules_import_each_other_without_a_circle():
    graph = {m: {n for n, _ in found if n in MODULES and n != m} for m, found in imports().items()}
    done, path = set(), []

    def visit(m):
        if m in path:
            raise AssertionError("import circle: " + " -> ".join(path[path.index(m):] + [m]))
        if m in done:
            return
        path.append(m)
        for n in sorted(graph[m]):
            visit(n)
        path.pop()
        done.add(m)

    for m in sorted(graph):
        visit(m)
