"""The signed text record (spec/SPEC.md §11): the ``GameId`` tag and a sign
line after each stored step, written by the store that signed the game from
its start; their check by ``tools verify`` and ``tools import``."""

from __future__ import annotations

import hashlib
from uuid import UUID

from event_store.signing import fingerprint, record_message, verify
from service.kernel.errors import BadInput, DoesNotVerify
from service.records.keys import goes_back, is_hex, keys_said, merge_keys, outside_life
from service.records.receipts import receipt_signed
from service.records.text import record_move
from service.records.verdict import Verdict

SIGN = "sign"


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
    """The record ``text`` (service/records/text.py ``write_record``) with its game id
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
        if record_move(e, table) is not None:
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
            if not is_hex(pk, 64) or fingerprint(bytes.fromhex(pk)) != fp:
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
    v.checked.append(f"{signs} signed steps of game {gid_hex}, by {keys_said(known, keys is None)}")
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
