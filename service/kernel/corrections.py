"""Corrections: the referee retracts the last step(s) of a game, on the record.

A correction is a step of its own, appended like any other: a ``Decided``
event of seat 0 with ``{"referee": "correct", "to_version": N, "reason": R}``
and a ``Corrected`` fact ``{"to_version": N, "retracted": [N + 1, M], "reason": R}``
(M: the last version before the correction). Nothing is removed or rewritten:
the retracted events stay in the log, marked as retracted, and keep their
place in the hash chain. The game's *line* is its events less every retracted
one; replay, the rules' re-run in the audit, and the standings follow it.

Two things run on across a correction rather than back: the chance counter
(a retracted outcome's stream blocks are never used again) and what each
viewer has been able to read (its numbering).

**Inside a step** (table mode): ``N`` may also be the ``ChanceAwaited`` marker
of one of the outcomes entered in the game's last step (the setup's included):
the outcomes from there on are retracted and the step awaits that outcome
again, as it did before it was entered; the referee enters it (and those after
it) anew, and the step re-runs from its start with the outcomes on its line
(``Machine.enter_chance``). Such a correction is not a step of its own: the step
it cuts goes on after it (``Machine._at_table``). ``outcome_places`` names the
points a correction may cut a step at.
"""

from __future__ import annotations

from .chance import CHANCE_TYPES, CHANCE_VALUE_FIELD
from .errors import BadInput

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any

KIND = "correct"


def is_correction(decision: Any) -> bool:
    return isinstance(decision, dict) and decision.get("referee") == KIND


def retracted_versions(events: Sequence[Any]) -> set[int]:
    """The versions retracted by the ``Corrected`` events among ``events``
    (each with ``.type`` and ``.data``)."""
    out: set[int] = set()
    for e in events:
        if e.type == "Corrected":
            first, last = e.data["retracted"]
            out.update(range(first, last + 1))
    return out


def undo_point(stored: Sequence[Any]) -> int | None:
    """The version an undo goes back to: just before the last seat's step still on the game's
    line (stored events, with ``originator_version``). None while there is only the setup, which
    a correction never reaches into (the deal as entered)."""
    retracted = retracted_versions(stored)
    starts = [e.originator_version for e in stored if e.type == "Decided" and e.data["seat"] != 0
              and e.originator_version not in retracted]
    return starts[-1] - 1 if starts else None


def in_step(decision: Any, events: Sequence[Any]) -> bool:
    """A correction that cuts inside a step (just before one of its outcomes: the event at its
    target is a ``ChanceAwaited``, the next one an outcome) rather than between steps.
    ``events``: the game's events, all of them in order from version 1 (``.type``)."""
    if not is_correction(decision):
        return False
    to = decision.get("to_version")
    if not isinstance(to, int) or isinstance(to, bool) or not 1 <= to < len(events):
        return False
    return events[to - 1].type == "ChanceAwaited" and events[to].type in CHANCE_TYPES


def line_of(stored: Sequence[Any]) -> list:
    """A game's line: its events (with ``.originator_version``) less every retracted one."""
    retracted = retracted_versions(stored)
    return [e for e in stored if e.originator_version not in retracted]


def step_outcomes(stored: Sequence[Any]) -> list[tuple[int, object, str, Any]]:
    """The outcomes entered in the last step of the game's line, oldest first: ``(place, value,
    why, event)``, ``place`` the version of its ``ChanceAwaited`` marker (``outcome_places``), ``why``
    what it was for, ``event`` the stored chance event that records it (what a person reads of
    it: ``views.describe``). ``stored``: all the game's events, in order from version 1."""
    places = set(outcome_places(stored))
    out, awaited = [], None
    for e in line_of(stored):
        if e.type == "ChanceAwaited":
            awaited = e
        elif (e.type in CHANCE_TYPES and not e.data.get("face_down") and awaited is not None
              and awaited.originator_version in places):
            out.append((awaited.originator_version, e.data[CHANCE_VALUE_FIELD[e.type]], awaited.data.get("why", ""), e))
            awaited = None
    return out


def places_said(places: list[int]) -> str:
    """The in-step points, said after a refused correction point."""
    if not places:
        return ""
    return (f"; inside the last step, before one of its {len(places)} outcome(s) entered: version "
            + ", ".join(map(str, places)) + " (`tools correct ID --outcomes K` counts them from the last)")


def outcome_places(stored: Sequence[Any]) -> list[int]:
    """The points a correction may cut the last step of a game's line at (``stored``: all the
    game's events, in order from version 1, with ``.type``, ``.data`` and
    ``.originator_version``): the version of each entered outcome's ``ChanceAwaited`` marker on
    the line, oldest first. Retracting the last ``k`` outcomes is a correction to
    ``outcome_places(stored)[-k]``. Empty when the last step is a correction of whole steps, or
    took no outcome."""
    stored = list(stored)
    places: list[int] = []
    awaited = None
    for e in line_of(stored):
        if e.type == "EntropyAdded":
            places, awaited = [], None
        elif e.type == "Decided":
            if not in_step(e.data.get("decision"), stored):
                places, awaited = [], None
        elif e.type == "ChanceAwaited":
            awaited = e.originator_version
        elif e.type in CHANCE_TYPES and not e.data.get("face_down") and awaited is not None:
            places.append(awaited)
            awaited = None
    return places


def check_decision(decision: dict) -> tuple[int, str]:
    to_version, reason = decision.get("to_version"), decision.get("reason")
    if not isinstance(to_version, int) or isinstance(to_version, bool) or to_version < 1:
        raise BadInput("a correction needs to_version, a version number")
    if not isinstance(reason, str) or not reason.strip():
        raise BadInput("a correction needs a reason (it is kept in the record)")
    extra = set(decision) - {"referee", "to_version", "reason"}
    if extra:
        raise BadInput(f"a correction takes referee, to_version and reason only (not {', '.join(sorted(extra))})")
    return to_version, reason.strip()


def setup_end(events: Sequence[Any], step_starts: Iterable[str]) -> int:
    """The last version of the setup step (``{"step": "setup"}``) among ``events``
    (in order, each with ``.type``, ``.data`` and ``.originator_version``): the
    version before the first event after it that starts a step of its own
    (``step_starts``); the last version when none does (the setup is still being entered)."""
    setup = False
    for e in events:
        if not setup:
            setup = e.type == "Decided" and e.data.get("seat") == 0 and e.data.get("decision") == {"step": "setup"}
        elif e.type in step_starts:
            return e.originator_version - 1
    return events[-1].originator_version if events else 0
