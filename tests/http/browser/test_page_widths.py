"""Every page at a phone's width (420 px) and a desk's (1600 px): the page itself never scrolls
sideways (wide tables and pictures scroll inside their own frame); the root leads to the
organiser's page and the service answers a favicon; the organiser's form keeps the names typed
when the number of seats changes (issue 45).

One server, one game of each kind made once for the module. With PRIVATEER_DOCS_SHOTS=1 the
organiser's page, the standings and a seat page are shot into docs/pages/ (PRIVATEER_SHOTS_SUFFIX
names the shots, e.g. ``-before``)."""

from __future__ import annotations

import os
import shutil
import uuid
from pathlib import Path

import httpx
import pytest

from service.app import Privateer
from service.http.client import Api
from service.simulate import simulate

from .pw import DOCS, REFRESH_DOCS, WIDTHS, advance, needs_chromium

pytestmark = needs_chromium
SUFFIX = os.environ.get("PRIVATEER_SHOTS_SUFFIX", "")


class Made:
    """The module's games: a seat page's game (three seats taken), a tournament, standings."""

    def __init__(self, server):
        org = Api(server.url, server.key)
        try:
            self.tournament = f"widths-{uuid.uuid4().hex[:6]}"
            app = Privateer(server.db)
            try:
                simulate("letter-of-marque", 3, 1, seed="widths-a", app=app, tournament=self.tournament,
                         players={"1": "Ada Lovelace-Byron", "2": "Bo", "3": "Cy"})
                simulate("loot", 3, 1, seed="widths-b", app=app, tournament=self.tournament,
                         players={"1": "Bo", "2": "Ada Lovelace-Byron", "3": "Cy"})
            finally:
                app.close()
            created = org.create("letter-of-marque", 3, tournament=self.tournament, name="a table with a long name",
                                 players={"1": "Ada Lovelace-Byron", "2": "Bo", "3": "Cy"})
            self.gid = created["game_id"]
            self.referee_key = created["referee_key"]
            self.tokens = {}
            for n in (1, 2, 3):
                joined = Api(server.url).join(self.gid, n, org.invite(self.gid, n))
                self.tokens[n] = joined["token"]
            self.invitation = org.invite(org.create("loot", 2)["game_id"], 1)
            r = org.post("/tournaments", {"game": "letter-of-marque", "table": 3, "rounds": 2, "name": self.tournament})
            self.tid = org.ok(r, 201)["tournament_id"]
            for player in ("Ada", "Bo", "Cy", "Dee"):
                org.ok(org.post(f"/tournaments/{self.tid}/players", {"player": player}), 201)
        finally:
            org.close()


@pytest.fixture(scope="module")
def made(server):
    return Made(server)


@pytest.fixture(scope="module")
def ctx(browser, server, made):
    c = browser.new_context(viewport={"width": 1600, "height": 900})
    c.add_init_script(f"localStorage.setItem('privateer:organiser', {server.key!r});"
                      f"localStorage.setItem('privateer:seat:{made.gid}:1', {made.tokens[1]!r});")
    yield c
    c.close()


@pytest.fixture(scope="module")
def tab(ctx):
    p = ctx.new_page()
    yield p
    p.close()


PAGES = {  # name: (address, what shows the page is drawn)
    "organiser": (lambda m: "/organiser", "body[data-ready=yes]"),
    "root": (lambda m: "/", "body[data-ready=yes]"),
    "standings": (lambda m: f"/standings?tournament={m.tournament}", "table"),
    "all-standings": (lambda m: "/standings", "body"),
    "seat": (lambda m: f"/play/{m.gid}/1", "body[data-state]"),
    "viewer": (lambda m: f"/games/{m.gid}/view", "body[data-ready=yes]"),
    "referee": (lambda m: f"/referee/{m.gid}#key={m.referee_key}", "body[data-state]"),
    "join": (lambda m: f"/join/{m.gid}/2", "body"),
    "tournaments": (lambda m: "/tournament", "body[data-ready=yes]"),
    "tournament": (lambda m: f"/tournament/{m.tid}", "body[data-ready=yes]"),
    "tournament-player": (lambda m: f"/tournament/{m.tid}/player?name=Ada", "body[data-state=shown]"),
    "no-such-game": (lambda m: f"/games/{uuid.uuid4().hex}/view", "#error"),
}
SHOTS = {"organiser", "standings", "seat"}


def open_at(tab, server, made, name: str, width: int) -> None:
    path, ready = PAGES[name]
    tab.set_viewport_size({"width": width, "height": 900})
    tab.goto(server.url + path(made))
    tab.wait_for_selector(ready, state="attached")
    if name == "organiser":  # the standings and games are read after the page is drawn
        tab.wait_for_selector("#standings table", state="attached")
    if name == "seat":
        tab.wait_for_function("() => document.getElementById('words').textContent.length > 20 && "
                              "document.querySelector('#picture svg, #picture img')")


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", PAGES)
def test_no_page_scrolls_sideways(tab, server, made, name, width, output_path):
    open_at(tab, server, made, name, width)
    if REFRESH_DOCS and name in SHOTS:
        out = Path(output_path)
        out.mkdir(parents=True, exist_ok=True)
        shot = out / f"{name}{SUFFIX}-{width}.png"
        tab.screenshot(path=str(shot), full_page=True)
        DOCS.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shot, DOCS / shot.name)
    wide = tab.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert wide[0] <= wide[1], f"{name} at {width} px is {wide[0]} px wide"


def test_the_root_opens_the_organisers_page_and_a_favicon_is_served(tab, server):
    tab.goto(server.url + "/")
    tab.wait_for_selector("body[data-ready=yes]")
    assert tab.url.rstrip("/").endswith("/organiser") or tab.title().startswith("privateer — the organiser")
    icon = httpx.get(server.url + "/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/")
    assert "default-src 'self'" in icon.headers["content-security-policy"]


def test_the_organisers_form_keeps_a_name_typed_after_the_seats_change(tab, server):
    tab.set_viewport_size({"width": 1600, "height": 900})
    tab.goto(server.url + "/organiser")
    tab.wait_for_selector("body[data-ready=yes]")
    tab.select_option("#game", "letter-of-marque")
    tab.click("#seats")
    tab.fill("#seats", "")
    tab.keyboard.type("2")
    tab.click("#players input[data-seat='1']")  # Seats loses its focus here
    tab.keyboard.type("Kai")
    assert tab.input_value("#players input[data-seat='1']") == "Kai"
    assert tab.locator("#players input[type=text]").count() == 2
    name = f"kai-{uuid.uuid4().hex[:6]}"
    tab.fill("#name", name)
    tab.click("#create-button")
    tab.wait_for_selector("#links input[data-link]")
    gid = tab.inner_text("#links li").rsplit(" — ", 1)[1].strip()
    org = Api(server.url, server.key)
    try:
        status = org.status(gid)
    finally:
        org.close()
    assert status["players"] == {"1": "Kai"}


def test_the_viewers_picture_zooms_inside_its_frame(tab, server, made):
    open_at(tab, server, made, "viewer", 420)
    svg = tab.locator("#picture svg")
    before = svg.bounding_box()["width"]
    tab.click("#zoom-in")
    assert svg.bounding_box()["width"] > 1.2 * before
    assert tab.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    tab.click("#zoom-fit")
    assert svg.bounding_box()["width"] <= tab.locator("#picture").bounding_box()["width"]
    tab.click("#first")
    tab.wait_for_function("() => document.body.dataset.version === '1'")
    assert svg.bounding_box()["width"] <= tab.locator("#picture").bounding_box()["width"]  # the zoom chosen stays


def test_a_game_that_ends_leaves_the_organisers_list_without_a_reload(tab, server):
    org = Api(server.url, server.key)
    try:
        gid = org.create("loot", 2, players={"1": "Ann", "2": "Ben"})["game_id"]
    finally:
        org.close()
    tab.set_viewport_size({"width": 1600, "height": 900})
    tab.goto(server.url + "/organiser")
    tab.wait_for_selector(f"#games tr[data-game='{gid}']")
    advance(server.db, gid, lambda m: m.finished)
    tab.wait_for_selector(f"#games tr[data-game='{gid}']", state="detached", timeout=10000)
    tab.wait_for_function("() => document.querySelector('#standings').innerText.includes('Ann')", timeout=10000)


def test_the_api_page_draws_the_operations(tab, server):
    """/docs shows the API's operations (its Swagger UI refused FastAPI's OpenAPI 3.1 document
    before: "Unable to render this definition"), within a phone's width."""
    tab.set_viewport_size({"width": 420, "height": 900})
    tab.goto(server.url + "/docs")
    tab.wait_for_selector(".opblock-summary-path", timeout=15000)
    assert "Unable to render" not in tab.inner_text("body")
    assert tab.locator(".opblock-summary-path", has_text="/choices").count() >= 1
    assert tab.evaluate("document.documentElement.scrollWidth") <= 420
