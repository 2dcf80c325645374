"""Letter of Marque: the ships at sea on their treasures, each player's piles."""

from __future__ import annotations

from .table import Table

from .common import who


def said_ship(s: str) -> str:
    """``red-2`` -> ``red ship 2``: red's second ship, as the log and the decisions say it."""
    colour, _, n = str(s).rpartition("-")
    return f"{colour} ship {n}" if colour and n.isdigit() else str(s)


def render(view: dict, config: dict, names: dict[str, str], seat: int | None) -> list[str | Table]:
    players = Table("player", "colour", "points", "score pile", "cannons", "reserve", "deck",
                    title="Players")
    players.columns[0].no_wrap = True
    for s, p in view["players"].items():
        pile = p["score_pile"]
        treasures = "+".join(map(str, pile["treasures"])) or "-"
        enemy = f", {len(pile['enemy_cannon_cards'])} enemy cannon" if pile["enemy_cannon_cards"] else ""
        reserve = p["reserve"]
        if "armed" in reserve:
            res = f"{reserve['armed']} armed, {reserve['unarmed']} unarmed"
        else:  # another seat's reserve: only how many ships
            res = f"{reserve.get('ships', '?')} ships"
        deck = str(p["deck"]) + (f" ({', '.join(map(str, p['deck_cards']))})" if p.get("deck_cards") else "")
        if p.get("drawn") is not None:
            deck += f"; drawn {p['drawn']}"
        players.add_row(who(s, names), p["colour"], str(p["points"]), treasures + enemy, str(p["cannon_cards"]),
                        res, deck)
    sea = Table("ship", "owner", "treasure", "base", title="At sea")
    sea.columns[0].no_wrap = True
    for ship in view["sea"]:
        armed = ship["armed"]
        base = "armed" if armed is True else "unarmed" if armed is False else "hidden"
        if ship.get("revealed"):
            base += " (revealed)"
        sea.add_row(said_ship(ship["ship"]), who(ship["owner"], names), str(ship["treasure"]), base)
    out: list[str | Table] = [players]
    out.append(sea if view["sea"] else "At sea: no ship.")
    return out
