"""The game kernel shared by every game (pure: no I/O).

The names below are loaded on first use (PEP 562), so that a command needing
only the errors (every ``tools`` call) does not import the machine and rules.
"""

from .errors import (BadInput, ChanceRejected, IllegalDecision, NeedChance, NoChanceAwaited,
                     NotYourTurn, PrivateerError, StaleVersion, UnknownGame)

_LAZY = {"Ev": ".machine", "Machine": ".machine", "Step": ".machine",
         "Rules": ".rules", "catalog_digest": ".rules", "get_rules": ".games"}

__all__ = ["BadInput", "ChanceRejected", "IllegalDecision", "NeedChance", "NoChanceAwaited",
           "NotYourTurn", "PrivateerError", "StaleVersion", "UnknownGame", *_LAZY]


def __getattr__(name: str):
    if name in _LAZY:
        from importlib import import_module

        value = getattr(import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
