"""Dice Race, a fifth game that lives outside ``service/``: two seats take turns
rolling toward 20. It is here to show that a game is one registration and its
own package (docs/adding-a-game.md): the rules (``rules.py``, importing only the
kernel), its table in words (``text.py``) and as a picture (``svg.py``), and
this ``GAME``, which ``PRIVATEER_GAMES=tests.dice_race`` registers.

This module stays light (the registry imports it on every `tools` call that
names a game or shows help); the rules are imported only when the game is played.
"""

from service.kernel.games import Registration

GAME = Registration("dice-race", rules="tests.dice_race.rules", text="tests.dice_race.text",
                    svg="tests.dice_race.svg", help="2 seats; a toy for tests")
