"""The registry of games: each game is registered once, here (or, for a game
outside this project, in its own package, named by ``PRIVATEER_GAMES``).

A registration names the game and the modules that make it: its rules (the
decider, a ``Rules`` in its module's ``RULES``; the title is ``Rules.title``),
the two renderers of its table, in words and as a picture, and a line of help.
The kernel imports only the rules; the renderers are named here and imported
by the application (``service/render``), so nothing here reaches above the
kernel. Everything that lists or names the games (the command line's help, the
HTTP API's description, the renderers, ``bench.golden``, the registry's own
``get_rules``) reads them from here. How to add one: docs/adding-a-game.md.

``PRIVATEER_GAMES``: a comma-separated list of modules, each holding ``GAME``,
a ``Registration``; those games are registered after the built-in ones (a name
taken already is refused).
"""

from __future__ import annotations

import importlib
import os

from .errors import BadInput

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import ModuleType
    from typing import Any

    from .rules import Rules

ENV = "PRIVATEER_GAMES"


class Registration:
    """One game (plain slots, not a dataclass: a quick `tools` call reads this module,
    and ``dataclasses`` would import ``inspect``)."""

    __slots__ = ("name", "rules", "text", "svg", "help")

    def __init__(self, name: str, rules: str, text: str = "", svg: str = "", help: str = "") -> None:
        self.name = name  # the game's id in commands, records and the store: "loot"
        self.rules = rules  # the module whose ``RULES`` is its decider (``service.kernel.rules.Rules``)
        self.text = text  # the table in words: ``render(view, config, names, seat) -> [lines and service.render.table.Table]``
        self.svg = svg  # the table as SVG: ``WIDTH``, ``height(view)``, ``draw(svg, view, config, names, seat, top)``
        self.help = help  # a few words for `--help`: its seats, its bots beyond ``random``

    def __repr__(self) -> str:
        return f"Registration({self.name!r}, {self.rules!r})"


BUILT_IN = (
    Registration("letter-of-marque", "service.aggregates.letter_of_marque", "service.render.letter_of_marque",
                 "service.render.svg.letter_of_marque", "2-6 seats; bot captain"),
    Registration("loot", "service.aggregates.loot", "service.render.loot", "service.render.svg.loot",
                 "2-5 seats, or 4, 6 or 8 with --option pairs=true; bot greedy"),
    Registration("kaisers-pirates", "service.aggregates.kaisers_pirates", "service.render.kaisers_pirates",
                 "service.render.svg.kaisers_pirates", "1-4 seats (1: solitaire); bot heuristic"),
    Registration("merchants-and-marauders", "service.aggregates.merchants_and_marauders",
                 "service.render.merchants_and_marauders", "service.render.svg.merchants_and_marauders",
                 "2-4 seats; bots merchant, pirate; options glory=N and, where the Italian and Portuguese "
                 "books differ, decline=any|once, war_bounty=refused|paid, second_flag=any_ship|warship, "
                 "raid_glory=at_least|more_than, tie_break=coins|hidden_gold"),
)

# Histories the kernel runs that are not games (their rules a ``Rules`` in the module's ``RULES``):
# stored, signed, exported and audited like a game's, but listed nowhere a game is (the games'
# registry, help, pages and standings): ``get_rules`` alone finds them.
HISTORIES = {"tournament": "service.tournaments"}

_BY_ENV: dict[str, dict[str, Registration]] = {}


def registered() -> dict[str, Registration]:
    """Every registered game by name, the built-in ones first."""
    env = os.environ.get(ENV, "")
    games = _BY_ENV.get(env)
    if games is None:
        games = {g.name: g for g in BUILT_IN}
        for module in filter(None, (m.strip() for m in env.split(","))):
            try:
                game = importlib.import_module(module).GAME
            except (ImportError, AttributeError) as e:
                raise BadInput(f"{ENV}: {module} registers no game (a module holding GAME, a Registration): "
                               f"{e}") from None
            if not isinstance(game, Registration) or game.name in games or game.name in HISTORIES:
                raise BadInput(f"{ENV}: {module}.GAME is not a Registration of a new game name")
            games[game.name] = game
        _BY_ENV[env] = games
    return games


def game_names() -> list[str]:
    return list(registered())


def registration(name: str) -> Registration:
    game = registered().get(name)
    if game is None:
        raise BadInput(f"unknown game {name!r} (known: {', '.join(game_names())})")
    return game


def games_said() -> str:
    """The games for a help text: each name with its help (a broken ``PRIVATEER_GAMES``
    is said here, and refused by any command that reads the registry)."""
    try:
        games = list(registered().values())
    except BadInput as e:
        return "; ".join(f"{g.name} ({g.help})" for g in BUILT_IN) + f" ({e.reason})"
    return "; ".join(f"{g.name} ({g.help})" if g.help else g.name for g in games)


def available_games() -> list[str]:
    """Every registered game, its rules imported: a game whose rules do not import is an error
    (``get_rules``), never left out, where it would hide a broken registration."""
    names = game_names()
    for name in names:
        get_rules(name)
    return names


_LOADED: dict[str, Rules] = {}


def get_rules(name: str) -> Rules:
    """The game's ``Rules`` (imported once)."""
    rules = _LOADED.get(name)
    if rules is not None:  # imported before: every game of a playout or a fold asks
        return rules
    module = HISTORIES[name] if name in HISTORIES else registration(name).rules
    try:
        rules = _LOADED[name] = importlib.import_module(module).RULES
    except ImportError as e:
        raise BadInput(f"game {name!r} is not available in this build: {e}") from None
    return rules


# Bots every game has, named here by module (imported when a game seats one): the module's
# ``bot_for(rules)`` gives the chooser (``service.kernel.seating``)
GENERIC_BOTS = {"ismcts": "service.analysis.bot"}


def generic_bot(name: str, rules: Rules, **options: Any) -> Callable[..., Any]:
    """The chooser of a bot every game has (``GENERIC_BOTS``), for this game's rules
    (``options``: its ``bot_for``'s keywords, e.g. the service's ``searches``)."""
    return importlib.import_module(GENERIC_BOTS[name]).bot_for(rules, **options)


def get_sampler(name: str) -> Callable[..., Any] | None:
    """The game's ``determinize(state, seat, rng) -> state`` (its module ``sampler``:
    service/aggregates/<game>/sampler.py), or None when the game has none."""
    try:
        return importlib.import_module(registration(name).rules + ".sampler").determinize
    except ImportError:
        return None


def catalog_checks(name: str) -> ModuleType:
    """The game's module ``catalog_checks`` (service/aggregates/<game>/catalog_checks.py), imported
    when a catalog is checked (a new game's, an organiser's file), never by a stored game's replay:
    Merchants & Marauders' checks are a pydantic schema, about 0.1 s to import."""
    return importlib.import_module(registration(name).rules + ".catalog_checks")
