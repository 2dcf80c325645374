"""A tournament's evening on its pages: the organiser registers 9 players, seats round 1 as three
3-player Letter of Marque tables (one played by three people in their own browsers through the seat
links, one by bots, one entered by hand as a result), closes the round, seats round 2 (nobody meets a
round-1 opponent again), and the player pages and standings show it, at 420 and 1600 px. The people
make their first choices by clicking; the rest of their game is played on by the rules' bot."""

from __future__ import annotations

import re
import uuid

from service.http.client import Api

from .pw import choose, needs_chromium, shoot, state

pytestmark = needs_chromium
NAMES = ("Ada", "Bo", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy")


def read(server, path: str) -> dict:
    api = Api(server.url)
    try:
        return api.ok(api.get(path))
    finally:
        api.close()


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_an_evening_of_two_rounds(browser, page, server, output_path):
    name = f"cup-{uuid.uuid4().hex[:6]}"
    page.set_viewport_size({"width": 1600, "height": 900})
    page.goto(server.url + "/tournament")
    page.fill("#key", server.key)
    page.click("#key-form button")
    page.wait_for_selector("body[data-ready=yes]")
    page.select_option("#game", "letter-of-marque")
    page.fill("#table", "3")
    page.fill("#rounds", "2")
    page.fill("#name", name)
    page.click("#create-button")
    page.wait_for_url(re.compile(r"/tournament/[0-9a-f]{32}$"))
    page.wait_for_selector("body[data-ready=yes]")
    tid = page.url.rsplit("/", 1)[1]
    for player in NAMES:
        page.fill("#player", player)
        page.click("#register-button")
        page.wait_for_selector(f"#players li[data-player='{player}']")
    page.wait_for_selector("#seat-how select[data-how='3']")
    for table, how in ((1, "people"), (2, "bots"), (3, "hand")):
        page.select_option(f"#seat-how select[data-how='{table}']", how)
    page.click("#seat")
    page.wait_for_selector("input[data-link='1:3']")
    links = [page.get_attribute(f"input[data-link='1:{seat}']", "value") for seat in (1, 2, 3)]
    assert all(re.search(r"/join/[0-9a-f]{32}/\d#code=inv_", link) for link in links)

    # table 3, played without the service: its result entered by hand
    page.click("article[data-table='3'] summary")
    hand = page.locator("article[data-table='3'] form.hand")
    hand.locator("input[data-reason]").fill("played on paper at the bar")
    hand.locator("button").click()
    page.wait_for_selector("article[data-table='3'][data-done=yes]")
    shoot(page, "tournament", output_path, ready="article[data-table='3'][data-done=yes]")  # round 1 under way
    for width in (420, 1600):
        page.set_viewport_size({"width": width, "height": 900})
        assert no_sideways_scroll(page), width

    # table 1: three people, each in a browser of their own, through their seat links
    contexts = [browser.new_context(viewport={"width": 420, "height": 900}) for _ in links]
    seats = []
    for ctx, link in zip(contexts, links):
        p = ctx.new_page()
        p.goto(link)
        p.wait_for_url(re.compile(r"/play/[0-9a-f]{32}/\d$"))
        seats.append(p)
    for p in seats:  # the placement: every seat at once, each by a click
        p.wait_for_selector("body[data-state=choose]")
        assert choose(p)
    # the rest of their game by clicking too: each seat's page made its key and signs its decisions,
    # which no one outside its browser can do for it (spec/SPEC.md §6a)
    clicks = 0
    while not all(state(p) == "finished" for p in seats):
        acting = [p for p in seats if state(p) == "choose"]
        if not acting:  # another seat's click is on its way: wait for the next page to be asked
            seats[0].wait_for_function("() => 1", polling=50)
            continue
        for p in acting:
            if state(p) == "choose":
                choose(p)
                clicks += 1
        assert clicks < 400
    # table 2's bots finish on their own; the organiser closes the round: both games' results read
    page.wait_for_selector("body[data-waiting='0']", timeout=90000)
    page.click("#close")
    page.wait_for_selector("body[data-state=between]")
    assert "Round 1 (closed)" in page.inner_text("#round-title")
    round_1 = read(server, f"/tournaments/{tid}")["rounds"][0]
    assert [t["result"]["game_id"] is not None for t in round_1["tables"]] == [True, True, False]
    assert round_1["tables"][2]["result"]["reason"] == "played on paper at the bar"

    # round 2: nobody meets a round-1 opponent
    for table in (1, 2, 3):
        page.select_option(f"#seat-how select[data-how='{table}']", "hand")
    page.click("#seat")
    page.wait_for_selector("body[data-state=playing][data-round='2']")
    view = read(server, f"/tournaments/{tid}")
    met = {p: set(t["players"]) - {p} for t in view["rounds"][0]["tables"] for p in t["players"]}
    for t in view["rounds"][1]["tables"]:
        assert all(not met[p] & set(t["players"]) for p in t["players"]), view["rounds"]
    assert sorted(p for t in view["rounds"][1]["tables"] for p in t["players"]) == sorted(NAMES)
    for width in (420, 1600):
        page.set_viewport_size({"width": width, "height": 900})
        assert no_sideways_scroll(page), width

    # a player's page: where they sit now, their round-1 result, the standings naming all nine
    player = contexts[0].new_page()
    ada_table = next(t for t in view["rounds"][1]["tables"] if "Ada" in t["players"])
    player.goto(f"{server.url}/tournament/{tid}/player?name=Ada")
    player.wait_for_selector("body[data-state=shown]")
    seat = ada_table["players"].index("Ada") + 1
    assert player.get_attribute("#now [data-where]", "data-where") == f"2:{ada_table['table']}:{seat}"
    assert player.locator("#results tr[data-round='1'] td").nth(2).inner_text() in {"1", "2", "3"}
    shown = player.inner_text("#standings")
    assert all(n in shown for n in NAMES)
    assert no_sideways_scroll(player)
    shoot(player, "tournament-player", output_path, ready="body[data-state=shown]")
    # the organiser's standings as round 1 closed them
    page.select_option("#standings-round", "1")
    assert all(n in page.inner_text("#standings") for n in NAMES)
    for ctx in contexts:
        ctx.close()
