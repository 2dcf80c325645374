"""The signed text record (spec/SPEC.md §11): the ``GameId`` tag and a sign
line after each stored step, written by the store that signed the game from
its start; their check by ``tools verify`` and ``tools import``."""

from __future__ import annotations

import hashlib
import json
from uuid import UUID

from event_store.signing import decision_message, end_message, fingerprint, record_message, verify
from service.kernel.errors import BadInput, DoesNotVerify
from service.kernel.machine import STEP_STARTS
from service.records.end import vouches
from service.records.keys import goes_back, is_hex, keys_said, merge_keys, outside_life
from service.records.receipts import receipt_signed
from service.records.text import KEY, SIGNED, record_move
from service.records.verdict import Verdict

SIGN = "sign"
END = "end"


def signed_record(app, game_id: UUID, stored: list, text: str) -> str:
    """The record ``text`` (service/records/text.py ``write_record``) with its game id
    tag and a signed line after the lines of each step. A game this store did
    not sign from its start (imported from a file: its signatures are its
    origin's) gets no sign lines: the store never signs a history it was given."""
    if not vouches(app, game_id):
        return text
    lines = text.rstrip("\n").split("\n")
    lines.insert(1, f'[GameId "{game_id.hex}"]')
    header_end = lines.index("")
    out = lines[:header_end + 1]
    moves = lines[header_end + 1:]
    at = 0  # the next move line to place
    # signed: after every stored signed head (a receipt's step), every step boundary (a correction's
    # ``correct V`` names one) and the last event,
    # and every correction's cut (inside a step: just before an outcome, service/kernel/corrections.py)
    ends = ({r["version"] for r in app.recorder.select_signatures(game_id.hex)} | {stored[-1].originator_version}
            | {e.originator_version - 1 for e in stored[2:] if e.type in STEP_STARTS}
            | {e.data["to_version"] for e in stored if e.type == "Corrected"})
    table = stored[0].data["table"]
    pending = False

    def sign_here(e):
        digest = hashlib.sha256("".join(line + "\n" for line in out).encode()).digest()
        t, fp, sig = app.signer.sign_record(game_id, e.originator_version, e.hash, digest)
        # the key that signed, as the line's claim (format 4): a verifier trusts the key it is given
        out.append(f"{SIGN} {e.originator_version} {e.hash.hex()} {t} {fp} {sig} {app.signer.public_key.hex()}")

    for e in stored[1:]:
        if record_move(e, table) is not None:  # its line, the turn line before it, a seat's signature after it
            while at < len(moves) and moves[at].startswith("turn "):
                out.append(moves[at])
                at += 1
            out.append(moves[at])
            at += 1
            while at < len(moves) and moves[at].startswith(SIGNED + " "):
                out.append(moves[at])
                at += 1
            pending = True
        if e.originator_version in ends and (pending or e is stored[-1]):
            sign_here(e)
            pending = False
    if len(stored) == 1:
        sign_here(stored[0])
    if any(e.type == "GameFinished" for e in stored):  # a finished game's signed end (§4a): the last line
        last = stored[-1]
        version, t, fp, sig = app.signer.sign_end(game_id, last.originator_version, last.hash,
                                                  app.recorder.select_secret(game_id.hex), None)
        out.append(f"{END} {version} {last.hash.hex()} {t} {fp} {bytes(sig).hex()} {app.signer.public_key.hex()}")
    return "\n".join(out) + "\n"


def record_keys(lines: list[str]) -> list[tuple[str, bytes]] | dict:
    """The public keys a record's sign lines carry (format 4; a claim, §4), as
    ``(fingerprint, key)`` pairs; a failure (dict) for a key that is not its
    fingerprint's or a sign line that is not one."""
    out: dict[str, bytes] = {}
    for n, line in enumerate(lines, 1):
        if not line.startswith((SIGN + " ", END + " ")):
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
        if "carry no signature" in reason and not claimed:
            reason += " (a record written before format 4 carries no keys: give its service's published key, --key)"
        raise DoesNotVerify(reason)
    used = {line.split(" ")[4] for line in lines if line.startswith((SIGN + " ", END + " ")) and len(line.split(" ")) >= 6}
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
    last_head: tuple | None = None
    ended = False
    for n, line in enumerate(lines, 1):
        if line.startswith(END + " ") and last_signed_line and not any(x.strip() for x in lines[n:]) \
                and not any(x.strip() for x in lines[last_signed_line:n - 1]):
            bad_end = record_end(lines, n, gid, known, before, last_head)
            if bad_end is not None:
                return v.fail(bad_end)
            last_signed_line, ended = n, True
            break
        if line.startswith(SIGN + " "):
            parts = line.rstrip("\r\n").split(" ")
            if len(parts) not in (6, 7):
                return v.fail({"version": None, "step": None, "line": n, "reason": f"line {n}: a malformed sign line"})
            _, version, head, time, fp, sig = parts[:6]
            where = {"version": int(version), "step": None, "line": n, "lines": [start_line, n - 1]}
            key = known.get(fp)
            if key is None:  # by a key not given: not counted, as an export's signature (§4, §11)
                prefix.update(line.encode())
                continue
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
            last_head = (int(version), head)
            last_signed_line, start_line, signs = n, n + 1, signs + 1
        prefix.update(line.encode())
    tail = [n for n, line in enumerate(lines, 1) if n > last_signed_line and line.strip()]
    if tail:
        # sign lines among them are by keys not given: the versions after the last counted one are unsigned
        uncounted = any(lines[n - 1].startswith(SIGN + " ") for n in tail)
        return v.fail({"version": (last_head[0] + 1 if last_head else 1) if uncounted else None, "step": None,
                       "line": tail[0],
                       "reason": f"record lines {tail[0]}-{tail[-1]} carry no signature"
                                 + (" by the published key" if keys is not None and uncounted else "")})
    if last_head is not None and not ended and claims_finished(lines):
        return v.fail({"version": last_head[0], "step": None, "line": last_signed_line,
                       "reason": f"the record claims a finished game (its Result tag) but carries no signed end "
                                 f"after its last sign line (version {last_head[0]}): a finished game's record ends "
                                 "with one (§4a, §11; a prefix of one does not pass as finished)"})
    v.checked.append(f"{signs} signed steps of game {gid_hex}, by {keys_said(known, keys is None)}")
    seats = record_seat_signatures(lines, gid)
    if isinstance(seats, dict):
        return v.fail(seats)
    if seats:
        v.checked.append(f"{seats} decisions signed by their seats, each with the key its seat registered")
    if ended and last_head is not None:
        v.checked.append(f"finished: its end signed at version {last_head[0]}, binding its seed")
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


def _tag(lines: list[str], name: str) -> str | None:
    """A tag's value (a JSON string since format 3), None when absent."""
    for line in lines:
        if line.startswith(f"[{name} "):
            quoted = line.rstrip("\r\n")[len(name) + 2:-1]
            try:
                return json.loads(quoted)
            except ValueError:
                return quoted.strip('"')
    return None


def claims_finished(lines: list[str]) -> bool:
    """A record of format 5 or later with a ``Result`` tag: a finished game's, which ends with its signed end.
    (Formats 2-4 had no end line: the format, signed with the header, cannot be changed back.)"""
    form = (_tag(lines, "Record") or "").split()[-1:]
    return bool(form) and form[0].isdigit() and int(form[0]) >= 5 and _tag(lines, "Result") is not None


def record_end(lines: list[str], n: int, gid: bytes, known: dict, before: tuple | None,
               last_head: tuple | None) -> dict | None:
    """The end line ``end V HEAD TIME FP SIG PUBKEY`` at line ``n`` (§4a, §11): right after the last sign
    line, of its version and head, signed over them and the revealed seed (the ``Seed`` tag)."""
    parts = lines[n - 1].rstrip("\r\n").split(" ")
    if len(parts) != 7 or not parts[1].isdigit() or last_head is None:
        return {"version": None, "step": None, "line": n, "reason": f"line {n}: a malformed end line"}
    _, version, head, time, fp, sig, _pk = parts
    where = {"version": int(version), "step": None, "line": n}
    if (int(version), head) != last_head:
        return dict(where, reason=f"line {n}: the signed end is of version {version}, not of the last signed step "
                                  f"(version {last_head[0]})")
    seed = _tag(lines, "Seed")
    key = known.get(fp)
    if key is None or not verify(key, bytes.fromhex(sig), end_message(gid, int(version), bytes.fromhex(head),
                                                                      bytes.fromhex(seed) if seed else None, None,
                                                                      time, fp)):
        return dict(where, reason=f"line {n}: the signed end (version {version}) does not check"
                                  + (f" against key {fp[:16]}: the last step or the seed differ from what was signed"
                                     if key is not None else f": key {fp[:16]} is not a key given"))
    problem = outside_life(known, fp, time) or goes_back(time, before)
    if problem is not None:
        return dict(where, reason=f"line {n}: the signed end (version {version}): {problem}")
    return None


def record_seat_signatures(lines: list[str], gid: bytes) -> int | dict:
    """The seats' own signatures a record carries (spec/SPEC.md §6a, §11): from a seat's ``key``
    line on, each decision line of that seat is its JSON object followed by ``signed SEAT
    SEAT_VERSION SIGNATURE [AS_SIGNED]``, the seat's signature over (game, seat, its version, the
    decision: ``AS_SIGNED`` when given, else the line's). How many checked, or the first failure."""
    keys: dict[int, bytes] = {}
    waiting: tuple | None = None  # (seat, decision, line) of a keyed seat's decision line
    checked = 0

    def unsigned(seat: int, n: int) -> dict:
        return {"version": None, "step": None, "line": n,
                "reason": f"record line {n}: not signed by seat {seat}: the decision carries no valid signature "
                          "by the key the seat registered"}

    for n, raw in enumerate(lines, 1):
        line = raw.rstrip("\r\n")
        head, _, rest = line.partition(" ")
        if waiting is not None and head != SIGNED and line.strip() and not head.startswith("#"):
            return unsigned(waiting[0], waiting[2])
        if head == KEY:
            seat_text, _, key = rest.partition(" ")
            if not seat_text.isdigit() or not is_hex(key.strip(), 64):
                return {"version": None, "step": None, "line": n, "reason": f"record line {n}: a malformed key line"}
            if int(seat_text) in keys:
                return {"version": None, "step": None, "line": n,
                        "reason": f"record line {n}: a second key for seat {int(seat_text)}"}
            keys[int(seat_text)] = bytes.fromhex(key.strip())
        elif head.isdigit() and int(head) in keys:
            try:
                decision = json.JSONDecoder().raw_decode(rest.strip())[0] if rest.strip().startswith("{") else None
            except ValueError:
                decision = None
            if decision is None:
                return unsigned(int(head), n)
            waiting = (int(head), decision, n)
        elif head == SIGNED:
            parts = rest.split(" ", 3)
            if waiting is None or len(parts) < 3 or not parts[0].isdigit() or int(parts[0]) != waiting[0] \
                    or not parts[1].isdigit() or not is_hex(parts[2], 128):
                return {"version": None, "step": None, "line": n,
                        "reason": f"record line {n}: a signed line that follows no decision of its seat"}
            seat, seat_version = waiting[0], int(parts[1])
            try:
                decision = json.loads(parts[3]) if len(parts) == 4 else waiting[1]
            except ValueError:
                return unsigned(seat, waiting[2])
            if not verify(keys[seat], bytes.fromhex(parts[2]), decision_message(gid, seat, seat_version, decision)):
                return unsigned(seat, waiting[2])
            checked, waiting = checked + 1, None
    if waiting is not None:
        return unsigned(waiting[0], waiting[2])
    return checked
