"""What a seat's page holds, and what it may record.

* Hidden information: seat 1's page in a Loot game (its DOM with every attribute, every answer
  it fetched, and its live stream) never holds a card another seat holds unseen, nor the words
  of an event seat 1 may not see, checked against the referee's log of the same game.
* A stale page (its live stream cut, the game moved on from elsewhere) cannot record a choice
  it did not show: the service refuses the version it was chosen at, the page says so in one
  line and shows the choices again."""

from __future__ import annotations

import re
import uuid

from .pw import advance, choose, needs_chromium, state

pytestmark = needs_chromium


def referee_log(t) -> list[dict]:
    return t.referee.get(f"/games/{t.gid}/log", params={"limit": 1000}).json()["events"]


def kind(card: str) -> str:
    """A Loot card's kind: ``blue-2`` for ``blue-2a`` and ``blue-2b``."""
    return re.sub(r"(?<=\d)[a-z]$", "", card)


def hand_cell(words: str, seat: int) -> str:
    """Seat ``seat``'s hand as the table in words shows it (its cell, over wrapped lines)."""
    cells, inside = [], False
    for line in words.splitlines():
        parts = [c.strip() for c in line.split("│")]
        if len(parts) < 4:
            inside = False
            continue
        if parts[1].startswith(f"seat {seat}"):
            inside = True
        elif parts[1]:
            inside = False
        if inside:
            cells.append(parts[2])
    return " ".join(cells)


def test_a_seats_page_holds_nothing_hidden_from_it(browser, server, table_factory):
    t = table_factory("loot", 3)
    advance(server.db, t.gid, lambda m: m.k["steps"] >= 12 and m.to_act() == [1], seed=3)
    answers, streamed, words = [], [], []

    def keep_stream(route):  # the live stream, read whole (2 s at a time) and handed to the page
        url = re.sub(r"timeout=\d+", "timeout=2", route.request.url)
        got = route.fetch(url=url)
        streamed.append(got.text())
        route.fulfill(response=got)

    ctx = browser.new_context(viewport={"width": 1600, "height": 900})
    ctx.add_init_script(f"localStorage.setItem('privateer:seat:{t.gid}:1', {t.tokens[1]!r});")
    page = ctx.new_page()
    page.route("**/stream?*", keep_stream)

    def keep_answer(r):
        if "/stream" not in r.url:
            answers.append(r.text())
            if "/words" in r.url:
                words.append(r.json()["text"])

    page.on("response", keep_answer)
    page.goto(f"{server.url}/play/{t.gid}/1")
    page.wait_for_selector("body[data-state=choose]")
    for _ in range(3):  # seat 1 clicks, the others act through the API; the page follows
        choose(page)
        for seat in (2, 3):
            legal = t.seats[seat].legal(t.gid)
            if legal["decisions"]:
                assert t.seats[seat].decide(t.gid, legal["decisions"][0], legal["version"],
                                            key=uuid.uuid4().hex).status_code == 201
        page.wait_for_selector("body[data-state=choose]")
    page.wait_for_function("() => document.getElementById('log').children.length > 0")
    held = "\n".join([page.content(), page.evaluate("document.documentElement.outerHTML"), *answers, *streamed])

    log = referee_log(t)
    seen = [e for e in log if e["visible_to"] == "all" or 1 in (e["visible_to"] if isinstance(e["visible_to"], list) else [])]
    unseen = [e for e in log if e not in seen]
    assert unseen, "the game hid nothing from seat 1: the test would prove nothing"
    seen_text = "\n".join(str(e["data"]) + e["text"] for e in seen)
    board = t.referee.get(f"/games/{t.gid}/view").json()["board"]
    # a copy of one face reads as its kind's labels (blue-2a, blue-2b: service/kernel/copies.py), which
    # seat 1's own copies and the public's may read as too: a kind counts as leaked where seat 1 could
    # know of none of it, and any label of it is in the page
    mine = {kind(c) for c in board["players"]["1"]["hand"]}
    others = [c for s, p in board["players"].items() if s != "1" for c in p["hand"]
              if kind(c) not in mine and kind(c) not in seen_text]
    assert others
    leaked = [c for c in others if re.search(rf"\b{re.escape(kind(c))}[a-z]?\b", held)]
    assert not leaked, leaked
    hidden_words = [e["text"] for e in unseen if e["text"] not in seen_text]
    assert hidden_words and not [w for w in hidden_words if w in held]
    assert streamed and "game-event" in "".join(streamed)
    # the table in words, as the page received it: the others' hands by count only, where the
    # referee's words for the same table name their cards
    referee_words = t.referee.get(f"/games/{t.gid}/words").json()["text"]
    assert words
    for seat in (2, 3):
        assert re.search(r"[a-z]+ \d", hand_cell(referee_words, seat))  # e.g. "blue 2"
        assert all(re.fullmatch(r"\d+ cards?|empty", hand_cell(w, seat)) for w in words), \
            [hand_cell(w, seat) for w in words]
    page.unroute_all(behavior="ignoreErrors")  # a stream still being read is let go
    ctx.close()


def test_a_stale_page_cannot_record_a_choice_it_did_not_show(browser, server, table_factory):
    t = table_factory("loot", 2)
    advance(server.db, t.gid, lambda m: m.to_act() == [1], seed=4)
    ctx = browser.new_context(viewport={"width": 420, "height": 900})
    ctx.add_init_script(f"localStorage.setItem('privateer:seat:{t.gid}:1', {t.tokens[1]!r});")
    page = ctx.new_page()
    page.route("**/stream?*", lambda route: route.abort())  # the page hears nothing of the game
    page.goto(f"{server.url}/play/{t.gid}/1")
    page.wait_for_selector("body[data-state=choose]")
    shown = page.locator("#choices button.choice").all_inner_texts()
    before = len(referee_log(t))

    # from elsewhere, seat 1 draws and seat 2 acts: seat 1 is to choose again, the page still shows
    # the old list (drawing is still offered, but the game is not where the page saw it)
    for seat in (1, 2):
        legal = t.seats[seat].legal(t.gid)
        draw = next(d for d in legal["decisions"] if d["action"] == "draw")
        assert t.seats[seat].decide(t.gid, draw, legal["version"], key=uuid.uuid4().hex).status_code == 201
    moved = len(referee_log(t))
    assert t.seats[1].legal(t.gid)["decisions"] and page.locator("#choices button.choice").all_inner_texts() == shown

    page.locator("#choices button.choice", has_text="draw").first.click()
    page.click("#confirm-yes")
    page.wait_for_function("() => document.getElementById('refusal').textContent !== ''")
    assert page.inner_text("#refusal") == \
        "Not sent: the game moved on since these choices were shown. Here they are again."
    assert len(referee_log(t)) == moved > before  # nothing recorded from the stale page
    assert state(page) == "choose"
    ctx.close()
