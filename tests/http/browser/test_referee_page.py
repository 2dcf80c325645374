"""The referee's page at a table: a Loot pairs game in table mode, its deal clicked card by
card and sent in one go, the seats' decisions clicked for them, a wrong card undone with a
reason and entered again, the game finished; its record equals the record the CLI makes
from the same inputs (`tools new --table`, then `tools table` reading them)."""

from __future__ import annotations

import json
import random
import subprocess
import sys

from service.http.client import Api

from .pw import choose, needs_chromium, shoot

pytestmark = needs_chromium


def moves_of(request, moves: list[str]) -> None:
    """What the page sent, as lines `tools table` reads."""
    if request.method != "POST":
        return
    body = json.loads(request.post_data or "{}")
    if request.url.endswith("/chance"):
        moves.append(" ".join(str(w) for w in body["words"]))
    elif request.url.endswith("/decisions"):
        moves.append(json.dumps(body["decision"], separators=(",", ":")))
    elif request.url.endswith("/corrections") and body.get("outcomes"):
        moves.append(f"back {body['outcomes']} {body['reason']}")
    elif request.url.endswith("/corrections"):
        moves.append(f"correct {body['to_version']} {body['reason']}")


def send_queue(page, n: int) -> None:
    assert page.inner_text("#send") == f"Send {n} outcomes" if n > 1 else "Send 1 outcome"
    before = page.get_attribute("body", "data-version")
    page.click("#send")
    page.wait_for_function(f"() => document.body.dataset.version !== {before!r}")


def click_outcome(page, selector: str) -> None:
    """Click an outcome and wait for the page to have asked what is awaited after it."""
    queued = page.evaluate("document.getElementById('queue').textContent")
    page.locator(selector).first.click()
    page.wait_for_function(f"() => document.getElementById('queue').textContent !== {queued!r}")


def finish_by_api(referee: Api, gid: str, rng: random.Random, moves: list[str]) -> None:
    """The rest of the game as a referee would enter it, through the same endpoints."""
    for _ in range(3000):
        aw = referee.get(f"/games/{gid}/awaited").json()
        if aw["finished"]:
            return
        a = aw["awaiting"]
        if a is not None:
            word = rng.choice([c["say"] for c in a["left"]] if a["kind"] == "card" else a["options"]) \
                if a["kind"] in ("card", "pick") else rng.randint(1, a["sides"])
            r = referee.post(f"/games/{gid}/chance", {"words": [word], "expected_version": aw["version"]})
            moves.append(str(word))
        else:
            seat = aw["to_act"][0]
            ch = referee.get(f"/games/{gid}/choices", params={"seat": seat}).json()
            decision = rng.choice(ch["choices"])["decision"]
            r = referee.post(f"/games/{gid}/decisions", {"decision": decision, "expected_version": ch["version"],
                                                         "seat": seat})
            moves.append(json.dumps(decision, separators=(",", ":")))
        assert r.status_code == 201, r.text
    raise AssertionError("the game did not end")


def cli(*args: str, db: str, stdin: str | None = None) -> str:
    p = subprocess.run([sys.executable, "-m", "tools", *args, "--db", db], input=stdin,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    return p.stdout


def test_a_loot_pairs_table_refereed_on_the_page(page, server, organiser, output_path, tmp_path):
    created = organiser.create("loot", 4, table=True, options={"pairs": "true"})
    gid, key = created["game_id"], created["referee_key"]
    moves: list[str] = []
    page.on("request", lambda request: moves_of(request, moves))
    page.set_viewport_size({"width": 1600, "height": 900})
    page.goto(f"{server.url}/referee/{gid}#key={key}")
    page.wait_for_selector("body[data-state=chance]")
    assert "one of the options (the dealer)" in page.inner_text("#status")

    # the deal in one go: the dealer, then six cards for each of the four seats, clicked one by one
    click_outcome(page, "#awaited button[data-option='2']")
    for k in range(24):
        # the status follows the page's question of what is awaited after the queue: wait for it
        page.wait_for_function("() => document.getElementById('status').innerText.includes('deal to seat')")
        click_outcome(page, "#awaited .cards button")
        if k == 11:  # half the deal clicked, nothing sent yet
            shoot(page, "referee-deal", output_path, ready="#queue", reload=False)
    page.wait_for_function("() => document.getElementById('status').innerText"
                           " === 'Nothing more is awaited after these: send them.'")
    send_queue(page, 25)
    page.wait_for_selector("body[data-state=decide]")
    assert len(moves) == 1 and len(moves[0].split()) == 25

    # the deal's last card was misread: taken back alone with a reason (the other 24 entries stand)
    last = moves[0].split()[-1]
    page.fill("#reason", "the last card of the deal misread")
    page.click("#undo-entry")
    asked = page.inner_text("#confirm-text")   # the card as the log says it (gold 3), not the word sent (gold-3)
    assert last.replace("-", " ") in asked and last not in asked and "deal to seat" in asked
    before = page.get_attribute("body", "data-version")
    page.click("#confirm-yes")
    page.wait_for_function(f"() => document.body.dataset.version !== {before!r}")
    page.wait_for_selector("body[data-state=chance]")
    assert "deal to seat" in page.inner_text("#status")
    click_outcome(page, "#awaited .cards button")
    send_queue(page, 1)
    page.wait_for_selector("body[data-state=decide]")
    assert moves[1] == "back 1 the last card of the deal misread" and len(moves) == 3

    # a seat draws; the referee clicks the wrong card, sends it, and undoes the step with a reason
    choose(page, "draw", within="#decisions")
    page.wait_for_selector("body[data-state=chance]")
    button = page.locator("#awaited .cards button").first
    wrong, printed = button.get_attribute("data-card"), button.text_content().split(" ×")[0]
    click_outcome(page, "#awaited .cards button")
    send_queue(page, 1)
    page.wait_for_selector("body[data-state=decide]")
    assert wrong in page.inner_text("#log") or printed in page.inner_text("#log")
    page.fill("#reason", f"card misread: it was not {wrong}")
    page.click("#undo")
    before = page.get_attribute("body", "data-version")
    page.click("#confirm-yes")
    page.wait_for_function(f"() => document.body.dataset.version !== {before!r}")
    page.wait_for_function("() => document.getElementById('log').textContent.includes('[retracted]')")
    choose(page, "draw", within="#decisions")
    page.wait_for_selector("body[data-state=chance]")
    click_outcome(page, f"#awaited .cards button:not([data-card='{wrong}'])")
    send_queue(page, 1)
    page.wait_for_selector("body[data-state=decide]")
    shoot(page, "referee", output_path)
    page.close()  # the rest through the API, as fast as a referee could click it

    referee = Api(server.url, key)
    finish_by_api(referee, gid, random.Random(36), moves)
    referee.close()

    db = str(tmp_path / "cli.db")
    cli_gid = cli("new", "loot", "--seats", "4", "--table", "--option", "pairs=true", db=db).strip()
    cli("table", cli_gid, db=db, stdin="\n".join(moves) + "\n")
    ours = cli("record", gid, db=server.db)
    theirs = cli("record", cli_gid, db=db)
    drop = ("[Date ", "[GameId ", "sign ", "end ")  # the day, the game's id, the service's signatures and signed end differ
    assert [ln for ln in ours.splitlines() if not ln.startswith(drop)] == \
           [ln for ln in theirs.splitlines() if not ln.startswith(drop)]
    assert "correct " in ours and "[Result " in ours
