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


def test_merchants_and_marauders_names_every_npc_in_full_and_their_labels_do_not_overlap():
    """An NPC's label is its whole name (``Man-o-War England``, not ``man o war``), inside
    the map, and NPCs sharing a zone are stacked, not drawn over one another."""
    from service.render.svg.merchants_and_marauders import WIDTH, npc_label

    seen = 0
    for seed in (b"n", b"p", b"q"):
        g = played("merchants-and-marauders", 3, 0, seed)
        rng = __import__("random").Random(seed)
        while not g.machine.finished:
            s = g.to_act()[0]
            g.act(s, rng.choice(g.legal(s)))
            npcs = g.machine.s["board"]["npcs"]
            if len(npcs) < 2 or g.machine.k["steps"] % 11:
                continue
            root = ET.fromstring(svg(g.machine, None))
            texts = {t.text for t in root.iter(f"{NS}text")}
            for npc in npcs:
                assert npc_label(npc) in texts
            boxes = [tuple(float(r.get(k)) for k in ("x", "y", "width", "height"))
                     for r in root.iter(f"{NS}rect") if r.get("fill") == "#222"]
            assert len(boxes) == len(npcs)
            for i, (x, y, w, h) in enumerate(boxes):
                assert 10 <= x and x + w <= WIDTH - 10
                for x2, y2, w2, h2 in boxes[i + 1:]:
                    assert x + w <= x2 or x2 + w2 <= x or y + h <= y2 or y2 + h2 <= y, (boxes, npcs)
            seen += 1
    assert seen >= 5


def test_a_long_ship_name_is_written_whole_on_its_card():
    """The Kaiser's Pirates: a name longer than a card's line (Kronprinz Wilhelm, Prinz
    Eitel Friedrich) is split over two lines, never cut."""
    from service.render.svg.kaisers_pirates import _lines

    assert _lines("Kronprinz Wilhelm") == ["Kronprinz", "Wilhelm"]
    assert _lines("Prinz Eitel Friedrich") in (["Prinz Eitel", "Friedrich"], ["Prinz", "Eitel Friedrich"])
    assert _lines("Leipzig") == ["Leipzig"]
    for seed in (b"k", b"l"):
        g = played("kaisers-pirates", 3, 40, seed)
        root = ET.fromstring(svg(g.machine, None))
        texts = [t.text or "" for t in root.iter(f"{NS}text")]
        for p in board(uuid4(), g.machine, 100, None)["board"]["players"].values():
            for v in p["ships"] + p["merchants"]:
                from service.render.kaisers_pirates import _names

                name = _names(g.machine.config)[0].get(v["ship"])
                if name:
                    assert " ".join(_lines(name)) == name and all(line in texts for line in _lines(name))


def test_letter_of_marque_counts_in_words_one_point_two_points():
    from service.render.common import count

    assert (count(1, "point"), count(2, "point"), count(0, "cannon card")) == ("1 point", "2 points", "0 cannon cards")
    for steps in (10, 40, 80, 2000):
        g = played("letter-of-marque", 4, steps, b"c")
        pic = svg(g.machine, None)
        for wrong in (" 1 points", ">1 cannon cards", " 1 treasures", " 1 ships"):
            assert wrong not in pic
