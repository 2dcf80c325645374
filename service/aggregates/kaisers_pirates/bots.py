"""Bots for ``tools simulate``: they pick among the legal decisions.

* ``random``: any legal decision, but it says ``done``/``end_turn`` only
  sometimes so that games move on.
* ``heuristic``: commits a plain intercept card (not a night one, not a
  reaction it keeps for defence) on each German ship, one a merchant of the
  opponents, and British forces on a recognised warship, raider or prize when
  the chance to sink it (``p_sink``: the highest die against twice the highest,
  3.2.7) times its victory points is worth a card; its attack cards, and the
  assists when something intercepts; each intercept on the target it most
  likely sinks by its value; plays a reaction when it has one; takes a damaged
  or short-supplied ship to an island refuge; keeps the best ship between
  rounds. Against the phantom (solitaire) it wins about 32% of 200 games (the bot before it:
  15%); in 2-seat games it beats that bot about 2 games in 3 (bench/strength.py).
"""

from __future__ import annotations

from functools import lru_cache

from .actions import has_effect
from .board import in_refuge, ix, opponents, recognised, status_of

TYPE_CHECKING = False  # mypy takes the name as true; typing is not imported at run time
if TYPE_CHECKING:
    import random
    from typing import Any, Iterable

    from .catalog import Index
    from .shapes import State


def random_bot(state: State, seat: int, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    return rng.choice(legal)


# the action sides worth committing: attacks of their own, and the assists (with an intercept)
ATTACK_SIDES = ("lay-mines", "submarines-u-27-u-41", "submarines-uc-16-uc-29", "interrogate")
ASSISTS = ("surprise-attack", "boarding-party", "good-hunting", "shipping-lanes")
OTHERS = ("damage-control", "fair-seas")
BRITISH_AT_LEAST = 1.0   # expected VP of a British intercept worth a card
SINK_AT_LEAST = 0.2     # an intercept whose chance to sink is lower gives the owner a passage roll


def _highest(dice: tuple[int, ...]) -> dict[int, float]:
    """{value: probability} of the highest of ``dice`` (sides each)."""
    out = {}
    top = max(dice)
    for v in range(1, top + 1):
        below = 1.0
        at_or_below = 1.0
        for d in dice:
            at_or_below *= min(v, d) / d
            below *= min(v - 1, d) / d
        out[v] = at_or_below - below
    return out


def p_sink(attack: Iterable[int], defence: Iterable[int], mod: int = 0) -> float:
    """The chance that ``attack`` dice (+``mod``) reach twice the ``defence`` dice (3.2.7)."""
    return _p_sink(tuple(attack), tuple(defence), mod)


@lru_cache(maxsize=4096)  # a few dozen dice pools: the search's playouts ask again and again
def _p_sink(attack: tuple[int, ...], defence: tuple[int, ...], mod: int) -> float:
    a, d = _highest(attack), _highest(defence)
    return sum(pa * pd for x, pa in a.items() for y, pd in d.items() if max(1, x + mod) >= 2 * y)


def _intercept_worth(state: State, i: Index, d: dict[str, Any]) -> float:
    """An intercept's expected victory points: the chance to sink times the target's."""
    card = i.ctype(d["card"])
    mod = -1 if card["intercept"].get("night") else 0
    tgt = i.vessel(d["target"])
    if d.get("ship"):
        attack = i.ships[d["ship"]]["attack"]
    else:
        attack = card["intercept"]["attack"]
    return p_sink(attack, tgt["defense"], mod) * tgt["vp"]


def _commit(state: State, seat: int, acts: dict[str, list[dict[str, Any]]], i: Index) -> dict[str, Any]:
    """The cards of the turn: an intercept card (a plain one, not a night one, not a
    reaction kept for defence) on each German ship with a merchant it likely sinks, the
    assists when something intercepts, the action sides that attack; then done."""
    committed = state["tt"]["committed"]
    ships_on = {c["ship"] for c in committed if c["use"] == "intercept" and c["ship"]}
    used = {c["card"] for c in committed}
    opts = [d for d in acts["commit"] if d["card"] not in used]
    intercepting = len(ships_on)
    # the best target open to each free ship, one merchant a ship
    merchants = sorted({m for o in opponents(state, seat) for m in state["players"][o - 1]["merchants"]})
    taken = len(ships_on)
    pairs = []
    for d in opts:
        if d["use"] == "intercept" and d["ship"] and d["ship"] not in ships_on and i.kind(d["card"]) == "normal":
            best = max((p_sink(i.ships[d["ship"]]["attack"], i.vessel(m)["defense"]) * i.vessel(m)["vp"], m)
                       for m in merchants) if merchants else (0, None)
            plain = not i.ctype(d["card"])["intercept"].get("night") and i.tid(d["card"]) not in ATTACK_SIDES + OTHERS
            pairs.append((best[0], plain, i.ships[d["ship"]]["vp"], d))
    if pairs and taken < len(merchants):
        worth, plain, _, d = max(pairs, key=lambda x: (x[1], x[0], x[2], x[3]["card"], x[3]["ship"]))
        if plain and worth >= SINK_AT_LEAST * 5:
            return d
    # British forces on a recognised warship, raider or prize, with the card's own dice
    british = sum(1 for c in committed if c["use"] == "intercept" and not c["ship"])
    targets = sorted({t for o in opponents(state, seat) for t in state["players"][o - 1]["ships"]
                      + state["players"][o - 1]["prizes"] if recognised(state, t) and not in_refuge(state, t)})
    if targets and british < len(targets):
        cands = []
        for d in opts:
            if d["use"] == "intercept" and d["ship"] is None and i.kind(d["card"]) == "normal" \
                    and i.tid(d["card"]) not in ATTACK_SIDES:
                card = i.ctype(d["card"])["intercept"]
                mod = -1 if card.get("night") else 0
                worth = max(p_sink(card["attack"], i.vessel(t)["defense"], mod) * i.vessel(t)["vp"] for t in targets)
                cands.append((worth, d["card"], d))
        if cands:
            worth, _, d = max(cands, key=lambda x: (x[0], x[1]))
            if worth >= BRITISH_AT_LEAST:
                return d
    for group in (ATTACK_SIDES, ASSISTS if intercepting else (), OTHERS):
        for d in opts:
            if d["use"] == "action" and i.tid(d["card"]) in group and \
                    not any(i.tid(c["card"]) == i.tid(d["card"]) and c["use"] == "action" for c in committed):
                return d
    return {"action": "done"}


ATTACKS = ("intercept", "lay_mines", "torpedo", "sub_mines", "interrogate", "monitor")


def heuristic_bot(state: State, seat: int, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    i = ix(state)
    acts: dict[str, list[dict[str, Any]]] = {}
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
        return _commit(state, seat, acts, i)
    # resolve phase: each intercept on the target it most likely sinks (by its value), then
    # the other attacks on the richest target
    if "intercept" in acts:
        return max(acts["intercept"], key=lambda d: (_intercept_worth(state, i, d), d["target"]))
    for a in ATTACKS[1:]:
        if a in acts:
            def score(d: dict[str, Any]) -> float:
                tgt = d.get("target")
                if tgt is None:
                    return 0
                v = i.vessel(tgt)
                return v["vp"] - (5 if tgt in i.ships and not d.get("ship") else 0)
            return max(acts[a], key=score)
    useful = [d for d in acts.get("play", []) if has_effect(state, seat, d)]
    if useful:
        return useful[0]
    hurt = [d for d in acts.get("refuge", []) if (status_of(state, d["ship"]) or {}).get("damaged")
            or (status_of(state, d["ship"]) or {}).get("supply")]
    if hurt:                            # an island refuge mends a damaged or short-supplied ship
        return hurt[0]
    return {"action": "end_turn"} if {"action": "end_turn"} in legal else rng.choice(legal)


BOTS = {"random": random_bot, "heuristic": heuristic_bot}
