"""The record as evidence: a game's signed heads in its export and its record,
and the checks of a file against a published key and against seats' receipts
(``tools verify``). spec/SPEC.md is the specification.

* An export (format version 3) carries every signed head of the game
  (``[version, time, fingerprint, signature]``) and the public keys that made
  them; a verifier recomputes the head at each signed version from the chain.
* A record carries a ``GameId`` tag and, after the lines of each step, a line
  ``sign VERSION HEAD TIME FINGERPRINT SIGNATURE``: the service's signature
  over the step's head and the SHA-256 of the record's text before that line.
* A receipt names a head and the seat's own version: it is found in a file by
  its head, and the file's history up to there is then the one the seat was
  shown.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from uuid import UUID

from event_store.chain import chain_version, genesis, link
from event_store.signing import (RECEIPT, KeyHistory, fingerprint, head_message, receipt_message, record_message,
                                  rotation_problem, verify)
from service.audit import (AuditReport, Envelope, ancestry, check_randomness, check_seat_signatures, check_shapes,
                           file_parents)
from service.kernel.errors import BadInput, DoesNotVerify
from service.kernel.events import may_read
from service.record import _move

SIGN = "sign"


# writing ------------------------------------------------------------------------------------
def export_evidence(app, game_id: UUID, events: list) -> dict:
    """The export's ``signatures``, ``keys`` and, for a fork, ``parents`` (the seeds its ancestors revealed)."""

    rows = app.recorder.select_signatures(game_id.hex)
    signatures = [[r["version"], r["signed"], r["fingerprint"], bytes.fromhex(r["signature"])] for r in rows]
    keys = app.signer.public_keys({r["fingerprint"] for r in rows})
    own = app.signer.own_keys()
    # the key history of the service that signed it (public halves, lives, rotations: never a private key)
    history = app.signer.history() if any(fp in own for fp in keys) else None
    return {"signatures": signatures, "keys": keys, "parents": ancestry(app, events[0].data, revealed_only=True),
            "key_history": history}


@dataclass
class ImportTrust:
    """What an imported file's signatures are worth to the importing service."""
    signatures: list               # ``privateer_signatures`` rows kept with the game (the file's, as it holds them)
    keys: dict                     # the public keys that made them: kept for a re-export, never the service's own
    vouched_by: list[str]          # fingerprints of given keys (the service's own, ``--key``) covering the file
    note: str = ""                 # said to whoever imports: how far the file is trusted


def import_trust(game_id: UUID, rows: list, doc: dict, given: dict, named: bool) -> ImportTrust:
    """How far an export is trusted (spec/SPEC.md §4). A file's own keys are its
    claim: its signatures must hold together under them (else ``DoesNotVerify``,
    naming the step), but only signatures by a ``given`` key (the importing
    service's own, and those ``named`` with ``--key``) vouch for it: they must
    then cover the whole file. A file signed only by keys it carries is refused
    when ``--key`` was given, else imported as foreign evidence; a file with no
    signature (format 2) as unsigned evidence. Either way the service does not
    vouch for it: its key list and its signatures stay its own."""

    hashes = {r["version"]: r["hash"] for r in rows}
    file_keys = {fp: bytes(pk) for fp, pk in doc["keys"].items()}
    for fp, pk in file_keys.items():
        if fingerprint(pk) != fp:
            raise DoesNotVerify(f"the file's key {fp[:16]} is not the key of that fingerprint")
    sigs = [s for s in doc["signatures"] if s[2] in file_keys or s[2] in given]
    claimed = {fp: pk for fp, pk in file_keys.items() if fp not in given}
    problem = check_signatures(game_id, rows, [s for s in sigs if s[2] in claimed], claimed, None) if claimed else None
    if problem is not None and not problem.get("unsigned"):
        raise DoesNotVerify(problem["reason"])
    by_given = [s for s in sigs if s[2] in given]
    if by_given:
        problem = check_signatures(game_id, rows, by_given, {}, given)
        if problem is not None:
            raise DoesNotVerify(problem["reason"])
        vouched = sorted({s[2] for s in by_given})
        note = f"signatures checked against key{'s' if len(vouched) > 1 else ''} " + ", ".join(f[:16] for f in vouched)
    elif named:
        raise DoesNotVerify(f"versions 1-{rows[-1]['version']} carry no signature by the key given (--key): "
                            + (f"signed only by keys the file carries ({', '.join(f[:16] for f in claimed)}), "
                               "which are its claim, not proof" if sigs else "the file carries no signature"))
    elif sigs:
        vouched, note = [], (f"imported as foreign evidence: signed only by keys the file carries "
                             f"({', '.join(f[:16] for f in claimed)}), not by this service's key; this service does "
                             "not vouch for it (give the origin's published key with --key to check it)")
    else:
        vouched, note = [], ("imported as unsigned evidence: the file carries no signature (its chain, chance and "
                             "rules were audited); this service does not sign it")
    out = [(game_id.hex, v, hashes[v].hex(), t, fp, bytes(sig).hex()) for v, t, fp, sig in sigs]
    keys = {fp: file_keys.get(fp) or given[fp] for fp in {s[2] for s in sigs}}
    return ImportTrust(out, keys, vouched, note)


def vouches(app, game_id: UUID) -> bool:
    """Whether this store signed the game's history from its start (its lowest
    signed head is by a key of its own): not a game imported from a file."""
    rows = app.recorder.select_signatures(game_id.hex)
    if not rows:
        return False
    own = app.signer.own_keys()
    first = min(r["version"] for r in rows)
    return any(r["version"] == first and r["fingerprint"] in own for r in rows)


def signed_record(app, game_id: UUID, stored: list, text: str) -> str:
    """The record ``text`` (service/record.py ``write_record``) with its game id
    tag and a signed line after the lines of each step. A game this store did
    not sign from its start (imported from a file: its signatures are its
    origin's) gets no sign lines: the store never signs a history it was given."""
    if not vouches(app, game_id):
        return text
    lines = text.rstrip("\n").split("\n")
    lines.insert(1, f'[GameId "{game_id.hex}"]')
    lines[0] = lines[0].replace('PrivateerRecord 1"', 'PrivateerRecord 2"')
    header_end = lines.index("")
    out = lines[:header_end + 1]
    moves = iter(lines[header_end + 1:])
    # signed: after every stored signed head (a receipt's step), every step boundary (a correction's
    # ``correct V`` names one) and the last event,
    # and every correction's cut (inside a step: just before an outcome, service/kernel/corrections.py)
    ends = ({r["version"] for r in app.recorder.select_signatures(game_id.hex)} | {stored[-1].originator_version}
            | {e.originator_version - 1 for e in stored[2:] if e.type in ("Decided", "EntropyAdded")}
            | {e.data["to_version"] for e in stored if e.type == "Corrected"})
    table = stored[0].data["table"]
    pending = False

    def sign_here(e):
        digest = hashlib.sha256("".join(line + "\n" for line in out).encode()).digest()
        t, fp, sig = app.signer.sign_record(game_id, e.originator_version, e.hash, digest)
        # the key that signed, as the line's claim (format 4): a verifier trusts the key it is given
        out.append(f"{SIGN} {e.originator_version} {e.hash.hex()} {t} {fp} {sig} {app.signer.public_key.hex()}")

    for e in stored[1:]:
        if _move(e, table) is not None:
            for line in moves:
                out.append(line)
                if not line.startswith("turn "):
                    break
            pending = True
        if e.originator_version in ends and (pending or e is stored[-1]):
            sign_here(e)
            pending = False
    if len(stored) == 1:
        sign_here(stored[0])
    return "\n".join(out) + "\n"


# checking -----------------------------------------------------------------------------------
@dataclass
class Verdict:
    file: str
    kind: str                       # "export" or "record"
    ok: bool = True
    first_bad: dict | None = None   # {"version", "step": [first, last], "reason"}
    checked: list[str] = field(default_factory=list)
    published: bool = False         # its signatures were checked against keys the verifier was given

    def fail(self, where: dict) -> "Verdict":
        if self.ok:
            self.ok, self.first_bad = False, where
        return self

    def as_dict(self) -> dict:
        return {"file": self.file, "kind": self.kind, "ok": self.ok, "first_bad": self.first_bad,
                "checked": self.checked, "published_key": self.published}


def merge_keys(*many) -> KeyHistory:
    """Several key sets (a ``KeyHistory`` keeps its lives) as one."""
    out = KeyHistory()
    for keys in many:
        out.update(keys or {})
        out.life.update(getattr(keys, "life", {}) or {})
    return out


def _instant(time: str):
    from datetime import datetime, timezone

    t = datetime.fromisoformat(str(time))
    return t if t.tzinfo is not None else t.replace(tzinfo=timezone.utc)


def outside_life(keys, fp: str, time: str) -> str | None:
    """Why a signature by ``fp`` at ``time`` is outside its key's life (None: within it, or undated)."""
    start, until = (getattr(keys, "life", {}) or {}).get(fp, (None, None))
    try:
        t = _instant(time)
        if until and t > _instant(until):
            return f"signed at {time} by key {fp[:16]}, after its key's retirement at {until}"
        if start and t < _instant(start):
            return f"signed at {time} by key {fp[:16]}, before its key's life began at {start}"
    except ValueError:
        return f"its signature's time {str(time)[:40]!r} is not a time"
    return None


def goes_back(time: str, before: tuple | None) -> str | None:
    """Why a signature at ``time`` breaks the chain's time order after ``before``
    ((time, version) of the previous counted signature); None when it does not."""
    if before is None:
        return None
    try:
        if _instant(time) < _instant(before[0]):
            return (f"signed at {time}, earlier than the signature of version {before[1]} ({before[0]}): "
                    "time goes back along the chain")
    except ValueError:
        return f"its signature's time {str(time)[:40]!r} is not a time"
    return None


def history_keys(doc: dict, where: str) -> KeyHistory:
    """The keys of a key history (``tools key --json``, ``GET /key``), each with its
    life, after checking its rotation statements with both their keys."""

    out = KeyHistory()
    for k in doc.get("keys") or [doc]:
        pk = bytes.fromhex(k["public_key"])
        fp = fingerprint(pk)
        out[fp] = pk
        start, until = k.get("from", k.get("created")), k.get("until", k.get("retired"))
        if start or until:
            out.life[fp] = (start or None, until or None)
    listed = {fingerprint(bytes.fromhex(k["public_key"])): k for k in doc.get("keys") or []}
    for st in list(doc.get("rotations") or []) + [k["rotation"] for k in listed.values() if k.get("rotation")]:
        problem = rotation_problem(st)
        if problem is not None:
            raise BadInput(f"--key {where[:40]!r}: the key history does not hold together: {problem}")
        old = listed.get(fingerprint(bytes.fromhex(st["outgoing"])))
        if old is not None and old.get("until", old.get("retired")) != st["time"]:
            raise BadInput(f"--key {where[:40]!r}: the key history does not hold together: key "
                           f"{fingerprint(bytes.fromhex(st['outgoing']))[:16]} retired at "
                           f"{old.get('until', old.get('retired'))}, its rotation at {st['time']}")
    return out


def published_keys(values: list[str]) -> dict[str, bytes] | None:
    """``--key`` values: a public key in hex (64 digits), or a file holding one
    or the JSON of `tools key --json` / `GET /key` (the key history: every key
    listed in it, each within its life, the rotations checked with both keys)."""
    if not values:
        return None
    out = KeyHistory()
    for v in values:
        text = v.strip()
        if not _is_hex(text, 64) and Path(text).is_file():
            text = Path(text).read_text().strip()
        if _is_hex(text, 64):
            pk = bytes.fromhex(text)
            out[fingerprint(pk)] = pk
            continue
        try:
            doc = json.loads(text)
            out = merge_keys(out, history_keys(doc, v))
        except BadInput:
            raise
        except (ValueError, AttributeError, KeyError, TypeError):
            raise BadInput(f"--key {v[:40]!r}: give an Ed25519 public key (64 hex digits) or a file holding it "
                           "(or `tools key --json`)") from None
    return out


def _is_hex(text: str, digits: int) -> bool:
    return len(text) == digits and all(c in "0123456789abcdefABCDEF" for c in text)


def read_receipts(values: list[str]) -> list[dict]:
    """``--receipt`` values: a receipt's JSON, or a file of one (a JSON object,
    a list of them, or one per line)."""
    out = []
    for v in values:
        text = v.strip()
        if not text.startswith(("{", "[")):
            try:
                text = Path(text).read_text()
            except OSError as e:
                raise BadInput(f"--receipt {v[:40]!r}: not JSON and not a readable file ({e.strerror})") from None
        try:
            doc = json.loads(text)
            items = doc if isinstance(doc, list) else [doc]
        except json.JSONDecodeError:
            try:
                items = [json.loads(line) for line in text.splitlines() if line.strip()]
            except json.JSONDecodeError:
                raise BadInput(f"--receipt {v[:40]!r}: not a receipt (JSON)") from None
        for r in items:
            if isinstance(r, dict) and isinstance(r.get("receipt"), dict):
                r = r["receipt"]  # an `act --json` answer kept whole
            need = ("game_id", "seat", "seat_version", "head", "time", "fingerprint", "signature")
            if not isinstance(r, dict) or r.get("statement", RECEIPT) != RECEIPT or any(k not in r for k in need):
                raise BadInput(f"--receipt {v[:40]!r}: not a receipt (want {', '.join(need)})")
            out.append(r)
    return out


def verify_file(path: str, keys: dict | None, receipts: list[dict]) -> Verdict:
    raw = Path(path).read_bytes() if Path(path).is_file() else None
    if raw is None:
        raise BadInput(f"cannot read {path}")
    if raw.lstrip().startswith(b'[Record "PrivateerRecord'):
        verdict = verify_record(path, raw.decode("utf-8"), keys, receipts)
    else:
        from event_store.portable import read_game

        verdict = verify_export(path, read_game(path, times_as_text=True), keys, receipts)
    verdict.published = keys is not None
    return verdict


def verify_export(path: str, doc: dict, keys: dict | None, receipts: list[dict]) -> Verdict:
    v = Verdict(path, "export")
    gid = doc["game_id"]
    rows = doc["events"]
    problem = check_chain(gid, rows)
    if problem is not None:
        return v.fail(problem)
    v.checked.append(f"hash chain of {len(rows)} events")
    file_keys = {fp: bytes(pk) for fp, pk in doc["keys"].items()}
    if keys is None and doc.get("key_history"):  # the file's own history: a claim, as its keys
        try:
            file_keys = merge_keys(file_keys, KeyHistory(life=history_keys(doc["key_history"], "the file's").life))
        except BadInput as e:
            return v.fail({"version": None, "step": None, "reason": e.reason.replace("--key 'the file's': ", "")})
        except (ValueError, KeyError, TypeError, AttributeError):
            return v.fail({"version": None, "step": None, "reason": "the file's key history cannot be read"})
    problem = check_signatures(gid, rows, doc["signatures"], file_keys, keys)
    if problem is not None:
        return v.fail(problem)
    used = keys if keys is not None else file_keys
    signed = [s for s in doc["signatures"] if s[2] in used]
    v.checked.append(f"{len(signed)} signed heads, by {_keys_said(used, keys is None)}")
    for r in _ordered(receipts, rows):
        problem = check_receipt(gid, rows, r, file_keys, keys)
        if problem is not None:
            return v.fail(problem)
        v.checked.append(f"receipt of seat {r['seat']} at its version {r['seat_version']}: "
                         f"the file holds that step unchanged")
    problem = check_file_content(doc)
    if problem is not None:
        return v.fail(problem)
    v.checked.append("corrections' and stated outcomes' form; the seed and every chance outcome re-derived "
                     "(the audit's checks, service/audit.py)")
    seat_signed = sum(1 for r in rows if r["type"] == "Decided" and "signature" in r["data"])
    if seat_signed:
        v.checked.append(f"{seat_signed} decisions signed by their seats, each with the key its seat registered")
    referee_signed = sum(1 for r in rows if r["type"] == "Decided" and "referee_signature" in r["data"])
    if referee_signed:  # service/referee_key.py
        v.checked.append(f"{referee_signed} entries signed by the referee, with the key it registered")
    return v


def check_file_content(doc: dict) -> dict | None:
    """What the file's events say of themselves: corrections' and stated outcomes'
    form, then the seed against its commitment and every chance outcome re-derived
    from it, forks' inherited ones from ``parents``: service/audit.py's
    ``check_shapes`` and ``check_randomness``, the code ``tools import`` and
    ``tools audit`` run (all but the rules' re-run)."""

    report = AuditReport(game_id=doc["game_id"].hex)
    try:
        envs = [Envelope.of_row(r) for r in doc["events"]]
        if check_shapes(envs, report) and check_seat_signatures(envs, report):
            check_randomness(envs, doc.get("secret"), file_parents(doc), report)
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        return {"version": None, "step": None, "reason": f"a chance event cannot be read ({type(e).__name__}: {e})"}
    if report.ok:
        return None
    bad = report.first_bad or {}
    return {"version": bad.get("version"), "step": None,
            "reason": f"event {bad.get('version')} ({bad.get('type')}): {bad.get('reason')}"}


def _keys_said(used: dict, own: bool) -> str:
    fps = ", ".join(fp[:16] for fp in used)
    return (f"the keys the file carries ({fps}; give --key to check against a published key)" if own
            else f"the published key{'s' if len(used) > 1 else ''} {fps}")


def check_chain(gid: UUID, rows: list) -> dict | None:
    if not rows or rows[0]["type"] != "GameCreated":
        return {"version": 1, "step": None, "reason": "a history must start with GameCreated"}
    try:
        chain = chain_version(rows[0]["data"])
    except ValueError as e:
        return {"version": 1, "step": None, "reason": str(e)}
    prev = genesis(gid, chain)
    for i, r in enumerate(rows):
        if r["version"] != i + 1:
            return {"version": i + 1, "step": None, "reason": f"event {i + 1} is missing"}
        try:
            h = link(gid, r["version"], r["timestamp"], r["type"], r["turn"], r["visible_to"], r["data"], r["prev"],
                     r["salt"], chain)
        except Exception as e:  # noqa: BLE001 - any row that cannot be hashed is a finding
            return {"version": r["version"], "step": None, "reason": f"event {r['version']} cannot be hashed ({e})"}
        if r["prev"] != prev:
            return {"version": r["version"], "step": None,
                    "reason": f"event {r['version']} ({r['type']}): its link to the previous event is broken"}
        if h != r["hash"]:
            return {"version": r["version"], "step": None,
                    "reason": f"event {r['version']} ({r['type']}): its content does not match its hash"}
        prev = h
    return None


def check_signatures(gid: UUID, rows: list, signatures: list, file_keys: dict, published: dict | None) -> dict | None:
    """The first signed step that fails, or the first events no signature
    covers; None when every step is covered. ``published``: only signatures by
    these keys count (others are left aside); None: the file's own keys."""
    hashes = {r["version"]: r["hash"] for r in rows}
    last = rows[-1]["version"]
    keys = published if published is not None else file_keys
    covered = 0
    before = None  # (time, version) of the last signature counted: times never go back along the chain
    for version, time, fp, sig in sorted(signatures, key=lambda s: (s[0], _sort_time(s[1]))):
        if fp not in keys:
            continue
        if published is None and fingerprint(keys[fp]) != fp:
            return {"version": version, "step": None, "reason": f"the file's key {fp[:16]} is not the key of "
                                                                 "that fingerprint"}
        first = _step_start(signatures, keys, version)
        if version not in hashes:
            return {"version": version, "step": [first, version],
                    "reason": f"a signature for version {version}, which the file does not hold"}
        if not verify(keys[fp], bytes(sig), head_message(gid.bytes, version, hashes[version], str(time), fp)):
            return {"version": first, "step": [first, version],
                    "reason": f"the step ending at version {version} (versions {first}-{version}, "
                              f"{_types(rows, first, version)}): its signature does not check against key "
                              f"{fp[:16]} (the history up to there was changed after it was signed)"}
        problem = outside_life(keys, fp, str(time)) or goes_back(str(time), before)
        if problem is not None:
            return {"version": first, "step": [first, version],
                    "reason": f"the step ending at version {version} (versions {first}-{version}, "
                              f"{_types(rows, first, version)}): {problem}"}
        before = (str(time), version)
        covered = max(covered, version)
    if covered < last:
        return {"version": covered + 1, "step": [covered + 1, last], "unsigned": True,
                "reason": f"versions {covered + 1}-{last} ({_types(rows, covered + 1, last)}) carry no signature"
                          + (" by the published key" if published is not None else "")}
    return None


def _sort_time(time) -> tuple:
    try:
        return (0, _instant(str(time)).timestamp(), str(time))
    except ValueError:
        return (1, 0.0, str(time))


def _step_start(signatures, keys, version: int) -> int:
    before = [s[0] for s in signatures if s[2] in keys and s[0] < version]
    return max(before) + 1 if before else 1


def _types(rows, first: int, last: int) -> str:
    names = [r["type"] for r in rows if first <= r["version"] <= last]
    head = ", ".join(names[:3])
    return head + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def seat_counts(rows: list, seat: int) -> dict[int, int]:
    """By store version: how many events ``seat`` may read up to there."""
    n, out = 0, {}
    for r in rows:
        n += may_read(r["visible_to"], seat)
        out[r["version"]] = n
    return out


def _ordered(receipts: list[dict], rows: list) -> list[dict]:
    """Receipts in the order of the steps they name in this file (the first step that differs first)."""
    def where(r):
        counts = seat_counts(rows, int(r["seat"]))
        return next((v for v, n in counts.items() if n >= int(r["seat_version"])), rows[-1]["version"] + 1)
    return sorted(receipts, key=where)


def receipt_signed(gid_hex: str, r: dict, file_keys: dict, published: dict | None) -> str | None:
    """None when the receipt is the service's signature (by a published key,
    or the file's, or its own public key); else why not."""
    fp = r["fingerprint"]
    keys = published if published is not None else dict(file_keys)
    if published is None and r.get("public_key") and fingerprint(bytes.fromhex(r["public_key"])) == fp:
        keys.setdefault(fp, bytes.fromhex(r["public_key"]))
    if fp not in keys:
        return f"receipt of seat {r['seat']} at its version {r['seat_version']}: signed by key {fp[:16]}, " \
               "which is not " + ("the published key" if published is not None else "known")
    msg = receipt_message(bytes.fromhex(r["game_id"]), int(r["seat"]), int(r["seat_version"]),
                          bytes.fromhex(r["head"]), r["time"], fp)
    if not verify(keys[fp], bytes.fromhex(r["signature"]), msg):
        return f"receipt of seat {r['seat']} at its version {r['seat_version']}: its signature does not check " \
               f"(not a receipt the service gave)"
    late = outside_life(keys, fp, r["time"])
    if late is not None:
        return f"receipt of seat {r['seat']} at its version {r['seat_version']}: {late}"
    if r["game_id"] != gid_hex:
        return f"receipt of seat {r['seat']}: for game {r['game_id']}, not this file's game {gid_hex}"
    return None


def check_receipt(gid: UUID, rows: list, r: dict, file_keys: dict, published: dict | None) -> dict | None:
    seat, n = int(r["seat"]), int(r["seat_version"])
    problem = receipt_signed(gid.hex, r, file_keys, published)
    if problem is not None:
        return {"version": None, "step": None, "reason": problem}
    counts = seat_counts(rows, seat)
    head = bytes.fromhex(r["head"])
    at = next((x["version"] for x in rows if x["hash"] == head), None)
    if at is not None and counts[at] == n:
        return None
    # where the seat's step should be in this file: the first event after which the seat had read n events
    there = next((v for v, c in counts.items() if c >= n), None)
    if there is None:
        return {"version": rows[-1]["version"], "step": None,
                "reason": f"receipt of seat {seat} at its version {n}: the file ends before that step "
                          f"(the seat may read {counts[rows[-1]['version']]} events in it)"}
    step = _step_bounds(rows, there)
    return {"version": step[0], "step": step,
            "reason": f"receipt of seat {seat} at its version {n}: the file does not hold that step unchanged: "
                      f"the step at versions {step[0]}-{step[1]} ({_types(rows, step[0], step[1])}) differs from "
                      f"what the seat was given (head {r['head'][:16]} is not in this file)"}


def _step_starts(row) -> bool:
    return row["type"] in ("Decided", "EntropyAdded")


def _step_bounds(rows: list, version: int) -> list[int]:
    """The step holding ``version``: from its Decided (or EntropyAdded) to the event before the next."""
    first = version
    while first > 1 and not _step_starts(rows[first - 1]):
        first -= 1
    last = version
    while last < len(rows) and not _step_starts(rows[last]):
        last += 1
    return [first, last]


# records ------------------------------------------------------------------------------------
def record_keys(lines: list[str]) -> list[tuple[str, bytes]] | dict:
    """The public keys a record's sign lines carry (format 4; a claim, §4), as
    ``(fingerprint, key)`` pairs; a failure (dict) for a key that is not its
    fingerprint's or a sign line that is not one."""
    out: dict[str, bytes] = {}
    for n, line in enumerate(lines, 1):
        if not line.startswith(SIGN + " "):
            continue
        parts = line.rstrip("\r\n").split(" ")
        if len(parts) == 7:
            fp, pk = parts[4], parts[6]
            if not _is_hex(pk, 64) or fingerprint(bytes.fromhex(pk)) != fp:
                return {"version": int(parts[1]) if parts[1].isdigit() else None, "step": None, "line": n,
                        "reason": f"line {n}: the sign line's key is not the key of its fingerprint {fp[:16]}"}
            out[fp] = bytes.fromhex(pk)
    return list(out.items())


def record_trust(text: str, given: dict, named: bool) -> str:
    """How far a record is trusted on import (as ``import_trust`` for an export):
    its sign lines must check (under the keys ``given``, else those they carry:
    a claim); a record signed only by keys it carries is refused when ``--key``
    was given (``named``), else imported as foreign evidence. Returns the note;
    raises ``DoesNotVerify`` naming the step."""

    lines = text.splitlines(keepends=True)
    if not any(line.startswith("[GameId ") for line in lines):
        if named:
            raise DoesNotVerify("the record carries no signature (no GameId tag, no sign lines): nothing in it is "
                                "signed by the key given (--key)")
        return ("imported an unsigned record (written before signing): its moves were played through the rules; "
                "no signature vouches for its names and tags")
    claimed = record_keys(lines)
    if isinstance(claimed, dict):
        raise DoesNotVerify(claimed["reason"])
    known = merge_keys(dict(claimed), given)
    verdict = verify_record("record", text, known, [])
    if not verdict.ok:
        bad = verdict.first_bad or {}
        reason = bad.get("reason", "")
        if "which is not the published key" in reason:
            reason += " (a record written before format 4 carries no keys: give its service's published key, --key)"
        raise DoesNotVerify(reason)
    used = {line.split(" ")[4] for line in lines if line.startswith(SIGN + " ") and len(line.split(" ")) >= 6}
    if used <= set(given):
        return "sign lines checked against key" + ("s " if len(used) > 1 else " ") + ", ".join(f[:16] for f in used)
    foreign = ", ".join(f[:16] for f in sorted(used - set(given)))
    if named:
        raise DoesNotVerify(f"the record is signed by key {foreign}, not by the key given (--key): a key the record "
                            "carries is its claim, not proof")
    return (f"imported as foreign evidence: signed only by keys the record carries ({foreign}), not by this "
            "service's key; this service does not vouch for its names and tags (give the origin's published key "
            "with --key to check it)")


def verify_record(path: str, text: str, keys: dict | None, receipts: list[dict]) -> Verdict:
    """A record's sign lines, each against the text before it; then the receipts' heads."""
    v = Verdict(path, "record")
    lines = text.splitlines(keepends=True)
    gid_hex = next((line.split('"')[1] for line in lines if line.startswith("[GameId ")), None)
    if gid_hex is None:
        return v.fail({"version": None, "step": None, "line": 1,
                       "reason": "the record carries no GameId tag and no signatures (written before signing)"})
    gid = bytes.fromhex(gid_hex)
    claimed = record_keys(lines)
    if isinstance(claimed, dict):
        return v.fail(claimed)
    known = merge_keys(keys) if keys is not None else {  # without --key: the keys the record and the receipts carry
        **{r["fingerprint"]: bytes.fromhex(r["public_key"]) for r in receipts
           if r.get("public_key") and fingerprint(bytes.fromhex(r["public_key"])) == r["fingerprint"]},
        **dict(claimed)}
    if not known:
        raise BadInput("the record carries no keys (written before format 4): give the service's published key "
                       "(--key) or a seat's receipt")
    signed_heads: dict[str, int] = {}
    before = None  # (time, version) of the previous sign line: times never go back
    prefix = hashlib.sha256()
    last_signed_line, start_line, signs = 0, 1, 0
    for n, line in enumerate(lines, 1):
        if line.startswith(SIGN + " "):
            parts = line.rstrip("\r\n").split(" ")
            if len(parts) not in (6, 7):
                return v.fail({"version": None, "step": None, "line": n, "reason": f"line {n}: a malformed sign line"})
            _, version, head, time, fp, sig = parts[:6]
            where = {"version": int(version), "step": None, "line": n, "lines": [start_line, n - 1]}
            key = known.get(fp)
            if key is None:
                return v.fail(dict(where, reason=f"the step ending at version {version} (record lines {start_line}-"
                                                  f"{n - 1}): line {n} is signed by key {fp[:16]}, which is not "
                                                  + ("the published key" if keys is not None else "given (use --key)")))
            msg = record_message(gid, int(version), bytes.fromhex(head), time, fp, prefix.copy().digest())
            if not verify(key, bytes.fromhex(sig), msg):
                return v.fail(dict(where, reason=f"the step ending at version {version} (record lines {start_line}-"
                                                  f"{n - 1}): its signature does not check against key {fp[:16]} "
                                                  "(the record was changed after it was signed)"))
            problem = outside_life(known, fp, time) or goes_back(time, before)
            if problem is not None:
                return v.fail(dict(where, reason=f"the step ending at version {version} (record lines {start_line}-"
                                                  f"{n - 1}): {problem}"))
            before = (time, int(version))
            signed_heads[head] = int(version)
            last_signed_line, start_line, signs = n, n + 1, signs + 1
        prefix.update(line.encode())
    tail = [n for n, line in enumerate(lines, 1) if n > last_signed_line and line.strip()]
    if tail:
        return v.fail({"version": None, "step": None, "line": tail[0],
                       "reason": f"record lines {tail[0]}-{tail[-1]} carry no signature"})
    v.checked.append(f"{signs} signed steps of game {gid_hex}, by {_keys_said(known, keys is None)}")
    for r in receipts:
        problem = receipt_signed(gid_hex, r, {}, keys)
        if problem is None and r["head"] not in signed_heads:
            problem = (f"receipt of seat {r['seat']} at its version {r['seat_version']}: its head "
                       f"{r['head'][:16]} is not a signed step of this record (the record does not hold that "
                       "step unchanged)")
        if problem is not None:
            return v.fail({"version": None, "step": None, "reason": problem})
        v.checked.append(f"receipt of seat {r['seat']} at its version {r['seat_version']}: the record holds that "
                         f"step (version {signed_heads[r['head']]}) unchanged")
    return v
