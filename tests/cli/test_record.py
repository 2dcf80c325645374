"""The game record (service/records/text.py): record -> import -> audit is clean and
the event histories are identical, for random games of all four games, seeded
(finished) and at a table; the notation reads back value for value."""

from __future__ import annotations

import random
from uuid import UUID

import pytest

from service.app import Privateer
from service.records.audit import audit_game
from service.kernel.errors import BadInput
from service.kernel.rules import catalog_digest
from service.kernel.games import get_rules
from service.records.text import decision_text, parse_decision, write_record
from service.records.text_import import import_record
from service.simulate import simulate

GAMES = [("letter-of-marque", 3, {}), ("loot", 4, {"pairs": "true"}), ("kaisers-pirates", 2, {}),
         ("merchants-and-marauders", 3, {})]


def history(app, gid):
    return [(e.type, e.turn, e.visible_to, e.data) for e in app.stored_events(gid)]


def record_of(app, gid):
    stored = app.stored_events(gid)
    created = stored[0].data
    default = catalog_digest(get_rules(created["game"]).catalog(created.get("options") or {}))
    finished = any(e.type == "GameFinished" for e in stored)
    return write_record(stored, app.recorder.select_secret(gid.hex) if finished else None, default)


def played_out_audited_and_reimported(app, gid, rng) -> None:
    """Play ``gid`` to its end with random legal decisions; its audit is clean, and its
    record imported again is the same history, audited clean too."""
    while not app.load(gid).machine.finished:
        m = app.load(gid).machine
        seat = m.to_act()[0]
        app.act(gid, seat, rng.choice(m.legal(seat)))
    assert audit_game(app, gid).ok
    again = import_record(app, record_of(app, gid))
    assert history(app, again) == history(app, gid) and audit_game(app, again).ok


def table_game(app, game, seats, options, steps, rng):
    """A game at a table: random legal decisions, the referee entering random outcomes."""
    gid = app.create(game, seats, table=True, options=options, players={"1": "Ada", "2": "Bo"})
    for _ in range(steps):
        m = app.load(gid).machine
        if m.finished:
            break
        a = m.awaiting_chance()
        if a is not None:
            if a["kind"] == "dice":
                outcome = [rng.randint(1, a["sides"]) for _ in range(a["n"])]
                outcome = outcome[0] if a["n"] == 1 else outcome
            elif a["kind"] == "card":
                outcome = rng.choice(m.k["awaiting"]["choices"])
            elif a["kind"] == "pick":
                outcome = rng.choice(a["options"])
            else:
                cards = list(m.k["awaiting"]["cards"])
                rng.shuffle(cards)
                outcome = cards
            app.enter_chance(gid, outcome)
            continue
        seat = m.to_act()[0]
        app.act(gid, seat, rng.choice(m.legal(seat)))
    return gid


@pytest.mark.parametrize("game,seats,options", GAMES)
def test_record_import_gives_the_same_history(tmp_path, game, seats, options):
    app = Privateer(str(tmp_path / "r.db"))
    [seeded] = [UUID(g) for g in simulate(game, seats, 1, seed=f"record-{game}", options=options, app=app)["game_ids"]]
    table = table_game(app, game, seats, options, 150, random.Random(game))
    for gid in (seeded, table):
        text = record_of(app, gid)
        again = import_record(app, text)
        assert history(app, again) == history(app, gid)
        assert audit_game(app, again).ok
        # the record of the copy is the record of the original, but for its date
        strip = lambda t: [line for line in t.splitlines() if not line.startswith("[Date")]
        assert strip(record_of(app, again)) == strip(text)
        # each seat's decision ends with its words as a comment; a record without them
        # (written before them) imports to the same history
        rules = get_rules(game)
        created = app.stored_events(gid)[0].data
        said = [f"  # {rules.say_decision(created, e.data['decision'])}" for e in app.stored_events(gid)
                if e.type == "Decided" and e.data["seat"] > 0]
        commented = [line for line in text.splitlines() if line[:1].isdigit() and "  # " in line]
        assert said and [line[line.index("  # "):] for line in commented] == said
        old = "\n".join(line.split("  # ")[0] if line[:1].isdigit() else line for line in text.splitlines()) + "\n"
        assert history(app, import_record(app, old)) == history(app, gid)
        # the notation of every decision reads back exactly, types included
        for e in app.stored_events(gid):
            if e.type == "Decided" and e.data["seat"] > 0:
                d = e.data["decision"]
                back = parse_decision(decision_text(d))
                assert back == d and all(type(back[k]) is type(d[k]) for k in d)


def test_records_refuse_what_they_cannot_rebuild(tmp_path, cli):
    app = Privateer(str(tmp_path / "x.db"))
    gid = app.create("loot", 3)  # seeded, unfinished: its seed is secret
    text = record_of(app, gid)
    assert "[Seed" not in text
    with pytest.raises(BadInput, match="once the game is finished"):
        import_record(app, text)
    t = table_game(app, "letter-of-marque", 2, {}, 12, random.Random(1))
    good = record_of(app, t)
    bad = good.replace("\n2 ", "\n1 ", 1)  # seat 2's decision given to seat 1
    path = tmp_path / "bad.record"
    path.write_text(bad)
    before = len(app.games())
    p = cli.run("import", str(path), "--db", str(tmp_path / "x.db"), check=None)
    assert p.returncode != 0 and "record line" in p.stderr
    assert len(app.games()) == before  # nothing written
    path.write_text(good)
    new = cli.ok("import", str(path), "--db", str(tmp_path / "x.db")).strip()
    again = cli.ok("record", new, "--db", str(tmp_path / "x.db"))

    def moves(text):  # each store signs its own steps (its time, its key): the moves are the same
        return [line for line in text.split("[Config")[1].splitlines() if not line.startswith("sign ")]
    assert moves(again) == moves(good)


def test_a_corrected_table_game_records_and_imports(tmp_path):
    app = Privateer(str(tmp_path / "c.db"))
    gid = app.create("letter-of-marque", 2, table=True)
    app.enter_chances(gid, [4, 3])
    at = app.fold(gid)[1]
    app.act(gid, 1, {"action": "place", "armed": True})
    app.correct(gid, at, "seat 1 meant an unarmed ship")
    app.act(gid, 1, {"action": "place", "armed": False})
    app.act(gid, 2, {"action": "place", "armed": True})
    text = record_of(app, gid)
    assert f'correct {at} "seat 1 meant an unarmed ship"' in text
    again = import_record(app, text)
    assert history(app, again) == history(app, gid) and audit_game(app, again).ok
