"""One public way to drive a game (issue 46), checked over the source tree.

Outside the kernel (service/kernel/), nothing reaches into a ``Machine``'s private
names: a driver plays through ``acting()``, ``legal(seat)`` and ``play(seat, decision,
chance)`` (service/kernel/machine.py). Nothing outside ``Privateer``'s module uses its
private names either (``save_game``, ``stale_version``), and the HTTP routers
(service/http/routes_*.py) call only public methods of the service they are given.

The source is read token by token (comments and strings are not code): an attribute
access ``owner._name`` (one leading underscore) counts; ``self._name`` and
``cls._name`` are an object's own. Each finding names its file and line."""

from __future__ import annotations

import io
import sys
import tokenize
from pathlib import Path

from service.kernel.machine import Machine, Step

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("service", "tools", "bench")  # the product's code (the tests may look inside what they test)
KERNEL = ROOT / "service" / "kernel"
OWN = {"self", "cls"}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def machine_private() -> set[str]:
    """The private names of a machine: its class's (methods, cached answers) and those each
    machine is given (``Machine._hold``)."""
    m = Machine.__new__(Machine)
    m._hold(None, {}, {}, None, None)
    return {n for n in (*vars(Machine), *vars(m)) if _private(n)}


def private_uses(source: str) -> list[tuple[int, str, str]]:
    """``(line, owner, name)`` for each ``owner._name`` in ``source``: ``owner`` the dotted
    names before it (``svc.steps``), or ``)``/``]`` for a call's or a subscript's result."""
    toks = [t for t in tokenize.generate_tokens(io.StringIO(source).readline)
            if t.type not in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT,
                              tokenize.DEDENT)]
    out = []
    for i in range(1, len(toks) - 1):
        dot, name = toks[i], toks[i + 1]
        if dot.type != tokenize.OP or dot.string != "." or name.type != tokenize.NAME or not _private(name.string):
            continue
        j, chain = i - 1, []
        while j >= 0 and toks[j].type == tokenize.NAME:
            chain.insert(0, toks[j].string)
            if j >= 1 and toks[j - 1].type == tokenize.OP and toks[j - 1].string == ".":
                j -= 2
            else:
                break
        owner = ".".join(chain) if chain else toks[i - 1].string
        out.append((name.start[0], owner, name.string))
    return out


def _files(*dirs: str):
    for d in dirs:
        yield from sorted((ROOT / d).rglob("*.py"))


def _where(path: Path, line: int) -> str:
    return f"{path.relative_to(ROOT)}:{line}"


def machine_findings(paths) -> list[str]:
    """Private names of a ``Machine`` used outside the kernel: any of its private names on
    anything but ``self``/``cls``, and any private name of an object called ``machine``,
    ``m`` or ``mach`` (what the code calls a machine)."""
    names = machine_private() | {n for n in vars(Step) if _private(n)}
    found = []
    for path in paths:
        if KERNEL in path.parents:
            continue
        for line, owner, name in private_uses(path.read_text()):
            last = owner.rsplit(".", 1)[-1]
            if owner in OWN:
                continue
            if name in names or last in ("machine", "m", "mach"):
                found.append(f"{_where(path, line)}: {owner}.{name} (a Machine's private name: drive it with "
                             "acting(), legal(seat), play(seat, decision, chance))")
    return found


def service_findings(paths) -> list[str]:
    """Private names of the service used where they are not its own: ``app._x`` outside
    service/app.py, and, in a router (service/http/routes_*.py), any private name of
    another object (``svc.steps._x``, ``svc._x``)."""
    found = []
    for path in paths:
        router = path.parent == ROOT / "service" / "http" and path.name.startswith("routes_")
        for line, owner, name in private_uses(path.read_text()):
            if owner in OWN:
                continue
            last = owner.rsplit(".", 1)[-1]
            if router:
                found.append(f"{_where(path, line)}: {owner}.{name} (a router calls the service's public methods)")
            elif last == "app" and path != ROOT / "service" / "app.py":
                found.append(f"{_where(path, line)}: {owner}.{name} (Privateer's private name: save_game, "
                             "prepare/commit, stale_version are public)")
    return found


def test_no_driver_outside_the_kernel_uses_a_machines_private_names():
    found = machine_findings(_files(*PRODUCT))
    assert not found, "\n".join(found)


def test_no_router_and_no_caller_of_the_service_uses_its_private_names():
    found = service_findings(_files(*PRODUCT))
    assert not found, "\n".join(found)


def test_the_checks_see_what_they_look_for(tmp_path, monkeypatch):
    """The checks are not vacuous: each pattern of the issue is found, at its line, in code and
    not in comments or strings."""
    src = ("x = m._acting_now()  # m._listed(1)\n"
           "y = game.machine._run_live(1, {}, None, True)\n"
           "z = '._listed'\n"
           "w = other._listed(seat)\n"
           "self._run(1)\n")
    assert private_uses(src) == [(1, "m", "_acting_now"), (2, "game.machine", "_run_live"),
                                 (4, "other", "_listed"), (5, "self", "_run")]
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    monkeypatch.setattr(sys.modules[__name__], "KERNEL", tmp_path / "service" / "kernel")
    (tmp_path / "service" / "http").mkdir(parents=True)
    (tmp_path / "service" / "kernel").mkdir()
    driver = tmp_path / "service" / "driver.py"
    driver.write_text(src)
    (tmp_path / "service" / "kernel" / "local.py").write_text(src)  # the kernel's own: allowed
    router = tmp_path / "service" / "http" / "routes_x.py"
    router.write_text("async def f(svc, app):\n    svc.steps._pending(1)\n    app._save(2)\n    svc.steps.referee(3)\n")
    saver = tmp_path / "service" / "history.py"
    saver.write_text("def g(app):\n    app._save(1)\n    app.save_game(1)\n")
    found = machine_findings(sorted((tmp_path / "service").rglob("*.py")))
    assert [f.split(" ")[0] for f in found] == ["service/driver.py:1:", "service/driver.py:2:",
                                                "service/driver.py:4:"]
    found = service_findings([router, saver])
    assert [f.split(" ")[0] for f in found] == ["service/http/routes_x.py:2:", "service/http/routes_x.py:3:",
                                                "service/history.py:2:"]
