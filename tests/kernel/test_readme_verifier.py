"""A third party's verifier, written from the README's "Integrity" and
"Randomness anyone can check" sections alone: it reads export files with
plain msgpack, hashlib and hmac (nothing from privateer), checks the chain
version 2, the seed against its commitment and every chance event, for
finished games of all four games and for a fork. The games themselves are
made by the code under test."""

import hashlib
import hmac
import json
import random

import msgpack
import pytest

from service.app import Privateer
from service.records.history import export_game, fork
from service.simulate import simulate

GAMES = [("letter-of-marque", 3), ("loot", 3), ("kaisers-pirates", 2), ("merchants-and-marauders", 2)]


# ---- the verifier (README only) ------------------------------------------------
def read_export(path):
    def ext(code, data):
        return ("ext", code, data)

    return msgpack.unpackb(open(path, "rb").read(), ext_hook=ext, raw=False, strict_map_key=False)


def canon_obj(o):
    if isinstance(o, dict):
        return {k: canon_obj(o[k]) for k in sorted(o, key=lambda k: k.encode())}
    if isinstance(o, list):
        return [canon_obj(v) for v in o]
    return o


def canon(o):
    return msgpack.packb(canon_obj(o), use_bin_type=True)


def sha(b):
    return hashlib.sha256(b).digest()


def check_chain(doc):
    gid = doc["game_id"][2]
    prev = sha(b"privateer-chain-v2:" + gid)
    seals = []
    for version, ts, type_, turn, vis, data, p, h, salt in doc["events"]:
        assert p == prev, f"broken link at {version}"
        seal = sha(b"privateer-seal-v2:" + salt + canon([type_, data]))
        got = sha(canon([gid, version, ts[2].decode(), turn, vis, seal, p]))
        assert got == h, f"hash mismatch at {version}"
        seals.append(seal)
        prev = h
    return seals


def uniform(key, counter, n):
    while True:
        block = hmac.new(key, counter.to_bytes(8, "big"), hashlib.sha256).digest()
        counter += 1
        x = int.from_bytes(block[:8], "big")
        if x < 2**64 - 2**64 % n:
            return x % n, counter


def canonical_text(card):
    return json.dumps(card, sort_keys=True, separators=(",", ":"))


def check_chance(events, seed_for_version, start_counter=0):
    """Every chance event against the stream; returns how many were checked."""
    counter, entropies, checked = start_counter, [], 0
    for version, _ts, type_, _turn, _vis, data, *_ in events:
        if type_ == "EntropyAdded":
            entropies.append(bytes.fromhex(data["entropy"]))
            continue
        if type_ not in ("DiceRolled", "CardDrawn", "ChanceChosen", "DeckShuffled"):
            continue
        assert data["counter"] == counter, f"counter gap at {version}"
        key = seed_for_version(version)
        for e in entropies:
            key = sha(key + e)
        c = data["counter"]
        if type_ == "DiceRolled":
            values = []
            for _ in range(data["n"]):
                u, c = uniform(key, c, data["sides"])
                values.append(1 + u)
            assert values == data["values"], version
        elif type_ == "CardDrawn":
            u, c = uniform(key, c, data["of"])
            assert u == data["index"], version
        elif type_ == "ChanceChosen":
            u, c = uniform(key, c, len(data["options"]))
            assert u == data["index"] and data["options"][u] == data["value"], version
        else:
            a = sorted(data["order"], key=canonical_text)
            for i in range(len(a) - 1, 0, -1):
                j, c = uniform(key, c, i + 1)
                a[i], a[j] = a[j], a[i]
            assert a == data["order"], version
        assert c - data["counter"] == data["draws"], version
        counter = c
        checked += 1
    return checked


def revealed_seed(doc):
    created = doc["events"][0][5]
    finished = [row for row in doc["events"] if row[2] == "GameFinished"]
    assert finished, "the game is finished"
    seed = bytes.fromhex(finished[0][5]["seed"])
    assert hashlib.sha256(seed).hexdigest() == created["commitment"]
    return seed


# ---- the games ------------------------------------------------------------------
@pytest.fixture(scope="module")
def store(tmp_path_factory):
    path = tmp_path_factory.mktemp("verifier")
    app = Privateer(str(path / "games.db"))
    out = {}
    for game, seats in GAMES:
        res = simulate(game, seats, 1, seed=f"verifier-{game}", app=app)
        out[game] = res["game_ids"][0]
    return app, path, out


@pytest.mark.parametrize("game", [g for g, _ in GAMES])
def test_the_readme_verifier_agrees_on_every_event(store, game):
    from uuid import UUID

    app, path, ids = store
    file = path / f"{game}.pgame"
    export_game(app, UUID(ids[game]), str(file))
    doc = read_export(file)
    assert doc["format_version"] == 3
    check_chain(doc)
    seed = revealed_seed(doc)
    assert check_chance(doc["events"], lambda v: seed) > 0


def test_the_readme_verifier_checks_a_fork_against_its_parent(store):
    from uuid import UUID

    app, path, ids = store
    parent = UUID(ids["loot"])
    child = fork(app, parent, at_turn=6)
    # play the fork to its end with random legal decisions
    agg = app.load(child)
    rng = random.Random(3)
    while not agg.machine.finished:
        seat = agg.machine.to_act()[0]
        app.act(child, seat, rng.choice(agg.machine.legal(seat)))
        agg = app.load(child)
    export_game(app, parent, str(path / "parent.pgame"))
    export_game(app, child, str(path / "child.pgame"))
    pdoc, cdoc = read_export(path / "parent.pgame"), read_export(path / "child.pgame")
    pseals, cseals = check_chain(pdoc), check_chain(cdoc)
    created = cdoc["events"][0][5]
    fv = created["fork"]["version"]
    assert created["fork"]["parent"] == parent.hex
    assert bytes.fromhex(created["fork"]["hash"]) == pdoc["events"][fv - 1][7]
    # inherited events: same content, same seals
    assert cseals[1:fv] == pseals[1:fv]
    for prow, crow in zip(pdoc["events"][1:fv], cdoc["events"][1:fv]):
        assert (prow[0], prow[2], prow[3], prow[4], prow[5]) == (crow[0], crow[2], crow[3], crow[4], crow[5])
    pseed, cseed = revealed_seed(pdoc), revealed_seed(cdoc)
    assert pseed != cseed
    checked = check_chance(cdoc["events"], lambda v: pseed if v <= fv else cseed)
    own = [r for r in cdoc["events"][fv:] if r[2] in ("DiceRolled", "CardDrawn", "ChanceChosen", "DeckShuffled")]
    assert own and checked > len(own)  # both the inherited and the fork's own chance were checked


def test_the_verifier_catches_a_changed_event(store):
    from uuid import UUID

    app, path, ids = store
    file = path / "tamper.pgame"
    export_game(app, UUID(ids["letter-of-marque"]), str(file))
    doc = read_export(file)
    row = next(r for r in doc["events"] if r[2] == "Decided" and r[5]["seat"] != 0)
    row[5]["decision"] = dict(row[5]["decision"], tampered=True)
    with pytest.raises(AssertionError, match="hash mismatch"):
        check_chain(doc)
