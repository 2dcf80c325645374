"""Rounds and turns: the deal (2.1), who starts (3.1), the end of a turn
(3.1.5 discards, the draw, 3.1.6 merchants back to three), the end of a round
(2.3 round points, 2.4 between rounds) and victory (2.5); the team game's
turns and scores (section 4) through ``team.py``."""

from __future__ import annotations

import itertools

from . import optional, team
from .actions import has_effect, play_options, refuge_options
from .board import ix, vp_of
from .combat import announce_options
from .deal import deck_left, draw_action, draw_merchant, draw_ship, replenish
from .state import player, real_card

TYPE_CHECKING = False  # mypy takes the name as true; typing is not imported at run time
if TYPE_CHECKING:
    from typing import Any

    from service.kernel.events import Ev
    from service.kernel.machine import Step

    from .shapes import State, VpEntry


def roll_off(step: Step, seats: list[int], why: str) -> int:
    """Each seat rolls a d10; ties for the highest roll again."""
    while len(seats) > 1:
        rolls = {s: step.roll(10, 1, why=f"seat {s} rolls for {why}")[0] for s in seats}
        best = max(rolls.values())
        seats = [s for s in seats if rolls[s] == best]
    return seats[0]


def start_round(step: Step, rnd: int) -> None:
    state = step.state
    i = ix(state)
    n = state["seats"]
    step.emit("RoundStarted", {"round": rnd})
    if state.get("solo") is not None:
        step.emit("SolitaireDeckReshuffled", {"why": "a new round (5.2.5)"})
    set_aside(step)
    for s in range(1, n + 1):
        while len(player(state, s)["ships"]) < i.force["ships"]:
            if not draw_ship(step, s):
                break
        while len(player(state, s)["merchants"]) < i.force["merchants"]:
            if not draw_merchant(step, s):
                break
    for s in range(1, n + 1):
        p = player(state, s)
        hand = i.hand_size - p.get("kept_n", 1 if p["kept"] else 0)     # 2.4.5, 6.7.1-6.7.2
        for _ in range(hand):
            draw_action(step, s)
    if rnd == 1 and state["options"].get("first_player") == "fewest-ship-vp":
        vps = {s: sum(i.ships[x]["vp"] for x in player(state, s)["ships"]) for s in range(1, n + 1)}
        low = min(vps.values())
        tied = [s for s in vps if vps[s] == low]
        first = tied[0] if len(tied) == 1 else roll_off(step, tied, "the first turn (tied on ship VP)")
    elif rnd == 1:
        first = roll_off(step, list(range(1, n + 1)), "the first turn")
    else:
        totals = {s: sum(player(state, s)["round_points"]) for s in range(1, n + 1)}
        low = min(totals.values())
        tied = [s for s in totals if totals[s] == low]
        first = tied[0] if len(tied) == 1 else roll_off(step, tied, "the first turn (tied on round points)")
    step.emit("FirstPlayerChosen", {"seat": first, "round": rnd})
    begin_turn(step, first)


def set_aside(step: Step) -> None:
    """2.1.4: the round's action cards set aside secretly (5.2.5 in solitaire)."""
    state = step.state
    i = ix(state)
    solo = state.get("solo") is not None
    k = state["options"].get("removed", i.solo["removed_at_random"]["value"] if solo  # type: ignore[index]
                             else i.removed[state["seats"]])
    if state.get("unseen"):  # at a table: set aside face down, unseen; nobody is asked to name them
        step.shuffle("action:set-aside", state["pool"][:k], vis="referee", face_down=True,
                     why=f"{k} action cards set aside face down")
    else:
        for _ in range(k):
            step.draw("action:set-aside", state["pool"], vis="referee", why="an action card set aside secretly")
    step.emit("ActionCardsSetAside", {"count": k, "deck": deck_left(state)})


def begin_turn(step: Step, seat: int, extra: bool = False) -> None:
    state = step.state
    if not extra and (state.get("options") or {}).get("team"):
        if team.skip_turn(step, seat):          # 3.3.4 Bounding Main
            return begin_turn(step, seat % state["seats"] + 1)
    step.emit("TurnStarted", {"seat": seat, "round": state["round"], "extra": extra}, turn=state["turn"] + 1)
    p = state["players"][seat - 1]
    pend = p["pending"]
    if pend and pend["type"] == "fog-bank":
        # 3.3.14: no action card played, none drawn; the Fog Bank is simply discarded.
        # Moves that are not card plays (a refuge's repair/resupply, leaving it) remain.
        step.emit("PendingCardCleared", {"seat": seat, "card": pend["card"], "ctype": "fog-bank"})
        step.emit("TurnInFog", {"seat": seat})
        if not refuge_options(state, seat):
            end_turn(step, seat)
        return
    if pend and pend["type"] == "deception" and not (state.get("solo") and seat == 2):  # the phantom: 5.4.3 step 9
        if p["hand"]:
            card = step.draw(f"hand-of-{seat}", sorted(p["hand"]), vis=[seat],
                             why=f"Deception: the one card seat {seat} must play, at random from the hand")
            step.emit("DeceptionForcedCard", {"seat": seat, "card": card, "name": ix(state).card_name[card]})
            plays = [d for d in play_options(state, seat, card) if has_effect(state, seat, d)]
            if not plays and not [d for d in announce_options(state, seat) if d["card"] == card]:
                # 3.3.10: not legal or no effect: ignored; discarded with the Deception card
                step.emit("ForcedCardIgnored", {"seat": seat, "card": card, "why": "its action is not legal or has no effect"})
        else:
            step.emit("CommittingDone", {"seat": seat, "cards": 0})


def commit(step: Step, seat: int, d: dict[str, Any]) -> None:
    """3.2.1: one card face down, on a ship or before the force (``board.commit_options``)."""
    state = step.state
    ship = d.get("ship")
    step.emit("CardCommitted", {"seat": seat, "card": d["card"], "use": d["use"], "ship": ship,
              "name": ix(state).card_name[d["card"]]}, vis=[seat])
    # face down, but placed and turned so that its use is plain (3.2.1)
    step.emit("CardCommittedFaceDown", {"seat": seat, "use": d["use"], "ship": ship, "count": len(state["tt"]["committed"])})


def done_committing(step: Step, seat: int, d: dict[str, Any] | None = None) -> None:
    """3.2: the cards are committed; the resolve phase (3.2.8) begins (``d``: the decision)."""
    step.emit("CommittingDone", {"seat": seat, "cards": len(step.state["tt"]["committed"])})


def end_turn(step: Step, seat: int, d: dict[str, Any] | None = None) -> None:
    """3.1.5: the active player discards every committed card (played or not) face
    up in the order it chooses, then each defender its reactions; then the draw.
    (``d``: the decision, when the player ends its turn: ``rules.TURN_DECIDE``.)"""
    state = step.state
    pend = state["players"][seat - 1]["pending"]
    if pend and pend["type"] == "deception":
        # 3.3.10: the Deception card is discarded with the card it forced
        step.emit("PendingCardCleared", {"seat": seat, "card": pend["card"], "ctype": "deception", "into_turn": True})
    step.emit("DiscardingStarted", {"seat": seat})
    continue_discards(step)


def discards_of(state: State, seat: int) -> list[str]:
    tt = state["tt"]
    if seat == state["current"]:
        committed = tt["committed"]
        # (no comprehension's call when every committed card has been played)
        out = [c["card"] for c in committed] if committed else []
        out += tt["played"]         # (extended in place: no second copy of the played cards)
        return out
    return [c for c in tt["reactions"] if tt["reacted_by"].get(c) == seat]


def _discard_order(state: State) -> list[int]:
    cur = state["current"]
    n = state["seats"]
    return [cur] + [(cur + k - 1) % n + 1 for k in range(1, n)]  # type: ignore[return-value, operator]  # (in a turn)


def continue_discards(step: Step) -> None:
    """Each seat in turn: two or more cards wait for its order; one is put down at once."""
    state = step.state
    # no reaction card played this turn: only the active player has cards to discard
    order = _discard_order(state) if state["tt"]["reactions"] else (state["current"],)
    for s in order:
        cards = discards_of(state, s)
        if len(cards) >= 2 and not state.get("solo"):   # solitaire: face down, unordered (5.3.1)
            step.emit("WindowOpened", {"kind": "discard", "seat": s})
            return
        if cards:
            step.emit("CardsDiscarded", {"seat": s, "cards": cards})
    _after_discards(step, state["current"])


def discard_options(state: State, seat: int) -> list[dict[str, Any]]:
    return [{"action": "discard", "card": c} for c in sorted(discards_of(state, seat))]


def discard(step: Step, seat: int, d: dict[str, Any]) -> None:
    state = step.state
    step.emit("CardsDiscarded", {"seat": seat, "cards": [d["card"]]})
    left = discards_of(state, seat)
    if len(left) >= 2:
        return                         # the window stays open for the next card
    step.emit("WindowClosed", {"seat": seat, "kind": "discard"})
    continue_discards(step)


def _after_discards(step: Step, seat: int) -> None:
    state = step.state
    tt = state["tt"]
    fog = tt["fogged"]
    second = tt["second_chance"] and not state["extra_turn"]
    drew = False if fog else draw_action(step, seat)
    step.emit("TurnEnded", {"seat": seat, "drew": drew})
    if deck_left(state) == 0:
        end_round(step)
        return
    replenish(step)
    if second:
        begin_turn(step, seat, extra=True)
    else:
        begin_turn(step, seat % state["seats"] + 1)


# the end of a round ---------------------------------------------------------
def round_vp(state: State, seat: int) -> list[VpEntry]:
    p = player(state, seat)
    entries = p["vp"] + [{"card": s, "deck": "merchant", "double": True} for s in p["prizes"]]
    return entries


def round_points(vps: dict[str, int]) -> dict[str, int]:
    """2.3.3: rank points; ties take the higher; zero VP scores zero."""
    n = len(vps)
    out = {}
    for s, v in vps.items():
        if v == 0:
            out[s] = 0
        else:
            out[s] = n - sum(1 for w in vps.values() if w > v)
    return out


def end_round(step: Step) -> None:
    state = step.state
    rnd = state["round"]
    step.emit("RoundEnded", {"round": rnd})
    vps = {}
    for s in range(1, state["seats"] + 1):
        entries = round_vp(state, s)
        ships = [e for e in entries if e["deck"] == "ship"]
        merchants = [e for e in entries if e["deck"] == "merchant"]
        dropped = []
        pool = sorted(e["card"] for e in ships)
        # 2.3.1: no more warship and raider cards scored than merchant cards
        while len(pool) > len(merchants):
            c = step.pick(pool, why=f"seat {s}: a warship or raider over the limit, discarded at random")
            pool.remove(c)
            dropped.append(c)
        if dropped:
            step.emit("VictoryCardsDiscarded", {"seat": s, "cards": dropped, "why": "warship and raider limit (2.3.1)"})
        vps[str(s)] = sum(vp_of(state, e) for e in entries if e["card"] not in dropped)
    pts = round_points(vps)
    step.emit("RoundScored", {"round": rnd, "vp": vps, "points": pts})
    cards = ix(state).action_cards
    unused = state.get("unused")                            # solitaire: the cards 5.2 leaves out
    if unused:
        unused = set(unused)
        cards = [c for c in cards if c not in unused]
    else:
        cards = list(cards)                                 # every card (a copy: one C call, not a loop)
    step.emit("RoundCleared", {"round": rnd, "action_cards": cards})
    if rnd >= 3:
        res = result(state)
        if res is not None:
            step.emit("GameOver", {**res})
            return
        step.emit("ExtraRoundCalled", {"tied": still_tied(state)})
    _open_keep(step)


def _open_keep(step: Step) -> None:
    state = step.state
    if (state.get("options") or {}).get("team"):
        if not team.open_keep(step):               # 4.9: partners pool their ships
            start_round(step, state["round"] + 1)
        return
    queue = [s for s in range(1, state["seats"] + 1) if player(state, s)["ships"]]
    if queue:
        step.emit("WindowOpened", {"kind": "keep", "seat": queue[0], "queue": queue[1:]})
    else:
        start_round(step, state["round"] + 1)


def keep_options(state: State, seat: int) -> list[dict[str, Any]]:
    ships = player(state, seat)["ships"]
    if optional.on(state, "keep_three"):          # 6.7: any set of up to three
        most = ix(state).optional_rules["keep_most"]["value"]
        return [{"action": "keep", "ships": list(c)} for n in range(min(most, len(ships)), -1, -1)
                for c in itertools.combinations(sorted(ships), n)]
    return [{"action": "keep", "ship": s} for s in ships] + [{"action": "keep", "ship": None}]


def keep(step: Step, seat: int, d: dict[str, Any]) -> None:
    state = step.state
    queue = list(state["window"]["queue"])
    step.emit("WindowClosed", {"seat": seat, "kind": "keep"})
    if "ships" in d:
        step.emit("ShipKept", {"seat": seat, "ship": d["ships"][0] if d["ships"] else None, "ships": list(d["ships"])})
    else:
        step.emit("ShipKept", {"seat": seat, "ship": d["ship"]})
    if queue:
        step.emit("WindowOpened", {"kind": "keep", "seat": queue[0], "queue": queue[1:]})
    else:
        start_round(step, state["round"] + 1)


def team_keep(step: Step, seat: int, d: dict[str, Any]) -> None:
    """4.9: a partner's claim on the pooled ships; the next round once all have claimed."""
    if team.claim(step, seat, d):
        start_round(step, step.state["round"] + 1)


def totals(state: State) -> tuple[dict[str, int], dict[str, int]]:
    rp = {str(s): sum(player(state, s)["round_points"]) for s in range(1, state["seats"] + 1)}
    vp = {str(s): sum(player(state, s)["round_vp"]) for s in range(1, state["seats"] + 1)}
    return rp, vp


def still_tied(state: State) -> list[int]:
    """The players still in contention: most round points, then most victory
    points; after an extra round only those tied before it (2.5)."""
    if (state.get("options") or {}).get("team"):
        return team.still_tied(state)
    rp, vp = totals(state)
    pool = [str(s) for s in state.get("tied") or range(1, state["seats"] + 1)]
    best = max(rp[s] for s in pool)
    tied = [s for s in pool if rp[s] == best]
    bv = max(vp[s] for s in tied)
    return [int(s) for s in tied if vp[s] == bv]


def result(state: State) -> dict[str, Any] | None:
    """2.5: most round points over the three rounds; then most victory points; if
    still tied, another round is played, as often as needed (the book sets no limit),
    and decides among the tied players only."""
    if (state.get("options") or {}).get("team"):
        return team.result(state)
    tied = still_tied(state)
    if len(tied) > 1:
        return None
    rp3 = {str(s): sum(player(state, s)["round_points"][:3]) for s in range(1, state["seats"] + 1)}
    vp3 = {str(s): sum(player(state, s)["round_vp"][:3]) for s in range(1, state["seats"] + 1)}
    out: dict[str, Any] = {"scores": rp3, "winners": tied, "victory_points": vp3}
    if state.get("extra_rounds"):
        out["extra_rounds"] = {str(s): {"round_points": player(state, s)["round_points"][3:],
                                        "victory_points": player(state, s)["round_vp"][3:]}
                               for s in range(1, state["seats"] + 1)}
    return out


# how each event decided here changes the state (``evolve``) -----------------------------------
def _round_started(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["round"] = d["round"]
    state["removed_this_round"] = []
    state["phase"] = "dealing"
    state["eng"] = None  # type: ignore[typeddict-item]  # between attacks (shapes.State)
    state["window"] = None
    state["tt"] = None  # type: ignore[typeddict-item]  # between turns (shapes.State)


def _turn_started(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["turn"] = ev.turn
    state["current"] = d["seat"]
    state["phase"] = "commit"
    me = state["players"][d["seat"] - 1]
    own_prev = me.get("last_turn", -9)
    me["last_turn"] = ev.turn
    state["extra_turn"] = d.get("extra", False)
    # 3.3.32: a committed Reflag hides a ship "quando inizia il suo turno svelata" (a loop, not a
    # comprehension: no function call, and no empty dict made for a ship without a status; a
    # status is always made with its "revealed" key: read by subscript, not by a method call)
    status = state["status"]
    shown = []
    for x in me["ships"] + me["prizes"]:
        st = status.get(x)
        if st and st["revealed"]:
            shown.append(x)
    state["tt"] = {"attack_on": None, "others": [], "used": [], "intercepted": [], "committed": [],
                   "played": [], "reactions": [], "extra": [], "second_chance": False,
                   "left_refuge": [], "refuge_tried": [], "wireless": False, "deceived": False,
                   "reveal_after": [], "ignored": [], "no_passage": [], "own_prev": own_prev,
                   "fogged": False, "reacted_by": {}, "revealed_at_start": shown}


def _card_committed(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["players"][d["seat"] - 1]["hand"].remove(d["card"])
    tt = state["tt"]
    if d["card"] in tt["extra"]:
        tt["extra"].remove(d["card"])
    tt["committed"].append({"card": d["card"], "use": d["use"], "ship": d.get("ship")})


def _committing_done(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["phase"] = "resolve"


def _deception_forced_card(state: State, d: dict[str, Any], ev: Ev) -> None:
    tt = state["tt"]
    player(state, d["seat"])["hand"].remove(d["card"])
    tt["committed"].append({"card": d["card"], "use": "action", "ship": None})
    tt["deceived"] = True
    state["phase"] = "resolve"


def _cards_discarded(state: State, d: dict[str, Any], ev: Ev) -> None:
    tt = state["tt"]
    played, reactions, committed = tt["played"], tt["reactions"], tt["committed"]
    for c in d["cards"]:
        if c in played:
            played.remove(c)
        if c in reactions:
            reactions.remove(c)
        for e in committed[:]:      # (copied by a slice: no call of list())
            if e["card"] == c:
                committed.remove(e)
        state["discard"].append(c)


def _pending_card_cleared(state: State, d: dict[str, Any], ev: Ev) -> None:
    p = player(state, d["seat"])
    card = p["pending"]["card"]  # type: ignore[index]  # (the card cleared)
    if not real_card(card):
        pass                                                  # the phantom's: nothing to discard (5.4.3 step 6)
    elif d.get("into_turn"):
        state["tt"]["played"].append(card)   # discarded with the turn's cards
    else:
        state["discard"].append(card)
    p["pending"] = None


def _turn_in_fog(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["tt"]["fogged"] = True
    state["phase"] = "resolve"


def _forced_card_ignored(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["tt"]["deceived"] = "ignored"


def _round_scored(state: State, d: dict[str, Any], ev: Ev) -> None:
    for s, vp in d["vp"].items():
        p = player(state, int(s))
        p["round_vp"].append(vp)
        p["round_points"].append(d["points"][s])


def _round_cleared(state: State, d: dict[str, Any], ev: Ev) -> None:
    """2.4: action cards back to the deck; markers off; merchants and VP piles to the decks' bottoms."""
    ix_cards = d["action_cards"]
    state["pool"] = sorted(ix_cards) if state.get("sorted_piles") else list(ix_cards)
    state["top"], state["peek"], state["set_aside"], state["discard"] = [], [], [], []
    state["top_seen"] = {}
    for p in state["players"]:
        p["hand"] = []
        p["pending"] = None
        p["kept"] = None
        p["kept_n"] = 0
        p["skip"] = False           # the team game's Bounding Main does not outlive the round
        for e in p["vp"]:
            if e["deck"] == "ship":
                state["ship_used"].append(e["card"])
            elif e["deck"] == "merchant":
                state["merchant_used"].append(e["card"])
        p["vp"] = []
        state["merchant_used"] += p["merchants"] + p["prizes"]
        p["merchants"], p["prizes"] = [], []
    state["status"] = {s: {"damaged": False, "supply": False, "revealed": False, "refuge": None}
                       for p in state["players"] for s in p["ships"]}
    state["tt"] = None  # type: ignore[typeddict-item]  # between turns (shapes.State)
    state["eng"] = None  # type: ignore[typeddict-item]  # between attacks (shapes.State)
    state["phase"] = "keep"


def _ship_kept(state: State, d: dict[str, Any], ev: Ev) -> None:
    p = player(state, d["seat"])
    keep = d["ships"] if "ships" in d else [d["ship"]]        # 6.7: up to three
    drop = [s for s in p["ships"] if s not in keep]
    for s in drop:
        p["ships"].remove(s)
        state["status"].pop(s, None)
        state["ship_used"].append(s)
    p["kept"] = d["ship"]
    p["kept_n"] = len(d["ships"]) if "ships" in d else (1 if d["ship"] else 0)


def _game_over(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["phase"] = "over"
    state["result"] = {"scores": d["scores"], "winners": d["winners"]}


def _extra_round_called(state: State, d: dict[str, Any], ev: Ev) -> None:
    state["extra_rounds"] = state.get("extra_rounds", 0) + 1
    state["tied"] = list(d["tied"])


HANDLERS = {
    "RoundStarted": _round_started,
    "TurnStarted": _turn_started,
    "CardCommitted": _card_committed,
    "CommittingDone": _committing_done,
    "DeceptionForcedCard": _deception_forced_card,
    "TurnInFog": _turn_in_fog,
    "ForcedCardIgnored": _forced_card_ignored,
    "PendingCardCleared": _pending_card_cleared,
    "CardsDiscarded": _cards_discarded,
    "RoundScored": _round_scored,
    "RoundCleared": _round_cleared,
    "ShipKept": _ship_kept,
    "ExtraRoundCalled": _extra_round_called,
    "GameOver": _game_over,
}
