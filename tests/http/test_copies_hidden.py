"""Copies of one face tell a seat nothing (issue 42; service/kernel/copies.py).

An attacker's differential test: two table games equal in every public fact that
differ only in which copy of a card another seat holds. The referee deals seat 1
one copy of a kind in game A (``blue-2a``) and the other in game B (``blue-2b``),
then names that kind for seat 2 (``blue-2``: the kernel takes a copy left), and the
seats play on with the same choices; every outcome entered in B is the one entered
in A with the two copies swapped. Then every read a seat or a spectator can make
(HTTP: status, view, legal, choices, words, log, replay, picture, stream, analysis;
the CLI: log, replay, status --board, legal) must be the same in both games, but for
what differs between any two games (ids, timestamps, salted heads, commitments).

Letter of Marque has no copies of one face (its ships are told apart by where
they lie, its treasures by their values), so it has no pair of such games.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import threading
import uuid

import pytest

from bench.golden import entered_at_random
from service.http.client import Api, read_stream

from .conftest import Table

# (seats, whose deal gets the planted copy, the two copies, whose deal then names the kind, the kind as said)
PLANTS = {
    "loot": (2, "deal to seat 1", ("blue-2a", "blue-2b"), "deal to seat 2", "blue-2"),
    "kaisers-pirates": (2, "an action card for seat 1", ("reflag-1", "reflag-2"), "an action card for seat 2",
                        "reflag"),
    "merchants-and-marauders": (2, "glory card for seat 1 (set-up)", ("G01", "G02"),
                                "glory card for seat 2 (set-up)", "Carpenter"),
}
STEPS = 60  # chance entries and decisions, in each game


def _swap(value, pair):
    a, b = pair
    if isinstance(value, str):
        return b if value == a else a if value == b else value
    if isinstance(value, list):
        return [_swap(v, pair) for v in value]
    return value


def _play_pair(tables: list, game: str, rng: random.Random) -> None:
    """The two games in step: A's outcomes, B's the same with the planted copies swapped;
    each decision chosen from what the seat is offered, which must read the same in both."""
    _, first_why, pair, second_why, said = PLANTS[game]
    planted = named = False
    for _ in range(STEPS):
        sts = [t.referee.status(t.gid) for t in tables]
        if sts[0]["finished"]:
            break
        awaiting = sts[0]["awaiting_chance"]
        if awaiting is not None:
            why = awaiting.get("why", "")
            if not planted and why == first_why:
                outcomes, planted = list(pair), True
            elif planted and not named and why == second_why:
                outcomes, named = [said, said], True
            else:
                o = entered_at_random(awaiting, rng)
                outcomes = [o, _swap(o, pair)]
            for t, st, o in zip(tables, sts, outcomes):
                t.referee.ok(t.referee.post(f"/games/{t.gid}/chance",
                                            {"outcome": o, "expected_version": st["version"]}), 201)
            continue
        seat = sts[0]["to_act"][0]
        legals = [t.seats[seat].legal(t.gid) for t in tables]
        assert legals[0]["decisions"] == legals[1]["decisions"]
        decision = rng.choice(legals[0]["decisions"])
        for t, legal in zip(tables, legals):
            r = t.seats[seat].decide(t.gid, decision, legal["version"], key=uuid.uuid4().hex)
            assert r.status_code == 201, r.text
    assert planted and named, "the plan did not reach both deals"


_NOISE = re.compile(r'"(timestamp|head|commitment|created|game_id|id|seed)": ("[^"]*"|null)')


def _same(reads: dict, gids: list) -> str:
    """A read as text, with what differs between any two games put aside."""
    text = json.dumps(reads, sort_keys=True) if not isinstance(reads, str) else reads
    for n, gid in enumerate(gids):
        text = text.replace(gid, f"GAME{n}").replace(gid[:8], f"GAME{n}")
    text = re.sub(r"GAME\d", "GAME", text)
    text = re.sub(r"\d{4}-\d\d-\d\dT[\d:.]+(\+00:00|Z)?", "TIME", text)
    return _NOISE.sub(r'"\1": "-"', text)


def _http_reads(server, t: Table, token: str | None, seat: int | None, analyse: bool) -> dict:
    api = Api(server.url, token)
    gid = t.gid
    out = {}
    try:
        for name, path, params in (("status", "", {}), ("view", "/view", {}), ("log", "/log", {"limit": 1000}),
                                   ("replay", "/replay", {"to_turn": 1}), ("words", "/words", {}),
                                   ("picture", "/picture", {})):
            r = api.get(f"/games/{gid}{path}", params=params)
            assert r.status_code == 200, (name, r.text)
            out[name] = r.text if name == "picture" else r.json()
        if seat:
            out["legal"] = api.ok(api.get(f"/games/{gid}/legal"))
            out["choices"] = api.ok(api.get(f"/games/{gid}/choices"))
            if analyse and seat in out["legal"]["to_act"]:
                out["analysis"] = api.ok(api.get(f"/games/{gid}/analysis", params={"playouts": 12, "seed": "3"}))
    finally:
        api.close()
    return out


def _cli_reads(server, gid: str, seat: int) -> dict:
    def tools(*args):
        p = subprocess.run([sys.executable, "-m", "tools", *args, "--db", server.db], capture_output=True, text=True)
        assert p.returncode == 0, (args, p.stderr)
        return p.stdout

    return {"log": tools("log", gid, "--seat", str(seat), "--json"),
            "replay": tools("replay", gid, "--seat", str(seat), "--to-turn", "1", "--json"),
            "board": tools("status", gid, "--board", "--seat", str(seat)),
            "legal": tools("legal", gid, "--seat", str(seat), "--json")}


def _streams(server, tables: list, viewers: list) -> dict:
    got: dict = {}

    def read(n, t, who, token):
        got[(n, who)] = read_stream(server.url, t.gid, token, timeout=1)

    threads = [threading.Thread(target=read, args=(n, t, who, token))
               for n, t in enumerate(tables) for who, token in viewers[n]]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return got


@pytest.mark.parametrize("game", sorted(PLANTS))
def test_which_copy_another_seat_holds_changes_no_read(server, organiser, game):
    seats = PLANTS[game][0]
    tables = [Table(server, organiser, game, seats, table=True) for _ in range(2)]
    gids = [t.gid for t in tables]
    try:
        _play_pair(tables, game, random.Random(f"copies:{game}"))
        # the two games do differ, for the referee: seat 1 drew the other copy
        refs = [t.referee.ok(t.referee.get(f"/games/{t.gid}/log", params={"limit": 1000})) for t in tables]
        assert _same(refs[0], gids) != _same(refs[1], gids)
        viewers = [[(seat, t.tokens[seat]) for seat in range(1, seats + 1)] + [(0, None)] for t in tables]
        reads = [{who: _http_reads(server, t, token, who, analyse=(game == "loot")) for who, token in viewers[n]}
                 for n, t in enumerate(tables)]
        for who, _ in viewers[0]:
            for name in reads[0][who]:
                assert _same(reads[0][who][name], gids) == _same(reads[1][who][name], gids), (who, name)
        streams = _streams(server, tables, viewers)
        for who, _ in viewers[0]:
            assert _same(streams[(0, who)], gids) == _same(streams[(1, who)], gids), (who, "stream")
        for seat in range(1, seats + 1):
            cli = [_cli_reads(server, gid, seat) for gid in gids]
            for name in cli[0]:
                assert _same(cli[0][name], gids) == _same(cli[1][name], gids), (seat, name)
    finally:
        for t in tables:
            t.close()
