"""Seeded mid-game positions of every game, and for each game a change of what a
seat may not see (the same table to that seat, another truth), for the samplers'
and the search's tests."""

from __future__ import annotations

import json
import random
from pathlib import Path

from bench import golden
from service.kernel.local import LocalGame
from service.kernel.machine import is_unknown
from service.kernel.sampling import copy_state

GAMES = {"letter-of-marque": 3, "loot": 3, "kaisers-pirates": 2, "merchants-and-marauders": 3}


def position(game: str, seed: int, steps: int) -> LocalGame:
    """A game after ``steps`` random decisions (fewer when it would end first)."""
    def fresh():
        return LocalGame(game, GAMES[game], seed=f"pos:{game}:{seed}".encode().ljust(32, b"."))

    g, rng, taken = fresh(), random.Random(seed), []
    for _ in range(steps):
        seat = g.to_act()[0]
        decision = rng.choice(g.legal(seat))
        g.act(seat, decision)
        if g.machine.finished:  # one step short of the end, played again
            g = fresh()
            for seat, decision in taken:
                g.act(seat, decision)
            return g
        taken.append((seat, decision))
    return g


def other_truth(game: str, state: dict, seat: int) -> dict | None:
    """A copy of ``state`` that differs only in what ``seat`` may not see, or None
    when nothing is hidden from it there."""
    s = copy_state(state)
    if game == "loot":
        others = [o for o in range(1, s["seats"] + 1) if o != seat and s["hands"][o - 1]]
        if not others or not s["pile"]:
            return None
        hand = s["hands"][others[0] - 1]
        hand[0], s["pile"][0] = s["pile"][0], hand[0]
        return s
    if game == "kaisers-pirates":
        for n, p in enumerate(s["players"], 1):
            known = [i for i, c in enumerate(p["hand"]) if not is_unknown(c)]  # (at a table, not a token)
            if n != seat and known and s["pool"]:
                p["hand"][known[0]], s["pool"][0] = s["pool"][0], p["hand"][known[0]]
                s["pool"].sort()
                return s
        return None
    if game == "letter-of-marque":
        for ship in s["sea"]:
            p = s["players"][ship["owner"] - 1]
            if ship["owner"] != seat and not ship["revealed"] and ship["armed"] is not None:
                other = "unarmed" if ship["armed"] else "armed"
                if p["reserve"][other] > 0:  # the ship's base and one in the reserve change places
                    p["reserve"][other] -= 1
                    p["reserve"]["armed" if ship["armed"] else "unarmed"] += 1
                    ship["armed"] = not ship["armed"]
                    return s
        return None
    if game == "merchants-and-marauders":
        for p in s["players"]:
            if p["seat"] != seat:
                p["gold"] += 3
                s["bank"] -= 3
                if p["hand"] and s["decks"]["glory"]:
                    p["hand"][0], s["decks"]["glory"][0] = s["decks"]["glory"][0], p["hand"][0]
                if p["cargo"] and s["decks"]["cargo"]:
                    p["cargo"][0], s["decks"]["cargo"][-1] = s["decks"]["cargo"][-1], p["cargo"][0]
                s["decks"]["events"].reverse()
                return s
        return None
    raise KeyError(game)


# Table games (issue 42): a position of each game, short enough to be walked to its end
# with an analysis at every step. Loot: docs/positions/loot.json with three colours and the
# Admiral out of play; Kaiser's Pirates: the book's example of play for two, in
# the last round with most of the deck on the discard pile; Merchants & Marauders: the
# book's battle, each captain one glory point short of a target of 3.
DOCS = Path(__file__).resolve().parents[2] / "docs" / "positions"
KP_LAST_ROUND = {"to_play": 1, "round": 3, "players": [
    {"ships": ["Emden", "Dresden", "Leipzig"], "hand": ["Recalled", "Surprise Attack", "qqq-2", "Fast Ship"],
     "round_points": [3, 1]},
    {"ships": ["Prinz Eitel Friedrich", {"ship": "Leopard", "revealed": True}, "Greif"],
     "hand": ["Lay Mines", "Good Hunting", "Boarding Party", "U-27"], "round_points": [1, 3]}],
    "discard": [*(f"interrogate-{n}" for n in range(1, 6)), *(f"reflag-{n}" for n in range(1, 6)),
                *(f"damage-control-{n}" for n in range(1, 5)), "heavy-weather-1", "heavy-weather-2",
                *(f"shipping-lanes-{n}" for n in range(1, 5)), *(f"non-combatant-{n}" for n in range(1, 4)),
                "slim-pickings-1", "slim-pickings-2", "fair-seas-1"]}
MM_LAST_GLORY = {"to_play": "Felipe", "players": [
    {"captain": "Felipe", "ship": "Frigate", "sea": "Port Royal", "weapons": ["Chain Shot"],
     "glory_cards": ["Fast Learner"], "glory": 2},
    {"captain": "Frances Wright", "sea": "Port Royal", "upgrades": ["Better Rigging"],
     "weapons": ["Grappling Hooks"], "glory_cards": ["Crew Combat Rerolls"], "glory": 2}]}
# game -> (seats, options, position)
TABLE_POSITIONS = {
    "letter-of-marque": (2, {}, json.loads((DOCS / "letter-of-marque.json").read_text())),
    "loot": (2, {}, {**json.loads((DOCS / "loot.json").read_text()), "discard": [
        *(f"{colour}-{card}" for colour in ("purple", "green", "gold")
          for card in ("1a", "1b", "2a", "2b", "2c", "2d", "3a", "3b", "3c", "3d", "4a", "4b", "captain")),
        "admiral"]}),
    "kaisers-pirates": (2, {}, KP_LAST_ROUND),
    "merchants-and-marauders": (2, {"glory": "3"}, MM_LAST_GLORY),
}


def entered_at_random(machine, rng: random.Random):
    """An outcome for the chance a table game awaits, as a referee might enter it."""
    return golden.entered_at_random(machine.kernel_state["awaiting"], rng)


def table_game(game: str, seed: int, steps: int, from_position: bool = True, seats: int | None = None) -> LocalGame:
    """A table game (every outcome entered at random) after ``steps`` random decisions
    (fewer if it ends first), from the game's position in ``TABLE_POSITIONS`` or from
    its set-up."""
    n, options, pos = TABLE_POSITIONS[game]
    g = LocalGame(game, seats or n, options=options if from_position else None, table=True,
                  position=pos if from_position else None)
    rng, made = random.Random(seed), 0
    while made < steps and not g.machine.finished:
        if g.machine.awaiting_chance() is not None:
            g.enter(entered_at_random(g.machine, rng))
            continue
        seat = g.to_act()[0]
        g.act(seat, rng.choice(g.legal(seat)))
        made += 1
    while g.machine.awaiting_chance() is not None:  # on to the next decision
        g.enter(entered_at_random(g.machine, rng))
    return g


def unknown_tokens(value) -> list[str]:
    """Every unknown card (``?deck#n``) anywhere in a state."""
    if isinstance(value, str):
        return [value] if is_unknown(value) else []
    if isinstance(value, dict):
        return [t for k, v in value.items() for t in unknown_tokens(k) + unknown_tokens(v)]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in unknown_tokens(v)]
    return []
