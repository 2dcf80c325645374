"""Every action's handler is found by its name: each action a list of decisions names
(``{"action": "<name>", ...}`` in the package) has its handler in the decider's one
table (rules.py, ``one_table``), and each handler of that table is entered under its
action's name, as a string a reader can search for (``"retire": self._retire``)."""

import re
from pathlib import Path

import service.aggregates.merchants_and_marauders as package
from service.aggregates.merchants_and_marauders.rules import RULES

SOURCE = {p.name: p.read_text() for p in Path(package.__file__).parent.glob("*.py")}
LISTED = {name for text in SOURCE.values() for name in re.findall(r'\{"action": "(\w+)"', text)}


def test_every_action_a_decision_list_names_has_its_handler():
    assert {"move", "retire", "end_turn", "choose_ship", "glory_pass", "plunder_cargo"} <= LISTED
    assert sorted(LISTED - set(RULES._actions)) == []


def test_every_handler_is_entered_under_its_action_name():
    unnamed = [name for name in RULES._actions
               if not any(re.search(rf'"{name}": (self\.)?\w+', text) for text in SOURCE.values())]
    assert unnamed == []
