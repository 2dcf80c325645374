"""Text that people type (service/kernel/text.py): player names, game and tournament
names, referee notes, correction reasons, the names in a position. No control
character, no bidirectional override, NFC and stripped, one limit per kind; a refusal
is one line naming the field, and nothing is written, whichever way the text came in."""

from __future__ import annotations

import json
import unicodedata

import pytest

from service.app import Privateer
from service.kernel import text
from service.kernel.errors import BadInput

# one of each kind of character refused: C0 (NUL, BEL, ESC, line feed, tab), DEL, C1,
# a bidirectional override and isolate, a line separator, a lone surrogate
REFUSED = {"\x00": "control character (U+0000)", "\x07": "control character (U+0007)",
           "\x1b": "control character (U+001B)", "\n": "control character (U+000A)",
           "\t": "control character (U+0009)", "\x7f": "control character (U+007F)",
           "\x85": "control character (U+0085)", "\u202e": "bidirectional control (U+202E)",
           "\u2066": "bidirectional control (U+2066)", "\u2028": "line separator (U+2028)",
           "\ud800": "surrogate pair (U+D800)"}


@pytest.mark.parametrize("char", sorted(REFUSED))
@pytest.mark.parametrize("check,field", [(text.player_name, "player name"), (text.game_name, "game name"),
                                         (text.tournament, "tournament"), (text.note, "referee note"),
                                         (text.reason, "reason")])
def test_each_kind_refuses_each_forbidden_character_naming_the_field(check, field, char):
    with pytest.raises(BadInput) as e:
        check(f"Ada{char}Bo")
    assert e.value.reason.startswith(f"{field} holds") and REFUSED[char] in e.value.reason
    assert "\n" not in e.value.reason and char not in e.value.reason


def test_as_typed_a_text_is_nfc_and_stripped_and_a_kind_has_its_limit():
    decomposed = "Cafe\u0301"
    assert text.player_name(f"  {decomposed} ") == unicodedata.normalize("NFC", decomposed) == "Caf\u00e9"
    assert text.player_name("Ada; 3=Mallory") == "Ada; 3=Mallory"  # what a record must quote, not refuse
    assert text.game_name("") == text.tournament("") == ""  # may be empty
    for check in (text.player_name, text.note, text.reason):
        with pytest.raises(BadInput, match="is empty"):
            check("   ")
    assert text.player_name("x" * 200) == "x" * 200
    with pytest.raises(BadInput, match=r"player name is longer than 200 characters \(10000\)"):
        text.player_name("x" * 10_000)
    with pytest.raises(BadInput, match="names a seat"):
        text.player_name("seat 2")
    assert text.shown("a\x1bb\u202ec\x00") == "a\\x1bb\\u202ec\\x00"


def test_creation_refuses_each_text_and_writes_nothing(tmp_path):
    app = Privateer(str(tmp_path / "t.db"))
    for kw, said in [({"name": "table\n7"}, "game name holds a control character (U+000A)"),
                     ({"tournament": "spring\x00"}, "tournament holds a control character (U+0000)"),
                     ({"players": {"2": "Bo\u202e"}}, "seat 2's player name holds a bidirectional control"),
                     ({"players": {"1": "x" * 10_000}}, "seat 1's player name is longer than 200"),
                     ({"players": {"1": "Ada", "2": "Ada "}}, "a player may take only one seat")]:
        with pytest.raises(BadInput) as e:
            app.create("loot", 3, **kw)
        assert said in e.value.reason, (kw, e.value.reason)
    assert app.games() == []
    gid = app.create("loot", 3, table=True, name=" table 7 ", players={"1": " Cafe\u0301"})
    created = app.stored_events(gid)[0].data
    assert created["name"] == "table 7" and created["players"] == {"1": "Caf\u00e9"}


def test_a_seat_named_later_a_note_and_a_reason_are_checked_as_typed(tmp_path):
    app = Privateer(str(tmp_path / "t.db"))
    gid = app.create("letter-of-marque", 2, table=True)
    app.enter_chance(gid, 4)
    app.enter_chance(gid, 3)
    game = app.load(gid)
    with pytest.raises(BadInput, match="player name holds a control character"):
        app.name_seat(game, 1, "Ada\x1b[2J")
    before = len(app.stored_events(gid))
    with pytest.raises(BadInput, match=r"referee note holds a control character \(U\+0007\)"):
        app.referee(gid, {"referee": "note", "text": "seat 2 rang\x07"})
    assert len(app.stored_events(gid)) == before
    at = app.load(gid).version
    app.act(gid, 1, {"action": "place", "armed": True})
    app.act(gid, 2, {"action": "place", "armed": False})
    before = len(app.stored_events(gid))
    with pytest.raises(BadInput, match=r"reason holds a line separator \(U\+2028\)"):
        app.correct(gid, at, "misread\u2028correct 3 forged")
    assert len(app.stored_events(gid)) == before
    app.referee(gid, {"referee": "note", "text": "  a die fell off the table  "})
    assert app.stored_events(gid)[-1].data == {"text": "a die fell off the table"}


def test_the_command_line_refuses_in_one_line_with_exit_2(cli, tmp_path):
    p = cli.run("new", "loot", "--seats", "3", "--player", "1=Ada\x1b]0;owned\x07", "--tournament", "spring")
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr == "error: seat 1's player name holds a control character (U+001B)\n"
    p = cli.run("new", "loot", "--seats", "3", "--name", "x" * 201)
    assert p.returncode == 2 and p.stderr == "error: game name is longer than 200 characters (201)\n"
    p = cli.run("standings", "--tournament", "spring\u202e")
    assert p.returncode == 2 and "tournament holds a bidirectional control (U+202E)" in p.stderr
    app = Privateer(cli.db)
    assert app.games() == []
    gid = app.create("loot", 2, table=True)
    p = cli.run("referee", gid.hex, json.dumps({"referee": "note", "text": "ok\u2067"}))
    assert p.returncode == 2 and p.stderr == "error: referee note holds a bidirectional control (U+2067)\n"
    assert app.load(gid).version == 3


def test_a_control_character_in_a_position_is_refused_where_it_was_found(tmp_path):
    app = Privateer(str(tmp_path / "t.db"))
    battle = {"to_play": "Felipe", "players": [
        {"captain": "Felipe", "ship": "Frigate", "sea": "Port Royal"},
        {"captain": "Frances Wright", "sea": "Port Royal"}]}
    bad = json.loads(json.dumps(battle))
    bad["players"][1]["sea"] = "Port Royal\x1b[31m"
    with pytest.raises(BadInput) as e:
        app.create("merchants-and-marauders", 2, table=True, position=bad)
    assert e.value.reason == "the position.players[1].sea holds a control character (U+001B)"
    assert app.games() == []
    assert app.create("merchants-and-marauders", 2, table=True, position=battle)


def test_names_that_look_like_markup_are_shown_as_typed(cli, tmp_path):
    """``[/]`` is a name like any other: the tables `tools games` and `tools standings` draw
    with rich showed it as markup, or failed on it with a traceback."""
    app = Privateer(cli.db)
    gid = app.create("letter-of-marque", 2, name="[/]", tournament="[bold]cup", players={"1": "[/x]", "2": ":x:"},
                     seed=b"\x01" * 32)
    while not (m := app.load(gid).machine).finished:
        app.act(gid, m.to_act()[0], m.legal(m.to_act()[0])[0])
    app.close()
    out = cli.ok("games")
    assert all(name in out for name in ("[/] —", "[/x],", ":x:", "[[bold]cup]", "won:"))
    out = cli.ok("standings")
    assert "[bold]cup — letter-of-marque" in out and "[/x]" in out and ":x:" in out
