"""The turn's flow (the book: "Sequenza del turno", p. 7; "Vincere il gioco" and "Tempo
limite", p. 3): rounds and their event cards, each player's turn from its start
(event effects of each turn, glory cards played then, a retired captain leaving, NPCs
that find the player) to its end, the end of a round (effects, NPCs arriving), victory
declared and the game's end. A phase hands back what comes next (``END_TURN``,
``CARRY_ON``, an NPC that found the player); ``carry_on`` does it. Everything here
emits events through a ``Step``; nothing here validates a decision.
"""

from __future__ import annotations

from . import combat, glory
from .captains import draw_new_captain, retire_captain
from .catalog import tables
from .effects import run
from .npc import end_of_turn, end_of_turn_returns, on_event, spotted
from .state import CARRY_ON, END_TURN, player, stash_glory, stash_terms

TYPE_CHECKING = False   # (the imports below are the type checker's: none at run time)
if TYPE_CHECKING:
    from service.kernel.events import Ev
    from service.kernel.machine import Step
    from typing import Any
    from .shapes import Outcome, State

def carry_on(step: Step, outcome: Outcome) -> None:
    """Do what a phase handed back: an NPC that found the current player, ``(npc, seat)``,
    fights him (and the fight's end is handed back in turn); ``END_TURN``: the current
    player's turn ends; ``CARRY_ON``: it goes on (``resume``); None: nothing."""
    while type(outcome) is tuple:
        npc, seat = outcome
        outcome = combat.begin(step, "npc:" + npc, seat)
    if outcome is None:
        return
    state = step.state
    cur = state["order"][state["cur"]]
    if outcome == END_TURN:
        end_player_turn(step, cur)
    elif outcome == CARRY_ON:
        resume(step, cur)


# the note of an event card without an effect in games of rules versions before 5 (their
# events carry it; the card's NPC icons are played all the same)
EVENT_NOTE = ("provisional no-op: event card texts are not known and NPCs, combat and "
              "wanted flags come in a later part; the card is discarded")


def check_victory(step: Step) -> None:
    """A player whose glory (the track and the stash) reaches the target declares it (the
    book: the game ends when the turn is over, "Vincere il gioco", p. 3)."""
    state = step.state
    if state["phase"] != "play":
        return
    terms = stash_terms(state)              # read once for every player
    target = state["target"]
    short = target - terms[1]               # below this not even the most the stash may give reaches it
    for p in state["players"]:
        if p["glory"] < short or p["seat"] in state["declared"] or p["captain"] is None:
            continue
        from_stash = stash_glory(state, p, terms)
        if p["glory"] + from_stash >= target:
            step.emit("VictoryDeclared", {"seat": p["seat"], "glory_track": p["glory"], "stash": p["stash"],
                      "stash_glory": from_stash, "total": p["glory"] + from_stash})


def start_round(step: Step) -> None:
    """The book: "Pescare una carta Evento", p. 7."""
    state = step.state
    decks = state["decks"]
    if not decks["events"]:
        step.emit("GameEnded", {"reason": "events", "note": "no event card left at the start of a turn"})
        return
    turn = state["turn"] + 1
    step.emit("TurnStarted", {}, turn=turn)
    board = state["board"]
    S = tables(state)                            # (read once: the rules, then the event card)
    if len(board["merchant_track"]) >= S["rules"]["merchant_track_redistribute"]:
        redistribute_merchants(step)
    card = step.draw("events", decks["events"], vis="all", why=f"event card of turn {turn}")
    info = S["events"][card]
    effect = info.get("effect", "none")
    if effect == "none":
        if state.get("table_seen"):         # (rules version 5: no note; earlier versions' events carry EVENT_NOTE)
            step.emit("EventCardDrawn", {"card": card, "name": info["name"], "kind": info["kind"],
                      "npc_icons": info["npc_icons"], "effect": "none"})
        else:
            step.emit("EventCardDrawn", {"card": card, "name": info["name"], "kind": info["kind"],
                      "npc_icons": info["npc_icons"], "effect": "none", "note": EVENT_NOTE})
    else:                   # the card's text in the effect vocabulary (effects.py)
        step.emit("EventCardDrawn", {"card": card, "name": info["name"], "kind": info["kind"],
                  "npc_icons": info["npc_icons"], "effect": effect["timing"]})
    # NPC icons before the text (the catalog of a game recorded before NPCs has no NPC cards)
    if info["npc_icons"] or info.get("npc"):
        on_event(step, card)
    if effect != "none" and effect["timing"] == "immediate":
        # (between two turns: a captain the card kills draws his successor at his next turn)
        run(step, effect["steps"], state["order"][0], card)
        if state["phase"] != "play":
            return
    start_player_turn(step, state["order"][0])


def _event_effect(state: State, timing: str) -> list[dict[str, Any]] | None:
    card = state.get("event_in_play")
    if card is None:
        return None
    effect = tables(state)["events"][card].get("effect", "none")
    return effect["steps"] if effect != "none" and effect["timing"] == timing else None


def redistribute_merchants(step: Step) -> None:
    """The merchant tokens of the track (each merchant sighted goes on it: raid.py), once
    it holds ``rules.merchant_track_redistribute`` of them (``start_round`` asks), go back
    face down, shuffled, one to each sea zone without one. The book: "Gettoni mercante", p. 10."""
    state = step.state
    board = state["board"]
    free = [z for z in tables(state)["zone_order"] if board["merchants"][z] is None]
    pool = list(board["merchant_track"])
    tokens = {}
    if len(free) > 1 and len(pool) > 1:
        order = step.shuffle("merchant_track", pool, vis="referee", why="merchant tokens redistributed")
    else:
        order = pool
    for z, tok in zip(free, order):
        tokens[z] = tok
    step.emit("MerchantTokensRedistributed", {"tokens": tokens}, vis="referee")
    step.emit("MerchantTokensFaceDown", {"zones": sorted(tokens)})


def start_player_turn(step: Step, seat: int) -> None:
    step.emit("PlayerTurnStarted", {"seat": seat})
    steps = _event_effect(step.state, "each_turn")
    if steps and player(step.state, seat)["captain"] is not None and \
            run(step, steps, seat, step.state["event_in_play"]) == END_TURN:
        end_player_turn(step, seat)         # the card killed the captain: his turn ends at once
        return
    if step.state["phase"] == "play" and glory.open_window(step, "turn_start"):
        return                              # glory cards of other players' turns first
    turn_goes_on(step, seat)


def turn_goes_on(step: Step, seat: int) -> None:
    """The start of a player's turn, after the glory cards played then."""
    p = step.state["players"][seat - 1]
    if p["needs_captain"] and p["captain"] is not None:
        # a retired captain leaves now; a captain killed in another seat's
        # turn will already have left, and only the new one is drawn
        retire_captain(step, seat, "retired")
    if step.state["board"]["npcs"] and p["captain"] is not None:
        carry_on(step, spotted(step, seat, "begins the turn in its zone"))
        if step.state.get("combat") is not None or step.state["phase"] != "play":
            return
        if step.state["order"][step.state["cur"]] != seat:
            return                          # beaten by the NPC: the turn has passed on
    resume(step, seat)


def resume(step: Step, seat: int) -> None:
    """Carry the current seat's turn on after a decision: draw a new captain
    when one is due, end the turn when no action is left."""
    state = step.state
    p = state["players"][seat - 1]
    new_captain = p["needs_captain"] and p["captain"] is None
    # glory cards and the stash stay usable until the player ends the turn (rules version 3,
    # ``fixes``): it never ends by itself, or the moment it ends would tell the table whether
    # the player holds a card it may play (hidden) or gold stashed at home
    if not new_captain and (state.get("fixes") or state["port"] is not None or state["actions"] > 0):
        return                      # (the usual case: nothing to carry on)
    if state["phase"] != "play" or state.get("raid") is not None or state.get("combat") is not None \
            or state.get("turn_window") is not None:
        return                      # a raid, a fight or glory cards finish first (they carry the turn on)
    limit = tables(state)["rules"]["glory_hand_limit"]
    if p["returning"] or p["pending"] or len(p["hand"]) > limit:
        return
    if new_captain:
        draw_new_captain(step, seat)
        return
    end_player_turn(step, seat)


def end_player_turn(step: Step, seat: int) -> None:
    """The book: "Sequenza del turno", p. 7."""
    state = step.state
    step.emit("PlayerTurnEnded", {"seat": seat})
    if state["cur"] >= len(state["order"]) - 1:
        end_round(step)
    else:
        start_player_turn(step, state["order"][state["cur"] + 1])


def end_round(step: Step) -> None:
    state = step.state
    steps = _event_effect(state, "end_of_turn")
    if steps:
        # (the turn is over: a captain the card kills draws his successor at his next turn)
        run(step, steps, state["order"][0], state["event_in_play"])
    if state.get("npc_arriving") or state.get("npc_returning") or state.get("mow_arriving"):
        end_of_turn_returns(step)
        end_of_turn(step)
    step.emit("TurnEnded", {})
    if state["declared"]:
        step.emit("GameEnded", {"reason": "glory", "note": "a player declared the glory target; the turn is finished"})
        return
    start_round(step)


# the events ---------------------------------------------------------------------------

def _turn_started(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["turn"] = ev.turn


def _event_drawn(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["decks"]["event_discard"].append(d["card"])
    # an event whose effect lasts (each turn / the end of the turn) stays in play until the next
    state["event_in_play"] = d["card"] if d.get("effect") in ("each_turn", "end_of_turn") else None


def _player_turn_started(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["cur"] = state["order"].index(d["seat"])
    state["scouted"] = []
    state["actions"] = tables(state)["rules"]["actions"]
    state["acted"] = False
    state["port_used"] = False
    state["port"] = None  # type: ignore[typeddict-item]  # (None: it is over; shapes.py)
    state["withdrew"] = False


def _victory_declared(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["declared"].append(d["seat"])


def _game_ended(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["phase"] = "over"
    state["end_reason"] = d["reason"]


def _merchants_redistributed(state: State, d: dict[str, Any], ev: Ev) -> None:
    for z, tok in d["tokens"].items():
        state["board"]["merchants"][z] = tok
        state["board"]["merchant_track"].remove(tok)


APPLY = {
    "TurnStarted": _turn_started,
    "EventCardDrawn": _event_drawn,
    "PlayerTurnStarted": _player_turn_started,
    "VictoryDeclared": _victory_declared,
    "GameEnded": _game_ended,
    "MerchantTokensRedistributed": _merchants_redistributed,
}
