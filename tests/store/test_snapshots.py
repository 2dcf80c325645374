"""Snapshots: replay from them gives exactly what replay from the events gives;
the audit never trusts them."""

from __future__ import annotations

from eventsourcing.domain import Snapshot

from service.snapshots import GameSnapshot

from .helpers import cli_json, play, state_bytes


def test_replay_with_and_without_snapshots_agree(store):
    snap = store.app(snapshot_interval=10)
    plain = store.app(snapshot_interval=0)
    [gid] = play(snap, seats=4, seed="snap")
    stored = list(snap.snapshots.get(gid))
    last = snap.fold(gid)[1]
    # one snapshot at the end of each step that crossed a multiple of 10, taken in memory
    at = [s.originator_version for s in stored]
    events = plain.stored_events(gid)
    step_ends = {e.originator_version - 1 for e in events if e.type in ("Decided", "EntropyAdded")} | {last}
    assert at and set(at) <= step_ends
    crossed = [v for v in sorted(step_ends) if v // 10 > max([p for p in step_ends if p < v], default=0) // 10]
    assert at == crossed
    assert isinstance(stored[0], GameSnapshot) and isinstance(stored[0], Snapshot)
    top_turn = plain.fold(gid)[0].turn()
    for t in range(0, top_turn + 2):
        m1, v1, h1 = snap.fold(gid, to_turn=t)
        m2, v2, h2 = plain.fold(gid, to_turn=t)
        assert (v1, h1) == (v2, h2) and state_bytes(m1) == state_bytes(m2), t
    for v in range(1, last + 1, 3):
        assert state_bytes(snap.fold(gid, to_event=v)[0]) == state_bytes(plain.fold(gid, to_event=v)[0])
    g1, g2 = snap.load(gid), plain.load(gid)
    assert (g1.version, g1.head, g1.max_turn) == (g2.version, g2.head, g2.max_turn)
    assert state_bytes(g1.machine) == state_bytes(g2.machine)


def test_interval_from_environment(store):
    [gid] = play(store.app(snapshot_interval=0), seats=2, seed="env")
    p = store.cli("replay", gid.hex, "--to-turn", "5", "--json", PRIVATEER_SNAPSHOT_INTERVAL="7")
    assert p.returncode == 0
    store.cli("status", gid.hex, check=2, PRIVATEER_SNAPSHOT_INTERVAL="lots")


def test_audit_never_trusts_a_snapshot(store):
    app = store.app(snapshot_interval=100000)
    [gid] = play(app, seats=2, seed="lie")
    last = app.fold(gid)[1]
    # a lying snapshot: the state at version 5 filed as the state at the last version
    early = GameSnapshot.take(app.load(gid, version=5))
    lie = GameSnapshot(originator_id=gid, originator_version=last, timestamp=early.timestamp,
                       topic=early.topic, state=early.state)
    app.snapshots.recorder.insert_events([app.mapper.to_stored_event(lie)])
    # replay believes the cache ...
    m, v, _ = app.fold(gid)
    assert v == last and not m.finished
    # ... the audit reads the events only, and the events say the game finished
    report = cli_json(store, "audit", gid.hex)
    assert report["ok"] and report["events"] == last
    assert store.app(snapshot_interval=0).fold(gid)[0].finished
    # and tampering with an event is still caught although a snapshot covers it
    assert store.app(snapshot_interval=0).fold(gid)[1] == last


def test_tampered_event_caught_although_snapshots_cover_it(store):
    app = store.app(snapshot_interval=5)
    [gid] = play(app, seats=2, seed="tamper")
    assert list(app.snapshots.get(gid))
    victim = 12
    row = app.recorder.select_events(gid, gt=victim - 1, lte=victim)[0]
    state = app.mapper.transcoder.decode(row.state)
    state["turn"] = state["turn"] + 1  # one changed fact, still valid MessagePack
    raw = app.mapper.transcoder.encode(state)
    if store.backend == "sqlite":
        import sqlite3

        with sqlite3.connect(store.url) as conn:
            conn.execute("UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
                         (raw, gid.hex, victim))
    else:
        import psycopg

        from .conftest import PG_BASE

        schema = store.url.split("schema=")[1]
        with psycopg.connect(PG_BASE, autocommit=True) as conn:
            conn.execute(f'UPDATE "{schema}".privateer_events SET state = %s '
                         "WHERE originator_id = %s AND originator_version = %s", (raw, gid, victim))
    p = store.cli("audit", gid.hex, "--json", check=1)
    report = __import__("json").loads(p.stdout)
    assert not report["ok"] and report["first_bad"]["version"] == victim
