"""A bot in a seat, from the organiser's page: Letter of Marque for two, seat 2 played by the
`ismcts` bot (the service plays its turns: the page names its seat a bot from the status's
`bots`); Ada takes seat 1 through her link, plays, and asks
"what were my options?": her last choice's decisions in words with their estimated win rates.
The viewer, opened with her token, weighs her options at the point it shows."""

from __future__ import annotations

import re

from .pw import choose, needs_chromium, shoot

pytestmark = needs_chromium


def test_a_game_with_a_bot_created_on_the_organisers_page(browser, page, server, output_path):
    page.set_viewport_size({"width": 1600, "height": 900})
    page.goto(server.url + "/organiser")
    page.fill("#key", server.key)
    page.click("#key-form button")
    page.wait_for_selector("body[data-ready=yes]")
    page.select_option("#game", "letter-of-marque")
    page.fill("#seats", "2")
    page.press("#seats", "Tab")  # the seats' fields are laid out again as the number is left
    page.fill("#players input[data-seat='1']", "Ada")
    page.select_option("#players select[data-seat='2']", "ismcts")
    assert page.is_disabled("#players input[data-seat='2']")
    page.fill("#name", "against the bot")
    page.click("#create-button")
    page.wait_for_selector("#links li[data-bot='2']")
    assert page.inner_text("#links li[data-bot='2']") == "seat 2: ismcts (bot), played by the service"
    assert page.locator("#links input[data-link^='seat ']").count() == 1  # a link for seat 1 only
    link = page.get_attribute("#links input[data-link^='seat 1 ']", "value")
    shoot(page, "organiser-bot", output_path, ready="body[data-ready=yes]", reload=False)

    ctx = browser.new_context(viewport={"width": 1600, "height": 900})
    ada = ctx.new_page()
    ada.goto(link)
    ada.wait_for_url(re.compile(r"/play/[0-9a-f]{32}/1$"))
    ada.wait_for_selector("body[data-state=choose]")  # the bot's seat was the last: the game started
    assert ada.inner_text("#me") == "you are seat 1 (Ada)"
    # the page names the bot's seat from the status's `bots` (how the seat was taken), not its name
    assert ada.evaluate("async () => { const st = await (await fetch(location.pathname.replace("
                        "/^\\/play\\/(\\w+)\\/1$/, '/games/$1'))).json(); "
                        "return [P.who(2, st.players, st.bots), P.who(2, st.players, {})]; }") == \
        ["seat 2 (ismcts, a bot)", "seat 2 (ismcts (bot))"]
    choose(ada)
    ada.wait_for_selector("body[data-state=choose]", timeout=90000)  # the bot played its part (a search: as below)
    # the choices are counted once the bot has nothing left to do and the page shows the game's version
    # (the bot's run of decisions may still be going on while Ada's page already offers her some)
    ada.wait_for_function("async () => { const st = await (await fetch(location.pathname.replace("
                          "/^\\/play\\/(\\w+)\\/1$/, '/games/$1'))).json(); "
                          "return JSON.stringify(st.to_act) === '[1]' && document.body.dataset.state === 'choose'; }",
                          timeout=90000, polling=200)
    def drawn() -> tuple[str | None, int]:
        return ada.get_attribute("body", "data-version"), ada.locator("#choices button.choice").count()

    before, now = None, drawn()
    while now != before:  # until the page has drawn the game as the bot left it (the stream's last news)
        ada.wait_for_timeout(500)
        before, now = now, drawn()
    shown = now[1]
    ada.fill("#playouts", "60")
    ada.click("#weigh-now")
    ada.wait_for_selector("#weighed[data-done=yes]", timeout=90000)  # (as for the last choice below)
    assert ada.locator("#weighed tr").count() == shown + 1  # a row per decision open now
    ada.click("#weigh-last")
    # (the answer comes once the analysis has played out: on a loaded machine, beside the
    # bot's own search, that can take longer than Playwright's 30 s default)
    ada.wait_for_function("() => document.querySelector('#weigh-status').innerText.includes('last choice')",
                          timeout=90000)
    ada.wait_for_selector("#weighed[data-done=yes]", timeout=90000)
    rows = ada.locator("#weighed tr").all_inner_texts()
    assert re.search(r"\d+%\s+\S+\s+\d+$", rows[1]), rows
    shoot(ada, "seat-options", output_path, ready="#weighed[data-done=yes]", reload=False)

    viewer = ctx.new_page()
    viewer.goto(server.url + ada.get_attribute("#viewer-link", "href"))
    viewer.wait_for_selector("body[data-ready=yes]")
    assert viewer.is_hidden("#weigh-seat-label")  # a seat weighs its own options
    viewer.fill("#weigh-playouts", "60")
    viewer.click("#weigh")
    viewer.wait_for_selector("#weighed[data-done=yes]", timeout=90000)
    assert "seat 1's options" in viewer.inner_text("#weigh-status")
    shoot(viewer, "viewer-options", output_path, ready="#weighed[data-done=yes]", reload=False)
    ctx.close()
