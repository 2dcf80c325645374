"""Names in a record and an export: any name a seat may be taken under (``Ada; 3=Mallory``,
``Bo=Z; 1=Eve``, ``"quoted"``, backslashes, ``]``, ``#``, non-ASCII), a game's name and
tournament, a correction's reason, survive ``tools record`` + ``tools import`` and
``tools export`` + ``tools import`` as they were; a record of the old form still imports;
``tools log`` escapes what an old game holds that a terminal would act on."""

from __future__ import annotations

import json
from pathlib import Path
from uuid import uuid4

import pytest

from service.aggregate import Game
from service.app import Privateer
from service.kernel.chance import TableChance
from service.kernel.errors import BadInput, DoesNotVerify
from service.kernel.local import created_event
from service.kernel.games import get_rules
from service.records.keys import published_keys
from service.records.text_import import import_record

NAMES = {"1": "Ada; 3=Mallory", "2": "Bo=Z; 1=Eve", "3": '"quoted"', "4": "back\\slash \\\" [x] # not a comment",
         "5": "Zoë Ōkubo 张伟"}
SPEC = Path(__file__).resolve().parents[2] / "spec" / "vectors"


def history(app, gid):
    return [(e.type, e.turn, e.visible_to, e.data) for e in app.stored_events(gid)]


def named_table_game(db: str, game: str, players: dict) -> str:
    """A table game with these players, a name, a tournament, a few outcomes and a correction."""
    app = Privateer(db)
    gid = app.create(game, len(players), table=True, players=players, name='table "7" \\ ] #1', tournament="Frühling")
    m = app.load(gid).machine
    while m.awaiting_chance() is not None:
        app.enter_chance(gid, app.load(gid).machine.k["awaiting"]["choices"][0]
                         if m.awaiting_chance()["kind"] == "card" else 3)
        m = app.load(gid).machine
    at = app.fold(gid)[1]
    seat = m.to_act()[0]
    app.act(gid, seat, m.legal(seat)[0])
    app.correct(gid, at, 'misread; 3=Mallory "x" \\ #')
    app.close()
    return gid.hex


@pytest.mark.parametrize("game", ["letter-of-marque", "loot"])
def test_names_survive_record_and_export_through_the_command_line(cli, tmp_path, game):
    players = NAMES
    gid = named_table_game(cli.db, game, players)
    cli.ok("record", gid, "-o", tmp_path / "g.record")
    cli.ok("export", gid, "-o", tmp_path / "g.pgame")
    text = (tmp_path / "g.record").read_text(encoding="utf-8")
    for seat, name in players.items():
        assert f"[Player{seat} {json.dumps(name, ensure_ascii=False)}]" in text.splitlines()
    other = str(tmp_path / "other.db")
    from_record = cli.ok("import", tmp_path / "g.record", "--db", other).strip()
    from_export = cli.ok("import", tmp_path / "g.pgame", "--db", other).strip()
    original = Privateer(cli.db)
    copies = Privateer(other)
    want = history(original, original.resolve_id(gid))
    for again in (from_record, from_export):
        got = copies.resolve_id(again)
        assert history(copies, got) == want
        created = copies.stored_events(got)[0].data
        assert created["players"] == players and created["tournament"] == "Frühling"
        assert created["name"] == 'table "7" \\ ] #1'
        assert copies.load(got).machine.config["players"] == players


def an_old_game(db: str) -> str:
    """A game stored before names and notes were checked: a line break in its name, ESC,
    BEL and U+202E in a seat's name, NEL in a referee's note (the kernel kept what it was given)."""
    created, _ = created_event(get_rules("letter-of-marque"), 2, table=True)
    created.data["name"] = 'table\n[Seed "00"]'
    created.data["players"] = {"1": "Ada\x1b]0;owned\x07\u202e"}
    game = Game.start(uuid4(), created)
    game.record([Privateer._seat_named(game, 1, created.data["players"]["1"])])
    game.record(game.machine.setup(TableChance([]), None))
    game.record(game.machine.enter_chance(4))
    game.record(game.machine.enter_chance(3))
    game.record(game.machine.referee({"referee": "note", "text": "a die\x85fell"}, TableChance([])))
    app = Privateer(db)
    app.save_game(game)
    app.close()
    return game.id.hex


def test_an_old_game_s_record_keeps_every_line_whole_and_its_log_escapes(cli, tmp_path):
    gid = an_old_game(cli.db)
    text = cli.ok("record", gid)
    lines = text.split("\n")
    assert text.splitlines() == lines[:-1]  # no character another reader takes for a line break
    assert not any(c in text for c in "\x1b\x07\u202e\x85")
    header = lines[:lines.index("")]
    assert all(line.startswith("[") and line.endswith('"]') for line in header)
    assert '[Name "table\\n[Seed \\"00\\"]"]' in header and not any(h.startswith("[Seed") for h in header)
    assert 'name 1 "Ada\\u001b]0;owned\\u0007\\u202e"' in lines
    assert 'referee {"referee": "note", "text": "a die\\u0085fell"}' in lines
    # importing it refuses the name, in one line naming it (an imported text is checked as a typed one)
    path = tmp_path / "old.record"
    path.write_text(text, encoding="utf-8")
    p = cli.run("import", path, "--db", tmp_path / "other.db")
    assert p.returncode == 2 and p.stderr == "error: record line 13: seat 1's player name holds a control character (U+001B)\n"
    # the log shows them escaped, for the referee and for a seat
    for args in ((), ("--seat", "1")):
        out = cli.ok("log", gid, *args)
        assert not any(c in out for c in "\x1b\x07\u202e\x85")
        assert "Ada\\x1b]0;owned\\x07\\u202e" in out
    assert "a die\\x85fell" in cli.ok("log", gid)


def test_a_record_of_the_old_form_still_imports(tmp_path):
    old = (SPEC / "table-corrected.record").read_text(encoding="utf-8")
    assert old.startswith('[Record "PrivateerRecord 2"]') and '[Players "1=Ada; 2=Bo"]' in old
    app = Privateer(str(tmp_path / "o.db"))
    with pytest.raises(DoesNotVerify, match="give its service.s published key"):  # its sign lines carry no keys
        import_record(app, old)
    gid = import_record(app, old, published_keys([str(SPEC / "service.key")]))
    assert app.stored_events(gid)[0].data["players"] == {"1": "Ada", "2": "Bo"}
    unsigned = "".join(line for line in old.splitlines(keepends=True)
                       if not line.startswith(("sign ", "[GameId "))).replace("PrivateerRecord 2", "PrivateerRecord 1")
    assert history(app, import_record(app, unsigned)) == history(app, gid)


def test_an_imported_record_or_export_is_checked_as_typed_text_is(tmp_path, cli):
    gid = named_table_game(cli.db, "loot", {"1": "Ada", "2": "Bo", "3": "Cy"})
    signed = cli.ok("record", gid)
    # the service's sign lines refuse any change (tests/evidence/test_trust.py); a record without them
    # (typed by hand, or from before signing) is checked as typed text is
    with pytest.raises(DoesNotVerify, match="does not check"):
        import_record(Privateer(str(tmp_path / "s.db")), signed.replace('[Player2 "Bo"]', '[Player2 "Bo\\u001b[2J"]'))
    text = "".join(line for line in signed.splitlines(keepends=True) if not line.startswith(("sign ", "[GameId ")))
    app = Privateer(str(tmp_path / "i.db"))
    for bad, said in [(text.replace('[Player2 "Bo"]', '[Player2 "Bo\\u001b[2J"]'),
                       "record: seat 2's player name holds a control character (U+001B)"),
                      (text.replace("name 2 Bo", 'name 2 "Bo\\u202e"'),
                       "seat 2's player name holds a bidirectional control (U+202E)"),
                      (text.replace('[Tournament "Frühling"]', '[Tournament "Fr\\u0000"]'),
                       "record: tournament holds a control character (U+0000)")]:
        with pytest.raises(BadInput) as e:
            import_record(app, bad)
        assert said in e.value.reason
    assert app.games() == []


def test_an_imported_export_is_checked_as_typed_text_is(cli, tmp_path):
    gid = an_old_game(cli.db)
    cli.ok("export", gid, "-o", tmp_path / "old.pgame")
    p = cli.run("import", tmp_path / "old.pgame", "--db", tmp_path / "other.db")
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr == (f"error: {tmp_path / 'old.pgame'}: event 1 (GameCreated): game name holds a control "
                        "character (U+000A)\n")
    assert not (tmp_path / "other.db").exists()
