"""What each seat may see of a Merchants & Marauders table, and log lines.

Hidden from the other seats: gold on board, the stash (only the number of
times a player stashed is public), cargo cards (their number is public),
glory cards in hand (their number is public), the rumor held, the secret
captain and ship choice before the reveal, the goods offered while buying (the
table sees each card bought: who, and how many),
face-down upgrade tiles and merchant tokens, and the bank (it would give away
the sum of the hidden gold). ``seat=None`` is the referee: everything.
"""

from __future__ import annotations

from service.kernel.patterns import pattern
from service.kernel.rules import by_seat

from .catalog import tables
from .names import article, for_config, printed

from .state import capacity, damage, ship_max, stash_glory, total_glory

TYPE_CHECKING = False   # (the imports below are the type checker's: none at run time)
if TYPE_CHECKING:
    from service.kernel.events import Ev
    from typing import Any
    from .names import Names
    from .shapes import Location, Player, Ship, State, Who

HIDDEN = "hidden"


def words(x: object) -> str:
    return str(x).replace("_", " ")


def _ship(state: State, ship: Ship | None) -> dict[str, Any] | None:
    if ship is None:
        return None
    S = tables(state)
    locs: tuple[Location, ...] = ("hull", "masts", "cargo", "crew", "cannons")
    return {"type": ship["type"], "name": S["ships"][ship["type"]]["name"],
            "locations": {k: ship[k] for k in locs},
            "max": {k: ship_max(state, ship, k) for k in (*locs, "maneuver")},
            "upgrades": [{"tile": t, "kind": S["upgrade"][t], "name": S["upgrade_name"][t]} for t in ship["upgrades"]],
            "damage": damage(state, ship)}


def _player(state: State, p: Player, mine: bool) -> dict[str, Any]:
    S = tables(state)
    known = mine or p["revealed"]
    cap = S["captains"][p["captain"]] if (known and p["captain"]) else None
    out: dict[str, Any] = {
        "captain": ({"id": p["captain"], **cap} if cap else (HIDDEN if p["captain"] else None)),
        "ship": _ship(state, p["ship"]),
        "zone": p["zone"], "in_port": p["in_port"],
        "glory_track": p["glory"], "glory_cards": len(p["hand"]), "cargo_cards": len(p["cargo"]),
        "stash_acts": p["stash_acts"], "weapons": sorted(p["weapons"]), "flags": dict(p["flags"]),
        "specialists": [{"card": c, "name": S["glory"][c]["name"]} for c in p["specialists"]],
        "has_rumor": p["rumor"] is not None, "mission": p["mission"],
        "has_chosen_ship": p["chosen"] is not None, "needs_captain": p["needs_captain"],
        "returning_upgrades": len(p["returning"]),
    }
    if p["ship"] is not None and p["captain"] is not None and known:
        out["cargo_limit"] = capacity(state, p)
    if mine:
        out.update({
            "gold": p["gold"], "stash": p["stash"], "stash_glory": stash_glory(state, p),
            "total_glory": total_glory(state, p),
            "cargo": [{"card": c, "good": S["good"][c]} for c in sorted(p["cargo"])],
            "hand": [{"card": c, "name": S["glory"][c]["name"], "timing": S["glory"][c]["timing"]}
                     for c in sorted(p["hand"])],
            "rumor": p["rumor"], "offered_rumor": p["offered_rumor"], "chosen_ship": p["chosen"],
            "pending": list(p["pending"]), "returning": sorted(p["returning"]),
        })
    return out


def view(state: State, seat: int | None) -> dict[str, Any]:
    S = tables(state)
    referee = seat is None
    board = state["board"]
    upgrades: dict[str, Any] = {}
    for at, tile in board["upgrades"].items():
        if tile is None:
            upgrades[at] = None
        elif referee or board["revealed"][at]:
            upgrades[at] = {"tile": tile, "kind": S["upgrade"].get(tile, "unseen"),
                            "name": S["upgrade_name"].get(tile, "unseen"), "face_up": board["revealed"][at]}
        else:
            upgrades[at] = "face-down"
    merchants = {z: (None if t is None else ({"token": t, "nation": S["merchant"].get(t, "unseen")} if referee
                                             else "face-down"))
                 for z, t in board["merchants"].items()}
    decks = state["decks"]
    port = state["port"]
    port_view: dict[str, Any] | None = None
    if port is not None:
        cur = state["order"][state["cur"]]
        port_view = {"port": port["port"], "started": list(port["started"]), "activity": port["act"],
                     "selling_closed": port["sell_closed"]}
        if referee or cur == seat:
            port_view["offer"] = [{"card": c, "good": S["good"][c], "price": pr}
                                  for c, pr in sorted(port["offer"].items())]
        else:
            port_view["offer"] = len(port["offer"])
    out: dict[str, Any] = {
        "phase": state["phase"], "turn": state["turn"], "target": state["target"],
        "end_reason": state["end_reason"], "order": list(state["order"]),
        "current": state["order"][state["cur"]] if state["phase"] == "play" and state["order"] else None,
        "actions_left": state["actions"], "port_action_used": state["port_used"], "port_action": port_view,
        "event_cards": {"deck": len(decks["events"]),
                        "discard": [{"card": c, "name": S["events"][c]["name"]} for c in decks["event_discard"]]},
        "board": {
            "demand": {z: S["demand"][t] for z, t in board["demand"].items()},
            "demand_reserve": len(decks["demand_reserve"]),
            "upgrades": upgrades, "merchants": merchants, "merchant_track": len(board["merchant_track"]),
            "missions": {m: {"name": S["missions"][m]["name"], "port": z} for m, z in board["missions"].items()},
            "war": board["war"], "npcs": board["npcs"],
        },
        "decks": {"cargo": len(decks["cargo"]), "cargo_discard": list(decks["cargo_discard"]),
                  "glory": len(decks["glory"]), "glory_discard": len(decks["glory_discard"]),
                  "rumors": len(decks["rumors"]), "missions": len(decks["missions"]),
                  "captains": len(decks["captains"])},
        "weapons_supply": dict(state["weapons"]),
        "declared": list(state["declared"]),
        "players": {str(p["seat"]): _player(state, p, referee or p["seat"] == seat) for p in state["players"]},
    }
    raid = state.get("raid")
    if raid is not None:        # face up on the table: the sighted merchant and the raid's cards
        out["raid"] = {"seat": raid["seat"], "zone": raid["zone"], "nation": raid["nation"],
                       "chosen": raid.get("chosen"), "stage": raid["stage"], "successes_left": raid["left"],
                       "cards": [{"card": c, **S["cargo"][c]} for c in raid["cards"]]}
    combat = state.get("combat")
    if combat is not None:      # a fight is fought in the open
        out["combat"] = {k: combat[k] for k in ("a", "d", "round", "kind", "stage", "waiting", "declared", "dice",
                                                 "round_winner", "hits", "skulls")}
        out["combat"]["crew_round"] = combat.get("crew_round", 0)
        w = combat.get("window")
        if w:                   # announcements are made in the open, the cards only shown when played
            out["combat"]["glory_window"] = {k: list(w[k]) if isinstance(w[k], list) else w[k]
                                             for k in ("phase", "seats", "announced", "passed", "resolved", "declined")}
    if referee:
        out["bank"] = state["bank"]
    return out


STAGES = {
    "declare": "declare shoot, board or flee", "reroll": "roll dice again with the Grappling Hooks, or keep them",
    "shot": "spend a special shot on the skulls, or not", "place": "place a skull hit on the ship",
    "reallocate": "move one hit on the ship (once a battle), or keep them", "plunder": "take cargo cards, or stop",
    "claim": "claim the beaten ship, or not", "bow": "fire the bow cannon, or hold it",
    "absorb": "let the reinforced hull absorb a hit, or not",
    "glory_announce": "announce a glory card, or pass", "glory_resolve": "play the announced card, or show it",
    "glory_reroll": "choose the dice to roll again",
}


# the port activities and the tasks begun (PortActivityBegun), in words
ACTIVITIES = {
    "buy": "buys goods", "recruit": "recruits crew", "rumor": "seeks a rumor", "mission": "claims a mission",
    "stash": "stashes gold", "shipyard": "goes to the shipyard", "follow_rumor": "follows a rumor",
    "complete_mission": "sets out to complete a mission",
}
# the port activities ended (PortActivityEnded), in words: "seat 2 is done ..."
DONE = {
    "buy": "buying goods", "recruit": "recruiting crew", "rumor": "seeking a rumor", "mission": "claiming a mission",
    "stash": "stashing gold", "shipyard": "at the shipyard", "follow_rumor": "following the rumor",
    "complete_mission": "with the mission",
}
# a glory window's opening and closing words, by its phase (the book: "Carte Gloria", p. 14)
WINDOW_OPENS = {
    "naval_roll": "after the Seamanship roll of the naval combat, glory cards may be played",
    "crew_roll": "after the Leadership roll of the crew combat, glory cards may be played",
    "turn_start": "at the start of the turn, glory cards may be played",
}
WINDOW_CLOSES = {"naval_roll": "the fight goes on", "crew_roll": "the fight goes on", "turn_start": "the turn goes on"}
# a raid's stages (RaidStage), in words (the book: "Saccheggiare i mercanti", p. 10)
RAID_STAGES = {
    "weapons": "special weapon tokens may turn failed dice into successes",
    "use": "each success may draw, discard or swap a cargo card",
    "resolve": "the cards turned decide it: escape icons, hits and loot",
    "take": "the raider chooses the cargo cards to keep aboard",
}


def _event_says(d: dict[str, Any], N: Names) -> str:
    """What a drawn event card does, in words: its effect, else its kind and NPC icons
    (not the ``note`` of games of rules versions before 5, flow.EVENT_NOTE)."""
    if d.get("effect", "none") != "none":
        return "its text acts at once" if d["effect"] == "immediate" else f"its text acts ({words(d['effect'])})"
    icons = ", ".join(f"{N.npc(i['npc'])} {i['dir']}" for i in d.get("npc_icons") or [])
    moves = f"; it moves {icons}" if icons else ""
    if d.get("kind") in ("naval_ship", "pirate"):
        return "an NPC ship card" + moves
    return "no effect: its printed text is not known" + moves


def _scout_target(target: str, N: Names) -> str:
    if target.startswith("seat:"):
        return f"seat {target[5:]}'s ship"
    if target.startswith("npc:"):
        return N.npc(target[4:])
    return "the merchant"


def _titled(kind: str, name: str) -> str:
    """A card by its printed name: "the mission Forged Documents", "mission card 5"."""
    name = printed(name)
    return name if name.lower().startswith(kind) else f"the {kind} {name}"


def _beaten(side: Who, N: Names) -> str:
    """The beaten side of a fight: ``seat 2``, or an NPC ship (``npc:english_naval``)."""
    return N.npc(side[4:]) if isinstance(side, str) and side.startswith("npc:") else f"seat {side}"


def _a(word: str) -> str:
    return f"{article(word)} {word}"


def _and(items: list) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _tokens(tokens: dict, N: Names) -> str:
    """Merchant tokens by sea zone, each by its nation: "Havana English, Nassau Dutch"."""
    return ", ".join(f"{N.zone(z)} " + (N.people(N.S["merchant"][t]) if t in N.S["merchant"] else "unseen")
                     for z, t in tokens.items())


def icon_said(icon: str) -> str:
    return "an escape icon" if icon == "escape" else f"a hit on the {icon.removeprefix('hit:')}" \
        if icon.startswith("hit:") else words(icon)


# what each event says, by its type: (event, its data, its seat) -> text
_LINES = {
    "DemandTilesPlaced": lambda ev, d, s, N: "demand tiles placed: " + ", ".join(f"{N.zone(z)} wants {g}" for z, g in d["goods"].items()),
    "UpgradeTilesFaceDown": lambda ev, d, s, N: "an upgrade tile lies face down at every port",
    "MerchantTokensFaceDown": lambda ev, d, s, N: f"merchant tokens lie face down in {len(d['zones'])} zones",
    "MissionPlaced": lambda ev, d, s, N: f"{_titled('mission', d['name'])} is placed at {N.zone(d['port'])}",
    "CaptainDealt": lambda ev, d, s, N: f"seat {s} secretly draws a captain: {N.captain(d['captain'])}",
    "ShipChosen": lambda ev, d, s, N: f"seat {s} secretly chooses a {N.ship(d['ship'])}",
    "ShipChoiceLocked": lambda ev, d, s, N: f"seat {s} has chosen a ship",
    "CaptainsRevealed": lambda ev, d, s, N: "captains revealed: " + ", ".join(
                 f"seat {k}: {N.captain(v['captain'])} on a {N.ship(v['ship'])}" for k, v in d["seats"].items()),
    "FirstPlayerChosen": lambda ev, d, s, N: f"seat {s} is the first player (the order of play: "
                                             + ", ".join(f"seat {x}" for x in d["order"]) + ")",
    "TurnStarted": lambda ev, d, s, N: f"turn {ev.turn} begins",
    "EventCardDrawn": lambda ev, d, s, N: f"event card: {printed(d['name'])} ({_event_says(d, N)})",
    "PlayerTurnStarted": lambda ev, d, s, N: f"seat {s} takes their turn",
    "Moved": lambda ev, d, s, N: f"seat {s} sails from {N.zone(d['frm'])} to {N.zone(d['to'])} ({d['direction']})",
    "EnteredPort": lambda ev, d, s, N: f"seat {s} enters the port of {N.zone(d['port'])}",
    "LeftPort": lambda ev, d, s, N: f"seat {s} leaves the port of {N.zone(d['port'])}",
    "PortActionBegun": lambda ev, d, s, N: f"seat {s} takes the port action at {N.zone(d['port'])}",
    "UpgradeTileRevealed": lambda ev, d, s, N: f"the upgrade tile at {N.zone(d['port'])} is {d.get('name') or words(d['kind'])}",
    "GoodsSold": lambda ev, d, s, N: f"seat {s} sells {len(d['cards'])} {d['good']} for {d['total']}"
                                  + (" (in demand)" if d["demanded"] else ""),
    "DemandTileReplaced": lambda ev, d, s, N: f"{N.zone(d['port'])} now wants {d['good']}",
    "GloryGained": lambda ev, d, s, N: f"seat {s} gains a glory point ({d['why']}): {d['glory']} on the track",
    "PortActivityBegun": lambda ev, d, s, N: f"seat {s} " + ACTIVITIES.get(d["activity"], f"begins: {words(d['activity'])}")
                                          + (f": {d['draw']} cargo cards are drawn" if d.get("draw") else ""),
    "DemandedCargoDiscarded": lambda ev, d, s, N: f"seat {s} discards a drawn {d['good']} (in demand here) and draws again",
    "CargoOffered": lambda ev, d, s, N: f"seat {s} is offered " + (", ".join(f"{N.card(c)} for {n} gold" for c, n in d["offer"].items())
                                                                or "nothing"),
    "CargoBought": lambda ev, d, s, N: f"seat {s} buys {N.card(d['card'])} for {d['price']}",
    "CargoCardTaken": lambda ev, d, s, N: f"seat {s} buys one of the cargo cards drawn (not shown): "
                                       f"{d['held']} cargo card(s) aboard, {d['offered']} still offered",
    "BuyingEnded": lambda ev, d, s, N: f"seat {s} bought {d['bought']} cargo cards",
    "ShipRepaired": lambda ev, d, s, N: f"seat {s} repairs the {d['location']} for {d['cost']}",
    "UpgradeBought": lambda ev, d, s, N: f"seat {s} buys the {d.get('name') or words(d['kind'])} upgrade at {N.zone(d['port'])} "
                                      f"for {d['cost']}",
    "WeaponBought": lambda ev, d, s, N: f"seat {s} buys {d['kind']} for {d['cost']}",
    "WeaponSold": lambda ev, d, s, N: f"seat {s} sells {d['kind']} for {d['price']}",
    "ShipBought": lambda ev, d, s, N: f"seat {s} trades a {N.ship(d['old'])} (worth {d['sale_value']}) for a {N.ship(d['ship'])} ({d['price']})",
    "CrewRecruited": lambda ev, d, s, N: f"seat {s} recruits {d['crew']} crew ({d['how']}, {d['cost']} gold)",
    "SkillTested": lambda ev, d, s, N: f"seat {s} tests {d['skill']}: {d['dice']} -> {d['successes']} success(es)",
    "GoldStashed": lambda ev, d, s, N: f"seat {s} stashes gold (amount secret)",
    "GoldWithdrawn": lambda ev, d, s, N: f"seat {s} takes gold from the stash (amount secret)",
    "StashChanged": lambda ev, d, s, N: (f"seat {s} moves {d['amount']} gold into the stash" if d["amount"] >= 0
                                      else f"seat {s} takes {-d['amount']} gold from the stash aboard"),
    "GloryCardPlayed": lambda ev, d, s, N: f"seat {s} plays {printed(d['name'])}"
                                           + (f" (as a copy of {N.card(d['copies'])})" if d.get("copies") else ""),
    "GloryWindowOpened": lambda ev, d, s, N: (WINDOW_OPENS.get(d["phase"], "glory cards may be played") + ": "
                                           + " and ".join(f"seat {x}" for x in d["seats"]) + " may announce one"),
    "GloryAnnounced": lambda ev, d, s, N: f"seat {s} announces a glory card (not shown yet)",
    "GloryPassed": lambda ev, d, s, N: f"seat {s} plays no glory card",
    "GloryDeclined": lambda ev, d, s, N: f"seat {s} does not play the announced card and shows it: {printed(d['name'])}",
    "GloryRerollBegun": lambda ev, d, s, N: f"seat {s} chooses dice to roll again: "
                                         + ", then ".join(f"seat {x}'s" for x in d["sides"]),
    "GloryDiceRerolled": lambda ev, d, s, N: (f"seat {d['side']} rolls dice {d['which']} again: {d['dice']}" if d["which"]
                                           else f"seat {d['side']}'s dice stay {d['dice']}"),
    "GloryResolved": lambda ev, d, s, N: f"seat {s}'s glory card is resolved",
    "GloryWindowClosed": lambda ev, d, s, N: "no more glory cards: " + WINDOW_CLOSES.get(d.get("phase"), "play goes on"),
    "VictoryDeclared": lambda ev, d, s, N: f"seat {s} declares {d['total']} glory ({d['glory_track']} on the track, "
                                        f"{d['stash']} gold stashed)",
    "CaptainRetired": lambda ev, d, s, N: f"seat {s} retires their captain, {N.captain(d['captain'])}",
    "CaptainLeft": lambda ev, d, s, N: f"seat {s} loses their captain, {N.captain(d['captain'])} ({words(d['reason'])})",
    "PlayerTurnEnded": lambda ev, d, s, N: f"seat {s} ends the turn",
    "GameEnded": lambda ev, d, s, N: f"the game ends: {d['note']}",
    "GloryTrackSet": lambda ev, d, s, N: (f"every glory cube on 0 (target {d['target']})" if not any(d["glory"].values())
                                       else f"glory cubes: {by_seat(d['glory'])} (target {d['target']})"),
    "PositionLaid": lambda ev, d, s, N: "the game starts from a stated position: " + "; ".join(
        _placed(q, N) for q in d["players"]) + f"; seat {d['to_play']} to play",
    "PositionGoldHeld": lambda ev, d, s, N: f"seat {s} holds {d['gold']} gold on board and {d['stash']} stashed (the position)",
    "CargoHeld": lambda ev, d, s, N: f"seat {s} holds the cargo card {N.card(d['card'])} (the position)",
    "ShipChoiceOpened": lambda ev, d, s, N: "every seat secretly chooses a ship: "
                                            + " or ".join(f"a {N.ship(t)}" for t in d["ships"]),
    "GoldReceived": lambda ev, d, s, N: f"seat {s} receives {d['amount']} gold ({d['why']})",
    "GloryCardDealt": lambda ev, d, s, N: f"seat {s} draws {N.drawn('glory', d['card'])}",
    "UpgradeTilesPlaced": lambda ev, d, s, N: "upgrade tiles, face down: " + ", ".join(
        f"{N.zone(z)} {N.S['upgrade_name'].get(t, 'unseen')}" for z, t in d["tiles"].items()),
    "MerchantTokensPlaced": lambda ev, d, s, N: "merchant tokens, face down: " + _tokens(d["tokens"], N),
    "TurnEnded": lambda ev, d, s, N: f"turn {ev.turn} ends",
    "GloryCardDiscarded": lambda ev, d, s, N: f"seat {s} discards {N.drawn('glory', d['card'])}",
    "GloryHandTrimmed": lambda ev, d, s, N: f"seat {s} discards a glory card down to {d['hand']}",
    "CargoJettisoned": lambda ev, d, s, N: f"seat {s} discards {N.card(d['card'])} to meet the cargo limit",
    "CargoDrawnForSale": lambda ev, d, s, N: f"seat {s} has {d['cards']} cargo cards to choose from",
    "PortActivityEnded": lambda ev, d, s, N: f"seat {s} is done " + DONE.get(d["activity"], f"with {words(d['activity'])}"),
    "PortActionEnded": lambda ev, d, s, N: f"seat {s} ends the port action",
    "RumorSought": lambda ev, d, s, N: f"seat {s} pays {d['cost']} to seek a rumor",
    "RumorDrawn": lambda ev, d, s, N: f"seat {s} draws {N.drawn('rumors', d['card'])}",
    "RumorKept": lambda ev, d, s, N: f"seat {s} keeps {N.drawn('rumors', d['kept'])} and returns {N.drawn('rumors', d['discarded'])}",
    "RumorChosen": lambda ev, d, s, N: f"seat {s} keeps one of two rumors",
    "NewCaptainDrawn": lambda ev, d, s, N: f"seat {s} draws a new captain (secret)",
    "HoldingsLost": lambda ev, d, s, N: f"seat {s} loses {d['gold']} gold and "
                                     + (f"the glory cards {', '.join(N.card(c) for c in d['glory_cards'])}" if d["glory_cards"]
                                        else "no glory card"),
    "StartingGoldTopped": lambda ev, d, s, N: f"seat {s} takes gold up to the starting amount (secret)",
    "UpgradeTilePlaced": lambda ev, d, s, N: f"{N.drawn('upgrades', d['tile'])} goes face down to {N.zone(d['port'])}",
    "UpgradeTileHidden": lambda ev, d, s, N: f"seat {s} puts an upgrade tile face down at {N.zone(d['port'])}",
    "CargoDeckReshuffled": lambda ev, d, s, N: f"the cargo discards ({d['cards']}) become the deck",
    "GloryDeckReshuffled": lambda ev, d, s, N: f"the glory discards ({d['cards']}) become the deck",
    "GloryDeckEmpty": lambda ev, d, s, N: f"no glory card left for seat {s}",
    "MerchantTokensRedistributed": lambda ev, d, s, N: "merchant tokens back on the board, face down: " + _tokens(d["tokens"], N),
    "MissionClaimed": lambda ev, d, s, N: f"seat {s} claims {N.drawn('missions', d['mission'])} at {N.zone(d['port'])}",
    "MissionClaimFailed": lambda ev, d, s, N: f"seat {s} fails to claim {N.drawn('missions', d['mission'])}",
    "RumorAcquired": lambda ev, d, s, N: f"seat {s} acquires a rumor",
    "Scouted": lambda ev, d, s, N: f"seat {s} scouts for " + _scout_target(d.get("target", "merchant"), N) + f" in {N.zone(d['zone'])}",
    "MerchantSighted": lambda ev, d, s, N: f"seat {s} sights {_a(N.people(d['nation']))} merchant in {N.zone(d['zone'])}"
                                        + (f" ({N.people(d['zone_nation'])} waters)" if d.get("zone_nation") else ""),
    "MerchantLetGo": lambda ev, d, s, N: f"seat {s} lets the merchant sail on",
    "RaidBegun": lambda ev, d, s, N: f"seat {s} raids {_a(N.people(d['nation']))} merchant",
    "WantedFlagGained": lambda ev, d, s, N: f"seat {s} is wanted by {N.nation(d['nation'])} ({d['flags']} flag(s): {d['why']})",
    "RaidCardTurned": lambda ev, d, s, N: f"raid card: {d['good']}, loot {d['raid']}, {icon_said(d['icon'])}",
    "RaidSuccesses": lambda ev, d, s, N: f"seat {s} has {d['successes']} success(es) to use in the raid",
    "WeaponSpent": lambda ev, d, s, N: f"seat {s} spends {d['kind']}: {d['why']}",
    "RaidSuccessUsed": lambda ev, d, s, N: f"seat {s} uses a success to {d['use']}",
    "RaidCardDiscarded": lambda ev, d, s, N: f"seat {s} discards the raid card {N.card(d['card'])}",
    "ShipHit": lambda ev, d, s, N: f"seat {s}'s ship is hit on the {d['location']}"
                                + (f" (its {d['aimed']} already destroyed)" if d["aimed"] != d["location"] else ""),
    "RaidSucceeded": lambda ev, d, s, N: f"seat {s}'s raid succeeds: {d['loot']} gold",
    "RaidCardTaken": lambda ev, d, s, N: f"seat {s} keeps {N.card(d['card'])} aboard",
    "RaidEnded": lambda ev, d, s, N: f"the raid ends: {d['result']}",
    "CargoLost": lambda ev, d, s, N: f"seat {s} loses {N.card(d['card'])}: {d['why']}",
    "CaptainDied": lambda ev, d, s, N: f"seat {s}'s captain dies: {d['why']}",
    "RaidStage": lambda ev, d, s, N: "raid: " + RAID_STAGES.get(d["stage"], words(d["stage"])),
    "CombatBegun": lambda ev, d, s, N: f"seat {d['a']} engages seat {d['d']} in {N.zone(d['zone'])}",
    "CombatActionDeclared": lambda ev, d, s, N: f"seat {s} declares: {d['do']} (round {d['round']})",
    "CombatWaiting": lambda ev, d, s, N: f"seat {s} to answer: " + STAGES.get(d["stage"], d["stage"]),
    "CombatRolled": lambda ev, d, s, N: f"seat {s} rolls {d['skill']}: {d['dice']}",
    "CombatRerolled": lambda ev, d, s, N: f"seat {s} rolls again dice {d['which']}: {d['dice']}",
    "CombatRoundWon": lambda ev, d, s, N: (f"seat {s} wins the round" if s else "nobody wins the round")
                                       + f" (successes: {by_seat(d['successes'])})",
    "CombatHitsDue": lambda ev, d, s, N: "hits due: " + (", ".join(f"{n} on seat {t}" for t, n in d["hits"].items()) or "none"),
    "HitsLocated": lambda ev, d, s, N: f"seat {d['shooter']} rolls the hit locations on seat {d['target']}: {d['dice']}"
                                    f" -> {', '.join(d['locations']) or 'no number'}"
                                    + (f", {d['skulls']} skull(s)" if d["skulls"] else ""),
    "SkullsDirected": lambda ev, d, s, N: f"seat {d['shooter']}'s special shot sends {d['hits']} hit(s) to the {d['location']}",
    "SkullPlaced": lambda ev, d, s, N: f"seat {s} places a skull hit on the {d['location']}",
    "HitReallocated": lambda ev, d, s, N: (f"seat {s} moves a hit from the {d['frm']} to the {d['to']} ({d['why']})"
                                        if d["frm"] else f"seat {s} keeps the hits where they fell"),
    "CombatHitsApplied": lambda ev, d, s, N: f"the hits of round {d['round']} land",
    "CombatRoundBegun": lambda ev, d, s, N: f"combat round {d['round']}",
    "CombatFled": lambda ev, d, s, N: f"seat {s} escapes the fight",
    "Boarded": lambda ev, d, s, N: f"seat {s} boards seat {d['target']}: crew combat",
    "CombatWon": lambda ev, d, s, N: f"seat {s} beats seat {d['beaten']} ({d['how']})",
    "PlunderTaken": lambda ev, d, s, N: f"seat {s} plunders seat {d['beaten']}: {d['glory_count']} glory card(s), "
                                     + "".join(f"{words(w)}, " for w in d["weapons"])
                                     + "".join(f"{N.card(c)}, " for c in d.get("specialists") or [])
                                     + "the gold aboard",
    "CargoPlunderedCount": lambda ev, d, s, N: f"seat {s} takes a cargo card from seat {d['beaten']}",
    "ShipClaimed": lambda ev, d, s, N: f"seat {s} claims the beaten {N.ship(d['ship'])} (leaving the {N.ship(d['old'])})",
    "CombatEnded": lambda ev, d, s, N: "the fight ends" + (f": seat {d['winner']} wins" if d["winner"] else ""),
    "CaptainRedrawn": lambda ev, d, s, N: f"seat {s} sets {N.captain(d['captain'])} aside and draws another captain",
    "CaptainSetAside": lambda ev, d, s, N: f"seat {s} draws another captain ({d['why']})",
    "CombatDrifted": lambda ev, d, s, N: f"the fight ends: {d['why']}",
    "CrewCombatDrawn": lambda ev, d, s, N: f"crew combat drawn: {d['why']}",
    "HitLost": lambda ev, d, s, N: f"a hit on seat {s}'s destroyed {d['location']} is lost ({d['why']})",
    "ShipSunk": lambda ev, d, s, N: f"seat {s}'s ship sinks ({d['why']})",
    "LongRangeFired": lambda ev, d, s, N: f"seat {s}'s long guns: {d['dice']} -> {d['hits']} hit(s)",
    "BowCannonFired": lambda ev, d, s, N: f"seat {s} fires the bow cannon at seat {d['target']}",
    "BowCannonHeld": lambda ev, d, s, N: f"seat {s} keeps the bow cannon",
    "SwivelGunFired": lambda ev, d, s, N: f"seat {s}'s swivel gun: {d['dice']}",
    "HitAbsorbed": lambda ev, d, s, N: (f"seat {s}'s reinforced hull absorbs the hit on the {d['location']}"
                                     if d["location"] else f"seat {s} keeps the reinforced hull"),
    "NpcArriving": lambda ev, d, s, N: f"{N.npc(d['npc'])} goes to {N.zone(d['zone'])} at the end of the turn",
    "NpcEntered": lambda ev, d, s, N: (f"{N.npc(d['npc'])} ({printed(d['captain'])}, a {N.ship(d['ship'])}) "
                                       + (f"sails from {N.zone(d['frm'])} to {N.zone(d['zone'])}" if d.get("frm")
                                          else f"enters at {N.zone(d['zone'])}")),
    "NpcReplaced": lambda ev, d, s, N: f"{N.npc(d['npc'])}: {printed(d['captain'])} takes command and sails from "
                                       f"{N.zone(d['frm'])} to {N.zone(d['to'])}",
    "NpcMoveOverruled": lambda ev, d, s, N: f"the referee moves {N.npc(d['npc'])} from {N.zone(d['frm'])} to {N.zone(d['to'])}, "
                                         "as the printed board has it" + (f" ({d['reason']})" if d["reason"] else ""),
    "NpcMoved": lambda ev, d, s, N: f"{N.npc(d['npc'])} sails from {N.zone(d['frm'])} to {N.zone(d['to'])} ({d['why']})",
    "NpcsScouting": lambda ev, d, s, N: _and([N.npc(n) for n in d["npcs"]]) + f" scout for seat {s} (it {d['why']})",
    "NpcScouted": lambda ev, d, s, N: f"{N.npc(d['npc'])} scouts for seat {s} with {d['value']} dice: "
                                   + ("found" if d["success"] else "not found"),
    "NpcCaptainLost": lambda ev, d, s, N: f"{N.npc(d['npc'])} loses its captain"
                                       + (f", {N.npc_captain(d['card'])}" if d["card"] else "")
                                       + (f"; {N.npc_captain(d['successor'])} takes command" if d["successor"]
                                          else ": it leaves the sea"),
    "NpcReturned": lambda ev, d, s, N: f"{N.npc(d['npc'])} sails back to {N.zone(d['to'])}",
    "NpcCargoFound": lambda ev, d, s, N: f"the beaten ship, {N.npc(d['npc'].removeprefix('npc:'))}, carries {d['good']} ({d['raid']} gold)",
    "NpcCargoLost": lambda ev, d, s, N: f"a cargo card of the beaten ship is lost ({N.card(d['card'])})",
    "HullRearmed": lambda ev, d, s, N: f"seat {s} re-arms the reinforced hull for {d['cost']}",
    "GoldLost": lambda ev, d, s, N: (f"the gold seat {s} loses: {d['amount']}" if d.get("card_said")
                                  else f"seat {s} loses {d['amount']} gold ({d['why']})"),
    "GoldLostByCard": lambda ev, d, s, N: f"seat {s} loses gold to {N.coded(d['card'])}"
                                       + (f" (how much, only seat {s} knows)" if d.get("amount_secret") else ""),
    "WantedFlagRemoved": lambda ev, d, s, N: f"seat {s}: one {N.people(d['nation'])} flag removed ({d['why']})",
    "ShipRepairedByCard": lambda ev, d, s, N: f"seat {s}'s {d['location']} repaired ({d['why']})",
    "PortFeePaid": lambda ev, d, s, N: f"seat {s} pays {d['fee']} to enter {N.zone(d['port'])}",
    "PortEntryRefused": lambda ev, d, s, N: f"seat {s} is refused entry to {N.zone(d['port'])}",
    "PortActionRefused": lambda ev, d, s, N: f"seat {s} is refused service at {N.zone(d['port'])} (wanted there)",
    "WarDeclared": lambda ev, d, s, N: f"{N.nation(d['nations'][0])} and {N.nation(d['nations'][1])} are at war "
                                    f"({N.coded(d['card'])})" + (" (still)" if d.get("again") else ""),
    "WarEnded": lambda ev, d, s, N: f"peace between {N.nation(d['nations'][0])} and {N.nation(d['nations'][1])} ({d['why']})",
    "NpcLeft": lambda ev, d, s, N: f"{N.npc(d['npc'])} leaves the sea ({d['why']})",
    "CargoGainedByCard": lambda ev, d, s, N: f"seat {s} gains {N.drawn('cargo', d['card'])} ({d['why']})",
    "CargoPlundered": lambda ev, d, s, N: f"seat {s} takes {N.drawn('cargo', d['card'])} from {_beaten(d['beaten'], N)}",
    "Plundered": lambda ev, d, s, N: f"seat {s} plunders {_beaten(d['beaten'], N)}: {d['gold']} gold"
                                     + "".join(f", {N.drawn('glory', c)}" for c in d["glory_cards"])
                                     + (f", {N.drawn('rumors', d['rumor'])}" if d.get("rumor") else "")
                                     + "".join(f", {words(w)}" for w in d.get("weapons") or [])
                                     + "".join(f", {N.card(c)}" for c in d.get("specialists") or []),
    "GloryWaiting": lambda ev, d, s, N: f"seat {s} to answer: " + STAGES.get(d["stage"], words(d["stage"])),
    "CargoCountGained": lambda ev, d, s, N: f"seat {s} gains a cargo card ({d['why']})",
    "RumorRevealed": lambda ev, d, s, N: f"seat {s} follows the rumor {printed(d['name'])} ({d['skill']} test) at {N.zone(d['zone'])}",
    "RumorFalse": lambda ev, d, s, N: f"seat {s}: the rumor was false",
    "RumorTrue": lambda ev, d, s, N: f"seat {s}: the rumor proves true" + (" (kept)" if d["kept"] else ""),
    "MissionCompleted": lambda ev, d, s, N: f"seat {s} completes {_titled('mission', d['name'])}"
                                         + (f", handing over {', '.join(N.card(c) for c in d['delivered'])}" if d["delivered"] else "")
                                         + (f", paying {d['paid']}" if d["paid"] else ""),
    "MissionAttemptFailed": lambda ev, d, s, N: f"seat {s} fails to complete {N.drawn('missions', d['mission'])}",
}
_npc_side = pattern(r"seat npc:(\w+)")


def _n(n: int, thing: str) -> str:
    return f"{n} {thing}" + ("" if n == 1 else "s")


def _placed(q: dict[str, Any], N: Names) -> str:
    """A player of a stated position, in words (``PositionLaid``)."""
    ship = q["ship"]
    where = f"in port at {N.zone(q['zone'])}" if q["in_port"] else f"at sea off {N.zone(q['zone'])}"
    extras = [words(w) for w in q["weapons"]] + [_n(n, f"{N.people(k)} flag") for k, n in q["flags"].items() if n]
    extras += [f"{q['glory']} glory"] if q["glory"] else []
    extras += [_n(q["glory_cards"], "glory card")] if q["glory_cards"] else []
    extras += [_n(q["cargo"], "cargo card")] if q["cargo"] else []
    ups = ", ".join(N.S["upgrade_name"].get(u, words(u)) for u in ship["upgrades"])
    return (f"seat {q['seat']}: {N.captain(q['captain'])} on a {N.ship(ship['type'])}" + (f" with {ups}" if ups else "")
            + f" {where}" + (f" ({', '.join(extras)})" if extras else ""))


def describe(ev: Ev, config: dict | None = None) -> str:
    """One line of the log, ports, ships, captains and cards by their printed names
    (``config``: the game's, whose catalog names them; the default catalog's without)."""
    f = _LINES.get(ev.type)
    if not f:
        return ""
    d = ev.data
    N = for_config(config)
    # an NPC's side of a fight: "the Dutch Naval Ship", not its id
    return N.text(_npc_side().sub(lambda m: N.npc(m.group(1)), f(ev, d, d.get("seat"), N)))


def say_event(config: dict | None, ev: Ev) -> str:
    """``describe`` with the game's own catalog (the default one without ``config``), and
    the kernel's chance events (a card drawn, a deck shuffled, dice rolled) in the game's
    words (service/views.py ``describe`` asks it first): "" for the kernel's own wording."""
    if ev.type in _CHANCE:
        return _CHANCE[ev.type](ev.data, for_config(config))
    return describe(ev, config)


def _drawn(d: dict[str, Any], N: Names) -> str:
    return f"drew {N.drawn(d['deck'], d['card'])} from {N.deck(d['deck'])} ({N.text(d['why'])})"


def _shuffled(d: dict[str, Any], N: Names) -> str:
    deck = N.deck(d["deck"])
    why = N.text(d["why"])
    plain = deck.removeprefix("the ")
    why = why[len(plain) + 2:] if why.startswith(plain + ": ") else why     # "demand tiles: one face up..."
    if d.get("face_down"):
        return f"laid {len(d['order'])} of {deck} face down, unseen ({why})"
    return f"shuffled {deck} ({why})"


def _chosen(d: dict[str, Any], N: Names) -> str:
    options = [N.card(o) if isinstance(o, str) else str(o) for o in d["options"]]
    value = N.card(d["value"]) if isinstance(d["value"], str) else str(d["value"])
    return f"chance chose {value} among {', '.join(options)} ({N.text(d['why'])})"


def _awaited(d: dict[str, Any], N: Names) -> str:
    deck = d.get("deck")
    what = {"card": f"a card of {N.deck(deck)}" if deck else "a card", "dice": f"{d.get('n')}d{d.get('sides')}",
            "pick": "a choice", "shuffle": f"the order of {N.deck(deck)}" if deck else "an order"}.get(d["kind"])
    return f"waiting for the referee to enter {what or words(d['kind'])} ({N.text(d.get('why', ''))})"


_CHANCE = {
    "ChanceAwaited": _awaited,
    "CardDrawn": _drawn,
    "DeckShuffled": _shuffled,
    "DiceRolled": lambda d, N: f"rolled {d['n']}d{d['sides']}: {d['values']} ({N.text(d['why'])})",
    "ChanceChosen": _chosen,
    "CardIdentified": lambda d, N: (f"turned over {N.text(str(d['token']))}: it is {N.drawn(d['deck'], d['card'])}"
                                    f" ({N.text(d['why'])})"),
}
