"""The Kaiser's Pirates: each player's raiders and warships, merchant line,
prizes and victory points, with card and ship names as printed."""

from __future__ import annotations

from .table import Table

from service.kernel.text import words

from .common import who


def _names(config: dict) -> tuple[dict[str, str], dict[str, str]]:
    from service.aggregates.kaisers_pirates.catalog import Index

    ix = Index(config["catalog"])
    ships = {s: v["name"] for s, v in ix.ships.items()}
    ships.update({m: v["name"] for m, v in ix.merchants.items()})
    return ships, ix.card_name


def _vessel(v: dict, ships: dict, merchant: bool = False) -> str:
    dmg = "damaged" + (f" x{v['hits']}" if v.get("hits", 1) > 1 else "")     # 6.8: markers
    flags = [f for f, on in ((dmg, v.get("damaged")), ("limited supply", v.get("supply")),
                             ("revealed", v.get("revealed") and not merchant)) if on]
    if v.get("refuge"):
        flags.append("in refuge")
    name = ships.get(v["ship"], words(v["ship"]))
    return name + (f" ({', '.join(flags)})" if flags else "")


def render(view: dict, config: dict, names: dict[str, str], seat: int | None) -> list[str | Table]:
    ships, cards = _names(config)
    out: list[str | Table] = [f"Round {view['round']}, {words(view['phase'])} phase. Action deck {view['action_deck']}, "
           f"discard {view['discard']}, ship deck {view['ship_deck']}, merchant deck {view['merchant_deck']}."]
    table = Table("player", "hand", "raiders & warships", "merchants", "prizes", "VP",
                  title="Players")
    table.columns[0].no_wrap = True
    for s, p in view["players"].items():
        hand = p["hand"]
        shown = (", ".join(cards.get(c, words(c)) for c in hand) or "empty") if isinstance(hand, list) \
            else f"{hand} card{'s' if hand != 1 else ''}"
        table.add_row(who(s, names), shown, "\n".join(_vessel(v, ships) for v in p["ships"]) or "-",
                      "\n".join(_vessel(v, ships, merchant=True) for v in p["merchants"]) or "-",
                      "\n".join(_vessel(v, ships) if isinstance(v, dict) else ships.get(v, words(v))
                                for v in p["prizes"]) or "-",
                      str(p["vp"]))
    out.append(table)
    if view.get("committed"):
        committed = []
        for c in view["committed"]:
            if isinstance(c, dict) and c.get("card"):
                committed.append(f"{cards.get(c['card'], words(c['card']))} ({c.get('use', '')}"
                                 + (f", {ships.get(c['ship'], c['ship'])}" if c.get("ship") else "") + ")")
            else:
                committed.append("a face-down card" + (f" ({c.get('use')})" if isinstance(c, dict) and c.get("use")
                                                       else ""))
        out.append("Committed this turn: " + "; ".join(committed))
    if view.get("discard_top_two"):
        out.append("Top of the discard pile: " + ", ".join(cards.get(c, words(c)) for c in view["discard_top_two"]))
    return out
