"""``tools analyse`` (and ``GET /games/{id}/analysis``): a stored game's
position, folded as ``tools replay`` folds it, and the seat's decisions there
with their estimates from the seat's own information (service/analysis/ismcts.py:
the true state is read only through the game's sampler)."""

from __future__ import annotations

from service.analysis.ismcts import key, search
from service.kernel.copies import as_read
from service.kernel.errors import BadInput, IllegalDecision
from service.replay import fold_for_reading

TYPE_CHECKING = False  # typing is not imported at run time
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any
    from uuid import UUID

    from service.kernel.machine import Machine


def check_point(at_turn: int | None, at_event: int | None, playouts: int) -> None:
    if at_turn is not None and at_event is not None:
        raise BadInput("give --at-turn or --at-event, not both")
    if playouts < 1:
        raise BadInput("--playouts must be at least 1")


def analyse_stored(db: str | None, game_id: str, seat: int, at_turn: int | None = None, at_event: int | None = None,
                   playouts: int = 1000, seed: str = "0",
                   progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """The seat's decisions at the end of ``at_turn`` (or after version ``at_event``;
    neither: now), each in words with its estimated win rate, mean score and the
    playouts behind it. ``progress(done)`` is called after each playout."""
    check_point(at_turn, at_event, playouts)
    gid, machine, version = fold_for_reading(db, game_id, at_turn, at_event)
    where = f"at turn {at_turn}" if at_turn is not None else f"after event {at_event}" if at_event else "now"
    return analyse_machine(gid, machine, version, seat, where, playouts, seed, progress)


def analyse_machine(gid: UUID, machine: Machine, version: int, seat: int, where: str, playouts: int = 1000,
                    seed: str = "0", progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """``analyse_stored`` on a folded ``machine`` at store ``version`` (the HTTP
    service folds it itself); ``where`` says the point in words, for the refusals."""
    machine.check_seat(seat)
    version = machine.seen(seat, version)  # as the seat numbers the events (it never counts hidden ones)
    if machine.finished:
        raise IllegalDecision(f"the game is finished {where} (version {version}): there is nothing to decide")
    if machine.k["awaiting"] is not None:
        raise IllegalDecision(f"{where} the game waits for a chance outcome from the referee, not for seat {seat}")
    if seat not in machine.to_act():
        acting = ", ".join(map(str, machine.to_act())) or "nobody"
        raise IllegalDecision(f"seat {seat} does not act {where} (version {version}; to act: {acting})")
    rules = machine.rules
    # every listed decision is weighed (no progressive widening: a person asks about each of them,
    # and a long list widened from the heuristic's pick would leave some with no playout)
    found = {key(s["decision"]): s for s in search(rules, machine.s, seat, playouts, seed, progress=progress,
                                                   widen=None)}
    # in the order `tools legal` numbers them, copies read as the seat reads them: the playouts of
    # one play with either of two copies of a card are that play's (service/kernel/copies.py)
    alike = machine.alike()
    by_read: dict[str, list[dict[str, Any] | None]] = {}
    for d in machine.legal(seat):
        by_read.setdefault(key(as_read(d, alike)), []).append(found.get(key(d)))
    stats: list[dict[str, Any]] = []
    for shown in machine.offered(seat):
        stats.append({"decision": shown, **pooled(by_read[key(shown)]),
                      "said": rules.say_decision(machine.config, shown)})
    return {"game": rules.name, "id": str(gid), "version": version, "turn": machine.turn(),
            "seat": seat, "playouts": playouts, "seed": seed, "decisions": stats}


def pooled(found: list[dict[str, Any] | None]) -> dict[str, Any]:
    """One play's figures from its searched copies' (each None where the search never tried it):
    playouts summed, win rate and mean score weighted by them."""
    tried = [s for s in found if s and s["playouts"]]
    n = sum(s["playouts"] for s in tried)
    if not n:
        return {"playouts": 0, "win_rate": None, "mean_score": None}
    if len(tried) == 1:
        return {k: tried[0][k] for k in ("playouts", "win_rate", "mean_score")}
    return {"playouts": n, "win_rate": sum(s["win_rate"] * s["playouts"] for s in tried) / n,
            "mean_score": sum(s["mean_score"] * s["playouts"] for s in tried) / n}
