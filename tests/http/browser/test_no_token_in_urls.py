"""No credential in any address (issue 42): a seat's token, an invitation code and a referee key
never stand in a URL the browser keeps. A player opens the invitation link, lands on the seat's
page, follows its replay link and comes back; the referee opens the organiser's link and follows
its replay link; an old viewer link with `#token=` is opened. Then no entry of the tab's history
(Chromium's own list, through the DevTools protocol), no link on the pages and no address bar
holds the token, the code or the key, and the viewer shows each one's own view all the same."""

from __future__ import annotations

import re

from service.http.client import Api

from .pw import needs_chromium

pytestmark = needs_chromium


def history(page) -> list[str]:
    cdp = page.context.new_cdp_session(page)
    try:
        return [e["url"] for e in cdp.send("Page.getNavigationHistory")["entries"]]
    finally:
        cdp.detach()


def links(page) -> list[str]:
    return page.eval_on_selector_all("a[href]", "els => els.map((e) => e.href)")


def test_no_token_code_or_key_in_any_url(browser, server, organiser):
    created = organiser.create("letter-of-marque", 2)
    gid, key = created["game_id"], created["referee_key"]
    code = organiser.invite(gid, 1, "Ada")
    ctx = browser.new_context()
    page = ctx.new_page()

    page.goto(f"{server.url}/join/{gid}/1#code={code}&player=Ada")
    page.wait_for_url(re.compile(rf"/play/{gid}/1$"))
    page.wait_for_selector("body[data-state]")
    token = page.evaluate(f"localStorage.getItem('privateer:seat:{gid}:1')")
    assert token and token.startswith("seat_")
    seen = [page.url, *links(page)]
    page.click("#viewer-link")
    page.wait_for_selector("body[data-ready=yes]")
    assert page.input_value("#who") == "token" and page.is_hidden("#weigh-seat-label")  # the seat's own view
    seen += [page.url, *links(page)]
    page.go_back()
    page.wait_for_selector("body[data-state]")
    seen += history(page)

    ref = ctx.new_page()
    ref.goto(f"{server.url}/referee/{gid}#key={key}")
    ref.wait_for_selector("body[data-state]")
    seen += [ref.url, *links(ref)]
    ref.click("#viewer-link")
    ref.wait_for_selector("body[data-ready=yes]")
    assert ref.input_value("#who") == "token" and ref.is_visible("#weigh-seat-label")  # the referee's view
    seen += [ref.url, *history(ref)]

    old = ctx.new_page()  # a link made before: the token in the fragment, taken once
    old.goto(f"{server.url}/games/{gid}/view#token={token}")
    old.wait_for_selector("body[data-ready=yes]")
    assert old.input_value("#who") == "token"
    seen += [old.url, *history(old)]

    assert len(seen) > 8
    for secret in (token, code, key):
        assert not [u for u in seen if secret in u], (secret[:8], seen)
    assert Api(server.url, token).status(gid)["seats_taken"] == [1]
    ctx.close()
