"""Standings over HTTP: JSON for scripts, a page for a browser, by named player."""

import httpx

from service.app import Privateer
from service.simulate import simulate


def test_standings_as_data_and_as_a_page(server):
    app = Privateer(server.db)
    simulate("letter-of-marque", 2, 2, seed="page-a", app=app, tournament="page", players={"1": "Ada", "2": "Bo"})
    simulate("loot", 2, 1, seed="page-b", app=app, tournament="page", players={"1": "Bo", "2": "Ada"})
    open_game = app.create("loot", 2, tournament="page", players={"1": "Ada", "2": "Bo"})
    app.close()
    rows = httpx.get(server.url + "/standings", params={"tournament": "page"}).json()
    assert {(r["game"], r["player"]) for r in rows} == {(g, p) for g in ("letter-of-marque", "loot", "all games")
                                                         for p in ("Ada", "Bo")}
    assert {r["player"]: r["played"] for r in rows if r["game"] == "all games"} == {"Ada": 3, "Bo": 3}
    page = httpx.get(server.url + "/standings", params={"tournament": "page"}, headers={"Accept": "text/html"})
    assert page.headers["content-type"].startswith("text/html")
    assert "page — all games" in page.text and "Ada" in page.text and open_game.hex[:8] in page.text
