"""A game record (service/records/text.py) played back into a new game of the
application: in memory and saved at once, or, with corrections, move by move
through the application (first on a scratch store)."""

from __future__ import annotations

import os
import shutil
import tempfile
from uuid import UUID, uuid4

from service.aggregate import Game
from service.app import Privateer
from service.kernel.chance import SeededChance, TableChance, commitment
from service.records.keys import merge_keys
from service.records.text_signed import record_trust
from service.kernel.errors import BadInput, DoesNotVerify
from service.kernel.machine import Ev
from service.kernel.games import get_rules
from service.records.text import created_config, read_record


def import_record(app, text: str, keys: dict | None = None, notes: list | None = None) -> UUID:
    """A new game from a record, refused with nothing written if any move is.

    The moves are played on one game in memory, with the same kernel and
    rules as a live game, and saved in one transaction at the end. A record
    with corrections is played move by move through the application instead
    (a correction folds the game along its line from the store), first on a
    scratch store, so that a refusal still writes nothing. Its sign lines are
    checked first (``service.records.text_signed.record_trust``), against this service's
    keys and ``keys`` (``--key``): a key the record carries is its claim."""
    given = merge_keys(app.signer.own_keys(), keys)  # each dated key counts within its life only
    try:  # its sign lines first: a record changed after it was signed is refused
        note = record_trust(text, given, named=bool(keys))
    except DoesNotVerify as e:
        raise DoesNotVerify(f"record does not verify: {e.reason}") from None
    if notes is not None:
        notes.append(note)
    rec = read_record(text)
    if any(kind == "correct" for _, (kind, _) in rec["moves"]):
        return _import_through_the_application(app, rec)
    game, seed = _play_in_memory(rec)
    app.save_game(game, secret=seed)
    return game.id


def _start(rec: dict):
    tags = rec["tags"]
    try:
        rules = get_rules(tags.get("Game", ""))
    except BadInput:
        raise BadInput(f"record: no game {tags.get('Game')!r}") from None
    cfg = created_config(tags, rules)
    seed = bytes.fromhex(tags["Seed"]) if tags.get("Seed") else None
    if not cfg["table"]:
        if seed is None:
            raise BadInput("a seeded game's record imports once the game is finished (its seed revealed)")
        if commitment(seed) != cfg["commitment"]:
            raise BadInput("record: the revealed seed does not match the commitment")
    return Game.start(uuid4(), Ev("GameCreated", 0, "all", cfg)), seed


def _play_in_memory(rec: dict):
    game, seed = _start(rec)
    m = game.machine

    def chance():
        if m.kernel_state["table"]:
            return TableChance([])
        return SeededChance(seed, [bytes.fromhex(e) for e in m.kernel_state["entropies"]], m.kernel_state["counter"])

    for n, (kind, arg) in rec["moves"]:
        try:
            if kind == "decide":
                events = m.decide(arg[0], arg[1], chance())
            elif kind == "chance":
                events = m.enter_chance(arg)
            elif kind == "referee":
                events = m.referee(arg, chance())
            elif kind == "setup":
                events = m.setup(chance(), arg)
            else:  # entropy, name
                events = [_apart(m, kind, arg)]
        except Exception as e:  # noqa: BLE001 - the rules' refusal (or failure), raised with the line it came from
            raise BadInput(f"record line {n}: {kind} refused: {getattr(e, 'reason', e)}") from None
        game.record(events)
    return game, seed


def _import_through_the_application(app, rec: dict) -> UUID:
    tmp = tempfile.mkdtemp(prefix="privateer-record-")
    try:
        trial = Privateer(os.path.join(tmp, "trial.db"), snapshot_interval=0)
        try:
            _replay(trial, rec)  # a dry run: the real store sees only a record that plays through
        finally:
            trial.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return _replay(app, rec)


def _replay(app, rec: dict) -> UUID:
    game, seed = _start(rec)
    gid = game.id
    app.save_game(game, secret=seed)
    for n, (kind, arg) in rec["moves"]:
        try:
            _play(app, gid, kind, arg)
        except BadInput:
            raise
        except Exception as e:  # noqa: BLE001 - the rules' refusal (or failure), raised with the line it came from
            raise BadInput(f"record line {n}: {kind} refused: {getattr(e, 'reason', e)}") from None
    return gid


def _play(app, gid: UUID, kind: str, arg) -> None:
    if kind == "decide":
        app.act(gid, arg[0], arg[1])
    elif kind == "chance":
        app.enter_chance(gid, arg)
    elif kind == "referee":
        app.referee(gid, arg)
    elif kind == "correct":
        app.correct(gid, arg[0], arg[1])
    elif kind in ("setup", "entropy", "name"):
        game = app.load(gid)
        if kind == "setup":
            game.record(game.machine.setup(app.chance_for(game), arg))
        else:
            game.record([_apart(game.machine, kind, arg)])
        app.save_game(game)


def _apart(machine, kind: str, arg) -> Ev:
    """An event appended on its own (a seat's entropy, a seat's name), applied to ``machine``."""
    if kind == "entropy":
        ev = Ev("EntropyAdded", 0, "all", {"seat": arg[0], "entropy": arg[1]})
    else:
        if not arg[1]:
            raise BadInput(f"a name line needs the player's name (seat {arg[0]})")
        ev = Ev("SeatNamed", machine.turn(), "all", {"seat": arg[0], "player": arg[1]})
    machine.apply(ev)
    return ev
