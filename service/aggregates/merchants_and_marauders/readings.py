"""Where the Italian and the Portuguese books disagree, the other reading as a game option
(RULINGS.md, "Where the two translations differ"): each option names the rule, its values
the readings, the first the program's default (a game created without the option, and
every game stored before the option existed, plays the default).

* ``decline``: ``any`` (IT) or ``once`` (PT): declining an announced glory card (glory.py;
  the state keeps it as ``decline_once``).
* ``war_bounty``: ``refused`` (PT, default) or ``paid`` (IT): a bounty from a nation at war
  with the winner's (war.py ``bounty_refused``).
* ``second_flag``: ``any_ship`` (IT, default) or ``warship`` (PT): the flag for beating a
  non-pirate ship (boarding.py ``defeated``).
* ``raid_glory``: ``at_least`` (IT, default) or ``more_than`` (PT): a raid's glory for the
  catalog's ``raid_glory_gold`` (12) or more, or for more than it (``raid_earns_glory``).
* ``tie_break``: ``coins`` (IT, default) or ``hidden_gold`` (PT): the second tie-break
  (rules.py ``outcome``).

The options chosen are stored with the game (its config) and copied into the state's
``readings`` (only those named; ``reading`` gives the default for the others).
"""

from __future__ import annotations

from service.kernel import BadInput

from .catalog import tables

TYPE_CHECKING = False   # (the imports below are the type checker's: none at run time)
if TYPE_CHECKING:
    from typing import Any
    from .shapes import State

# option -> {value: what it means}, the default first
READINGS: dict[str, dict[str, str]] = {
    "decline": {
        "any": "an announced glory card may be declined each time its player resolves (the Italian book, "
               "'quando è il proprio turno')",
        "once": "declined once in a player's turn (the Portuguese book, 'uma vez no turno')",
    },
    "war_bounty": {
        "refused": "no bounty from a nation at war with the winner's (the Portuguese book, 'ou quando a sua "
                   "nação estiver em guerra com ela')",
        "paid": "every nation that does not want the winner pays, at war or not (the Italian book has no war "
                "clause)",
    },
    "second_flag": {
        "any_ship": "beating a non-pirate ship, a player's or a warship, costs a flag (the Italian book, "
                    "'Aver sconfitto una nave')",
        "warship": "only beating a warship costs a flag, a player's ship none (the Portuguese book, "
                   "'Derrotando um navio de guerra')",
    },
    "raid_glory": {
        "at_least": "a raid earns glory for 12 gold or more (the Italian book, '12 o più monete')",
        "more_than": "for more than 12 gold (the Portuguese book's summary, 'mais de 12 Ouros')",
    },
    "tie_break": {
        "coins": "the second tie-break is the most coins, aboard and stashed (the Italian book, 'il maggior "
                 "valore in monete')",
        "hidden_gold": "the most gold stashed (the Portuguese book, 'a maior quantidade de ouro escondido')",
    },
}


def said(key: str) -> str:
    """The option's values and their meaning, for ``options_said``."""
    return "; ".join(f"{v}: {text}{' (default)' if i == 0 else ''}" for i, (v, text) in enumerate(READINGS[key].items()))


def parse(key: str, value: object) -> str:
    """The value of option ``key`` as typed (any case), or a refusal naming the values."""
    text = str(value).strip().lower()
    if text not in READINGS[key]:
        values = " or ".join(READINGS[key])
        raise BadInput(f"option {key} must be {values}, not {value!r} ({said(key)})")
    return text


def chosen(options: dict[str, Any]) -> dict[str, str]:
    """The readings a game's options name (``decline`` is the state's ``decline_once``)."""
    return {k: options[k] for k in READINGS if k != "decline" and k in options}


def reading(state: State, key: str) -> str:
    """The reading the game plays: its option's value, else the default."""
    return (state.get("readings") or {}).get(key) or next(iter(READINGS[key]))


def raid_earns_glory(state: State, loot: int) -> bool:
    """A raid's loot earns a glory point: ``raid_glory_gold`` (catalog) or more, or more
    than it with ``raid_glory=more_than``. The book's value stays data; the option says
    how it is compared."""
    least = tables(state)["rules"]["raid_glory_gold"]
    return loot > least if reading(state, "raid_glory") == "more_than" else loot >= least
