"""Merchants & Marauders' decisions in words, with ports, ships, captains and
cards by their printed names: "sail to Port Royal", "sell 2 sugar", "buy
cocoa (raid 2)", "play Carpenter", "scout the Dutch Naval Ship". Reads only
the catalog the game travels with."""

from __future__ import annotations

from collections import Counter

from .catalog import tables
from .names import PEOPLE as _PEOPLE
from .names import Names, for_config

TYPE_CHECKING = False   # (the imports below are the type checker's: none at run time)
if TYPE_CHECKING:
    from typing import Any


_SIMPLE = {
    "leave_port": "leave port", "enter_port": "enter the port", "port": "take the port action",
    "retire": "retire your captain", "end_turn": "end your turn", "buy_goods": "buy goods",
    "end_buy": "stop buying goods", "shipyard": "visit the shipyard", "end_shipyard": "leave the shipyard",
    "rumor": "hear a rumor", "follow_rumor": "follow your rumor", "end_port": "end the port action",
    "end_stash": "stop stashing", "glory_announce": "announce a glory card", "glory_pass": "play no glory card",
    "let_go": "let the merchant go", "raid_draw": "draw a cargo card", "raid_stop": "stop drawing",
    "raid_take_done": "take no more cargo", "buy_upgrade": "buy an upgrade", "recruit": "recruit crew",
    "hire_crew": "hire a crew member", "end_recruit": "stop hiring crew", "redraw_captain": "draw a new captain",
    "no_reallocate": "keep the damage where it is", "weapons_done": "use no more special weapons",
    "keep_dice": "keep the dice", "no_shot": "fire no special shot", "no_absorb": "absorb no hit",
    "plunder_done": "take no more cargo", "complete_mission": "complete your mission",
    "rearm_hull": "turn the Reinforced Hull face up again",
}


def say_decision(config: dict[str, Any], decision: Any) -> str:
    return said_with(for_config(config), decision)


def said_with(N: Names, decision: Any) -> str:
    """A decision in words, with the names ``N`` (a catalog's)."""
    names = N.said

    def n(x: object) -> str:
        if isinstance(x, bool):
            return "yes" if x else "no"
        if isinstance(x, str):
            return names.get(x) or x.replace("_", " ")
        return str(x)

    d = decision
    if d.get("referee") == "overrule_npc":      # the referee's (referee.py)
        return (f"move {N.npc(d.get('npc'))} to {N.zone(d.get('to'))}, as the printed board has it"
                + (f" ({d['reason']})" if d.get("reason") else ""))
    a = d.get("action")
    if a in _SIMPLE and len(d) == 1:
        return _SIMPLE[a]
    if a == "choose_ship":
        return f"choose the {n(d['ship'])}"
    if a == "move":
        return f"sail to {n(d['to'])}"
    if a == "sell":
        return f"sell {d['count']} {n(d['good'])}"
    if a in ("buy", "raid_take", "plunder_cargo"):
        return f"buy {n(d['card'])}" if a == "buy" else f"take {n(d['card'])}"
    if a in ("discard_cargo", "raid_discard"):
        return f"discard {n(d['card'])}"
    if a == "raid_swap":
        return f"swap {n(d['card'])}"
    if a in ("play_glory", "glory_play"):
        return f"play {n(d['card'])}"
    if a == "glory_decline":
        return f"keep {n(d['card'])} in hand"
    if a == "discard_glory":
        return f"discard {n(d['card'])}"
    if a == "keep_rumor":
        return f"keep {N.drawn('rumors', d['card'])}"
    if a in ("stash", "withdraw"):
        return f"{a} {d['amount']} gold"
    if a == "scout":
        if d.get("target") == "npc":
            return f"scout {N.npc(d['npc'])}"
        if d.get("target") == "player":
            return f"scout seat {d['seat']}"
        return f"scout a {n(d.get('target'))}"
    if a == "combat_action":
        return {"shoot": "shoot", "board": "board", "flee": "flee"}.get(d.get("do"), n(d.get("do")))
    if a == "place_hit":
        return f"take the hit on the {n(d['location'])}"
    if a == "raid":
        people = _PEOPLE.get(d["nation"], n(d["nation"]).capitalize())
        return f"raid {'an' if people[0] in 'AEIOU' else 'a'} {people} merchant"
    if a in ("buy_weapon", "sell_weapon", "spend_weapon", "special_shot"):
        verb = {"buy_weapon": "buy", "sell_weapon": "sell", "spend_weapon": "use", "special_shot": "fire"}[a]
        return f"{verb} {n(d['kind'])}"
    if a == "buy_ship":
        if "keep" not in d:
            return f"buy a {n(d['ship'])}"
        kept = [n(t) for t in d["keep"] or ()]
        return (f"buy a {n(d['ship'])}, keeping {' and '.join(kept)} (the other tiles sold)" if kept
                else f"buy a {n(d['ship'])}, selling every upgrade tile")
    if a == "claim_mission":
        return f"take {N.drawn('missions', d['mission'])}"
    if a == "place_upgrade":
        return f"place the upgrade in {n(d['port'])}"
    if a == "reallocate":
        return f"move a hit from the {n(d['frm'])} to the {n(d['to'])}"
    if a == "repair":
        return f"repair the {n(d['location'])}"
    if a == "absorb":
        return f"absorb the hit with the {n(d['location'])}"
    if a in ("reroll", "glory_reroll"):
        dice = [i + 1 for i in d.get("dice") or []]
        if not dice:
            return "reroll no die"
        return "reroll die " + ", ".join(map(str, dice)) if len(dice) == 1 else \
            "reroll dice " + ", ".join(map(str, dice[:-1])) + f" and {dice[-1]}"
    if a == "bow_cannon":
        return "fire the bow cannon" if d.get("fire") else "hold the bow cannon"
    if a == "claim_ship":
        return "claim the ship" if d.get("claim") else "leave the ship"
    rest = ", ".join(f"{k.replace('_', ' ')} {n(v)}" for k, v in d.items() if k != "action")
    return f"{n(a or '')} {rest}".strip()


def _icon(icon: str) -> str:
    """A cargo card's icon in words: ``escape`` -> "escape icon", ``hit:masts`` -> "masts hit icon"."""
    kind, _, where = str(icon).partition(":")
    return f"{where} {kind} icon" if where else f"{kind} icon"


def say_choices(state: Any, config: dict[str, Any], decisions: list[dict[str, Any]]) -> list[str]:
    """``say_decision`` for each, a card offered in port with its price ("buy cocoa (raid 3)
    for 2 gold"), and two cargo cards that would read alike told apart by their icons
    ("cocoa (raid 3, escape icon)")."""
    said = [say_decision(config, d) for d in decisions]
    offer = (state.get("port") or {}).get("offer") or {}
    counts = Counter(said)
    cargo = tables(state)["cargo"] if len(counts) < len(said) else {}
    for i, d in enumerate(decisions):
        card = d.get("card")
        if counts[said[i]] > 1 and card in cargo:
            printed = f"(raid {cargo[card]['raid']})"
            said[i] = said[i].replace(printed, f"(raid {cargo[card]['raid']}, {_icon(cargo[card]['icon'])})", 1)
        if d.get("action") == "buy" and card in offer:
            said[i] += f" for {offer[card]} gold"
    return said
