"""Receipts for seats: what every accepted decision gives back (CLI `act
--json`, `table`, the HTTP answer), checked as an attacker would: a seat's
receipt carries nothing computed from what is hidden from it."""

from __future__ import annotations

import json
import subprocess
import sys

from event_store.signing import RECEIPT, receipt_message, verify
from service.app import Privateer

RECEIPT_FIELDS = {"statement", "game_id", "seat", "seat_version", "head", "time", "fingerprint", "public_key",
                  "signature"}


def _checks(receipt: dict, public_key: str) -> bool:
    msg = receipt_message(bytes.fromhex(receipt["game_id"]), receipt["seat"], receipt["seat_version"],
                          bytes.fromhex(receipt["head"]), receipt["time"], receipt["fingerprint"])
    return verify(bytes.fromhex(public_key), bytes.fromhex(receipt["signature"]), msg)


def _loot_at_a_table(app, seat2_card: str) -> tuple:
    """Loot at a table, two seats: the same deal but for one card of seat 2's hand
    (``seat2_card``), then seat 2 and seat 1 each draw a card: seat 1's receipt."""
    gid = app.create("loot", 2, table=True)
    app.enter_chance(gid, 1)  # seat 1 deals: seat 2 is served first
    pile = app.load(gid).machine.awaiting_chance()["choices"]
    deal = [pile[i] for i in range(12)]
    deal[0] = seat2_card     # seat 2's first card: hidden from seat 1
    app.enter_chances(gid, deal)
    for seat, card in ((2, "gold-4a"), (1, "green-4a")):
        m = app.load(gid).machine
        assert m.to_act() == [seat]
        app.act(gid, seat, {"action": "draw"})
        app.enter_chances(gid, [card])
    g = app.load(gid)
    return app.receipt(g, 1), g


def test_a_seats_receipt_does_not_tell_a_hidden_card(tmp_path):
    app = Privateer(str(tmp_path / "a.db"))
    one, g1 = _loot_at_a_table(app, "admiral")
    two, g2 = _loot_at_a_table(app, "purple-captain")
    assert g1.machine.s != g2.machine.s  # the games differ, but not for seat 1 ...
    assert g1.machine.rules.view(g1.machine.s, 1) == g2.machine.rules.view(g2.machine.s, 1)
    differ = {k for k in RECEIPT_FIELDS if one[k] != two[k]}
    # ... and seat 1's receipts differ only where every receipt does: its game, its time, the salted
    # head and the signature over them
    assert set(one) == set(two) == RECEIPT_FIELDS
    assert differ <= {"game_id", "time", "head", "signature"}
    assert one["seat_version"] == two["seat_version"] == g1.machine.seen(1, g1.version)
    assert one["seat_version"] < g1.version  # the store's version (it counts seat 2's cards) is not in it
    assert g1.version not in [v for v in one.values() if isinstance(v, int) and v != one["seat"]]
    assert _checks(one, app.signer.public_key.hex()) and _checks(two, app.signer.public_key.hex())


def test_act_json_and_the_table_session_give_receipts(cli, db):
    app = Privateer(db)
    gid = app.create("letter-of-marque", 2)
    m = app.load(gid).machine
    seat = m.to_act()[0]
    answer = cli.json("act", gid.hex, "--seat", seat, "1")
    r = answer["receipt"]
    assert r["statement"] == RECEIPT and r["seat"] == seat and set(r) == RECEIPT_FIELDS
    g = app.load(gid)
    assert r["head"] == g.head.hex() and r["seat_version"] == g.machine.seen(seat, g.version)
    public = cli.json("key")["public_key"]
    assert _checks(r, public)
    # the referee's session with --json prints the deciding seat's receipt after each decision
    seat = app.load(gid).machine.to_act()[0]
    p = subprocess.run([sys.executable, "-m", "tools", "table", gid.hex, "--json"], input="1\nquit\n", capture_output=True,
                       text=True, env=cli.env)
    line = next(x for x in p.stdout.splitlines() if x.strip().startswith("receipt "))
    r2 = json.loads(line.strip()[len("receipt "):])
    assert r2["seat"] == seat and _checks(r2, public)
    # a file of these receipts verifies against the game's export
    export = f"{db}.pgame"
    cli.ok("export", gid.hex, "-o", export, "--with-secret")
    p = cli.run("verify", export, "--key", public, "--receipt", json.dumps([r, r2]))
    assert p.returncode == 0, p.stdout + p.stderr
