"""``python -m bench.annotations [--json]``: the share of fully annotated functions per
package of service/, tools/ and event_store/ (issue 46 asks above 80% in each).

A function is fully annotated when every parameter but ``self``/``cls`` (``*args`` and
``**kwargs`` included) has an annotation and it declares its return type (``__init__``
may leave the return out, as mypy allows). Nested functions and lambdas' enclosing
functions count like any other ``def``. A package is a game's directory under
``service/aggregates/``, a directory under ``service/`` (``kernel``, ``http``, ...),
the modules directly in ``service/``, ``tools`` or ``event_store``.
"""

from __future__ import annotations

import argparse
import ast
import json
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOP = ("service", "tools", "event_store")


def fully_annotated(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    a = fn.args
    params = a.posonlyargs + a.args + a.kwonlyargs
    if params and params[0].arg in ("self", "cls"):
        params = params[1:]
    params += [p for p in (a.vararg, a.kwarg) if p is not None]
    return all(p.annotation is not None for p in params) and (fn.returns is not None or fn.name == "__init__")


def package_of(path: Path) -> str:
    parts = path.relative_to(ROOT).parts
    if parts[:2] == ("service", "aggregates") and len(parts) > 3:
        return "/".join(parts[:3])
    if parts[0] == "service" and len(parts) > 2:
        return "/".join(parts[:2])
    return parts[0]


def shares() -> dict[str, tuple[int, int]]:
    """Package -> (fully annotated functions, functions)."""
    done: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for top in TOP:
        for path in sorted((ROOT / top).rglob("*.py")):
            pkg = package_of(path)
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    total[pkg] += 1
                    done[pkg] += fully_annotated(node)
    return {pkg: (done[pkg], total[pkg]) for pkg in sorted(total)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="one JSON object: package -> [annotated, functions]")
    args = parser.parse_args()
    figures = shares()
    if args.json:
        print(json.dumps(figures, indent=1))
        return
    for pkg, (done, total) in figures.items():
        print(f"{pkg:44} {done:5} / {total:5}  {100 * done / total:5.1f}%")
    done_all = sum(d for d, _ in figures.values())
    total_all = sum(t for _, t in figures.values())
    print(f"{'all':44} {done_all:5} / {total_all:5}  {100 * done_all / total_all:5.1f}%")


if __name__ == "__main__":
    main()
