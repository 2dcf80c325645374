"""The replay viewer in a real headless Chromium (Debian's `chromium`; `.ci/run`
installs it): the page at /games/{id}/view, stepped to turn 12, shows the board
`tools replay --to-turn 12 --json` gives, and the picture of it; a spectator's
page shows no hidden base."""

from __future__ import annotations

import html
import json
import random
import re
import subprocess
import sys
from uuid import UUID

import pytest

from service.app import Privateer
from service.http.client import Api

from .. import needs

pytestmark = pytest.mark.usefixtures("chromium")  # tests/conftest.py: missing, these tests fail


def dump_dom(url: str) -> str:
    p = subprocess.run([needs.chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=10000",
                        "--dump-dom", url], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr[-500:]
    return p.stdout


def shown(dom: str) -> dict:
    m = re.search(r'<pre id="board-json">(.*?)</pre>', dom, re.S)
    assert m and m.group(1), dom[:2000]
    return json.loads(html.unescape(m.group(1)))


def test_the_viewer_shows_turn_12_as_tools_replay_does(server, organiser):
    created = organiser.create("letter-of-marque", 3, name="viewer test")
    gid, referee = created["game_id"], created["referee_key"]
    app = Privateer(server.db)  # the game is played on in the same store
    rng = random.Random(12)
    agg = app.load(UUID(gid))
    m = agg.machine
    while not m.finished:
        seat = m.to_act()[0]
        agg.record(m.decide(seat, rng.choice(m.legal(seat)), app.chance_for(agg)))
        app.save_game(agg)
    app.close()
    assert m.turn() > 12
    dom = dump_dom(f"{server.url}/games/{gid}/view?turn=12#token={referee}")
    p = subprocess.run([sys.executable, "-m", "tools", "replay", gid, "--to-turn", "12", "--json", "--db", server.db],
                       capture_output=True, text=True, check=True)
    cli = json.loads(p.stdout)
    page = shown(dom)
    assert {k: page[k] for k in ("game_id", "version", "turn", "finished", "to_act", "board")} == \
           {k: cli[k] for k in ("game_id", "version", "turn", "finished", "to_act", "board")}
    assert 'data-turn="12"' in dom and "as the referee sees it" in dom  # the picture, for the referee
    assert "<svg" in dom and f"event {cli['version']} of" in dom
    # a spectator's page: the public view, no base of a ship still at sea and unrevealed
    public = shown(dump_dom(f"{server.url}/games/{gid}/view?turn=12"))
    hidden = [s for s in public["board"]["sea"] if not s.get("revealed")]
    assert all(s["armed"] == "hidden" for s in hidden)
    assert public["board"] == Api(server.url).get(f"/games/{gid}/replay", params={"to_turn": 12}).json()["board"]
