"""What the browser tests share: Chromium (tests/needs.py: missing, they fail), screenshots, and the pages' own signals
(``body[data-state]``, ``body[data-version]``) to wait on instead of sleeping."""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path
from uuid import UUID

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from event_store.signing import decision_message, sign
from service.app import Privateer
from service.seat_keys import seat_key

needs_chromium = pytest.mark.usefixtures("chromium")  # tests/conftest.py: these tests never download a browser
DOCS = Path(__file__).resolve().parents[3] / "docs" / "pages"
# the README's copies are refreshed only when asked (PRIVATEER_DOCS_SHOTS=1): a test run leaves
# the source tree as it found it
REFRESH_DOCS = os.environ.get("PRIVATEER_DOCS_SHOTS") == "1"
WIDTHS = (420, 1600)


def shoot(page, name: str, output_path: str, ready: str = "body[data-state]", reload: bool = True) -> list[Path]:
    """The page at 420 and 1600 px (loaded again at each width, as a person opening it there
    would, unless ``reload`` is False: then as it stands, laid out again), into the test's
    output dir and, with PRIVATEER_DOCS_SHOTS=1, for the README, docs/pages/."""
    out = Path(output_path)
    out.mkdir(parents=True, exist_ok=True)
    shots = []
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        if reload:
            page.reload()
        page.wait_for_selector(ready, state="attached")
        path = out / f"{name}-{width}.png"
        page.screenshot(path=str(path), full_page=True)
        if REFRESH_DOCS:
            DOCS.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, DOCS / path.name)
        shots.append(path)
    return shots


def choose(page, text: str | None = None, within: str = "#choices") -> bool:
    """Click a decision (the first, or the first whose words hold ``text``), confirm it, and
    wait until the page shows the game after it. False if the page has nothing to choose any
    more (the game moved on before the click: the page then shows what is open now)."""
    for _ in range(10):
        if within == "#choices" and state(page) != "choose":
            return False
        before = page.get_attribute("body", "data-version")
        button = page.locator(f"{within} button.choice", has_text=text) if text else page.locator(f"{within} button.choice")
        try:
            button.first.click(timeout=5000)
            page.click("#confirm-yes", timeout=2000)
        except PlaywrightTimeout:  # the choices were shown again meanwhile: look again
            continue
        try:
            page.wait_for_function(f"() => document.body.dataset.version !== {before!r} || "
                                   "document.body.dataset.state !== 'choose'", timeout=15000)
        except PlaywrightTimeout:
            raise AssertionError(f"the page did not move on after a confirmed choice: {page.inner_text('#refusal')!r} "
                                 f"{page.inner_text('#status')!r}") from None
        return True
    raise AssertionError(f"the choice was never confirmed: {page.inner_text('#refusal')!r}")


def state(page) -> str | None:
    return page.get_attribute("body", "data-state")


def open_seat(browser, server, gid: str, seat: int, token: str, width: int = 1600):
    """A browser of its own holding seat ``seat``'s token (as the invitation link leaves it), on
    the seat's page."""
    ctx = browser.new_context(viewport={"width": width, "height": 900})
    ctx.add_init_script(f"localStorage.setItem('privateer:seat:{gid}:{seat}', {token!r});")
    page = ctx.new_page()
    page.goto(f"{server.url}/play/{gid}/{seat}")
    page.wait_for_selector("body[data-state]")
    return page


class GameOver(AssertionError):
    """``advance``: the game ended first (a seeded game's chance is the server's, not the test's)."""


def advance(db: str, gid: str, stop, bot: str = "random", seed: int = 0, limit: int = 3000,
            keys: dict[int, bytes] | None = None) -> None:
    """Play the game on in its store with the rules' own bot until ``stop(machine)``, each decision
    as its seat would send it: signed with the seat's key (``keys``: seat -> raw private key) when
    the seat registered one (spec/SPEC.md §6a), and checked as the service checks it
    (``signed_fields``). A seat whose key the test does not hold (a browser's, which never leaves
    it) is not played: refused, as the service would refuse its unsigned decision. Each decision goes
    through ``Privateer.act``, the service's own check of it."""
    app = Privateer(db)
    try:
        game_id = UUID(gid)
        choose_for = app.load(game_id).machine.rules.bots[bot]
        rng = random.Random(seed)
        for _ in range(limit):
            agg = app.load(game_id)
            m = agg.machine
            if stop(m):
                return
            if m.finished:
                raise GameOver("the game ended before it came to the point")
            seat = m.to_act()[0]
            decision = choose_for(m.s, seat, m.legal(seat), rng)
            signature = None
            if seat_key(m, seat) is not None:
                if seat not in (keys or {}):
                    raise AssertionError(f"seat {seat} signs its own decisions (its key is its browser's): advance "
                                         "cannot decide for it; play it on its page, or give advance its key")
                signature = sign((keys or {})[seat], decision_message(game_id.bytes, seat, m.seen(seat, agg.version),
                                                                      decision)).hex()
            app.act(game_id, seat, decision, agg.version, signature=signature)
        raise AssertionError("the game never came to the point")
    finally:
        app.close()


def offered(m, action: str) -> bool:
    return any(d.get("action") == action for s in m.to_act() for d in m.legal(s))
