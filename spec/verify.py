#!/usr/bin/env python3
"""An independent verifier of privateer game files, written from spec/SPEC.md
alone: the Python standard library, msgpack, and cryptography's Ed25519. It
imports nothing of privateer.

    python spec/verify.py FILE [--key PUBHEX|KEY-HISTORY-FILE ...] [--receipt JSON|FILE ...] [--json]

Exit 0 when the file verifies, 1 naming the first failure, 2 for bad input.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import os
import sys
from datetime import datetime, timezone

import msgpack
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

CHANCE = ("DiceRolled", "CardDrawn", "ChanceChosen", "DeckShuffled", "CardIdentified")


class Failure(Exception):
    def __init__(self, reason, version=None, step=None):
        super().__init__(reason)
        self.reason, self.version, self.step = reason, version, step


# §1 canon -----------------------------------------------------------------------------------
def _sorted(o):
    if isinstance(o, dict):
        return {k: _sorted(o[k]) for k in sorted(o, key=lambda k: k.encode("utf-8"))}
    if isinstance(o, (list, tuple)):
        return [_sorted(v) for v in o]
    return o


def canon(o) -> bytes:
    return msgpack.packb(_sorted(o), use_bin_type=True)


def sha(b: bytes) -> bytes:
    return hashlib.sha256(b).digest()


def ed_ok(public: bytes, signature: bytes, message: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, message)
        return True
    except (InvalidSignature, ValueError):
        return False


def fingerprint(public: bytes) -> str:
    return hashlib.sha256(public).hexdigest()


# §10 reading an export ------------------------------------------------------------------------
def read_export(raw: bytes) -> dict:
    def ext(code, data):
        if code == 1:
            return ("uuid", data)
        if code == 2:
            return data.decode("utf-8")
        return ("ext", code, data)

    doc = msgpack.unpackb(raw, ext_hook=ext, raw=False, strict_map_key=False)
    if not isinstance(doc, dict) or doc.get("format") != "privateer-game":
        raise ValueError("not a privateer export")
    fv = doc.get("format_version")
    width = 8 if fv == 1 else 9
    rows = []
    for r in doc["events"]:
        if len(r) != width:
            raise ValueError("malformed event row")
        if width == 8:
            r = list(r) + [None]
        rows.append(dict(zip(("version", "timestamp", "type", "turn", "vis", "data", "prev", "hash", "salt"), r)))
    return {"id": doc["game_id"][1], "events": rows, "secret": doc.get("secret"),
            "signatures": doc.get("signatures") or [], "keys": doc.get("keys") or {},
            "key_history": doc.get("key_history"), "end": doc.get("end"),
            "parents": doc.get("parents") or []}


# §3 chain -----------------------------------------------------------------------------------
def check_chain(gid: bytes, rows: list) -> None:
    if not rows or rows[0]["type"] != "GameCreated":
        raise Failure("the file does not start with GameCreated", 1)
    chain = rows[0]["data"].get("chain", 1)
    prev = sha(f"privateer-chain-v{chain}:".encode() + gid)
    for i, r in enumerate(rows):
        v = r["version"]
        if v != i + 1:
            raise Failure(f"event {i + 1} is missing", i + 1)
        if r["prev"] != prev:
            raise Failure(f"event {v} ({r['type']}): its link to the previous event is broken", v)
        if chain == 2:
            seal = sha(b"privateer-seal-v2:" + r["salt"] + canon([r["type"], r["data"]]))
            h = sha(canon([gid, v, r["timestamp"], r["turn"], r["vis"], seal, prev]))
        else:
            h = sha(msgpack.packb([gid, v, r["timestamp"], r["type"], r["turn"], r["vis"], r["data"], prev],
                                  use_bin_type=True))
        if h != r["hash"]:
            raise Failure(f"event {v} ({r['type']}): its content does not match its hash", v)
        prev = h


def _types(rows, a, b):
    names = [r["type"] for r in rows if a <= r["version"] <= b]
    return ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")


# §4 signed heads ------------------------------------------------------------------------------
class Keys(dict):
    """Published keys by fingerprint; ``life``: fingerprint -> (from, until) of a key history (§4)."""

    def __init__(self, *args, life=None):
        super().__init__(*args)
        self.life = dict(life or {})


def instant(text):
    t = datetime.fromisoformat(str(text))
    return t if t.tzinfo else t.replace(tzinfo=timezone.utc)


def time_problem(keys, fp, time, before):
    """§4: a signature counts only within its key's life; times never go back along the chain."""
    try:
        start, until = getattr(keys, "life", {}).get(fp, (None, None))
        if until and instant(time) > instant(until):
            return f"signed at {time} by key {fp[:16]}, after its key's retirement at {until}"
        if start and instant(time) < instant(start):
            return f"signed at {time} by key {fp[:16]}, before its key's life began at {start}"
        if before and instant(time) < instant(before[0]):
            return f"signed at {time}, earlier than the signature of version {before[1]}: time goes back"
    except ValueError:
        return f"the signature's time {str(time)[:40]!r} is not a time"
    return None


def _when(text):
    try:
        return instant(text).timestamp()
    except ValueError:
        return 0.0


def check_signatures(gid: bytes, rows: list, signatures: list, keys: dict) -> int:
    hashes = {r["version"]: r["hash"] for r in rows}
    covered, before = 0, None
    mine = sorted((s for s in signatures if s[2] in keys), key=lambda s: (s[0], _when(s[1]), s[1]))
    for version, time, fp, sig in mine:
        first = max([s[0] for s in mine if s[0] < version] or [0]) + 1
        if version not in hashes:
            raise Failure(f"a signature for version {version}, which the file does not hold", version,
                          [first, version])
        msg = canon(["privateer-head-v1", gid, version, hashes[version], time, fp])
        if not ed_ok(keys[fp], sig, msg):
            raise Failure(f"the step ending at version {version} (versions {first}-{version}, "
                          f"{_types(rows, first, version)}): its signature does not check", first,
                          [first, version])
        problem = time_problem(keys, fp, time, before)
        if problem:
            raise Failure(f"the step ending at version {version} (versions {first}-{version}): {problem}", first,
                          [first, version])
        before = (time, version)
        covered = max(covered, version)
    last = rows[-1]["version"]
    if covered < last:
        raise Failure(f"versions {covered + 1}-{last} carry no signature", covered + 1, [covered + 1, last])
    return len(mine), before


# §4a the signed end ---------------------------------------------------------------------------
def check_end(gid: bytes, rows: list, secret, parents: list, end, keys: dict, before) -> str:
    """A file holding GameFinished claims to be finished: its end, signed over its last version and
    head, its secret and its parents, MUST be there and name its last version."""
    last = rows[-1]["version"]
    done = [r["version"] for r in rows if r["type"] == "GameFinished"]
    if end is None:
        if done:
            raise Failure(f"event {done[0]} (GameFinished): a finished game with no signed end", done[0])
        return "not finished (no signed end)"
    version, time, fp, sig = end
    if version > last:
        raise Failure(f"the signed end is of version {version}, the file ends at {last}: truncated", last + 1,
                      [last + 1, version])
    if version < last or not done:
        raise Failure(f"the signed end is of version {version}, not of a finished game's last event", last)
    msg = canon(["privateer-end-v1", gid, version, rows[-1]["hash"], None if secret is None else bytes(secret),
                 [[p[0], None if p[1] is None else bytes(p[1])] for p in parents], time, fp])
    if fp not in keys or not ed_ok(keys[fp], bytes(sig), msg):
        raise Failure(f"the signed end (version {version}) does not check: the last event, the secret or the "
                      "parents differ from what was signed", last)
    problem = time_problem(keys, fp, time, before)
    if problem:
        raise Failure(f"the signed end (version {version}): {problem}", last)
    return f"finished: its end signed at version {version}"


# §6 receipts --------------------------------------------------------------------------------
def _sees(vis, seat):
    return vis == "all" or (isinstance(vis, list) and seat in vis)


def receipt_signed(r: dict, gid_hex: str, keys: dict | None) -> None:
    fp = r["fingerprint"]
    use = dict(keys or {})
    if keys is None and r.get("public_key") and fingerprint(bytes.fromhex(r["public_key"])) == fp:
        use[fp] = bytes.fromhex(r["public_key"])
    if fp not in use:
        raise Failure(f"receipt of seat {r['seat']}: signed by a key not given")
    msg = canon(["privateer-receipt-v1", bytes.fromhex(r["game_id"]), r["seat"], r["seat_version"],
                 bytes.fromhex(r["head"]), r["time"], fp])
    if not ed_ok(use[fp], bytes.fromhex(r["signature"]), msg):
        raise Failure(f"receipt of seat {r['seat']} at its version {r['seat_version']}: not a valid signature")
    problem = time_problem(keys, fp, r["time"], None) if keys else None
    if problem:
        raise Failure(f"receipt of seat {r['seat']} at its version {r['seat_version']}: {problem}")
    if r["game_id"] != gid_hex:
        raise Failure(f"receipt of seat {r['seat']}: for another game")


def _starts(row):
    """§2: a step starts at a Decided, EntropyAdded, SeatNamed, SeatKeyRegistered or RefereeKeyRegistered."""
    return row["type"] in ("Decided", "EntropyAdded", "SeatNamed", "SeatKeyRegistered", "RefereeKeyRegistered")


def check_receipts(gid: bytes, rows: list, receipts: list, keys: dict | None) -> None:
    def reach(r):
        n = 0
        for row in rows:
            n += _sees(row["vis"], r["seat"])
            if n >= r["seat_version"]:
                return row["version"]
        return None

    order = sorted(receipts, key=lambda r: reach(r) or len(rows) + 1)
    for r in order:
        receipt_signed(r, gid.hex(), keys)
        head = bytes.fromhex(r["head"])
        n = 0
        for row in rows:
            n += _sees(row["vis"], r["seat"])
            if row["hash"] == head:
                break
        else:
            row = None
        if row is not None and n == r["seat_version"]:
            continue
        at = reach(r)
        if at is None:
            raise Failure(f"receipt of seat {r['seat']} at its version {r['seat_version']}: the file ends before it")
        first = at
        while first > 1 and not _starts(rows[first - 1]):
            first -= 1
        last = at
        while last < len(rows) and not _starts(rows[last]):
            last += 1
        raise Failure(f"receipt of seat {r['seat']} at its version {r['seat_version']}: the step at versions "
                      f"{first}-{last} differs", first, [first, last])


# §5 randomness ------------------------------------------------------------------------------
class Stream:
    def __init__(self, key: bytes, counter: int):
        self.key, self.counter = key, counter

    def uniform(self, n: int) -> int:
        limit = 2 ** 64 - (2 ** 64 % n)
        while True:
            block = hmac.new(self.key, self.counter.to_bytes(8, "big"), hashlib.sha256).digest()
            self.counter += 1
            x = int.from_bytes(block[:8], "big")
            if x < limit:
                return x % n


def _esc(text: str) -> str:
    out = ['"']
    for ch in text:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch in "\b\t\n\f\r":
            out.append({"\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}[ch])
        elif o < 0x20:
            out.append(f"\\u{o:04x}")
        elif o > 0x7F:
            if o > 0xFFFF:
                o -= 0x10000
                out.append(f"\\u{0xD800 + (o >> 10):04x}\\u{0xDC00 + (o & 0x3FF):04x}")
            else:
                out.append(f"\\u{o:04x}")
        else:
            out.append(ch)
    return "".join(out) + '"'


def card_text(c) -> str:
    """§5.3, written out (not json.dumps)."""
    if c is True:
        return "true"
    if c is False:
        return "false"
    if c is None:
        return "null"
    if isinstance(c, int):
        return str(c)
    if isinstance(c, str):
        return _esc(c)
    if isinstance(c, list):
        return "[" + ",".join(card_text(v) for v in c) + "]"
    if isinstance(c, dict):
        return "{" + ",".join(_esc(k) + ":" + card_text(c[k]) for k in sorted(c)) + "}"
    raise ValueError(f"not a card: {c!r}")


def canonical(cards: list) -> list:
    return sorted(cards, key=lambda c: card_text(c).encode("ascii"))


def outcome_problem(key: bytes, t: str, d: dict) -> str | None:
    s = Stream(key, d["counter"])
    if t == "DiceRolled":
        ok = [1 + s.uniform(d["sides"]) for _ in range(d["n"])] == d["values"]
    elif t == "CardDrawn":
        ok = s.uniform(d["of"]) == d["index"]
    elif t == "ChanceChosen":
        i = s.uniform(len(d["options"]))
        ok = i == d["index"] and card_text(d["options"][i]) == card_text(d["value"])
    elif t == "DeckShuffled":
        a = canonical(list(d["order"]))
        for i in range(len(a) - 1, 0, -1):
            j = s.uniform(i + 1)
            a[i], a[j] = a[j], a[i]
        ok = a == d["order"]
    else:
        return f"{t} with a counter (only table mode names cards)"
    if not ok:
        return f"{t}: the outcome is not the stream's at counter {d['counter']}"
    if s.counter - d["counter"] != d["draws"]:
        return f"{t}: used {d['draws']} blocks, the stream needs {s.counter - d['counter']}"
    return None


def check_stated(rows: list) -> None:
    """§5.5: outcomes a stated position gave the setup, there only; a seeded game's other
    outcomes all from the stream."""
    created = rows[0]["data"]
    setups, in_setup = 0, False
    for r in rows[1:]:
        d = r["data"]
        if r["type"] in ("Decided", "EntropyAdded"):
            in_setup = r["type"] == "Decided" and d.get("seat") == 0 and d.get("decision") == {"step": "setup"}
            setups += in_setup
            continue
        if r["type"] not in CHANCE:
            continue
        if d.get("stated"):
            if created.get("position") is None or not in_setup or setups != 1 or d.get("counter") is not None:
                raise Failure(f"event {r['version']} ({r['type']}): an outcome marked stated outside the setup "
                              "of a game from a stated position, or with a counter", r["version"])
        elif not created.get("table") and d.get("counter") is None and not d.get("face_down"):
            raise Failure(f"event {r['version']} ({r['type']}): an outcome of a seeded game without a counter "
                          "(only a stated position's are)", r["version"])


def check_chance(rows: list, secret, parents: list) -> str:
    check_stated(rows)
    created = rows[0]["data"]
    if created.get("table"):
        for r in rows:
            if r["type"] in CHANCE and r["data"].get("counter") is not None:
                raise Failure(f"event {r['version']} ({r['type']}): a counter in a table-mode game", r["version"])
        return "table mode: outcomes entered by the referee"
    finished = next((r for r in rows if r["type"] == "GameFinished"), None)
    seed = None
    if finished is not None and finished["data"].get("seed"):
        seed = bytes.fromhex(finished["data"]["seed"])
    elif secret is not None:
        seed = bytes(secret)
    if seed is not None and hashlib.sha256(seed).hexdigest() != created.get("commitment"):
        where = finished["version"] if finished else 1
        raise Failure(f"event {where}: the seed does not match the commitment", where)
    counter, entropies, checked = 0, [], 0
    for r in rows:
        d = r["data"]
        if r["type"] == "EntropyAdded":
            entropies.append(bytes.fromhex(d["entropy"]))
            continue
        if r["type"] not in CHANCE or d.get("counter") is None:
            continue
        if d["counter"] != counter:
            raise Failure(f"event {r['version']} ({r['type']}): counter {d['counter']} where the stream was at "
                          f"{counter}", r["version"])
        use = next((p[1] for p in parents if r["version"] <= p[0]), seed)
        if use is not None:
            key = bytes(use)
            for e in entropies:
                key = sha(key + e)
            problem = outcome_problem(key, r["type"], d)
            if problem:
                raise Failure(f"event {r['version']} ({problem})", r["version"])
            checked += 1
        counter = d["counter"] + d["draws"]
    return f"{checked} chance outcomes recomputed" + ("" if seed else " (seed not revealed: continuity only)")


# §8 corrections ------------------------------------------------------------------------------
def check_corrections(rows: list) -> int:
    """Each ``Corrected`` follows its ``Decided`` and retracts ``[N + 1, M]`` (M: the version
    before that ``Decided``), N a step boundary or an outcome's ``ChanceAwaited`` marker."""
    n = 0
    for r in rows:
        if r["type"] != "Corrected":
            continue
        v, d = r["version"], r["data"]
        before = rows[v - 2] if v >= 2 else None
        decision = before["data"].get("decision") if before and before["type"] == "Decided" else None
        to = d.get("to_version")
        if not (isinstance(decision, dict) and decision.get("referee") == "correct"
                and decision.get("to_version") == to and before["data"].get("seat") == 0):
            raise Failure(f"event {v} (Corrected): not the consequence of a correction's Decided", v)
        if not (isinstance(to, int) and 1 <= to < v - 2 and d.get("retracted") == [to + 1, v - 2]):
            raise Failure(f"event {v} (Corrected): its retracted range is not [to_version + 1, {v - 2}]", v)
        cut, after = rows[to - 1], rows[to]
        if not (after["type"] in ("Decided", "EntropyAdded", "SeatNamed", "SeatKeyRegistered", "RefereeKeyRegistered")
                or (cut["type"] == "ChanceAwaited" and after["type"] in CHANCE)):
            raise Failure(f"event {v} (Corrected): version {to} is neither a step boundary nor just before "
                          "an outcome", v)
        n += 1
    return n


# §6a seats' own signatures -------------------------------------------------------------------
def signing_game(created: dict, gid: bytes, version: int) -> bytes:
    """The game a seat decided in: a fork's inherited events its ancestors' (``fork.ancestors``, then
    ``fork.parent`` up to ``fork.version``), later ones the game's own."""
    fork = created.get("fork")
    if fork:
        for v, ancestor in list(fork.get("ancestors") or []) + [[fork["version"], fork["parent"]]]:
            if version <= v:
                return bytes.fromhex(ancestor)
    return gid


def check_seat_signatures(gid: bytes, rows: list) -> int:
    """From a seat's ``SeatKeyRegistered`` on, each ``Decided`` of that seat carries its signature over
    canon(["privateer-decision-v1", game id, seat, seat version, decision]); returns how many checked."""
    keys: dict = {}
    n = 0
    for r in rows:
        d = r["data"]
        if r["type"] == "SeatKeyRegistered":
            new = bytes.fromhex(d["key"])
            if d.get("seat") in keys:  # a new device: the old key signs the new one over
                old = keys[d.get("seat")]
                msg = canon(["privateer-seat-key-v1", signing_game(rows[0]["data"], gid, r["version"]), d.get("seat"),
                             old, new])
                if not (isinstance(d.get("handover"), str) and ed_ok(old, bytes.fromhex(d["handover"]), msg)):
                    raise Failure(f"event {r['version']} (SeatKeyRegistered): a second key for seat {d.get('seat')} "
                                  "without a handover signed by its old key", r["version"])
            keys[d.get("seat")] = new
        elif r["type"] == "Decided" and d.get("seat") in keys:
            seat = d["seat"]
            seat_version = sum(1 for x in rows[:r["version"] - 1] if _sees(x["vis"], seat))
            decision = json.loads(d["as_signed"]) if isinstance(d.get("as_signed"), str) else d.get("decision")
            msg = canon(["privateer-decision-v1", signing_game(rows[0]["data"], gid, r["version"]), seat,
                         seat_version, decision])
            sig = d.get("signature")
            if not (isinstance(sig, str) and ed_ok(keys[seat], bytes.fromhex(sig), msg)):
                raise Failure(f"event {r['version']} (Decided): not signed by seat {seat}: the decision at version "
                              f"{r['version']} (its seat version {seat_version}) carries no valid signature by the "
                              "key the seat registered", r["version"])
            n += 1
    return n


# §9a the referee's signatures at a table ------------------------------------------------------
def check_referee_signatures(gid: bytes, rows: list) -> int:
    """From ``RefereeKeyRegistered`` on, each ``Decided`` (but a seat's own signed one, and a fork's
    inherited ones) carries ``referee_signature`` over canon(["privateer-referee-v1", game id,
    version before it, hash there, seat, decision]); returns how many checked."""
    fork = rows[0]["data"].get("fork") if rows else None
    inherited = fork["version"] if fork else 0
    key, n = None, 0
    for r in rows:
        d = r["data"]
        if r["type"] == "RefereeKeyRegistered":
            if key is not None:
                raise Failure(f"event {r['version']} (RefereeKeyRegistered): a second key for the referee", r["version"])
            key = bytes.fromhex(d["key"])
        elif r["type"] == "Decided" and key is not None and r["version"] > inherited:
            sig = d.get("referee_signature")
            if sig is None and d.get("seat") and "signature" in d:
                continue  # a seat's own decision, signed by it (§6a)
            decision = json.loads(d["as_signed"]) if isinstance(d.get("as_signed"), str) else d.get("decision")
            msg = canon(["privateer-referee-v1", gid, r["version"] - 1, rows[r["version"] - 2]["hash"], d.get("seat"),
                         decision])
            if not (isinstance(sig, str) and ed_ok(key, bytes.fromhex(sig), msg)):
                raise Failure(f"event {r['version']} (Decided): not signed by the referee: the entry at version "
                              f"{r['version']} carries no valid signature by the referee's key", r["version"])
            n += 1
    return n


# §11 records ------------------------------------------------------------------------------------
def verify_record(text: str, keys: dict | None, receipts: list) -> list[str]:
    lines = text.splitlines(keepends=True)
    gid = next((ln.split('"')[1] for ln in lines if ln.startswith("[GameId ")), None)
    if gid is None:
        raise Failure("no GameId tag: an unsigned record")
    known = Keys(keys or {}, life=getattr(keys, "life", {}))
    if keys is None:  # without a published key: the keys the receipts and the sign lines carry (a claim)
        for r in receipts:
            if fingerprint(bytes.fromhex(r["public_key"])) == r["fingerprint"]:
                known[r["fingerprint"]] = bytes.fromhex(r["public_key"])
        for n, line in enumerate(lines, 1):
            parts = line.rstrip("\r\n").split(" ")
            if parts[0] in ("sign", "end") and len(parts) == 7:
                if fingerprint(bytes.fromhex(parts[6])) != parts[4]:
                    raise Failure(f"line {n}: the sign line's key is not the key of its fingerprint", int(parts[1]))
                known[parts[4]] = bytes.fromhex(parts[6])
    if not known:
        raise ValueError("the record carries no keys (format 3 or older): give --key")
    before = hashlib.sha256()
    heads, last_sign, start, signs, earlier, last_head, ended = {}, 0, 1, 0, None, None, False
    for n, line in enumerate(lines, 1):
        if line.startswith("end ") and last_head and not "".join(lines[last_sign:n - 1] + lines[n:]).strip():
            record_end(line.rstrip("\r\n").split(" "), n, gid, tag(lines, "Seed"), known, earlier, last_head)
            last_sign, ended = n, True
            break
        if line.startswith("sign "):
            parts = line.rstrip("\r\n").split(" ")
            if len(parts) not in (6, 7):
                raise Failure(f"line {n}: a malformed sign line")
            _, v, head, time, fp, sig = parts[:6]  # format 4 adds the key that signed: a claim
            if fp not in known:  # §4, §11: a sign line by a key not given is not counted, as in an export
                before.update(line.encode("utf-8"))
                continue
            msg = canon(["privateer-record-v1", bytes.fromhex(gid), int(v), bytes.fromhex(head), time, fp,
                         before.copy().digest()])
            if not ed_ok(known[fp], bytes.fromhex(sig), msg):
                raise Failure(f"the step ending at version {v} (record lines {start}-{n - 1}): its signature does "
                              "not check", int(v))
            problem = time_problem(known, fp, time, earlier)
            if problem:
                raise Failure(f"the step ending at version {v} (record lines {start}-{n - 1}): {problem}", int(v))
            earlier = (time, int(v))
            heads[head] = int(v)
            last_sign, start, signs, last_head = n, n + 1, signs + 1, (int(v), head)
        before.update(line.encode("utf-8"))
    rest = [n for n, ln in enumerate(lines, 1) if n > last_sign and ln.strip()]
    if rest:
        uncounted = any(lines[n - 1].startswith("sign ") for n in rest)
        raise Failure(f"record lines {rest[0]}-{rest[-1]} carry no signature",
                      ((last_head[0] + 1) if last_head else 1) if uncounted else None)
    form = (tag(lines, "Record") or "").split()[-1]
    if last_head and not ended and form.isdigit() and int(form) >= 5 and tag(lines, "Result") is not None:
        raise Failure(f"a finished game's record (its Result tag) with no signed end after version {last_head[0]}",
                      last_head[0])
    seats = record_seat_signatures(lines, bytes.fromhex(gid))
    for r in receipts:
        receipt_signed(r, gid, keys)
        if r["head"] not in heads:
            raise Failure(f"receipt of seat {r['seat']} at its version {r['seat_version']}: not in this record")
    return [f"{signs} signed steps", f"{len(receipts)} receipts"] + ([f"{seats} seat-signed decisions"] if seats else []) + (["finished: a signed end"] if ended else [])


def record_seat_signatures(lines, gid: bytes) -> int:
    """§6a, §11: from `key SEAT HEX` on, each decision line of that seat is `SEAT {json}` followed by
    `signed SEAT SEAT_VERSION SIG [AS_SIGNED]`, the seat's signature over its decision."""
    keys, waiting, n_ok = {}, None, 0
    for n, raw in enumerate(lines, 1):
        line = raw.rstrip("\r\n")
        head, _, rest = line.partition(" ")
        if waiting and head != "signed" and line.strip() and not head.startswith("#"):
            raise Failure(f"record line {waiting[2]}: not signed by seat {waiting[0]}")
        if head == "key":
            seat, key = rest.split(" ")
            if int(seat) in keys:
                raise Failure(f"record line {n}: a second key for seat {seat}")
            keys[int(seat)] = bytes.fromhex(key)
        elif head.isdigit() and int(head) in keys:
            try:
                decision = json.JSONDecoder().raw_decode(rest.strip())[0]
            except ValueError:
                raise Failure(f"record line {n}: not signed by seat {head} (its decision is not its JSON)") from None
            waiting = (int(head), decision, n)
        elif head == "signed":
            parts = rest.split(" ", 3)
            if not waiting or int(parts[0]) != waiting[0]:
                raise Failure(f"record line {n}: a signed line that follows no decision of its seat")
            decision = json.loads(parts[3]) if len(parts) == 4 else waiting[1]
            msg = canon(["privateer-decision-v1", gid, waiting[0], int(parts[1]), decision])
            if not ed_ok(keys[waiting[0]], bytes.fromhex(parts[2]), msg):
                raise Failure(f"record line {waiting[2]}: not signed by seat {waiting[0]}")
            waiting, n_ok = None, n_ok + 1
    if waiting:
        raise Failure(f"record line {waiting[2]}: not signed by seat {waiting[0]}")
    return n_ok


def tag(lines, name):
    for ln in lines:
        if ln.startswith(f"[{name} "):
            return json.loads(ln.rstrip("\r\n")[len(name) + 2:-1])
    return None


def record_end(parts, n, gid, seed, known, earlier, last_head):
    """§4a, §11: `end V HEAD TIME FP SIG PUBKEY`, the last line, of the last sign line's version and head."""
    if len(parts) != 7 or (int(parts[1]), parts[2]) != last_head:
        raise Failure(f"line {n}: the end line is not of the last signed step", last_head[0])
    _, v, head, time, fp, sig, _ = parts
    msg = canon(["privateer-end-v1", bytes.fromhex(gid), int(v), bytes.fromhex(head),
                 bytes.fromhex(seed) if seed else None, [], time, fp])
    if fp not in known or not ed_ok(known[fp], bytes.fromhex(sig), msg):
        raise Failure(f"line {n}: the signed end (version {v}) does not check", int(v))
    problem = time_problem(known, fp, time, earlier)
    if problem:
        raise Failure(f"line {n}: the signed end (version {v}): {problem}", int(v))


# the whole file -----------------------------------------------------------------------------
def verify(raw: bytes, keys: dict | None, receipts: list) -> dict:
    """{"ok", "kind", "first_bad": {"version", "step", "reason"} or None, "checked"}"""
    kind = "record" if raw.lstrip().startswith(b'[Record "PrivateerRecord') else "export"
    checked = []
    try:
        if kind == "record":
            checked = verify_record(raw.decode("utf-8"), keys, receipts)
        else:
            doc = read_export(raw)
            gid, rows = doc["id"], doc["events"]
            check_chain(gid, rows)
            checked.append(f"chain of {len(rows)} events")
            own = Keys({fp: bytes(pk) for fp, pk in doc["keys"].items() if fingerprint(bytes(pk)) == fp})
            if keys is None and doc["key_history"]:  # the file's own history: a claim, as its keys
                try:
                    own.life = history(doc["key_history"]).life
                except (ValueError, KeyError, TypeError, AttributeError) as e:
                    raise Failure(f"the file's key history does not hold together: {e}") from None
            counted = keys if keys is not None else own
            n, before = check_signatures(gid, rows, doc["signatures"], counted)
            checked.append(f"{n} signed heads")
            check_receipts(gid, rows, receipts, keys if keys is not None else None)
            corrections = check_corrections(rows)
            if corrections:
                checked.append(f"{corrections} correction(s)")
            seat_signed = check_seat_signatures(gid, rows)
            if seat_signed:
                checked.append(f"{seat_signed} decisions signed by their seats")
            referee_signed = check_referee_signatures(gid, rows)
            if referee_signed:
                checked.append(f"{referee_signed} entries signed by the referee")
            checked.append(check_chance(rows, doc["secret"], doc["parents"]))
            checked.append(check_end(gid, rows, doc["secret"], doc["parents"], doc["end"], counted, before))
    except Failure as f:
        return {"ok": False, "kind": kind, "first_bad": {"version": f.version, "step": f.step, "reason": f.reason},
                "checked": checked}
    return {"ok": True, "kind": kind, "first_bad": None, "checked": checked}


def rotation_ok(st) -> bool:
    """§4: a rotation statement verifies with the outgoing and with the incoming key."""
    old, new = bytes.fromhex(st["outgoing"]), bytes.fromhex(st["incoming"])
    msg = canon(["privateer-rotation-v1", old, new, st["time"]])
    return (ed_ok(old, bytes.fromhex(st["outgoing_signature"]), msg)
            and ed_ok(new, bytes.fromhex(st["incoming_signature"]), msg))


def history(doc, out=None):
    """The keys of a key history (§4), each with its life; its rotations checked with both keys."""
    out = Keys() if out is None else out
    listed = {}
    for k in doc.get("keys") or [doc]:
        pk = bytes.fromhex(k["public_key"])
        out[fingerprint(pk)] = pk
        listed[fingerprint(pk)] = k
        start, until = k.get("from", k.get("created")), k.get("until", k.get("retired"))
        if start or until:
            out.life[fingerprint(pk)] = (start or None, until or None)
    for st in list(doc.get("rotations") or []) + [k["rotation"] for k in listed.values() if k.get("rotation")]:
        if not rotation_ok(st):
            raise ValueError(f"the key history's rotation at {st['time']} does not check with both keys")
        old = listed.get(fingerprint(bytes.fromhex(st["outgoing"])))
        if old is not None and old.get("until", old.get("retired")) != st["time"]:
            raise ValueError(f"the key history's rotation at {st['time']} is not its outgoing key's end")
    return out


def _keys(values):
    out = Keys()
    for v in values:
        text = open(v).read().strip() if os.path.isfile(v) else v.strip()
        if text.startswith("{"):
            history(json.loads(text), out)
        else:
            pk = bytes.fromhex(text)
            out[fingerprint(pk)] = pk
    return out


def _receipts(values):
    out = []
    for v in values:
        text = v if v.lstrip().startswith(("{", "[")) else open(v).read()
        try:
            doc = json.loads(text)
            items = doc if isinstance(doc, list) else [doc]
        except json.JSONDecodeError:
            items = [json.loads(line) for line in text.splitlines() if line.strip()]
        out += [r.get("receipt", r) for r in items]
    return out


def main() -> int:
    p = argparse.ArgumentParser(description="Verify a privateer export or record (spec/SPEC.md).")
    p.add_argument("file")
    p.add_argument("--key", action="append", default=[])
    p.add_argument("--receipt", action="append", default=[])
    p.add_argument("--json", action="store_true")
    a = p.parse_args()
    try:
        raw = open(a.file, "rb").read()
        result = verify(raw, _keys(a.key) if a.key else None, _receipts(a.receipt))
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if a.json:
        print(json.dumps(result, indent=2))
    elif result["ok"]:
        print("ok: " + "; ".join(result["checked"]))
    else:
        print("VIOLATION: " + result["first_bad"]["reason"])
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
