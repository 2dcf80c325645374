"""The Kaiser's Pirates (James M. Day): the decider, 2 to 4 players playing
individually (rulebook sections 1-3), or 4 in two teams (section 4, ``team.py``).

Decisions (JSON objects, exactly as ``legal`` lists them):

* commit phase (3.2): one card face down at a time, then ``{"action": "done"}``:
  ``{"action": "commit", "card": C, "use": "intercept", "ship": S|null}`` (on the
  German ship that will intercept a merchant, or ``null``: before the force, for a
  British intercept), ``{"action": "commit", "card": C, "use": "action", "ship": S}``
  (Lay Mines, on a minelaying raider), ``{"action": "commit", "card": C, "use":
  "action"}`` (any other action side);
* resolve phase (3.2.8), the committed cards in any order:
  ``{"action": "intercept", "card": C, "ship": S, "target": M}`` (a German ship
  on a merchant), ``{"action": "intercept", "card": C, "target": T}`` (British
  forces on a warship, recognised raider or prize), ``{"action": "lay_mines",
  "card": C, "ship": S, "opponent": O}``, ``{"action": "torpedo", "card": C,
  "target": M}``, ``{"action": "sub_mines", "card": C, "opponent": O}``,
  ``{"action": "interrogate", "card": C, "target": T}``, ``{"action":
  "monitor", "card": C, "target": T}``, ``{"action": "play", "card": C, ...}``
  (other action sides), ``{"action": "refuge", "ship": S, "try":
  "supply"|"repair"}``, ``{"action": "leave_refuge", "ship": S}``,
  ``{"action": "end_turn"}``;
* windows: the attacker's ``{"action": "assist", "card": C[, "target": M]}`` /
  ``{"action": "proceed"}``; the defender's ``{"action": "react", "card": C,
  ...}`` / ``{"action": "decline"}``; ``{"action": "mine_target", "target": M}``;
  ``{"action": "stack", "order": [...]}`` (Intelligence); ``{"action": "passage",
  "attempt": true|false}`` (the owner of a merchant or prize that survived an
  intercept, 3.2.6); ``{"action": "discard", "card": C}`` (3.1.5: the next card
  put face up on the discard pile, when two or more wait); ``{"action": "keep",
  "ship": S|null}`` between rounds; ``{"action": "react", "card": C, "ship": S}`` /
  ``{"action": "decline"}`` (Reflag against Interned / Transfer Command);
* the team game: ``{"action": "give", "card": C}`` / ``{"action": "give_done"}``
  (Exchange Information), ``{"action": "transfer", "ships": [...]}`` (a double
  Breakout), ``{"action": "leave_refuge", "ship": S, "to": PARTNER}``;
* the referee (``referee``): ``{"referee": "penalty", "seat": N, "card": C}`` (3.1.5).

Decisions are compared with the listed ones types included (``machine.strictly_equal``: 0 is not false).
"""

from __future__ import annotations

from service.kernel import BadInput, IllegalDecision, Rules
from service.kernel.machine import strictly_equal

from . import actions, combat, deal, flow, hits, optional, penalty, resolve, solitaire, state, team, windows
from . import position as stated_position
from . import catalog as catalog_data
from .board import PHANTOM, commit_options, fogged, ix, owner
from .standing import standing
from .state import initial_state, player
from .view import describe, view
from .words import deck_said

TYPE_CHECKING = False  # mypy takes the name as true; typing is not imported at run time
if TYPE_CHECKING:
    from typing import Any

    from service.kernel.machine import Step

    from .shapes import State

COMBAT_ACTIONS = frozenset({"intercept", "lay_mines", "torpedo", "sub_mines", "interrogate", "monitor"})
# the windows other modules answer (every other window is an attack's: combat.py); the
# defender's reactions are listed straight away (the most frequent window)
WINDOW_OPTIONS = {"keep": flow.keep_options, "stack": actions.stack_options, "discard": flow.discard_options,
                  "reflag_card": actions.reflag_card_options, **dict.fromkeys(team.WINDOWS, team.options),
                  "react": windows.reaction_options, "after": windows.after_options}
WINDOW_DECIDE = {"keep": flow.keep, "stack": actions.stack, "discard": flow.discard,
                 "reflag_card": actions.reflag_card, "exchange": team.decide, "breakout_split": team.decide,
                 "team_keep": flow.team_keep}
# the active player's decisions in its turn, by action (no window open)
TURN_DECIDE = {"commit": flow.commit, "done": flow.done_committing, **dict.fromkeys(COMBAT_ACTIONS, combat.announce),
               "play": actions.play, "refuge": actions.refuge, "leave_refuge": actions.refuge,
               "end_turn": flow.end_turn, "resupply": actions.resupply}
# sections 1-3 options, the team game (4), solitaire (5) and the optional rules (6, optional.py)
OPTIONS = {
    "removed": "action cards set aside secretly each round (2.1.4; default 60/40/20 for 2/3/4 players)",
    "first_player": "round 1: 'roll' (each rolls a d10) or 'fewest-ship-vp' (3.1's alternative)",
    "team": "'true': the team game for 4 players, seats 1+3 against 2+4 (section 4)",
    "solitaire": "'true' (implied by --seats 1): one player against the phantom player (section 5)",
    **optional.RULES,
}


def _one_table(*tables: dict[str, Any]) -> dict[str, Any]:
    """The modules' tables of event handlers as one (an event is applied in one place only)."""
    out: dict[str, Any] = {}
    for table in tables:
        twice = out.keys() & table.keys()
        if twice:
            raise RuntimeError(f"kaisers-pirates: events applied in two modules: {sorted(twice)}")
        out.update(table)
    return out


# how each event changes the state: each module applies the events it decides
HANDLERS = _one_table(state.HANDLERS, deal.HANDLERS, hits.HANDLERS, resolve.HANDLERS, combat.HANDLERS,
                      actions.HANDLERS, team.HANDLERS, solitaire.HANDLERS, penalty.HANDLERS, flow.HANDLERS,
                      stated_position.HANDLERS)


def play_phantom(step: Step) -> None:
    """The solitaire game (section 5): play for the phantom until the real player must
    act (or the game ends): its windows answered as ``solitaire.answer`` says, an
    attack carried on, its turn played (5.4.3) and then ended as any other (5.4.2)."""
    state = step.state
    for _ in range(100_000):
        if state["phase"] == "over":
            return
        w = state["window"]
        if w is not None:
            if w["seat"] != PHANTOM:
                return
            d = solitaire.answer(step, w)
            if d is not None:
                WINDOW_DECIDE.get(w["kind"], combat.window_decide)(step, PHANTOM, d)
            continue
        if state["eng"] is not None:
            combat.advance(step)
            continue
        if state["current"] == PHANTOM and state["phase"] in ("commit", "resolve"):
            if solitaire.turn_step(step) == "end_turn":
                flow.end_turn(step, PHANTOM)
            continue
        return
    raise RuntimeError("the phantom does not come to an end")


_VALIDATED: set[tuple[str, bool]] = set()
_IDLE = frozenset({"over", "setup", "dealing"})    # phases in which nobody acts
_TURN = frozenset({"commit", "resolve"})           # the active player's phases


# actions in words, for a refusal's "possible" (words.py says each decision whole)
_KP_ACTIONS = {"done": "done committing cards", "end_turn": "end the turn", "commit": "commit a card",
               "play": "play a committed card", "discard": "discard a card", "keep": "keep a card"}
_ANSWERS = {"react": "react", "decline": "decline", "stack": "stack", "assist": "assist", "proceed": "proceed",
            "passage": "safe passage"}


class KaisersPirates(Rules):
    name = "kaisers-pirates"
    title = "The Kaiser's Pirates"
    options_said = OPTIONS
    rules_version = "3"  # 2: team game, 3.1.5 penalty, Q-ship torpedo reading, Reflag windows; 3: issue 33 (the
    # phantom's glossary actions and Recalled, steps 9-10 "by" the phantom, section 6 in solitaire, windows skipped)
    min_seats = 1      # 1: the solitaire game (section 5, solitaire.py)
    max_seats = 4
    listed_first = frozenset({"done", "end_turn"})  # number 1 in every list they are in (Machine.offered)

    def parse_options(self, seats: int, options: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, v in options.items():
            if k not in OPTIONS:
                known = "; ".join(f"{n}: {d}" for n, d in OPTIONS.items())
                raise BadInput(f"kaisers-pirates: unknown option {k!r}. Known options: {known}")
            v = str(v).strip()
            if k in optional.RULES:
                optional.parse(seats, k, v, out)
            elif k == "solitaire":
                if v != "true" or seats != 1:
                    raise BadInput("option solitaire: the solitaire game is the game for one seat "
                                   "(--seats 1, section 5); it takes no other value")
            elif k == "removed":
                most = 100 - 6 * seats - 1 if seats > 1 else 100 - 12 - 12 - 1
                if not v.isdigit() or not 0 <= int(v) <= most:
                    raise BadInput(f"option removed must be a whole number from 0 to {most} for {seats} players")
                out[k] = int(v)
            elif k == "team":
                out[k] = team.parse(seats, v)
            elif k == "first_player":
                if v not in ("roll", "fewest-ship-vp"):
                    raise BadInput("option first_player must be 'roll' or 'fewest-ship-vp'")
                out[k] = v
        if seats == 1:
            if out.get("team"):
                raise BadInput("option team: the team game is for 4 players, not the solitaire game")
            out["solitaire"] = True
        optional.check_combination(seats, out)
        return out

    shared_catalog = True  # read only: by ``catalog_data.index`` (cached by key) and the solitaire deck

    def catalog(self, options: dict[str, Any]) -> dict[str, Any]:
        """The catalog a new game records in ``GameCreated``, with every data file its rules
        read: the solitaire deck (section 5) and, with a section 6 rule, its table."""
        cat = catalog_data.load()
        if options.get("solitaire"):
            cat["solitaire"] = catalog_data.solitaire_deck()
        if any(options.get(k) for k in optional.RULES):
            cat["optional_rules"] = catalog_data.optional_rules_table()
        return cat

    def say_deck(self, config: dict[str, Any] | None, deck: str) -> str:
        return deck_said(deck)

    def card_names(self, state: State, deck: str) -> dict[str, str] | None:
        """At a table, a card with named copies (U-27 and U-41, HMS Alcantara...) may be named
        by its type as printed (``submarines-u-27-u-41``, ``amc``): any copy left will do (the
        rules treat them alike, and nobody but the referee reads which: ``copies``).
        The other cards' ids already say their type (``reflag`` names any ``reflag-N``)."""
        if deck.startswith(("action", "hand-of-")):
            return ix(state).copy_types
        return None

    def copies(self, config: dict[str, Any]) -> dict[str, Any]:
        """The action cards of one type (Reflag, AMC...): the rules treat them alike."""
        cat = config.get("catalog")  # (none in a search's playout machine, which nobody reads)
        return catalog_data.index(cat, config.get("catalog_digest") or "default").copies if cat else {}

    def validate_catalog(self, cat: dict[str, Any]) -> dict[str, Any]:
        """``tools new kaisers-pirates --catalog FILE``: printed values (a 'solitaire' key: the solitaire deck)."""
        return catalog_data.validate(cat)

    def restored(self, config: dict[str, Any], state: State | None = None) -> None:
        """A state restored from a snapshot: index its catalog (it may be an organiser's file);
        a snapshot taken before the state said its rules version (``issue33``) says it now."""
        catalog_data.index(config["catalog"], config.get("catalog_digest") or "default")
        if state is not None and "issue33" not in state:
            state["issue33"] = int(config.get("rules_version", "1")) >= 3

    def initial_state(self, config: dict[str, Any]) -> State:
        cat = config["catalog"]
        key = config.get("catalog_digest") or "default"
        glossary = int(config.get("rules_version", "1")) >= 3      # (state.py's "issue33")
        if (key, glossary) not in _VALIDATED:   # a catalog is checked once a process (its digest names it)
            catalog_data.validate(cat, glossary)
            if config.get("catalog_digest"):
                _VALIDATED.add((key, glossary))
        i = catalog_data.index(cat, key)
        opts = config.get("options") or {}
        optional.check_catalog(dict(opts, _seats=config["seats"]), i)
        if opts.get("solitaire"):
            if "solitaire" not in cat:
                raise BadInput("kaisers-pirates: the solitaire game needs a catalog with the solitaire deck "
                               "(a 'solitaire' key, as data/solitaire.json)")
            state = initial_state(dict(config, seats=2), key, i)    # the phantom is the second player
            solitaire.prepare(state, cat)
        else:
            state = initial_state(config, key, i)
        optional.prepare(state, i)
        return state

    handlers = HANDLERS  # evolve as a table: the kernel calls each event's handler straight

    # who acts ---------------------------------------------------------------
    def to_act(self, state: State) -> list[int]:
        phase = state["phase"]
        if phase in _IDLE:
            return []
        w = state["window"]
        if w is not None:
            return [w["seat"]]
        if phase in _TURN:
            return [state["current"]]  # type: ignore[list-item]  # (set in a turn)
        return []

    def legal(self, state: State, seat: int) -> list[dict[str, Any]]:
        phase = state["phase"]
        w = state["window"]
        if phase in _IDLE:               # who acts: as ``to_act`` says, without a list to look in
            return []
        if w is not None:
            if w["seat"] != seat:
                return []
            return WINDOW_OPTIONS.get(w["kind"], windows.window_options)(state, seat)
        if phase not in _TURN or state["current"] != seat:
            return []
        if phase == "commit":
            out = commit_options(state, seat, state["players"][seat - 1]["hand"])
            out.append({"action": "done"})
        else:
            out = self._resolve_options(state, seat)
        if state["options"].get("prize_resupply"):
            out += optional.resupply_options(state, seat)
        return out

    def _resolve_options(self, state: State, seat: int) -> list[dict[str, Any]]:
        tt = state["tt"]
        if tt["fogged"] or tt["deceived"] == "ignored":
            # 3.3.14 no card at all; 3.3.10 the forced card was ignored
            return actions.refuge_options(state, seat) + [{"action": "end_turn"}]
        committed = tt["committed"]
        if committed:       # (the catalog is looked up only for cards to play: often none are left)
            out = combat.announce_options(state, seat)
            card_kind = ix(state).card_kind
            for c in committed:
                if c["use"] != "action" or card_kind[c["card"]] == "assist":
                    continue
                plays = actions.play_options(state, seat, c["card"])
                if tt["deceived"]:
                    # the forced card is played for an effect (3.3.10: no effect, ignored)
                    plays = [d for d in plays if actions.has_effect(state, seat, d)]
                out += plays
        else:
            out = []
        if tt["deceived"]:
            if out:
                return out + actions.refuge_options(state, seat)
            return actions.refuge_options(state, seat) + [{"action": "end_turn"}]
        # Recon Aircraft's cards may be brought into play this turn: those still in the hand
        # (one played since as a reaction has left it)
        if tt["extra"]:
            hand = state["players"][seat - 1]["hand"]
            out += commit_options(state, seat, [c for c in tt["extra"] if c in hand])
        # extended in place: no intermediate lists
        out += actions.refuge_options(state, seat)
        out.append({"action": "end_turn"})
        return out

    def position(self, config: dict[str, Any], position: dict[str, Any]) -> dict[str, Any]:
        """A stated position checked and normalised (position.py, docs/positions.md)."""
        return stated_position.normalise(config, position)

    # the steps ----------------------------------------------------------------
    def setup(self, step: Step) -> None:
        step.emit("GameStarted", {"seats": step.state["seats"], "deck": len(step.state["pool"])})
        if step.state.get("position") is not None:     # a game from a stated position
            stated_position.lay(step)
            if solitaire.on(step.state):
                play_phantom(step)                      # the phantom's turn, when the position gives it
            return
        flow.start_round(step, 1)
        if solitaire.on(step.state):
            play_phantom(step)

    def decide(self, step: Step, seat: int, decision: dict[str, Any]) -> None:
        state = step.state
        if not step.checked:
            legal = self.legal(state, seat)
            if not any(strictly_equal(decision, d) for d in legal):  # types too: 0 is not false
                try:
                    why = self._why(state, seat, decision, legal)
                except (TypeError, KeyError, ValueError, IndexError, AttributeError):
                    why = "not a legal decision now (wrong field or type; see the legal decisions)"
                raise IllegalDecision(why)
        w = state["window"]
        if w is not None:
            WINDOW_DECIDE.get(w["kind"], combat.window_decide)(step, seat, decision)
        else:
            act = TURN_DECIDE.get(decision["action"])
            if act is not None:
                act(step, seat, decision)
        if solitaire.on(state):
            play_phantom(step)           # the phantom plays until the real player must act

    def referee(self, step: Step, decision: dict[str, Any]) -> None:
        penalty.referee(step, decision)

    def referee_legal(self, state: State) -> list[dict[str, Any]]:
        return penalty.referee_legal(state)

    def _why(self, state: State, seat: int, d: dict[str, Any], legal: list[dict[str, Any]]) -> str:
        """A reason quoting the rule, for the common mistakes."""
        if not isinstance(d, dict) or "action" not in d:
            return 'a decision is a JSON object with an "action" (see legal decisions)'
        i = ix(state)
        a = d.get("action")
        card = d.get("card")
        w = state["window"]
        if card is not None and card not in i.card_type:
            return f"there is no action card {card!r}"
        if a == "react" and w is not None and w["kind"] == "react" and card in player(state, seat)["hand"]:
            return self._why_not_this_reaction(state, card)
        if w is not None:
            return f"seat {seat} must answer the open {w['kind']} window first"
        if state["phase"] == "commit" and a != "commit" and a != "done":
            return "first commit the cards for this turn face down, then say done (3.2)"
        if state["phase"] == "resolve" and a == "commit":
            return "the cards are committed: no card may be added from the hand now (3.2)"
        if card is not None and a != "commit" and card not in [c["card"] for c in state["tt"]["committed"]]:
            return f"{i.card_name[card]} is not committed face down this turn"
        if a in ("intercept", "lay_mines", "torpedo", "sub_mines") and state["tt"]["attack_on"] is not None:
            tgt = d.get("opponent")
            if tgt is None and d.get("target") is not None:
                tgt = owner(state, d["target"])
            if tgt is not None and tgt != state["tt"]["attack_on"]:
                return "all intercepts, mines and torpedoes of a turn go against one opponent (3.1.3)"
        if d.get("opponent") is not None:
            if fogged(state, d["opponent"]):
                return f"seat {d['opponent']} is in a fog bank: only Heavy Weather may be played against it"
        if a == "done" and state["phase"] == "resolve":
            return "committing is over this turn: the committed cards are played now (3.2)"
        if a in _ANSWERS and w is None:
            return f"no window is open for you: '{_ANSWERS[a]}' answers one the game opens (an attack, an assist)"
        kinds = sorted({str(x["action"]) for x in legal if isinstance(x.get("action"), str)})
        possible = "; ".join(_KP_ACTIONS.get(k, k.replace("_", " ")) for k in kinds) or "nothing"
        said = _KP_ACTIONS.get(str(a), str(a).replace("_", " "))
        return f"{said} is not possible now, with these cards and ships (possible: {possible})"

    def _why_not_this_reaction(self, state: State, card: str) -> str:
        """Why ``card``, held, is not a reaction to the current attack (3.3's limits)."""
        i = ix(state)
        t = i.tid(card)
        eng = state["eng"]
        if t in ("break-contact", "shallow-run", "fast-ship") and eng["night"]:
            return f"{i.card_name[card]} cannot be played against a night action"
        if t in ("break-contact", "shallow-run", "fast-ship") and eng["surprise"]:
            return f"{i.card_name[card]} cannot be played in response to Surprise Attack"
        if t == "fast-ship" and eng["kind"] == "intercept" and eng["ship"] and \
                i.ships[eng["ship"]]["kind"] == "warship":
            return "Fast Ship cannot be played against a warship"
        if t == "fast-ship" and state["status"][eng["targets"][eng["i"]]]["damaged"]:
            return "Fast Ship cannot be played by a damaged merchant"
        if t in ("break-contact", "shallow-run") and eng["kind"] in ("mines", "torpedo"):
            return f"{i.card_name[card]} cannot be played against torpedoes or mines"
        if t == "reflag" and eng["kind"] == "interrogate":
            return "Reflag cannot be played until the interrogation's intercept is resolved"
        return f"{i.card_name[card]} is not a reaction to this attack"

    # the end ----------------------------------------------------------------
    def finished(self, state: State) -> bool:
        return state["phase"] == "over"

    def outcome(self, state: State) -> dict[str, Any] | None:
        """The result at the end; before it, who leads (standing.py; None in the
        solitaire and the team game)."""
        if state["phase"] != "over":
            return standing(state)
        if solitaire.on(state):
            return solitaire.outcome(state["result"])
        return state["result"]

    view = staticmethod(view)
    describe = staticmethod(describe)


RULES = KaisersPirates()
