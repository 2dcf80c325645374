"""What each seat may see of a Merchants & Marauders table, and log lines.

Hidden from the other seats: gold on board, the stash (only the number of
times a player stashed is public), cargo cards (their number is public),
glory cards in hand (their number is public), the rumor held, the secret
captain and ship choice before the reveal, the goods offered while buying,
face-down upgrade tiles and merchant tokens, and the bank (it would give away
the sum of the hidden gold). ``seat=None`` is the referee: everything.
"""

from __future__ import annotations

import re

from .catalog import tables as T

from .state import capacity, damage, ship_max, stash_glory, total_glory

HIDDEN = "hidden"


def words(x) -> str:
    return str(x).replace("_", " ")


def _ship(state, ship):
    if ship is None:
        return None
    S = T(state)
    locs = ("hull", "masts", "cargo", "crew", "cannons")
    return {"type": ship["type"], "name": S["ships"][ship["type"]]["name"],
            "locations": {k: ship[k] for k in locs},
            "max": {k: ship_max(state, ship, k) for k in (*locs, "maneuver")},
            "upgrades": [{"tile": t, "kind": S["upgrade"][t]} for t in ship["upgrades"]],
            "damage": damage(state, ship)}


def _player(state, p, mine):
    S = T(state)
    known = mine or p["revealed"]
    cap = S["captains"][p["captain"]] if (known and p["captain"]) else None
    out = {
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


def view(state: dict, seat: int | None) -> dict:
    S = T(state)
    referee = seat is None
    board = state["board"]
    upgrades = {}
    for port, tile in board["upgrades"].items():
        if tile is None:
            upgrades[port] = None
        elif referee or board["revealed"][port]:
            upgrades[port] = {"tile": tile, "kind": S["upgrade"].get(tile, "unseen"),
                              "face_up": board["revealed"][port]}
        else:
            upgrades[port] = "face-down"
    merchants = {z: (None if t is None else ({"token": t, "nation": S["merchant"].get(t, "unseen")} if referee
                                             else "face-down"))
                 for z, t in board["merchants"].items()}
    decks = state["decks"]
    port = state["port"]
    port_view = None
    if port is not None:
        cur = state["order"][state["cur"]]
        port_view = {"port": port["port"], "started": list(port["started"]), "activity": port["act"],
                     "selling_closed": port["sell_closed"]}
        if referee or cur == seat:
            port_view["offer"] = [{"card": c, "good": S["good"][c], "price": pr}
                                  for c, pr in sorted(port["offer"].items())]
        else:
            port_view["offer"] = len(port["offer"])
    out = {
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


def _event_says(d):
    """What a drawn event card does, in words (the recorded note of older builds says
    NPCs come later: the card's kind says what it does now)."""
    if d.get("effect", "none") != "none":
        return f"its text acts: {words(d['effect'])}"
    icons = ", ".join(f"{words(i['npc'])} {i['dir']}" for i in d.get("npc_icons") or [])
    moves = f"; moves {icons}" if icons else ""
    if d.get("kind") in ("naval_ship", "pirate"):
        return "an NPC ship card" + moves
    return "no effect: its printed text is not known" + moves


def _scout_target(target):
    if target.startswith("seat:"):
        return f"seat {target[5:]}'s ship"
    if target.startswith("npc:"):
        return "the " + target[4:].replace("_", " ") + " ship"
    return "the merchant"


def describe(ev) -> str:
    d = ev.data
    t = ev.type
    s = d.get("seat")
    lines = {
        "DemandTilesPlaced": lambda: "demand tiles placed: " + ", ".join(f"{z} wants {g}" for z, g in d["goods"].items()),
        "UpgradeTilesFaceDown": lambda: "an upgrade tile lies face down at every port",
        "MerchantTokensFaceDown": lambda: f"merchant tokens lie face down in {len(d['zones'])} zones",
        "MissionPlaced": lambda: f"mission {d['name']} placed at {d['port']}",
        "CaptainDealt": lambda: f"seat {s} secretly draws captain {d['captain']}",
        "ShipChosen": lambda: f"seat {s} secretly chooses a {d['ship']}",
        "ShipChoiceLocked": lambda: f"seat {s} has chosen a ship",
        "CaptainsRevealed": lambda: "captains revealed: " + ", ".join(
            f"seat {k}: {v['captain']} on a {v['ship']}" for k, v in d["seats"].items()),
        "FirstPlayerChosen": lambda: f"seat {s} is the first player (order {d['order']})",
        "TurnStarted": lambda: f"turn {ev.turn} begins",
        "EventCardDrawn": lambda: f"event card: {d['name']} ({_event_says(d)})",
        "PlayerTurnStarted": lambda: f"seat {s} takes their turn",
        "Moved": lambda: f"seat {s} sails from {d['frm']} to {d['to']} ({d['direction']})",
        "EnteredPort": lambda: f"seat {s} enters the port of {d['port']}",
        "LeftPort": lambda: f"seat {s} leaves the port of {d['port']}",
        "PortActionBegun": lambda: f"seat {s} takes the port action at {d['port']}",
        "UpgradeTileRevealed": lambda: f"the upgrade tile at {d['port']} is {d['kind']}",
        "GoodsSold": lambda: f"seat {s} sells {len(d['cards'])} {d['good']} for {d['total']}"
                             + (" (in demand)" if d["demanded"] else ""),
        "DemandTileReplaced": lambda: f"{d['port']} now wants {d['good']}",
        "GloryGained": lambda: f"seat {s} gains a glory point ({d['why']}): {d['glory']} on the track",
        "PortActivityBegun": lambda: f"seat {s} begins to {d['activity']}",
        "DemandedCargoDiscarded": lambda: f"seat {s} discards a drawn {d['good']} (in demand here) and draws again",
        "CargoOffered": lambda: f"seat {s} is offered {d['offer']}",
        "CargoBought": lambda: f"seat {s} buys {d['card']} ({d['good']}) for {d['price']}",
        "BuyingEnded": lambda: f"seat {s} bought {d['bought']} cargo cards",
        "ShipRepaired": lambda: f"seat {s} repairs the {d['location']} for {d['cost']}",
        "UpgradeBought": lambda: f"seat {s} buys the {d['kind']} upgrade at {d['port']} for {d['cost']}",
        "WeaponBought": lambda: f"seat {s} buys {d['kind']} for {d['cost']}",
        "WeaponSold": lambda: f"seat {s} sells {d['kind']} for {d['price']}",
        "ShipBought": lambda: f"seat {s} trades a {d['old']} (worth {d['sale_value']}) for a {d['ship']} ({d['price']})",
        "CrewRecruited": lambda: f"seat {s} recruits {d['crew']} crew ({d['how']}, {d['cost']} gold)",
        "SkillTested": lambda: f"seat {s} tests {d['skill']}: {d['dice']} -> {d['successes']} success(es)",
        "GoldStashed": lambda: f"seat {s} stashes gold (amount secret)",
        "GoldWithdrawn": lambda: f"seat {s} takes gold from the stash (amount secret)",
        "StashChanged": lambda: (f"seat {s} moves {d['amount']} gold into the stash" if d["amount"] >= 0
                                 else f"seat {s} takes {-d['amount']} gold from the stash aboard"),
        "GloryCardPlayed": lambda: f"seat {s} plays {d['name']}" + (f" (as card {d['copies']})" if d.get("copies") else ""),
        "GloryWindowOpened": lambda: ("after the " + ("Seamanship" if d["phase"] == "naval_roll" else "Leadership")
                                      + " roll, glory cards may be played: "
                                      + " and ".join(f"seat {x}" for x in d["seats"]) + " may announce one"),
        "GloryAnnounced": lambda: f"seat {s} announces a glory card (not shown yet)",
        "GloryPassed": lambda: f"seat {s} plays no glory card",
        "GloryDeclined": lambda: f"seat {s} does not play the announced card and shows it: {d['name']}",
        "GloryRerollBegun": lambda: f"seat {s} chooses dice to roll again: "
                                    + ", then ".join(f"seat {x}'s" for x in d["sides"]),
        "GloryDiceRerolled": lambda: (f"seat {d['side']} rolls dice {d['which']} again: {d['dice']}" if d["which"]
                                      else f"seat {d['side']}'s dice stay {d['dice']}"),
        "GloryResolved": lambda: f"seat {s}'s glory card is resolved",
        "GloryWindowClosed": lambda: "no more glory cards: the fight goes on",
        "VictoryDeclared": lambda: f"seat {s} declares {d['total']} glory ({d['glory_track']} on the track, "
                                   f"{d['stash']} gold stashed)",
        "CaptainRetired": lambda: f"seat {s} retires captain {d['captain']}",
        "CaptainLeft": lambda: f"seat {s} loses captain {d['captain']} ({d['reason']})",
        "PlayerTurnEnded": lambda: f"seat {s} ends the turn",
        "GameEnded": lambda: f"the game ends: {d['note']}",
        "GloryTrackSet": lambda: f"every glory cube on 0 (target {d['target']})",
        "ShipChoiceOpened": lambda: f"every seat secretly chooses a ship: {', '.join(d['ships'])}",
        "GoldReceived": lambda: f"seat {s} receives {d['amount']} gold ({d['why']})",
        "GloryCardDealt": lambda: f"seat {s} draws glory card {d['card']}",
        "UpgradeTilesPlaced": lambda: "upgrade tiles: " + ", ".join(f"{z} {t}" for z, t in d["tiles"].items()),
        "MerchantTokensPlaced": lambda: "merchant tokens: " + ", ".join(f"{z} {t}" for z, t in d["tokens"].items()),
        "TurnEnded": lambda: f"turn {ev.turn} ends",
        "GloryCardDiscarded": lambda: f"seat {s} discards glory card {d['card']}",
        "GloryHandTrimmed": lambda: f"seat {s} discards a glory card down to {d['hand']}",
        "CargoJettisoned": lambda: f"seat {s} discards {d['card']} ({d['good']}) to meet the cargo limit",
        "CargoDrawnForSale": lambda: f"seat {s} has {d['cards']} cargo cards to choose from",
        "PortActivityEnded": lambda: f"seat {s} is done with {d['activity']}",
        "PortActionEnded": lambda: f"seat {s} ends the port action",
        "RumorSought": lambda: f"seat {s} pays {d['cost']} to seek a rumor",
        "RumorDrawn": lambda: f"seat {s} draws rumor {d['card']}",
        "RumorKept": lambda: f"seat {s} keeps rumor {d['kept']} and returns {d['discarded']}",
        "RumorChosen": lambda: f"seat {s} keeps one of two rumors",
        "NewCaptainDrawn": lambda: f"seat {s} draws a new captain (secret)",
        "HoldingsLost": lambda: f"seat {s} loses {d['gold']} gold and glory cards {d['glory_cards']}",
        "StartingGoldTopped": lambda: f"seat {s} takes gold up to the starting amount (secret)",
        "UpgradeTilePlaced": lambda: f"upgrade tile {d['tile']} goes face down to {d['port']}",
        "UpgradeTileHidden": lambda: f"seat {s} puts an upgrade tile face down at {d['port']}",
        "CargoDeckReshuffled": lambda: f"the cargo discards ({d['cards']}) become the deck",
        "GloryDeckReshuffled": lambda: f"the glory discards ({d['cards']}) become the deck",
        "GloryDeckEmpty": lambda: f"no glory card left for seat {s}",
        "MerchantTokensRedistributed": lambda: f"merchant tokens back on the board: {d['tokens']}",
        "MissionClaimed": lambda: f"seat {s} claims mission {d['mission']} at {d['port']}",
        "MissionClaimFailed": lambda: f"seat {s} fails to claim mission {d['mission']}",
        "RumorAcquired": lambda: f"seat {s} acquires a rumor",
        "Scouted": lambda: f"seat {s} scouts for " + _scout_target(d.get("target", "merchant")) + f" in {d['zone']}",
        "MerchantSighted": lambda: f"seat {s} sights a merchant in {d['zone']}: token {d['nation']}"
                                   + (f", sea zone {d['zone_nation']}" if d.get("zone_nation") else ""),
        "MerchantLetGo": lambda: f"seat {s} lets the merchant sail on",
        "RaidBegun": lambda: f"seat {s} raids a {d['nation']} merchant",
        "WantedFlagGained": lambda: f"seat {s} is wanted by {d['nation']} ({d['flags']} flag(s): {d['why']})",
        "RaidCardTurned": lambda: f"raid card {d['card']}: {d['good']}, loot {d['raid']}, {d['icon']}",
        "RaidSuccesses": lambda: f"seat {s} has {d['successes']} success(es) to use in the raid",
        "WeaponSpent": lambda: f"seat {s} spends {d['kind']}: {d['why']}",
        "RaidSuccessUsed": lambda: f"seat {s} uses a success to {d['use']}",
        "RaidCardDiscarded": lambda: f"seat {s} discards raid card {d['card']}",
        "ShipHit": lambda: f"seat {s}'s ship is hit on the {d['location']}"
                           + (f" (its {d['aimed']} already destroyed)" if d["aimed"] != d["location"] else ""),
        "RaidSucceeded": lambda: f"seat {s}'s raid succeeds: {d['loot']} gold",
        "RaidCardTaken": lambda: f"seat {s} keeps {d['card']} ({d['good']}) aboard",
        "RaidEnded": lambda: f"the raid ends: {d['result']}",
        "CargoLost": lambda: f"seat {s} loses {d['card']} ({d['good']}): {d['why']}",
        "CaptainDied": lambda: f"seat {s}'s captain dies: {d['why']}",
        "RaidStage": lambda: f"raid: {d['stage']}",
        "CombatBegun": lambda: f"seat {d['a']} engages seat {d['d']} in {d['zone']}",
        "CombatActionDeclared": lambda: f"seat {s} declares: {d['do']} (round {d['round']})",
        "CombatWaiting": lambda: f"seat {s} to answer: " + STAGES.get(d["stage"], d["stage"]),
        "CombatRolled": lambda: f"seat {s} rolls {d['skill']}: {d['dice']}",
        "CombatRerolled": lambda: f"seat {s} rolls again dice {d['which']}: {d['dice']}",
        "CombatRoundWon": lambda: (f"seat {s} wins the round" if s else "nobody wins the round")
                                  + f" (successes {d['successes']})",
        "CombatHitsDue": lambda: "hits due: " + (", ".join(f"{n} on seat {t}" for t, n in d["hits"].items()) or "none"),
        "HitsLocated": lambda: f"seat {d['shooter']} rolls the hit locations on seat {d['target']}: {d['dice']}"
                               f" -> {', '.join(d['locations']) or 'no number'}"
                               + (f", {d['skulls']} skull(s)" if d["skulls"] else ""),
        "SkullsDirected": lambda: f"seat {d['shooter']}'s special shot sends {d['hits']} hit(s) to the {d['location']}",
        "SkullPlaced": lambda: f"seat {s} places a skull hit on the {d['location']}",
        "HitReallocated": lambda: (f"seat {s} moves a hit from the {d['frm']} to the {d['to']} ({d['why']})"
                                   if d["frm"] else f"seat {s} keeps the hits where they fell"),
        "CombatHitsApplied": lambda: f"the hits of round {d['round']} land",
        "CombatRoundBegun": lambda: f"combat round {d['round']}",
        "CombatFled": lambda: f"seat {s} escapes the fight",
        "Boarded": lambda: f"seat {s} boards seat {d['target']}: crew combat",
        "CombatWon": lambda: f"seat {s} beats seat {d['beaten']} ({d['how']})",
        "PlunderTaken": lambda: f"seat {s} plunders seat {d['beaten']}: {d['glory_count']} glory card(s), "
                                f"weapons {d['weapons']}, the gold aboard",
        "CargoPlunderedCount": lambda: f"seat {s} takes a cargo card from seat {d['beaten']}",
        "ShipClaimed": lambda: f"seat {s} claims the beaten {d['ship']} (leaving the {d['old']})",
        "CombatEnded": lambda: "the fight ends" + (f": seat {d['winner']} wins" if d["winner"] else ""),
        "CaptainRedrawn": lambda: f"seat {s} sets captain {d['captain']} aside and draws another",
        "CaptainSetAside": lambda: f"seat {s} draws another captain ({d['why']})",
        "CombatDrifted": lambda: f"the fight ends: {d['why']}",
        "CrewCombatDrawn": lambda: f"crew combat drawn: {d['why']}",
        "HitLost": lambda: f"a hit on seat {s}'s destroyed {d['location']} is lost ({d['why']})",
        "ShipSunk": lambda: f"seat {s}'s ship sinks ({d['why']})",
        "LongRangeFired": lambda: f"seat {s}'s long guns: {d['dice']} -> {d['hits']} hit(s)",
        "BowCannonFired": lambda: f"seat {s} fires the bow cannon at seat {d['target']}",
        "BowCannonHeld": lambda: f"seat {s} keeps the bow cannon",
        "SwivelGunFired": lambda: f"seat {s}'s swivel gun: {d['dice']}",
        "HitAbsorbed": lambda: (f"seat {s}'s reinforced hull absorbs the hit on the {d['location']}"
                                if d["location"] else f"seat {s} keeps the reinforced hull"),
        "NpcArriving": lambda: f"{d['npc'].replace('_', ' ')} will enter at {d['zone']} at the end of the turn",
        "NpcEntered": lambda: f"{d['npc'].replace('_', ' ')} ({d['captain']}, a {d['ship']}) enters at {d['zone']}",
        "NpcReplaced": lambda: f"{d['npc'].replace('_', ' ')}: {d['captain']} takes command, from {d['frm']} to {d['to']}",
        "NpcMoved": lambda: f"{d['npc'].replace('_', ' ')} sails from {d['frm']} to {d['to']} ({d['why']})",
        "NpcsScouting": lambda: ", ".join(n.replace('_', ' ') for n in d["npcs"])
                                + f" scout for seat {s} (it {d['why']})",
        "NpcScouted": lambda: f"{d['npc'].replace('_', ' ')} scouts for seat {s} with {d['value']} dice: "
                              + ("found" if d["success"] else "not found"),
        "NpcCaptainLost": lambda: f"{d['npc'].replace('_', ' ')} loses its captain (card {d['card']})"
                                  + (f"; card {d['successor']} takes command" if d["successor"] else ": it leaves the sea"),
        "NpcReturned": lambda: f"{d['npc'].replace('_', ' ')} sails back to {d['to']}",
        "NpcCargoFound": lambda: f"the beaten {d['npc'][4:].replace('_', ' ')} carries {d['good']} ({d['raid']} gold)",
        "NpcCargoLost": lambda: f"a cargo card of the beaten ship is lost ({d['card']})",
        "HullRearmed": lambda: f"seat {s} re-arms the reinforced hull for {d['cost']}",
        "GoldLost": lambda: f"seat {s} loses {d['amount']} gold ({d['why']})",
        "GoldLostByCard": lambda: f"seat {s} loses gold to card {d['card']}",
        "WantedFlagRemoved": lambda: f"seat {s}: one {d['nation']} flag removed ({d['why']})",
        "ShipRepairedByCard": lambda: f"seat {s}'s {d['location']} repaired ({d['why']})",
        "PortFeePaid": lambda: f"seat {s} pays {d['fee']} to enter {d['port']}",
        "PortEntryRefused": lambda: f"seat {s} is refused entry to {d['port']}",
        "PortActionRefused": lambda: f"seat {s} is refused service at {d['port']} (wanted there)",
        "WarDeclared": lambda: f"{d['nations'][0]} and {d['nations'][1]} are at war (card {d['card']})"
                               + (" (still)" if d.get("again") else ""),
        "WarEnded": lambda: f"peace between {d['nations'][0]} and {d['nations'][1]} ({d['why']})",
        "NpcLeft": lambda: f"{d['npc'].replace('_', ' ')} leaves the sea ({d['why']})",
        "CargoCountGained": lambda: f"seat {s} gains a cargo card ({d['why']})",
        "RumorRevealed": lambda: f"seat {s} follows the rumor {d['name']} ({d['card']}, {d['skill']}) at {d['zone']}",
        "RumorFalse": lambda: f"seat {s}: the rumor was false",
        "RumorTrue": lambda: f"seat {s}: the rumor proves true" + (" (kept)" if d["kept"] else ""),
        "MissionCompleted": lambda: f"seat {s} completes the mission {d['name']}"
                                    + (f", handing over {', '.join(d['delivered'])}" if d["delivered"] else "")
                                    + (f", paying {d['paid']}" if d["paid"] else ""),
        "MissionAttemptFailed": lambda: f"seat {s} fails to complete the mission {d['mission']}",
    }
    f = lines.get(t)
    if not f:
        return ""
    # an NPC's side of a fight: "the dutch naval ship", not its id
    return re.sub(r"seat npc:(\w+)", lambda m: "the " + m.group(1).replace("_", " ") + " ship", f())
