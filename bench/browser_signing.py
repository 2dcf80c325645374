"""A seat's signing of its decision in the browser, as a ratio of the server's unsigned step.

``python -m bench.browser_signing [--signs N] [--rounds N] [--decisions N] [--json]``

The seat's page signs each decision it sends (service/http/pages/seatkey.js): the
message ``canon(["privateer-decision-v1", game id, seat, seat version, decision])`` written
in the page, then Ed25519 by WebCrypto with the seat's key, which is not extractable and is
kept in IndexedDB. Here Debian's Chromium (as the browser tests launch it:
``$PRIVATEER_TEST_CHROMIUM``, else ``chromium`` on the PATH), driven by Playwright, runs
the page's own seatkey.js on a page of its own (served by Playwright on a secure origin,
as WebCrypto needs), with a key made there, and times:

* ``page_sign_us``: ``SeatKey.sign`` as the page calls it for a decision (the key as the
  page holds it, read from IndexedDB once a page; the message written, the signature made
  and turned into hex);
* ``webcrypto_sign_us``: ``crypto.subtle.sign`` alone over the same message.

Each is the wall time of ``--signs`` signatures one after the other, divided by their
number (the page's clock is coarsened: a batch is timed, not one call), the best of
``--rounds`` batches. In the same run, ``server_unsigned_step_us`` is the server's unsigned
step, CPU per step, median of ``--rounds`` rounds of a seeded Loot game as bench/signing.py
plays it (``Unsigned``: no head signed, no seat key). Reported: each browser figure as a
ratio of that step.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import tempfile
from pathlib import Path

from bench.signing import Unsigned, play

PAGES = Path(__file__).resolve().parents[1] / "service" / "http" / "pages"
ORIGIN = "https://bench.privateer.invalid"  # never resolved: Playwright answers every request to it
GAME = "0123456789abcdef0123456789abcdef"
DECISION = {"action": "sail", "to": "port-royal", "cards": ["blue-4", "red-2"], "gold": 3}

PAGE = """<!doctype html><html><head><meta charset="utf-8">
<script src="/seatkey.js"></script></head><body></body></html>"""

TIMED = """async ([game, decision, n]) => {
  const keys = await crypto.subtle.generateKey({name: "Ed25519"}, false, ["sign", "verify"]);
  await SeatKey.write({id: `${game}:1`, keys, registered: true});
  await SeatKey.sign(game, 1, 1, decision);  // warm
  let t = performance.now();
  for (let i = 0; i < n; i++) { await SeatKey.sign(game, 1, 40 + i, decision); }
  const page = (performance.now() - t) / n;
  const message = SeatKey.canon(["privateer-decision-v1", SeatKey.unhex(game), 1, 40, decision]);
  t = performance.now();
  for (let i = 0; i < n; i++) { await crypto.subtle.sign({name: "Ed25519"}, keys.privateKey, message); }
  const alone = (performance.now() - t) / n;
  return {page, alone};
}"""


def chromium_path() -> str:
    path = os.environ.get("PRIVATEER_TEST_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        raise SystemExit("no chromium here (set $PRIVATEER_TEST_CHROMIUM to its path)")
    return path


def browser_signing(signs: int, rounds: int) -> dict[str, float]:
    """The page's signing of one decision, in microseconds (best of ``rounds`` batches of ``signs``)."""
    from playwright.sync_api import sync_playwright

    script = (PAGES / "seatkey.js").read_text(encoding="utf-8")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path())
        try:
            page = browser.new_page()

            def answer(route) -> None:
                if route.request.url.endswith("/seatkey.js"):
                    route.fulfill(body=script, content_type="text/javascript")
                else:
                    route.fulfill(body=PAGE, content_type="text/html")

            page.route(f"{ORIGIN}/**", answer)
            page.goto(f"{ORIGIN}/play")
            if not page.evaluate("window.isSecureContext && !!window.SeatKey"):
                raise SystemExit("the bench page is not a secure context with seatkey.js loaded")
            runs = [page.evaluate(TIMED, [GAME, DECISION, signs]) for _ in range(rounds)]
        finally:
            browser.close()
    return {"page_sign_us": round(min(r["page"] for r in runs) * 1000, 1),
            "webcrypto_sign_us": round(min(r["alone"] for r in runs) * 1000, 1)}


def server_unsigned(rounds: int, decisions: int) -> float:
    """The server's unsigned step, CPU microseconds per step (median of ``rounds``)."""
    tmp = Path(tempfile.mkdtemp(prefix="privateer-browser-signing-"))
    try:
        app = Unsigned(str(tmp / "unsigned.db"))
        play(app, 5, 999)  # warm
        return round(statistics.median(play(app, decisions, r) for r in range(rounds)) * 1e6, 1)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def measure(signs: int = 200, rounds: int = 5, decisions: int = 100) -> dict:
    browser = browser_signing(signs, rounds)
    step = server_unsigned(rounds, decisions)
    return {"signs": signs, "rounds": rounds, "decisions_per_round": decisions, **browser,
            "server_unsigned_step_us": step,
            "page_sign_ratio": round(browser["page_sign_us"] / step, 3),
            "webcrypto_sign_ratio": round(browser["webcrypto_sign_us"] / step, 3)}


def main() -> None:
    """``python -m bench.browser_signing``: the figures, in words or as JSON."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--signs", type=int, default=200)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--decisions", type=int, default=100)
    p.add_argument("--json", action="store_true")
    a = p.parse_args()
    r = measure(a.signs, a.rounds, a.decisions)
    if a.json:
        print(json.dumps(r, indent=2))
        return
    print(f"a seat's page signing a decision (seatkey.js: its key, the message, WebCrypto Ed25519, hex): "
          f"{r['page_sign_us']} us in Chromium, {r['page_sign_ratio']} of the server's unsigned step "
          f"({r['server_unsigned_step_us']} us CPU); WebCrypto's signing alone {r['webcrypto_sign_us']} us, "
          f"ratio {r['webcrypto_sign_ratio']} (best of {r['rounds']} batches of {r['signs']})")


if __name__ == "__main__":
    main()
