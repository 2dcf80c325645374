"""Read-only questions about the table (no events here): the game's card index
(``ix``), who is who (seats, partners, the phantom), where a ship is and what
it may do, what a turn has committed."""

from __future__ import annotations

from service.kernel.rules import catalog_digest

from . import catalog as catalog_data

TYPE_CHECKING = False  # mypy takes the name as true; typing is not imported at run time
if TYPE_CHECKING:
    from typing import Any

    from .catalog import Index
    from .shapes import State, Status, VpEntry

_INDEXES = catalog_data.INDEXES     # catalog key -> Index, filled by catalog.index


def ix(state: State) -> Index:
    try:                                # asked several times a step: one subscript (no method call)
        return _INDEXES[state["cat"]]
    except KeyError:
        pass
    return _rebuild_index(state)        # (outside the handler: its errors are not chained to the miss)


def _rebuild_index(state: State) -> Index:
    """A state restored without its GameCreated: only the packaged catalog can be rebuilt."""
    cat = catalog_data.load()
    if state.get("solo") is not None:       # the solitaire game's catalog holds its deck too
        cat["solitaire"] = catalog_data.solitaire_deck()
    if catalog_digest(cat) != state["cat"]:
        raise RuntimeError("kaisers-pirates: this game's card catalog is not loaded "
                           "(rebuild the game from its GameCreated event)")
    return catalog_data.index(cat, state["cat"])


# who and what ------------------------------------------------------------
PHANTOM = 2         # the solitaire game's phantom player (section 5) is the second seat of the state


def seats(state: State) -> range:
    return range(1, state["seats"] + 1)


def team_game(state: State) -> bool:
    """The team game (section 4) is on."""
    return bool((state.get("options") or {}).get("team"))


TEAMS = ((1, 3), (2, 4))    # 4.1: partners sit alternately


def partner(state: State, seat: int) -> int | None:
    """4.1: partners sit alternately: 1 with 3, 2 with 4 (None outside the team game)."""
    if not team_game(state):
        return None
    return (seat + 1) % 4 + 1


_OPPONENTS: dict[tuple[int, bool, int], tuple[int, ...]] = {}     # (seats, team game, seat) -> that seat's opponents


def opponents(state: State, seat: int) -> tuple[int, ...]:
    """Every other player; in the team game (4.2, 4.3) not the partner (a tuple, shared)."""
    key = (state["seats"], team_game(state), seat)
    opps = _OPPONENTS.get(key)
    if opps is None:
        mate = partner(state, seat)
        opps = _OPPONENTS[key] = tuple(s for s in seats(state) if s != seat and s != mate)
    return opps


def status_of(state: State, ship: str) -> Status:
    return state["status"][ship]


def is_warship(state: State, ship: str | None) -> bool:
    return ship in ix(state).warships


def is_raider(state: State, ship: str | None) -> bool:
    return ship in ix(state).raiders


def owner(state: State, ship: str) -> int | None:
    for i, p in enumerate(state["players"]):
        if ship in p["ships"] or ship in p["merchants"] or ship in p["prizes"]:
            return i + 1
    return None


def is_prize(state: State, ship: str) -> bool:
    return any(ship in p["prizes"] for p in state["players"])


def recognised(state: State, ship: str) -> bool:
    """Warships are always recognised; raiders and prizes only when revealed."""
    return ship in ix(state).warships or state["status"][ship]["revealed"]


def in_refuge(state: State, ship: str) -> bool:
    s = state["status"].get(ship)
    return bool(s and s["refuge"])


def fogged(state: State, seat: int) -> bool:
    pend = state["players"][seat - 1]["pending"]
    return pend is not None and pend["type"] == "fog-bank"


def attack_ok(state: State, seat: int, opp: int) -> bool:
    """3.1.3: intercepts, mines and torpedoes of a turn all go against one opponent;
    Fog Bank makes a player untouchable."""
    tt = state["tt"]
    return opp in opponents(state, seat) and not fogged(state, opp) and tt["attack_on"] in (None, opp)


def other_ok(state: State, seat: int, opp: int, heavy_weather: bool = False) -> bool:
    """3.1.4: non-intercept cards go against the attacked player and/or one other
    player; with no attack this turn, against one player only."""
    tt = state["tt"]
    if opp not in opponents(state, seat) or (fogged(state, opp) and not heavy_weather):
        return False
    targets = set(tt["others"]) | {opp}
    targets.discard(tt["attack_on"])
    return len(targets) <= 1


def can_attack_with(state: State, seat: int, ship: str) -> bool:
    """Each friendly warship or raider: one intercept or mine laying a turn; not
    from an island refuge nor in the turn it leaves one."""
    tt = state["tt"]
    return (ship in state["players"][seat - 1]["ships"] and ship not in tt["used"]
            and ship not in tt["left_refuge"] and not in_refuge(state, ship))


def vp_of(state: State, entry: VpEntry) -> int:
    i = ix(state)
    if entry["deck"] == "ship":
        v = i.ships[entry["card"]]["vp"]
    elif entry["deck"] == "merchant":
        v = i.merchants[entry["card"]]["vp"]
    else:
        v = i.ctype(entry["card"])["action"].get("vp", 0)
    return v * 2 if entry["double"] else v


def committed(state: State, use: str | None = None, tid: str | None = None) -> list[str]:
    card_type = ix(state).card_type if tid is not None else None
    out: list[str] = []
    for c in state["tt"]["committed"]:
        if use is not None and c["use"] != use:
            continue
        if tid is not None and card_type[c["card"]] != tid:  # type: ignore[index]  # (set when tid is)
            continue
        out.append(c["card"])
    return out


def commit_options(state: State, seat: int, cards: list[str]) -> list[dict[str, Any]]:
    """3.2.1: an intercept card goes on the intercepting ship (or before the force for
    British forces); Lay Mines on a minelaying raider; the other cards before the force."""
    if not cards:
        return []
    i = ix(state)
    tt = state["tt"]
    # the ships free to carry a card: none yet this turn (one each, 3.2.1), not in an island refuge
    used = tt["used"]
    carrying = [c["ship"] for c in tt["committed"]]
    free = [s for s in state["players"][seat - 1]["ships"]
            if s not in used and s not in carrying and not in_refuge(state, s)]
    # the action side goes before the force: normal and assist cards; Reflag with a ship
    # revealed at the turn's start (3.3.32); team cards in the team game (3.3.4, 3.3.11)
    # (asked only for their truth below: no bool() call); what each card may be is the index's
    reflag_ok = tt.get("revealed_at_start")
    team = state["options"].get("team")
    side_of = i.commit_side
    out: list[dict[str, Any]] = []
    append = out.append
    for card in cards:        # every copy is listed: any copy held may be committed
        for s in free:
            append({"action": "commit", "card": card, "use": "intercept", "ship": s})
        append({"action": "commit", "card": card, "use": "intercept", "ship": None})
        side = side_of[card]
        if side is None:
            continue
        if side == "mines":
            layers = i.minelayers
            for s in free:
                if s in layers:
                    append({"action": "commit", "card": card, "use": "action", "ship": s})
        elif side == "action" or (side == "reflag" and reflag_ok) or (side == "team" and team):
            append({"action": "commit", "card": card, "use": "action"})
    return out


# what the table can tell about the cards a seat may hold --------------------------
def _seen_face_up(state: State) -> dict[str, int]:
    """How many copies of each action card type lie face up where every seat sees them
    (or are out of the game): the discard pile (but in the solitaire game, 5.3.1),
    the cards played or answered this turn, the cards on a player or an island refuge,
    the action cards in victory piles, the solitaire game's unused cards (5.2)."""
    tid = ix(state).card_type.get
    cards = list(state.get("unused", ()))
    if state.get("solo") is None:
        cards += state["discard"]
    tt = state["tt"]
    if tt is not None:
        cards += tt["played"] + tt["reactions"]
    for p in state["players"]:
        if p["pending"]:
            cards.append(p["pending"]["card"])
        cards += [e["card"] for e in p["vp"] if e["deck"] == "action"]
    cards += [st["refuge"] for st in state["status"].values() if st.get("refuge")]  # type: ignore[misc]  # (those set)
    out: dict[str, int] = {}
    for c in cards:
        t = tid(c)
        if t is not None and not c.startswith("solo:"):
            out[t] = out.get(t, 0) + 1
    return out


def may_hold(state: State, seat: int, types: tuple[str, ...] | list[str], cards: list[str]) -> bool:
    """Whether, for all the other seats can tell, ``seat`` may have a card of one of
    ``types`` among ``cards`` (its hand, or its cards face down): a window whose only
    answer would be to pass is skipped when this is False, so skipping it tells nobody
    anything. In the solitaire game the real player is the only seat (the phantom
    decides nothing from what it sees, 5.4): its own cards decide."""
    if not types:
        return False
    i = ix(state)
    if state.get("solo") is not None:
        tid = i.card_type.get
        return any(tid(c) in types for c in cards)
    seen = _seen_face_up(state)
    return any(seen.get(t, 0) < i.types[t]["count"] for t in types)
