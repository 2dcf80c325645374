"""Issue 33, the table's side: what three referees found when they drove a game at a
table (table mode, outcomes entered): the log's words, the names of cards whose copies
differ, printed upgrade names, the first player drawn as a captain card, an NPC's move
overruled, and what the other seats see of a purchase. Each test failed before its fix."""

from service.aggregates.merchants_and_marauders.catalog import tables
from service.kernel.machine import Ev
from service.views import card_namer, log_entries

from .helpers import Table, cards_of, demand_order, types
from .test_card_effects import catalog_with, turn_card_catalog
from .test_raids import RUM, COCOA_MASTS, TOBACCO_CANNONS, FOOD_CARGO, at_sea, sight_spanish_merchant
from .test_tasks import holding_mission_at

FELIPE, FRANCES = "felipe", "frances_wright"


def lines(t, seat=None, evs=None):
    """The log's lines ``seat`` reads (None: the referee) of ``evs`` (all events)."""
    evs = t.g.events if evs is None else evs
    return [t.g.rules.describe(e) for e in evs if e.visible_to(seat)]


# 5. the log's words ------------------------------------------------------------------
def test_the_turn_start_glory_window_says_the_turn_not_a_roll_or_a_fight():
    """The book ("Carte Gloria"): some glory cards are played at the start of another
    player's turn. The window then opened "after the Leadership roll" and closed with "the
    fight goes on" with no fight."""
    base = {"demand_tiles": [demand_order({"havana": "sugar"})], "captains": [FELIPE, FRANCES],
            "pick": [1], "glory": ["G21", "G20"]}
    t = Table(2, base, catalog=turn_card_catalog())
    t.act(1, {"action": "choose_ship", "ship": "sloop"})
    evs = t.act(2, {"action": "choose_ship", "ship": "sloop"})
    opened = t.g.rules.describe(next(e for e in evs if e.type == "GloryWindowOpened"))
    assert opened.startswith("at the start of the turn") and "roll" not in opened
    t.act(1, {"action": "glory_pass"})
    evs = t.act(2, {"action": "glory_pass"})
    closed = t.g.rules.describe(next(e for e in evs if e.type == "GloryWindowClosed"))
    assert closed == "no more glory cards: the turn goes on"


def test_an_event_card_carries_no_stale_note_and_a_cards_gold_loss_is_said_once():
    """A Storm (E21, no printed text known) drawn at a table: its event no longer records
    "NPCs, combat and wanted flags come in a later part" (they are played). A card that
    takes gold: the table reads "loses gold to the event card Spanish Naval Ship", the seat reads the amount once
    more, not the whole line twice."""
    cat = catalog_with("events", "E01", {"timing": "each_turn", "steps": [{"do": "lose_gold", "amount": 3}]})
    base = {"demand_tiles": [demand_order({"havana": "sugar"})], "captains": [FELIPE, FRANCES], "pick": [1],
            "events": ["E21", "E01"]}
    t = Table(2, base, catalog=cat)
    t.act(1, {"action": "choose_ship", "ship": "sloop"})
    evs = t.act(2, {"action": "choose_ship", "ship": "sloop"})
    storm = next(e for e in evs if e.type == "EventCardDrawn")
    assert storm.data["card"] == "E21" and "later part" not in str(storm.data)
    t.act(1, {"action": "end_turn"})
    evs = t.act(2, {"action": "end_turn"})            # turn 2: E01 takes 3 gold at seat 1's turn
    assert t.p(1)["gold"] == 7
    own = [x for x in lines(t, 1, evs) if "gold" in x and "seat 1" in x]
    other = [x for x in lines(t, 2, evs) if "gold" in x and "seat 1" in x]
    assert own == ["seat 1 loses gold to the event card Spanish Naval Ship (how much, only seat 1 knows)",
                   "the gold seat 1 loses: 3"]
    assert other == ["seat 1 loses gold to the event card Spanish Naval Ship (how much, only seat 1 knows)"]


def test_port_activities_and_tasks_read_as_english():
    """"seat 1 begins to mission", "begins to complete_mission": the activities in words."""
    t = holding_mission_at("X01", "port_royal", True)
    cocoa = cards_of("cocoa")[:2]
    t.state["decks"]["cargo"] = [c for c in t.state["decks"]["cargo"] if c not in cocoa]
    t.p(1)["cargo"] = list(cocoa)
    evs = t.act(1, {"action": "complete_mission"})
    said = lines(t, 2, evs)
    assert "seat 1 sets out to complete a mission" in said
    assert not any("begins to" in x or "_" in x for x in said)
    t.act(1, {"action": "end_port"})
    t.act(1, {"action": "end_turn"})
    # the other activities, as recorded at a table: each in words
    for activity, words in (("buy", "seat 1 buys goods: 3 cargo cards are drawn"), ("mission", "seat 1 claims a mission"),
                            ("rumor", "seat 1 seeks a rumor"), ("shipyard", "seat 1 goes to the shipyard"),
                            ("stash", "seat 1 stashes gold"), ("recruit", "seat 1 recruits crew"),
                            ("follow_rumor", "seat 1 follows a rumor")):
        data = {"seat": 1, "activity": activity, **({"draw": 3, "repeat": False} if activity == "buy" else {})}
        assert t.g.rules.describe(Ev("PortActivityBegun", 1, "all", data)) == words


def test_the_raids_stages_read_as_english():
    """The book's raid (Frederico): "raid: use", "raid: resolve", "raid: take" said what
    the stage is called in the code, not what happens."""
    t = at_sea()
    sight_spanish_merchant(t)
    t.add("cargo", RUM, COCOA_MASTS, TOBACCO_CANNONS)
    t.add("dice", [5, 2, 1])
    evs = t.act(1, {"action": "raid", "nation": "spain"})
    t.add("cargo", FOOD_CARGO)
    evs += t.act(1, {"action": "raid_swap", "card": TOBACCO_CANNONS})
    said = [x for x in lines(t, 2, evs) if x.startswith("raid:")]
    assert said == ["raid: each success may draw, discard or swap a cargo card",
                    "raid: the cards turned decide it: escape icons, hits and loot",
                    "raid: the raider chooses the cargo cards to keep aboard"]
    assert "RaidEnded" not in types(evs)


# 6. what the table sees of a purchase ----------------------------------------------------
def buying(bought):
    """Felipe (seat 1) buys goods at Havana (sugar in demand): the referee enters the cargo
    cards drawn (rum, cocoa, wood first), then seat 1 buys ``bought``."""
    from .test_book_examples import start

    offer = [cards_of("rum")[0], cards_of("cocoa")[0], cards_of("wood")[0]]
    t = start(first=1, script={"cargo": list(offer)})
    t.act(1, {"action": "port"})
    t.act(1, {"action": "buy_goods"})
    steps = [t.act(1, {"action": "buy", "card": c}) for c in bought]
    return t, offer, steps


def reads(t, seat):
    """Everything ``seat`` may read: its board view, its log (types, visibility, data,
    lines), its version (the count of events it may read) and who acts."""
    import json

    from service.views import REFEREE_ONLY_FIELDS

    log = []
    for e in t.g.events:
        if e.visible_to(seat):
            data = {k: v for k, v in e.data.items() if k not in REFEREE_ONLY_FIELDS}
            if e.type == "GameCreated":     # (the catalog: every card id, the same to everyone)
                data = {k: v for k, v in data.items() if k != "catalog"}
            log.append((e.type, e.turn, e.vis, data, t.g.rules.describe(e)))
    return json.dumps([t.g.rules.view(t.state, seat), log, t.g.machine.seen(seat, 0), t.g.to_act()],
                      sort_keys=True, default=str)


def test_the_table_sees_who_buys_a_cargo_card_and_how_many_never_which():
    """The book ("Comprare merci"): the player draws cards and buys some; at a real table
    everyone sees a card go into the buyer's hand, nobody sees which. Each purchase hid every
    event from the other seats (and still moved the head and the store's version): now each
    one is a public line, and an attacker at seat 2 learns who bought and how many, never
    which card: buying the rum or the wood reads the same to it, card for card."""
    t, offer, steps = buying([offer_card := cards_of("rum")[0]])
    seen = [e for e in steps[0] if e.visible_to(2)]
    assert [e.type for e in seen] == ["CargoCardTaken"] and seen[0].vis == "all"
    left = t.g.rules.view(t.state, 2)["port_action"]["offer"]      # a count, to the other seats
    assert seen[0].data == {"seat": 1, "offered": left, "held": 1}
    assert t.g.rules.describe(seen[0]) == ("seat 1 buys one of the cargo cards drawn (not shown): "
                                           f"1 cargo card(s) aboard, {left} still offered")
    # the attacker: the same table, another card bought; what seat 2 reads is the same
    for other in offer[1:]:
        t2, _, _ = buying([other])
        assert reads(t2, 2) == reads(t, 2)
        assert reads(t2, 1) != reads(t, 1)                       # (the buyer's own reads differ: the test has teeth)
    mine = reads(t, 2)
    assert not any(c in mine for c in offer) and offer_card in reads(t, 1)
    # two purchases: two public lines, counted; the version moves with each
    t3, _, steps = buying(offer[:2])
    versions = [t3.g.machine.seen(2, 0)]
    assert [[e.type for e in s if e.visible_to(2)] for s in steps] == [["CargoCardTaken"], ["CargoCardTaken"]]
    t3.act(1, {"action": "end_buy"})
    ended = [e for e in t3.g.events if e.type == "BuyingEnded"][-1]
    assert ended.data["bought"] == 2 and t3.g.rules.view(t3.state, 2)["players"]["1"]["cargo_cards"] == 2
    assert versions[0] > 0


# 1. cards named as printed, when copies of a name differ ----------------------------------
def awaiting(t, deck):
    """Answer the table's requests from the script until ``deck`` is asked for."""
    while t.g.machine.awaiting_chance().get("deck") != deck:
        t.g.enter(t._value(t.g.machine.k["awaiting"]))
    return t.g.machine.awaiting_chance()


def first_event_card():
    base = {"demand_tiles": [demand_order({"havana": "sugar"})], "captains": [FELIPE, FRANCES], "pick": [1]}
    t = Table(2, base)
    t.act(1, {"action": "choose_ship", "ship": "sloop"})
    t.g.act(2, {"action": "choose_ship", "ship": "sloop"})
    return t, awaiting(t, "events")


def test_a_name_that_copies_differing_share_is_refused_listing_them():
    """The three Dutch Naval Ships differ (admiral, entry zone, NPC icons): "Dutch Naval Ship"
    took E10, the first, although the card on the table was another. The name alone is now
    refused, one line listing each card with what tells it apart; the card is named by its id
    (any case) or by its name and mark. Copies that do not differ stay interchangeable."""
    import pytest

    from service.kernel.errors import ChanceRejected

    t, asked = first_event_card()
    # the admiral the catalog knows only by number, as a person reads it (not "(unknown)")
    assert asked["marks"]["E11"] == "Dutch admiral 2; enters at St. Maarten; no NPC icons"
    n = len(t.g.events)
    with pytest.raises(ChanceRejected) as refused:
        t.g.enter("Dutch Naval Ship")
    said = str(refused.value)
    assert "\n" not in said and "3 different cards" in said and len(t.g.events) == n
    for card in ("E10: Dutch Naval Ship (Philips van Almonde; enters at Curacao; NPC icons English naval E",
                 "E11: Dutch Naval Ship (Dutch admiral 2; enters at St. Maarten; no NPC icons)",
                 "E12: Dutch Naval Ship (Dutch admiral 3; enters at Curacao; NPC icons"):
        assert card in said
    t.g.enter("dutch naval ship (Dutch admiral 2 (unknown), enters at St. Maarten, no NPC icons)")  # as recorded
    drawn = [e for e in t.g.events if e.type == "CardDrawn"][-1].data
    assert drawn["card"] == "E11"
    t1, _ = first_event_card()
    t1.g.enter("Dutch Naval Ship (Dutch admiral 2; enters at St. Maarten; no NPC icons)")   # as shown
    assert [e for e in t1.g.events if e.type == "CardDrawn"][-1].data["card"] == "E11"
    entered = next(e.data for e in t.g.events if e.type in ("NpcArriving", "NpcEntered"))
    assert entered["zone"] == "st_maarten"
    # by its id, any case; the storms: E21 and E23 are the same card, E22 carries icons
    t2, _ = first_event_card()
    t2.g.enter("e12")
    assert [e for e in t2.g.events if e.type == "CardDrawn"][-1].data["card"] == "E12"
    t3, _ = first_event_card()
    with pytest.raises(ChanceRejected, match="E21/E23: Storm \\(no NPC icons\\); E22: Storm \\(NPC icons"):
        t3.g.enter("storm")
    t3.g.enter("Storm (no NPC icons)")                       # either copy: they are the same card
    assert [e for e in t3.g.events if e.type == "CardDrawn"][-1].data["card"] in ("E21", "E23")


def test_identical_copies_stay_interchangeable_and_the_referee_page_lists_the_marks():
    """Two Carpenters are the same card: "Carpenter" takes either. The referee's page offers
    the cards as the referee names them: identical copies counted, differing ones each with
    its mark (what POST /chance takes)."""
    from service.http.routes_pages import _awaited_things

    base = {"demand_tiles": [demand_order({"havana": "sugar"})], "captains": [FELIPE, FRANCES], "pick": [1]}
    t = Table(2, base)
    t.act(1, {"action": "choose_ship", "ship": "sloop"})
    t.g.act(2, {"action": "choose_ship", "ship": "sloop"})
    asked = awaiting(t, "glory")
    assert "marks" not in asked                          # no glory card differs from its namesakes
    t.g.enter("Carpenter")
    assert [e for e in t.g.events if e.type == "CardDrawn"][-1].data["card"] in ("G01", "G02")
    asked = awaiting(t, "events")
    left = {e["say"]: e["copies"] for e in _awaited_things(asked)["left"]}
    assert left["Storm (no NPC icons)"] == 2 and "Storm" not in left
    assert left["Dutch Naval Ship (Dutch admiral 2; enters at St. Maarten; no NPC icons)"] == 1
    assert left["Plague (no NPC icons)"] == 1


# 2. upgrade tiles by their printed names ----------------------------------------------------
def test_an_upgrade_tile_is_named_as_printed_and_its_kind_stays_an_alias():
    """The book's tiles: Extra Hammocks, Advanced Rigs & Sails, Reinforced Hull, Extended
    Cargo Hold, Chasers, Extra Cannon Port, Swivel Guns, Long Guns. "Long Guns" was refused
    (it had to be typed long_range)."""
    from .test_book_examples import start

    for typed in ("Long Guns", "long guns", "long_range", "U16"):
        t = start(first=1)
        t.g.act(1, {"action": "port"})
        asked = t.g.machine.awaiting_chance()
        assert asked["deck"] == "upgrades" and "Long Guns" in asked["names"].values()
        t.g.enter(typed)
        t.feed()
        tile = t.state["board"]["upgrades"][t.p(1)["zone"]]
        assert tables(t.state)["upgrade"][tile] == "long_range"
        shown = next(e for e in t.g.events if e.type == "UpgradeTileRevealed")
        assert t.g.rules.describe(shown) == "the upgrade tile at Havana is Long Guns"


# 3. the first player: the captain card drawn ----------------------------------------------
def test_the_referee_enters_the_captain_card_drawn_for_the_first_player():
    """The book ("Giocatore iniziale"): "Determinare il giocatore iniziale prendendo le carte
    Capitano dai giocatori e pescandone una a caso. Il giocatore proprietario della Carta
    Capitano pescata è il giocatore iniziale." The referee was asked for a seat number; now
    for the captain card drawn, by its printed name, among the players' captains only."""
    import pytest

    from service.kernel.errors import ChanceRejected

    base = {"demand_tiles": [demand_order({"havana": "sugar"})], "captains": [FELIPE, FRANCES, "pepijn_van_avezaath"]}
    t = Table(3, base)
    for seat in (1, 2, 3):
        (t.g.act if seat == 3 else t.act)(seat, {"action": "choose_ship", "ship": "sloop"})
    asked = awaiting(t, "first_player")
    assert asked["kind"] == "card" and sorted(asked["choices"]) == sorted([FELIPE, FRANCES, "pepijn_van_avezaath"])
    assert asked["names"][FRANCES] == "Frances Wright"
    with pytest.raises(ChanceRejected):
        t.g.enter("2")                                        # a seat number is not a card
    with pytest.raises(ChanceRejected):
        t.g.enter("Alexandre Villon")                        # a captain nobody plays
    t.g.enter("frances wright")
    chosen = next(e for e in t.g.events if e.type == "FirstPlayerChosen").data
    assert chosen["seat"] == 2 and chosen["order"] == [2, 3, 1]
    drawn = [e for e in t.g.events if e.type == "CardDrawn"][-1]
    assert drawn.vis == "all" and drawn.data["card"] == FRANCES
    said = [x["text"] for x in log_entries(t.g.rules, [_Stored(i + 1, e) for i, e in enumerate(t.g.events)], 1,
                                           names=card_namer(t.g.machine))]
    assert "drew Frances Wright from the players' captain cards (first player: the captain card drawn at random " \
           "among the players')" in said and "seat 2 is the first player (the order of play: seat 2, seat 3, seat 1)" in said


class _Stored:
    """An event as the store hands it to the log."""

    def __init__(self, version, ev):
        from datetime import datetime

        self.originator_version, self.type, self.turn, self.visible_to, self.data = version, ev.type, ev.turn, ev.vis, ev.frozen()
        self.timestamp = datetime(2026, 11, 27)


# 4. an NPC's move overruled -------------------------------------------------------------------
def test_the_referee_overrules_an_npcs_move_where_the_printed_board_differs():
    """The book ("Movimento degli NPC"): an NPC sails across the border with its icon's
    letter. The game reads the letters from its data; the printed board at this table sends
    the Dutch ship North from Basse-Terre to Bridgetown, not to St. Maarten. The referee puts
    it there, on the record; from there it scouts for the Dutch-wanted captain who begins his
    turn in Bridgetown. The step is audited like any other."""
    import pytest

    from service.kernel import IllegalDecision

    from .test_npcs import catalog, next_turn, start
    from .test_table_unseen import audit

    cat = catalog(icons={"E29": [{"npc": "dutch_naval", "dir": "N"}]}, zones={"E10": "basse_terre"})
    t = start(["E10", "E23", "E29", "E21"], cat)
    assert t.g.rules.referee_legal(t.state) == []             # no NPC at sea yet
    next_turn(t)
    next_turn(t)                                              # E29: North from Basse-Terre, by the data
    assert t.state["board"]["npcs"]["dutch_naval"]["zone"] == "st_maarten"
    p2 = t.p(2)
    p2["zone"], p2["in_port"], p2["flags"] = "bridgetown", False, {"netherlands": 1}
    overrule = {"referee": "overrule_npc", "npc": "dutch_naval", "to": "bridgetown",
                "reason": "the printed board: North of Basse-Terre is Bridgetown"}
    assert {**overrule, "reason": ""} in t.g.rules.referee_legal(t.state)     # listed with every field it takes
    for bad, why in (({**overrule, "npc": "french_naval"}, "no NPC"), ({**overrule, "to": "atlantis"}, "no sea zone"),
                     ({**overrule, "to": "st_maarten"}, "already in St. Maarten"),
                     ({**overrule, "referee": "move_npc"}, "no referee decision")):
        with pytest.raises(IllegalDecision, match=why):
            t.g.referee(bad)
    evs = t.g.referee(overrule)
    fact = next(e for e in evs if e.type == "NpcMoveOverruled")
    assert fact.vis == "all" and fact.data == {"npc": "dutch_naval", "frm": "st_maarten", "to": "bridgetown",
                                               "reason": overrule["reason"]}
    assert t.g.rules.describe(fact) == ("the referee moves the Dutch Naval Ship from St. Maarten to Bridgetown, as the "
                                        "printed board has it (the printed board: North of Basse-Terre is Bridgetown)")
    assert t.state["board"]["npcs"]["dutch_naval"]["zone"] == "bridgetown"
    evs = t.act(1, {"action": "end_turn"})                   # seat 2 begins his turn beside the Dutch ship
    scouting = next(e.data for e in evs if e.type == "NpcsScouting")
    assert scouting["seat"] == 2 and scouting["npcs"] == ["dutch_naval"]
    # a table without test set-up: the overrule replays and audits like any step
    t2 = start(["E10", "E23", "E29", "E21"], cat)
    next_turn(t2)
    next_turn(t2)
    t2.g.referee(overrule)
    next_turn(t2)
    assert t2.state["board"]["npcs"]["dutch_naval"]["zone"] == "bridgetown" and audit(t2.g).ok


def test_a_card_whose_copies_differ_is_named_by_its_name_and_a_few_words_of_its_mark():
    """At the table the referee reads what is printed: "rum 3 masts" is the rum card worth 3
    that hits the masts; "Dutch Naval Ship Almonde" is Philips van Almonde's card. Words that
    several different cards answer are refused, listing those."""
    import pytest

    from service.kernel.errors import ChanceRejected

    t, _ = first_event_card()
    t.g.enter("Dutch Naval Ship Almonde")
    assert [e for e in t.g.events if e.type == "CardDrawn"][-1].data["card"] == "E10"
    t2, _ = first_event_card()
    with pytest.raises(ChanceRejected, match="2 different cards") as refused:
        t2.g.enter("dutch naval ship curacao")                # E10 and E12 both enter at Curacao
    assert "E11" not in str(refused.value)
    # cargo at a purchase: the rum cards differ in raid value and icon
    from .test_book_examples import start

    t3 = start(first=1)
    t3.g.act(1, {"action": "port"})
    awaiting(t3, "upgrades")
    t3.g.enter("U01")
    t3.feed()
    t3.g.act(1, {"action": "buy_goods"})
    asked = awaiting(t3, "cargo")
    assert asked["marks"]["C24"] == "raid 5; hit on the masts" and asked["names"]["C24"] == "rum"
    with pytest.raises(ChanceRejected, match="different cards left in the cargo deck"):
        t3.g.enter("rum")
    with pytest.raises(ChanceRejected, match="3 different cards") as refused:
        t3.g.enter("rum 3")                                   # C20, C21 and C22: worth 3, other icons
    assert "C20: rum (raid 3; hit on the cargo)" in str(refused.value)
    t3.g.enter("Rum 5 masts")
    assert [e for e in t3.g.events if e.type == "CardDrawn"][-1].data["card"] == "C24"
