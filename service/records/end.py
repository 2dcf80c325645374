"""A finished game's signed end (spec/SPEC.md §4a): the service's signature over
the game's last version and head, the revealed seed (the export's ``secret``)
and a fork's ``parents``, so that neither a prefix of a finished game nor a
changed seed or parents passes as the finished game.

The store makes it when it writes a finished game it signed from its start
(an export, a record), with the key signing then and the time it writes: one
path for the games finished before signed ends existed and those after. An
imported game's end is the file's, kept (``privateer_ends``) for its re-export.
"""

from __future__ import annotations

import json
from uuid import UUID

from event_store.signing import end_message, verify
from service.records.keys import goes_back, outside_life


def vouches(app, game_id: UUID) -> bool:
    """Whether this store signed the game's history from its start (its lowest
    signed head is by a key of its own): not a game imported from a file."""
    rows = app.recorder.select_signatures(game_id.hex)
    if not rows:
        return False
    own = app.signer.own_keys()
    first = min(r["version"] for r in rows)
    return any(r["version"] == first and r["fingerprint"] in own for r in rows)


def finished(types) -> bool:
    return "GameFinished" in types


def kept_end(app, game_id: UUID) -> tuple[list, list | None] | None:
    """An imported game's end and the parents it binds, as its file carried them."""
    row = app.recorder.select_end(game_id.hex)
    if row is None:
        return None
    parents = [[v, None if s is None else bytes.fromhex(s)] for v, s in json.loads(row["parents"])] or None
    return [row["version"], row["signed"], row["fingerprint"], bytes.fromhex(row["signature"])], parents


def end_row(game_id: UUID, end: list, parents: list | None) -> tuple:
    """The ``privateer_ends`` row keeping an imported file's end."""
    version, time, fp, sig = end
    return (game_id.hex, int(version), str(time), fp, bytes(sig).hex(),
            json.dumps([[int(v), None if s is None else bytes(s).hex()] for v, s in parents or []]))


def make_end(app, game_id: UUID, events: list, secret: bytes | None, parents: list | None) -> list | None:
    """The end statement ``[version, time, fingerprint, signature]`` of a finished game this
    store signed from its start, made now; None for a game not finished or not vouched for."""
    if not finished(e.type for e in events) or not vouches(app, game_id):
        return None
    last = events[-1]
    return app.signer.sign_end(game_id, last.originator_version, last.hash, secret, parents)


def check_end(gid: UUID, rows: list, secret, parents, end, keys: dict, before: tuple | None) -> dict | None:
    """The first problem with a file's end (None: none). A file holding ``GameFinished``
    claims to be finished: it MUST carry an end by a key of ``keys`` over its last version
    and head, its ``secret`` and ``parents``; an end MUST name the file's last version (a
    file cut after the end was signed is truncated). ``before``: (time, version) of the last
    counted head signature (times never go back)."""
    last = rows[-1]["version"]
    claims = finished(r["type"] for r in rows)
    if end is None:
        if not claims:
            return None
        at = next(r["version"] for r in rows if r["type"] == "GameFinished")
        return {"version": at, "step": None,
                "reason": f"event {at} (GameFinished): the file claims a finished game but carries no signed end "
                          "(§4a): its end, seed and parents are vouched for by no signature"}
    if not (isinstance(end, (list, tuple)) and len(end) == 4 and isinstance(end[0], int)):
        return {"version": last, "step": None, "reason": "the file's signed end is malformed"}
    version, time, fp, sig = end
    if version > last:
        return {"version": last + 1, "step": [last + 1, version],
                "reason": f"the signed end is of version {version}, the file ends at version {last}: "
                          f"versions {last + 1}-{version} were cut off (a truncated finished game)"}
    if version < last or not claims:
        return {"version": last, "step": None,
                "reason": f"the signed end is of version {version}, but the file's last event ({last}, "
                          f"{rows[-1]['type']}) is not a finished game's end"}
    if fp not in keys:
        return {"version": last, "step": None,
                "reason": f"the signed end is by key {fp[:16]}, which is not a key given (the end of a finished "
                          "game is signed by the service, §4a)"}
    if not verify(keys[fp], bytes(sig), end_message(gid.bytes, version, rows[-1]["hash"], secret, parents,
                                                    str(time), fp)):
        return {"version": last, "step": None,
                "reason": f"the signed end (version {version}) does not check against key {fp[:16]}: the last "
                          "event, the secret or the parents differ from what was signed"}
    problem = outside_life(keys, fp, str(time)) or goes_back(str(time), before)
    if problem is not None:
        return {"version": last, "step": None, "reason": f"the signed end (version {version}): {problem}"}
    return None
