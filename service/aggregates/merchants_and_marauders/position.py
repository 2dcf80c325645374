"""A game that starts from a stated position (docs/positions.md): the table as a referee
describes it, e.g. the book's battle example ("ESEMPIO DI BATTAGLIA"): Felipe's Frigate
with a Chain Shot meets Frances Wright's Sloop with Better Rigging off Port Royal.

``normalise(config, position)`` checks a position against the catalog and the book's
limits (every card, tile, weapon and coin once; a ship a player may sail; a hand within
its limit) and returns it as ``{"public": ..., "stated": [...]}`` (``Rules.position``).
``lay(step)`` is the setup of such a game:

1. the hidden part first, each outcome seen by its seat only: the glory and cargo cards
   named, drawn ``stated`` (the kernel serves them from the position), and the gold and
   stash behind the screen, picked ``stated``; ``PositionGoldHeld`` for every seat;
2. ``PositionLaid`` (public): captains revealed, ships with their upgrades and hits,
   where each is, glory points, wanted flags, special weapons, how many cards each holds;
3. cards the position only counts, dealt by chance (the seed, or the referee at a table);
4. the board as at any set-up (the upgrade tiles on ships stay on them);
5. the turn begins: ``TurnStarted`` (its event card taken as resolved) and the player
   to play starts his turn.

A player's fields (all but ``captain`` optional; names as printed, any case):
``captain``; ``ship`` (Sloop); ``port`` or ``sea`` (a zone; default: his home port);
``upgrades``, ``weapons`` (lists); ``hits`` ({location: hits taken}); ``glory`` (points);
``flags`` ({nation: wanted flags}); ``gold`` (10), ``stash`` (0); ``glory_cards`` and
``cargo``: a list of names (stated, hidden) or a number (dealt by chance). The
position's: ``players`` (by seat), ``to_play`` (a captain or a seat; default the first),
``first`` (who began the round; default ``to_play``), ``turn`` (1).
"""

from __future__ import annotations

import re

from service.kernel import BadInput, positions

from .catalog import register, tables
from .flow import start_player_turn
from .mechanics import deal_glory, draw_cargo
from .names import BOOK_NAMES
from .setup import board
from .state import LOCATIONS, new_ship, player, ship_max

TYPE_CHECKING = False   # (the imports below are the type checker's: none at run time)
if TYPE_CHECKING:
    from typing import Any
    from service.kernel.events import Ev
    from service.kernel.machine import Step
    from .shapes import Ship, State

PLAYER_KEYS = ("captain", "ship", "port", "sea", "upgrades", "weapons", "hits", "glory", "flags", "gold", "stash",
               "glory_cards", "cargo")
POSITION_KEYS = ("players", "to_play", "first", "turn")
FLAG_MAX = 5


def said(text: str) -> str:
    """A name as typed, for comparing: lower case, ``_``/``-`` as spaces, one space."""
    return re.sub(r"\s+", " ", re.sub(r"[_\-]", " ", str(text).lower())).strip()


def resolve(what: str, text: str, names: dict) -> str:
    """The id ``text`` names among ``names`` (id -> printed name): by id or printed
    name, or the printed name before a bracket (``Felipe`` for ``Felipe (surname
    unknown)``). Refused, naming the choices, when nothing or several fit."""
    if not isinstance(text, str) or not text.strip():
        raise BadInput(f"{what}: give a name, not {text!r}")
    key = said(text)
    exact = [i for i, n in names.items() if said(i) == key or said(n) == key]
    if not exact:
        exact = [i for i, n in names.items() if said(n.split("(")[0]) == key]
    if not exact:       # either book's word (names.BOOK_NAMES), spaces and a plural's s aside: "Grapeshot"
        squashed = _squashed(key)
        exact = [i for i, n in names.items()
                 if any(_squashed(said(w)) == squashed for w in (i, n, *BOOK_NAMES.get(i, ())))]
    if len(set(exact)) == 1:
        return exact[0]
    if exact:
        return sorted(set(exact))[0]   # copies of one printed card: the caller takes a free copy
    shown = ", ".join(sorted({n.split(" (")[0] for n in names.values()}))
    raise BadInput(f"{what}: no {text!r} (known: {shown})")


def _squashed(key: str) -> str:
    """A name compared without its spaces and a final s: "grape shots" = "grapeshot"."""
    bare = key.replace(" ", "")
    return bare[:-1] if bare.endswith("s") else bare


def copies(what: str, text: str, names: dict, free: list) -> str:
    """A free copy (in ``free``) of the card or tile named ``text``; removed from ``free``."""
    key = said(text)
    first = resolve(what, text, names)
    if said(first) == key:      # a card named by its id: that very card
        same = [first]
    else:                       # by its printed name: any copy of it left
        same = [i for i in sorted(names) if said(names[i]) == said(names[first])]
    for i in same:
        if i in free:
            free.remove(i)
            return i
    raise BadInput(f"{what}: {text!r} stated more times than the game has copies ({len(same)})")


def normalise(config: dict[str, Any], position: dict[str, Any]) -> dict[str, Any]:
    """``Rules.position`` for Merchants & Marauders (the module's text)."""
    S = tables({"cat": register(config["catalog"])})
    positions.keys("the position", position, POSITION_KEYS)
    seats = config["seats"]
    people = positions.players(position, seats)
    target = (config.get("options") or {}).get("glory", S["rules"]["glory_target"])
    names = _names(S)
    captains = names["captains"]
    left = _Left(S)
    coins = S["rules"]["coins_total"]
    out: list[dict[str, Any]] = []
    stated: list[Any] = []
    seen_captains: dict[str, int] = {}
    gold_total = 0
    for seat, q in enumerate(people, 1):
        who = f"seat {seat}"
        positions.keys(f"{who}", q, PLAYER_KEYS)
        captain = _captain(who, q, captains, seen_captains, seat)
        who = f"seat {seat} ({captains[captain].split(' (')[0]})"
        kind = _ship_kind(who, q, S, names["ships"])
        zone, in_port = _place(who, q, S, captain, names)
        ship = _ship(who, q, kind, config, names["kinds"], left)
        held = _weapons(who, q, S, names["weapons"], left)
        flags = _flags(who, q, names["nations"])
        glory = positions.whole(f"{who}'s glory", q.get("glory", 0), 0, target - 1)
        gold = positions.whole(f"{who}'s gold", q.get("gold", S["rules"]["start_gold"]), 0, coins)
        stash = positions.whole(f"{who}'s stash", q.get("stash", 0), 0, coins)
        gold_total += gold + stash
        hand, hands = _cards(f"{who}'s glory cards", q.get("glory_cards", 0), names["glory"], left.glory)
        hand_limit = S["rules"]["glory_hand_limit"]
        if hands > hand_limit:
            raise BadInput(f"{who}: {hands} glory cards; at most {hand_limit} in hand (the book: a fifth is discarded)")
        cargo, count = _cards(f"{who}'s cargo", q.get("cargo", 0), dict(S["good"]), left.cargo)
        if count > ship["cargo"] and not in_port:
            raise BadInput(f"{who}: {count} cargo cards at sea in a hold of {ship['cargo']}")
        stated += hand + cargo
        hidden_gold = "gold" in q or "stash" in q
        if hidden_gold:
            stated += [gold, stash]
        out.append({"seat": seat, "captain": captain, "ship": ship, "zone": zone, "in_port": in_port,
                    "weapons": sorted(held), "flags": flags, "glory": glory,
                    "glory_cards": hands, "glory_stated": bool(hand), "cargo": count, "cargo_stated": bool(cargo),
                    "gold_stated": hidden_gold})
    _conserved(out, left, gold_total, coins)
    by_captain = {c: s for c, s in seen_captains.items()}
    to_play = _who("to_play", position.get("to_play", 1), by_captain, captains, seats)
    first = _who("first", position.get("first", to_play), by_captain, captains, seats)
    order = list(range(first, seats + 1)) + list(range(1, first))
    turn = positions.whole("turn", position.get("turn", 1), 1, len(S["events"]))
    return {"public": {"players": out, "order": order, "to_play": to_play, "turn": turn}, "stated": stated}


def _names(S: dict[str, Any]) -> dict[str, dict[str, str]]:
    """The names a position may use, by what they name: id -> printed name."""
    zones = {z: v["name"] for z, v in S["zones"].items()}
    return {
        "captains": {c: v["name"] for c, v in S["captains"].items()},
        "zones": zones,
        "ports": {z: n for z, n in zones.items() if S["zones"][z]["port"]},
        "ships": {k: v["name"] for k, v in S["ships"].items()},
        # upgrade kinds by the tiles' printed names (Long Guns), the kind's words an alias (long range)
        "kinds": {S["upgrade"][t]: S["upgrade_name"][t] for t in sorted(S["upgrade"])},
        "weapons": {k: k.replace("_", " ") for k in S["weapons"]},
        "nations": {n: n for n in sorted({v["nation"] for v in S["zones"].values() if v.get("nation")})},
        "glory": {c: v["name"] for c, v in S["glory"].items()},
    }


class _Left:
    """What the game has left to state as the players are read: upgrade tiles, glory and
    cargo cards, special weapon tokens (each stated once)."""
    __slots__ = ("tiles", "glory", "cargo", "weapons")

    def __init__(self, S: dict[str, Any]) -> None:
        self.tiles: list[str] = sorted(S["upgrade"])
        self.glory: list[str] = sorted(S["glory"])
        self.cargo: list[str] = sorted(S["good"])
        self.weapons: dict[str, int] = dict(S["weapons"])


def _captain(who: str, q: dict[str, Any], captains: dict[str, str], seen: dict[str, int], seat: int) -> str:
    """The seat's captain, each captain stated once (``seen``: captain -> seat)."""
    if "captain" not in q:
        raise BadInput(f"{who}: name its captain ('captain': 'Frances Wright')")
    captain = resolve(f"{who}'s captain", q["captain"], captains)
    if captain in seen:
        raise BadInput(f"captain {captains[captain]} is stated twice (seats {seen[captain]} and {seat})")
    seen[captain] = seat
    return captain


def _ship_kind(who: str, q: dict[str, Any], S: dict[str, Any], ships: dict[str, str]) -> str:
    """The seat's ship type: one a player may sail (a Sloop if not stated)."""
    kind = resolve(f"{who}'s ship", q.get("ship", "sloop"), ships)
    if not S["ships"][kind]["for_sale"] and not S["ships"][kind]["starting"]:
        raise BadInput(f"{who}: a player cannot sail a {ships[kind]}")
    return kind


def _place(who: str, q: dict[str, Any], S: dict[str, Any], captain: str,
           names: dict[str, dict[str, str]]) -> tuple[str, bool]:
    """(zone, in port): a port, a sea zone, or the captain's home port."""
    if "port" in q and "sea" in q:
        raise BadInput(f"{who}: give 'port' (in a port) or 'sea' (at sea in a zone), not both")
    if "sea" in q:
        return resolve(f"{who}'s sea zone", q["sea"], names["zones"]), False
    zone = resolve(f"{who}'s port", q["port"], names["ports"]) if "port" in q else S["captains"][captain]["home"]
    return zone, True


def _ship(who: str, q: dict[str, Any], kind: str, config: dict[str, Any], kinds: dict[str, str],
          left: _Left) -> Ship:
    """The seat's ship: its upgrade tiles (one of a kind, taken from ``left``), then the
    hits it has taken (a location's value with its upgrades, less its hits)."""
    state_like = {"cat": register(config["catalog"])}
    ship = new_ship(state_like, kind)
    ups = q.get("upgrades", [])
    if not isinstance(ups, list):
        raise BadInput(f"{who}: 'upgrades' is a list of upgrade tiles by name")
    S = tables(state_like)
    had = set()
    for u in ups:
        k = resolve(f"{who}'s upgrade", u, kinds)
        if k in had:
            raise BadInput(f"{who}: two {kinds[k]} tiles on one ship (the book: one of each kind)")
        had.add(k)
        tile = next((t for t in left.tiles if S["upgrade"][t] == k), None)
        if tile is None:
            raise BadInput(f"{who}: no {kinds[k]} tile left: the game has "
                           f"{sum(1 for t in S['upgrade'].values() if t == k)} and they are stated on other ships")
        left.tiles.remove(tile)
        ship["upgrades"].append(tile)
    hits = positions.keys(f"{who}'s hits", q.get("hits", {}), LOCATIONS)
    for loc, n in sorted(hits.items()):
        most = ship_max(state_like, ship, loc)
        floor = 1 if loc == "hull" else 0
        positions.whole(f"{who}'s hits on {loc}", n, 0, most - floor)
        ship[loc] = most - n  # type: ignore[literal-required]  # (a location: positions.keys checked it)
    for at in ("cargo", "crew", "cannons", "masts"):   # an upgrade's extra point, when undamaged
        if at not in hits:
            ship[at] = ship_max(state_like, ship, at)
    if "hull" not in hits:
        ship["hull"] = ship_max(state_like, ship, "hull")
    return ship


def _weapons(who: str, q: dict[str, Any], S: dict[str, Any], weapons: dict[str, str], left: _Left) -> list[str]:
    """The seat's special weapons: one token of each kind, taken from the supply."""
    arms = q.get("weapons", [])
    if not isinstance(arms, list):
        raise BadInput(f"{who}: 'weapons' is a list of special weapons by name")
    held: list[str] = []
    for w in arms:
        k = resolve(f"{who}'s weapon", w, weapons)
        if k in held:
            raise BadInput(f"{who}: {weapons[k]} twice (a captain holds one token of each weapon)")
        if left.weapons[k] <= 0:
            raise BadInput(f"{who}: no {weapons[k]} token left (the game has {S['weapons'][k]})")
        left.weapons[k] -= 1
        held.append(k)
    return held


def _flags(who: str, q: dict[str, Any], nations: dict[str, str]) -> dict[str, int]:
    """The seat's wanted flags by nation (0 to ``FLAG_MAX`` each)."""
    flags: dict[str, int] = {}
    given = q.get("flags", {})
    if not isinstance(given, dict):
        raise BadInput(f"{who}: 'flags' is an object, nation -> wanted flags ({{\"Spain\": 1}})")
    for n, f in sorted(given.items()):
        flags[resolve(f"{who}'s wanted flags", n, nations)] = positions.whole(f"{who}'s {n} flags", f, 0, FLAG_MAX)
    return flags


def _conserved(out: list[dict[str, Any]], left: _Left, gold_total: int, coins: int) -> None:
    """The cards left to deal are in the decks, and the gold stated is in the game's coins."""
    dealt = sum(q["glory_cards"] for q in out if not q["glory_stated"])
    if dealt > len(left.glory):
        raise BadInput(f"counts not conserved: {dealt} glory cards to deal, {len(left.glory)} left in the deck")
    dealt = sum(q["cargo"] for q in out if not q["cargo_stated"])
    if dealt > len(left.cargo):
        raise BadInput(f"counts not conserved: {dealt} cargo cards to deal, {len(left.cargo)} left in the deck")
    if gold_total > coins:
        raise BadInput(f"counts not conserved: {gold_total} gold stated (on board and stashed), "
                       f"the game has {coins} coins")


def _cards(what: str, given: Any, names: dict[str, str], free: list[str]) -> tuple[list[str], int]:
    """A hand stated by name (a list: ``(ids, len)``) or only counted (a number: ``([], n)``)."""
    if isinstance(given, list):
        ids = [copies(what, c, names, free) for c in given]
        return ids, len(ids)
    return [], positions.whole(what, given, 0, len(free))


def _who(what: str, value: Any, by_captain: dict[str, int], captains: dict[str, str], seats: int) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return positions.whole(what, value, 1, seats)
    captain = resolve(what, value, {c: captains[c] for c in by_captain})
    return by_captain[captain]


def lay(step: Step) -> None:
    """The setup of a game from a stated position (the module's text)."""
    state = step.state
    pos = state["position"]
    decks = state["decks"]
    coins = list(range(tables(state)["rules"]["coins_total"] + 1))
    for q in pos["players"]:                        # 1. the hidden part, each seat's alone
        seat = q["seat"]
        if q["glory_stated"]:
            for _ in range(q["glory_cards"]):
                card = step.draw("glory", decks["glory"], vis=[seat], stated=True,
                                 why=f"a glory card in seat {seat}'s hand (the position)")
                step.emit("GloryCardDealt", {"seat": seat, "card": card}, vis=[seat])
        if q["cargo_stated"]:
            for _ in range(q["cargo"]):
                card = step.draw("cargo", decks["cargo"], vis=[seat], stated=True,
                                 why=f"a cargo card in seat {seat}'s hold (the position)")
                step.emit("CargoHeld", {"seat": seat, "card": card}, vis=[seat])
        if q["gold_stated"]:
            gold = step.pick(coins, vis=[seat], stated=True, why=f"seat {seat}'s gold on board (the position)")
            stash = step.pick(coins, vis=[seat], stated=True, why=f"seat {seat}'s stash (the position)")
        else:
            gold, stash = tables(state)["rules"]["start_gold"], 0
        step.emit("PositionGoldHeld", {"seat": seat, "gold": gold, "stash": stash}, vis=[seat])
    step.emit("PositionLaid", {"players": [{k: v for k, v in q.items() if k not in ("glory_stated", "cargo_stated")}
                                       for q in pos["players"]],
              "order": pos["order"], "to_play": pos["to_play"]})
    for q in pos["players"]:                        # 3. cards only counted: dealt by chance
        seat = q["seat"]
        if not q["glory_stated"]:
            for _ in range(q["glory_cards"]):
                deal_glory(step, seat, "the position")
        if not q["cargo_stated"]:
            for _ in range(q["cargo"]):
                card = draw_cargo(step, seat, f"a cargo card in seat {seat}'s hold (the position)")
                step.emit("CargoHeld", {"seat": seat, "card": card}, vis=[seat])
    board(step, {t for q in pos["players"] for t in q["ship"]["upgrades"]})      # 4.
    step.emit("GloryTrackSet", {"glory": {str(q["seat"]): q["glory"] for q in pos["players"]}, "target": state["target"]})
    step.emit("TurnStarted", {}, turn=pos["turn"])      # 5. (its event card: taken as resolved)
    start_player_turn(step, pos["to_play"])


# the events ---------------------------------------------------------------------------

def _gold_held(state: State, d: dict[str, Any], ev: Ev) -> None:
    p = player(state, d["seat"])
    p["gold"], p["stash"] = d["gold"], d["stash"]
    state["bank"] -= d["gold"] + d["stash"]


def _cargo_held(state: State, d: dict[str, Any], ev: Ev) -> None:
    player(state, d["seat"])["cargo"].append(d["card"])


def _laid(state: State, d: dict[str, Any], ev: Ev) -> None:
    decks = state["decks"]
    for q in d["players"]:
        p = player(state, q["seat"])
        ship: Ship = {**q["ship"], "upgrades": list(q["ship"]["upgrades"]), "flipped": list(q["ship"]["flipped"])}  # type: ignore[typeddict-item]  # (the event's ship)
        p.update({"captain": q["captain"], "revealed": True, "chosen": ship["type"], "ship": ship, "zone": q["zone"],
                  "in_port": q["in_port"], "glory": q["glory"], "flags": dict(q["flags"]), "captains_had": 1,
                  "weapons": {k: 1 for k in q["weapons"]}})
        decks["captains"].remove(q["captain"])
        for k in q["weapons"]:
            state["weapons"][k] -= 1
    state["order"] = list(d["order"])
    state["cur"] = state["order"].index(d["to_play"])
    state["phase"] = "play"
    state.pop("position", None)


APPLY = {
    "PositionGoldHeld": _gold_held,
    "CargoHeld": _cargo_held,
    "PositionLaid": _laid,
}
