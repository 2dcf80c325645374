"""The shipyard, a port activity (the book: "Visitare il cantiere", p. 7: repairs,
upgrade tiles, special weapons, selling and buying ships; St. John's upgrades that move
to the new ship, RULINGS.md), and the upgrade tiles of a sold or lost ship placed back
in ports ("Morte", p. 15); their events, applied here.
"""

from __future__ import annotations

from itertools import combinations

from . import abilities
from .catalog import tables
from .derived import derived
from .mechanics import bank_pays, gain_glory
from .state import UPGRADE_STAT, damage, new_ship, pay, player, receive, ship_max, ship_maxima

TYPE_CHECKING = False   # (the imports below are the type checker's: none at run time)
if TYPE_CHECKING:
    from service.kernel.events import Ev
    from service.kernel.machine import Step
    from typing import Any
    from .shapes import Decision, Location, Player, State

REPAIRABLE: tuple[Location, ...] = ("hull", "masts", "cargo", "cannons")


def sale_value(state: State, p: Player, port: str, keep: list[str] | None = None, S: dict[str, Any] | None = None) -> int:
    """What the shipyard pays for the current ship (upgrades +1 each unless
    they move to the new ship at St. John, damage -1 a point, never below 0).
    ``keep``: at St. John (rules version 3) the tiles the player keeps; the others sell.
    ``S``: the state's tables, when the caller has read them.
    The book: "Vendere o comprare velieri", p. 7."""
    if S is None:
        S = tables(state)
    ship = p["ship"]
    info = S["ships"][ship["type"]]
    if not info["for_sale"]:
        return 0
    if not keeps_upgrades(state, port, S):
        sold = len(ship["upgrades"])
    elif keep is None:
        sold = 0
    else:
        sold = len(ship["upgrades"]) - len(keep)
    bonus = S["rules"]["upgrade_sale_bonus"] * sold
    return max(0, info["sell"] + bonus - damage(state, ship))


def keeps_upgrades(state: State, port: str, S: dict[str, Any] | None = None) -> bool:
    """``S``: the state's tables, when the caller has read them."""
    return (S or tables(state))["zones"][port]["special"].get("kind") == "transfer_upgrades"


def keep_choices(state: State, p: Player, port: str, S: dict[str, Any] | None = None) -> list[list[str] | None]:
    """St. John (rules version 3): every set of the ship's tiles to keep (the rest sell for +1).
    ``S``: the state's tables, when the caller has read them."""
    if not state.get("fixes") or not keeps_upgrades(state, port, S):
        return [None]
    tiles = sorted(p["ship"]["upgrades"])
    return [list(c) for k in range(len(tiles), -1, -1) for c in combinations(tiles, k)]


def legal(state: State, p: Player, here: str, money: int, S: dict[str, Any]) -> list[Decision]:
    """The shipyard's decisions for ``p`` at port ``here`` with ``money`` to spend
    (``S``: the state's tables)."""
    R = S["rules"]
    out: list[Decision] = []
    ship = p["ship"]
    if money >= abilities.price(state, p, "repair", R["repair_price"]):
        most = ship_maxima(state, ship)
        for loc in REPAIRABLE:          # (a loop: a comprehension is one more call, for four locations)
            if ship[loc] < most[loc]:
                out.append({"action": "repair", "location": loc})
    flipped = ship["flipped"]           # (mostly none: the tiles are not even read)
    if flipped and money >= R["reinforced_hull_repair"] and \
            any(S["upgrade"][t] == "reinforced_hull" for t in flipped):
        out.append({"action": "rearm_hull"})          # Reinforced Hull turned face up again
    tile = state["board"]["upgrades"][here]
    if tile is not None and state["board"]["revealed"][here] and money >= abilities.price(state, p, "upgrade", R["upgrade_price"]) and \
            S["upgrade"][tile] not in {S["upgrade"][t] for t in ship["upgrades"]}:
        out.append({"action": "buy_upgrade"})
    weapon_price = None                 # read at the first weapon in stock
    for kind in derived(state)["weapon_kinds"]:      # (sorted once per catalog)
        if kind in p["weapons"]:
            out.append({"action": "sell_weapon", "kind": kind})
        elif state["weapons"][kind] > 0:
            if weapon_price is None:
                weapon_price = abilities.price(state, p, "weapon", R["weapon_price"])
            if money >= weapon_price:
                out.append({"action": "buy_weapon", "kind": kind})
    keeps = keep_choices(state, p, here, S)
    sale = []                           # the old ship's price, by tiles kept (a loop: mostly one)
    for keep in keeps:
        sale.append(sale_value(state, p, here, keep, S))
    for kind, info in S["ships"].items():
        if not info["for_sale"]:
            continue
        for keep, value in zip(keeps, sale):
            if info["buy"] - value <= money:    # the new ship's price less the old one's
                out.append({"action": "buy_ship", "ship": kind} if keep is None else
                           {"action": "buy_ship", "ship": kind, "keep": keep})
    out.append({"action": "end_shipyard"})
    return out


def do_shipyard(step: Step, seat: int, d: dict[str, Any]) -> None:
    step.emit("PortActivityBegun", {"seat": seat, "activity": "shipyard"})


def do_repair(step: Step, seat: int, d: dict[str, Any]) -> None:
    """The book: "Acquistare riparazioni", p. 7."""
    state = step.state
    step.emit("ShipRepaired", {"seat": seat, "location": d["location"],
              "cost": abilities.price(state, player(state, seat), "repair", tables(state)["rules"]["repair_price"])})


def do_rearm_hull(step: Step, seat: int, d: dict[str, Any]) -> None:
    state = step.state
    ship = player(state, seat)["ship"]
    t = next(t for t in ship["flipped"] if tables(state)["upgrade"][t] == "reinforced_hull")
    step.emit("HullRearmed", {"seat": seat, "tile": t, "cost": tables(state)["rules"]["reinforced_hull_repair"]})


def do_buy_upgrade(step: Step, seat: int, d: dict[str, Any]) -> None:
    """The book: "Acquistare tessere upgrade", p. 7."""
    state = step.state
    here = state["port"]["port"]
    tile = state["board"]["upgrades"][here]
    S = tables(state)
    named = {"name": S["upgrade_name"][tile]} if state.get("table_seen") else {}        # as printed
    step.emit("UpgradeBought", {"seat": seat, "port": here, "tile": tile, "kind": S["upgrade"][tile],
              "cost": abilities.price(state, player(state, seat), "upgrade", S["rules"]["upgrade_price"]), **named})


def do_buy_weapon(step: Step, seat: int, d: dict[str, Any]) -> None:
    """The book: "Comprare armi speciali", p. 7."""
    state = step.state
    step.emit("WeaponBought", {"seat": seat, "kind": d["kind"],
              "cost": abilities.price(state, player(state, seat), "weapon", tables(state)["rules"]["weapon_price"])})


def do_sell_weapon(step: Step, seat: int, d: dict[str, Any]) -> None:
    state = step.state
    step.emit("WeaponSold", {"seat": seat, "kind": d["kind"], "price": bank_pays(state, tables(state)["rules"]["weapon_sale"])})


def do_buy_ship(step: Step, seat: int, d: dict[str, Any]) -> None:
    """The book: "Vendere o comprare velieri", p. 7."""
    state = step.state
    S = tables(state)
    p = player(state, seat)
    here = state["port"]["port"]
    kind = d["ship"]
    value = sale_value(state, p, here, d.get("keep"))
    net = S["ships"][kind]["buy"] - value
    if net < 0:
        net = -bank_pays(state, -net)
    keep = keeps_upgrades(state, here)
    kept = []
    if keep and "keep" in d:
        kept = list(d["keep"])          # the player's choice; the rest were sold
    elif keep:
        seen = set()
        for t in p["ship"]["upgrades"]:
            if S["upgrade"][t] not in seen:
                kept.append(t)
                seen.add(S["upgrade"][t])
    glory = S["ships"][kind]["glory_on_buy"] and not p["glory_ship"]
    step.emit("ShipBought", {"seat": seat, "port": here, "ship": kind, "old": p["ship"]["type"], "price": S["ships"][kind]["buy"],
              "sale_value": value, "net": net, "keep_upgrades": keep, "kept": kept})
    if glory:
        gain_glory(step, seat, f"bought a {S['ships'][kind]['name']} (once per captain)")


def do_place_upgrade(step: Step, seat: int, d: dict[str, Any]) -> None:
    """The book: "Morte", p. 15."""
    p = player(step.state, seat)
    tiles = sorted(p["returning"])
    tile = tiles[0] if len(tiles) == 1 else step.pick(
        tiles, vis="referee", why=f"which face-down upgrade tile goes to {d['port']}")
    step.emit("UpgradeTilePlaced", {"seat": seat, "port": d["port"], "tile": tile}, vis="referee")
    step.emit("UpgradeTileHidden", {"seat": seat, "port": d["port"]})


# the events ---------------------------------------------------------------------------

def _ship_repaired(state: State, d: dict[str, Any], ev: Ev) -> None:
    p = player(state, d["seat"])
    loc: Location = d["location"]
    p["ship"][loc] += 1
    pay(state, p, d["cost"])


def _upgrade_bought(state: State, d: dict[str, Any], ev: Ev) -> None:
    p = player(state, d["seat"])
    state["board"]["upgrades"][d["port"]] = None
    state["board"]["revealed"][d["port"]] = False
    ship = p["ship"]
    stat = UPGRADE_STAT.get(tables(state)["upgrade"][d["tile"]])
    before = ship_max(state, ship, stat) if stat in ("cargo", "cannons") else None
    ship["upgrades"].append(d["tile"])
    if before is not None and ship_max(state, ship, stat) > before:  # type: ignore[arg-type]  # (cargo or cannons)
        ship[stat] += 1  # type: ignore[literal-required, typeddict-item]  # (cargo or cannons)
    pay(state, p, d["cost"])


def _weapon_bought(state: State, d: dict[str, Any], ev: Ev) -> None:
    p = player(state, d["seat"])
    state["weapons"][d["kind"]] -= 1
    p["weapons"][d["kind"]] = 1
    pay(state, p, d["cost"])


def _weapon_sold(state: State, d: dict[str, Any], ev: Ev) -> None:
    p = player(state, d["seat"])
    state["weapons"][d["kind"]] += 1
    del p["weapons"][d["kind"]]
    receive(state, p, d["price"])


def _ship_bought(state: State, d: dict[str, Any], ev: Ev) -> None:
    p = player(state, d["seat"])
    old = p["ship"]
    ship = new_ship(state, d["ship"], crew=old["crew"])
    if d["keep_upgrades"]:
        ship["upgrades"] = list(d["kept"])
        for t in ship["upgrades"]:
            stat = UPGRADE_STAT.get(tables(state)["upgrade"][t])
            if stat in ("cargo", "cannons"):
                ship[stat] = ship_max(state, ship, stat)  # type: ignore[literal-required]  # (cargo or cannons)
        if state.get("fixes"):          # a kept Extra Hammocks tile keeps its crew point
            ship["crew"] = min(old["crew"], ship_max(state, ship, "crew"))
    p["returning"].extend(t for t in old["upgrades"] if t not in ship["upgrades"])
    p["ship"] = ship
    if tables(state)["ships"][d["ship"]]["glory_on_buy"]:
        p["glory_ship"] = True
    if d["net"] >= 0:
        pay(state, p, d["net"])
    else:
        receive(state, p, -d["net"])


def _upgrade_tile_placed(state: State, d: dict[str, Any], ev: Ev) -> None:
    p = player(state, d["seat"])
    p["returning"].remove(d["tile"])
    state["board"]["upgrades"][d["port"]] = d["tile"]
    state["board"]["revealed"][d["port"]] = False


def _hull_rearmed(state: State, d: dict[str, Any], ev: Ev) -> None:
    p = player(state, d["seat"])
    p["ship"]["flipped"].remove(d["tile"])
    pay(state, p, d["cost"])


HANDLERS = {
    "shipyard": do_shipyard, "repair": do_repair, "buy_upgrade": do_buy_upgrade, "buy_weapon": do_buy_weapon,
    "sell_weapon": do_sell_weapon, "rearm_hull": do_rearm_hull, "buy_ship": do_buy_ship,
    "place_upgrade": do_place_upgrade,
}

APPLY = {
    "ShipRepaired": _ship_repaired,
    "HullRearmed": _hull_rearmed,
    "UpgradeBought": _upgrade_bought,
    "WeaponBought": _weapon_bought,
    "WeaponSold": _weapon_sold,
    "ShipBought": _ship_bought,
    "UpgradeTilePlaced": _upgrade_tile_placed,
}
