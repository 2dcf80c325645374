"""Merchants & Marauders (Christian Marcussen, Kasper Aagaard; the Italian and Portuguese
rulebooks in shared/rules/): the rules as a decider (``rules.RULES``). The readings of
the book are in RULINGS.md, in the book's order. The modules, in the order to read them:
each imports only modules above it, so nothing a module calls is unknown when it is read.

catalog.py         the card data read from data/catalog.json, and the tables derived from it
derived.py         tables derived once per catalog for the hot paths (neighbours, NPC letters, ship values)
abilities.py       captains' and specialists' abilities, a small vocabulary, and their questions
readings.py        where the two books disagree: the other reading as a game option
state.py           the table a game starts with and its queries; what a phase hands back
mechanics.py       dice and skill tests, cargo and glory cards, glory points, the bank
captains.py        captains come and go: reveal, death, retiring, a new captain
wanted.py          wanted flags and the ports they close (Ricercati & Ricompense)
war.py             a War card's war and its Man-o-Wars
effects.py         card effects: one table from each word to its arguments and function
tasks.py           rumors followed and missions completed
shipyard.py        the shipyard: repairs, upgrades, weapons, ships; tiles back to ports
port.py            the port action and its activities (Azioni in porto)
raid.py            raiding a merchant (Saccheggiare i mercanti)
npc.py             NPC ships: entry, movement, hunting, scouting (Capitani non giocatori)
glory.py           glory cards: one's own turn, specialists, the announce-and-resolve windows
boarding.py        a fight's crew combat, plunder, claim and end (Depredare)
combat.py          a fight's start and naval rounds (Combattimento)
scout.py           the Scout action: a raid or a fight
sailing.py         moving, entering and leaving ports
setup.py           the set-up (Preparazione del gioco)
flow.py            the round and each player's turn; does what a phase hands back
referee.py         referee decisions: an NPC's move overruled where the printed board differs
position.py        a game from a stated position: checked, laid, its first turn begun
evolve.py          evolve: the events each module applies, gathered in one table
catalog_checks.py  the checks a catalog passes at load: a schema, named checks, vocabularies
view.py            what each seat may see, and the log's lines
rules.py           the rules' entry: who acts, the legal decisions, decide
bots.py            bots for simulations and tests (random, merchant, pirate)
"""

from .rules import RULES
from .words import say_choices, say_decision

RULES.bots_module = __name__ + ".bots"  # imported when a bot is first asked for
RULES.say_decision = say_decision
RULES.say_choices = say_choices  # a function of its own, as say_decision

__all__ = ["RULES"]
