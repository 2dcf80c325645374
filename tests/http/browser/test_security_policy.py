"""The pages work under their Content-Security-Policy (service/http/headers.py): each page
opened in Chromium draws what it draws with no violation reported (no inline script or
style refused), and /docs starts Swagger UI from the service's own files."""

from __future__ import annotations

from .pw import needs_chromium, open_seat

pytestmark = needs_chromium

WATCH = ("window.__refused = []; document.addEventListener('securitypolicyviolation', "
         "(e) => window.__refused.push(e.violatedDirective + ' ' + e.blockedURI));")


def _refused(page) -> list[str]:
    return page.evaluate("window.__refused")


def test_each_page_runs_under_the_policy(browser, server, table_factory):
    t = table_factory("loot", 2)
    page = open_seat(browser, server, t.gid, 1, t.tokens[1])
    page.context.add_init_script(WATCH)
    page.reload()
    page.wait_for_selector("body[data-state]")
    page.wait_for_selector("#picture svg")
    assert _refused(page) == []

    ctx = browser.new_context()
    ctx.add_init_script(WATCH)
    ctx.add_init_script(f"localStorage.setItem('privateer:referee:{t.gid}', {t.referee_key!r});")
    p = ctx.new_page()
    for path, ready in ((f"/games/{t.gid}/view", "body[data-ready=yes]"), (f"/referee/{t.gid}", "body[data-state]"),
                        ("/organiser", "#key-form"), ("/standings", "h1"),
                        ("/docs", "#swagger-ui .swagger-ui"), ("/games/00000000000000000000000000000000/view", "h2")):
        p.goto(server.url + path)
        p.wait_for_selector(ready, state="attached")
        assert _refused(p) == [], path
    ctx.close()
    page.context.close()
