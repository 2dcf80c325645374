"""The replay viewer in a browser: readable at 420 px (the picture scrolls at a size people can
read, not shrunk to a thumbnail), arrow keys step through the replay, a bad game id gives a
page that says so, and a Loot pairs game shows its teams."""

from __future__ import annotations

import uuid

from .pw import advance, needs_chromium, shoot

pytestmark = needs_chromium


def test_the_viewer_at_420_and_1600_with_keys_teams_and_a_bad_id(page, server, table_factory, output_path):
    t = table_factory("loot", 4, options={"pairs": "true"})
    advance(server.db, t.gid, lambda m: m.k["steps"] >= 20, seed=5)
    page.set_viewport_size({"width": 420, "height": 900})
    page.goto(f"{server.url}/games/{t.gid}/view")
    page.wait_for_selector("body[data-ready=yes]")
    svg = page.locator("#picture svg")
    drawn = float(svg.get_attribute("width"))
    assert svg.bounding_box()["width"] >= 0.8 * drawn > 420  # wider than the screen: it scrolls
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 420  # the page itself does not
    texts = svg.locator("text").all_text_contents()
    assert "team 1" in texts and "team 2" in texts

    last = int(page.get_attribute("body", "data-version"))
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"() => document.body.dataset.version === '{last - 1}'")
    page.keyboard.press("Home")
    page.wait_for_function("() => document.body.dataset.version === '1'")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.body.dataset.version === '2'")
    page.keyboard.press("End")
    page.wait_for_function(f"() => document.body.dataset.version === '{last}'")
    shoot(page, "viewer", output_path, ready="body[data-ready=yes]")

    answer = page.goto(f"{server.url}/games/{uuid.uuid4().hex}/view")
    assert answer.status == 404 and answer.headers["content-type"].startswith("text/html")
    assert page.inner_text("h2") == "No such game" and "no game with id" in page.inner_text("#error")
