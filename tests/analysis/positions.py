"""Seeded mid-game positions of every game, and for each game a change of what a
seat may not see (the same table to that seat, another truth), for the samplers'
and the search's tests."""

from __future__ import annotations

import random

from service.kernel.local import LocalGame
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
            if n != seat and p["hand"] and s["pool"]:
                p["hand"][0], s["pool"][0] = s["pool"][0], p["hand"][0]
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
