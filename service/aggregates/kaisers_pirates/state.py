"""The Kaiser's Pirates state and ``evolve``: how each event changes the table.

The state is the referee's (it holds every hand and the set-aside cards);
``view.py`` decides what a seat may see. The card catalog is not copied into
the state: ``state["cat"]`` is the key of the cached ``catalog.Index``.

Where cards are:
* action cards: ``pool`` (the draw pile, unordered: each draw is a random
  card of it), ``top`` (cards an Intelligence put back in a known order, drawn
  first), ``set_aside`` (removed secretly at the round's start), a seat's
  ``hand``, the current turn's ``committed``/``played``/``reactions``,
  ``discard`` (face up, last = top), a seat's ``pending`` (Deception / Fog
  Bank placed on it), a ship's ``refuge`` card, a seat's ``vp`` pile (AMC,
  Q-ship and submarine cards sunk);
* ships and merchants: ``ship_pool``/``merchant_pool`` (draw piles),
  ``ship_used``/``merchant_used`` (the "bottom" of the deck: reshuffled when
  the pool runs out), a seat's ``ships`` (warships and raiders), ``merchants``,
  ``prizes``, or ``vp`` pile.

The draw piles (``pool``, ``ship_pool``, ``merchant_pool``) are unordered for
the rules, but their order is not free: at a table the referee is offered a
pile's cards in its order (the ``ChanceAwaited`` event), so there they keep
the catalog's. A seeded game's draws read a pile in the kernel's canonical
(sorted) order, in which no event shows the pile's own order, so there
(``sorted_piles``) they are kept sorted: the kernel sorts an already sorted
list in one pass, and the card drawn is found by bisection instead of a
search (see ``_take``). A state without the key (a snapshot taken before it
existed) keeps its piles as they are.
"""

from __future__ import annotations

from bisect import bisect_left

from service.kernel.machine import is_unknown


def initial_state(config: dict, key: str, ix) -> dict:
    seats = config["seats"]
    piled = list if config.get("table") else sorted     # the piles' order (see the module's doc)
    return {
        "cat": key,
        # at a table (rules version 2+) the cards set aside each round stay unseen: nobody names them
        "unseen": int(config.get("rules_version", "1")) >= 2 and bool(config.get("table")),
        "options": config.get("options") or {},
        "seats": seats,
        "turn": 0,
        "round": 0,
        "phase": "setup",       # setup, commit, resolve, keep, over
        "current": None,
        "extra_turn": False,
        "sorted_piles": not config.get("table"),
        "pool": piled(ix.action_cards),
        "top": [],
        "peek": [],
        "set_aside": [],
        "discard": [],
        "ship_pool": piled(ix.ships),
        "ship_used": [],
        "merchant_pool": piled(ix.merchants),
        "merchant_used": [],
        "status": {},           # ship id -> {"damaged","supply","revealed","refuge"}
        "players": [
            {"hand": [], "ships": [], "merchants": [], "prizes": [], "vp": [], "pending": None,
             "round_vp": [], "round_points": [], "kept": None, "wireless_turn": None}
            for _ in range(seats)
        ],
        "tt": None,             # this turn's bookkeeping (see _turn_started)
        "eng": None,            # the attack being resolved
        "window": None,         # who must answer what (reaction, assist, reflag, order, keep)
        "result": None,
    }


def player(state, seat):
    return state["players"][seat - 1]


def _remove_from_force(state, ship):
    for p in state["players"]:
        for key in ("ships", "merchants", "prizes"):
            if ship in p[key]:
                p[key].remove(ship)
                return key
    return None


def _status(state, ship):
    st = state["status"].get(ship)
    if st is None:
        st = state["status"][ship] = {"damaged": False, "supply": False, "revealed": False, "refuge": None}
    return st


def pool_left(state) -> int:
    """Action cards left to draw: the pool less the unseen cards set aside
    (at a table the pool holds every card still possible, those included)."""
    if not state.get("unseen"):
        return len(state["pool"])       # seeded games (and older tables) hold real cards only
    hidden = state["set_aside"] + state["discard"] + [c for p in state["players"] for c in p["hand"]]
    return len(state["pool"]) - sum(1 for c in hidden if is_unknown(c))


def real_card(card) -> bool:
    """Not one of the phantom's pseudo-cards (``solo:<type>``, solitaire.py): those
    are never dealt, played from a hand nor discarded."""
    return not (isinstance(card, str) and card.startswith("solo:"))


def _take(state, pile, card):
    """``card`` out of the draw pile ``pile``: by bisection where the piles are
    kept sorted (a seeded game), else by a search from its start."""
    cards = state[pile]
    if state.get("sorted_piles"):
        at = bisect_left(cards, card)
        if at < len(cards) and cards[at] == card:
            del cards[at]
            return
    cards.remove(card)      # (not in the pile: refused as before)


# handlers ---------------------------------------------------------------
def _deck_shuffled(state, d, ev):
    if d.get("face_down") and d["deck"] == "action:set-aside":
        state["set_aside"].extend(d["order"])
    elif d.get("face_down") and d["deck"] == "action:phantom-hand":   # solitaire: unseen (5.2.2)
        state["players"][1]["hand"].extend(d["order"])
    elif d.get("face_down") and d["deck"] == "action:phantom-discard":  # solitaire: unseen (5.4.2)
        state["discard"].extend(d["order"])


def _card_drawn(state, d, ev):
    deck, _, dest = d["deck"].partition(":")
    card = d["card"]
    if deck == "action":
        _take(state, "pool", card)
        if dest == "set-aside":
            state["set_aside"].append(card)
        elif dest.startswith("hand-"):
            state["players"][int(dest[5:]) - 1]["hand"].append(card)
        elif dest == "peek":
            state["peek"].append(card)
        elif dest == "phantom-hand":
            state["players"][1]["hand"].append(card)
        elif dest == "phantom-discard":
            state["discard"].append(card)
    elif deck == "ships":
        _take(state, "ship_pool", card)
        state["players"][int(dest[6:]) - 1]["ships"].append(card)
        state["status"][card] = {"damaged": False, "supply": False, "revealed": False, "refuge": None}
    elif deck == "merchants":
        _take(state, "merchant_pool", card)
        state["players"][int(dest[6:]) - 1]["merchants"].append(card)
        state["status"][card] = {"damaged": False, "supply": False, "revealed": True, "refuge": None}


def _top_card_taken(state, d, ev):
    card = state["top"].pop(0)
    player(state, d["seat"])["hand"].append(card)


def _deck_reshuffled(state, d, ev):
    k = d["deck"]
    held = d.get("held") or []          # 6.5.2: ships removed this round stay out
    state[f"{k}_pool"] += [s for s in state[f"{k}_used"] if s not in held]
    if state.get("sorted_piles"):
        state[f"{k}_pool"].sort()
    state[f"{k}_used"] = list(held)


def _round_started(state, d, ev):
    state["round"] = d["round"]
    state["removed_this_round"] = []
    state["phase"] = "dealing"
    state["eng"] = None
    state["window"] = None
    state["tt"] = None


def _turn_started(state, d, ev):
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


def _card_committed(state, d, ev):
    state["players"][d["seat"] - 1]["hand"].remove(d["card"])
    tt = state["tt"]
    if d["card"] in tt["extra"]:
        tt["extra"].remove(d["card"])
    tt["committed"].append({"card": d["card"], "use": d["use"], "ship": d.get("ship")})


def _committing_done(state, d, ev):
    state["phase"] = "resolve"


def _card_revealed(state, d, ev):
    tt = state["tt"]
    for c in tt["committed"]:
        if c["card"] == d["card"]:
            tt["committed"].remove(c)
            break
    if real_card(d["card"]):
        tt["played"].append(d["card"])
    if d.get("against") and d["against"] not in tt["others"]:
        tt["others"].append(d["against"])


def _deception_forced(state, d, ev):
    tt = state["tt"]
    player(state, d["seat"])["hand"].remove(d["card"])
    tt["committed"].append({"card": d["card"], "use": "action", "ship": None})
    tt["deceived"] = True
    state["phase"] = "resolve"


def _attack_announced(state, d, ev):
    tt = state["tt"]
    eng = dict(d)
    eng.update({"i": 0, "stage": "assist", "surprise": False, "searchlight": False, "special": False,
                "boarding": [], "multi": None, "reaction": None, "reveal": [], "passage": None,
                "reacted": []})
    state["eng"] = eng
    if d["kind"] in ("intercept", "british", "interrogate", "monitor", "mines", "torpedo"):
        tt["attack_on"] = d["opp"]
    if d.get("ship"):
        tt["used"].append(d["ship"])
    # 3.1.3: an Interrogate counts as the ship's one intercept only once it succeeds
    if d["kind"] in ("intercept", "british", "monitor"):
        tt["intercepted"] += [t for t in d["targets"] if t not in tt["intercepted"]]


def _interrogation_succeeded(state, d, ev):
    if d["target"] not in state["tt"]["intercepted"]:
        state["tt"]["intercepted"].append(d["target"])


def _assist_revealed(state, d, ev):
    eng = state["eng"]
    kind = d["ctype"]
    if kind == "surprise-attack":
        eng["surprise"] = True
    elif kind == "searchlight":
        eng["searchlight"] = True
    elif kind == "special-cargo":
        eng["special"] = True
    elif kind == "boarding-party":
        eng["boarding"].append(d["target"])
    elif kind in ("good-hunting", "shipping-lanes"):
        eng["multi"] = kind
        for t in d["targets"]:
            if t not in eng["targets"]:
                eng["targets"].append(t)
            if t not in state["tt"]["intercepted"]:
                state["tt"]["intercepted"].append(t)
    _card_revealed(state, d, ev)


def _engagement_advanced(state, d, ev):
    eng = state["eng"]
    eng["stage"] = d["stage"]
    eng["i"] = d["i"]
    if d["stage"] == "assist":
        eng["reaction"] = None


def _targets_cut(state, d, ev):
    eng = state["eng"]
    eng["targets"] = eng["targets"][: eng["i"] + 1]


def _reveal_pending(state, d, ev):
    if d["ship"] not in state["eng"]["reveal"]:
        state["eng"]["reveal"].append(d["ship"])


def _mine_target(state, d, ev):
    eng = state["eng"]
    eng["targets"].remove(d["target"])
    eng["targets"].insert(eng["i"], d["target"])


def _known_peeked(state, d, ev):
    for c in d["cards"]:
        state["top"].remove(c)
        state["peek"].append(c)


def _passage_offered(state, d, ev):
    state["eng"]["passage"] = {"ship": d["ship"], "seat": d["seat"], "bonus": d["bonus"], "why": d["why"]}


def _passage_answered(state, d, ev):
    state["window"] = None
    if state["eng"] is not None:
        state["eng"]["passage"] = None


def _engagement_ended(state, d, ev):
    state["eng"] = None


def _window_opened(state, d, ev):
    w = state["window"] = dict(d)       # lists and dicts copied too: the window shares nothing with the event
    for k, v in d.items():
        # by the exact class (a window's data are plain JSON values, built here or decoded):
        # no isinstance call for each of its strings and numbers
        cls = v.__class__
        if cls is dict:
            w[k] = dict(v)
        elif cls is list:
            w[k] = list(v)


def _window_closed(state, d, ev):
    state["window"] = None


def _reaction_played(state, d, ev):
    state["window"] = None
    p = player(state, d["seat"])
    p["hand"].remove(d["card"])
    tt = state["tt"]
    if tt is not None:
        if d["seat"] == state["current"]:
            tt["played"].append(d["card"])
        else:
            tt["reactions"].append(d["card"])
            tt["reacted_by"][d["card"]] = d["seat"]
    if state["eng"] is not None and d.get("against") in ("attack", "sinking"):
        state["eng"]["reacted"].append(d.get("target"))
    if state["eng"] is not None and d.get("against") == "attack":
        state["eng"]["reaction"] = {"card": d["card"], "type": d["ctype"]}


def _extra_damage(state):
    return bool((state.get("options") or {}).get("extra_damage"))


def _ship_damaged(state, d, ev):
    st = _status(state, d["ship"])
    if _extra_damage(state):            # 6.8.1: one more marker each time
        st["hits"] = st.get("hits", 1 if st["damaged"] else 0) + 1
    st["damaged"] = True


def _ship_repaired(state, d, ev):
    st = _status(state, d["ship"])
    if _extra_damage(state) and st.get("hits", 1) > 1:
        st["hits"] -= 1                 # 6.8.3: one marker at a time
        return
    st["damaged"] = False
    st.pop("hits", None)


def _prize_stores_used(state, d, ev):
    _status(state, d["ship"])["supply"] = False
    state["tt"].setdefault("prize_used", []).append(d["prize"])


def _pursuit_chosen(state, d, ev):
    state["window"] = None
    state["eng"]["pursue"] = d["pursue"]


def _supply_limited(state, d, ev):
    _status(state, d["ship"])["supply"] = True


def _resupplied(state, d, ev):
    _status(state, d["ship"])["supply"] = False


def _revealed(state, d, ev):
    _status(state, d["ship"])["revealed"] = True


def _disguised(state, d, ev):
    _status(state, d["ship"])["revealed"] = False


def _to_used(state, ship, deck):
    state[f"{deck}_used"].append(ship)


def _refuge_card_off(state, ship):
    st = state["status"].get(ship)
    if st and st["refuge"]:
        if real_card(st["refuge"]):
            state["discard"].append(st["refuge"])
        st["refuge"] = None


def _ship_sunk(state, d, ev):
    ship = d["ship"]
    _refuge_card_off(state, ship)
    _remove_from_force(state, ship)
    state["status"].pop(ship, None)
    if d.get("by"):
        player(state, d["by"])["vp"].append({"card": ship, "deck": d["deck"], "double": d.get("double", False)})
    else:
        _to_used(state, ship, d["deck"])


def _ship_removed(state, d, ev):
    ship = d["ship"]
    state.setdefault("removed_this_round", []).append(ship)
    _refuge_card_off(state, ship)
    _remove_from_force(state, ship)
    state["status"].pop(ship, None)
    _to_used(state, ship, d["deck"])


def _ship_captured(state, d, ev):
    ship = d["ship"]
    _remove_from_force(state, ship)
    player(state, d["by"])["prizes"].append(ship)
    st = _status(state, ship)
    st["revealed"] = False


def _passage(state, d, ev):
    ship = d["ship"]
    _remove_from_force(state, ship)
    state["status"].pop(ship, None)
    player(state, d["seat"])["vp"].append({"card": ship, "deck": "merchant", "double": d["double"], "passage": True})


def _vp_swapped(state, d, ev):
    # Mistaken Identity: the two cards change places: the just-sunk merchant takes
    # the place of the defender's chosen one, and that one the place of the sinking
    # in the attacker's pile (a Special Cargo double stays with the sinking).
    a, b = player(state, d["attacker"]), player(state, d["defender"])
    ea = next(e for e in reversed(a["vp"]) if e["card"] == d["sunk"])
    eb = next(e for e in b["vp"] if e["card"] == d["given"])
    ea["card"], eb["card"] = d["given"], d["sunk"]


def _ship_transferred(state, d, ev):
    key = _remove_from_force(state, d["ship"])
    player(state, d["to"])[key].append(d["ship"])


def _card_scored(state, d, ev):
    # an action card (AMC, Q-ship, submarine) sunk: into the winner's VP pile
    card = d["card"]
    tt = state["tt"]
    for lst in (tt["played"], tt["reactions"]):
        if card in lst:
            lst.remove(card)
    player(state, d["seat"])["vp"].append({"card": card, "deck": "action" if real_card(card) else "solitaire",
                                           "double": False})


def _cards_discarded(state, d, ev):
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


def _penalty(state, d, ev):
    """3.1.5: the irregular card leaves the hand (or the committed cards) face up."""
    p = player(state, d["seat"])
    card = d["card"]
    if card in p["hand"]:
        p["hand"].remove(card)
    tt = state["tt"]
    if tt is not None:
        if card in tt["extra"]:
            tt["extra"].remove(card)
        tt["committed"] = [c for c in tt["committed"] if c["card"] != card]
    state["discard"].append(card)


def _card_placed(state, d, ev):
    if real_card(d["card"]):
        state["tt"]["played"].remove(d["card"])
    player(state, d["on"])["pending"] = {"card": d["card"], "type": d["ctype"]}


def _pending_cleared(state, d, ev):
    p = player(state, d["seat"])
    if not real_card(p["pending"]["card"]):
        pass                                                  # the phantom's: nothing to discard (5.4.3 step 6)
    elif d.get("into_turn"):
        state["tt"]["played"].append(p["pending"]["card"])   # discarded with the turn's cards
    else:
        state["discard"].append(p["pending"]["card"])
    p["pending"] = None


def _turn_in_fog(state, d, ev):
    state["tt"]["fogged"] = True
    state["phase"] = "resolve"


def _forced_ignored(state, d, ev):
    state["tt"]["deceived"] = "ignored"


def _refuge_entered(state, d, ev):
    if real_card(d["card"]):
        state["tt"]["played"].remove(d["card"])
    st = _status(state, d["ship"])
    st["refuge"] = d["card"]
    st["since"] = state["turn"]
    st["revealed"] = False


def _refuge_left(state, d, ev):
    _refuge_card_off(state, d["ship"])
    state["tt"]["left_refuge"].append(d["ship"])


def _refuge_tried(state, d, ev):
    state["tt"]["refuge_tried"].append([d["ship"], d["what"]])


def _peek_ordered(state, d, ev):
    state["top"] = list(d["cards"]) + state["top"]
    state["top_known_by"] = d["seat"]
    # every seat that looked keeps knowing which cards it saw (not their new order)
    state.setdefault("top_seen", {})[str(d["seat"])] = list(d["cards"])
    state["peek"] = []


def _cards_taken(state, d, ev):
    a, b = player(state, d["seat"]), player(state, d["from"])
    for c in d["cards"]:
        b["hand"].remove(c)
        a["hand"].append(c)
        state["tt"]["extra"].append(c)


def _discards_taken(state, d, ev):
    p = player(state, d["seat"])
    for c in d["cards"]:
        state["discard"].remove(c)
        p["hand"].append(c)
    state["tt"]["wireless"] = True
    p["wireless_turn"] = state["turn"]


def _second_chance(state, d, ev):
    state["tt"]["second_chance"] = True


def _attack_ignored(state, d, ev):
    state["tt"]["ignored"].append(d["ship"])


def _no_passage(state, d, ev):
    state["tt"]["no_passage"].append(d["ship"])


def _round_scored(state, d, ev):
    for s, vp in d["vp"].items():
        p = player(state, int(s))
        p["round_vp"].append(vp)
        p["round_points"].append(d["points"][s])


def _round_cleared(state, d, ev):
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
    state["tt"] = None
    state["eng"] = None
    state["phase"] = "keep"


def _ship_kept(state, d, ev):
    p = player(state, d["seat"])
    keep = d["ships"] if "ships" in d else [d["ship"]]        # 6.7: up to three
    drop = [s for s in p["ships"] if s not in keep]
    for s in drop:
        p["ships"].remove(s)
        state["status"].pop(s, None)
        state["ship_used"].append(s)
    p["kept"] = d["ship"]
    p["kept_n"] = len(d["ships"]) if "ships" in d else (1 if d["ship"] else 0)


def _game_over(state, d, ev):
    state["phase"] = "over"
    state["result"] = {"scores": d["scores"], "winners": d["winners"]}


def _extra_round(state, d, ev):
    state["extra_rounds"] = state.get("extra_rounds", 0) + 1
    state["tied"] = list(d["tied"])


HANDLERS = {
    "DeckShuffled": _deck_shuffled,
    "CardDrawn": _card_drawn,
    "KnownCardDrawn": _top_card_taken,
    "DeckReshuffledFromBottom": _deck_reshuffled,
    "RoundStarted": _round_started,
    "TurnStarted": _turn_started,
    "CardCommitted": _card_committed,
    "CommittingDone": _committing_done,
    "CardRevealed": _card_revealed,
    "DeceptionForcedCard": _deception_forced,
    "AttackAnnounced": _attack_announced,
    "AssistRevealed": _assist_revealed,
    "EngagementAdvanced": _engagement_advanced,
    "TargetsReduced": _targets_cut,
    "EngagementEnded": _engagement_ended,
    "PassageOffered": _passage_offered,
    "InterrogationSucceeded": _interrogation_succeeded,
    "PassageAttempted": _passage_answered,
    "PassageDeclined": _passage_answered,
    "RevealPending": _reveal_pending,
    "MineTargetChosen": _mine_target,
    "KnownCardsPeeked": _known_peeked,
    "WindowOpened": _window_opened,
    "ReactionDeclined": _window_closed,
    "WindowClosed": _window_closed,
    "ReactionPlayed": _reaction_played,
    "ShipDamaged": _ship_damaged,
    "ShipRepaired": _ship_repaired,
    "PrizeStoresUsed": _prize_stores_used,
    "PursuitChosen": _pursuit_chosen,
    "SupplyLimited": _supply_limited,
    "ShipResupplied": _resupplied,
    "ShipRevealed": _revealed,
    "ShipDisguised": _disguised,
    "ShipSunk": _ship_sunk,
    "ShipRemoved": _ship_removed,
    "ShipCaptured": _ship_captured,
    "PassageMade": _passage,
    "VictoryCardsSwapped": _vp_swapped,
    "ShipTransferred": _ship_transferred,
    "ActionCardScored": _card_scored,
    "CardsDiscarded": _cards_discarded,
    "CardPlacedOnPlayer": _card_placed,
    "PenaltyApplied": _penalty,
    "PendingCardCleared": _pending_cleared,
    "TurnInFog": _turn_in_fog,
    "ForcedCardIgnored": _forced_ignored,
    "RefugeEntered": _refuge_entered,
    "RefugeLeft": _refuge_left,
    "RefugeAttempted": _refuge_tried,
    "DeckTopOrdered": _peek_ordered,
    "CardsTaken": _cards_taken,
    "DiscardsTaken": _discards_taken,
    "SecondChanceEarned": _second_chance,
    "MerchantIgnored": _attack_ignored,
    "PassageBarred": _no_passage,
    "RoundScored": _round_scored,
    "RoundCleared": _round_cleared,
    "ShipKept": _ship_kept,
    "ExtraRoundCalled": _extra_round,
    "GameOver": _game_over,
}

