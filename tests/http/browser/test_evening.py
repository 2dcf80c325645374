"""An evening with the pages: a Letter of Marque game for three created on the organiser's
page, joined through three invitation links in three browsers, played to the end by clicking
only (the placement is simultaneous: every seat chooses at once); the standings on the
organiser's page show the three names."""

from __future__ import annotations

import re
import uuid

from .pw import choose, needs_chromium, shoot, state

pytestmark = needs_chromium
NAMES = ("Ada", "Bo", "Cy")


def create_on_the_organisers_page(page, server, tournament: str) -> list[str]:
    page.goto(server.url + "/organiser")
    page.fill("#key", server.key)
    page.click("#key-form button")
    page.wait_for_selector("body[data-ready=yes]")
    page.select_option("#game", "letter-of-marque")
    page.fill("#seats", "3")
    page.dispatch_event("#seats", "change")
    for seat, name in enumerate(NAMES, 1):
        page.fill(f"#players input[data-seat='{seat}']", name)
    page.fill("#name", "evening table 1")
    page.fill("#tournament", tournament)
    page.click("#create-button")
    page.wait_for_selector("#links input[data-link]")
    return [page.get_attribute(f"#links input[data-link^='seat {seat} ']", "value") for seat in (1, 2, 3)]


def test_three_players_play_letter_of_marque_by_clicking(browser, page, server, output_path):
    tournament = f"evening-{uuid.uuid4().hex[:6]}"
    page.set_viewport_size({"width": 1600, "height": 900})
    links = create_on_the_organisers_page(page, server, tournament)
    assert all(re.search(r"/join/[0-9a-f]{32}/\d#code=inv_", link) for link in links)

    contexts = [browser.new_context(viewport={"width": 420, "height": 900}) for _ in links]
    seats = []
    for ctx, link in zip(contexts, links):
        p = ctx.new_page()
        if link is links[0]:  # a link that names nobody: the player types a name on the page
            p.goto(link.split("&player=")[0])
            shoot(p, "join", output_path, ready="#form")
            p.fill("#player", "Ada")
            p.click("#take")
        else:
            p.goto(link)  # the name is in the link: the seat is taken at once
        p.wait_for_url(re.compile(r"/play/[0-9a-f]{32}/\d$"))  # the code has left the address bar
        seats.append(p)
    for p in seats:
        p.wait_for_selector("body[data-state=choose]")  # the placement: every seat at once
    assert {p.inner_text("#me") for p in seats} == {f"you are seat {n} ({name})" for n, name in enumerate(NAMES, 1)}
    shoot(seats[0], "seat", output_path)

    clicks = 0
    while not all(state(p) == "finished" for p in seats):
        acting = [p for p in seats if state(p) == "choose"]
        if not acting:  # another seat's click is on its way: wait for the next page to be asked
            seats[0].wait_for_function("() => 1", polling=50)  # one tick of the page's event loop
            continue
        for p in acting:
            if state(p) == "choose":
                choose(p)
                clicks += 1
        assert clicks < 400
    assert all("The game is over" in p.inner_text("#status") for p in seats)

    page.fill("#standings-of", tournament)
    page.dispatch_event("#standings-of", "change")
    # the filtered standings replace the ones the page opened with: wait for this tournament's heading
    page.wait_for_function("t => document.querySelector('#standings').innerText.includes(t)", arg=tournament)
    shown = page.inner_text("#standings")
    assert all(name in shown for name in NAMES), shown
    shoot(page, "organiser", output_path, ready="body[data-ready=yes]", reload=False)
    for ctx in contexts:
        ctx.close()
