"""The turn sequence: rounds, event cards, each player's turn, glory, victory,
retiring and the new-captain (death) procedure. Everything here emits events
through a ``Step``; nothing here validates a decision."""

from __future__ import annotations

from .abilities import dice as skill_dice, may_hire
from .catalog import tables as T

from .npc import end_of_turn, end_of_turn_returns, on_event, spotted
from .state import funds, player, stash_glory, stash_terms

EVENT_NOTE = ("provisional no-op: event card texts are not known and NPCs, combat and "
              "wanted flags come in a later part; the card is discarded")


# chance helpers ---------------------------------------------------------------

def skill_test(step, seat, skill, why):
    S = T(step.state)
    p = player(step.state, seat)
    n = skill_dice(step.state, p, skill)
    dice = step.roll(S["die_sides"], n, vis="all", why=f"seat {seat}: {skill} test ({why})",
                     faces={"skull": S["die_sides"]})
    least = S["success_from"]
    hits = 0
    for v in dice:                          # (a loop: no generator for a handful of dice)
        if v >= least:
            hits += 1
    step.emit("SkillTested", seat=seat, skill=skill, dice=dice, successes=hits, passed=hits > 0, why=why)
    return hits


def draw_cargo(step, seat, why, reshuffle=True):
    """One cargo card to ``seat`` (face down); reshuffles the discards into
    the deck when it runs out (once, if ``reshuffle``). None if none left."""
    decks = step.state["decks"]
    if not decks["cargo"]:
        if not reshuffle or not decks["cargo_discard"]:
            return None
        step.emit("CargoDeckReshuffled", cards=len(decks["cargo_discard"]))
    return step.draw("cargo", decks["cargo"], vis=[seat], why=why)


def deal_glory(step, seat, why):
    decks = step.state["decks"]
    if not decks["glory"] and decks["glory_discard"]:
        step.emit("GloryDeckReshuffled", cards=len(decks["glory_discard"]))
    if not decks["glory"]:
        step.emit("GloryDeckEmpty", seat=seat)
        return None
    card = step.draw("glory", decks["glory"], vis=[seat], why=f"glory card for seat {seat} ({why})")
    step.emit("GloryCardDealt", vis=[seat], seat=seat, card=card)
    return card


def gain_glory(step, seat, why):
    p = player(step.state, seat)
    step.emit("GloryGained", seat=seat, why=why, glory=p["glory"] + 1)
    deal_glory(step, seat, why)


def bank_pays(state, amount):
    """The bank holds the game's coins; it cannot pay more than it has."""
    return max(0, min(amount, state["bank"]))


def check_victory(step):
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
            step.emit("VictoryDeclared", seat=p["seat"], glory_track=p["glory"], stash=p["stash"],
                      stash_glory=from_stash, total=p["glory"] + from_stash)


def glory_plays(state, p, S=None):
    """``S``: the state's tables (``T(state)``), when the caller has read them."""
    if not p["hand"]:
        return []
    glory = (S or T(state))["glory"]
    out = []
    have = money = None                     # read at the first specialist card
    for c in sorted(p["hand"]):
        g = glory[c]
        if g["timing"] != "own_turn":
            continue
        if g["kind"] == "specialist":
            if have is None:
                have = {glory[s]["specialist"] for s in p["specialists"]}
                money = funds(state, p)
            if g["specialist"] in have or g["hire_cost"] > money or not may_hire(state, p, g):
                continue
        out.append({"action": "play_glory", "card": c})
    return out


# the sequence -----------------------------------------------------------------

def start_round(step):
    state = step.state
    decks = state["decks"]
    if not decks["events"]:
        step.emit("GameEnded", reason="events", note="no event card left at the start of a turn")
        return
    turn = state["turn"] + 1
    step.emit("TurnStarted", turn=turn)
    board = state["board"]
    S = T(state)                            # (read once: the rules, then the event card)
    if len(board["merchant_track"]) >= S["rules"]["merchant_track_redistribute"]:
        redistribute_merchants(step)
    card = step.draw("events", decks["events"], vis="all", why=f"event card of turn {turn}")
    info = S["events"][card]
    effect = info.get("effect", "none")
    if effect == "none":
        step.emit("EventCardDrawn", card=card, name=info["name"], kind=info["kind"],
                  npc_icons=info["npc_icons"], effect="none", note=EVENT_NOTE)
    else:                   # the card's text in the effect vocabulary (effects.py)
        step.emit("EventCardDrawn", card=card, name=info["name"], kind=info["kind"],
                  npc_icons=info["npc_icons"], effect=effect["timing"])
    # NPC icons before the text (the catalog of a game recorded before NPCs has no NPC cards)
    if info["npc_icons"] or info.get("npc"):
        on_event(step, card)
    if effect != "none" and effect["timing"] == "immediate":
        from .effects import run
        run(step, effect["steps"], state["order"][0], card)
        if state["phase"] != "play":
            return
    start_player_turn(step, state["order"][0])


def _event_effect(state, timing):
    card = state.get("event_in_play")
    if card is None:
        return None
    effect = T(state)["events"][card].get("effect", "none")
    return effect["steps"] if effect != "none" and effect["timing"] == timing else None


def redistribute_merchants(step):
    """Part 2 fills the merchant track; at 8 tokens they go back face down to
    every zone without one (the book, Raiding merchants)."""
    state = step.state
    board = state["board"]
    free = [z for z in T(state)["zone_order"] if board["merchants"][z] is None]
    pool = list(board["merchant_track"])
    tokens = {}
    if len(free) > 1 and len(pool) > 1:
        order = step.shuffle("merchant_track", pool, vis="referee", why="merchant tokens redistributed")
    else:
        order = pool
    for z, tok in zip(free, order):
        tokens[z] = tok
    step.emit("MerchantTokensRedistributed", vis="referee", tokens=tokens)
    step.emit("MerchantTokensFaceDown", zones=sorted(tokens))


def start_player_turn(step, seat):
    step.emit("PlayerTurnStarted", seat=seat)
    steps = _event_effect(step.state, "each_turn")
    if steps and player(step.state, seat)["captain"] is not None:
        from .effects import run
        run(step, steps, seat, step.state["event_in_play"])
    if step.state["phase"] == "play" and glory.open_window(step, "turn_start"):
        return                              # glory cards of other players' turns first
    turn_goes_on(step, seat)


def turn_goes_on(step, seat):
    """The start of a player's turn, after the glory cards played then."""
    p = step.state["players"][seat - 1]
    if p["needs_captain"] and p["captain"] is not None:
        # a retired captain leaves now; a captain killed in another seat's
        # turn (part 2) will already have left, and only the new one is drawn
        retire_captain(step, seat, "retired")
    if step.state["board"]["npcs"] and p["captain"] is not None:
        spotted(step, seat, "begins the turn in its zone")
        if step.state.get("combat") is not None or step.state["phase"] != "play":
            return
        if step.state["order"][step.state["cur"]] != seat:
            return                          # beaten by the NPC: the turn has passed on
    resume(step, seat)


def captain_dies(step, seat, why):
    """The captain dies: the death procedure (retire_captain); a new one comes at the
    player's next turn."""
    step.emit("CaptainDied", seat=seat, why=why)
    retire_captain(step, seat, "died")


def retire_captain(step, seat, reason):
    """The death procedure (also used for a retired captain): discard the
    captain, cards, ship and what is aboard, wanted flags; keep glory points
    and the stash. Upgrade tiles go back to ports of the player's choice."""
    p = player(step.state, seat)
    step.emit("CaptainLeft", seat=seat, captain=p["captain"], reason=reason,
              ship=p["ship"]["type"] if p["ship"] else None, cargo=list(p["cargo"]),
              weapons=sorted(p["weapons"]), upgrades=list(p["ship"]["upgrades"]) if p["ship"] else [],
              specialists=list(p["specialists"]))
    step.emit("HoldingsLost", vis=[seat], seat=seat, gold=p["gold"], glory_cards=list(p["hand"]))


def resume(step, seat):
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
    limit = T(state)["rules"]["glory_hand_limit"]
    if p["returning"] or p["pending"] or len(p["hand"]) > limit:
        return
    if new_captain:
        decks = state["decks"]
        if not decks["captains"]:
            step.emit("GameEnded", reason="captains", note="a new captain is needed and no captain card is left")
            return
        card = step.draw("captains", decks["captains"], vis=[seat], why=f"new captain for seat {seat}")
        step.emit("CaptainDealt", vis=[seat], seat=seat, captain=card)
        step.emit("NewCaptainDrawn", seat=seat)
        return
    end_player_turn(step, seat)


def end_player_turn(step, seat):
    state = step.state
    step.emit("PlayerTurnEnded", seat=seat)
    if state["cur"] >= len(state["order"]) - 1:
        end_round(step)
    else:
        start_player_turn(step, state["order"][state["cur"] + 1])


def end_round(step):
    state = step.state
    steps = _event_effect(state, "end_of_turn")
    if steps:
        from .effects import run
        run(step, steps, state["order"][0], state["event_in_play"])
    if state.get("npc_arriving") or state.get("npc_returning") or state.get("mow_arriving"):
        end_of_turn_returns(step)
        end_of_turn(step)
    step.emit("TurnEnded")
    if state["declared"]:
        step.emit("GameEnded", reason="glory", note="a player declared the glory target; the turn is finished")
        return
    start_round(step)


def reveal_new_captain(step, seat, ship):
    """After the (secret) ship choice of a new captain: reveal, place the ship
    at the home port, one glory card, gold aboard up to the starting amount
    (a stash under it is taken aboard; how much is private)."""
    state = step.state
    p = player(state, seat)
    step.emit("CaptainsRevealed", seats={str(seat): {"captain": p["captain"], "ship": ship}})
    deal_glory(step, seat, "new captain")
    start = T(state)["rules"]["start_gold"]
    stash = p["stash"]
    if stash < start:
        # the book (PT, explicit; the IT agrees): with less than 10 stashed you
        # take the stash aboard and the bank adds the rest up to 10; with 10 or
        # more stashed you receive nothing and the stash stays where it is
        if stash:
            step.emit("StashChanged", vis=[seat], seat=seat, amount=-stash,
                      why="new captain: the stash (under the starting amount) is taken aboard")
        amount = bank_pays(state, start - stash)
        step.emit("GoldReceived", vis=[seat], seat=seat, amount=amount,
                  why="new captain: the bank tops the stash taken aboard up to the starting amount")
    step.emit("StartingGoldTopped", seat=seat)


def spendable(state, seat):
    return funds(state, player(state, seat))


# imported at the end, once (an import in a function costs as much as a step's dozen calls):
# glory imports effects, which imports this module
from . import glory  # noqa: E402
