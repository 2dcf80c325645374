"""The game kernel shared by every game (pure: no I/O)."""

from .errors import (BadInput, ChanceRejected, IllegalDecision, NeedChance, NoChanceAwaited,
                     NotYourTurn, PrivateerError, StaleVersion, UnknownGame)
from .machine import Ev, Machine, Step
from .rules import Rules, catalog_digest, get_rules

__all__ = ["BadInput", "ChanceRejected", "IllegalDecision", "NeedChance", "NoChanceAwaited",
           "NotYourTurn", "PrivateerError", "StaleVersion", "UnknownGame", "Ev", "Machine", "Step",
           "Rules", "catalog_digest", "get_rules"]
