"""Glory cards (the book: "Carte Gloria", p. 12: "Giocare carte Gloria", "Specialisti";
"Carte Gloria in combattimento", p. 14; rules version 4 for the windows): played in
one's own turn (a specialist hired, or the card's effect), discarded over the hand
limit, and played in the windows below.

"The cards are played in the phase the card names, and in that phase the player
must declare that he wants to play one. If the opponent is another player (not an
NPC), he may declare a card playable in the same phase too. The cards resolve
starting with the attacker's. Then, if no new card playable in the same phase is
announced, the battle continues."

A **window** opens at the start of each player's turn (``turn_start``: the book's
"some cards are played during the opponents' turn ... announce it in the phase the
card names"; the players are asked and their cards resolve in turn order from the
player whose turn it is) and after each combat roll the phase names: ``naval_roll`` (the
Seamanship dice of a naval round, after the Grappling Hooks) and ``crew_roll``
(the Leadership dice of a crew-combat round, before the hits), when the game's
catalog has a card of that phase (the default catalog: ``crew_roll`` only). It
opens for every player side holding one to four glory cards, whatever they are:
how many glory cards a captain holds is public, which ones is not, and so is the
catalog, so being asked tells nobody anything (a window only for players holding a
playable card would).

* ``announce``: each side, the attacker first: ``{"action": "glory_announce"}`` or
  ``{"action": "glory_pass"}`` (the card is not shown). A side that passed is asked
  once more after the other announces (the book: the opponent "may then declare").
* ``resolve``: each side that announced, the attacker first, plays a card of the
  phase ``{"action": "glory_play", "card": G}`` (shown to all), or declines it,
  showing the card it meant (``{"action": "glory_decline", "card": G}``; the book's
  rule for cards announced in another player's turn). A side that declined is not
  asked again in this window (else a window could never close). With the option
  ``decline=once`` (the Portuguese book) a side declines once a player's turn: after
  that it plays what it announces, and announces only holding a card of the phase.
* then a new announcement round, until nobody announces.

Card effects (``effects.py``) in a combat phase: ``reroll_dice`` (``whose``:
``own``, ``foe`` or ``any``; the card's player picks the dice of each side to roll
again: ``{"action": "glory_reroll", "dice": [i, ...]}``, ``[]`` for none) and
``copy_card`` (Fast Learner: the text of the glory card played last, as if it were
this card's); any other word runs as in the player's own turn.
"""

from __future__ import annotations

from itertools import combinations

from .abilities import may_hire
from .catalog import tables
from .effects import COMBAT_TIMINGS as COMBAT_PHASES, run
from .state import END_TURN, funds, glory_window, pay, player, side_key

TYPE_CHECKING = False   # (the imports below are the type checker's: none at run time)
if TYPE_CHECKING:
    from service.kernel.events import Ev
    from service.kernel.machine import Step
    from typing import Any
    from .shapes import Decision, Outcome, Player, State, Who, Window

    # the open window: the decisions and events of this module are taken in one (a caller
    # that may find none asks ``is None``); the state's ``glory_window`` at run time
    def window(state: State) -> Window: ...
else:
    window = glory_window


def waiting(state: State) -> tuple[str | None, Who | None]:
    """(stage, seat) of the open window."""
    w = window(state)
    if w is None:
        return None, None
    if w["phase"] in COMBAT_PHASES:
        return state["combat"]["stage"], state["combat"]["waiting"]
    return w["stage"], w["waiting"]


def _wait(step: Step, phase: str, seat: int, stage: str) -> None:
    if phase in COMBAT_PHASES:
        step.emit("CombatWaiting", {"seat": seat, "stage": stage})
    else:
        step.emit("GloryWaiting", {"seat": seat, "stage": stage})


# one's own turn -------------------------------------------------------------------

def glory_plays(state: State, p: Player, S: dict[str, Any] | None = None) -> list[Decision]:
    """``S``: the state's tables (``tables(state)``), when the caller has read them.
    The book: "Specialisti", p. 12."""
    if not p["hand"]:
        return []
    glory = (S or tables(state))["glory"]
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


def do_play_own(step: Step, seat: int, d: dict[str, Any]) -> Outcome:
    """A glory card played in one's own turn: a specialist hired, or the card's effect.
    The book: "Giocare carte Gloria", p. 12."""
    g = tables(step.state)["glory"][d["card"]]
    effect = g.get("effect", "none")
    if effect == "none":
        step.emit("GloryCardPlayed", {"seat": seat, "card": d["card"], "name": g["name"], "kind": g["kind"],
                  "specialist": g["specialist"] if g["kind"] == "specialist" else None,
                  "cost": g["hire_cost"] if g["kind"] == "specialist" else 0, "effect": "none",
                  "note": "provisional: the card's text is not known; no effect beyond "
                       + ("hiring the specialist" if g["kind"] == "specialist" else "discarding it")})
        return None
    step.emit("GloryCardPlayed", {"seat": seat, "card": d["card"], "name": g["name"], "kind": g["kind"],
              "specialist": g["specialist"] if g["kind"] == "specialist" else None,
              "cost": g["hire_cost"] if g["kind"] == "specialist" else 0, "effect": effect["timing"]})
    return run(step, effect["steps"], seat, d["card"])


def do_discard(step: Step, seat: int, d: dict[str, Any]) -> None:
    """Over the hand limit (the book: five glory cards), one is discarded first."""
    step.emit("GloryCardDiscarded", {"seat": seat, "card": d["card"]}, vis=[seat])
    step.emit("GloryHandTrimmed", {"seat": seat, "hand": len(player(step.state, seat)["hand"])})


# the windows -----------------------------------------------------------------------

def is_copy(g: dict[str, Any]) -> bool:
    effect = g.get("effect", "none")
    return effect != "none" and any(s["do"] == "copy_card" for s in effect["steps"])


def copied(state: State, g: dict[str, Any]) -> Any:
    """The effect a glory card does: its own, or (``copy_card``) the last one played's."""
    if not is_copy(g):
        return g.get("effect", "none")
    last = state.get("last_glory")
    return tables(state)["glory"][last].get("effect", "none") if last else "none"


def playable(state: State, p: Player, phase: str) -> list[str]:
    """The cards of ``p``'s hand that act in ``phase``."""
    S = tables(state)
    out = []
    for c in sorted(p["hand"]):
        effect = copied(state, S["glory"][c])
        if effect != "none" and effect["timing"] == phase:
            out.append(c)
    return out


def eligible(state: State, phase: str) -> list[int]:
    """The players asked, in the order their cards resolve: in a fight the attacker, then
    the defender (an NPC plays no card); at the start of a turn every player from the one
    whose turn it is, in turn order. One to four glory cards in hand, and not declined in
    this window. Nobody is asked in a phase no card of the game's catalog names (the
    catalog is public)."""
    S = tables(state)                            # (read once: the phases, then the hand limit)
    if not state.get("glory_windows") or phase not in S["glory_phases"]:
        return []
    if phase in COMBAT_PHASES:
        c = state["combat"]
        seats = [w for w in (c["a"], c["d"]) if not isinstance(w, str)]
    else:
        order, cur = state["order"], state["cur"]
        seats = order[cur:] + order[:cur]
    limit = S["rules"]["glory_hand_limit"]
    w = window(state)
    declined = w["declined"] if w else []
    return [s for s in seats if 1 <= len(state["players"][s - 1]["hand"]) <= limit
            and state["players"][s - 1]["captain"] is not None and s not in declined]


def open_window(step: Step, phase: str) -> bool:
    """A window of ``phase``; False when nobody is asked (go on at once).
    The book: "Carte Gloria in combattimento", p. 14."""
    seats = eligible(step.state, phase)
    if not seats:
        if window(step.state) is not None:
            step.emit("GloryWindowClosed", {"phase": phase})
        return False
    step.emit("GloryWindowOpened", {"phase": phase, "seats": seats})
    _wait(step, phase, seats[0], "glory_announce")
    return True


def legal(state: State, seat: int) -> list[Decision]:
    w = window(state)
    st, who = waiting(state)
    if who != seat:
        return []
    p = state["players"][seat - 1]
    if st == "glory_announce":
        if declined_this_turn(state, seat) and not playable(state, p, w["phase"]):
            return [{"action": "glory_pass"}]     # it could only decline again
        return [{"action": "glory_announce"}, {"action": "glory_pass"}]
    if st == "glory_resolve":
        plays = [{"action": "glory_play", "card": g} for g in playable(state, p, w["phase"])]
        if plays and declined_this_turn(state, seat):
            return plays
        return plays + [{"action": "glory_decline", "card": g} for g in sorted(p["hand"])]
    if st == "glory_reroll":
        c = state["combat"]
        n = len(c["dice"][side_key(c, w["reroll"][0])])
        return [{"action": "glory_reroll", "dice": list(s)} for k in range(n + 1) for s in combinations(range(n), k)]
    return []


def declined_this_turn(state: State, seat: int) -> bool:
    """Option ``decline=once`` (the Portuguese book: "Um jogador pode recusar jogar a carta
    anunciada dele uma vez no turno"): ``seat`` has declined an announced card in this
    player's turn already, so it must play what it announces (and announces only with a
    card of the phase). The Italian book (the default) sets no limit."""
    if not state.get("decline_once"):
        return False
    d = state.get("declines")
    return d is not None and d["turn"] == [state["turn"], state["cur"]] and seat in d["seats"]


def _next(step: Step) -> bool:
    """Ask the next player, resolve the next announced card, or start a new round;
    True while the window stays open."""
    w = window(step.state)
    answered = set(w["passed"]) | set(w["announced"])
    ask = [s for s in w["seats"] if s not in answered]
    if ask:
        _wait(step, w["phase"], ask[0], "glory_announce")
        return True
    todo = [s for s in w["seats"] if s in w["announced"] and s not in w["resolved"]]
    if todo:
        _wait(step, w["phase"], todo[0], "glory_resolve")
        return True
    if not w["announced"]:
        step.emit("GloryWindowClosed", {"phase": w["phase"]})
        return False
    return open_window(step, w["phase"])


def do_announce(step: Step, seat: int, d: dict[str, Any]) -> bool:
    step.emit("GloryAnnounced", {"seat": seat, "phase": window(step.state)["phase"]})
    return _next(step)


def do_pass(step: Step, seat: int, d: dict[str, Any]) -> bool:
    step.emit("GloryPassed", {"seat": seat, "phase": window(step.state)["phase"]})
    return _next(step)


def do_decline(step: Step, seat: int, d: dict[str, Any]) -> bool:
    step.emit("GloryDeclined", {"seat": seat, "card": d["card"], "name": tables(step.state)["glory"][d["card"]]["name"],
              "why": "an announced card not played is shown (the book)"})
    return _next(step)


def do_play(step: Step, seat: int, d: dict[str, Any]) -> bool | str:
    state = step.state
    S = tables(state)
    g = S["glory"][d["card"]]
    step.emit("GloryCardPlayed", {"seat": seat, "card": d["card"], "name": g["name"], "kind": g["kind"], "specialist": None, "cost": 0,
              "effect": window(state)["phase"], "copies": state.get("last_glory") if is_copy(g) else None})
    if run(step, g["effect"]["steps"], seat, d["card"]) == END_TURN:    # (a copy card: the copied card's steps)
        return END_TURN                         # the current player's captain died of it
    if window(state)["reroll"]:                 # a reroll_dice step: the dice are picked next
        _wait(step, window(state)["phase"], seat, "glory_reroll")
        return True
    step.emit("GloryResolved", {"seat": seat})
    return _next(step)


def do_reroll(step: Step, seat: int, d: dict[str, Any]) -> bool:
    state = step.state
    c = state["combat"]
    w = window(state)
    whose = w["reroll"][0]
    dice = list(c["dice"][side_key(c, whose)])
    if d["dice"]:
        S = tables(state)
        new = step.roll(S["die_sides"], len(d["dice"]), vis="all", why=f"seat {seat}'s glory card: "
                        f"{'its own' if whose == seat else 'the other side’s'} dice rolled again",
                        faces={"skull": S["die_sides"]})
        for i, v in zip(d["dice"], new):
            dice[i] = v
    step.emit("GloryDiceRerolled", {"seat": seat, "side": whose, "which": list(d["dice"]), "dice": dice})
    if w["reroll"]:                      # (the side just rolled is off the list)
        _wait(step, w["phase"], seat, "glory_reroll")
        return True
    step.emit("GloryResolved", {"seat": seat})
    return _next(step)


OWN_TURN = {"play_glory": do_play_own, "discard_glory": do_discard}
HANDLERS = {"glory_announce": do_announce, "glory_pass": do_pass, "glory_play": do_play,
            "glory_decline": do_decline, "glory_reroll": do_reroll}

# the events ---------------------------------------------------------------------------

def _glory_discarded(state: State, d: dict[str, Any], ev: Ev) -> None:
    player(state, d["seat"])["hand"].remove(d["card"])
    state["decks"]["glory_discard"].append(d["card"])


def _glory_played(state: State, d: dict[str, Any], ev: Ev) -> None:
    p = player(state, d["seat"])
    p["hand"].remove(d["card"])
    if d.get("specialist"):
        p["specialists"].append(d["card"])
    else:
        state["decks"]["glory_discard"].append(d["card"])
    if d.get("cost"):
        pay(state, p, d["cost"])
    if d.get("effect", "none") != "none" and not d.get("copies"):
        state["last_glory"] = d["card"]     # the text a Fast Learner copies


def _window_opened(state: State, d: dict[str, Any], ev: Ev) -> None:
    w = window(state)
    new: Window = {"phase": d["phase"], "seats": list(d["seats"]), "passed": [], "announced": [], "reasked": [],
           "resolved": [], "reroll": [], "declined": list(w["declined"]) if w else []}
    if d["phase"] in COMBAT_PHASES:
        state["combat"]["window"] = new
    else:
        new["stage"], new["waiting"] = None, None
        state["turn_window"] = new


def _glory_waiting(state: State, d: dict[str, Any], ev: Ev) -> None:
    w = state["turn_window"]
    w["waiting"], w["stage"] = d["seat"], d["stage"]


def _glory_announced(state: State, d: dict[str, Any], ev: Ev) -> None:
    w = window(state)
    w["announced"].append(d["seat"])
    for s in list(w["passed"]):          # a side that passed may answer the announcement
        if s not in w["reasked"]:
            w["passed"].remove(s)
            w["reasked"].append(s)


def _glory_passed(state: State, d: dict[str, Any], ev: Ev) -> None:
    window(state)["passed"].append(d["seat"])


def _glory_declined(state: State, d: dict[str, Any], ev: Ev) -> None:
    w = window(state)
    w["resolved"].append(d["seat"])
    w["declined"].append(d["seat"])
    if state.get("decline_once"):       # counted for the player's turn (``declined_this_turn``)
        turn = [state["turn"], state["cur"]]
        declines = state.get("declines")
        if declines is None or declines["turn"] != turn:
            state["declines"] = {"turn": turn, "seats": []}
        state["declines"]["seats"].append(d["seat"])


def _glory_reroll_begun(state: State, d: dict[str, Any], ev: Ev) -> None:
    window(state)["reroll"] = list(d["sides"])


def _glory_rerolled(state: State, d: dict[str, Any], ev: Ev) -> None:
    c = state["combat"]
    c["dice"][side_key(c, d["side"])] = list(d["dice"])
    c["window"]["reroll"].pop(0)


def _glory_resolved(state: State, d: dict[str, Any], ev: Ev) -> None:
    window(state)["resolved"].append(d["seat"])


def _window_closed(state: State, d: dict[str, Any], ev: Ev) -> None:
    if d["phase"] in COMBAT_PHASES:
        state["combat"]["window"] = None  # type: ignore[typeddict-item]  # (None: it is over; shapes.py)
    else:
        state["turn_window"] = None  # type: ignore[typeddict-item]  # (None: it is over; shapes.py)


APPLY = {
    "GloryCardDiscarded": _glory_discarded,
    "GloryCardPlayed": _glory_played,
    "GloryWindowOpened": _window_opened,
    "GloryWaiting": _glory_waiting,
    "GloryAnnounced": _glory_announced,
    "GloryPassed": _glory_passed,
    "GloryDeclined": _glory_declined,
    "GloryRerollBegun": _glory_reroll_begun,
    "GloryDiceRerolled": _glory_rerolled,
    "GloryResolved": _glory_resolved,
    "GloryWindowClosed": _window_closed,
}
