"""Corrections inside a step, at a table: the referee takes back the last
outcome(s) entered in the current step, the setup's deal included, and enters
them again, on the record (issue 33).

Loot's deal as the book gives it: "Mescolare il mazzo e distribuire ad ogni
giocatore 6 carte" (shuffle and deal each player 6 cards), one at a time from
the seat left of the dealer: at four seats, the dealer entered first, then 24
cards. The 12th card of the deal (the 13th entry) is mistyped; one command puts
the right card in its place and enters the 12 after it again, as they were."""

from __future__ import annotations

import json
import subprocess
import sys

DEAL = ["blue-1a", "blue-1b", "blue-2a", "blue-2b", "blue-2c", "blue-2d", "blue-3a", "blue-3b",
        "blue-3c", "blue-3d", "blue-4a", "purple-4a", "green-1b", "green-2a", "green-2b", "green-2c",
        "green-2d", "green-3a", "green-3b", "green-3c", "green-3d", "green-4a", "merchant-5a", "merchant-5b"]
RIGHT = "purple-4a"  # the 12th card of the deal, as it lay on the table; green-1a was typed


def deal(cli, twelfth: str = "green-1a"):
    """A four-seat Loot game at a table: seat 1 deals, the 24 cards entered in one command."""
    gid = cli.ok("new", "loot", "--seats", "4", "--table", "--player", "1=Ada", "--player", "2=Bo",
                 "--player", "3=Cy", "--player", "4=Di").strip()
    cards = list(DEAL)
    cards[11] = twelfth
    cli.ok("chance", gid, "1", *cards)
    return gid


def audit(cli, gid):
    r = cli.json("audit", gid)
    return r[0] if isinstance(r, list) else r


def hand(cli, gid, seat):
    return sorted(cli.json("replay", gid)["board"]["players"][str(seat)]["hand"])


def test_the_twelfth_card_of_a_loot_deal_is_corrected_without_retyping_the_other_23(cli, tmp_path):
    gid = deal(cli)
    before = cli.json("status", gid)["version"]
    assert cli.json("status", gid)["to_act"] == [2]  # the deal is over: seat 2, left of the dealer, plays
    listed = cli.json("correct", gid, "--list")
    assert [x["outcome"] for x in listed] == [1] + DEAL[:11] + ["green-1a"] + DEAL[12:]
    assert listed[12]["place"] == 13 and listed[12]["why"] == "deal to seat 1"  # 12th card: dealt to seat 1
    assert "green-1a" in hand(cli, gid, 1)

    out = cli.json("correct", gid, "--place", "13", "--reason", "12th card mistyped", RIGHT)
    types = [e["type"] for e in out["events"]]
    assert types[:2] == ["Decided", "Corrected"]
    assert sum(t == "CardDrawn" for t in types) == 13  # the right card and the 12 after it, entered again
    assert out["next"]["to_act"] == [2]

    # replay follows the corrected deal: the right card in seat 1's hand, the mistyped one back in the pile
    board = cli.json("replay", gid)["board"]
    assert RIGHT in board["players"]["1"]["hand"] and "green-1a" not in board["players"]["1"]["hand"]
    assert "green-1a" in board["draw_pile_cards"] and RIGHT not in board["draw_pile_cards"]
    assert sum(len(p["hand"]) for p in board["players"].values()) == 24
    assert [x["outcome"] for x in cli.json("correct", gid, "--list")] == [1] + DEAL

    # the log keeps the mistake, marked retracted; nothing was removed
    log = cli.json("log", gid)
    assert [e["version"] for e in log] == list(range(1, len(log) + 1))
    assert len(log) > before
    wrong = [e for e in log if e["type"] == "CardDrawn" and e["data"]["card"] == "green-1a"]
    assert len(wrong) == 1 and wrong[0]["retracted"]
    corr = next(e for e in log if e["type"] == "Corrected")
    assert corr["data"]["reason"] == "12th card mistyped"
    assert log[corr["data"]["to_version"] - 1]["type"] == "ChanceAwaited"  # cut just before the 12th card
    assert all(e["retracted"] for e in log if corr["data"]["retracted"][0] <= e["version"] <= corr["data"]["retracted"][1])

    r = audit(cli, gid)
    assert r["ok"], r
    assert any("12th card mistyped" in n for n in r["notes"])

    # the game plays on from the corrected deal
    cli.ok("act", gid, "--seat", "2", '{"action": "draw"}')
    cli.ok("chance", gid, "gold-1a")
    assert audit(cli, gid)["ok"]

    # the record says the correction and imports into a game with the same events, which audits
    rec = tmp_path / "deal.record"
    cli.ok("record", gid, "-o", str(rec))
    text = rec.read_text()
    assert f'correct {corr["data"]["to_version"]} "12th card mistyped"' in text
    assert f"\nsign {corr['data']['to_version']} " in text  # the cut is a signed point of the record
    copy = cli.ok("import", str(rec)).split()[0]
    assert [(e["type"], e["data"]) for e in cli.json("log", copy)] == [(e["type"], e["data"]) for e in cli.json("log", gid)]
    assert audit(cli, copy)["ok"]
    assert hand(cli, copy, 1) == hand(cli, gid, 1)

    # the export verifies with the independent verifier
    exported = tmp_path / "deal.pgame"
    cli.ok("export", gid, "-o", str(exported))
    p = subprocess.run([sys.executable, "spec/verify.py", str(exported)], capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr


def test_the_last_entries_are_retracted_and_the_step_awaits_them_again(cli):
    gid = cli.ok("new", "loot", "--seats", "4", "--table").strip()
    cli.ok("chance", gid, "3", *DEAL[:5])
    assert cli.json("status", gid)["awaiting_chance"]["why"] == "deal to seat 1"  # dealer 3: 4, 1, 2, 3, 4, then 1
    out = cli.json("correct", gid, "--outcomes", "2", "--reason", "two cards entered twice over")
    assert [e["type"] for e in out["events"]] == ["Decided", "Corrected"]
    st = cli.json("status", gid)
    assert st["awaiting_chance"]["why"] == "deal to seat 3"  # the 4th card's place, awaited again
    assert [x["outcome"] for x in cli.json("correct", gid, "--list")] == [3] + DEAL[:3]
    # the dealer too: all the outcomes of the setup, then a new dealer
    cli.ok("correct", gid, "--outcomes", "4", "--reason", "seat 1 dealt", "1")
    assert cli.json("status", gid)["awaiting_chance"]["why"] == "deal to seat 2"
    cli.ok("chance", gid, *DEAL)
    assert cli.json("status", gid)["to_act"] == [2]
    assert hand(cli, gid, 2) == sorted(DEAL[0::4])
    r = audit(cli, gid)
    assert r["ok"], r
    assert sum("correction at version" in n for n in r["notes"]) == 2


def test_a_correction_inside_a_step_is_refused_where_it_does_not_fit(cli):
    gid = deal(cli)
    v = cli.json("status", gid)["version"]
    for args, words in ((["--outcomes", "26"], "from 1 to 25"), (["--outcomes", "0"], "from 1 to 25"),
                        (["--place", "26", "x"], "from 1 to 25"), (["--place", "3"], "needs the outcome"),
                        (["--outcomes", "1", "--to-version", "5"], "give one of"),
                        (["--outcomes", "1", "blue-1a"], "blue-1a")):  # blue-1a is in a hand already
        p = cli.run("correct", gid, *args, "--reason", "x")
        assert p.returncode in (2, 3) and words in p.stderr, (args, p.stderr)
        assert cli.json("status", gid)["version"] == v  # nothing appended
    p = cli.run("correct", gid, "--outcomes", "1")
    assert p.returncode == 2 and "reason" in p.stderr
    # once a seat has acted, its step has no outcome: the deal is no longer the current step
    cli.ok("act", gid, "--seat", "2", '{"action": "draw"}')
    cli.ok("chance", gid, "gold-1a")
    cli.ok("act", gid, "--seat", "3", json.dumps(cli.json("legal", gid, "--seat", "3")[0]))
    p = cli.run("correct", gid, "--outcomes", "1", "--reason", "x")
    assert p.returncode == 2 and "no outcome entered" in p.stderr


def test_a_seat_learns_nothing_of_the_hidden_card_retracted(cli):
    """Attacker: seat 2 reads its log and versions in two games that differ only in the card
    mistyped (and retracted) in seat 1's hand; what it reads is the same."""
    seen = []
    for typed in ("green-1a", "gold-4a"):
        gid = deal(cli, typed)
        cli.ok("correct", gid, "--place", "13", "--reason", "a card mistyped", RIGHT)
        mine = cli.json("log", gid, "--seat", "2")
        seen.append(([(e["version"], e["type"], e["turn"], e["data"], e.get("retracted"), e["text"]) for e in mine],
                     cli.json("status", gid)["to_act"]))
        # (the typed id itself may show: seat 2 reads its own copies of a kind by the kind's first id)
        assert all(e["data"].get("card") != typed or e["type"] != "CardDrawn" or 1 not in e["visible_to"]
                   for e in mine)
    assert seen[0] == seen[1]


def test_a_table_session_takes_back_and_fixes_entries_of_the_deal(cli):
    """`tools table`: `back K REASON` and `fix P OUTCOME`, on the deal (the setup) itself."""
    gid = cli.ok("new", "loot", "--seats", "4", "--table").strip()
    cards = list(DEAL)
    cards[11] = "green-1a"
    script = ["1 " + " ".join(cards[:14]), "back 2 two cards misread", "outcomes",
              " ".join(cards[12:]), "fix 13 " + RIGHT, "quit"]
    p = subprocess.run([sys.executable, "-m", "tools", "table", gid], input="\n".join(script) + "\n",
                       capture_output=True, text=True, env=cli.env, timeout=120)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    assert "error" not in p.stdout
    assert " 13  deal to seat 1: green 1\n" in p.stdout  # `outcomes` after taking back 2 of 15, in words
    assert [x["outcome"] for x in cli.json("correct", gid, "--list")] == [1] + DEAL
    assert hand(cli, gid, 1) == sorted(DEAL[3::4])
    r = audit(cli, gid)
    assert r["ok"], r
    assert any("outcome 13 of the step corrected at the table" in n for n in r["notes"])


def test_a_seeded_game_takes_back_no_entry(cli):
    gid = cli.ok("new", "loot", "--seats", "2").strip()
    p = cli.run("correct", gid, "--outcomes", "1", "--reason", "x")
    assert p.returncode == 2 and "only a table-mode game's entries are taken back" in p.stderr
    assert "no outcome entered" in cli.ok("correct", gid, "--list")
