"""Merchants & Marauders: each captain's ship, port, gold, glory and cargo; the
ports' demand and the sea's NPCs."""

from __future__ import annotations

from .table import Table

from service.kernel.text import words

from .common import who

from service.aggregates.merchants_and_marauders.names import article, for_config, printed

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    from service.aggregates.merchants_and_marauders.names import Names
from service.aggregates.merchants_and_marauders.view import STAGES, icon_said


def render(view: dict, config: dict, names: dict[str, str], seat: int | None) -> list[str | Table]:
    N = for_config(config)
    order = f" Order of play: {', '.join(who(s, names) for s in view['order'])}." if view["order"] else ""
    out: list[str | Table] = [f"Target {view['target']} glory.{order}"]
    table = Table("player", "captain", "ship", "at", "gold", "glory", "cargo", "wanted by", title="Captains")
    table.columns[0].no_wrap = True
    for s, p in view["players"].items():
        cap = p.get("captain")
        captain = (N.captain(cap["id"]) if isinstance(cap, dict) and cap.get("id") else
                   printed(cap["name"]) if isinstance(cap, dict) and cap.get("name") else "hidden" if cap else "-")
        ship = p.get("ship") or {}
        ship = ship if isinstance(ship, dict) else {"name": words(ship)}
        damage = f", {ship['damage']} damage" if ship.get("damage") else ""
        gold = p.get("gold")
        glory = p.get("total_glory", p.get("glory_track"))
        cargo = p.get("cargo")
        cargo_text = (", ".join(words(c.get("good", c.get("card", "?"))) if isinstance(c, dict) else N.card(c)
                                for c in cargo) or "none") if isinstance(cargo, list) else f"{p.get('cargo_cards', '?')} cards"
        table.add_row(who(s, names), captain, f"{ship.get('name', '-')}{damage}",
                      (N.zone(p["zone"]) if p.get("zone") else "-") + (" (port)" if p.get("in_port") else ""),
                      "hidden" if gold is None else str(gold), "hidden" if glory is None else str(glory), cargo_text,
                      ", ".join(f"{N.nation(n)} {k}" for n, k in sorted((p.get("flags") or {}).items()) if k) or "-")
    out.append(table)
    for s, p in view["players"].items():
        cap, hand = p.get("captain"), p.get("hand")
        if isinstance(cap, dict) and cap.get("id") in N.texts:
            out.append(f"{who(s, names)}'s captain: {N.with_text(cap['id'])}")
        if isinstance(hand, list):     # the glory cards a reader may see: its own
            said = [N.with_text(c["card"]) if isinstance(c, dict) else N.with_text(c) for c in hand]
            out.append(f"{who(s, names)}'s glory cards: {', '.join(said) if said else 'none'}.")
    raid = view.get("raid")
    if raid:
        cards = ", ".join(f"{words(c['good'])} ({c['raid']} gold, {icon_said(c['icon'])})" for c in raid["cards"]) or "none yet"
        out.append(f"Raid: {who(str(raid['seat']), names)} on {_a(N.people(raid.get('chosen') or raid['nation']))} "
                   f"merchant in {N.zone(raid['zone'])}: {cards}; {raid['successes_left']} success(es) to use.")
    fight = view.get("combat")
    if fight:
        out.append(f"Fight: {_side(fight['a'], names, N)} against {_side(fight['d'], names, N)}, "
                   + (f"crew round {fight['crew_round']}" if fight["kind"] == "crew" and fight.get("crew_round")
                      else f"{words(fight['kind'])} round {fight['round']}")
                   + f", waiting for {_side(fight['waiting'], names, N)} "
                   f"({STAGES.get(fight['stage'], words(fight['stage']))}).")
    board = view["board"]
    demand = Table("port", "demand", "upgrade", title="Ports")
    demand.columns[0].no_wrap = True
    for port, good in board["demand"].items():
        up = board["upgrades"].get(port)
        if isinstance(up, dict):
            name = up.get("name") or words(up.get("kind", "?"))
            up_text = name if up.get("face_up") else f"face down ({name})"  # the referee's view names it
        else:
            up_text = words(up) if up else "-"
        demand.add_row(N.zone(port), words(good) if good else "-", up_text)
    out.append(demand)
    if board.get("npcs"):
        out.append("NPC ships: " + "; ".join(f"{N.npc(k)} at {N.zone(v.get('zone') if isinstance(v, dict) else v)}"
                                             for k, v in board["npcs"].items()) + ".")
    if board.get("war"):
        out.append("War: " + " against ".join(N.nation(n) for n in board["war"]) + ".")
    return out


def _side(side: int | str | None, names: dict[str, str], N: Names) -> str:
    """A side of a fight: a seat, or an NPC ship (``npc:dutch_naval``)."""
    if isinstance(side, str) and side.startswith("npc:"):
        return N.npc(side[4:])
    return who(str(side), names) if side is not None else "nobody"


def _a(word: str) -> str:
    return f"{article(word)} {word}"
