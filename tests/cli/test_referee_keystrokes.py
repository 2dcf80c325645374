"""What a referee recording a game types at a table (issue 45, "the referee's keystrokes"):
names as printed or as the log says them, refusals that say why and what may be typed,
counts a refusal leaves alone, one plain line a decision. Each drives the real command."""

from __future__ import annotations

import subprocess
import sys
from uuid import UUID

from service.app import Privateer

DEMAND = "cocoa food rum spices sugar textiles tobacco wood " * 2


def run_table(cli, gid, lines, *options):
    return subprocess.run([sys.executable, "-m", "tools", "table", gid, *options], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, env=cli.env, timeout=300)


def mm_at_the_captains(cli):
    """An M&M table game whose setup waits for seat 1's captain card."""
    gid = cli.ok("new", "merchants-and-marauders", "--seats", "2", "--table").strip()
    cli.ok("chance", gid, *DEMAND.split(), "X01", "X10")
    assert "captain" in cli.ok("status", gid)
    return gid


def drawn(cli, gid):
    return [(e.data["deck"], e.data["card"]) for e in Privateer(cli.db).stored_events(UUID(gid)) if e.type == "CardDrawn"]


def test_a_captain_is_typed_as_printed_or_as_the_log_says_it_any_case(cli):
    gid = mm_at_the_captains(cli)
    cli.ok("chance", gid, "Captain 6")
    assert drawn(cli, gid)[-1] == ("captains", "captain_06")
    cli.ok("chance", gid, "CAPTAIN CARD 7")      # as `tools log` says it
    assert drawn(cli, gid)[-1] == ("captains", "captain_07")
    assert "captain card 6" in cli.ok("log", gid).lower()


def test_a_refused_card_lists_the_closest_first_then_all_that_may_be_typed(cli):
    gid = mm_at_the_captains(cli)
    p = cli.run("chance", gid, "Captain 66", check=2)
    said = p.stderr
    assert "more" not in said, said
    closest = said.split("closest: ")[1].split(";")[0]
    assert closest.startswith("captain card 6"), said    # a captain the catalog does not name, said plainly
    assert "in the captain deck" in said and "'captains'" not in said and "unknown" not in said, said
    listed = said.split("all: ")[1]
    for name in ("Frances Wright", "Felipe", "Alexandre Villon", "captain card 16", "Pepijn van Avezaath"):
        assert name in listed, said
    assert listed.index("captain card 6,") < listed.index("captain card 16")    # numbers in order
    assert drawn(cli, gid)[-1][0] != "captains"     # nothing recorded


def test_a_decision_at_the_table_says_one_plain_line_and_the_receipt_only_with_json(cli):
    gid = cli.ok("new", "letter-of-marque", "--seats", "2", "--table", "--player", "1=Ada").strip()
    p = run_table(cli, gid, ["4 3", "@1 1", "quit"])
    assert p.returncode == 0, p.stdout + p.stderr
    version = Privateer(cli.db).load(UUID(gid)).version
    assert f"  recorded: seat 1 (Ada) decided place an armed ship on the treasure; the game is at version {version}" \
        in p.stdout.splitlines(), p.stdout
    assert "receipt" not in p.stdout and "{" not in p.stdout
    p = run_table(cli, gid, ["1", "quit"], "--json")
    line = next(x for x in p.stdout.splitlines() if x.strip().startswith("receipt "))
    assert '"seat":2' in line and '"signature"' in line


def test_referee_list_gives_every_field_a_ruling_takes_and_the_note(cli):
    import json
    import random

    app = Privateer(cli.db)
    gid = app.create("merchants-and-marauders", 2, seed=b"\x03" * 32)  # chance fixed as well as choices
    rng = random.Random(3)
    for _ in range(5000):          # play on until an NPC is at sea: its move may be overruled
        m = app.load(gid).machine
        if m.rules.referee_legal(m.state):
            break
        seat = m.to_act()[0]
        app.act(gid, seat, rng.choice(m.legal(seat)))
    said = cli.ok("referee", gid.hex, "--list")
    first = json.loads(said.splitlines()[1].strip().split("  (")[0])
    assert set(first) == {"referee", "npc", "to", "reason"}, said
    assert "as the printed board has it" in said.splitlines()[1]
    assert '{"referee": "note", "text": ' in said
    # the line as listed is taken as it stands, the reason in the referee's words
    first["reason"] = "the Dutch ship sails clockwise on our board"
    cli.ok("referee", gid.hex, json.dumps(first))
    assert any("the Dutch ship sails clockwise" in e["text"] for e in cli.json("log", gid.hex))


def test_a_refused_deal_records_nothing_and_counts_the_cards_as_the_table_holds_them(cli):
    gid = cli.ok("new", "loot", "--seats", "2", "--table").strip()
    cli.ok("chance", gid, "1")
    before = cli.json("status", gid)
    held = len(before["awaiting_chance"]["choices"])
    p = cli.run("chance", gid, "blue-2", "blue-3", "blue-4", "purple-9", check=2)
    assert f"({held} cards left, {held - 3} after the outcomes before it on this line" in p.stderr, p.stderr
    assert "nothing on this line was recorded" in p.stderr
    after = cli.json("status", gid)
    assert after["version"] == before["version"] and len(after["awaiting_chance"]["choices"]) == held
    p = run_table(cli, gid, ["status"])
    assert f"{held} possible" in p.stdout


def test_done_committing_keeps_its_number_from_turn_to_turn(cli):
    import random

    app = Privateer(cli.db)
    gid = app.create("kaisers-pirates", 3, seed=b"\x05" * 32)  # chance fixed as well as choices
    rng = random.Random(5)
    seen, counts = [], set()
    for _ in range(3000):
        m = app.load(gid).machine
        if m.finished or len(seen) == 4:
            break
        seat = m.to_act()[0]
        legal = m.legal(seat)
        if m.state["phase"] == "commit" and len(legal) not in counts and len(legal) > 3:
            counts.add(len(legal))       # a commit phase with another number of choices than before
            listed = cli.ok("legal", gid.hex, "--seat", seat).splitlines()
            seen.append(listed[1].strip())
        app.act(gid, seat, rng.choice(legal))
    assert len(seen) == 4 and set(seen) == {"1. done committing cards"}, seen


def test_a_refusal_names_its_reason_in_the_games_words(cli):
    import json
    import random

    from service.kernel.errors import IllegalDecision

    app = Privateer(cli.db)
    gid = app.create("merchants-and-marauders", 2, seed=b"\x0b" * 32)  # chance fixed as well as choices
    rng = random.Random(11)
    while app.load(gid).machine.state["phase"] == "setup":
        m = app.load(gid).machine
        app.act(gid, m.to_act()[0], rng.choice(m.legal(m.to_act()[0])))
    seat = app.load(gid).machine.to_act()[0]
    p = cli.run("act", gid.hex, "--seat", seat, json.dumps({"action": "glory_decline", "card": "G01"}), check=3)
    assert "no glory card is announced to you now" in p.stderr and "glory_decline" not in p.stderr, p.stderr
    # a ship scouted once this turn: "already scouted"
    said = None
    for _ in range(4000):
        m = app.load(gid).machine
        if m.finished:
            break
        seat = m.to_act()[0]
        legal = m.legal(seat)
        scouts = [d for d in legal if d["action"] == "scout"]
        if scouts:
            app.act(gid, seat, scouts[0])
            m = app.load(gid).machine
            if m.to_act() == [seat] and scouts[0] not in m.legal(seat) and m.state["combat"] is None:
                try:
                    app.act(gid, seat, scouts[0])
                except IllegalDecision as e:
                    said = e.reason
                    break
            continue
        app.act(gid, seat, rng.choice(legal))
    assert said is not None and "already scouted" in said, said


def test_the_kaisers_pirates_say_why_an_answer_is_refused_without_a_window():
    from service.kernel.errors import IllegalDecision
    from service.kernel.local import LocalGame

    import random

    g = LocalGame("kaisers-pirates", 3)
    rng = random.Random(1)
    while not (g.machine.state["phase"] == "resolve" and g.machine.state["window"] is None):
        s = g.to_act()[0]
        g.act(s, rng.choice(g.legal(s)))
    seat = g.to_act()[0]
    try:
        g.act(seat, {"action": "decline"})
    except IllegalDecision as e:
        assert "no window is open for you" in e.reason and "see the legal decisions" not in e.reason, e.reason
    else:
        raise AssertionError("a decline with no window open was taken")


def test_a_position_takes_either_books_names_for_weapons_and_ships(cli, tmp_path):
    import json

    position = {"to_play": "Felipe", "players": [
        {"captain": "Felipe", "ship": "Fregata", "sea": "Port Royal", "weapons": ["Grapeshot", "Palle a Catena"]},
        {"captain": "Frances Wright", "sea": "Port Royal", "weapons": ["grappling hooks"]}]}
    f = tmp_path / "pos.json"
    f.write_text(json.dumps(position), encoding="utf-8")
    gid = cli.ok("new", "merchants-and-marauders", "--seats", "2", "--position", str(f)).strip()
    state = Privateer(cli.db).load(UUID(gid)).machine.state
    felipe = next(p for p in state["players"] if p["captain"] == "felipe")
    assert sorted(felipe["weapons"]) == ["chain_shot", "grape_shot"] and felipe["ship"]["type"] == "frigate"
    position["players"][0]["weapons"] = ["Grapeshoot"]
    f.write_text(json.dumps(position), encoding="utf-8")
    p = cli.run("new", "merchants-and-marauders", "--seats", "2", "--position", str(f), check=2)
    assert "no 'Grapeshoot'" in p.stderr and "grape shot" in p.stderr and "..." not in p.stderr, p.stderr



def test_legal_says_the_price_of_a_cargo_card_offered_in_port(cli):
    import random

    app = Privateer(cli.db)
    gid = app.create("merchants-and-marauders", 2, seed=b"\x04" * 32)  # its chance as well as its choices fixed
    rng = random.Random(4)
    for _ in range(3000):
        m = app.load(gid).machine
        assert m.to_act(), "the game ended before a cargo card was offered in port"
        seat = m.to_act()[0]
        legal = m.legal(seat)
        buys = [d for d in legal if d["action"] == "buy"]
        if buys:
            break
        app.act(gid, seat, rng.choice(legal))
    price = m.state["port"]["offer"][buys[0]["card"]]
    listed = cli.ok("legal", gid.hex, "--seat", seat)
    assert any(line.strip().split(". ", 1)[1].startswith("buy ") and line.endswith(f" for {price} gold")
               for line in listed.splitlines()[1:]), listed
