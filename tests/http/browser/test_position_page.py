"""The organiser's page creates a game from a stated position (the textarea, JSON as
docs/positions.md describes it): the game starts at once, from the position; a position
the rules refuse is shown in words and creates nothing."""

import json
from pathlib import Path

from .pw import needs_chromium

BATTLE = (Path(__file__).resolve().parents[3] / "docs" / "positions" / "merchants-and-marauders-battle.json").read_text()

pytestmark = needs_chromium


def open_page(page, server):
    page.goto(server.url + "/organiser")
    page.fill("#key", server.key)
    page.click("#key-form button")
    page.wait_for_selector("body[data-ready=yes]")
    page.select_option("#game", "merchants-and-marauders")
    page.fill("#seats", "2")
    page.dispatch_event("#seats", "change")


def test_the_organiser_starts_the_books_battle_from_its_position(page, server, public):
    open_page(page, server)
    page.fill("#position", BATTLE)
    page.click("#create-button")
    page.wait_for_selector("#links input[data-link]")
    link = page.get_attribute("#links input[data-link^='seat 1']", "value")
    gid = link.split("/join/")[1].split("/")[0]
    status = public.status(gid)
    assert status["to_act"] == [1] and status["turn"] == 1     # started at once, Felipe to play


def test_a_refused_position_is_said_and_creates_nothing(page, server):
    open_page(page, server)
    page.fill("#position", json.dumps({"players": [{"captain": "Felipe"}, {"captain": "Felipe"}]}))
    page.click("#create-button")
    page.wait_for_function("() => document.querySelector('#refusal').textContent.length > 0")
    assert "captain Felipe (surname unknown) is stated twice" in page.text_content("#refusal")
    page.fill("#position", "{not json")
    page.click("#create-button")
    page.wait_for_function("() => document.querySelector('#refusal').textContent.includes('not JSON')")
