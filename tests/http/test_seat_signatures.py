"""Seats sign their own decisions (spec/SPEC.md §6a): a seat registers its key, the
service refuses its unsigned or wrongly signed decisions, and another seat's reads never
carry the signature of a decision hidden from it."""

from __future__ import annotations

import json

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from event_store.signing import decision_message
from service.http.client import Api, read_stream


def _public(key: Ed25519PrivateKey) -> str:
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


def _signed(key: Ed25519PrivateKey, gid: str, seat: int, version: int, decision: dict) -> str:
    return key.sign(decision_message(bytes.fromhex(gid), seat, version, decision)).hex()


def _decide(api: Api, gid: str, decision: dict, version: int, signature: str | None = None):
    body = {"decision": decision, "expected_version": version}
    if signature is not None:
        body["signature"] = signature
    return api.post(f"/games/{gid}/decisions", body)


def test_a_seat_with_a_key_decides_only_with_its_signature_and_others_never_read_it(table_factory, public) -> None:
    t = table_factory("letter-of-marque", 2)
    seat = public.status(t.gid)["to_act"][0]
    other = 2 if seat == 1 else 1
    key, stranger = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    me = t.seats[seat]
    # only the seat's own token registers its key
    assert t.seats[other].post(f"/games/{t.gid}/seats/{seat}/key", {"public_key": _public(key)}).status_code == 403
    assert t.referee.post(f"/games/{t.gid}/seats/{seat}/key", {"public_key": _public(key)}).status_code == 403
    r = me.post(f"/games/{t.gid}/seats/{seat}/key", {"public_key": _public(key)})
    assert r.status_code == 201, r.text
    again = me.post(f"/games/{t.gid}/seats/{seat}/key", {"public_key": _public(stranger)})
    assert again.status_code == 422 and "handover" in again.json()["reason"]
    head = t.referee.status(t.gid)["head"]
    legal = me.legal(t.gid)
    decision, version = legal["decisions"][0], legal["version"]
    # unsigned, signed by another key, signed over another version: refused, nothing appended
    for sig in (None, _signed(stranger, t.gid, seat, version, decision), _signed(key, t.gid, seat, version + 1,
                                                                                  decision)):
        r = _decide(me, t.gid, decision, version, sig)
        assert r.status_code == 403, r.text
        assert f"seat {seat}" in r.json()["reason"]
        assert t.referee.status(t.gid)["head"] == head
    good = _signed(key, t.gid, seat, version, decision)
    r = _decide(me, t.gid, decision, version, good)
    assert r.status_code == 201, r.text
    # the seat reads its own signature in its log; the other seat (and the public) never do
    mine = me.get(f"/games/{t.gid}/log").json()
    decided = [e for e in mine["events"] if e["type"] == "Decided" and e["data"].get("seat") == seat]
    assert decided and decided[-1]["data"]["signature"] == good
    hidden = decided[-1]["visible_to"] != "all"
    assert hidden, "letter-of-marque keeps a seat's decision to the seat: the test needs a hidden decision"
    for api, token in ((t.seats[other], t.tokens[other]), (public, None)):
        said = [api.get(f"/games/{t.gid}{path}").text for path in ("", "/view", "/log", "/legal", "/replay")]
        said.append(json.dumps(read_stream(t.server.url, t.gid, token, timeout=1.0)))
        said.append(_decide(api, t.gid, decision, version, good).text)  # its error says nothing of it either
        said.append(api.post(f"/games/{t.gid}/seats/{seat}/key", {"public_key": _public(key)}).text)
        for text in said:
            assert good not in text
    # the referee reads it (and the export carries it: tests/evidence/test_seat_signatures.py)
    assert good in t.referee.get(f"/games/{t.gid}/log").text


def test_in_a_game_with_copies_the_seat_signs_what_it_reads_and_the_audit_agrees(table_factory, public) -> None:
    t = table_factory("loot", 2)
    key = Ed25519PrivateKey.generate()
    for seat in (1, 2):
        assert t.seats[seat].post(f"/games/{t.gid}/seats/{seat}/key", {"public_key": _public(key)}).status_code == 201
    for _ in range(12):
        st = public.status(t.gid)
        if st["finished"]:
            break
        seat = st["to_act"][0]
        legal = t.seats[seat].legal(t.gid)  # the decisions as the seat reads them (copies by their labels)
        d = legal["decisions"][-1]
        r = _decide(t.seats[seat], t.gid, d, legal["version"], _signed(key, t.gid, seat, legal["version"], d))
        assert r.status_code == 201, r.text
    log = t.referee.get(f"/games/{t.gid}/log", params={"limit": 1000}).json()["events"]
    decided = [e["data"] for e in log if e["type"] == "Decided" and e["data"]["seat"]]
    assert decided and all("signature" in d and isinstance(d["as_signed"], str) for d in decided)
    audit = public.get(f"/games/{t.gid}/audit").json()
    assert audit["ok"], audit


def test_a_seat_moves_to_a_new_key_only_with_its_old_keys_handover(table_factory, public) -> None:
    """A new device (spec/SPEC.md §6a): the old key signs the new one over; nobody else can."""
    from event_store.signing import seat_key_message

    t = table_factory("letter-of-marque", 2)
    old, new, stranger = (Ed25519PrivateKey.generate() for _ in range(3))
    me = t.seats[1]
    assert me.post(f"/games/{t.gid}/seats/1/key", {"public_key": _public(old)}).status_code == 201
    message = seat_key_message(bytes.fromhex(t.gid), 1, bytes.fromhex(_public(old)), bytes.fromhex(_public(new)))
    head = t.referee.status(t.gid)["head"]
    r = me.post(f"/games/{t.gid}/seats/1/key", {"public_key": _public(new), "handover": stranger.sign(message).hex()})
    assert r.status_code == 403 and "handover" in r.json()["reason"], r.text
    handover = old.sign(message).hex()
    r = t.seats[2].post(f"/games/{t.gid}/seats/1/key", {"public_key": _public(new), "handover": handover})
    assert r.status_code == 403, r.text  # the seat's own token only
    assert t.referee.status(t.gid)["head"] == head
    r = me.post(f"/games/{t.gid}/seats/1/key", {"public_key": _public(new), "handover": handover})
    assert r.status_code == 201, r.text
    seen = [e for e in public.get(f"/games/{t.gid}/log").json()["events"] if e["type"] == "SeatKeyRegistered"]
    assert seen[-1]["data"] == {"seat": 1, "key": _public(new), "handover": handover}


def test_at_a_table_the_referee_signs_its_entries_and_a_seat_never_reads_it(table_factory) -> None:
    """spec/SPEC.md §9a over HTTP: the referee registers its key; an entry without its signature is
    refused; a seat's log never carries it, nor does a seat's refused attempt say the store's version."""
    from event_store.signing import referee_message

    t = table_factory("letter-of-marque", 2, table=True)
    key = Ed25519PrivateKey.generate()
    assert t.seats[1].post(f"/games/{t.gid}/referee/key", {"public_key": _public(key)}).status_code == 403
    while (st := t.referee.status(t.gid))["awaiting_chance"]:  # the deal, entered before the key
        r = t.referee.post(f"/games/{t.gid}/chance", {"outcome": st["awaiting_chance"]["choices"][0],
                                                      "expected_version": st["version"]})
        assert r.status_code == 201, r.text
    r = t.referee.post(f"/games/{t.gid}/referee/key", {"public_key": _public(key)})
    assert r.status_code == 201, r.text
    st = t.referee.status(t.gid)
    seat = st["to_act"][0]
    legal = t.referee.get(f"/games/{t.gid}/legal", params={"seat": seat}).json()
    decision, version = legal["decisions"][0], legal["version"]
    body = {"decision": decision, "expected_version": version, "seat": seat}
    r = t.referee.post(f"/games/{t.gid}/decisions", body)
    assert r.status_code == 403 and "not signed by the referee" in r.json()["reason"], r.text
    # a seat sending a signature of its own: refused, and the refusal names no store version
    mine = t.seats[seat].legal(t.gid)
    r = t.seats[seat].post(f"/games/{t.gid}/decisions", {"decision": mine["decisions"][0],
                                                          "expected_version": mine["version"],
                                                          "referee_signature": "ab" * 64})
    assert r.status_code in (403, 409), r.text
    assert str(version) not in r.json()["reason"].replace(str(mine["version"]), ""), r.text
    head = bytes.fromhex(st["head"])
    signature = key.sign(referee_message(bytes.fromhex(t.gid), version, head, seat, decision)).hex()
    r = t.referee.post(f"/games/{t.gid}/decisions", dict(body, referee_signature=signature))
    assert r.status_code == 201, r.text
    for n in (1, 2):
        assert "referee_signature" not in t.seats[n].get(f"/games/{t.gid}/log", params={"limit": 1000}).text
    log = t.referee.get(f"/games/{t.gid}/log", params={"limit": 1000}).json()["events"]
    assert [e["data"].get("referee_signature") for e in log if e["type"] == "Decided"][-1] == signature

