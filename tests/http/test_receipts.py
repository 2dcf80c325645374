"""The service's key (GET /key) and a seat's receipt in the answer to its decision."""

import uuid

from event_store.signing import receipt_message, verify


def _checks(receipt: dict, public_key: str) -> bool:
    msg = receipt_message(bytes.fromhex(receipt["game_id"]), receipt["seat"], receipt["seat_version"],
                          bytes.fromhex(receipt["head"]), receipt["time"], receipt["fingerprint"])
    return verify(bytes.fromhex(public_key), bytes.fromhex(receipt["signature"]), msg)


def test_the_http_answer_to_a_decision_carries_the_seats_receipt(table_factory, public):
    t = table_factory("loot", 2)
    key = public.get("/key").json()
    assert len(key["public_key"]) == 64 and key["keys"][-1]["fingerprint"] == key["fingerprint"]
    st = public.status(t.gid)
    seat = st["to_act"][0]
    legal = t.seats[seat].legal(t.gid)
    r = t.seats[seat].decide(t.gid, legal["decisions"][0], legal["version"], key=uuid.uuid4().hex)
    assert r.status_code == 201, r.text
    body = r.json()
    receipt = body["receipt"]
    assert receipt["seat"] == seat and receipt["seat_version"] == body["version"]
    assert _checks(receipt, key["public_key"])
    assert receipt["head"] == t.referee.status(t.gid)["head"]    # (a live game's head: its referee's to read)
