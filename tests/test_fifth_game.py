"""A fifth game, added by one registration and its own package (tests/dice_race,
registered with ``PRIVATEER_GAMES=tests.dice_race``): the command line, the HTTP
API, both renderers and ``bench.golden`` pick it up with nothing else changed."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from contextlib import redirect_stdout
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENV = {"PRIVATEER_GAMES": "tests.dice_race"}
ORGANISER = "org-fifth-game"


@pytest.fixture
def registered(monkeypatch):
    monkeypatch.setenv("PRIVATEER_GAMES", "tests.dice_race")


def test_the_registry_lists_it_after_the_four(registered):
    from service.kernel.games import game_names, games_said, get_rules

    assert game_names()[-1] == "dice-race" and len(game_names()) == 5
    assert "dice-race (2 seats" in games_said()
    assert get_rules("dice-race").title == "Dice Race"


def test_without_the_setting_it_is_unknown(monkeypatch):
    from service.kernel.errors import BadInput
    from service.kernel.games import game_names, registration

    monkeypatch.delenv("PRIVATEER_GAMES", raising=False)
    assert "dice-race" not in game_names()
    with pytest.raises(BadInput, match="unknown game 'dice-race'"):
        registration("dice-race")


def tools(db, *args, check=0):
    env = dict(os.environ, PRIVATEER_DB=db, PYTHONPATH=str(ROOT), **ENV)
    p = subprocess.run([sys.executable, "-m", "tools", *map(str, args)], capture_output=True, text=True,
                       env=env, cwd=ROOT)
    assert p.returncode == check, (args, p.stdout, p.stderr)
    return p.stdout


def test_the_command_line_plays_replays_and_audits_it(tmp_path):
    db = str(tmp_path / "race.db")
    assert "dice-race" in tools(db, "new", "--help")
    gid = tools(db, "new", "dice-race", "--seats", "2", "--player", "1=Ada", "--player", "2=Bo").strip()
    moves = 0
    while True:
        st = json.loads(tools(db, "status", gid, "--json"))
        if st["finished"]:
            break
        seat = st["to_act"][0]
        listed = json.loads(tools(db, "legal", gid, "--seat", seat, "--json"))
        assert listed == [{"action": "roll", "dice": 1}, {"action": "roll", "dice": 2}]
        tools(db, "act", gid, "--seat", seat, json.dumps(listed[moves % 2]))
        moves += 1
    assert 20 in st["scores"].values() and st["winners"]
    text = tools(db, "replay", gid, "--to-turn", 1)
    assert "Dice Race — turn 1" in text and "The race to 20" in text and "seat 1 (Ada)" in text
    picture = tmp_path / "race.svg"
    tools(db, "replay", gid, "--to-turn", 2, "--svg", picture)
    assert "Dice Race — turn 2" in picture.read_text()
    assert "moves" in tools(db, "log", gid)
    tools(db, "audit", gid)
    bad = tools(db, "act", gid, "--seat", 1, '{"action": "fly"}', check=3)
    assert bad == ""


def test_the_http_api_creates_and_plays_it(tmp_path, registered):
    from fastapi.testclient import TestClient

    from service.http.app import create_app

    org = {"Authorization": f"Bearer {ORGANISER}"}
    with TestClient(create_app(str(tmp_path / "api.db"), ORGANISER)) as client:
        assert "dice-race" in client.get("/health").json()["games"]
        made = client.post("/games", json={"game": "dice-race", "seats": 2}, headers=org)
        assert made.status_code == 201, made.text
        gid = made.json()["game_id"]
        tokens = {}
        for n in (1, 2):
            code = client.post(f"/games/{gid}/invitations", json={"seat": n}, headers=org).json()["code"]
            tokens[n] = client.post(f"/games/{gid}/seats/{n}/join", json={"code": code}).json()["token"]
        for _ in range(3):
            st = client.get(f"/games/{gid}").json()
            seat = st["to_act"][0]
            auth = {"Authorization": f"Bearer {tokens[seat]}"}
            legal = client.get(f"/games/{gid}/legal", headers=auth).json()
            r = client.post(f"/games/{gid}/decisions", headers=auth,
                            json={"decision": legal["decisions"][0], "expected_version": legal["version"]})
            assert r.status_code == 201, r.text
            assert [e["type"] for e in r.json()["events"]] == ["Decided", "DiceRolled", "Moved", "TurnStarted"]
        view = client.get(f"/games/{gid}/view").json()
        assert view["game"] == "dice-race" and sum(view["board"]["at"].values()) > 0
        picture = client.get(f"/games/{gid}/picture")
        assert picture.status_code == 200 and "Dice Race" in picture.text


def test_both_renderers_draw_its_view(registered):
    from uuid import uuid4

    from service.kernel.local import LocalGame
    from service.render import board_text
    from service.render.table import to_text
    from service.render.svg import board_svg
    from service.views import board

    g = LocalGame("dice-race", 2, seed=b"fifth".ljust(32, b"."))
    g.act(g.machine.to_act()[0], {"action": "roll", "dice": 1})
    b = board(uuid4(), g.machine, len(g.events), 1)
    config = dict(g.machine.config, players={"1": "Ada"})
    text = to_text(board_text(b, config))
    assert "Dice Race — turn 2" in text and "seat 1 (Ada)" in text and "Last roll: [" in text
    svg = board_svg(b, config)
    assert svg.startswith("<svg") and "Dice Race — turn 2" in svg and "seat 1 (Ada)" in svg


def test_bench_golden_plays_it(registered):
    from bench import golden

    out = io.StringIO()
    with redirect_stdout(out):
        golden.main(["--only", "dice-race", "--games", "2"])
    line = out.getvalue().split()
    assert line[0] == "dice-race" and len(line[1]) == 64
    assert golden.digest("dice-race", 2) == line[1]  # the same seeded games, the same digest
    assert golden.digest("dice-race", 3) != line[1]
