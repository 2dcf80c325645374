"""Corrections over HTTP: the referee of a table-mode game retracts a
mistyped card; seats read the mistake and the correction in their own numbers."""


def test_the_referee_corrects_a_misread_card(table_factory, public):
    t = table_factory("letter-of-marque", 2, table=True)
    ref = t.referee
    # both treasures in one request, as the table shows them
    r = ref.post(f"/games/{t.gid}/chance", {"words": [4, "3"], "expected_version": ref.status(t.gid)["version"]})
    assert r.status_code == 201, r.text
    assert [e["data"]["card"] for e in r.json()["events"] if e["type"] == "CardDrawn"] == [4, 3]
    assert ref.post(f"/games/{t.gid}/chance", {"expected_version": 1}).status_code == 400
    for seat, armed in ((1, True), (2, False)):
        r = ref.post(f"/games/{t.gid}/decisions", {"decision": {"action": "place", "armed": armed}, "seat": seat,
                                                    "expected_version": ref.status(t.gid)["version"]})
        assert r.status_code == 201, r.text
    at = ref.status(t.gid)["version"]
    ref.post(f"/games/{t.gid}/decisions", {"decision": {"action": "launch"}, "seat": 2, "expected_version": at})
    ref.post(f"/games/{t.gid}/chance", {"outcome": 5, "expected_version": ref.status(t.gid)["version"]})
    v = ref.status(t.gid)["version"]
    # only the referee corrects; a stale expected version is refused; nothing appended
    assert t.seats[1].post(f"/games/{t.gid}/corrections", {"to_version": at, "reason": "x",
                                                            "expected_version": 1}).status_code == 403
    assert ref.post(f"/games/{t.gid}/corrections", {"to_version": at, "reason": "x",
                                                     "expected_version": v - 1}).status_code == 409
    assert ref.status(t.gid)["version"] == v
    r = ref.post(f"/games/{t.gid}/corrections", {"to_version": at, "reason": "misread: a 7",
                                                  "expected_version": v})
    assert r.status_code == 201, r.text
    assert [e["type"] for e in r.json()["events"]] == ["Decided", "Corrected"]
    assert ref.get(f"/games/{t.gid}/audit").json()["ok"]
    log = t.seats[1].get(f"/games/{t.gid}/log", params={"limit": 1000}).json()["events"]
    assert [e["version"] for e in log] == list(range(1, len(log) + 1))
    assert any(e.get("retracted") for e in log)
    corr = next(e for e in log if e["type"] == "Corrected")
    assert corr["data"]["reason"] == "misread: a 7" and corr["data"]["to_version"] < at
