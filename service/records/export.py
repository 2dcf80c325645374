"""The signed export (format 3, spec/SPEC.md §10): the signatures, keys and
parents an export carries, how far an imported one is trusted (§4), and its
check by ``tools verify``: chain, signed heads against the keys given,
receipts, and the audit's checks of its content."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from event_store.chain import chain_version, genesis, link
from event_store.signing import KeyHistory, fingerprint, head_message, verify
from service.kernel.errors import BadInput, DoesNotVerify
from service.records.audit import (AuditReport, Envelope, ancestry, check_randomness, check_seat_signatures,
                                   check_shapes, file_parents)
from service.records.end import check_end, end_row, kept_end, make_end
from service.records.keys import goes_back, history_keys, keys_said, merge_keys, outside_life, sort_time
from service.records.receipts import check_receipt, ordered
from service.records.step import types_between
from service.records.verdict import Verdict


def export_evidence(app, game_id: UUID, events: list, secret: bytes | None) -> dict:
    """The export's ``signatures``, ``keys``, for a fork ``parents`` (the seeds its ancestors
    revealed) and, for a finished game, its signed ``end`` over them and ``secret`` (§4a):
    made now for a game this store signed from its start, an imported game's kept from its file."""

    rows = app.recorder.select_signatures(game_id.hex)
    signatures = [[r["version"], r["signed"], r["fingerprint"], bytes.fromhex(r["signature"])] for r in rows]
    keys = app.signer.public_keys({r["fingerprint"] for r in rows})
    own = app.signer.own_keys()
    # the key history of the service that signed it (public halves, lives, rotations: never a private key)
    kept = kept_end(app, game_id)
    end: list | None
    if kept is not None:  # an imported game: the end and the parents its file carried
        end, parents = kept
        keys.update(app.signer.public_keys({end[2]}))
    else:
        parents = ancestry(app, events[0].data, revealed_only=True)
        end = make_end(app, game_id, events, secret, parents)
        if end is not None:
            keys.update(app.signer.public_keys({end[2]}))
    history = app.signer.history() if any(fp in own for fp in keys) else None
    return {"signatures": signatures, "keys": keys, "parents": parents, "key_history": history, "end": end}


@dataclass
class ImportTrust:
    """What an imported file's signatures are worth to the importing service."""
    signatures: list               # ``privateer_signatures`` rows kept with the game (the file's, as it holds them)
    keys: dict                     # the public keys that made them: kept for a re-export, never the service's own
    vouched_by: list[str]          # fingerprints of given keys (the service's own, ``--key``) covering the file
    note: str = ""                 # said to whoever imports: how far the file is trusted
    end: tuple | None = None       # a ``privateer_ends`` row: a finished file's signed end, kept for a re-export


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
    end = doc.get("end")
    if sigs:  # a signed file: a finished one's end is signed too (§4a), by the keys its heads count under
        counted = given if by_given else merge_keys(claimed, getattr(file_keys, "life", None) and file_keys)
        problem = check_end(game_id, rows, doc.get("secret"), doc.get("parents"), end, counted,
                            last_signed([s for s in sigs if s[2] in counted]))
        if problem is not None:
            raise DoesNotVerify(problem["reason"])
    out = [(game_id.hex, v, hashes[v].hex(), t, fp, bytes(sig).hex()) for v, t, fp, sig in sigs]
    signers = {s[2] for s in sigs} | ({end[2]} if sigs and end else set())
    keys = {fp: file_keys.get(fp) or given[fp] for fp in signers}
    kept = end_row(game_id, end, doc.get("parents")) if sigs and end else None
    return ImportTrust(out, keys, vouched, note, kept)


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
    v.checked.append(f"{len(signed)} signed heads, by {keys_said(used, keys is None)}")
    for r in ordered(receipts, rows):
        problem = check_receipt(gid, rows, r, file_keys, keys)
        if problem is not None:
            return v.fail(problem)
        v.checked.append(f"receipt of seat {r['seat']} at its version {r['seat_version']}: "
                         f"the file holds that step unchanged")
    problem = check_file_content(doc)
    if problem is not None:
        return v.fail(problem)
    v.checked.append("corrections' and stated outcomes' form; the seed and every chance outcome re-derived "
                     "(the audit's checks, service/records/audit.py)")
    seat_signed = sum(1 for r in rows if r["type"] == "Decided" and "signature" in r["data"])
    if seat_signed:
        v.checked.append(f"{seat_signed} decisions signed by their seats, each with the key its seat registered")
    referee_signed = sum(1 for r in rows if r["type"] == "Decided" and "referee_signature" in r["data"])
    if referee_signed:  # service/referee_key.py
        v.checked.append(f"{referee_signed} entries signed by the referee, with the key it registered")
    problem = check_end(gid, rows, doc.get("secret"), doc.get("parents"), doc.get("end"), used,
                        last_signed(signed))
    if problem is not None:
        return v.fail(problem)
    v.checked.append(f"finished: its end signed at version {doc['end'][0]}, binding its seed and parents"
                     if doc.get("end") else "not finished: no signed end (a game in progress, or a prefix of one)")
    return v


def last_signed(signatures: list) -> tuple | None:
    """(time, version) of the latest of these head signatures, None if none."""
    if not signatures:
        return None
    s = max(signatures, key=lambda s: (sort_time(s[1]), s[0]))
    return (str(s[1]), s[0])


def check_file_content(doc: dict) -> dict | None:
    """What the file's events say of themselves: corrections' and stated outcomes'
    form, then the seed against its commitment and every chance outcome re-derived
    from it, forks' inherited ones from ``parents``: service/records/audit.py's
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
    for version, time, fp, sig in sorted(signatures, key=lambda s: (s[0], sort_time(s[1]))):
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
                              f"{types_between(rows, first, version)}): its signature does not check against key "
                              f"{fp[:16]} (the history up to there was changed after it was signed)"}
        problem = outside_life(keys, fp, str(time)) or goes_back(str(time), before)
        if problem is not None:
            return {"version": first, "step": [first, version],
                    "reason": f"the step ending at version {version} (versions {first}-{version}, "
                              f"{types_between(rows, first, version)}): {problem}"}
        before = (str(time), version)
        covered = max(covered, version)
    if covered < last:
        return {"version": covered + 1, "step": [covered + 1, last], "unsigned": True,
                "reason": f"versions {covered + 1}-{last} ({types_between(rows, covered + 1, last)}) carry no signature"
                          + (" by the published key" if published is not None else "")}
    return None


def _step_start(signatures, keys, version: int) -> int:
    before = [s[0] for s in signatures if s[2] in keys and s[0] < version]
    return max(before) + 1 if before else 1
