"""The Kaiser's Pirates (James M. Day): 1 to 4 players, the team game and the
solitaire game, with the optional rules. The modules, in the order to read them:

* ``rules.py``: the entry: each decision a seat may make and where it goes, the phantom played;
* ``state.py``: the state's shape (where every card is) and the events every phase uses;
* ``shapes.py``: the same shape for the type checker: the state, a player, a ship's status, the
  turn, the engagement, the window... as TypedDicts (the state stays plain dicts at run time);
* ``flow.py``: rounds and turns: the deal, committing, the end of a turn and of a round, victory (2, 3.1);
* ``combat.py``: attacks and their windows: announcement, assists, reactions, passage (3.2.1-3.2.4);
* ``windows.py``: what may be answered in an attack's windows (3.2.1, 3.2.2, 3.3);
* ``resolve.py``: an attack's dice and each reaction's effect, passage's roll (3.2.6, 3.2.7, 3.3);
* ``actions.py``: the other action cards' effects, the island refuge, a prize's stores (3.3, 6.12);
* ``dice.py``: rolls, challenges and attack results (3.2.7);
* ``hits.py``: what happens to a ship: damage, supply, recognition, sinking, capture, passage;
* ``deal.py``: drawing ships, merchants and action cards (the phantom's too);
* ``board.py``: read-only questions about the table and the card index (``ix``);
* ``catalog.py``: the data files (``data/``), each read by one function and checked;
* ``optional.py``: the optional rules' options, decks and modifiers (section 6);
* ``team.py``: the team game (section 4);
* ``solitaire.py``: the phantom player of the solitaire game (section 5);
* ``penalty.py``: the referee's penalty for an irregular play (3.1.5);
* ``view.py``: what each seat may see, and the log's lines;
* ``bots.py``: bots for ``tools simulate``;
* ``RULINGS.md``: how the program reads the book, in the book's order.

Imports run one way: ``catalog`` -> ``state``, ``board``, ``optional`` -> ``dice``,
``hits``, ``deal`` -> ``resolve``, ``windows``, ``team``, ``penalty`` -> ``actions``,
``combat`` -> ``solitaire`` -> ``flow`` -> ``rules`` (``view`` and ``bots`` beside it); every module names
``shapes`` for the type checker alone (under ``TYPE_CHECKING = False``: it is never imported at run time)."""

from .rules import RULES
from .view import say_event
from .words import say_decision

RULES.bots_module = __name__ + ".bots"  # imported when a bot is first asked for
RULES.say_decision = say_decision
RULES.say_event = say_event

__all__ = ["RULES"]
