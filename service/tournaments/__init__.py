"""Tournaments: players, rounds, seating, results and standings, kept as a history of their own.

Pure, as a game's rules are (no I/O): ``rules.py`` (the organiser's decisions and the events
they cause, a ``Rules`` the kernel runs: ``RULES``), ``state.py`` (what each event does),
``seating.py`` (who sits where, and what that guarantees), ``scoring.py`` (points by place,
standings and tie-breaks). What uses the store (creating the tables' games, reading their
results, simulating a whole tournament with bots) is ``service/organiser.py``.
"""

from .rules import RULES

__all__ = ["RULES"]
