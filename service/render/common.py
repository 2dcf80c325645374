"""What every game's text shares: the heading, who is who, whose turn, the end."""

from __future__ import annotations

from importlib import import_module

from service.kernel.errors import BadInput
from service.kernel.games import get_rules, registration

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any

    from .table import Table


def drawing(game: str, kind: str) -> ModuleType:
    """The module that draws ``game``'s table, as registered (service/kernel/games.py):
    ``kind`` "text" (``render``) or "svg" (``WIDTH``, ``height``, ``draw``)."""
    module = getattr(registration(game), kind)
    if not module:
        raise BadInput(f"{game} registers no drawing of its table ({kind})")
    return import_module(module)


def title(game: str) -> str:
    """The game's name as printed on its box (``Rules.title``)."""
    return get_rules(game).title or game


def players(config: dict) -> dict:
    """Player names by seat, as the game was created with them."""
    names = dict(config.get("players") or {})
    if (config.get("options") or {}).get("solitaire"):
        names.setdefault("2", "the phantom")  # The Kaiser's Pirates solitaire: seat 2 plays itself
    return names


def who(seat: int | str, names: dict[str, str]) -> str:
    """``seat 2 (Ada)``, or ``seat 2`` where nobody is named."""
    name = names.get(str(seat))
    return f"seat {seat} ({name})" if name else f"seat {seat}"


def count(n: int | str, thing: str) -> str:
    """``1 point``, ``2 points`` (``n`` may be ``?`` when unknown)."""
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


def board_text(board: dict, config: dict) -> list[str | Table]:
    """``board`` (``service.views.board``) for the viewer it was made for: lines
    and tables, as ``service.render.table.to_text`` draws them (at the width it is given)."""
    names = players(config)
    seat = board.get("seat")
    viewer = "the referee" if seat is None else "a spectator" if seat == 0 else who(seat, names)
    head = f"{title(board['game'])} — turn {board['turn']}, event {board['version']}, as {viewer} sees it"
    parts: list[str | Table] = [head]
    if board["finished"]:
        ranked = sorted(board["scores"].items(), key=lambda kv: -_num(kv[1]))
        scores = ", ".join(f"{who(s, names)} {v}" for s, v in ranked)
        won = ", ".join(who(w, names) for w in board["winners"])
        parts.append(f"Finished. Won by {won}. Scores: {scores}.")
    elif board.get("to_act"):
        parts.append("To act: " + ", ".join(who(s, names) for s in board["to_act"]))
    parts += drawing(board["game"], "text").render(board["board"], config, names, seat)
    return parts


def _num(v: Any) -> float:
    try:
        return float(v)
    except (TypeError, ValueError):
        return 0.0
