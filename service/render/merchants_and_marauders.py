"""Merchants & Marauders: each captain's ship, port, gold, glory and cargo; the
ports' demand and the sea's NPCs."""

from __future__ import annotations

from .table import Table

from .common import who, words


def render(view: dict, config: dict, names: dict, seat) -> list:
    out = [f"Target {view['target']} glory. Player order: "
           + ", ".join(who(s, names) for s in view["order"]) + "."]
    table = Table("player", "captain", "ship", "at", "gold", "glory", "cargo", "wanted by", title="Captains")
    table.columns[0].no_wrap = True
    for s, p in view["players"].items():
        cap = p.get("captain") or {}
        cap = cap if isinstance(cap, dict) else {"name": words(cap)}
        ship = p.get("ship") or {}
        ship = ship if isinstance(ship, dict) else {"name": words(ship)}
        damage = f", {ship['damage']} damage" if ship.get("damage") else ""
        gold = p.get("gold")
        glory = p.get("total_glory", p.get("glory_track"))
        cargo = p.get("cargo")
        cargo_text = (", ".join(words(c.get("good", c.get("card", "?"))) if isinstance(c, dict) else words(c)
                                for c in cargo) or "none") if isinstance(cargo, list) else f"{p.get('cargo_cards', '?')} cards"
        table.add_row(who(s, names), cap.get("name", "hidden"), f"{ship.get('name', '?')}{damage}",
                      (words(p["zone"]) if p.get("zone") else "-") + (" (port)" if p.get("in_port") else ""),
                      "hidden" if gold is None else str(gold), "hidden" if glory is None else str(glory), cargo_text,
                      ", ".join(f"{words(n)} {k}" for n, k in sorted((p.get("flags") or {}).items()) if k) or "-")
    out.append(table)
    raid = view.get("raid")
    if raid:
        cards = ", ".join(f"{words(c['good'])} ({c['raid']} gold, {words(c['icon'].replace('hit:', 'hits '))})"
                          for c in raid["cards"]) or "none yet"
        out.append(f"Raid: {who(str(raid['seat']), names)} on a {words(raid.get('chosen') or raid['nation'])} "
                   f"merchant in {words(raid['zone'])}: {cards}; {raid['successes_left']} success(es) to use.")
    fight = view.get("combat")
    if fight:
        out.append(f"Fight: {who(str(fight['a']), names)} against {who(str(fight['d']), names)}, "
                   + (f"crew round {fight['crew_round']}" if fight["kind"] == "crew" and fight.get("crew_round")
                      else f"{fight['kind']} round {fight['round']}")
                   + f", waiting for {who(str(fight['waiting']), names)} "
                   f"({words(fight['stage'])}).")
    board = view["board"]
    demand = Table("port", "demand", "upgrade", title="Ports")
    demand.columns[0].no_wrap = True
    for port, good in board["demand"].items():
        up = board["upgrades"].get(port)
        if isinstance(up, dict):
            kind = words(up.get("kind", "?"))
            up_text = kind if up.get("face_up") else f"face down ({kind})"  # the referee's view names it
        else:
            up_text = words(up) if up else "-"
        demand.add_row(words(port), words(good) if good else "-", up_text)
    out.append(demand)
    if board.get("npcs"):
        out.append("NPC ships: " + "; ".join(f"{words(k)} at {words(v.get('zone', v) if isinstance(v, dict) else v)}"
                                             for k, v in board["npcs"].items()))
    if board.get("war"):
        out.append("War: " + " against ".join(words(n).title() for n in board["war"]) + ".")
    return out
