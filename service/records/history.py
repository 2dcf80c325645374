"""Fork, export and import: new histories from old ones."""

from __future__ import annotations

from uuid import UUID, uuid4

from service.logs import logger
from service.records.export_file import read_game, write_game
from service.aggregate import Game
from service.app import Privateer
from service.records.audit import AuditReport, Envelope, ancestry, audit_envelopes, file_parents
from service.records.export import export_evidence, import_trust
from service.records.keys import merge_keys
from service.kernel.chance import commitment, new_seed
from service.kernel.corrections import retracted_versions
from service.kernel.corrections import setup_end as _setup_end
from service.kernel.errors import BadInput, DoesNotVerify
from service.kernel.machine import STEP_STARTS, Ev
from service.seat_keys import REGISTERED, lineage
from service.kernel.text import kept_in_event

log = logger(__name__)



def fork_point(events: list, at_turn: int | None, at_event: int | None) -> int:
    """The version to cut after: a step boundary (or a paused table-mode step)."""
    last = len(events)
    setup_end = _setup_end(events, STEP_STARTS)
    if (at_turn is None) == (at_event is None):
        raise BadInput("give exactly one of --at-turn N or --at-event V")
    if at_event is not None:
        if not 1 <= at_event <= last:
            raise BadInput(f"--at-event must be between 1 and {last}")
        v = at_event
        nxt = events[v].type if v < last else None
        if v < setup_end:
            raise BadInput(f"version {v} is inside the setup; the earliest fork point is {setup_end}")
        if nxt is not None and nxt not in STEP_STARTS and events[v - 1].type != "ChanceAwaited":
            before = max(e.originator_version - 1 for e in events[:v] if e.type in STEP_STARTS)
            after = next((e.originator_version - 1 for e in events[v:] if e.type in STEP_STARTS), last)
            raise BadInput(f"version {v} is in the middle of a decision's consequences; "
                           f"fork at {before} or {after}")
        return v
    assert at_turn is not None  # (exactly one of the two was given)
    if at_turn < 0:
        raise BadInput("--at-turn must be 0 or more")
    v = max([e.originator_version for e in events if e.turn <= at_turn] or [1])
    while v < last and events[v].type not in STEP_STARTS:
        v += 1  # finish the step that ends the turn
    return max(v, setup_end)


def fork(app: Privateer, game_id: UUID, at_turn: int | None = None, at_event: int | None = None) -> UUID:
    """A new game whose history is the parent's up to a step boundary.

    The fork's ``GameCreated`` names the parent, the version and the parent's
    chain hash there; its own chain (the current version) starts afresh. Each
    inherited event keeps the parent's salt when the parent has one, so its
    seal equals the parent's (a holder of both histories can check that the
    fork inherited them unchanged). Chance continues from the parent's
    counter with a fresh seed: finishing the fork never reveals the parent's."""
    events = app.stored_events(game_id)
    v = fork_point(events, at_turn, at_event)
    cfg = dict(events[0].data)
    cfg["fork"] = {"parent": game_id.hex, "version": v, "hash": events[v - 1].hash.hex()}
    if any(e.type == REGISTERED for e in events[1:v]):  # seats' signatures inherited: the games they name
        cfg["fork"]["ancestors"] = lineage(events[0].data, game_id.hex)
    seed = None if cfg["table"] else new_seed()
    cfg["commitment"] = commitment(seed) if seed else None
    new_id = uuid4()
    agg = Game.start(new_id, Ev("GameCreated", 0, "all", cfg))
    copied = [Ev(e.type, e.turn, e.visible_to, e.data).freeze() for e in events[1:v]]
    for ev in copied:
        agg.machine.apply(ev)
    agg.record(copied, salts=[getattr(e, "salt", None) for e in events[1:v]])
    app.save_game(agg, secret=seed)
    return new_id


def export_game(app, game_id: UUID, path: str, with_secret: bool = False) -> dict:
    events = app.stored_events(game_id)
    finished = any(e.type == "GameFinished" for e in events)
    secret = app.recorder.select_secret(game_id.hex) if (finished or with_secret) else None
    size = write_game(path, game_id, events, secret, **export_evidence(app, game_id, events, secret))
    return {"game_id": game_id.hex, "events": len(events), "bytes": size, "secret_included": secret is not None}


def import_game(app, path: str, keys: dict | None = None, notes: list | None = None) -> UUID:
    """Read a game file, audit it in full (chain, chance, rules), check its
    signatures (``service.records.export.import_trust``: against this service's own
    keys and ``keys``, the origin's published ones given with ``--key``; a
    file's own keys are only its claim) and only then store it; a history that
    does not verify is refused and nothing is written. The store never signs an
    imported head: the file's signatures are kept as they are, and its keys are
    never listed as the service's. ``notes``: how far the file was trusted."""
    from copy import deepcopy


    doc = read_game(path)
    game_id = doc["game_id"]
    if app.recorder.select_games(prefix=game_id.hex):
        raise BadInput(f"game {game_id.hex} is already in this store")
    rows = doc["events"]
    for r in rows:
        try:
            kept_in_event(r["type"], r["data"])
        except BadInput as e:
            raise BadInput(f"{path}: event {r['version']} ({r['type']}): {e.reason}") from None
        except (TypeError, KeyError):
            break  # a malformed event: said below

    def envelopes():
        first = rows[0]
        created = Game.Created(originator_id=game_id, originator_version=1, timestamp=first["timestamp"],
                               originator_topic=_topic(), type=first["type"], turn=first["turn"],
                               visible_to=first["visible_to"], data=deepcopy(first["data"]),
                               prev=first["prev"], hash=first["hash"], salt=first["salt"])
        return created, [Game.Recorded(originator_id=game_id, originator_version=r["version"],
                                       timestamp=r["timestamp"], type=r["type"], turn=r["turn"],
                                       visible_to=r["visible_to"], data=deepcopy(r["data"]),
                                       prev=r["prev"], hash=r["hash"], salt=r["salt"]) for r in rows[1:]]

    try:
        created, recorded = envelopes()
    except (TypeError, KeyError) as e:
        raise BadInput(f"{path} has a malformed event: {e}") from None
    # a fork's ancestors' seeds: as this store knows them, else as the file carries them (revealed ones)
    parents = ancestry(app, created.data) if isinstance(created.data, dict) else None
    if doc["parents"] and (parents is None or any(seed is None for _, seed in parents)):
        parents = file_parents(doc)
    report = AuditReport(game_id=game_id.hex)
    audit_envelopes(game_id, [Envelope(created)] + [Envelope(r) for r in recorded], None,
                    doc["secret"], parents, report)
    if not report.ok:
        bad = report.first_bad or {}
        raise DoesNotVerify(f"{path} does not verify: event {bad['version']} ({bad['type']}): {bad['reason']}")

    given = merge_keys(app.signer.own_keys(), keys)  # each dated key counts within its life only
    try:
        trust = import_trust(game_id, rows, doc, given, named=bool(keys))
    except DoesNotVerify as e:
        raise DoesNotVerify(f"{path} does not verify: {e.reason}") from None
    created, recorded = envelopes()  # fresh copies: folding must not touch what is stored
    agg = deepcopy(created).mutate(None)
    agg.retracted = retracted_versions([created, *recorded])  # a corrected game folds along its line
    for r in recorded:
        try:
            deepcopy(r).mutate(agg)
        except Exception as e:  # the file's fault, said to the caller (the traceback at DEBUG)
            log.debug("imported event %d does not apply", r.originator_version, exc_info=True,
                      extra={"game_id": game_id.hex})
            raise DoesNotVerify(f"{path} does not verify: event {r.originator_version} ({r.type}) does not apply to "
                                f"the game before it ({type(e).__name__}: {e})") from None
    agg._pending_events[:] = [created, *recorded]
    app.signer.remember({fp: pk for fp, pk in trust.keys.items() if pk is not None})
    app.save_game(agg, secret=doc["secret"], signatures=trust.signatures, sign_head=False, end=trust.end)
    if notes is not None:
        notes.append(trust.note)
    return game_id


def _topic() -> str:
    from eventsourcing.utils import get_topic

    return get_topic(Game)
