"""Regenerate spec/vectors/: small exports and records made by the service,
some of them broken as a file's holder or the operator would break them, and
manifest.json with the result a verifier must give for each (``ok``; for a
broken one, the ``version`` it must name, and a phrase of the reason).

    python -m spec.make_vectors [DIR]      (from the repository root)

Keys and times are fresh at every run: the files change, the verdicts do not.
The committed vectors were made in three runs: those of issue 43 (``trust_vectors``:
a file's own key, a bad sign line) were added later with their own key file,
``service-43.key``, named by their manifest entries; a run writes one ``service.key``.
The third, keys with a history (``history_vectors``: a rotation, a retired key's late
signature, time going back), was added with ``--add-history``, which writes only
those files and their key history (``history.json``, as ``tools key --json`` gives
it) and adds their entries to the manifest, leaving every other vector as it is.
The fourth, seats' own signatures (``seat_vectors``: a seat-signed game, the
operator's decision in a seat's name), was added the same way with ``--add-seats``
(their service key: ``service-seats.key``). The fifth, a finished game's signed end
(``end_vectors``: the end missing, over another seed, a truncated finished game and
record, a fork's parents changed; ``fork.pgame`` made again with its end), with
``--add-end`` (``service-end.key``). The sixth, a table's referee's signatures
(``referee_vectors``: a referee-signed table game, the operator's entry written in
its place), with ``--add-referee`` (``service-referee.key``). The seventh, a seat's key handed
over to a new device (``handover_vectors``: the handover signed by the old key, and the
operator's forged one), with ``--add-handover`` (``service-handover.key``).
"""

from __future__ import annotations

import json
import random
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Callable

from event_store.chain import link
from event_store.codec import pack, unpack
from event_store.signing import head_message
from service.app import Privateer
from service.records.text_signed import signed_record
from service.records.history import export_game, fork
from service.kernel.rules import catalog_digest
from service.kernel.games import get_rules
from service.records.text import write_record

FIELDS = ("version", "timestamp", "type", "turn", "visible_to", "data", "prev", "hash", "salt")


def play(app, gid, decisions, rng, receipts=None):
    for _ in range(decisions):
        m = app.load(gid).machine
        if m.finished:
            return
        a = m.awaiting_chance()
        if a is not None:
            outcome = {"dice": lambda a=a: [rng.randint(1, a["sides"]) for _ in range(a["n"])],
                       "card": lambda m=m: rng.choice(m.k["awaiting"]["choices"]),
                       "pick": lambda a=a: rng.choice(a["options"]),
                       "shuffle": lambda m=m: list(m.k["awaiting"]["cards"])}[a["kind"]]()
            app.enter_chance(gid, outcome)
            continue
        seat = m.to_act()[0]
        app.act(gid, seat, rng.choice(m.legal(seat)))
        if receipts is not None:
            receipts.append(app.receipt(app.load(gid), seat))


def rows_of(doc):
    return [dict(zip(FIELDS, r)) for r in doc["events"]]


def rehash(doc, gid, rows, version):
    prev = rows[version - 2]["hash"]
    for r in rows[version - 1:]:
        r["prev"] = prev
        r["hash"] = prev = link(gid, r["version"], r["timestamp"], r["type"], r["turn"], r["visible_to"],
                                r["data"], prev, r["salt"], 2)
    doc["events"] = [[r[f] for f in FIELDS] for r in rows]


def resign(app, doc, gid, rows):
    """The operator, who holds the key: every head signed again."""
    hashes = {r["version"]: r["hash"] for r in rows}
    key, fp = app.signer._active(), app.signer.fingerprint
    doc["signatures"] = [[v, t, fp, key.sign(head_message(gid.bytes, v, hashes[v], t, fp))]
                         for v, t, f, _ in doc["signatures"]]


def record_text(app, gid):
    stored = app.stored_events(gid)
    created = stored[0].data
    default = catalog_digest(get_rules(created["game"]).catalog(created.get("options") or {}))
    finished = any(e.type == "GameFinished" for e in stored)
    text = write_record(stored, app.recorder.select_secret(gid.hex) if finished else None, default)
    return signed_record(app, gid, stored, text)


def entry_of(name: str, expect: tuple | None, note: str = "", key: str = "service.key",
             receipts: str | None = None) -> dict:
    """A manifest entry: the file, the key to check it with, whether it verifies, the file of
    receipts to check with it (if any), and, if it must fail, the version and the reason a
    verifier reports."""
    entry = {"file": name, "key": key, "ok": expect is None, "note": note}
    if receipts:
        entry["receipts"] = receipts
    if expect is not None:
        entry["version"], entry["reason"] = expect
    return entry


def main(out: Path) -> None:
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    tmp = Path(tempfile.mkdtemp(prefix="privateer-vectors-"))
    app = Privateer(str(tmp / "store.db"), snapshot_interval=0)
    manifest = []
    public = app.signer._active() and app.signer.public_key.hex()
    (out / "service.key").write_text(public + "\n")

    def add(name, expect, receipts=None, note="", key="service.key"):
        if receipts:
            (out / f"{name}.receipts.json").write_text(json.dumps(receipts, indent=1))
        manifest.append(entry_of(name, expect, note, key, f"{name}.receipts.json" if receipts else None))

    # a seeded game, unfinished, exported with its secret (the referee's backup)
    receipts = []
    gid = app.create("loot", 2, seed=b"\x11" * 32)
    play(app, gid, 10, random.Random(1), receipts)
    export_game(app, gid, str(out / "seeded.pgame"), with_secret=True)
    add("seeded.pgame", None, receipts, "seeded Loot, 10 decisions, with its seed: chain, signatures, receipts, chance")
    base = unpack((out / "seeded.pgame").read_bytes())
    decided = [r for r in rows_of(base) if r["type"] == "Decided" and r["data"]["seat"]]
    target = decided[4]["version"]

    # a holder's rewrite: a decision changed, the chain re-hashed, the key not held
    doc = unpack((out / "seeded.pgame").read_bytes())
    rows = rows_of(doc)
    rows[target - 1]["data"]["decision"] = {"action": "rewritten"}
    rehash(doc, gid, rows, target)
    (out / "holder-rewrite.pgame").write_bytes(pack(doc))
    add("holder-rewrite.pgame", (target, "does not check"), note="a decision rewritten and re-hashed without the key")

    # a change without re-hashing: the chain breaks at that event
    doc = unpack((out / "seeded.pgame").read_bytes())
    doc["events"][target - 1][5]["decision"] = {"action": "rewritten"}
    (out / "broken-chain.pgame").write_bytes(pack(doc))
    add("broken-chain.pgame", (target, "does not match its hash"), note="an event changed, the chain not re-hashed")

    # signatures dropped from a step on: unsigned
    doc = unpack((out / "seeded.pgame").read_bytes())
    doc["signatures"] = [s for s in doc["signatures"] if s[0] < target]
    covered = max(s[0] for s in doc["signatures"])
    (out / "unsigned-tail.pgame").write_bytes(pack(doc))
    add("unsigned-tail.pgame", (covered + 1, "carry no signature"), note="the later signatures removed")

    # the operator: a decision rewritten, re-hashed and re-signed; the seat's receipts expose it
    doc = unpack((out / "seeded.pgame").read_bytes())
    rows = rows_of(doc)
    rows[target - 1]["data"]["decision"] = {"action": "rewritten"}
    rehash(doc, gid, rows, target)
    resign(app, doc, gid, rows)
    (out / "operator-rewrite.pgame").write_bytes(pack(doc))
    add("operator-rewrite.pgame", (target, "differs"), receipts,
        note="the operator re-signed a rewritten history; the step is named by the first receipt it contradicts")

    # the operator changes a chance outcome (a card's index) and re-signs: the stream exposes it
    doc = unpack((out / "seeded.pgame").read_bytes())
    rows = rows_of(doc)
    drawn = next(r for r in rows if r["type"] == "CardDrawn" and r["version"] > 20 and r["data"]["of"] > 1)
    drawn["data"]["index"] = (drawn["data"]["index"] + 1) % drawn["data"]["of"]
    rehash(doc, gid, rows, drawn["version"])
    resign(app, doc, gid, rows)
    (out / "operator-chance.pgame").write_bytes(pack(doc))
    add("operator-chance.pgame", (drawn["version"], "stream"), note="a card's index changed and re-signed")

    # a table-mode game with a correction, and its record
    t = app.create("letter-of-marque", 2, table=True, players={"1": "Ada", "2": "Bo"})
    play(app, t, 14, random.Random(2))
    starts = [e.originator_version for e in app.stored_events(t) if e.type == "Decided" and e.data["seat"]]
    app.correct(t, starts[-2] - 1, "a die misread")
    play(app, t, 4, random.Random(3))
    export_game(app, t, str(out / "table-corrected.pgame"))
    add("table-corrected.pgame", None, note="table mode, counters null, a correction")
    text = record_text(app, t)
    (out / "table-corrected.record").write_text(text)
    add("table-corrected.record", None, note="the same game's record, signed step by step")
    lines = text.splitlines(keepends=True)
    k = next(i for i, line in enumerate(lines) if line[:1].isdigit() and i > 20)
    sign_v = next(int(line.split()[1]) for line in lines[k:] if line.startswith("sign "))
    lines[k] = lines[k].replace(" ", "  ", 1)
    (out / "record-rewrite.record").write_text("".join(lines))
    add("record-rewrite.record", (sign_v, "does not check"), note="a move of the record changed")

    # a table-mode deal corrected inside its step (§8): Loot's 12th card of the deal mistyped, replaced,
    # the 12 cards after it entered again; then a seat draws and that draw is taken back and entered again
    d = app.create("loot", 4, table=True, players={"1": "Ada", "2": "Bo", "3": "Cy", "4": "Di"})
    pile = sorted(app.load(d).machine.state["pile"])
    dealt = pile[:24]
    app.enter_chances(d, [1] + dealt[:11] + [pile[30]] + dealt[12:])
    app.replace_outcome(d, 13, [dealt[11]], "the 12th card of the deal mistyped")
    app.act(d, 2, {"action": "draw"})
    app.enter_chance(d, pile[31])
    app.retract_outcomes(d, 1, "the card drawn misread", enter=[pile[32]])
    export_game(app, d, str(out / "table-corrected-in-step.pgame"))
    add("table-corrected-in-step.pgame", None, note="table mode, corrections inside a step: the deal and a draw")
    (out / "table-corrected-in-step.record").write_text(record_text(app, d))
    add("table-corrected-in-step.record", None, note="the same game's record: each correction's target signed")

    trust_vectors(app, out, add)
    history_vectors(tmp, out, add)
    end_vectors(tmp, out, add)

    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    app.close()
    shutil.rmtree(tmp, ignore_errors=True)


def _own_key():
    """A key of the forger's own: (sign(message) -> bytes, public key, fingerprint)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    from event_store.signing import fingerprint

    key = Ed25519PrivateKey.generate()
    public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    return key.sign, public, fingerprint(public)


def trust_vectors(app, out: Path, add) -> None:
    """Issue 43: trust comes only from the keys a verifier is given (spec/SPEC.md §4, §11)."""
    import hashlib

    from event_store.signing import record_message

    t = app.create("loot", 2, table=True, players={"1": "Ada", "2": "Bo"})
    play(app, t, 12, random.Random(6))
    export_game(app, t, str(out / "named.pgame"))
    add("named.pgame", None, note="a table game with its players named, as the service signed it")

    # a file's own key: a player's name changed, the chain re-hashed from event 1, every head
    # re-signed with the holder's own key, put in the file's keys. It holds together under that key
    # (a verifier given no key says so), but the published key signed none of it.
    doc = unpack((out / "named.pgame").read_bytes())
    rows = rows_of(doc)
    rows[0]["data"]["players"] = {"1": "Mallory", "2": "Bo"}
    rows[0]["hash"] = link(t, 1, rows[0]["timestamp"], rows[0]["type"], rows[0]["turn"], rows[0]["visible_to"],
                           rows[0]["data"], rows[0]["prev"], rows[0]["salt"], 2)
    rehash(doc, t, rows, 2)
    sign, public, fp = _own_key()
    hashes = {r["version"]: r["hash"] for r in rows}
    doc["signatures"] = [[v, when, fp, sign(head_message(t.bytes, v, hashes[v], when, fp))]
                         for v, when, _, _ in doc["signatures"]]
    doc["keys"] = {fp: public}
    (out / "own-key.pgame").write_bytes(pack(doc))
    add("own-key.pgame", (1, "carry no signature"),
        note="a player's name changed and every head re-signed with the holder's own key, carried in the file: "
             "a file's keys are its claim; against the published key nothing is signed (versions 1-last)")

    # the same game's record (format 4: each sign line carries its key)
    text = record_text(app, t)
    (out / "named.record").write_text(text)
    add("named.record", None, note="the same game's record, each sign line with the key that made it")
    lines = text.splitlines(keepends=True)
    first_sign = next(int(line.split()[1]) for line in lines if line.startswith("sign "))
    # a bad sign line: a player's name changed in the header, the sign lines left as they were
    changed = text.replace('[Player1 "Ada"]', '[Player1 "Mallory"]', 1)
    assert changed != text
    (out / "bad-sign-line.record").write_text(changed)
    add("bad-sign-line.record", (first_sign, "does not check"),
        note="a player's name changed in the header: the first sign line's digest no longer matches")
    # the record re-signed by the holder's own key, carried on each sign line: still not the published key's
    gid = bytes.fromhex(next(line.split('"')[1] for line in lines if line.startswith("[GameId ")))
    sign, public, fp = _own_key()
    body: list[str] = []
    for line in changed.splitlines(keepends=True):
        if line.startswith("sign "):
            _, v, head, when = line.split(" ")[:4]
            digest = hashlib.sha256("".join(body).encode()).digest()
            sig = sign(record_message(gid, int(v), bytes.fromhex(head), when, fp, digest))
            line = f"sign {v} {head} {when} {fp} {sig.hex()} {public.hex()}\n"
        body.append(line)
    (out / "own-key.record").write_text("".join(body))
    add("own-key.record", (1, "carry no signature"),
        note="the changed record re-signed line by line with the holder's own key, carried on its sign lines: "
             "lines by a key not given are not counted (as an export's signatures), so nothing in it is signed")


def history_vectors(tmp: Path, out: Path, add) -> None:
    """Issue 43, keys with a history (spec/SPEC.md §4): a game signed across a rotation, checked
    against the key history; the retired key, from a backup of the old key file, signing a rewritten
    step after its retirement; a signature whose time goes back along the chain."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    app = Privateer(str(tmp / "history.db"), snapshot_interval=0)
    gid = app.create("loot", 2, seed=b"\x33" * 32)
    play(app, gid, 6, random.Random(7))
    app.signer._active()
    old_fp = app.signer.fingerprint
    old_key = Ed25519PrivateKey.from_private_bytes(app.signer.key_file.get(old_fp))  # the old key file's backup
    app.signer.rotate()
    play(app, gid, 6, random.Random(8))
    history = app.signer.history()
    (out / "history.json").write_text(json.dumps(history, indent=1) + "\n")
    export_game(app, gid, str(out / "rotated.pgame"), with_secret=True)
    add("rotated.pgame", None, key="history.json",
        note="a seeded game signed across a key rotation, checked against the key history: each key within its life")
    retired_at = next(k["until"] for k in history["keys"] if k["fingerprint"] == old_fp)

    # the retired key signs again: a late decision rewritten, re-hashed and re-signed with the old key,
    # dated after its retirement (as it would be: the step is new)
    doc = unpack((out / "rotated.pgame").read_bytes())
    rows = rows_of(doc)
    late = [r for r in rows if r["type"] == "Decided" and r["data"]["seat"]][-2]["version"]
    rows[late - 1]["data"]["decision"] = {"action": "rewritten"}
    rehash(doc, gid, rows, late)
    hashes = {r["version"]: r["hash"] for r in rows}
    signed = []
    for v, when, fp, sig in doc["signatures"]:
        if v >= late:
            fp, sig = old_fp, old_key.sign(head_message(gid.bytes, v, hashes[v], when, old_fp))
        signed.append([v, when, fp, sig])
    doc["signatures"] = signed
    first = max(s[0] for s in signed if s[0] < late) + 1
    assert min(s[1] for s in signed if s[0] >= late) > retired_at
    (out / "retired-key-late.pgame").write_bytes(pack(doc))
    add("retired-key-late.pgame", (first, "after its key's retirement"), key="history.json",
        note="a step rewritten and signed by the retired key, dated after its retirement: the signature checks, "
             "but outside its key's life it counts for nothing")

    # time going back: one step re-signed (by the key that signed it, within its life) at a time
    # earlier than the previous step's signature
    doc = unpack((out / "rotated.pgame").read_bytes())
    sigs = sorted(doc["signatures"], key=lambda s: s[0])
    mine = [s for s in sigs if s[2] == old_fp]
    back = mine[3]
    back[1] = mine[1][1]
    back[3] = old_key.sign(head_message(gid.bytes, back[0], hashes_of(doc)[back[0]], back[1], old_fp))
    doc["signatures"] = sigs
    first = mine[2][0] + 1
    (out / "time-goes-back.pgame").write_bytes(pack(doc))
    add("time-goes-back.pgame", (first, "time goes back"), key="history.json",
        note="a step's head re-signed by its own key, within its life, at a time earlier than the previous step's "
             "signature: signature times never go back along a game's chain")
    app.close()


def seat_vectors(tmp: Path, out: Path, add: Callable[..., None]) -> None:
    """Issue 43, seats' own signatures (spec/SPEC.md §6a): a game where seat 1 registered its key and
    signed each of its decisions (Letter of Marque: a seat's decisions are hidden from the other, so
    the seat's version counts only what it may read); then the operator's forgery: another decision
    written in seat 1's name, the chain re-hashed and every head re-signed with the service's key."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    from event_store.signing import decision_message

    app = Privateer(str(tmp / "seats.db"), snapshot_interval=0)
    (out / "service-seats.key").write_text(app.signer._active() and app.signer.public_key.hex() + "\n")
    seat_key = Ed25519PrivateKey.generate()
    gid = app.create("letter-of-marque", 2, seed=b"\x44" * 32)
    app.register_seat_key(gid, 1, seat_key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex())
    rng = random.Random(11)
    for _ in range(10_000):  # to its end: its record then imports (a seeded game's, once its seed is revealed)
        game = app.load(gid)
        m = game.machine
        if m.finished:
            break
        seat = m.to_act()[0]
        d = rng.choice(m.legal(seat))
        sig = seat_key.sign(decision_message(gid.bytes, 1, m.seen(1, game.version), d)).hex() if seat == 1 else None
        app.act(gid, seat, d, signature=sig)
    export_game(app, gid, str(out / "seat-signed.pgame"), with_secret=True)
    # a game with copies of one face (Loot): each seat signs the decision as it reads it, kept as_signed
    loot = app.create("loot", 2, seed=b"\x45" * 32)
    for seat in (1, 2):
        app.register_seat_key(loot, seat, seat_key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex())
    for _ in range(12):
        game = app.load(loot)
        m = game.machine
        if m.finished:
            break
        seat = m.to_act()[0]
        d = rng.choice(m.offered(seat))
        app.act(loot, seat, d, signature=seat_key.sign(decision_message(loot.bytes, seat, m.seen(seat, game.version),
                                                                        d)).hex())
    export_game(app, loot, str(out / "seat-signed-copies.pgame"), with_secret=True)
    add("seat-signed-copies.pgame", None, key="service-seats.key",
        note="Loot, both seats signing each decision as they read it (copies of one face by their labels): "
             "each Decided keeps the decision signed as as_signed")
    add("seat-signed.pgame", None, key="service-seats.key",
        note="seat 1 registered its own key and signed each of its decisions (hidden from seat 2): each checks "
             "over the game id, the seat, its own version and the decision")
    doc = unpack((out / "seat-signed.pgame").read_bytes())
    rows = rows_of(doc)
    mine = [r for r in rows if r["type"] == "Decided" and r["data"]["seat"] == 1]
    target = mine[2]["version"]
    before = app.load(gid, version=target - 1).machine
    instead = next(d for d in before.legal(1) if d != rows[target - 1]["data"]["decision"])
    rows[target - 1]["data"]["decision"] = instead  # seat 1's signature kept: it signed something else
    rehash(doc, gid, rows, target)
    resign(app, doc, gid, rows)
    (out / "seat-forged.pgame").write_bytes(pack(doc))
    add("seat-forged.pgame", (target, "not signed by seat 1"), key="service-seats.key",
        note="the operator wrote another decision in seat 1's name and re-signed every head with the service's "
             "key: the service's signatures check, seat 1's does not")

    # the same game's record (format 5): seat 1's key line, its decisions as JSON each with its signed line
    text = record_text(app, gid)
    (out / "seat-signed.record").write_text(text)
    add("seat-signed.record", None, key="service-seats.key",
        note="the seat-signed game's record: seat 1's key and, after each of its decisions, its signature")
    lines = text.splitlines(keepends=True)
    mine = [i for i, line in enumerate(lines) if line.startswith("1 {")]
    k = mine[2]
    lines[k] = "1 " + json.dumps(instead, ensure_ascii=False) + "\n"
    (out / "seat-forged.record").write_text(resign_record(app, "".join(lines), gid))
    add("seat-forged.record", (None, "not signed by seat 1"), key="service-seats.key",
        note="the operator wrote another decision in seat 1's name into the record and signed every sign line "
             "again with the service's key: seat 1's signature does not check")
    app.close()


def resign_record(app, text: str, gid) -> str:
    """The operator, who holds the key: every sign line of a changed record signed again (same times)."""
    import hashlib

    from event_store.signing import record_message

    key, fp = app.signer._active(), app.signer.fingerprint
    body: list[str] = []
    for line in text.splitlines(keepends=True):
        if line.startswith("sign "):
            _, v, head, when = line.split(" ")[:4]
            digest = hashlib.sha256("".join(body).encode()).digest()
            sig = key.sign(record_message(gid.bytes, int(v), bytes.fromhex(head), when, fp, digest))
            line = f"sign {v} {head} {when} {fp} {sig.hex()} {app.signer.public_key.hex()}\n"
        body.append(line)
    return "".join(body)


def end_vectors(tmp: Path, out: Path, add: Callable[..., None]) -> None:
    """Issue 43, a finished game's signed end (spec/SPEC.md §4a): a finished game and its record; the
    end taken out; the end signed (by the operator, who holds the key) over another seed; the game
    cut before its end with the end kept, and its record cut after an earlier sign line; a finished
    fork, and the same with its parent's revealed seed taken out of ``parents``."""
    app = Privateer(str(tmp / "end.db"), snapshot_interval=0)
    key = "service-end.key"
    (out / key).write_text(app.signer._active() and app.signer.public_key.hex() + "\n")
    gid = app.create("letter-of-marque", 2, seed=b"\x55" * 32)
    play(app, gid, 10_000, random.Random(12))
    export_game(app, gid, str(out / "finished.pgame"))
    add("finished.pgame", None, key=key, note="a finished seeded game: its end signed over its last head and seed")
    doc = unpack((out / "finished.pgame").read_bytes())
    rows = rows_of(doc)
    last = rows[-1]
    done = next(r["version"] for r in rows if r["type"] == "GameFinished")

    del doc["end"]
    (out / "end-missing.pgame").write_bytes(pack(doc))
    add("end-missing.pgame", (done, "no signed end"), key=key,
        note="the signed end taken out: a file holding GameFinished without one fails at that event")

    doc = unpack((out / "finished.pgame").read_bytes())
    doc["end"] = app.signer.sign_end(gid, last["version"], last["hash"], b"\x66" * 32, None)
    (out / "end-other-secret.pgame").write_bytes(pack(doc))
    add("end-other-secret.pgame", (last["version"], "does not check"), key=key,
        note="the end signed with the service's key over another seed than the file's secret")

    doc = unpack((out / "finished.pgame").read_bytes())
    cut = sorted(s[0] for s in doc["signatures"])[-4]
    doc["events"] = doc["events"][:cut]
    doc["signatures"] = [s for s in doc["signatures"] if s[0] <= cut]
    (out / "truncated-finished.pgame").write_bytes(pack(doc))
    add("truncated-finished.pgame", (cut + 1, "truncated"), key=key,
        note="the finished game cut at an earlier signed step, its end kept: the end names a version the file "
             "does not hold (without the end the prefix reads as a game in progress, never as finished)")

    text = record_text(app, gid)
    (out / "finished.record").write_text(text)
    add("finished.record", None, key=key, note="the finished game's record: its last line the signed end")
    lines = text.splitlines(keepends=True)
    signs = [i for i, line in enumerate(lines) if line.startswith("sign ")]
    kept = signs[-3]
    (out / "truncated-finished.record").write_text("".join(lines[:kept + 1]))
    add("truncated-finished.record", (int(lines[kept].split()[1]), "no signed end"), key=key,
        note="the finished game's record cut after an earlier sign line: every sign line checks, but a record "
             "with a Result tag (format 5) must end with the signed end")

    f = fork(app, gid, at_turn=3)
    play(app, f, 10_000, random.Random(13))
    export_game(app, f, str(out / "fork.pgame"))
    add("fork.pgame", None, key=key,
        note="a finished fork of a finished game: inherited chance with the parent's seed, the end binding parents")
    doc = unpack((out / "fork.pgame").read_bytes())
    doc["parents"] = [[v, None] for v, _ in doc["parents"]]
    (out / "fork-parents-dropped.pgame").write_bytes(pack(doc))
    add("fork-parents-dropped.pgame", (rows_of(doc)[-1]["version"], "does not check"), key=key,
        note="the fork's parent's revealed seed taken out of parents (its inherited chance then unchecked): "
             "the end binds parents")
    app.close()


def referee_vectors(tmp: Path, out: Path, add: Callable[..., None]) -> None:
    """Issue 43, a table's referee's signatures (spec/SPEC.md §9a): a table game whose referee registered
    its key after the deal and signed every entry after it; then the operator's forgery: another
    decision written for a seat, the chain re-hashed and every head re-signed with the service's key."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    app = Privateer(str(tmp / "referee.db"), snapshot_interval=0)
    (out / "service-referee.key").write_text(app.signer._active() and app.signer.public_key.hex() + "\n")
    referee = Ed25519PrivateKey.generate()
    gid = app.create("letter-of-marque", 2, table=True)
    rng = random.Random(12)
    while app.load(gid).machine.awaiting_chance() is not None:  # the deal, entered before the key
        play(app, gid, 1, rng)
    app.register_referee_key(gid, referee.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex())
    for _ in range(40):
        m = app.load(gid).machine
        if m.finished:
            break
        if m.awaiting_chance() is not None:
            play(app, gid, 1, rng)  # an outcome: bound by the referee's next entry
            continue
        seat = m.to_act()[0]
        app.act(gid, seat, rng.choice(m.legal(seat)), referee=lambda message: referee.sign(message).hex())
    export_game(app, gid, str(out / "referee-signed.pgame"), with_secret=True)
    add("referee-signed.pgame", None, key="service-referee.key",
        note="a table game whose referee registered its key after the deal: every entry after it signed over "
             "the version and head it was entered at, the seat and the decision")
    doc = unpack((out / "referee-signed.pgame").read_bytes())
    rows = rows_of(doc)
    signed = [r for r in rows if r["type"] == "Decided" and "referee_signature" in r["data"]]
    target = signed[3]["version"]
    row = rows[target - 1]["data"]
    before = app.load(gid, version=target - 1).machine
    instead = next(d for d in before.legal(row["seat"]) if d != row["decision"])
    row["decision"] = instead  # the referee's signature kept: it signed something else
    rehash(doc, gid, rows, target)
    resign(app, doc, gid, rows)
    (out / "referee-forged.pgame").write_bytes(pack(doc))
    add("referee-forged.pgame", (target, "not signed by the referee"), key="service-referee.key",
        note="the operator wrote another decision for a seat of a refereed table and re-signed every head with "
             "the service's key: the service's signatures check, the referee's does not")
    app.close()


def handover_vectors(tmp: Path, out: Path, add: Callable[..., None]) -> None:
    """Issue 43, a seat moving to a new device (spec/SPEC.md §6a): seat 1 registered its key, signed
    its decisions, then registered a new key with the old key's handover (its signature of the new
    one) and signed on with the new key. Then the operator's forgery: the new key replaced by one of
    its own, with a "handover" its own key signed (not the old one), seat 1's later decisions signed
    again with it, the chain re-hashed and every head re-signed with the service's key."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    from event_store.signing import decision_message, seat_key_message

    def raw(key) -> bytes:
        return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)

    app = Privateer(str(tmp / "handover.db"), snapshot_interval=0)
    (out / "service-handover.key").write_text(app.signer._active() and app.signer.public_key.hex() + "\n")
    old, new, operator = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    gid = app.create("letter-of-marque", 2, seed=b"\x47" * 32)
    app.register_seat_key(gid, 1, raw(old).hex())
    rng = random.Random(13)

    def decide(n: int, key) -> None:
        for _ in range(n):
            game = app.load(gid)
            m = game.machine
            if m.finished:
                raise AssertionError("the handover vector's game ended before its handover")
            seat = m.to_act()[0]
            d = rng.choice(m.legal(seat))
            sig = key.sign(decision_message(gid.bytes, 1, m.seen(1, game.version), d)).hex() if seat == 1 else None
            app.act(gid, seat, d, signature=sig)

    decide(12, old)
    app.register_seat_key(gid, 1, raw(new).hex(), old.sign(seat_key_message(gid.bytes, 1, raw(old), raw(new))).hex())
    decide(12, new)
    export_game(app, gid, str(out / "seat-handover.pgame"), with_secret=True)
    add("seat-handover.pgame", None, key="service-handover.key",
        note="seat 1 moved to a new device: its second SeatKeyRegistered carries the old key's signature of the "
             "new key (the handover); its decisions before it check with the old key, those after with the new")
    doc = unpack((out / "seat-handover.pgame").read_bytes())
    rows = rows_of(doc)
    target = next(r["version"] for r in rows if r["type"] == "SeatKeyRegistered" and r["data"].get("handover"))
    forged = raw(operator)
    rows[target - 1]["data"]["key"] = forged.hex()
    rows[target - 1]["data"]["handover"] = operator.sign(seat_key_message(gid.bytes, 1, raw(old), forged)).hex()
    for r in rows[target:]:  # seat 1's later decisions, signed again with the operator's key
        if r["type"] == "Decided" and r["data"]["seat"] == 1:
            seen = app.load(gid, version=r["version"] - 1).machine.seen(1, r["version"] - 1)
            r["data"]["signature"] = operator.sign(decision_message(gid.bytes, 1, seen, r["data"]["decision"])).hex()
    rehash(doc, gid, rows, target)
    resign(app, doc, gid, rows)
    (out / "seat-handover-forged.pgame").write_bytes(pack(doc))
    add("seat-handover-forged.pgame", (target, "without a handover signed by its old key"), key="service-handover.key",
        note="the operator moved seat 1 to a key of its own, the handover signed by that key instead of the seat's "
             "old one, signed seat 1's later decisions with it and re-signed every head with the service's key: "
             "each later decision checks with the operator's key, the handover does not check with the old key")
    app.close()


def hashes_of(doc) -> dict:
    return {r["version"]: r["hash"] for r in rows_of(doc)}


def add_history(out: Path, which: str = "history") -> None:
    """Only the key-history vectors (``seats``: the seat-signature ones; ``end``: the signed end's;
    ``referee``: the referee's; ``handover``: a seat's key handed over),
    added to the committed ones (their entries replaced if present)."""
    tmp = Path(tempfile.mkdtemp(prefix="privateer-vectors-"))
    manifest = json.loads((out / "manifest.json").read_text())
    added: list[dict] = []

    def add(name, expect, receipts=None, note="", key="service.key"):
        added.append(entry_of(name, expect, note, key))

    {"history": history_vectors, "seats": seat_vectors, "end": end_vectors,
     "referee": referee_vectors, "handover": handover_vectors}[which](tmp, out, add)
    names = {e["file"] for e in added}
    manifest = [e for e in manifest if e["file"] not in names] + added
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    modes = {"--add-history": "history", "--add-seats": "seats", "--add-end": "end", "--add-referee": "referee",
             "--add-handover": "handover"}
    args = [a for a in sys.argv[1:] if a not in modes]
    folder = Path(args[0]) if args else Path(__file__).parent / "vectors"
    chosen = [modes[a] for a in sys.argv[1:] if a in modes]
    if chosen:
        add_history(folder, chosen[0])
    else:
        main(folder)
