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
"""

from __future__ import annotations

from .errors import BadInput

KIND = "correct"


def is_correction(decision) -> bool:
    return isinstance(decision, dict) and decision.get("referee") == KIND


def retracted_versions(events) -> set[int]:
    """The versions retracted by the ``Corrected`` events among ``events``
    (each with ``.type`` and ``.data``)."""
    out: set[int] = set()
    for e in events:
        if e.type == "Corrected":
            first, last = e.data["retracted"]
            out.update(range(first, last + 1))
    return out


def undo_point(stored) -> int | None:
    """The version an undo goes back to: just before the last seat's step still on the game's
    line (stored events, with ``originator_version``). None while there is only the setup, which
    a correction never reaches into (the deal as entered)."""
    retracted = retracted_versions(stored)
    starts = [e.originator_version for e in stored if e.type == "Decided" and e.data["seat"] != 0
              and e.originator_version not in retracted]
    return starts[-1] - 1 if starts else None


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


def setup_end(events, step_starts) -> int:
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
