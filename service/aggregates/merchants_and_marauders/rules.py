"""Merchants & Marauders (Marcussen & Aagaard): the rules' entry, the decider the kernel
calls (``RULES``): who acts, the decisions each seat may take now (``legal``), and
``decide``, which hands a decision to the module that handles it (one table of actions)
and then does what that module hands back (``flow.carry_on``). The book's sections are
in the modules that implement them; the package's text lists them.

Decisions (JSON objects, exactly as ``legal`` lists them):

* set-up and new captains: ``{"action": "choose_ship", "ship": "sloop"|"flute"}`` (secret);
* actions (3 a turn): ``{"action": "move", "to": "<zone>"}``, ``{"action": "enter_port"}``,
  ``{"action": "leave_port"}``, ``{"action": "port"}`` (the port action, once a turn);
* in the port action: ``sell`` (``good``, ``count``; first), ``buy_goods`` then ``buy``
  (``card``) ... ``end_buy``; ``shipyard`` then ``repair`` (``location``), ``buy_upgrade``,
  ``buy_weapon``/``sell_weapon`` (``kind``), ``buy_ship`` (``ship``) ... ``end_shipyard``;
  ``recruit`` (then ``hire_crew`` ... ``end_recruit`` if the Leadership test fails);
  ``rumor``; ``claim_mission`` (``mission``); ``stash`` (``amount``, home port) ... ``end_stash``;
  ``end_port``;
* any time on your turn: ``withdraw`` (``amount``, home port), ``play_glory`` (``card``),
  ``discard_cargo`` (``card``, in port over the cargo limit), ``end_turn``;
  ``retire`` (in port, before any action);
* at sea: ``scout`` (``target``: ``merchant``, ``player`` with ``seat``, ``npc`` with
  ``npc``); ``follow_rumor``, ``complete_mission`` (also port activities);
* in a raid (raid.py), a fight (combat.py, boarding.py) and a glory window (glory.py):
  the decisions their texts list;
* when due: ``discard_glory`` (``card``, five glory cards), ``place_upgrade`` (``port``,
  tiles of a sold or lost ship), ``keep_rumor`` (``card``), ``redraw_captain``.

``stash`` and ``withdraw`` take an ``amount`` of 1, 5, 10 or everything (``legal`` lists
exactly these); repeated decisions reach any sum: the Stash activity stays open until
``end_stash``, and withdrawing is free at the home port.
"""

from __future__ import annotations

from service.kernel import BadInput, IllegalDecision, Rules
from service.kernel.games import catalog_checks
from service.kernel.machine import strictly_equal

from . import catalog as catalog_data
from . import combat as combat_rules
from . import glory as glory_rules
from . import port as port_rules
from . import position as stated_position
from . import raid as raid_rules
from . import readings
from . import referee as referee_rules
from . import sailing
from . import scout as scout_rules
from . import setup as set_up
from . import tasks as task_rules
from .captains import redraw_captain
from .catalog import tables
from .derived import derived
from .evolve import HANDLERS
from .flow import carry_on, check_victory, end_player_turn, resume, start_round, turn_goes_on
from .glory import glory_plays
from .names import DECKS, for_config, for_state, printed
from .npc import may_redraw
from .port import amounts, legal_port, over_capacity
from .setup import ship_choices
from .state import END_TURN, at_home, current_seat, initial_state, player, stash_glory, total_glory
from .view import describe, say_event, view
from .words import said_with, say_decision
from .wanted import port_entries

TYPE_CHECKING = False   # (the imports below are the type checker's: none at run time)
if TYPE_CHECKING:
    from service.kernel.machine import Step
    from typing import Any
    from .shapes import Decision, Outcome, Player, State

AMOUNT_ACTIONS = ("stash", "withdraw")


def one_table(*parts: dict) -> dict:
    """The tables merged into one, refusing an action two of them name (no order of the
    tables decides which handler wins: there is only one)."""
    out: dict = {}
    for table in parts:
        twice = out.keys() & table.keys()
        if twice:
            raise RuntimeError(f"merchants-and-marauders: actions handled twice: {sorted(twice)}")
        out.update(table)
    return out


# the handlers of the modules' actions, one dict (an action is named by one module only)
ACTION_HANDLERS = one_table(task_rules.HANDLERS, combat_rules.HANDLERS, scout_rules.HANDLERS,
                            raid_rules.HANDLERS, port_rules.HANDLERS, sailing.HANDLERS, glory_rules.OWN_TURN,
                            {"redraw_captain": redraw_captain})



def _said(action: str) -> str:
    """An action in the game's words ("end the turn"), not its id, where its words need no field."""
    try:
        said = say_decision({}, {"action": action})
    except (KeyError, TypeError, ValueError):     # words that need the decision's fields: its name in words
        said = None
    if action in _ACTIONS or not isinstance(said, str) or "None" in said:
        return _ACTIONS.get(action, action.replace("_", " "))
    return said


_ACTIONS = {"glory_decline": "decline a glory card", "glory_play": "play a glory card", "scout": "scout",
            "buy": "buy a cargo card", "move": "sail", "combat_action": "shoot, board or escape",
            "place_hit": "place a hit", "raid_take": "take a cargo card", "raid_discard": "discard a cargo card",
            "raid_swap": "swap a cargo card"}


def _possible(legal: list[Decision]) -> str:
    """What is possible now, in words, one line a kind ("move", "end the turn")."""
    seen: dict[str, Decision] = {}
    for d in legal:
        seen.setdefault(d["action"], d)
    return "; ".join(_said(a) for a in sorted(seen)) or "nothing"


def _why_not(state: State, p: Any, decision: Decision) -> str | None:
    """The common refusals, in words: a scouting done, a glory card not announced."""
    action = decision["action"]
    if action == "scout":
        if p["in_port"]:
            return "you scout at sea: leave the port first"
        target = decision.get("target")
        key = {"merchant": "merchant", "player": f"seat:{decision.get('seat')}",
               "npc": f"npc:{decision.get('npc')}"}.get(target)  # type: ignore[arg-type]
        if key is not None and key in state.get("scouted", ()):
            return "you already scouted that ship this turn (each ship once a turn)"
        if state["actions"] <= 0:
            return "you have no action left this turn"
        return "there is nothing here to scout: no merchant, no other captain and no NPC in your sea zone"
    if action in ("glory_decline", "glory_play", "glory_reroll"):
        return ("no glory card is announced to you now: a glory card is declined or played when the game "
                "asks you, after one is announced")
    return None

class MerchantsAndMarauders(Rules):
    name = "merchants-and-marauders"
    title = "Merchants & Marauders"
    options_said = {"glory": "Glory points to win, 2 to 30 (default 10)",
                    # where the Italian and Portuguese books disagree: the other reading (readings.py)
                    **{key: readings.said(key) for key in readings.READINGS}}
    rules_version = "6"  # 2: at a table, face-down tiles and tokens are named only when turned over;
    # 3: glory cards and withdrawals after the last action, the three-card rule, St. John's transfer;
    # 4: glory cards played in combat and other players' turns, rumors followed and missions completed;
    # 5: a fight won earns glory, the NPC's controller is the next player, NPCs hunt players in port;
    # what the table sees (a cargo card bought, a card's gold loss), the first player's captain card;
    # 6: an NPC's hunting tie drawn among the tied players' captain cards, no draw among one card
    min_seats = 2
    max_seats = 4

    def __init__(self) -> None:
        # every action's handler, one table (``decide`` reads it for every action): the
        # decider's own actions, the modules', the ship choice and the glory windows' answers;
        # an action named twice is refused (``one_table``)
        own = {"retire": self._retire, "end_turn": self._end_turn, "choose_ship": self._choose_ship}
        self._actions = one_table(own, ACTION_HANDLERS, dict.fromkeys(glory_rules.HANDLERS, self._glory_window))

    def parse_options(self, seats: int, options: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in options.items():
            if key in readings.READINGS:
                out[key] = readings.parse(key, value)
                continue
            if key != "glory":
                raise BadInput(f"unknown option {key!r} (merchants-and-marauders takes glory=N and "
                               + ", ".join(f"{k}={'|'.join(readings.values(k))}" for k in readings.READINGS) + ")")
            try:
                n = int(value)
            except (TypeError, ValueError):
                raise BadInput(f"glory must be a whole number, not {value!r}") from None
            if not 2 <= n <= 30:
                raise BadInput("glory (points to win) must be from 2 to 30")
            out["glory"] = n
        return out

    shared_catalog = True  # only ``register`` reads it (the tables are derived from it once)

    # the catalog's checks (a pydantic schema, ~0.1 s to import) are loaded through the registry
    # when a catalog is checked, a new game's: a stored game's replay, status or legal list
    # reads the catalog its creation recorded and never loads them
    def catalog(self, options: dict[str, Any]) -> dict[str, Any]:
        return catalog_checks(self.name).default_catalog()

    def validate_catalog(self, cat: dict[str, Any]) -> dict[str, Any]:
        """``tools new merchants-and-marauders --catalog FILE``: printed values and card
        effects in the vocabulary of ``effects.py`` (an unknown word is refused)."""
        return catalog_checks(self.name).validate(cat)

    initial_state = staticmethod(initial_state)

    def restored(self, config: dict[str, Any], state: State) -> None:
        """A snapshot whose catalog tables are not today's (an older build's) is
        refused (``TablesChanged``, a ValueError: whoever restores a snapshot treats it
        as unusable) and the game is folded from its events instead."""
        if state.get("cat") != catalog_data.register(config["catalog"]):
            raise catalog_data.TablesChanged("catalog tables changed")

    handlers = HANDLERS  # evolve as a table: the kernel calls each event's handler straight

    # who acts ---------------------------------------------------------------
    def to_act(self, state: State) -> list[int]:
        phase = state["phase"]
        if phase == "setup":
            return [p["seat"] for p in state["players"] if "choose_ship" in p["pending"]]
        if state.get("combat") is not None:          # a fight: the seat it waits for (an NPC's controller)
            return [combat_rules.acting_seat(state)]
        if state.get("turn_window") is not None:     # glory cards at the start of a turn
            return [glory_rules.waiting(state)[1]]  # type: ignore[list-item]  # (a window open: a seat)
        seat = current_seat(state)
        return [seat] if seat is not None else []

    def legal(self, state: State, seat: int) -> list[Decision]:
        phase = state["phase"]
        if phase == "setup":
            p = player(state, seat)
            return ship_choices(state) if "choose_ship" in p["pending"] else []
        if state.get("combat") is not None:
            return combat_rules.legal(state, seat)
        if state.get("turn_window") is not None:
            return glory_rules.legal(state, seat)
        if current_seat(state) != seat:
            return []
        p = state["players"][seat - 1]
        S = tables(state)
        if p["returning"]:
            upgrades = state["board"]["upgrades"]
            return [{"action": "place_upgrade", "port": z} for z in S["ports"] if upgrades[z] is None]
        hand = p["hand"]
        if hand and len(hand) > S["rules"]["glory_hand_limit"]:    # (most hands: empty, nothing read)
            return [{"action": "discard_glory", "card": c} for c in sorted(hand)]
        if p["pending"]:
            if "choose_ship" in p["pending"]:
                return ship_choices(state) + ([{"action": "redraw_captain"}] if may_redraw(state, p) else [])
            if "keep_rumor" in p["pending"]:
                return [{"action": "keep_rumor", "card": c} for c in sorted([p["rumor"], p["offered_rumor"]])]  # type: ignore[type-var]  # (both drawn)
        if state.get("raid") is not None:
            return raid_rules.legal(state, seat)
        port = state["port"]
        if port is not None:
            home = at_home(state, p, S)     # read once for the port's menu and the withdrawals
            out = legal_port(state, seat, home, S)
            if port["act"] is None:
                out += self._anytime(state, p, home, S)
            return out
        if state["actions"] <= 0:
            out = []
        elif p["in_port"]:
            if over_capacity(state, p):
                out = [{"action": "discard_cargo", "card": c} for c in sorted(p["cargo"])]
            else:
                out = [{"action": "leave_port"}]
            if not state["port_used"]:
                out.append({"action": "port"})
            if not state["acted"] and state["actions"] == S["rules"]["actions"]:
                out.append({"action": "retire"})
        else:
            zone = p["zone"]
            out = []                # (a loop: a comprehension is one more call, for a few zones)
            for z in derived(state)["neighbours"][zone]:
                out.append({"action": "move", "to": z})
            if S["zones"][zone]["port"]:
                out += port_entries(state, p, S)
            out += scout_rules.sea_actions(state, p)
            if task_rules.has_task(p):   # (asked first: most captains have none, and the call is saved)
                out += task_rules.sea_actions(state, p)
        out += self._anytime(state, p, S=S)
        out.append({"action": "end_turn"})
        return out

    def _anytime(self, state: State, p: Player, home: bool | None = None, S: dict[str, Any] | None = None) -> list[Decision]:
        """``home``: ``at_home``, when the caller has read it; ``S``: the tables, likewise."""
        if home is None:
            home = p["in_port"] and at_home(state, p, S)
        out = []                    # (a loop: a comprehension is one more call, for a few amounts)
        if home:
            for a in amounts(p["stash"]):
                out.append({"action": "withdraw", "amount": a})
        if p["hand"]:
            out += glory_plays(state, p, S)
        return out

    def card_names(self, state: State, deck: str) -> dict[str, str] | None:
        """Cards and tiles as printed: a good, a tile's kind, a nation, a name."""
        S = tables(state)
        if deck == "cargo":
            return dict(S["good"])
        if deck in ("demand_tiles", "demand_reserve"):
            return dict(S["demand"])
        if deck == "upgrades":
            return dict(S["upgrade_name"])
        if deck in ("merchant_tokens", "merchant_track"):
            return dict(S["merchant"])
        table = {"captains": S["captains"], "first_player": S["captains"], "hunt_tie": S["captains"], "glory": S["glory"], "events": S["events"], "rumors": S["rumors"],
                 "missions": S["missions"]}.get(deck)
        if table:
            return {k: v["name"] for k, v in table.items() if isinstance(v, dict) and v.get("name")}
        return None

    def printed_name(self, name: str) -> str:
        """A card the catalog names only by its number, as one: "captain card 6" (names.printed)."""
        return printed(name)

    def say_text(self, config: dict[str, Any] | None, line: str) -> str:
        return for_config(config).text(line)

    def say_deck(self, config: dict[str, Any] | None, deck: str) -> str:
        return DECKS[deck][0] if deck in DECKS else super().say_deck(config, deck)

    def card_marks(self, state: State, deck: str) -> dict[str, Any] | None:
        """Copies of one printed name that differ (the three Dutch Naval Ships: their
        admirals, entry zones and icons; rum cards of other raid values or icons): what tells
        each apart (catalog.py, ``marks``)."""
        return tables(state)["marks"].get(deck) or None

    def copies(self, config: dict[str, Any]) -> dict[str, Any]:
        """Cards and tiles with one face: two Carpenters, three cocoa demand tiles (catalog.py)."""
        cat = config.get("catalog")  # (none in a search's playout machine, which nobody reads)
        return catalog_data.copies(cat, config.get("catalog_digest")) if cat else {}

    def card_aliases(self, state: State, deck: str) -> dict[str, list[str]] | None:
        """An upgrade tile is also named by its kind's word (``long_range`` for Long Guns)."""
        if deck == "upgrades":
            S = tables(state)
            return {t: [kind, kind.replace("_", " ")] for t, kind in S["upgrade"].items()}
        return None

    # the steps --------------------------------------------------------------
    def setup(self, step: Step) -> None:
        if step.state.get("position") is not None:     # a game from a stated position (position.py)
            stated_position.lay(step)
        else:
            set_up.setup(step)

    def position(self, config: dict[str, Any], position: dict[str, Any]) -> dict[str, Any]:
        """A stated position checked and normalised (position.py, docs/positions.md)."""
        return stated_position.normalise(config, position)

    def decide(self, step: Step, seat: int, decision: Decision) -> None:
        state = step.state
        if not step.checked:
            self._check(state, seat, decision)
        outcome = self._actions[decision["action"]](step, seat, decision)
        if outcome is not None:             # (most decisions hand nothing back: no call)
            carry_on(step, outcome)
        if state["phase"] == "play":
            check_victory(step)
            if current_seat(state) == seat:
                resume(step, seat)

    def _check(self, state: State, seat: int, decision: Decision) -> None:
        if not isinstance(decision.get("action"), str):
            raise IllegalDecision('a decision needs an "action" (see the legal decisions)')
        legal = self.legal(state, seat)
        if not any(d == decision and strictly_equal(d, decision) for d in legal):   # 5.0, True: not 5, 1
            raise IllegalDecision(self._explain(state, seat, decision, legal))

    def _explain(self, state: State, seat: int, decision: Decision, legal: list[Decision]) -> str:
        action = decision["action"]
        if state["phase"] == "over":
            return "the game is over"
        p = player(state, seat)
        names = sorted({d["action"] for d in legal})
        if p["returning"]:
            return "first place the upgrade tiles of your old ship face down in ports without a tile"
        if len(p["hand"]) > tables(state)["rules"]["glory_hand_limit"]:
            return "you hold five glory cards: discard one before anything else (the book: no card may be played with five)"
        if "choose_ship" in p["pending"]:
            return "choose your ship first: a sloop or a flute"
        if action not in names:
            why = _why_not(state, p, decision)
            if why:
                return why
            reasons = {
                "move": "you can move only at sea with an action left (leave the port first)",
                "enter_port": "you can enter a port only from its sea zone, with an action left",
                "leave_port": ("you carry more cargo cards than your ship's Cargo: discard before leaving port"
                               if p["in_port"] and p["ship"] and over_capacity(state, p)
                               else "you are not in a port, or have no action left"),
                "port": "the port action is taken once a turn, in a port, with an action left",
                "sell": "selling must be the first port activity, and ends when the demand tile is replaced",
                "buy": "that card is not offered to you, or you cannot pay its price",
                "retire": "you retire in a port at the start of your turn, before any action",
                "stash": "gold is stashed in one Stash activity per port action, at your captain's home port",
                "withdraw": "you take gold from your stash only in your home port",
                "buy_ship": "you cannot pay for that ship (the Man-o-War is not for sale)",
                "buy_upgrade": "this port has no upgrade tile for you (or you already have one of its kind)",
            }
            return reasons.get(action, f"{_said(action)} is not possible now (possible: {_possible(legal)})")
        if action in AMOUNT_ACTIONS:
            return (f"{action} takes one of the amounts 1, 5, 10 or everything you have "
                    f"(repeat it for other sums): possible now {sorted(d['amount'] for d in legal if d['action'] == action)}")
        N = for_state(state)
        try:
            said = said_with(N, decision)
        except (KeyError, TypeError, ValueError):      # a decision missing a field its words need: which one?
            which = [said_with(N, d) for d in legal if d["action"] == action]
            return f"{_said(action)}: say which (possible now: {'; '.join(which)})"
        return f"not possible now: {said} (possible: {_possible(legal)})"

    def _glory_window(self, step: Step, seat: int, decision: Decision) -> Outcome:
        """An answer in a glory window; when it closes, the fight or the turn goes on."""
        state = step.state
        phase = glory_rules.window(state)["phase"]
        still_open = glory_rules.HANDLERS[decision["action"]](step, seat, decision)
        if still_open == END_TURN:                  # a card killed the current player's captain
            return END_TURN
        if still_open:
            return None
        if phase in glory_rules.COMBAT_PHASES:      # the window closed: the fight goes on
            return combat_rules.after_window(step, phase)
        turn_goes_on(step, current_seat(state))  # type: ignore[arg-type]  # or the turn (in play: a seat)
        return None

    # set-up and new captains -----------------------------------------------------
    def _choose_ship(self, step: Step, seat: int, decision: Decision) -> None:
        if set_up.choose_ship(step, seat, decision):     # every ship chosen: the first turn
            start_round(step)

    # actions ------------------------------------------------------------------------
    def _retire(self, step: Step, seat: int, d: dict[str, Any]) -> None:
        step.emit("CaptainRetired", {"seat": seat, "captain": player(step.state, seat)["captain"]})
        end_player_turn(step, seat)

    def _end_turn(self, step: Step, seat: int, d: dict[str, Any]) -> None:
        end_player_turn(step, seat)

    # the referee ------------------------------------------------------------------------
    def referee(self, step: Step, decision: Decision) -> None:
        """An NPC's move overruled where the printed board differs (referee.py)."""
        referee_rules.referee(step, decision)

    def referee_legal(self, state: State) -> list[dict[str, Any]]:
        return referee_rules.referee_legal(state)

    # end ----------------------------------------------------------------------------
    def finished(self, state: State) -> bool:
        return state["phase"] == "over"

    def outcome(self, state: State) -> dict[str, Any]:
        players = state["players"]
        total = {p["seat"]: total_glory(state, p) for p in players}
        coins = {p["seat"]: p["gold"] + p["stash"] for p in players}
        # the second tie-break: the coins (IT), or the gold stashed (PT; option tie_break=hidden_gold)
        second = ({p["seat"]: p["stash"] for p in players} if readings.reading(state, "tie_break") == "hidden_gold"
                  else coins)
        track = {p["seat"]: p["glory"] for p in players}
        # after a declaration: the seats at or above the target (a declarer may
        # have taken stashed gold back aboard since); otherwise the most glory
        cands = [s for s in total if total[s] >= state["target"]] if state["end_reason"] == "glory" else []
        if not cands:
            best = max(total.values())
            cands = [s for s in total if total[s] == best]
        for key in (track, second):
            best = max(key[s] for s in cands)
            cands = [s for s in cands if key[s] == best]
        return {"scores": {str(s): v for s, v in total.items()}, "winners": sorted(cands),
                "glory_track": {str(s): v for s, v in track.items()},
                "stash_glory": {str(p["seat"]): stash_glory(state, p) for p in players},
                "coins": {str(s): v for s, v in coins.items()}, "end": state["end_reason"]}

    view = staticmethod(view)
    describe = staticmethod(describe)
    say_event = staticmethod(say_event)


RULES = MerchantsAndMarauders()
