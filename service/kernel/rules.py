"""What a game must provide to the kernel (the decider); the registry of games is games.py.

A game is a package ``service/aggregates/<game>/`` exposing ``RULES``, an
instance of a ``Rules`` subclass. Its methods are pure: no I/O, no clock, no
global randomness. State is plain data (dict/list/str/int/bool/None, msgpack-
able); ``evolve`` may change it in place (the kernel copies when it needs to).

* ``initial_state(config)`` -> state before any step. ``config`` is the
  ``GameCreated`` data: ``seats``, ``options`` (parsed), ``catalog`` (the card
  data), ``table`` and more.
* ``setup(step)``: the system's step (seat 0, turn 0): deals, draws...
* ``decide(step, seat, decision)``: validate ``decision`` (a dict, exactly as
  ``legal`` lists it) and emit its consequences through ``step.emit`` and the
  chance methods ``step.roll/draw/pick/shuffle``. Raise ``IllegalDecision``
  with the rule's reason *before* emitting anything.
* ``referee(step, decision)``: a referee's step (seat 0 after the setup,
  ``{"referee": KIND, ...}``), e.g. a penalty the book names; refused by default.
* ``evolve(state, ev)``: apply one event (every event, kernel ones included;
  ignore the types you do not handle). No validation, no randomness. Or,
  instead, ``handlers``: ``evolve`` as a table, event type ->
  ``handler(state, data, ev)`` (a type without one changes nothing); the
  kernel then calls the handler straight for each event (``fold``).
* ``legal(state, seat)`` -> the decisions ``decide`` accepts now from ``seat``.
* ``to_act(state)`` -> seats that must act now (several for a simultaneous
  secret choice).
* ``turn(state)`` -> the current turn number (0 during setup).
* ``finished(state)``, ``outcome(state)`` -> ``{"scores": {seat: n}, "winners": [seats]}``
  (score keys are seat numbers as strings, for JSON).
* ``view(state, seat)`` -> the board as ``seat`` may see it (``None`` = referee).
* ``decision_visibility(state, seat, decision)`` -> who sees the ``Decided``
  event (default: only that seat).
* ``describe(ev)`` -> one readable line for the log.
* ``position(config, position)`` -> a stated position normalised (a game that
  starts mid-game, as a referee describes the table): refused by default.
* ``say_decision(config, decision)`` -> a decision in words, in the game's own
  terms (cards and ships by their printed names), for a person choosing it.
* ``say_event(config, ev)`` -> one of the game's events, or a draw, roll or shuffle the
  kernel recorded for it, in the game's own words (``None``: ``describe``, or for chance
  the kernel's wording); ``config`` may be ``None`` (a reader without the game's catalog).
"""

from __future__ import annotations

import json
from functools import cached_property
from importlib import import_module
from operator import itemgetter

from .chance import deck_said
from .errors import BadInput, IllegalDecision
from .sha import sha256

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any
    from .events import Ev, Vis

    # a step of service/kernel/machine.py (which imports this module): each game's rules name
    # ``machine.Step`` in their own methods
    Step = Any


class Rules:
    name = ""
    title = ""
    # the options its games take, each with a line for a person choosing them (the organiser's page)
    options_said: dict[str, str] = {}
    rules_version = "1"
    min_seats = 2
    max_seats = 2
    # the module whose ``BOTS`` (name -> chooser) are the game's bots: imported when they are
    # first asked for (``bots``), so that a replay or a status starts without them
    bots_module = ""

    @cached_property
    def bots(self) -> dict:
        return import_module(self.bots_module).BOTS if self.bots_module else {}

    # actions a person choosing finds first, whatever else is open (a phase's "done"): their
    # number stays the same from turn to turn, so a referee's hand learns it (``Machine.offered``)
    listed_first: frozenset[str] = frozenset()

    # configuration --------------------------------------------------------
    def parse_options(self, seats: int, options: dict[str, str]) -> dict:
        if options:
            raise BadInput(f"{self.name} takes no options (got {', '.join(options)})")
        return {}

    def catalog(self, options: dict) -> dict:
        return {}

    # True: ``catalog`` returns plain JSON data that nobody changes afterwards (the rules keep
    # it for the process) and ``initial_state`` only reads it: every game on the default
    # catalog is then given that very object, not a private copy (``kernel.local``)
    shared_catalog = False

    # the decider ----------------------------------------------------------
    def initial_state(self, config: dict) -> Any:
        raise NotImplementedError

    def setup(self, step: Step) -> None:
        raise NotImplementedError

    def decide(self, step: Step, seat: int, decision: dict) -> None:
        raise NotImplementedError

    # ``evolve`` as a table (see the module's text); None: the game writes ``evolve`` itself
    handlers: dict | None = None

    def evolve(self, state: Any, ev: Ev) -> None:
        if self.handlers is None:
            raise NotImplementedError
        handler = self.handlers.get(ev.type)
        if handler is not None:
            handler(state, ev.data, ev)

    @cached_property
    def fold(self) -> dict:
        """What the kernel calls to apply each event, by type: ``fold.get(ev.type)``
        is None or ``fn(state, ev.data, ev)``. The game's ``handlers``, one call per
        event; for a game that writes its own ``evolve``, that, for every type."""
        if self.handlers is not None and type(self).evolve is Rules.evolve:
            return self.handlers
        return _Through(self.evolve)

    # a stated position ------------------------------------------------------
    def position(self, config: dict, position: dict) -> dict:
        """A game that starts from a stated position (``tools new GAME --position FILE``,
        HTTP ``position``): the table as a referee describes it (plain JSON, printed names
        accepted). Validate ``position`` against ``config`` (the ``GameCreated`` data so
        far: seats, options, catalog, table) and return it normalised, as
        ``{"public": {...}, "stated": [...]}``; refuse what the rules forbid with
        ``BadInput`` naming it (a card twice, counts not conserved, a ship that does not
        exist).

        * ``public``: what every seat may know, recorded whole in ``GameCreated`` as
          ``config["position"]``; ``initial_state(config)`` and ``setup(step)`` start from it.
          It says how many hidden things there are (a hand of 2 cards), never which.
        * ``stated``: the hidden part, as the chance outcomes ``setup`` asks for with
          ``step.draw(..., stated=True)`` / ``step.pick(..., stated=True)``, in that order
          and before any other chance (a hand's cards, a face-down deck's order). The
          kernel serves them (``chance.StatedChance``); each is recorded as a chance event
          entered as at a table (``counter`` None), seen only by the seats of its ``vis``,
          and the audit re-runs the setup from the recorded outcomes like any step.

        A game that cannot start from a position refuses (the default)."""
        raise BadInput(f"{self.name} cannot start from a position yet")

    def referee(self, step: Step, decision: dict) -> None:
        """A referee's decision (``{"referee": KIND, ...}``): penalties and
        adjustments the book names. Validate, then emit, like ``decide``."""
        raise IllegalDecision(f"{self.name} has no referee decision {decision.get('referee')!r}")

    def card_names(self, state: Any, deck: str) -> dict | None:
        """What is printed on the cards of ``deck`` (card id -> name), so a
        referee may name a card as printed (``rum``, ``Frances Wright``); the id
        stays an alias. None: the ids are what is printed."""
        return None

    def printed_name(self, name: str) -> str:
        """A name ``card_names`` gives, as a person reads it (a request recorded at a table
        keeps the catalog's own; what the referee is shown and told says this). The game's
        way of saying a card whose printed name is not known: M&M's "Captain 6 (name
        unknown)" reads "captain card 6". Default: the name as it is."""
        return name

    def say_text(self, config: dict | None, line: str) -> str:
        """A line the rules wrote (a chance request's ``why``) in the game's words, as its
        log says it: M&M names its ids ("the Spanish Naval Ship scouts", not ``spanish_naval``).
        Default: the line as it is."""
        return line

    def say_deck(self, config: dict | None, deck: str) -> str:
        """A deck (or a pile chance draws from) as the game calls it, in a refusal: "the
        captain deck". Default: its id in words ("the cards deck")."""
        return deck_said({"deck": deck})

    def card_marks(self, state: Any, deck: str) -> dict | None:
        """What tells apart the cards of ``deck`` that share a printed name but differ
        (card id -> a detail printed on it: an admiral, an icon), for those cards only.
        Copies of one name without a mark (or with the same mark) are interchangeable; a
        referee names one of the others by its id or its name and mark, never by its name
        alone (service/kernel/chance.py, ``by_name``). None: no such cards."""
        return None

    def card_aliases(self, state: Any, deck: str) -> dict | None:
        """Other names a referee may type for the cards of ``deck`` (card id -> a list),
        beside the printed name and the id: e.g. the word the rules use for a tile's kind."""
        return None

    def copies(self, config: dict) -> dict:
        """Copies the table cannot tell apart (one printed face; the rules treat them alike):
        ``{copy id: the ids of its kind, in order}`` (``copies.kinds_of``), from the game's
        catalog (``config``: the ``GameCreated`` data). Every reader but the referee reads
        them by what the public has seen (service/kernel/copies.py). Empty: no copies."""
        return {}

    def say_decision(self, config: dict, decision: dict) -> str:
        """A decision in words, for a person choosing it."""
        rest = " ".join(f"{k} {v}" for k, v in decision.items() if k != "action")
        return f"{decision.get('action', '')} {rest}".strip()


    def say_choices(self, state: Any, config: dict, decisions: list[dict]) -> list[str]:
        """The decisions a seat chooses from, in words, one line each (``say_decision``'s);
        a game whose decisions can read alike overrides it to tell them apart by what the
        table sees (Loot: two merchants of one value at sea, by whose they are)."""
        return [self.say_decision(config, d) for d in decisions]
    def say_event(self, config: dict | None, ev: Ev) -> str | None:
        """An event in the game's own words (``views.describe`` asks first); None: not said here."""
        return None

    def referee_legal(self, state: Any) -> list[dict]:
        """The referee decisions open now (for ``tools legal --referee``)."""
        return []

    def legal(self, state: Any, seat: int) -> list[dict]:
        raise NotImplementedError

    def to_act(self, state: Any) -> list[int]:
        raise NotImplementedError

    # turn(state) -> int: the state's "turn" (one C call: the kernel asks it for every event)
    turn = staticmethod(itemgetter("turn"))

    def finished(self, state: Any) -> bool:
        raise NotImplementedError

    def outcome(self, state: Any) -> dict:
        raise NotImplementedError

    def view(self, state: Any, seat: int | None) -> dict:
        raise NotImplementedError

    def decision_visibility(self, state: Any, seat: int, decision: dict) -> Vis:
        return [seat]

    def describe(self, ev: Ev) -> str:
        return f"{ev.type} " + json.dumps(ev.data, separators=(", ", ": "))


def catalog_digest(catalog: dict) -> str:
    text = json.dumps(catalog, sort_keys=True, separators=(",", ":"))
    return sha256(text.encode()).hexdigest()


# The read-only catalogs (``Rules.shared_catalog``) this process holds, by their digest
# as computed here (never as a stored record states it): a snapshot leaves such a
# catalog out and names it by its digest (service/snapshots.py).
_BY_DIGEST: dict[str | None, dict] = {}


def remember_catalog(digest: str, catalog: dict) -> None:
    """``digest``: ``catalog_digest(catalog)``, computed by the caller."""
    if len(_BY_DIGEST) >= 256:
        _BY_DIGEST.clear()
    _BY_DIGEST[digest] = catalog


def known_catalog(digest: str | None) -> dict | None:
    return _BY_DIGEST.get(digest)


def by_seat(figures: dict) -> str:
    """Figures by seat as the log says them: ``{"1": 21, "2": 34}`` -> ``seat 1 21, seat 2 34``."""
    return ", ".join(f"seat {s} {n}" for s, n in figures.items())


def winners_said(winners: list) -> str:
    """``seat 2 wins``; ``seat 1 and seat 3 win`` (a shared victory)."""
    return (" and ".join(f"seat {w}" for w in winners) or "nobody") + (" wins" if len(winners) == 1 else " win")


class _Through(dict):
    """``Rules.fold`` of a game that writes its own ``evolve``: every type to it."""

    def __init__(self, evolve: Callable[[Any, Ev], None]) -> None:
        super().__init__()
        # (an event of its own for ``evolve``, whose ``data`` is what was emitted: an emitted
        # event reads its data back from the frozen bytes, which the state must not share)
        self.apply = lambda state, data, ev: evolve(state, ev.live(data))

    def get(self, type: str, default: Any = None) -> Callable[[Any, dict, Ev], None]:
        return self.apply
