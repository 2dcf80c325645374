"""Hidden information, attacked through side channels: the chain head, the
numbering of events, the index of a drawn card, the shape of a hidden step.

An attacker is a seat that reads everything it may read: its board view, its
log (service/views.py, what the CLI and the HTTP API serve), the status with
its version and the public head."""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from event_store.chain import genesis, link
from event_store.codec import pack
from service.kernel.chance import SeededChance
from service.kernel.local import LocalGame
from service.kernel.machine import CHANCE_TYPES, Ev
from service.views import REFEREE_ONLY_FIELDS, log_entries
from service.views import status as status_view

GAMES = [("letter-of-marque", 3), ("loot", 3), ("kaisers-pirates", 2), ("merchants-and-marauders", 2)]


class Stored:
    """An event as the store hands it to the views."""

    def __init__(self, version, ev, ts):
        self.originator_version = version
        self.type, self.turn, self.visible_to, self.data = ev.type, ev.turn, ev.vis, ev.frozen()
        self.timestamp = ts


def chained(game_id, events, chain):
    """Store the events as a chain of version ``chain``; returns (stored, salts, hashes)."""
    from datetime import datetime, timedelta, timezone

    from event_store.chain import new_salt

    t0 = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)
    prev = genesis(game_id, chain)
    stored, salts, hashes = [], [], []
    for i, ev in enumerate(events):
        ts = t0 + timedelta(milliseconds=i)
        salt = new_salt() if chain == 2 else None
        h = link(game_id, i + 1, ts, ev.type, ev.turn, ev.vis, ev.frozen(), prev, salt, chain)
        stored.append(Stored(i + 1, ev, ts))
        salts.append(salt)
        hashes.append(h)
        prev = h
    return stored, salts, hashes


def test_the_public_head_does_not_unlock_a_secret_ship_base():
    """Letter of Marque: after the secret preliminary placement, seat 2 tries
    every armed/unarmed choice of seat 1 against the chain. With chain version
    1 (the attack the issue reports) it recovers the choice; with version 2 no
    candidate reproduces the hash, whatever it guesses for what it cannot see."""
    from uuid import uuid4

    g = LocalGame("letter-of-marque", 2, seed=b"\x05" * 32)
    while 1 in g.to_act():
        seat = g.to_act()[0]
        g.act(seat, g.legal(seat)[0])
    target = next(i for i, e in enumerate(g.events) if e.type == "Decided" and e.vis == [1])
    secret = g.events[target].data["decision"]
    candidates = [dict(secret, **{k: not v}) for k, v in secret.items() if isinstance(v, bool)] + [secret]
    gid = uuid4()

    for chain in (1, 2):
        stored, salts, hashes = chained(gid, g.events, chain)
        # everything seat 2 may read
        view = log_entries(g.rules, stored, 2)
        status = status_view(gid, g.machine, len(stored), hashes[-1], seat=2)
        readable = json.dumps([view, status, g.rules.view(g.state, 2)], default=str)
        assert json.dumps(secret)[1:-1] not in readable
        for salt in salts:
            if salt is not None:
                assert salt.hex() not in readable
        # the attacker: knows the neighbours, the timestamps, the following hash; guesses the content
        e = stored[target]
        prev = hashes[target - 1]
        found = []
        for cand in candidates:
            data = dict(e.data, decision=cand)
            guess_salts = [None] if chain == 1 else [b"\x00" * 32, bytes(range(32))]
            for salt in guess_salts:
                h = link(gid, e.originator_version, e.timestamp, e.type, e.turn, e.visible_to, data, prev,
                         salt, chain)
                if h == hashes[target]:
                    found.append(cand)
        if chain == 1:
            assert found == [secret]  # the old chain was an oracle
        else:
            assert found == []


@pytest.mark.parametrize("game,seats", GAMES)
def test_no_seat_visible_chance_event_ranks_hidden_cards(game, seats):
    g = LocalGame(game, seats, seed=b"\x06" * 32)
    g.play_out(random.Random(1), max_steps=400) if False else None
    rng = random.Random(1)
    for _ in range(300):
        if g.machine.finished:
            break
        seat = g.to_act()[0]
        g.act(seat, rng.choice(g.legal(seat)))
    stored = [Stored(i + 1, e, None) for i, e in enumerate(g.events)]
    for s in stored:
        s.timestamp = __import__("datetime").datetime(2026, 1, 1)
    drawn = 0
    for seat in [0] + list(range(1, seats + 1)):
        entries = log_entries(g.rules, stored, seat)
        assert [e["version"] for e in entries] == list(range(1, len(entries) + 1))
        for e in entries:
            if e["type"] in CHANCE_TYPES:
                drawn += e["type"] == "CardDrawn"
                assert not set(e["data"]) & set(REFEREE_ONLY_FIELDS), e
    assert drawn > 0
    referee = log_entries(g.rules, stored, None)
    assert any("index" in e["data"] for e in referee if e["type"] == "CardDrawn")


def observer_knows(machine, seat):
    return json.dumps([machine.rules.view(machine.s, seat), machine.to_act(), machine.turn(),
                       machine.finished], sort_keys=True, default=str)


def observer_events(events, seat):
    out = []
    for ev in events:
        if not ev.visible_to(seat):
            continue
        data = ev.frozen()
        if ev.type in CHANCE_TYPES:
            data = {k: v for k, v in data.items() if k not in REFEREE_ONLY_FIELDS}
        out.append((ev.type, ev.turn, ev.vis, data))
    return json.dumps(out, sort_keys=True)


def public_events(events):
    return json.dumps([(ev.type, ev.turn, ev.frozen()) for ev in events if ev.vis == "all"],
                      sort_keys=True, default=str)


def check_hidden_steps(game, seats, seed, rng, max_steps=250, per_step=8):
    """At every step whose decision another seat may not see, try the acting
    seat's alternatives from the same state and stream. Whenever two of them
    leave an observer the same view (board, who acts, turn) and the same
    public events, everything the observer reads must be the same too: its
    events (number, type, content) and its version. Returns how many groups
    of alternatives the store's global version alone would have told apart."""
    g = LocalGame(game, seats, seed=seed)
    global_leaks = 0
    for _ in range(max_steps):
        m = g.machine
        if m.finished:
            break
        seat = m.to_act()[0]
        legal = m.legal(seat)
        hidden_from = [b for b in range(1, seats + 1)
                       if b != seat and not Ev("Decided", 0, _vis(m, seat, legal[0]), {}).visible_to(b)]
        if hidden_from and len(legal) > 1:
            alts = rng.sample(legal, min(per_step, len(legal)))
            outcomes = []
            for d in alts:
                work = m.copy()
                chance = SeededChance(g.seed, [bytes.fromhex(e) for e in m.k["entropies"]], m.k["counter"])
                evs = work.decide(seat, d, chance)
                outcomes.append((work, evs))
            for b in hidden_from:
                groups = {}
                for work, evs in outcomes:
                    key = (observer_knows(work, b), public_events(evs))
                    reads = (observer_events(evs, b), work.seen(b, 0))
                    groups.setdefault(key, []).append((reads, len(evs)))
                for items in groups.values():
                    assert len({r for r, _ in items}) == 1, (
                        game, seat, b, "what the seat reads tells apart what it may not know",
                        [r for r, _ in items])
                    global_leaks += len({n for _, n in items}) > 1
        g.act(seat, rng.choice(legal))
    return global_leaks


def _vis(machine, seat, decision):
    from service.kernel.machine import norm_vis

    return norm_vis(machine.rules.decision_visibility(machine.s, seat, decision))


@pytest.mark.parametrize("game,seats", GAMES)
@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.binary(min_size=32, max_size=32), pick=st.integers(0, 2**32))
def test_what_a_seat_reads_of_a_hidden_step_does_not_depend_on_the_hidden_choice(game, seats, seed, pick):
    check_hidden_steps(game, seats, seed, random.Random(pick))


def test_a_seats_numbering_does_not_count_events_hidden_from_it():
    """Merchants & Marauders' death top-up emits 0, 1 or 2 events for the dead
    captain's eyes only (stash taken, gold received) before the public
    StartingGoldTopped: store versions told the cases apart; the numbers a
    seat reads (its log positions and its status version) do not."""
    from datetime import datetime

    def case(hidden):
        evs = [Ev("Decided", 3, [1], {"seat": 1, "decision": {}})]
        evs += [Ev("StashChanged", 3, [1], {"amount": -4})] * hidden
        evs += [Ev("StartingGoldTopped", 3, "all", {"seat": 1})]
        stored = [Stored(i + 1, e, datetime(2026, 1, 1)) for i, e in enumerate(evs)]
        return stored

    from service.kernel.games import get_rules

    RULES = get_rules("merchants-and-marauders")
    reads = set()
    versions = set()
    for hidden in (0, 1, 2):
        stored = case(hidden)
        reads.add(json.dumps([(e["version"], e["type"]) for e in log_entries(RULES, stored, 2)]))
        versions.add(stored[-1].originator_version)
    assert len(versions) == 3 and len(reads) == 1


def test_the_hidden_step_check_has_teeth():
    """A deliberately leaky copy of a hidden step (one more public event when
    the hidden choice is 'armed') is caught by the same comparison."""
    a = [Ev("Decided", 0, [1], {"seat": 1}), Ev("ShipPlaced", 0, "all", {"seat": 1})]
    b = a + [Ev("Noise", 0, "all", {})]
    assert observer_events(a, 2) != observer_events(b, 2)
    assert pack(1)  # codec importable


def hidden_steps(game, seats, seed, rng, limit=400):
    """A random game; for each event that only some seats see (a secret
    decision, a card drawn face down): its index, the field that is secret and
    the values it could have had (the seat's other decisions; the deck's cards)."""
    g = LocalGame(game, seats, seed=seed)
    found = []
    for _ in range(limit):
        if g.machine.finished:
            break
        seat = g.to_act()[0]
        legal = g.legal(seat)
        before = len(g.events)
        g.act(seat, rng.choice(legal))
        ev = g.events[before]
        if ev.type == "Decided" and ev.vis == [seat] and len(legal) > 1:
            found.append((before, "decision", legal))
    decks = {}
    for e in g.events:
        if e.type == "CardDrawn":
            decks.setdefault(e.data["deck"], set()).add(json.dumps(e.data["card"]))
    for i, e in enumerate(g.events):
        if e.type == "CardDrawn" and isinstance(e.vis, list) and len(decks[e.data["deck"]]) > 1:
            found.append((i, "card", [json.loads(c) for c in sorted(decks[e.data["deck"]])]))
    return g, found


@pytest.mark.parametrize("game,seats", GAMES)
def test_no_hidden_decision_or_card_of_any_game_is_recovered_from_the_chain(game, seats):
    """For every secret decision and every card drawn face down in a random
    game, a seat that knows every other field of the event and the hashes
    around it tries every value the secret could have had. Chain version 1
    gives each one away (the test has teeth); version 2 gives none."""
    from uuid import uuid4

    g, found = hidden_steps(game, seats, bytes([7]) * 32, random.Random(11))
    assert found, "the game has hidden events"
    sample = found[:15] + found[-15:]
    gid = uuid4()
    for chain in (1, 2):
        stored, salts, hashes = chained(gid, g.events, chain)
        recovered = 0
        for i, field, candidates in sample:
            e = stored[i]
            matches = [c for c in candidates
                       for salt in ([None] if chain == 1 else [b"\x00" * 32])
                       if link(gid, e.originator_version, e.timestamp, e.type, e.turn, e.visible_to,
                               dict(e.data, **{field: c}), hashes[i - 1], salt, chain) == hashes[i]]
            recovered += matches == [e.data[field]]
            if chain == 2:
                assert matches == []
        if chain == 1:
            assert recovered == len(sample)
