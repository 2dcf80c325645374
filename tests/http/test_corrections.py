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


def test_the_referee_takes_back_an_entry_of_the_deal_and_replaces_one(table_factory):
    """Inside a step (the setup's deal, Loot at four seats): POST /corrections with `outcomes`
    takes back the last entries, with `place` replaces one and keeps those after it; /awaited
    lists the step's entries for the page's "Undo the last entry"."""
    t = table_factory("loot", 4, table=True)
    ref = t.referee
    cards = ["blue-1a", "blue-1b", "blue-2a", "blue-2b", "blue-2c", "blue-2d", "blue-3a"]
    r = ref.post(f"/games/{t.gid}/chance", {"words": [1, *cards], "expected_version": ref.status(t.gid)["version"]})
    assert r.status_code == 201, r.text
    seen = ref.get(f"/games/{t.gid}/awaited").json()
    assert [e["outcome"] for e in seen["entered"]] == [1, *cards] and seen["entered"][-1]["why"] == "deal to seat 4"
    # each said as the log says it (the page's undo asks about these words), no card id in them
    assert seen["entered"][-1]["said"] == "deal to seat 4: blue 3"
    assert not any(c in e["said"] for e in seen["entered"] for c in cards)
    v = seen["version"]
    # only the referee; one of to_version, outcomes, place; nothing appended when refused
    assert t.seats[1].post(f"/games/{t.gid}/corrections", {"outcomes": 1, "reason": "x",
                                                            "expected_version": 1}).status_code == 403
    for body in ({"outcomes": 1, "to_version": 3}, {}, {"outcomes": 9}, {"place": 2}):
        r = ref.post(f"/games/{t.gid}/corrections", {**body, "reason": "x", "expected_version": v})
        assert r.status_code == 400, (body, r.text)
    assert ref.status(t.gid)["version"] == v
    r = ref.post(f"/games/{t.gid}/corrections", {"outcomes": 1, "reason": "the 7th card mistyped", "expected_version": v})
    assert r.status_code == 201, r.text
    assert [e["type"] for e in r.json()["events"]] == ["Decided", "Corrected"]
    seen = ref.get(f"/games/{t.gid}/awaited").json()
    assert seen["awaiting"]["why"] == "deal to seat 4" and len(seen["entered"]) == 7
    r = ref.post(f"/games/{t.gid}/corrections", {"place": 3, "words": ["gold-1a"], "reason": "the 2nd card mistyped",
                                                  "expected_version": seen["version"]})
    assert r.status_code == 201, r.text
    seen = ref.get(f"/games/{t.gid}/awaited").json()
    assert [e["outcome"] for e in seen["entered"]] == [1, "blue-1a", "gold-1a", *cards[2:6]]
    assert ref.get(f"/games/{t.gid}/audit").json()["ok"]
    log = t.seats[3].get(f"/games/{t.gid}/log", params={"limit": 1000}).json()["events"]
    assert [e["version"] for e in log] == list(range(1, len(log) + 1))
    assert sum(e["type"] == "Corrected" for e in log) == 2
    # the public audit names the corrections without the store's versions (they count hidden events)
    notes = t.seats[3].get(f"/games/{t.gid}/audit").json()["notes"]
    assert "a correction (the 2nd card mistyped)" in notes and not any("versions" in n for n in notes)
    assert any("versions" in n for n in ref.get(f"/games/{t.gid}/audit").json()["notes"])
