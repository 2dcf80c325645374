"""NPC ships (the book: "Capitani non giocatori (NPC)", p. 12: Entrata in gioco dei
NPC, Priorità di caccia, Azioni Esplorare, Movimento degli NPC, Cacciare i capitani dei
giocatori, Navi NPC in combattimento): they enter, stack, move, hunt and scout; an NPC
that finds a player is handed back (``spotted``, ``scout_on``) and the caller begins
the fight (combat.py, the NPC's side decided by the player to the left of the player it
fights).

* An NPC event card (a nation's naval ship, the pirate Sloop or Frigate) brings its
  NPC in at the end of the turn, at the card's zone. One naval NPC per nation and
  one pirate Sloop and one pirate Frigate at most: a card for an NPC already at sea
  goes on top of the old one at the end of the turn and the ship moves to the new
  card's zone.
* The NPC icons of an event card move the NPCs at sea, in the card's order, across
  the border with the icon's letter, or the next letter clockwise when there is none.
* An NPC ignores the letter when a player it hunts is in its zone or an adjacent one
  (at sea, or in the zone's port: rules version 5): it moves to (or stays in) that
  player's zone. A player in port is not scouted there; he is when he leaves the port. Naval ships hunt players wanted by
  their nation (the most flags first), then players wanted by others (the most
  flags), then players of a nation at war with theirs; pirates hunt non-pirates with
  gold aboard, then with cargo, then any. Players still even: one at random.
"""

from __future__ import annotations

from .catalog import tables
from .derived import derived, is_man_o_war
from .state import nation_of, player
from .war import enter

TYPE_CHECKING = False   # (the imports below are the type checker's: none at run time)
if TYPE_CHECKING:
    from service.kernel.events import Ev
    from service.kernel.machine import Step
    from typing import Any
    from .shapes import Player, State

def naval_nation(state: State, npc: str) -> str | None:
    """The nation of a naval NPC at sea (its card's, a Man-o-War's own); None for a pirate."""
    n = state["board"]["npcs"][npc]
    if "nation" in n:
        return n["nation"]
    return tables(state)["events"][n["cards"][-1]].get("nation")


def captain_of(state: State, npc: str) -> dict[str, Any]:
    """The NPC captain's skills: the top card's (a Man-o-War's: its war's)."""
    n = state["board"]["npcs"][npc]
    if "captain" in n:
        return dict(n["captain"])
    return dict(tables(state)["events"][n["cards"][-1]]["captain"])


def _hunt_rank(state: State, npc: str, p: Player) -> tuple[int, int, int]:
    """The NPC's priorities for player ``p``, as a tuple to compare (all 0: not hunted).
    The book: "Priorità di caccia", p. 12."""
    flags = p["flags"]
    nation = naval_nation(state, npc)
    if nation:
        war = state["board"].get("war") or []
        at_war = 0
        if nation in war:
            theirs = nation_of(state, p)
            at_war = 1 if theirs in war and theirs != nation else 0
        others = 0                            # (a loop, not a generator: most players have no flag)
        for n, k in flags.items():
            if n != nation:
                others += k
        return (flags.get(nation, 0), others, at_war)
    if any(flags.values()):
        return (0, 0, 0)                      # pirates spare pirates (the pirates' truce)
    return (1 if p["gold"] > 0 else 0, 1 if p["cargo"] else 0, 1)


def _prey(state: State, npc: str, zone: str) -> list[int]:
    """The players in ``zone`` or next to it that the NPC hunts, best first (ties kept): at
    sea or in the zone's port (rules version 5: the PT example's pirate is "no porto, mas
    sem nenhuma conseqüência"; games of version 4 hunted only players at sea)."""
    adj = tables(state)["adj"][zone]
    in_port_too = state.get("combat_fixes")
    ranked = []
    for p in state["players"]:
        if p["captain"] is None or p["ship"] is None or (p["in_port"] and not in_port_too):
            continue
        if p["zone"] != zone and p["zone"] not in adj:
            continue
        r = _hunt_rank(state, npc, p)
        if any(r):
            ranked.append((r, p["seat"]))
    if not ranked:
        return []
    best = max(r for r, _ in ranked)
    return sorted(s for r, s in ranked if r == best)


def _by_letter(state: State, zone: str, letter: str) -> tuple[str, str]:
    """The zone across the border with ``letter``, else the next letter clockwise
    (derived once per catalog: derived.py)."""
    return derived(state)["by_letter"][zone][letter]


def move(step: Step, npc: str, letter: str) -> None:
    """The book: "Movimento degli NPC", p. 12."""
    state = step.state
    zone = state["board"]["npcs"][npc]["zone"]
    prey = _prey(state, npc, zone)
    if prey:
        if len(prey) == 1:
            seat = prey[0]
        elif state.get("draws_ties"):     # the book: the tied captains' cards shuffled, one drawn (rules version 6)
            owner = {player(state, s)["captain"]: s for s in prey}
            seat = owner[step.draw("hunt_tie", sorted(owner), vis="all",
                                   why=f"{npc} hunts: players even on every priority, one of their captain "
                                       "cards drawn")]
        else:
            seat = step.pick(prey, vis="all", why=f"{npc} hunts: players even on every priority, one at random")
        hunted = player(state, seat)
        to = hunted["zone"]
        why = "hunting" if to != zone else "hunting: it stays"
        if hunted["in_port"]:             # no fight in port: the NPC waits at sea (spotted)
            why += f" (seat {seat} is in port: no consequence there)"
        step.emit("NpcMoved", {"npc": npc, "frm": zone, "to": to, "letter": letter, "hunting": seat, "why": why})
        return
    to, used = _by_letter(state, zone, letter)
    step.emit("NpcMoved", {"npc": npc, "frm": zone, "to": to, "letter": letter, "hunting": None,
              "why": f"the letter {used}" + ("" if used == letter else f" (no {letter} border: next clockwise)")})


def on_event(step: Step, card: str) -> None:
    """An event card drawn: its NPC icons move the NPCs at sea; an NPC card's ship will
    enter (or move) at the end of the turn. The book: "Entrata in gioco dei NPC", p. 12."""
    state = step.state
    info = tables(state)["events"][card]
    for icon in info.get("npc_icons") or []:
        if icon["npc"] in state["board"]["npcs"]:
            move(step, icon["npc"], icon["dir"])
        mow = _man_o_war_of_icon(state, icon["npc"])   # a nation's icon moves its Man-o-War too
        if mow in state["board"]["npcs"]:
            move(step, mow, icon["dir"])  # type: ignore[arg-type]  # (at sea: a name)
    if info.get("npc"):
        step.emit("NpcArriving", {"npc": info["npc"], "card": card, "zone": info["zone"]})


def _man_o_war_of_icon(state: State, icon_npc: str) -> str | None:
    return derived(state)["man_o_war_of_icon"].get(icon_npc)


def end_of_turn(step: Step) -> None:
    state = step.state
    S = tables(state)
    if state.get("mow_arriving"):
        for arrival in list(state["mow_arriving"]):
            enter(step, arrival)
    for card in list(state.get("npc_arriving") or []):
        info = S["events"][card]
        npc = info["npc"]
        here = state["board"]["npcs"].get(npc)
        if here is None:
            step.emit("NpcEntered", {"npc": npc, "card": card, "zone": info["zone"], "ship": info["ship"],
                      "captain": info["captain"]["name"]})
        else:
            step.emit("NpcReplaced", {"npc": npc, "card": card, "frm": here["zone"], "to": info["zone"],
                      "captain": info["captain"]["name"], "beneath": list(here["cards"])})


def end_of_turn_returns(step: Step) -> None:
    """An NPC whose captain died sails back to its new captain's zone at the end of the turn."""
    state = step.state
    S = tables(state)
    for npc in list(state.get("npc_returning") or []):
        n = state["board"]["npcs"].get(npc)
        to = S["events"][n["cards"][-1]]["zone"] if n else None
        step.emit("NpcReturned", {"npc": npc, "to": to})


# fights -----------------------------------------------------------------------------
def fighter(state: State, npc: str) -> dict[str, Any]:
    """What the combat needs of an NPC: its ship, its captain (the top card), its nation.
    The book: "Navi NPC in combattimento", p. 12."""
    n = state["board"]["npcs"][npc]
    nation = naval_nation(state, npc)
    return {"id": npc, "card": n["cards"][-1] if n["cards"] else None, "ship": n["ship"],
            "captain": captain_of(state, npc), "nation": nation, "pirate": not nation}


def captain_lost(step: Step, npc: str) -> None:
    """The NPC's captain is dead: its card is discarded; the captain beneath (one at random
    of two or more) takes command, else the NPC leaves the sea."""
    state = step.state
    n = state["board"]["npcs"][npc]
    if not n["cards"]:                  # a Man-o-War: no captain beneath, it leaves the sea
        step.emit("NpcCaptainLost", {"npc": npc, "card": None, "successor": None})
        return
    top = n["cards"][-1]
    below = n["cards"][:-1]
    successor = None
    if len(below) == 1:
        successor = below[0]
    elif below:
        successor = step.pick(sorted(below), vis="all", why=f"{npc}: the captain beneath who takes command")
    step.emit("NpcCaptainLost", {"npc": npc, "card": top, "successor": successor})


def hostile(state: State, npc: str, p: Player) -> bool:
    return any(_hunt_rank(state, npc, p))


def _scouts_here(state: State, zone: str, p: Player) -> list[str]:
    """The hostile NPCs of ``zone`` that scout for ``p`` (pirates do not scout beside a
    naval ship; two Man-o-Wars in one zone do not scout)."""
    here = []
    for n, x in state["board"]["npcs"].items():
        if x["zone"] == zone:
            here.append(n)
    if not here:
        return []
    if len(here) == 1:                  # (the usual case: a lone NPC scouts when it is hostile)
        return here if hostile(state, here[0], p) else []
    here.sort()
    naval = any(naval_nation(state, n) for n in here)
    two_mow = sum(1 for n in here if is_man_o_war(n)) >= 2
    return [n for n in here if hostile(state, n, p) and not (naval and not naval_nation(state, n))
            and not (two_mow and is_man_o_war(n))]


def spotted(step: Step, seat: int, why: str) -> tuple[str, int] | None:
    """A player sails into a hostile NPC's zone (leaving port too) or begins the turn
    there: each such NPC scouts, in a random order; the first that succeeds is handed
    back, ``(npc, seat)``, for a fight (None: no NPC found the player).
    The book: "Cacciare i capitani dei giocatori", p. 12."""
    state = step.state
    p = state["players"][seat - 1]
    if p["captain"] is None or p["ship"] is None or p["in_port"]:
        return None
    npcs = _scouts_here(state, p["zone"], p)
    order = []
    while npcs:
        n = npcs[0] if len(npcs) == 1 else step.pick(npcs, vis="all", why="the order in which the NPCs scout")
        order.append(n)
        npcs = [x for x in npcs if x != n]
    if order:
        step.emit("NpcsScouting", {"seat": seat, "npcs": order, "why": why})
        return scout_on(step)
    return None


def scout_on(step: Step) -> tuple[str, int] | None:
    """The next NPC of the queue scouts for the player (its Scouting: the card's, or the
    player's flags of its nation if more); ``(npc, seat)`` when it found the player (the
    caller begins the fight), else None once the queue is done. The book: "Azioni Esplorare", p. 12."""
    state = step.state
    S = tables(state)
    queue: Any = state.get("npc_queue") or {}
    seat = queue.get("seat")
    while queue.get("npcs"):
        npc = queue["npcs"][0]
        p = player(state, seat)
        if p["captain"] is None or p["in_port"] or npc not in state["board"]["npcs"] or \
                state["board"]["npcs"][npc]["zone"] != p["zone"]:
            step.emit("NpcScouted", {"npc": npc, "seat": seat, "value": 0, "dice": [], "success": False, "why": "no longer there"})
            queue = state.get("npc_queue") or {}
            continue
        value = captain_of(state, npc)["scouting"]
        if naval_nation(state, npc):
            value = max(value, p["flags"].get(naval_nation(state, npc), 0))  # type: ignore[arg-type]  # (naval: a nation)
        dice = step.roll(S["die_sides"], value, vis="all", why=f"{npc} scouts for seat {seat}",
                         faces={"skull": S["die_sides"]})
        least, ok = S["success_from"], False
        for v in dice:                  # (a loop, not a generator, for a handful of dice)
            if v >= least:
                ok = True
                break
        step.emit("NpcScouted", {"npc": npc, "seat": seat, "value": value, "dice": dice, "success": ok})
        if ok:
            return npc, seat
        queue = state.get("npc_queue") or {}
    return None


def may_redraw(state: State, p: Player) -> bool:
    """A new captain (in play, not at set-up) whose home zone holds a pirate NPC may be
    exchanged for another card, once (the book: Morte, 1). The book: "Morte", p. 15."""
    if state["phase"] != "play" or p.get("redrawn") or p["captain"] is None:
        return False
    home = tables(state)["captains"][p["captain"]]["home"]
    return any(x["zone"] == home and not naval_nation(state, n) for n, x in state["board"]["npcs"].items())


# the events ---------------------------------------------------------------------------

def _npc_arriving(state: State, d: dict[str, Any], ev: Ev) -> None:
    if d["card"] is None:               # a Man-o-War brought by a war (war.py)
        state.setdefault("mow_arriving", []).append({k: d[k] for k in ("npc", "zone", "nation", "captain")})
        return
    state.setdefault("npc_arriving", []).append(d["card"])


def _npc_card_in_play(state: State, card: str) -> None:
    state["npc_arriving"].remove(card)
    state["decks"]["event_discard"].remove(card)        # the NPC's card lies face up in its area


def _npc_entered(state: State, d: dict[str, Any], ev: Ev) -> None:
    if d["card"] is None:               # a Man-o-War: no card in its area
        state["mow_arriving"] = [a for a in state["mow_arriving"] if a["npc"] != d["npc"]]
        state["board"]["npcs"][d["npc"]] = {"zone": d["zone"], "cards": [], "ship": d["ship"],
                                            "nation": d["nation"], "captain": dict(d["skills"])}
        return
    _npc_card_in_play(state, d["card"])
    state["board"]["npcs"][d["npc"]] = {"zone": d["zone"], "cards": [d["card"]], "ship": d["ship"]}


def _npc_replaced(state: State, d: dict[str, Any], ev: Ev) -> None:
    _npc_card_in_play(state, d["card"])
    n = state["board"]["npcs"][d["npc"]]
    n["cards"].append(d["card"])
    n["zone"] = d["to"]


def _npc_moved(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["board"]["npcs"][d["npc"]]["zone"] = d["to"]


def _npc_left(state: State, d: dict[str, Any], ev: Ev) -> None:
    del state["board"]["npcs"][d["npc"]]
    if state.get("npc_returning") and d["npc"] in state["npc_returning"]:
        state["npc_returning"].remove(d["npc"])


def _npcs_scouting(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["npc_queue"] = {"seat": d["seat"], "npcs": list(d["npcs"])}


def _npc_scouted(state: State, d: dict[str, Any], ev: Ev) -> None:
    q = state["npc_queue"]
    q["npcs"].remove(d["npc"])
    if not q["npcs"]:
        state["npc_queue"] = None  # type: ignore[typeddict-item]  # (None: the queue is done)


def _npc_cargo_found(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["combat"]["npc"]["cargo"].append(d["card"])  # type: ignore[index]  # (a fight with an NPC)


def _npc_cargo_lost(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["combat"]["npc"]["cargo"].remove(d["card"])  # type: ignore[index]  # (a fight with an NPC)
    state["decks"]["cargo_discard"].append(d["card"])


def _npc_captain_lost(state: State, d: dict[str, Any], ev: Ev) -> None:
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


def _npc_returned(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["npc_returning"].remove(d["npc"])
    if d["npc"] in state["board"]["npcs"]:
        state["board"]["npcs"][d["npc"]]["zone"] = d["to"]


APPLY = {
    "NpcArriving": _npc_arriving,
    "NpcEntered": _npc_entered,
    "NpcReplaced": _npc_replaced,
    "NpcMoved": _npc_moved,
    "NpcLeft": _npc_left,
    "NpcsScouting": _npcs_scouting,
    "NpcScouted": _npc_scouted,
    "NpcCargoFound": _npc_cargo_found,
    "NpcCargoLost": _npc_cargo_lost,
    "NpcCaptainLost": _npc_captain_lost,
    "NpcReturned": _npc_returned,
}
