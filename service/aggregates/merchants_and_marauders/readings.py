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

# option -> (the rule, {value: its reading}), the default value first
READINGS: dict[str, tuple[str, dict[str, str]]] = {
    "decline": ("Declining an announced glory card", {
        "any": "each time its player resolves (the Italian book: 'quando è il proprio turno')",
        "once": "once in a player's turn (the Portuguese book: 'uma vez no turno')"}),
    "war_bounty": ("A bounty from a nation at war with the winner's", {
        "refused": "none (the Portuguese book: 'quando a sua nação estiver em guerra com ela')",
        "paid": "paid as any other (the Italian book has no war clause)"}),
    "second_flag": ("The wanted flag for beating a non-pirate ship", {
        "any_ship": "for any ship, a player's too (the Italian book: 'Aver sconfitto una nave')",
        "warship": "for a warship only (the Portuguese book: 'Derrotando um navio de guerra')"}),
    "raid_glory": ("A raid's glory point", {
        "at_least": "for 12 gold or more (the Italian book: '12 o più monete')",
        "more_than": "for more than 12 (the Portuguese book's summary: 'mais de 12 Ouros')"}),
    "tie_break": ("The second tie-break, after the glory track", {
        "coins": "the most coins, aboard and stashed (the Italian book: 'il maggior valore in monete')",
        "hidden_gold": "the most gold stashed (the Portuguese book: 'a maior quantidade de ouro escondido')"}),
}


def values(key: str) -> dict[str, str]:
    """Option ``key``'s values, the default first, with their readings."""
    return READINGS[key][1]


def said(key: str) -> str:
    """The rule, the option's values and their readings, for ``options_said``."""
    what, readings = READINGS[key]
    return f"{what}. " + "; ".join(f"{v}{' (default)' if i == 0 else ''}: {text}"
                                   for i, (v, text) in enumerate(readings.items()))


def parse(key: str, value: object) -> str:
    """The value of option ``key`` as typed (any case), or a refusal naming the values."""
    text = str(value).strip().lower()
    if text not in values(key):
        raise BadInput(f"option {key} must be {' or '.join(values(key))}, not {value!r} ({said(key)})")
    return text


def chosen(options: dict[str, Any]) -> dict[str, str]:
    """The readings a game's options name (``decline`` is the state's ``decline_once``)."""
    return {k: options[k] for k in READINGS if k != "decline" and k in options}


def reading(state: State, key: str) -> str:
    """The reading the game plays: its option's value, else the default."""
    return (state.get("readings") or {}).get(key) or next(iter(values(key)))


def raid_earns_glory(state: State, loot: int) -> bool:
    """A raid's loot earns a glory point: ``raid_glory_gold`` (catalog) or more, or more
    than it with ``raid_glory=more_than``. The book's value stays data; the option says
    how it is compared."""
    least = tables(state)["rules"]["raid_glory_gold"]
    return loot > least if reading(state, "raid_glory") == "more_than" else loot >= least
