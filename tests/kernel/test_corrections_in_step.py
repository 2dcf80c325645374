"""A correction inside a step (service/kernel/corrections.py): the live game, which re-runs
the step from the state before it, and the game folded from its events agree on everything,
the readers' counts included, before and after the outcomes are entered again; a seat's count
only ever grows."""

from __future__ import annotations

import pytest

from service.app import Privateer
from service.kernel.machine import Machine


def _same(a: Machine, b: Machine) -> None:
    assert a.kernel_state == b.kernel_state
    assert a.state == b.state
    assert (a.base is None) == (b.base is None)
    if a.base is not None:
        assert a.base[0] == b.base[0] and a.base[1] == b.base[1]


def test_the_live_game_and_the_folded_one_agree_through_corrections_inside_the_deal(tmp_path):
    app = Privateer(str(tmp_path / "g.db"), snapshot_interval=0)
    gid = app.create("loot", 4, table=True)
    pile = sorted(app.load(gid).machine.state["pile"])
    counts = []

    def step(run):
        game = app.load(gid)
        live = game.machine.copy()
        events = run()
        folded = app.load(gid).machine
        assert events
        counts.append(list(folded.kernel_state["seen"]))
        return live, folded

    step(lambda: app.enter_chances(gid, [2] + pile[:9]))
    step(lambda: app.retract_outcomes(gid, 3, "three cards misread"))
    # the live machine of the correction's append: the re-entry runs on it, then is saved; it is
    # the machine folded from the events that the next entry starts from
    game = app.load(gid)
    m = game.machine.copy()
    entered = m.enter_words(pile[6:8])
    step(lambda: app.enter_chances(gid, pile[6:8]))
    _same(m, app.load(gid).machine)
    assert [e.type for e in entered] == [e.type for e in app.last_stored(gid, len(entered))]
    step(lambda: app.replace_outcome(gid, 4, [pile[40]], "the third card mistyped"))
    step(lambda: app.retract_outcomes(gid, 2, "back further", enter=[pile[41], pile[42]]))
    step(lambda: app.enter_chances(gid, pile[9:25]))
    m = app.load(gid).machine
    assert m.to_act() == [3] and m.kernel_state["awaiting"] is None
    # the corrections on the line: the first was retracted by the second, which cut before it
    assert m.kernel_state["corrections"] == 2
    assert [v for _, v, _, _ in app.entered_outcomes(gid)] == [2, *pile[:2], pile[40], *pile[3:6], pile[41], pile[42],
                                                                  *pile[9:25]]
    for earlier, later in zip(counts, counts[1:]):  # every reader's count runs forward
        assert all(b >= a for a, b in zip(earlier, later)), (earlier, later)
    app.close()


def _rewrite(db: str, gid, change) -> None:
    """A tamperer with the store: ``change(version, stored dict)`` on each event, the chain rebuilt."""
    import sqlite3

    from event_store.chain import link
    from event_store.codec import pack, unpack

    con = sqlite3.connect(db)
    rows = con.execute("SELECT originator_version, state FROM stored_events WHERE originator_id=? "
                       "ORDER BY originator_version", (gid.hex,)).fetchall()
    prev = None
    for v, raw in rows:
        st = unpack(raw)
        change(v, st)
        if prev is not None:
            st["prev"] = prev
        st["hash"] = link(gid, v, st["timestamp"], st["type"], st["turn"], st["visible_to"], st["data"],
                          st["prev"], st["salt"])
        prev = st["hash"]
        con.execute("UPDATE stored_events SET state=? WHERE originator_id=? AND originator_version=?",
                    (pack(st), gid.hex, v))
    con.execute("UPDATE privateer_games SET head=? WHERE game_id=?", (prev, gid.hex))
    con.commit()
    con.close()


def test_the_audit_reruns_a_step_corrected_inside_and_catches_a_rewrite(tmp_path):
    from service.records.audit import audit_game

    made = []
    for n in range(3):
        db = str(tmp_path / f"g{n}.db")
        app = Privateer(db, snapshot_interval=0)
        gid = app.create("loot", 4, table=True)
        pile = sorted(app.load(gid).machine.state["pile"])
        app.enter_chances(gid, [4] + pile[:12])
        app.replace_outcome(gid, 6, [pile[50]], "a card mistyped")
        report = audit_game(app, gid)
        assert report.ok, report.as_dict()
        assert any("a card mistyped" in note for note in report.notes)
        stored = app.stored_events(gid)
        made.append((db, gid, stored))
        app.close()
    # 1: a retracted card rewritten: the step as it stood before the correction no longer re-runs
    db, gid, stored = made[0]
    corrected = next(e for e in stored if e.type == "Corrected")
    first, last = corrected.data["retracted"]
    tail = next(e for e in stored if e.type == "CardDrawn" and first < e.originator_version <= last)

    def swap_card(v, st):
        if v == tail.originator_version:
            st["data"]["card"] = "gold-4b"

    _rewrite(db, gid, swap_card)
    app = Privateer(db, snapshot_interval=0)
    report = audit_game(app, gid)
    # named at the step (its Decided: the re-run refuses the recorded outcome) or at the card itself
    assert not report.ok and report.first_bad["version"] in (2, tail.originator_version), report.as_dict()
    app.close()

    # 2: the correction's cut moved to just after an outcome: neither a step boundary nor an outcome's place
    db, gid, stored = made[1]
    corrected = next(e for e in stored if e.type == "Corrected")
    to = corrected.data["to_version"]

    def move_cut(v, st):
        if st["type"] == "Corrected":
            st["data"]["to_version"] = to + 1
            st["data"]["retracted"] = [to + 2, st["data"]["retracted"][1]]
        if st["type"] == "Decided" and st["data"]["decision"].get("referee") == "correct":
            st["data"]["decision"]["to_version"] = to + 1

    _rewrite(db, gid, move_cut)
    app = Privateer(db, snapshot_interval=0)
    report = audit_game(app, gid)
    assert not report.ok, report.as_dict()
    app.close()

    # 3: a card entered again after the correction rewritten: the step as it stands no longer re-runs
    db, gid, stored = made[2]
    again = [e for e in stored if e.type == "CardDrawn" and e.originator_version > corrected.originator_version]

    def swap_again(v, st):
        if v == again[3].originator_version:
            st["data"]["card"] = "gold-4b"

    _rewrite(db, gid, swap_again)
    app = Privateer(db, snapshot_interval=0)
    report = audit_game(app, gid)
    assert not report.ok and report.first_bad["version"] in (2, again[3].originator_version), report.as_dict()
    app.close()


def _outcome(m, rng):
    a, k = m.awaiting_chance(), m.kernel_state["awaiting"]
    if a["kind"] == "dice":
        return [rng.randint(1, a["sides"]) for _ in range(a["n"])]
    if a["kind"] == "card":
        return rng.choice(k["choices"])
    if a["kind"] == "pick":
        return rng.choice(a["options"])
    cards = list(k["cards"])
    rng.shuffle(cards)
    return cards


@pytest.mark.parametrize("game, seats", [("letter-of-marque", 2), ("loot", 4), ("kaisers-pirates", 2),
                                         ("merchants-and-marauders", 2)])
def test_every_game_at_a_table_with_entries_taken_back_and_steps_undone_audits(tmp_path, game, seats):
    """Random play at a table for each game, the referee now and then taking back the last
    1-3 entries of the step or undoing the last step whole (once at least, from the 40th
    step on): every history audits. (An undo
    whole once passed for a correction inside the step it cut after: the step before was then
    offered for entries to take back, and the audit refused the history.)"""
    import random

    from service.records.audit import audit_game
    from service.kernel.corrections import undo_point
    from service.kernel.errors import PrivateerError

    made = {"inside": 0, "whole": 0}
    rng = random.Random(3)
    app = Privateer(str(tmp_path / f"{game}.db"), snapshot_interval=0)
    gid = app.create(game, seats, table=True)
    for i in range(70):
        m = app.load(gid).machine
        if m.finished:
            break
        undo = rng.random() < 0.05 or i >= 40 and not made["whole"]
        if undo and undo_point(app.stored_events(gid)) is not None:
            app.correct(gid, undo_point(app.stored_events(gid)), f"undo {i}")
            made["whole"] += 1
            assert app.outcome_places(gid) == []  # the correction is the last step now
            continue
        places = app.outcome_places(gid)
        if places and rng.random() < 0.12:
            app.retract_outcomes(gid, rng.randint(1, min(3, len(places))), f"back {i}")
            made["inside"] += 1
            continue
        if m.awaiting_chance() is not None:
            for _ in range(30):
                try:
                    app.enter_chance(gid, _outcome(m, rng))
                    break
                except PrivateerError:
                    continue
            continue
        seat = m.to_act()[0]
        app.act(gid, seat, rng.choice(m.legal(seat)))
    report = audit_game(app, gid)
    assert report.ok, (game, report.as_dict())
    app.close()
    assert made["inside"] >= 1 and made["whole"] >= 1, made  # each game took entries back and undid a step


def test_after_a_step_undone_whole_no_entry_of_the_step_before_is_offered(tmp_path):
    """A correction of whole steps cuts at the end of the step before them: it is no correction
    inside that step (its target is no outcome's place), so that step's entries are not the
    current step's. (They were offered once, and taking one back made a history the audit refused.)"""
    import pytest

    from service.records.audit import audit_game
    from service.kernel.corrections import undo_point
    from service.kernel.errors import BadInput

    app = Privateer(str(tmp_path / "g.db"), snapshot_interval=0)
    gid = app.create("loot", 4, table=True)
    pile = sorted(app.load(gid).machine.state["pile"])
    app.enter_chances(gid, [1] + pile[:24])
    app.act(gid, 2, {"action": "draw"})
    app.enter_chance(gid, pile[30])
    app.act(gid, 3, {"action": "draw"})
    app.enter_chance(gid, pile[31])
    assert len(app.outcome_places(gid)) == 1
    app.correct(gid, undo_point(app.stored_events(gid)), "seat 3 did not draw")
    assert app.outcome_places(gid) == [] and app.entered_outcomes(gid) == []
    with pytest.raises(BadInput, match="no outcome entered"):
        app.retract_outcomes(gid, 1, "x")
    assert audit_game(app, gid).ok
    app.close()
