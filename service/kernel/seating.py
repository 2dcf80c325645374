"""Which bot plays which seat: ``tools simulate --bot pirate`` (every seat) or
``--bot 1=pirate --bot 2=merchant`` (by seat; seats not named play the bot
given without a seat, else ``random``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from service.kernel.errors import BadInput
from service.kernel.games import GENERIC_BOTS, generic_bot

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    from typing import Any
    from .rules import Rules

Chooser = Callable  # (state, seat, listed decisions, rng) -> decision


def parse_bots(given: str | Iterable[str] | Mapping[int, str] | None) -> dict[int, str]:
    """``"pirate"``, ``["1=pirate", "merchant"]`` or ``{1: "pirate"}`` as a map
    from seat to bot name; seat 0 holds the bot for every seat not named."""
    if given is None:
        return {0: "random"}
    if isinstance(given, str):
        given = [given]
    table: dict[int, str] = {}
    if isinstance(given, Mapping):
        table.update((int(k), str(v)) for k, v in given.items())
        table.setdefault(0, "random")
        return table
    for item in given:
        seat_text, sep, name = item.partition("=")
        if not sep:
            seat, name = 0, item
        elif seat_text.strip().isdigit() and int(seat_text) >= 1:
            seat = int(seat_text)
        else:
            raise BadInput(f"--bot {item!r}: give BOT for every seat or SEAT=BOT (seat 1, 2, ...)")
        if seat in table:
            raise BadInput(f"--bot names {'every seat' if seat == 0 else f'seat {seat}'} twice")
        table[seat] = name.strip()
    table.setdefault(0, "random")
    return table


def choosers(rules: Rules, given: Any, seats: int, **options: Any) -> list[Chooser]:
    """The bot of each seat, indexed by seat (index 0 unused): a bad name or a
    seat the game does not have is refused with the bots it has. A chooser itself
    (a callable, as a search's rollout bot) plays every seat. ``options``: the keywords
    of a bot every game has (``generic_bot``; the service's ``searches``)."""
    if callable(given):
        return [given] * (seats + 1)
    table = parse_bots(given)
    for seat, name in table.items():
        if name not in rules.bots and name not in GENERIC_BOTS:
            raise BadInput(f"no bot {name!r} for {rules.name} (bots: {', '.join([*rules.bots, *GENERIC_BOTS])})")
        if seat > seats:
            raise BadInput(f"--bot {seat}={name}: this game has seats 1 to {seats}")
    made = {name: rules.bots[name] if name in rules.bots else generic_bot(name, rules, **options)
            for name in set(table.values())}
    default = made[table[0]]
    return [default] + [made[table.get(s, table[0])] for s in range(1, seats + 1)]
