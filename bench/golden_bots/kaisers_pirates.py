"""The golden's frozen copy of The Kaiser's Pirates bots (bench/golden_bots/__init__.py):
the game's bots.py as it was when the digests were taken. Do not improve it: improve the game's own.

* ``random``: any legal decision, but it says ``done``/``end_turn`` only
  sometimes so that games move on.
* ``heuristic``: commits its attack cards and the assists that help them,
  attacks the opponent with the most victory points, plays a reaction when it
  has one, keeps the best ship between rounds.
"""

from __future__ import annotations

from service.aggregates.kaisers_pirates.actions import has_effect
from service.aggregates.kaisers_pirates.board import ix


def random_bot(state, seat, legal, rng):
    return rng.choice(legal)


ATTACKS = ("intercept", "lay_mines", "torpedo", "sub_mines", "interrogate", "monitor")


def heuristic_bot(state, seat, legal, rng):
    i = ix(state)
    acts = {}
    for d in legal:
        acts.setdefault(d["action"], []).append(d)
    if "keep" in acts:
        if "ships" in acts["keep"][0]:          # 6.7: the best ship only (more cost cards)
            ones = [d for d in acts["keep"] if len(d["ships"]) == 1]
            return max(ones, key=lambda d: i.ships[d["ships"][0]]["vp"]) if ones else acts["keep"][-1]
        ships = [d for d in acts["keep"] if d["ship"]]
        if ships:
            return max(ships, key=lambda d: i.ships[d["ship"]]["vp"])
        return acts["keep"][0]
    if "pursue" in acts:                # 6.6.1 / 6.10: follow
        return {"action": "pursue", "pursue": True}
    if "resupply" in acts:              # 6.12: a prize's stores
        return acts["resupply"][0]
    if "give_done" in acts:             # team game: Exchange Information, keep its own hand
        return acts["give_done"][0]
    if "transfer" in acts:              # team game: a double Breakout's ships stay
        return acts["transfer"][0]
    if "passage" in acts:
        return {"action": "passage", "attempt": True}
    if "discard" in acts:
        return acts["discard"][0]
    if "react" in acts:
        return acts["react"][0]
    if "assist" in acts:
        return acts["assist"][0]
    if "stack" in acts:
        return acts["stack"][0]
    if "mine_target" in acts:
        return acts["mine_target"][0]
    if "proceed" in acts:
        return acts["proceed"][0]
    if "decline" in acts:
        return acts["decline"][0]
    if "commit" in acts and state["phase"] == "commit":
        n = len(state["tt"]["committed"])
        if n < 3:
            opts = acts["commit"]
            # prefer the action side of attack cards and assists, else an intercept
            good = [d for d in opts if d["use"] == "action" and i.tid(d["card"]) in (
                "lay-mines", "submarines-u-27-u-41", "submarines-uc-16-uc-29", "surprise-attack",
                "boarding-party", "good-hunting", "shipping-lanes", "damage-control", "fair-seas", "interrogate")]
            if good:
                return good[0]
            # intercept cards on its ships (the weakest cards: reactions are kept for defence)
            icp = [d for d in opts if d["use"] == "intercept" and d["ship"] and i.kind(d["card"]) == "normal"]
            if icp and sum(1 for c in state["tt"]["committed"] if c["use"] == "intercept") < 2:
                return icp[0]
        return {"action": "done"}
    # resolve phase: attack the richest opponent, then the other cards, then end
    for a in ATTACKS:
        if a in acts:
            def score(d):
                tgt = d.get("target")
                if tgt is None:
                    return 0
                v = i.vessel(tgt)
                return v["vp"] - (5 if tgt in i.ships and not d.get("ship") else 0)
            return max(acts[a], key=score)
    useful = [d for d in acts.get("play", []) if has_effect(state, seat, d)]
    if useful:
        return useful[0]
    if "refuge" in acts:
        return acts["refuge"][0]
    return {"action": "end_turn"} if {"action": "end_turn"} in legal else rng.choice(legal)


BOTS = {"random": random_bot, "heuristic": heuristic_bot}
