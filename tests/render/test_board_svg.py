"""Pictures (service/render/svg): every game draws at several points for the
referee and each seat as well-formed SVG naming its viewer; what is hidden from
a seat cannot change its picture; `replay --svg` writes one."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from uuid import uuid4

import pytest

from service.render.svg import board_svg
from service.views import board

from .test_board_text import GAMES, _hidden_change, played

NS = "{http://www.w3.org/2000/svg}"


def svg(machine, seat, names=None):
    return board_svg(board(uuid4(), machine, 100, seat), dict(machine.config, players=names or {}))


@pytest.mark.parametrize("game,seats", GAMES)
def test_every_viewer_gets_a_well_formed_picture(game, seats):
    for steps in (0, 30, 2000):
        g = played(game, seats, steps, b"s")
        for seat in [None] + list(range(1, seats + 1)):
            root = ET.fromstring(svg(g.machine, seat, {"1": "Ada"}))
            texts = [t.text or "" for t in root.iter(f"{NS}text")]
            assert ("the referee" if seat is None else f"seat {seat}") in texts[0]
            assert any("Ada" in t for t in texts)


@pytest.mark.parametrize("game,seats", GAMES)
def test_what_a_seat_may_not_see_cannot_change_its_picture(game, seats):
    checked = 0
    for steps in (3, 20, 60):
        g = played(game, seats, steps, b"h")
        for seat in range(1, seats + 1):
            for other in range(1, seats + 1):
                if other == seat:
                    continue
                before = svg(g.machine, seat)
                m = g.machine.copy()
                if not _hidden_change(game, m.s, other):
                    continue
                assert svg(m, seat) == before, (game, steps, seat, other)
                checked += 1
    assert checked >= 3


def test_replay_draws_a_picture(cli, tmp_path):
    gid = cli.ok("new", "loot", "--seats", "3", "--player", "1=Ada").strip()
    out = tmp_path / "t.svg"
    p = cli.run("replay", gid, "--seat", "2", "--svg", str(out), check=0)
    assert "drew" in p.stderr and "as seat 2 sees it" in p.stdout
    root = ET.parse(out).getroot()
    assert root.tag == f"{NS}svg"
