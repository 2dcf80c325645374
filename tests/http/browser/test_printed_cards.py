"""The organiser loads printed cards on the organiser's page: a file that is not a catalog is
refused with what is wrong named; a good one is listed under Cards for its game, and a game
created with it speaks the printed names in its log."""

from __future__ import annotations

import json
from pathlib import Path

from service.http.client import Api

from .pw import needs_chromium, shoot

pytestmark = needs_chromium
DATA = Path(__file__).resolve().parents[3] / "service" / "aggregates"


def _open(page, server):
    page.goto(server.url + "/organiser")
    page.fill("#key", server.key)
    page.click("#key-form button")
    page.wait_for_selector("body[data-ready=yes]")


def test_printed_cards_loaded_from_the_organisers_page(page, server, tmp_path, output_path):
    cat = json.loads((DATA / "merchants_and_marauders" / "data" / "catalog.json").read_text())
    for c in cat["captains"]["value"]:
        c["name"] = "Capitaine " + c["id"].replace("_", " ").title()
    good = tmp_path / "printed.json"
    good.write_text(json.dumps(cat))
    bad = tmp_path / "bad.json"
    cat["captains"]["value"][0]["seamanship"] = "strong"
    bad.write_text(json.dumps(cat))
    page.set_viewport_size({"width": 420, "height": 900})
    _open(page, server)

    page.select_option("#catalog-game", "merchants-and-marauders")
    page.set_input_files("#catalog-file", str(bad))
    page.click("#catalog-button")
    page.wait_for_function("() => document.querySelector('#catalog-refusal').textContent.length > 0")
    refusal = page.inner_text("#catalog-refusal")
    assert refusal.startswith("Not loaded:") and "seamanship" in refusal, refusal

    page.fill("#catalog-name", "our printed captains")
    page.set_input_files("#catalog-file", str(good))
    page.click("#catalog-button")
    page.wait_for_function("() => document.querySelector('#catalog-said').textContent.length > 0")
    assert page.inner_text("#catalog-refusal") == ""
    assert page.evaluate("document.documentElement.scrollWidth") <= 420
    shoot(page, "printed-cards", output_path, ready="body[data-ready=yes]", reload=False)

    page.select_option("#game", "merchants-and-marauders")
    page.dispatch_event("#game", "change")
    options = page.eval_on_selector_all("#catalog option", "os => os.map(o => o.textContent)")
    assert any(o.startswith("our printed captains") for o in options), options
    page.select_option("#catalog", label=next(o for o in options if o.startswith("our printed captains")))
    page.fill("#seats", "2")
    page.dispatch_event("#seats", "change")
    page.click("#create-button")
    page.wait_for_selector("#links input[data-link=referee]")
    referee_link = page.get_attribute("#links input[data-link=referee]", "value")
    gid, key = referee_link.split("/referee/")[1].split("#key=")
    referee = Api(server.url, key.replace("%5F", "_"))
    try:
        referee.ok(referee.post(f"/games/{gid}/start", {}))  # the seats are not taken: the referee starts it
        log = referee.ok(referee.get(f"/games/{gid}/log"))
    finally:
        referee.close()
    drawn = [e["text"] for e in log["events"] if "draws a captain" in e["text"]]
    assert len(drawn) == 2 and all("Capitaine " in t for t in drawn), drawn
