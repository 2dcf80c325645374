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
from .words import _listed, in_words, printed

TYPE_CHECKING = False  # mypy takes the name as true; typing is not imported at run time
if TYPE_CHECKING:
    from typing import Any

    from collections.abc import Callable
    from service.kernel.events import Ev

    from .shapes import State


def view(state: State, seat: int | None) -> dict[str, Any]:
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


def _window(state: State, seat: int | None) -> dict[str, Any] | None:
    w = state["window"]
    if w is None:
        return None
    if w["kind"] == "assist" and seat is not None and seat != w["seat"]:
        return None          # whether the attacker holds a committed assist is hidden
    return dict(w)


def _team_view(state: State, seat: int | None, out: dict[str, Any]) -> None:
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


_ATTACK = {"intercept": "intercept", "british": "British intercept", "mines": "mine attack",
           "torpedo": "submarine attack", "interrogate": "Interrogate", "monitor": "Monitor attack"}

_OUTCOME = {"sunk": "at least double: sunk", "damaged": "higher, not double: damaged",
            "none": "not higher: no effect", "captured": "at least double: captured",
            "not captured": "not double: not captured"}

_WINDOW = {   # who may answer what (WindowOpened's kind), as the rules put it
    "assist": "may add an assist card to the attack", "react": "may react to the attack",
    "after": "may answer the sinking", "discard": "discards the cards played this turn",
    "passage": "may try for passage", "pursue": "may follow", "order": "chooses which merchant the mines strike next",
    "keep": "chooses a ship to keep for the next round", "team_keep": "chooses the ships the team keeps",
    "stack": "puts the cards seen back on the deck", "exchange": "chooses cards to give the partner",
    "breakout_split": "shares the new ships with the partner", "reflag": "may Reflag a revealed ship",
    "reflag_card": "may answer with Reflag"}

_STAGE = {   # an engagement's next step (EngagementAdvanced's stage)
    "assist": "the attacker may add assists", "react": "the defender may react",
    "order": "the mines strike one merchant at a time", "resolve": "the dice are rolled",
    "after": "the sinking may be answered", "passage": "the merchant that survived may try for passage",
    "pursue": "the attacker may follow", "challenge": "a challenge is rolled first"}

_ORDINAL = ("first", "second", "third", "fourth", "fifth", "sixth")

_PHANTOM_MODE = {"normal": "a full turn", "deception": "one card, after Deception (5.4.3 step 9)",
                 "recon": "one card, after Recon Aircraft (5.4.3 step 10)"}


def _roll(side: dict[str, Any], mods: bool = True) -> str:
    """One side of a roll as the book says it: the highest die, each modifier, the result."""
    if not mods or not side.get("mods"):
        return str(side["result"])
    return f"{side['high']} ({', '.join(in_words(m) for m in side['mods'])}): {side['result']}"


def _seat(n: int) -> str:
    return f"seat {n}"


def _said_attack_announced(d: dict[str, Any], ev: Ev) -> str:
    # who attacks: the German ship, a U-boat (its card, or the phantom's), else British forces
    phantom = isinstance(d.get("card"), str) and d["card"].startswith("solo:")
    if d.get("ship"):
        who = printed(d["ship"])
    elif d["kind"] == "british":
        who = "the phantom's British forces" if phantom else "British forces"
    elif phantom and d["kind"] in ("torpedo", "mines") and not d.get("by"):
        who = "the phantom's U-boat"
    else:
        who = in_words(d["by"]) if d.get("by") else printed(d.get("card"))
    kind = {"intercept": "intercepts", "british": "intercept", "mines": "lays mines against",
            "torpedo": "fires its guns on" if d.get("guns") else "torpedoes",
            "interrogate": "interrogates", "monitor": "attacks in its refuge"}.get(d["kind"], d["kind"])
    if d["kind"] == "british" and not (d.get("ship") or who.endswith("forces")):
        kind = "intercepts"
    night = " (a night action)" if d.get("night") else ""
    if d["kind"] == "interrogate":
        return f"seat {d['seat']} interrogates seat {d['opp']}'s {printed(d['targets'])} ({printed(d.get('card'))})"
    if d["kind"] == "monitor":
        return f"seat {d['seat']}'s Monitor attacks seat {d['opp']}'s {printed(d['targets'])} in its island refuge"
    if d["kind"] == "mines":
        return f"seat {d['seat']}: {who} {kind} seat {d['opp']}'s merchants: {printed(d['targets'])}"
    return f"seat {d['seat']}: {who} {kind} seat {d['opp']}'s {printed(d['targets'])}{night}"


def _said_window_opened(d: dict[str, Any], ev: Ev) -> str:
    what = _WINDOW.get(d["kind"], d["kind"].replace("_", " "))
    if d["kind"] == "passage" and d.get("ship"):
        what = f"may try for passage with {printed(d['ship'])}"
    elif d["kind"] in ("react", "after", "pursue") and d.get("target"):
        what += f" (on {printed(d['target'])})"
    return f"seat {d['seat']} {what}"


def _said_engagement_advanced(d: dict[str, Any], ev: Ev) -> str:
    if d["stage"] == "next":
        return f"done with the {_ORDINAL[d['i']] if d['i'] < len(_ORDINAL) else 'next'} target"
    return _STAGE.get(d["stage"], d["stage"].replace("_", " "))


def _said_reaction_declined(d: dict[str, Any], ev: Ev) -> str:
    k = d.get("kind")
    if k == "after":
        return f"seat {d['seat']} does not answer the sinking"
    if k in ("reflag", "reflag_card"):
        return f"seat {d['seat']} plays no Reflag"
    return f"seat {d['seat']} does not react"


def _said_reaction_played(d: dict[str, Any], ev: Ev) -> str:
    on = d.get("target") or d.get("ship")
    return f"seat {d['seat']} reacts with {printed(d['card'])}" + (f" for {printed(on)}" if on else "")


def _said_dice_compared(d: dict[str, Any], ev: Ev) -> str:
    a, b = d["attack"], d["defence"]
    return f"{in_words(d['what'])}: {_roll(a)} against {_roll(b)}, {_OUTCOME.get(d['outcome'], d['outcome'])}"


def _said_challenge_rolled(d: dict[str, Any], ev: Ev) -> str:
    c, r = d["challenge"], d["response"]
    return (f"{in_words(d['what'])}: challenge {_roll(c)} against response {r['result']}: "
            f"{'higher, it succeeds' if d['success'] else 'not higher, it fails'}")


def _said_ship_sunk(d: dict[str, Any], ev: Ev) -> str:
    kind = "merchantman" if d["deck"] == "merchant" else "ship"
    return (f"seat {d['owner']}'s {kind} {printed(d['ship'])} is sunk by seat {d['by']} ({in_words(d['why'])})"
            + ("; its victory points count double" if d.get("double") else ""))


def _said_phantom_action_chosen(d: dict[str, Any], ev: Ev) -> str:
    side = "offensive" if d["side"] == "offense" else "defensive"
    done = "" if d.get("possible") else " (not possible: nothing happens)"
    act = "no action" if d.get("action") in (None, "none") else printed(d["action"])
    return f"{printed(d['card'])}, {side} side, roll {d['roll']}: {act}{done}"


def _said_phantom_defence(d: dict[str, Any], ev: Ev) -> str:
    if d.get("reaction") in (None, "none"):
        return f"{printed(d['card'])}, defensive side, roll {d['roll']}: no reaction for {printed(d['target'])}"
    fits = "" if d.get("fits") else " (it does not apply: no effect)"
    return (f"{printed(d['card'])}, defensive side, roll {d['roll']}: {printed(d['reaction'])} "
            f"for {printed(d['target'])}{fits}")


def _said_phantom_special_turned(d: dict[str, Any], ev: Ev) -> str:
    if not d.get("applies") or not d.get("special"):
        return f"{printed(d['card'])}: no special card for this attack"
    return f"{printed(d['card'])}: the phantom adds {printed(d['special'])}"


def _said_phantom_assists(d: dict[str, Any], ev: Ev) -> str:
    names = d.get("names") or []
    return "the phantom's attack: " + (f"with {_listed(names)}" if names else "no assist")


def _said_ship_transferred(d: dict[str, Any], ev: Ev) -> str:
    why = f" ({in_words(d['why'])})" if d.get("why") else ""
    return f"{printed(d['ship'])} passes from seat {d['from_seat']} to seat {d['to']}{why}"


def _said_passage_answered(d: dict[str, Any], ev: Ev) -> str:
    verb = "tries" if ev.type == "PassageAttempted" else "declines"
    return f"seat {d['seat']} {verb} passage for {printed(d['ship'])}"


def _said_pursuit_chosen(d: dict[str, Any], ev: Ev) -> str:
    verb = "follows" if d["pursue"] else "does not follow"
    how = "over the shoals (6.10)" if d["against"] == "shallow-run" else "the Fast Ship (6.6.1)"
    return f"seat {d['seat']}: {printed(d['ship'])} {verb} {printed(d['target'])} {how}"


def _said_cards_discarded(d: dict[str, Any], ev: Ev) -> str:
    # face up (3.1.7), one card an event: two or more cards are put down in an order their
    # holder chooses, one decision each (flow.continue_discards), except in the solitaire
    # game, whose discard pile is face down and unordered (5.3.1): its cards go down at once.
    # (A single card's event does not say which game it is in.)
    who = "discarded" if d.get("seat") is None else f"seat {d['seat']} discards"
    if len(d["cards"]) >= 2:
        return f"{who} {printed(d['cards'])} face down (the solitaire game, 5.3.1)"
    return f"{who} {printed(d['cards'])}"


def _said_penalty_applied(d: dict[str, Any], ev: Ev) -> str:
    where = "its hand" if d["where"] == "hand" else "the cards it committed"
    return f"penalty ({d['rule']}): seat {d['seat']} discards {printed(d['card'])} from {where}, face up"


def _said_ship_claimed(d: dict[str, Any], ev: Ev) -> str:
    """The team game: each partner claims from the team's ships (4.9)."""
    kept = printed(d["ships"]) if d.get("ships") else printed(d["ship"]) if d.get("ship") else ""
    return f"seat {d['seat']} claims {kept or 'no ship'} of the team's ships for the next round (4.9)"


def _said_ship_kept(d: dict[str, Any], ev: Ev) -> str:
    kept = printed(d["ships"]) if d.get("ships") else printed(d["ship"]) if d.get("ship") else ""
    return f"seat {d['seat']} keeps {kept or 'no ship'} for the next round"


def _said_position_laid(d: dict[str, Any], ev: Ev) -> str:
    solo = d.get("solitaire")

    def card(c: dict[str, Any]) -> str:
        marks = [m for m in ("damaged", "revealed") if c.get(m)]
        if c.get("markers", 1) > 1:
            marks.append(f"{c['markers']} damage markers")
        if c.get("supply"):
            marks.append("short of supply")
        if c.get("refuge"):
            marks.append("in an island refuge")
        return printed(c["card"]) + (f" ({', '.join(marks)})" if marks else "")

    def force(q: dict[str, Any]) -> str:
        said = [f"{k} {_listed([card(c) for c in q[k]])}" for k in ("ships", "merchants", "prizes") if q.get(k)]
        if q.get("vp"):
            said.append(f"victory points {printed([c['card'] for c in q['vp']])}")
        if q.get("pending"):
            said.append(f"{printed(q['pending']['card'])} waiting on it")
        if q.get("skip"):
            said.append("its turn skipped (Bounding Main)")
        who = "the phantom" if solo is not None and q["seat"] == 2 else f"seat {q['seat']}"
        return f"{who}: " + ("; ".join(said) or "a force drawn as at a round's start")
    text = ("the game starts from a stated position: " + "; ".join(force(q) for q in d["players"])
            + "".join(f"; seat {k} holds {v} card{'s' if v != 1 else ''}" for k, v in (d.get("hands") or {}).items()
                      if solo is None or k != "2"))
    if solo is not None:
        text += f"; the phantom holds {d['hands']['2']} cards face down"
        if solo["face_down"]:
            text += f"; {solo['face_down']} cards face down on the discard pile"
        if solo["turned"]:
            text += f"; solitaire cards turned since the reshuffle: {printed(list(solo['turned']))}"
        if solo["short"]:
            text += ("; the phantom played " + ("Deception" if solo["short"] == "deception" else "Recon Aircraft")
                     + ": its next turn is one card (5.4.3)")
    return text


def _said_game_over(d: dict[str, Any], ev: Ev) -> str:
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


# each event's line in the log, by its type (``describe``)
_SAID: dict[str, Callable[[dict[str, Any], Ev], str]] = {
    # turns, and the action cards: committed, played, drawn, taken, discarded
    "TurnStarted": lambda d, ev:
        f"round {d['round']}, turn {ev.turn}: seat {d['seat']} to play" + (" (extra turn)" if d.get("extra") else ""),
    "CardCommitted": lambda d, ev:
        f"seat {d['seat']} commits {printed(d['card'])} ({d['use']} side) face down"
        + (f" for {printed(d['ship'])}" if d.get("ship") else ""),
    "CardCommittedFaceDown": lambda d, ev: f"seat {d['seat']} commits a card face down ({d['count']} committed)",
    "CommittingDone": lambda d, ev:
        f"seat {d['seat']} is done committing: {d['cards']} card{'s' if d['cards'] != 1 else ''} committed",
    "CardRevealed": lambda d, ev: f"seat {d['seat']} plays {printed(d['card'])} ({d['use']} side)",
    "ActionCardDrawn": lambda d, ev:
        f"seat {d['seat']} draws an action card" + (" face down" if d.get("face_down") else "")
        + f" ({d['left']} left in the deck)",
    "KnownCardDrawn": lambda d, ev: f"seat {d['seat']} draws {printed(d['card'])}, known from Intelligence",
    "ActionCardsSetAside": lambda d, ev:
        f"{d['count']} action cards set aside unseen for the round; {d['deck']} in the deck",
    "DeckReshuffledFromBottom": lambda d, ev: f"the {d['deck']} deck's discards are shuffled back in",
    "DeckExhausted": lambda d, ev: f"the {d['deck']} deck is empty: seat {d['seat']} draws nothing",
    "DeckTopOrdered": lambda d, ev:
        f"seat {d['seat']} puts the cards back on the deck, top first: {printed(d['cards'])}",
    "DeckTopReordered": lambda d, ev: f"seat {d['seat']} puts {d['count']} cards back on top of the deck",
    "KnownCardsPeeked": lambda d, ev: f"seat {d['seat']} already knows the top cards: {printed(d['cards'])}",
    "HandSeen": lambda d, ev: f"seat {d['seat']} sees seat {d['of']}'s hand: {printed(d['cards'])}",
    "CardsTaken": lambda d, ev: f"seat {d['seat']} takes {printed(d['cards'])} from seat {d['from']}",
    "CardsTakenCount": lambda d, ev:
        f"seat {d['seat']} takes {d['count']} card{'s' if d['count'] != 1 else ''} from seat {d['from']}",
    "DiscardsTaken": lambda d, ev:
        f"seat {d['seat']} takes the top of the discard pile" + (f": {printed(d['cards'])}" if d.get("cards") else ""),
    "CardPlacedOnPlayer": lambda d, ev: f"seat {d['by']} plays {printed(d['card'])} on seat {d['on']}",
    "DeceptionForcedCard": lambda d, ev: f"Deception: seat {d['seat']} must play {printed(d['card'])} this turn",
    "ForcedCardIgnored": lambda d, ev: f"seat {d['seat']} need not play {printed(d['card'])} ({in_words(d['why'])})",
    "PendingCardCleared": lambda d, ev: f"{printed(d['card'])} on seat {d['seat']} has done its work and is discarded",
    "TurnInFog": lambda d, ev: f"seat {d['seat']} is in a fog bank: no card played, none drawn",
    "ActionFoiled": lambda d, ev:
        f"{printed(d['card'])} has no effect on {printed(d['target'])} ({in_words(d['why'])})",
    "ActionCardScored": lambda d, ev: f"seat {d['seat']} scores {printed(d['card'])} ({in_words(d['why'])})",
    "SecondChanceEarned": lambda d, ev: f"seat {d['seat']} earns a second chance: another turn",
    "DiscardingStarted": lambda d, ev: f"seat {d['seat']} ends the turn: the cards played are discarded",
    "CardsDiscarded": _said_cards_discarded,
    "CardsDiscardedFaceDown": lambda d, ev:
        f"seat {d['seat']} discards {printed(d['cards'])} face down ({in_words(d['why'])})",
    "CardsDiscardedCount": lambda d, ev:
        f"seat {d['seat']} discards {d['count']} card{'s' if d['count'] != 1 else ''} face down ({in_words(d['why'])})",
    "PenaltyApplied": _said_penalty_applied,
    "TurnSkipped": lambda d, ev: f"seat {d['seat']} loses its turn ({in_words(d['why'])})",
    "TurnWillBeSkipped": lambda d, ev:
        f"seat {d['seat']} will lose its next turn, by seat {d['by']} ({in_words(d['why'])})",
    "TurnEnded": lambda d, ev: f"seat {d['seat']}'s turn ends" + ("" if d.get("drew") else ", no card drawn"),

    # attacks: announced, assisted, answered, rolled, passage
    "AttackAnnounced": _said_attack_announced,
    "WindowOpened": _said_window_opened,
    "WindowClosed": lambda d, ev: f"seat {d['seat']} is done" + (" discarding" if d.get("kind") == "discard" else ""),
    "AssistRevealed": lambda d, ev:
        f"seat {d['seat']} adds {printed(d['card'])} to the attack"
        + (f" on {printed(d['target'])}" if d.get("target") else ""),
    "EngagementAdvanced": _said_engagement_advanced,
    "ReactionDeclined": _said_reaction_declined,
    "ReactionPlayed": _said_reaction_played,
    "MineTargetChosen": lambda d, ev: f"the mines strike {printed(d['target'])}",
    "MinesSwept": lambda d, ev: f"the mines laid against seat {d['opp']} are swept",
    "TargetsReduced": lambda d, ev: f"only {printed(d['keep'])} remains a target ({in_words(d['why'])})",
    "MerchantIgnored": lambda d, ev: f"{printed(d['ship'])} is not a target ({in_words(d['why'])})",
    "TorpedoTargetIgnored": lambda d, ev: f"the submarine does not attack {printed(d['ship'])} ({in_words(d['why'])})",
    "AttackCancelled": lambda d, ev: f"the attack on {printed(d['target'])} is called off ({in_words(d['why'])})",
    "InterceptCancelled": lambda d, ev: f"the intercept of {printed(d['target'])} is called off ({in_words(d['why'])})",
    "InterrogationSucceeded": lambda d, ev:
        f"Interrogate succeeds: {printed(d['target'])} may be intercepted by British forces",
    "InterrogationFailed": lambda d, ev: f"Interrogate fails: {printed(d['target'])} is not found",
    "DiceCompared": _said_dice_compared,
    "ChallengeRolled": _said_challenge_rolled,
    "PursuitChosen": _said_pursuit_chosen,
    "PursuitOverShoals": lambda d, ev:
        f"{printed(d['ship'])} follows {printed(d['target'])} over the shoals: both ships must cross (6.10.2)",
    "PassageOffered": lambda d, ev: f"{printed(d['ship'])} survived the intercept: seat {d['seat']} may seek passage",
    "PassageBarred": lambda d, ev: f"{printed(d['ship'])} may not seek passage this turn ({in_words(d['why'])})",
    "PassageAttempted": _said_passage_answered,
    "PassageDeclined": _said_passage_answered,
    "PassageMade": lambda d, ev:
        f"seat {d['seat']}: {printed(d['ship'])} makes passage"
        + ("; its victory points count double" if d.get("double") else ""),
    "VictoryCardsSwapped": lambda d, ev:
        f"seat {d['defender']} gives {printed(d['given'])} from its victory points "
        f"to seat {d['attacker']} for {printed(d['sunk'])}",
    "VictoryCardsDiscarded": lambda d, ev:
        f"seat {d['seat']} discards {printed(d['cards'])} from its victory points ({in_words(d['why'])})",
    "EngagementEnded": lambda d, ev: f"seat {d['seat']}'s {_ATTACK.get(d['kind'], 'attack')} is over",

    # what happens to a ship
    "ShipSunk": _said_ship_sunk,
    "ShipDamaged": lambda d, ev: f"{printed(d['ship'])} is damaged ({in_words(d['why'])})",
    "FurtherDamageIgnored": lambda d, ev: f"{printed(d['ship'])} is already damaged: no further effect",
    "DamageIgnored": lambda d, ev: f"{printed(d['ship'])} is not damaged ({in_words(d['why'])})",
    "ShipRepaired": lambda d, ev: f"{printed(d['ship'])} is repaired ({in_words(d['why'])})",
    "ShipResupplied": lambda d, ev: f"{printed(d['ship'])} is resupplied ({in_words(d['why'])})",
    "SupplyLimited": lambda d, ev: f"{printed(d['ship'])} is short of supply ({in_words(d['why'])})",
    "PrizeStoresUsed": lambda d, ev:
        f"seat {d['seat']}: the prize {printed(d['prize'])} resupplies {printed(d['ship'])} (6.12.1)",
    "ShipRevealed": lambda d, ev: f"{printed(d['ship'])} is revealed ({in_words(d['why'])})",
    "RevealPending": lambda d, ev:
        f"{printed(d['ship'])} will be revealed at the end of the intercept ({in_words(d['why'])})",
    "ShipDisguised": lambda d, ev: f"{printed(d['ship'])} is disguised again ({in_words(d['why'])})",
    "ShipCaptured": lambda d, ev:
        f"seat {d['by']} captures {printed(d['ship'])} of seat {d['from_seat']} "
        f"with {printed(d['interceptor'])}: a prize",
    "ShipTransferred": _said_ship_transferred,
    "ShipRemoved": lambda d, ev: f"{printed(d['ship'])} leaves the game ({in_words(d['why'])})",
    "RefugeEntered": lambda d, ev:
        f"seat {d['seat']}: {printed(d['ship'])} enters an island refuge ({printed(d['card'])})",
    "RefugeLeft": lambda d, ev: f"seat {d['seat']}: {printed(d['ship'])} leaves its island refuge",
    "RefugeAttempted": lambda d, ev: f"{printed(d['ship'])} tries to {d['what']} in its island refuge",

    # the phantom player (section 5)
    "SolitaireCardTurned": lambda d, ev: f"the phantom turns {printed(d['card'])} ({in_words(d['why'])})",
    "SolitaireDeckReshuffled": lambda d, ev: f"the solitaire deck is shuffled ({in_words(d['why'])})",
    "PhantomTurnBegun": lambda d, ev: f"the phantom's turn: {_PHANTOM_MODE.get(d['mode'], d['mode'])}",
    "PhantomTurnShortened": lambda d, ev: in_words(d["why"]),
    "PhantomActionChosen": _said_phantom_action_chosen,
    "PhantomSpecialTurned": _said_phantom_special_turned,
    "PhantomAssists": _said_phantom_assists,
    "PhantomDefence": _said_phantom_defence,
    "PhantomReacted": lambda d, ev:
        f"the phantom reacts with its {printed(d['ctype'])}"
        + (f" for {printed(d['target'])}" if d.get("target") else ""),
    "PhantomCardsTaken": lambda d, ev:
        f"seat {d['seat']} takes {printed(d['cards'])} from the phantom's hand (Recon Aircraft, 5.3.2)",

    # the team game (section 4)
    "ExchangeStarted": lambda d, ev: f"Exchange Information: seat {d['seat']} and seat {d['partner']} exchange cards",
    "GiftChosen": lambda d, ev: f"seat {d['seat']} chooses {printed(d['card'])} to give",
    "CardsExchanged": lambda d, ev:
        "Exchange Information: " + "; ".join(f"seat {s} gives {printed(c)}" for s, c in d["gives"].items()),
    "CardsExchangedCount": lambda d, ev:
        "Exchange Information: " + ", ".join(f"seat {s} gives {c} card{'s' if c != 1 else ''}"
                                             for s, c in d["counts"].items()),
    "ShipClaimed": _said_ship_claimed,
    "ClaimsCleared": lambda d, ev: "every claim is settled",

    # rounds and the game
    "GameStarted": lambda d, ev: f"the game begins: an action deck of {d['deck']} cards",
    "PositionLaid": _said_position_laid,
    "FirstPlayerChosen": lambda d, ev: f"round {d['round']}: seat {d['seat']} plays first",
    "RoundStarted": lambda d, ev: f"round {d['round']} begins",
    "RoundEnded": lambda d, ev: f"round {d['round']} ends",
    "RoundScored": lambda d, ev:
        f"round {d['round']} scored: victory points {by_seat(d['vp'])}; round points {by_seat(d['points'])}",
    "ShipKept": _said_ship_kept,
    "RoundCleared": lambda d, ev: f"round {d['round']}: the action cards are gathered and shuffled for the next round",
    "ExtraRoundCalled": lambda d, ev:
        f"an extra round: seats {' and '.join(map(str, d['tied']))} are tied" if d.get("tied") else "an extra round",
    "GameOver": _said_game_over,
}


def describe(ev: Ev) -> str:
    """One line of the log, in the book's words: ships and cards by their printed names
    (``_SAID``, by the event's type; an event it does not know, by its type and data)."""
    said = _SAID.get(ev.type)
    if said is not None:
        return said(ev.data, ev)
    return f"{ev.type} " + json.dumps(ev.data, separators=(", ", ": "), ensure_ascii=False)


def _option(v: object) -> str:
    """A chance's option (an id, a number, or a decision the phantom may make) in words."""
    if isinstance(v, dict):
        return ", ".join(printed(x) for k, x in v.items() if k != "action" and x is not None) or "nothing"
    return printed(v)


def say_event(config: dict[str, Any] | None, ev: Ev) -> str | None:
    """A draw, a roll or a random choice in the game's words (``views.describe`` asks first)."""
    d = ev.data
    t = ev.type
    why = in_words(d.get("why") or "")
    if t == "CardDrawn":
        return f"{why}: {printed(d['card'])}" if why else f"drawn: {printed(d['card'])}"
    if t == "DiceRolled":
        values = ", ".join(map(str, d["values"]))
        return f"{why}: rolls {values}" if why else f"rolled {values} on {d['n']}d{d['sides']}"
    if t == "ChanceChosen":
        return f"{why or 'chosen at random'}: {_option(d['value'])} (among {_listed([_option(o) for o in d['options']])})"
    if t == "DeckShuffled":
        if d.get("face_down"):
            return f"{len(d['order'])} cards laid face down, unseen ({why})"
        return f"a deck is shuffled ({why})"
    if t == "CardIdentified":
        return f"a card turned over: {printed(d['card'])} ({why})"
    return None
