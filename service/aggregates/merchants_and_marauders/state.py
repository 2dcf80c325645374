"""Merchants & Marauders state: the table a game starts with, the helpers the rules
share, and how the events of the trade and the sea change it (``evolve.py``
dispatches; the events of a fight are in ``evolve_combat.py``).

The state is the referee's: it holds every hidden thing (gold on board, the
stash, cargo and glory cards, face-down tiles and tokens). ``view.py`` decides
what a seat may see. The catalog's derived tables (``catalog.static``) are not
copied into the state: ``state["cat"]`` is their key and ``T(state)``
(``catalog.tables``) returns them; ``initial_state`` registers them, and the
default catalog is reloaded on demand.

What the parts added: ``flags`` (wanted flags per nation), ``board["npcs"]`` (NPC
ships), ``board["war"]``, ``board["merchant_track"]``, each player's
``rumor``/``mission``/``specialists``; a fight in ``state["combat"]`` (None while
nobody fights), glory-card windows at the start of a turn in ``state["turn_window"]``.
"""

from __future__ import annotations

from .abilities import has
from .catalog import default_key, register
from .catalog import tables as T
from .derived import SHIP_STATS, derived

LOCATIONS = ("hull", "masts", "cargo", "crew", "cannons")     # a ship's hit locations
UPGRADE_STAT = {"extra_hammocks": "crew", "better_rigging": "maneuver", "extended_hold": "cargo",
                "extra_cannons": "cannons"}


def initial_state(config: dict) -> dict:
    cat = config["catalog"]
    key = register(cat)
    S = T({"cat": key})
    opts = config.get("options") or {}
    target = opts.get("glory", S["rules"]["glory_target"])
    seats = config["seats"]
    state = {
        "cat": key,
        # rules version 2: at a table, face-down tiles, tokens and the demand reserve stay unseen
        "unseen": int(config.get("rules_version", "1")) >= 2 and bool(config.get("table")),
        # rules version 3: the part-2 fixes (turn end, the three-card rule, St. John's transfer)
        "fixes": int(config.get("rules_version", "1")) >= 3,
        # rules version 4: rumors followed and missions completed (tasks.py)
        "tasks": int(config.get("rules_version", "1")) >= 4,
        # rules version 4: glory cards played in combat and in other players' turns (glory.py)
        "glory_windows": int(config.get("rules_version", "1")) >= 4,
        "turn": 0,
        "phase": "setup",            # setup -> play -> over
        "end_reason": None,
        "target": target,
        "order": [],                 # seats in turn order, first player first
        "cur": 0,                    # index in order of the seat whose turn it is
        "actions": 0,                # actions left to the current seat
        "acted": False,              # the current seat has taken an action this turn
        "port_used": False,          # the port action was taken this turn
        "port": None,                # the port action in progress (see PortActionBegun)
        "withdrew": False,           # the current seat took gold from the stash this turn
        "combat": None,              # part 2
        "raid": None,                # a merchant sighted or raided (raid.py)
        "scouted": [],               # targets scouted this turn (none twice)
        "players": [new_player(n) for n in range(1, seats + 1)],
        "decks": {
            "cargo": [c for c in S["good"]], "cargo_discard": [],
            "events": list(S["events"]), "event_discard": [],
            "glory": list(S["glory"]), "glory_discard": [],
            "rumors": list(S["rumors"]), "missions": list(S["missions"]), "mission_discard": [],
            "captains": list(S["captains"]), "captain_discard": [],
            "demand_reserve": [],
        },
        "board": {
            "demand": {},            # port -> demand tile (face up)
            "upgrades": {p: None for p in S["ports"]},   # port -> tile (face down until revealed)
            "revealed": {p: False for p in S["ports"]},
            "merchants": {z: None for z in S["zone_order"]},  # zone -> token (face down)
            "merchant_track": [],    # raided merchants (part 2)
            "missions": {},          # mission -> port
            "npcs": {},              # part 2
            "war": None,             # part 2
        },
        "weapons": dict(S["weapons"]),
        "bank": S["rules"]["coins_total"],
        "declared": [],
    }
    if key != default_key():
        state["tables"] = S      # another catalog: keep its tables with the state
    return state


def new_player(seat: int) -> dict:
    return {
        "seat": seat, "captain": None, "revealed": False, "chosen": None, "ship": None,
        "zone": None, "in_port": False, "gold": 0, "stash": 0, "stash_acts": 0,
        "cargo": [], "glory": 0, "hand": [], "specialists": [], "rumor": None, "offered_rumor": None,
        "mission": None, "weapons": {}, "flags": {}, "glory_ship": False, "last_buy": None,
        "needs_captain": False, "returning": [], "pending": [], "captains_had": 0,
    }


# helpers shared with the rules ------------------------------------------------

def player(state, seat):
    return state["players"][seat - 1]


def side(state, who):
    """A side of a fight: a seat's player, or the NPC fighting (``npc:<id>``; its ship is
    the Enemy chart's, its hold the cards found when it is plundered)."""
    if isinstance(who, str):
        return state["combat"]["npc"]
    return player(state, who)


def ship_max(state, ship, stat):
    """The ship's value for ``stat`` with its upgrades (never above the maximum)."""
    if not ship["upgrades"]:
        return derived(state)["ship_maxima"][ship["type"]][stat]
    S = T(state)
    key = "toughness" if stat in ("hull", "masts") else stat
    v = S["ships"][ship["type"]][key]
    for t in ship["upgrades"]:
        if UPGRADE_STAT.get(S["upgrade"][t]) == key:
            v += 1
    return min(v, S["rules"]["stat_max"])


def ship_maxima(state, ship) -> dict:
    """``ship_max`` of every stat (``SHIP_STATS``) at once: {stat: value}. Read it, never
    change it (without upgrades it is the ship type's own table, derived.py)."""
    if not ship["upgrades"]:
        return derived(state)["ship_maxima"][ship["type"]]
    return {stat: ship_max(state, ship, stat) for stat in SHIP_STATS}


def damage(state, ship) -> int:
    """Damage points (crew losses are not damage: they are recruited)."""
    most = ship_maxima(state, ship)
    n = 0
    for loc in ("hull", "masts", "cargo", "cannons"):
        n += most[loc] - ship[loc]
    return n


def capacity(state, p) -> int:
    cap = p["ship"]["cargo"]
    if has(state, p, "extra_cargo"):
        cap += 1
    return cap


def home(state, p, S=None):
    """``S``: the state's tables (``T(state)``), when the caller has read them."""
    return (S or T(state))["captains"][p["captain"]]["home"]


def at_home(state, p, S=None) -> bool:
    """``S``: the state's tables (``T(state)``), when the caller has read them."""
    return p["in_port"] and p["zone"] == home(state, p, S)


def funds(state, p, home: bool | None = None) -> int:
    """What the player may spend now: gold on board, and the stash at the home port
    (``home``: ``at_home``, when the caller has read it)."""
    if home is None:
        home = at_home(state, p)
    return p["gold"] + (p["stash"] if home else 0)


def stash_terms(state) -> tuple[int, int]:
    """The stash's rate (gold a glory point) and the most glory it may give."""
    r = T(state)["rules"]
    return r["stash_gold_per_glory"], state["target"] // r["stash_glory_fraction"]


def stash_glory(state, p, terms: tuple[int, int] | None = None) -> int:
    per, most = terms or stash_terms(state)
    return min(p["stash"] // per, most)


def total_glory(state, p) -> int:
    return p["glory"] + stash_glory(state, p)


def current_seat(state):
    order = state["order"]
    if state["phase"] != "play" or not order:
        return None
    return order[state["cur"]]


def new_ship(state, kind: str, crew: int | None = None) -> dict:
    s = T(state)["ships"][kind]
    return {"type": kind, "hull": s["toughness"], "masts": s["toughness"], "cargo": s["cargo"],
            "crew": s["crew"] if crew is None else min(crew, s["crew"]), "cannons": s["cannons"],
            "upgrades": [], "flipped": []}


def pay(state, p, amount):
    from_board = min(p["gold"], amount)
    p["gold"] -= from_board
    p["stash"] -= amount - from_board
    state["bank"] += amount


def _receive(state, p, amount):
    p["gold"] += amount
    state["bank"] -= amount


# the events of the trade and the sea (evolve.py dispatches; fights: evolve_combat.py) --

def _card_drawn(state, d, ev):
    deck = state["decks"].get(d["deck"])
    if deck is not None:  # (the setup's face-up demand tiles are drawn from the box, not a deck)
        deck.remove(d.get("token") or d["card"])


def _card_identified(state, d, ev):
    """A face-down tile or token turned over at a table: it is now known."""
    board = state["board"]
    for place in (board["upgrades"], board["merchants"]):
        for k, v in place.items():
            if v == d["token"]:
                place[k] = d["card"]


def _demand_placed(state, d, ev):
    state["board"]["demand"] = dict(d["demand"])
    state["decks"]["demand_reserve"] = list(d["reserve"])


def _upgrades_placed(state, d, ev):
    state["board"]["upgrades"].update(d["tiles"])


def _merchants_placed(state, d, ev):
    state["board"]["merchants"].update(d["tokens"])


def _mission_placed(state, d, ev):
    state["board"]["missions"][d["mission"]] = d["port"]


def _captain_redrawn(state, d, ev):
    p = player(state, d["seat"])
    state["decks"]["captain_discard"].append(p["captain"])
    p["captain"] = None
    p["pending"].remove("choose_ship")
    p["redrawn"] = True


def _captain_dealt(state, d, ev):
    p = player(state, d["seat"])
    p["captain"] = d["captain"]
    p["revealed"] = False
    p["captains_had"] += 1
    p["pending"].append("choose_ship")


def _ship_chosen(state, d, ev):
    p = player(state, d["seat"])
    p["chosen"] = d["ship"]
    p["pending"].remove("choose_ship")


def _captains_revealed(state, d, ev):
    for seat, info in d["seats"].items():
        p = player(state, int(seat))
        p.pop("redrawn", None)
        p["captain"] = info["captain"]
        p["revealed"] = True
        p["ship"] = new_ship(state, info["ship"])
        p["chosen"] = None
        p["zone"] = home(state, p)
        p["in_port"] = True
        p["needs_captain"] = False
        p["glory_ship"] = False
        p["last_buy"] = None


def _glory_card_dealt(state, d, ev):
    player(state, d["seat"])["hand"].append(d["card"])


def _gold_received(state, d, ev):
    _receive(state, player(state, d["seat"]), d["amount"])


def _first_player(state, d, ev):
    state["order"] = list(d["order"])
    state["phase"] = "play"


def _turn_started(state, d, ev):
    state["turn"] = ev.turn


def _event_drawn(state, d, ev):
    state["decks"]["event_discard"].append(d["card"])
    # an event whose effect lasts (each turn / the end of the turn) stays in play until the next
    state["event_in_play"] = d["card"] if d.get("effect") in ("each_turn", "end_of_turn") else None


def _npc_arriving(state, d, ev):
    if d["card"] is None:               # a Man-o-War brought by a war (war.py)
        state.setdefault("mow_arriving", []).append({k: d[k] for k in ("npc", "zone", "nation", "captain")})
        return
    state.setdefault("npc_arriving", []).append(d["card"])


def _npc_card_in_play(state, card):
    state["npc_arriving"].remove(card)
    state["decks"]["event_discard"].remove(card)        # the NPC's card lies face up in its area


def _npc_entered(state, d, ev):
    if d["card"] is None:               # a Man-o-War: no card in its area
        state["mow_arriving"] = [a for a in state["mow_arriving"] if a["npc"] != d["npc"]]
        state["board"]["npcs"][d["npc"]] = {"zone": d["zone"], "cards": [], "ship": d["ship"],
                                            "nation": d["nation"], "captain": dict(d["skills"])}
        return
    _npc_card_in_play(state, d["card"])
    state["board"]["npcs"][d["npc"]] = {"zone": d["zone"], "cards": [d["card"]], "ship": d["ship"]}


def _npc_replaced(state, d, ev):
    _npc_card_in_play(state, d["card"])
    n = state["board"]["npcs"][d["npc"]]
    n["cards"].append(d["card"])
    n["zone"] = d["to"]


def _npc_cargo_found(state, d, ev):
    state["combat"]["npc"]["cargo"].append(d["card"])


def _npc_cargo_lost(state, d, ev):
    state["combat"]["npc"]["cargo"].remove(d["card"])
    state["decks"]["cargo_discard"].append(d["card"])


def _npc_captain_lost(state, d, ev):
    if d["card"] is None:               # a Man-o-War's captain: the ship leaves the sea
        del state["board"]["npcs"][d["npc"]]
        return
    n = state["board"]["npcs"][d["npc"]]
    n["cards"].remove(d["card"])
    state["decks"]["event_discard"].append(d["card"])
    if d.get("successor"):
        n["cards"].remove(d["successor"])
        n["cards"].append(d["successor"])           # the captain beneath takes command
        state.setdefault("npc_returning", []).append(d["npc"])
    if not n["cards"]:
        del state["board"]["npcs"][d["npc"]]


def _npc_returned(state, d, ev):
    state["npc_returning"].remove(d["npc"])
    if d["npc"] in state["board"]["npcs"]:
        state["board"]["npcs"][d["npc"]]["zone"] = d["to"]


def _npcs_scouting(state, d, ev):
    state["npc_queue"] = {"seat": d["seat"], "npcs": list(d["npcs"])}


def _npc_scouted(state, d, ev):
    q = state["npc_queue"]
    q["npcs"].remove(d["npc"])
    if not q["npcs"]:
        state["npc_queue"] = None


def _cargo_gained_by_card(state, d, ev):
    player(state, d["seat"])["cargo"].append(d["card"])


def _rumor_revealed(state, d, ev):
    player(state, d["seat"])["rumor_shown"] = True


def _rumor_done(state, d, ev):
    p = player(state, d["seat"])
    if not d.get("kept"):               # false, or true and not kept: back into the rumor deck
        state["decks"]["rumors"].append(p["rumor"])
        p["rumor"] = None
        p.pop("rumor_shown", None)


def _mission_completed(state, d, ev):
    p = player(state, d["seat"])
    for c in d["delivered"]:
        p["cargo"].remove(c)
    state["decks"]["cargo_discard"].extend(d["delivered"])
    if d["paid"]:
        pay(state, p, d["paid"])
    state["decks"]["mission_discard"].append(p["mission"])
    p["mission"] = None


def _war_declared(state, d, ev):
    state["board"]["war"] = list(d["nations"])


def _war_ended(state, d, ev):
    state["board"]["war"] = None
    state["mow_arriving"] = [a for a in state.get("mow_arriving") or [] if a["nation"] not in d["nations"]]


def _npc_left(state, d, ev):
    del state["board"]["npcs"][d["npc"]]
    if state.get("npc_returning") and d["npc"] in state["npc_returning"]:
        state["npc_returning"].remove(d["npc"])


def _npc_moved(state, d, ev):
    state["board"]["npcs"][d["npc"]]["zone"] = d["to"]


def _gold_lost(state, d, ev):
    p = player(state, d["seat"])
    p["gold"] -= d["amount"]
    state["bank"] += d["amount"]


def _flag_removed(state, d, ev):
    p = player(state, d["seat"])
    if d["flags"] <= 0:
        p["flags"].pop(d["nation"], None)
    else:
        p["flags"][d["nation"]] = d["flags"]


def _repaired_by_card(state, d, ev):
    player(state, d["seat"])["ship"][d["location"]] += 1


def _player_turn_started(state, d, ev):
    state["cur"] = state["order"].index(d["seat"])
    state["scouted"] = []
    state["actions"] = T(state)["rules"]["actions"]
    state["acted"] = False
    state["port_used"] = False
    state["port"] = None
    state["withdrew"] = False


def _action_spent(state):
    state["actions"] -= 1
    state["acted"] = True


def _moved(state, d, ev):
    state["players"][d["seat"] - 1]["zone"] = d["to"]
    state["actions"] -= 1
    state["acted"] = True


def _entered_port(state, d, ev):
    player(state, d["seat"])["in_port"] = True
    state["actions"] -= 1
    state["acted"] = True


def _left_port(state, d, ev):
    player(state, d["seat"])["in_port"] = False
    state["actions"] -= 1
    state["acted"] = True


def _cargo_jettisoned(state, d, ev):
    player(state, d["seat"])["cargo"].remove(d["card"])
    state["decks"]["cargo_discard"].append(d["card"])


def _port_begun(state, d, ev):
    state["actions"] -= 1
    state["acted"] = True
    state["port_used"] = True
    state["port"] = {"port": d["port"], "started": [], "act": None, "sell_closed": False, "offer": {}, "bought": 0}


def _upgrade_revealed(state, d, ev):
    state["board"]["revealed"][d["port"]] = True


def _goods_sold(state, d, ev):
    p = player(state, d["seat"])
    for c in d["cards"]:
        p["cargo"].remove(c)
    state["decks"]["cargo_discard"].extend(d["cards"])
    _receive(state, p, d["total"])
    if "sell" not in state["port"]["started"]:
        state["port"]["started"].append("sell")


def _demand_replaced(state, d, ev):
    state["board"]["demand"][d["port"]] = d["new"]
    state["decks"]["demand_reserve"].append(d["old"])
    state["port"]["sell_closed"] = True


def _glory_gained(state, d, ev):
    player(state, d["seat"])["glory"] += 1


def _glory_deck_reshuffled(state, d, ev):
    decks = state["decks"]
    decks["glory"].extend(decks["glory_discard"])
    decks["glory_discard"] = []


def _cargo_deck_reshuffled(state, d, ev):
    decks = state["decks"]
    decks["cargo"].extend(decks["cargo_discard"])
    decks["cargo_discard"] = []


def _activity_begun(state, d, ev):
    port = state["port"]
    port["started"].append(d["activity"])
    if d["activity"] in ("buy", "shipyard", "recruit", "stash"):
        port["act"] = d["activity"]


def _activity_ended(state, d, ev):
    state["port"]["act"] = None


def _demanded_discarded(state, d, ev):
    state["decks"]["cargo_discard"].extend(d["cards"])


def _cargo_offered(state, d, ev):
    state["port"]["offer"] = dict(d["offer"])


def _cargo_bought(state, d, ev):
    p = player(state, d["seat"])
    state["port"]["offer"].pop(d["card"])
    p["cargo"].append(d["card"])
    state["port"]["bought"] += 1
    pay(state, p, d["price"])


def _buying_ended(state, d, ev):
    state["decks"]["cargo_discard"].extend(d["returned"])
    state["port"]["offer"] = {}
    state["port"]["act"] = None
    if d.get("bought", 1) or not state.get("fixes"):   # the three-card rule counts goods really bought
        player(state, d["seat"])["last_buy"] = [state["port"]["port"], state["turn"]]


def _ship_repaired(state, d, ev):
    p = player(state, d["seat"])
    p["ship"][d["location"]] += 1
    pay(state, p, d["cost"])


def _upgrade_bought(state, d, ev):
    p = player(state, d["seat"])
    state["board"]["upgrades"][d["port"]] = None
    state["board"]["revealed"][d["port"]] = False
    ship = p["ship"]
    stat = UPGRADE_STAT.get(T(state)["upgrade"][d["tile"]])
    before = ship_max(state, ship, stat) if stat in ("cargo", "cannons") else None
    ship["upgrades"].append(d["tile"])
    if before is not None and ship_max(state, ship, stat) > before:
        ship[stat] += 1
    pay(state, p, d["cost"])


def _weapon_bought(state, d, ev):
    p = player(state, d["seat"])
    state["weapons"][d["kind"]] -= 1
    p["weapons"][d["kind"]] = 1
    pay(state, p, d["cost"])


def _weapon_sold(state, d, ev):
    p = player(state, d["seat"])
    state["weapons"][d["kind"]] += 1
    del p["weapons"][d["kind"]]
    _receive(state, p, d["price"])


def _ship_bought(state, d, ev):
    p = player(state, d["seat"])
    old = p["ship"]
    ship = new_ship(state, d["ship"], crew=old["crew"])
    if d["keep_upgrades"]:
        ship["upgrades"] = list(d["kept"])
        for t in ship["upgrades"]:
            stat = UPGRADE_STAT.get(T(state)["upgrade"][t])
            if stat in ("cargo", "cannons"):
                ship[stat] = ship_max(state, ship, stat)
        if state.get("fixes"):          # a kept Extra Hammocks tile keeps its crew point
            ship["crew"] = min(old["crew"], ship_max(state, ship, "crew"))
    p["returning"].extend(t for t in old["upgrades"] if t not in ship["upgrades"])
    p["ship"] = ship
    if T(state)["ships"][d["ship"]]["glory_on_buy"]:
        p["glory_ship"] = True
    if d["net"] >= 0:
        pay(state, p, d["net"])
    else:
        _receive(state, p, -d["net"])


def _upgrade_tile_placed(state, d, ev):
    p = player(state, d["seat"])
    p["returning"].remove(d["tile"])
    state["board"]["upgrades"][d["port"]] = d["tile"]
    state["board"]["revealed"][d["port"]] = False


def _crew_recruited(state, d, ev):
    p = player(state, d["seat"])
    p["ship"]["crew"] += d["crew"]
    pay(state, p, d["cost"])


def _rumor_sought(state, d, ev):
    pay(state, player(state, d["seat"]), d["cost"])


def _rumor_drawn(state, d, ev):
    p = player(state, d["seat"])
    if p["rumor"] is None:
        p["rumor"] = d["card"]
    else:
        p["offered_rumor"] = d["card"]
        p["pending"].append("keep_rumor")


def _rumor_kept(state, d, ev):
    p = player(state, d["seat"])
    if d["kept"] != p["rumor"]:
        p.pop("rumor_shown", None)      # a kept rumor shown face up (tasks.py) given up
    p["rumor"] = d["kept"]
    p["offered_rumor"] = None
    p["pending"].remove("keep_rumor")
    state["decks"]["rumors"].append(d["discarded"])


def _mission_claimed(state, d, ev):
    p = player(state, d["seat"])
    del state["board"]["missions"][d["mission"]]
    if p["mission"] is not None:
        state["decks"]["mission_discard"].append(p["mission"])
    p["mission"] = d["mission"]


def _stash_changed(state, d, ev):
    p = player(state, d["seat"])
    p["gold"] -= d["amount"]
    p["stash"] += d["amount"]


def _gold_withdrawn(state, d, ev):
    state["withdrew"] = True


def _gold_stashed(state, d, ev):
    player(state, d["seat"])["stash_acts"] += 1


def _port_ended(state, d, ev):
    state["port"] = None


def _glory_discarded(state, d, ev):
    player(state, d["seat"])["hand"].remove(d["card"])
    state["decks"]["glory_discard"].append(d["card"])


def _glory_played(state, d, ev):
    p = player(state, d["seat"])
    p["hand"].remove(d["card"])
    if d.get("specialist"):
        p["specialists"].append(d["card"])
    else:
        state["decks"]["glory_discard"].append(d["card"])
    if d.get("cost"):
        pay(state, p, d["cost"])
    if d.get("effect", "none") != "none" and not d.get("copies"):
        state["last_glory"] = d["card"]     # the text a Fast Learner copies


def _victory_declared(state, d, ev):
    state["declared"].append(d["seat"])


def _captain_retired(state, d, ev):
    player(state, d["seat"])["needs_captain"] = True


def _captain_left(state, d, ev):
    p = player(state, d["seat"])
    decks = state["decks"]
    decks["captain_discard"].append(p["captain"])
    decks["cargo_discard"].extend(p["cargo"])
    p["cargo"] = []
    for k in p["weapons"]:
        state["weapons"][k] += 1
    p["weapons"] = {}
    p["flags"] = {}
    if p["rumor"] is not None:
        decks["rumors"].append(p["rumor"])
        p["rumor"] = None
    p.pop("rumor_shown", None)
    if p["mission"] is not None:
        decks["mission_discard"].append(p["mission"])
        p["mission"] = None
    decks["glory_discard"].extend(p["specialists"])
    p["specialists"] = []
    if p["ship"] is not None:
        p["returning"].extend(p["ship"]["upgrades"])
    p["ship"] = None
    p["zone"] = None
    p["in_port"] = False
    p["captain"] = None
    p["revealed"] = False
    p["glory_ship"] = False
    p["last_buy"] = None


def _holdings_lost(state, d, ev):
    p = player(state, d["seat"])
    state["bank"] += p["gold"]
    p["gold"] = 0
    state["decks"]["glory_discard"].extend(p["hand"])
    p["hand"] = []


def _merchants_redistributed(state, d, ev):
    for z, tok in d["tokens"].items():
        state["board"]["merchants"][z] = tok
        state["board"]["merchant_track"].remove(tok)


# scouting and raids (raid.py) ------------------------------------------------------
def _scouted(state, d, ev):
    _action_spent(state)
    state.setdefault("scouted", []).append(d["target"])


def _merchant_sighted(state, d, ev):
    board = state["board"]
    board["merchants"][d["zone"]] = None
    board["merchant_track"].append(d["token"])
    state["raid"] = {"seat": d["seat"], "zone": d["zone"], "token": d["token"], "nation": d["nation"],
                     "stage": "engage", "cards": [], "successes": 0, "failures": 0, "left": 0, "loot": 0}


def _merchant_let_go(state, d, ev):
    state["raid"] = None


def _raid_begun(state, d, ev):
    state["raid"]["stage"] = "draw"
    state["raid"]["chosen"] = d["nation"]


def _flag_gained(state, d, ev):
    player(state, d["seat"])["flags"][d["nation"]] = d["flags"]


def _raid_card_turned(state, d, ev):
    state["raid"]["cards"].append(d["card"])


def _raid_successes(state, d, ev):
    r = state["raid"]
    r["successes"], r["failures"], r["left"] = d["successes"], d["failures"], d["successes"]


def _raid_stage(state, d, ev):
    state["raid"]["stage"] = d["stage"]


def _weapon_spent(state, d, ev):
    p = player(state, d["seat"])
    del p["weapons"][d["kind"]]
    state["weapons"][d["kind"]] += 1
    if state.get("raid") is not None:
        state["raid"]["failures"] -= 1
        state["raid"]["left"] += 1


def _raid_success_used(state, d, ev):
    state["raid"]["left"] -= 1


def _raid_card_discarded(state, d, ev):
    state["raid"]["cards"].remove(d["card"])
    state["decks"]["cargo_discard"].append(d["card"])


def _ship_hit(state, d, ev):
    ship = side(state, d["seat"])["ship"]
    ship[d["location"]] = max(0, ship[d["location"]] - 1)


def _raid_succeeded(state, d, ev):
    state["raid"]["loot"] = d["loot"]


def _raid_card_taken(state, d, ev):
    state["raid"]["cards"].remove(d["card"])
    player(state, d["seat"])["cargo"].append(d["card"])


def _raid_ended(state, d, ev):
    state["decks"]["cargo_discard"].extend(state["raid"]["cards"])
    state["raid"] = None


def _cargo_lost(state, d, ev):
    player(state, d["seat"])["cargo"].remove(d["card"])
    state["decks"]["cargo_discard"].append(d["card"])


def _port_fee(state, d, ev):
    pay(state, player(state, d["seat"]), d["fee"])


def _port_action_refused(state, d, ev):
    _action_spent(state)
    state["port_used"] = True


def _entry_refused(state, d, ev):
    _action_spent(state)


def _captain_died(state, d, ev):
    player(state, d["seat"])["needs_captain"] = True


# combat between players (the events: evolve_combat.py) -------------------------------
def side_key(c, who):
    """``a`` (the attacker) or ``d`` (the defender): where a side's dice and action are kept."""
    return "a" if who == c["a"] else "d"


def _game_ended(state, d, ev):
    state["phase"] = "over"
    state["end_reason"] = d["reason"]


HANDLERS = {
    "CardDrawn": _card_drawn,
    "CardIdentified": _card_identified,
    "DemandTilesPlaced": _demand_placed,
    "UpgradeTilesPlaced": _upgrades_placed,
    "MerchantTokensPlaced": _merchants_placed,
    "MissionPlaced": _mission_placed,
    "CaptainDealt": _captain_dealt,
    "ShipChosen": _ship_chosen,
    "CaptainsRevealed": _captains_revealed,
    "GloryCardDealt": _glory_card_dealt,
    "GoldReceived": _gold_received,
    "FirstPlayerChosen": _first_player,
    "TurnStarted": _turn_started,
    "EventCardDrawn": _event_drawn,
    "PlayerTurnStarted": _player_turn_started,
    "Moved": _moved,
    "EnteredPort": _entered_port,
    "LeftPort": _left_port,
    "CargoJettisoned": _cargo_jettisoned,
    "PortActionBegun": _port_begun,
    "UpgradeTileRevealed": _upgrade_revealed,
    "GoodsSold": _goods_sold,
    "DemandTileReplaced": _demand_replaced,
    "GloryGained": _glory_gained,
    "GloryDeckReshuffled": _glory_deck_reshuffled,
    "CargoDeckReshuffled": _cargo_deck_reshuffled,
    "PortActivityBegun": _activity_begun,
    "PortActivityEnded": _activity_ended,
    "DemandedCargoDiscarded": _demanded_discarded,
    "CargoOffered": _cargo_offered,
    "CargoBought": _cargo_bought,
    "BuyingEnded": _buying_ended,
    "ShipRepaired": _ship_repaired,
    "UpgradeBought": _upgrade_bought,
    "WeaponBought": _weapon_bought,
    "WeaponSold": _weapon_sold,
    "ShipBought": _ship_bought,
    "UpgradeTilePlaced": _upgrade_tile_placed,
    "CrewRecruited": _crew_recruited,
    "RumorSought": _rumor_sought,
    "RumorDrawn": _rumor_drawn,
    "RumorKept": _rumor_kept,
    "StashChanged": _stash_changed,
    "MissionClaimed": _mission_claimed,
    "GoldStashed": _gold_stashed,
    "GoldWithdrawn": _gold_withdrawn,
    "PortActionEnded": _port_ended,
    "GloryCardDiscarded": _glory_discarded,
    "GloryCardPlayed": _glory_played,
    "VictoryDeclared": _victory_declared,
    "CaptainRetired": _captain_retired,
    "CaptainLeft": _captain_left,
    "HoldingsLost": _holdings_lost,
    "MerchantTokensRedistributed": _merchants_redistributed,
    "GameEnded": _game_ended,
    "Scouted": _scouted,
    "MerchantSighted": _merchant_sighted,
    "MerchantLetGo": _merchant_let_go,
    "RaidBegun": _raid_begun,
    "WantedFlagGained": _flag_gained,
    "RaidCardTurned": _raid_card_turned,
    "RaidSuccesses": _raid_successes,
    "RaidStage": _raid_stage,
    "WeaponSpent": _weapon_spent,
    "RaidSuccessUsed": _raid_success_used,
    "RaidCardDiscarded": _raid_card_discarded,
    "ShipHit": _ship_hit,
    "RaidSucceeded": _raid_succeeded,
    "RaidCardTaken": _raid_card_taken,
    "RaidEnded": _raid_ended,
    "CargoLost": _cargo_lost,
    "CaptainDied": _captain_died,
    "CaptainRedrawn": _captain_redrawn,
    "PortFeePaid": _port_fee,
    "PortEntryRefused": _entry_refused,
    "PortActionRefused": _port_action_refused,
    "GoldLost": _gold_lost,
    "NpcArriving": _npc_arriving,
    "NpcEntered": _npc_entered,
    "NpcReplaced": _npc_replaced,
    "NpcMoved": _npc_moved,
    "WarDeclared": _war_declared,
    "RumorRevealed": _rumor_revealed,
    "RumorFalse": _rumor_done,
    "RumorTrue": _rumor_done,
    "MissionCompleted": _mission_completed,
    "CargoGainedByCard": _cargo_gained_by_card,
    "WarEnded": _war_ended,
    "NpcLeft": _npc_left,
    "NpcsScouting": _npcs_scouting,
    "NpcScouted": _npc_scouted,
    "NpcCargoFound": _npc_cargo_found,
    "NpcCargoLost": _npc_cargo_lost,
    "NpcCaptainLost": _npc_captain_lost,
    "NpcReturned": _npc_returned,
    "WantedFlagRemoved": _flag_removed,
    "ShipRepairedByCard": _repaired_by_card,
}
