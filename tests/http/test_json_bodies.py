"""Bodies that are JSON Python's reader cannot take as sent are said for what they are
(they were all "not JSON text in UTF-8"): a key twice, named (it passed silently, the last
one kept), nesting deeper than the reader goes, an integer of more than 4300 digits; and a
correction's refusal names the API's field, not the command line's flag."""

from __future__ import annotations

import pytest

JSON = {"content-type": "application/json"}


@pytest.mark.parametrize("raw,said", [
    ('{"decision": {"action": "place", "armed": true, "armed": false}, "expected_version": {v}}',
     "the body has the key 'armed' twice"),
    ('{"decision": {"action": "place", "armed": true}, "expected_version": 1, "expected_version": {v}}',
     "the body has the key 'expected_version' twice"),
    ('{"decision": ' + "[" * 5000 + "]" * 5000 + ', "expected_version": {v}}', "the body is nested too deeply"),
    ('{"decision": {"action": "place", "armed": true}, "expected_version": ' + "7" * 4301 + "}",
     "the body holds an integer of more than 4300 digits"),
])
def test_a_body_python_cannot_take_as_sent_is_said_for_what_it_is(table_factory, organiser, raw, said):
    t = table_factory("letter-of-marque", 2)
    v = t.seats[1].legal(t.gid)["version"]
    before = organiser.status(t.gid)["version"]
    r = t.seats[1].http.post(f"/games/{t.gid}/decisions", headers=JSON, content=raw.replace("{v}", str(v)))
    assert r.status_code == 400 and r.json() == {"error": "bad_input", "reason": said}, r.text
    r = organiser.http.post("/games", headers=JSON, content='{"game": "loot", "game": "loot", "seats": 2}')
    assert r.status_code == 400 and r.json()["reason"] == "the body has the key 'game' twice"
    assert organiser.status(t.gid)["version"] == before


def test_a_correction_s_refusal_names_the_field_to_version(table_factory):
    t = table_factory("letter-of-marque", 2)
    v = t.referee.status(t.gid)["version"]
    r = t.referee.post(f"/games/{t.gid}/corrections", {"to_version": v + 5, "reason": "x", "expected_version": v})
    assert r.status_code == 400, r.text
    reason = r.json()["reason"]
    assert reason.startswith("to_version must be from 1 to ") and "--" not in reason
