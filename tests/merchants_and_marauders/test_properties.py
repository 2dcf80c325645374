"""Properties over many seeds: bot games (random and the trading merchant) for
2, 3 and 4 players always end, conserve coins and every card/tile/token,
every legal decision is accepted, and no seat sees another seat's secrets."""

import random
from collections import Counter

from hypothesis import example, given, settings
from hypothesis import strategies as st

from service.kernel.local import LocalGame

from .helpers import GAME, S

seeds = st.binary(min_size=32, max_size=32)
PRIVATE = {"CaptainDealt", "CaptainRedrawn", "ShipChosen", "GloryCardDealt", "CargoOffered", "CargoBought", "StashChanged",
           "RumorDrawn", "RumorKept", "GloryCardDiscarded", "HoldingsLost"}
REFEREE = {"UpgradeTilesPlaced", "MerchantTokensPlaced", "UpgradeTilePlaced", "MerchantTokensRedistributed"}
SECRET_DECKS = {"cargo", "glory", "captains", "rumors"}


def check_conservation(state):
    players = state["players"]
    assert state["bank"] >= 0
    assert state["bank"] + sum(p["gold"] + p["stash"] for p in players) == S["rules"]["coins_total"]
    assert all(p["gold"] >= 0 and p["stash"] >= 0 for p in players)
    d = state["decks"]
    offer = list(state["port"]["offer"]) if state["port"] else []
    raid = list(state["raid"]["cards"]) if state.get("raid") else []
    if state.get("combat") and state["combat"].get("npc"):
        raid += state["combat"]["npc"]["cargo"]          # a beaten naval ship's cards, face up
    cargo = d["cargo"] + d["cargo_discard"] + offer + raid + [c for p in players for c in p["cargo"]]
    assert Counter(cargo) == Counter(list(S["good"]))
    glory = d["glory"] + d["glory_discard"] + [c for p in players for c in p["hand"] + p["specialists"]]
    assert Counter(glory) == Counter(list(S["glory"]))
    in_play = [c for n in state["board"]["npcs"].values() for c in n["cards"]] + list(state.get("npc_arriving") or [])
    arriving = set(state.get("npc_arriving") or [])
    assert Counter(d["events"] + [c for c in d["event_discard"] if c not in arriving] + in_play) == \
        Counter(list(S["events"]))
    held = [p["captain"] for p in players if p["captain"]]
    assert Counter(d["captains"] + d["captain_discard"] + held) == Counter(list(S["captains"]))
    board = state["board"]
    ups = [t for t in board["upgrades"].values() if t] + \
        [t for p in players for t in (p["ship"]["upgrades"] if p["ship"] else []) + p["returning"]]
    assert Counter(ups) == Counter(list(S["upgrade"]))
    assert Counter(list(board["demand"].values()) + d["demand_reserve"]) == Counter(list(S["demand"]))
    rumors = d["rumors"] + [x for p in players for x in (p["rumor"], p["offered_rumor"]) if x]
    assert Counter(rumors) == Counter(list(S["rumors"]))
    missions = d["missions"] + list(board["missions"]) + d["mission_discard"] + \
        [p["mission"] for p in players if p["mission"]]
    assert Counter(missions) == Counter(list(S["missions"]))
    for kind, n in S["weapons"].items():
        assert state["weapons"][kind] + sum(1 for p in players if kind in p["weapons"]) == n
    tokens = [t for t in board["merchants"].values() if t] + board["merchant_track"]
    assert Counter(tokens) == Counter(list(S["merchant"]))


def check_views(g):
    state = g.state
    n = len(state["players"])
    for seat in range(1, n + 1):
        v = g.rules.view(state, seat)
        assert "bank" not in v
        for other, pv in v["players"].items():
            if int(other) == seat:
                assert "gold" in pv and "stash" in pv
                continue
            for key in ("gold", "stash", "cargo", "hand", "rumor", "offered_rumor", "chosen_ship", "total_glory"):
                assert key not in pv, (key, other, seat)
            p = state["players"][int(other) - 1]
            if not p["revealed"] and p["captain"]:
                assert pv["captain"] == "hidden"
        for port, u in v["board"]["upgrades"].items():
            if u not in (None, "face-down"):
                assert state["board"]["revealed"][port]
        assert all(m in (None, "face-down") for m in v["board"]["merchants"].values())
        if v["port_action"] and v["current"] != seat:
            assert isinstance(v["port_action"]["offer"], int)


# keys that carry a hidden amount or hidden cards; allowed in a public event
# only where a rule reveals them (starting gold, the stash on a declaration)
HIDDEN_KEYS = {"amount", "gold", "offer", "glory_cards", "stash"}
REVEALED = {("GoldReceived", "amount"), ("VictoryDeclared", "stash")}


def check_events(g):
    last = {}
    seats = range(1, len(g.state["players"]) + 1)
    for i, e in enumerate(g.events):
        owner = e.data.get("seat")
        if e.type in ("Plundered", "CargoPlundered"):      # shown to the winner and the beaten captain only
            if isinstance(e.data["beaten"], str):           # a naval NPC's cards lie face up
                assert e.type == "CargoPlundered" and e.vis == "all", e
            else:
                assert e.vis == sorted([owner, e.data["beaten"]]), e
            for ref in _strings(e.data):
                last[ref] = i
            continue
        if e.type not in ("Decided", "GameFinished") and any(e.visible_to(o) for o in seats if o != owner):
            for key in HIDDEN_KEYS & set(e.data):
                assert (e.type, key) in REVEALED, (key, e)
            if e.type == "GoldReceived":       # the loot of a raid is on its face-up cards
                # bounties: the flags are public; a card's gold (an event, a rumor, a mission): on the card
                assert e.data["why"] in ("starting gold", "raid loot", "bounty", "plunder of a naval ship") or \
                    e.data["why"].startswith("card "), e
        if e.type in PRIVATE:
            assert e.vis == [e.data["seat"]], e
        if e.type in REFEREE:
            assert e.vis == "referee", e
        if e.type == "CardDrawn" and e.data["deck"] in SECRET_DECKS and not e.data["why"].startswith(
                ("raid:", "plunder of the naval ship")):       # face up on the table
            assert isinstance(e.vis, list) and len(e.vis) == 1, e
        if e.type == "DeckShuffled" and e.data["deck"] in ("upgrades", "merchant_tokens"):
            assert e.vis == "referee"
        if e.type == "GoldReceived" and e.vis != "all":
            assert e.vis == [e.data["seat"]]
        if e.type == "Decided" and e.data["seat"] != 0:
            assert e.vis == [e.data["seat"]]
        for ref in _strings(e.data):
            last[ref] = i
    # a card now in a hold or a hand was last mentioned where only its owner could see it
    for p in g.state["players"]:
        for card in p["cargo"] + p["hand"]:
            e = g.events[last[card]]
            if e.type == "RaidCardTaken":          # a raid's cards are face up on the table
                continue
            if e.type == "GloryDeclined":          # an announced card not played is shown (the book)
                assert e.data["seat"] == p["seat"] and e.vis == "all"
                continue
            if e.type in ("Plundered", "CargoPlundered"):
                if isinstance(e.data["beaten"], str):   # a naval NPC's cards lie face up
                    assert e.vis == "all"
                else:
                    assert set(e.vis) == {p["seat"], e.data["beaten"]}
                continue
            for other in range(1, len(g.state["players"]) + 1):
                if other != p["seat"]:
                    assert not e.visible_to(other), (card, e)


def _strings(x):
    if isinstance(x, str):
        yield x
    elif isinstance(x, dict):
        for k, v in x.items():
            yield k
            yield from _strings(v)
    elif isinstance(x, list):
        for v in x:
            yield from _strings(v)


def play(seats, bot, seed, every=1, try_legal=0, catalog=None):
    g = LocalGame(GAME, seats, seed=seed, catalog=catalog)
    rng = random.Random(seed)
    bots = g.rules.bots
    steps = 0
    while not g.machine.finished:
        acting = g.to_act()
        assert acting, "nobody can act but the game is not finished"
        seat = acting[0]
        legal = g.legal(seat)
        assert legal
        if try_legal and steps % try_legal == 0:
            for d in legal:
                g.machine.copy().decide(seat, d, g.chance())    # never raises
        g.act(seat, bots[bot](g.state, seat, legal, rng))
        steps += 1
        if every and steps % every == 0:
            check_conservation(g.state)
        assert steps < 20000
    check_conservation(g.state)
    check_views(g)
    check_events(g)
    res = g.machine.k["result"]
    assert set(res["scores"]) == {str(s) for s in range(1, seats + 1)} and res["winners"]
    return g


@settings(max_examples=6, deadline=None)
@given(seed=seeds, seats=st.integers(2, 4))
def test_random_games_end_conserve_and_hide(seed, seats):
    play(seats, "random", seed, every=1, try_legal=7)


@settings(max_examples=6, deadline=None)
@given(seed=seeds, seats=st.integers(2, 4), bot=st.sampled_from(["random", "pirate"]))
def test_games_with_glory_cards_in_every_window_end_conserve_and_hide(seed, seats, bot):
    """A catalog with glory cards for the start of other players' turns and for the naval
    roll (the default has only the crew-combat ones): windows at every turn and round."""
    from .test_card_effects import turn_card_catalog
    from .test_combat import naval_card_catalog
    cat = turn_card_catalog()
    cat["glory_cards"]["value"] = [next(g for g in naval_card_catalog()["glory_cards"]["value"] if g["id"] == "G19")
                                   if g["id"] == "G19" else g for g in cat["glory_cards"]["value"]]
    g = play(seats, bot, seed, every=3, try_legal=11, catalog=cat)
    assert any(e.type == "GloryWindowOpened" for e in g.events)


@settings(max_examples=6, deadline=None)
@given(seed=seeds, seats=st.integers(2, 4))
def test_merchant_games_end_conserve_and_hide(seed, seats):
    play(seats, "merchant", seed, every=3, try_legal=11)


def test_views_hold_mid_game():
    g = LocalGame(GAME, 3, seed=b"\x07" * 32)
    rng = random.Random(7)
    for _ in range(150):
        if g.machine.finished:
            break
        seat = g.to_act()[0]
        g.act(seat, g.rules.bots["merchant"](g.state, seat, g.legal(seat), rng))
        check_views(g)
    check_events(g)


def test_merchant_bots_trade_and_earn_glory():
    ends, best = Counter(), []
    for i in range(12):
        seats = 2 + i % 3
        g = play(seats, "merchant", bytes([i + 1]) * 32, every=0)
        ends[g.state["end_reason"]] += 1
        best.append(max(p["glory"] for p in g.state["players"]))
        sold = [e for e in g.events if e.type == "GoodsSold"]
        bought = [e for e in g.events if e.type == "BuyingEnded" and e.data["bought"]]
        assert sold and bought
    # pirate NPCs hunt honest captains with gold aboard, and at war (the War cards, part 3) the
    # enemy nation's naval ships and Man-o-Wars hunt them too; since rules version 5 they hunt
    # them in port as well (the book), and a hunter next to a port stays while its prey lies
    # there: this bot waits in port for it to go. With these seeds (and the first player drawn as
    # a captain card, rules version 5) 3 of 12 games reach the target and 9 end by the event deck
    # (with hunting at sea only, 8 of 12 reached it); the best trader earns 1 to 7 (1: a game of
    # two where a hunter waits outside the port; the bot's answer is the bots' work)
    assert set(ends) <= {"glory", "events"}, ends
    assert min(best) >= 1 and sum(best) >= 50, best


def test_random_games_for_each_player_count_end_by_the_event_deck_or_captains():
    for seats in (2, 3, 4):
        for i in range(4):
            g = LocalGame(GAME, seats, seed=bytes([seats, i]) * 16)
            g.play_out(random.Random(i), bot="random")
            assert g.state["end_reason"] in ("events", "captains", "glory")
            check_conservation(g.state)


def test_event_deck_runs_out_after_34_turns():
    g = LocalGame(GAME, 2, seed=b"\x01" * 32)
    while not g.machine.finished:
        seat = g.to_act()[0]
        legal = g.legal(seat)
        d = next((x for x in legal if x["action"] == "end_turn"), legal[0])
        g.act(seat, d)
    assert g.state["end_reason"] == "events" and g.state["turn"] == 34
    in_play = [c for n in g.state["board"]["npcs"].values() for c in n["cards"]]
    assert in_play and len(g.state["decks"]["event_discard"]) + len(in_play) == 34   # NPC cards lie in their area


@settings(max_examples=6, deadline=None)
@given(seed=seeds, seats=st.integers(2, 4))
# a fight neither side could harm nor leave went on for ever (an NPC without crew or cannons)
@example(seed=b"\xc3\x19\xd2\xa3\xd1\xe6\xc1q\x85\xd2\x92'\xa1\xe0c8\xeb\x11\xe3i4;\xce\x89J#\xb4X\xf3\xc8\xe6\x02",
         seats=4)
def test_pirate_games_end_conserve_and_hide(seed, seats):
    play(seats, "pirate", seed, every=2, try_legal=9)


def test_pirates_raid_and_pay_for_it():
    """Pirate bots raid and fight: merchants sighted, raids won, failed and escaped,
    wanted flags taken, ships fought, beaten and captains dead, with coins, cards and
    tokens conserved throughout."""
    seen = Counter()
    for i in range(6):
        g = play(2 + i % 3, "pirate", bytes([40 + i]) * 32, every=5)
        for e in g.events:
            if e.type == "RaidEnded":
                seen[e.data["result"]] += 1
            elif e.type in ("WantedFlagGained", "MerchantSighted", "CombatBegun", "CombatWon", "CaptainDied"):
                seen[e.type] += 1
    assert seen["success"] and seen["escaped"] and seen["WantedFlagGained"] >= seen["success"], seen
    assert seen["CombatBegun"] and seen["CombatWon"] and seen["CaptainDied"], seen


SEEK = ("follow_rumor", "complete_mission", "claim_mission", "rumor", "port")


def _seeker(state, seat, legal, rng):
    """Random play that follows rumors, completes and claims missions whenever it can, and
    sails toward the zone of the rumor or mission it holds."""
    from service.aggregates.merchants_and_marauders.bots import _next_hop
    from service.aggregates.merchants_and_marauders.catalog import tables
    for action in SEEK:
        mine = [d for d in legal if d["action"] == action]
        if mine:
            return rng.choice(mine)
    p = state["players"][seat - 1]
    T = tables(state)
    goal = None
    if p["mission"] and T["missions"][p["mission"]].get("complete"):
        c = T["missions"][p["mission"]]["complete"]
        goal, inside = c["at"], c["during"] == "port"
    elif p["rumor"] and not p.get("rumor_shown"):
        r = T["rumors"][p["rumor"]]
        goal, inside = r["location"], r["skill"] == "influence"
    if goal and p["ship"] is not None and rng.random() < 0.9:
        want = []
        if p["in_port"] and (p["zone"] != goal or not inside):
            want = [{"action": "leave_port"}]
        elif not p["in_port"] and p["zone"] == goal and inside:
            want = [d for d in legal if d["action"] == "enter_port"]
        elif not p["in_port"] and p["zone"] != goal:
            want = [{"action": "move", "to": _next_hop(state, p["zone"], goal)}]
        for d in want:
            if d in legal:
                return d
    return rng.choice(legal)


@settings(max_examples=4, deadline=None)
@given(seed=seeds, seats=st.integers(2, 4))
def test_rumors_and_missions_conserve_and_hide(seed, seats):
    """Rumors followed and missions completed (rules version 4) keep every card and coin
    and show no seat another's secrets; the catalog puts every rumor and mission on the
    Havana/Nassau/Tortuga corner of the map so that they come up often."""
    import copy

    from service.aggregates.merchants_and_marauders.catalog_checks import load
    cat = copy.deepcopy(load())
    corner = ["havana", "nassau", "tortuga"]
    for i, r in enumerate(cat["rumors"]["value"]):
        r["location"] = corner[i % 3]
    for i, m in enumerate(cat["missions"]["value"]):
        m["complete"]["at"] = corner[(i + 1) % 3]
    g = LocalGame(GAME, seats, seed=seed, catalog=cat)
    rng = random.Random(seed)
    steps = 0
    while not g.machine.finished:
        seat = g.to_act()[0]
        g.act(seat, _seeker(g.state, seat, g.legal(seat), rng))
        steps += 1
        if steps % 5 == 0:
            check_conservation(g.state)
        assert steps < 20000
    check_conservation(g.state)
    check_views(g)
    check_events(g)
    done = Counter(e.type for e in g.events)
    assert done["RumorRevealed"] + done["MissionCompleted"] + done["MissionAttemptFailed"] > 0, done
