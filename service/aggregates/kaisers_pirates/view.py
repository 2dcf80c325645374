"""What each seat may see of the table, and readable log lines.

Hidden: the cards in another seat's hand (only their number), committed cards
face down (only their number, until played), the draw pile's order and the
set-aside cards, cards an Intelligence put on top of the deck (seen by the
seat that ordered them). Everything else is face up: forces, markers,
recognition, VP piles (3.1.8), the discard pile (3.1.7), deck sizes (3.1.9).
"""

from __future__ import annotations

import json

from service.kernel.rules import by_seat, winners_said

from .board import TEAMS, team_game, vp_of
from .state import pool_left


def view(state: dict, seat: int | None) -> dict:
    referee = seat is None
    tt = state["tt"]
    players = {}
    for i, p in enumerate(state["players"]):
        n = i + 1
        mine = referee or n == seat
        entry = {
            "hand": sorted(p["hand"]) if mine else len(p["hand"]),
            "ships": [dict(ship=s, **state["status"].get(s, {})) for s in p["ships"]],
            "merchants": [dict(ship=s, **state["status"].get(s, {})) for s in p["merchants"]],
            "prizes": [dict(ship=s, **state["status"].get(s, {})) for s in p["prizes"]],
            "vp_pile": [dict(e) for e in p["vp"]],
            "vp": sum(vp_of(state, e) for e in p["vp"]),
            "pending": p["pending"],
            "round_vp": list(p["round_vp"]),
            "round_points": list(p["round_points"]),
        }
        players[str(n)] = entry
    out = {
        "round": state["round"], "turn": state["turn"], "phase": state["phase"], "current": state["current"],
        "action_deck": pool_left(state) + len(state["top"]),
        "discard": len(state["discard"]), "discard_top_two": list(reversed(state["discard"][-2:])),
        "ship_deck": len(state["ship_pool"]), "merchant_deck": len(state["merchant_pool"]),
        "players": players, "window": _window(state, seat), "result": state["result"],
    }
    if state.get("solo") is not None:
        # solitaire: seat 2 is the phantom player; the discard pile stays hidden all game (5.3.1)
        out["phantom"] = 2
        out["discard_top_two"] = []
        out["solitaire_deck"] = len(state["solo"]["pile"])
    if tt is not None:
        mine = referee or seat == state["current"]
        # face down: others see where each card lies and which way it is turned (3.2.1), not what it is
        out["committed"] = ([dict(c) for c in tt["committed"]] if mine else
                            [{"use": c["use"], "ship": c.get("ship")} for c in tt["committed"]])
        out["played"] = list(tt["played"])
        out["reactions"] = list(tt["reactions"])
        out["attack_on"] = tt["attack_on"]
    if state["eng"] is not None:
        out["attack"] = {k: v for k, v in state["eng"].items()}
    if not referee and state.get("top_known_by") == seat and state["top"]:
        out["top"] = list(state["top"])       # the cards this seat's Intelligence put on top
    elif not referee and state["top"]:
        # an earlier Intelligence: this seat saw these cards, but another player has
        # reordered them since (3.3.17 "segretamente"): which cards, not their order
        seen = set(state.get("top_seen", {}).get(str(seat), ()))
        if seen & set(state["top"]):
            out["top_seen"] = sorted(c for c in state["top"] if c in seen)
    if not referee and state["window"] and state["window"]["kind"] == "stack" and state["window"]["seat"] == seat:
        out["peek"] = list(state["peek"])
    _team_view(state, seat, out)
    if referee:
        out["discard_pile"] = list(state["discard"])
        out["pool"] = sorted(state["pool"])
        out["top"] = list(state["top"])
        out["set_aside"] = sorted(state["set_aside"])
        out["peek"] = list(state["peek"])
    return out


def _window(state, seat):
    w = state["window"]
    if w is None:
        return None
    if w["kind"] == "assist" and seat is not None and seat != w["seat"]:
        return None          # whether the attacker holds a committed assist is hidden
    return dict(w)


def _team_view(state, seat, out):
    """The team game: the teams (4.1); the cards chosen for Exchange Information, to the giver only."""
    if not team_game(state):
        return
    out["teams"] = {str(t): list(TEAMS[t - 1]) for t in (1, 2)}
    ex = state.get("exchange")
    if ex is not None:
        if seat is None:
            out["exchange"] = {"seats": list(ex["seats"]), "give": {k: list(v) for k, v in ex["give"].items()}}
        elif str(seat) in ex["give"]:
            out["giving"] = list(ex["give"][str(seat)])     # only the giver sees its own choice


def describe(ev) -> str:
    d = ev.data
    t = ev.type
    if t == "TurnStarted":
        return f"round {d['round']}, turn {ev.turn}: seat {d['seat']} to play" + (" (extra turn)" if d.get("extra") else "")
    if t == "CardCommitted":
        return f"seat {d['seat']} commits {d['name']} ({d['use']} side) face down"
    if t == "CardCommittedFaceDown":
        return f"seat {d['seat']} commits a card face down ({d['count']} committed)"
    if t == "CardRevealed":
        return f"seat {d['seat']} plays {d['name']} ({d['use']} side)"
    if t == "AttackAnnounced":
        # who attacks: the German ship, a U-boat (its card, or the phantom's), else British forces
        who = d["ship"] or d.get("by") or "British forces"
        kind = "gun attack" if d.get("guns") else {"british": "intercept"}.get(d["kind"], d["kind"])
        return f"seat {d['seat']}: {who} {kind} against seat {d['opp']}: {', '.join(d['targets'])}"
    if t == "WindowOpened":
        return f"seat {d['seat']} may answer ({d['kind']})"
    if t == "ReactionDeclined":
        return f"seat {d['seat']} declines to react ({d['kind']})"
    if t == "ReactionPlayed":
        return f"seat {d['seat']} reacts with {d['name']}"
    if t == "DiceCompared":
        a, b = d["attack"], d["defence"]
        return (f"{d['what']}: {a['high']}{' ' + ', '.join(a['mods']) if a['mods'] else ''} = {a['result']} against "
                f"{b['high']}{' ' + ', '.join(b['mods']) if b['mods'] else ''} = {b['result']}: {d['outcome']}")
    if t == "ChallengeRolled":
        return (f"{d['what']}: challenge {d['challenge']['result']} against response {d['response']['result']}: "
                f"{'success' if d['success'] else 'failure'}")
    if t == "ShipSunk":
        kind = "merchantman" if d["deck"] == "merchant" else "ship"
        return (f"seat {d['owner']}'s {kind} {d['ship']} is sunk by seat {d['by']} ({d['why']})"
                + ("; its victory points count double" if d.get("double") else ""))
    if t == "ShipDamaged":
        return f"{d['ship']} is damaged ({d['why']})"
    if t == "PhantomCardsTaken":
        return f"seat {d['seat']} takes {', '.join(d['cards'])} from the phantom's hand (Recon Aircraft, 5.3.2)"
    if t == "PhantomTurnShortened":
        return d["why"]
    if t == "DamageIgnored":
        return f"{d['ship']} is not damaged ({d['why']})"
    if t == "ShipRemoved":
        return f"{d['ship']} leaves the game ({d['why']})"
    if t == "ShipCaptured":
        return f"seat {d['by']} captures {d['ship']} of seat {d['from_seat']} with {d['interceptor']}: a prize"
    if t == "ShipRevealed":
        return f"{d['ship']} is revealed ({d['why']})"
    if t == "ShipDisguised":
        return f"{d['ship']} is disguised again ({d['why']})"
    if t == "PassageMade":
        return (f"seat {d['seat']}: {d['ship']} makes passage"
                + ("; its victory points count double" if d.get("double") else ""))
    if t == "PassageOffered":
        return f"{d['ship']} survived the intercept: seat {d['seat']} may seek passage"
    if t in ("PassageAttempted", "PassageDeclined"):
        verb = "tries" if t == "PassageAttempted" else "declines"
        return f"seat {d['seat']} {verb} passage for {d['ship']}"
    if t == "PursuitChosen":
        verb = "follows" if d["pursue"] else "does not follow"
        how = "over the shoals (6.10)" if d["against"] == "shallow-run" else "the Fast Ship (6.6.1)"
        return f"seat {d['seat']}: {d['ship']} {verb} {d['target']} {how}"
    if t == "PursuitOverShoals":
        return f"{d['ship']} follows {d['target']} over the shoals: both ships must cross (6.10.2)"
    if t == "PrizeStoresUsed":
        return f"seat {d['seat']}: the prize {d['prize']} resupplies {d['ship']} (6.12.1)"
    if t == "CardsDiscarded":
        return f"discarded face up{'' if d.get('seat') is None else ' by seat ' + str(d['seat'])}: {', '.join(d['cards'])}"
    if t == "PenaltyApplied":
        return f"penalty ({d['rule']}): seat {d['seat']} discards {d['name']} ({d['where']})"
    if t == "TurnSkipped":
        return f"seat {d['seat']} loses its turn ({d['why']})"
    if t == "CardsExchangedCount":
        return "Exchange Information: " + ", ".join(f"seat {s} gives {n}" for s, n in d["counts"].items())
    if t == "ShipClaimed":
        kept = ", ".join(d["ships"]) if "ships" in d else d["ship"]       # 6.7: up to three
        return f"seat {d['seat']} keeps {kept or 'no ship'} for the next round"
    if t == "TurnInFog":
        return f"seat {d['seat']} is in a fog bank: no card played, none drawn"
    if t == "GameOver":
        text = f"game over: {winners_said(d['winners'])}"
        if d.get("teams"):
            text += " (" + "; ".join(f"team {t}: seats {' and '.join(map(str, s))}, {d['team_points'][t]} points"
                                     for t, s in d["teams"].items()) + ")"
        for key, name in (("scores", "scores"), ("victory_points", "victory points")):
            if key in d:
                text += f"; {name} {by_seat(d[key])}"
        if d.get("extra_rounds"):
            text += "; extra rounds: " + ", ".join(
                f"seat {k} {sum(x['round_points'])} points ({sum(x['victory_points'])} victory points)"
                for k, x in d["extra_rounds"].items())
        return text
    if t == "RoundScored":
        return f"round {d['round']} scored: victory points {by_seat(d['vp'])}; round points {by_seat(d['points'])}"
    if t == "CardDrawn":
        return f"{d['deck']}: {d['card']} ({d.get('why', '')})"
    if t == "DiceRolled":
        return f"{d.get('why', 'dice')}: {d['values']}"
    return f"{t} " + json.dumps(d, separators=(", ", ": "), ensure_ascii=False)
