"""Where the Italian and Portuguese books disagree, the other reading as an option
(readings.py; RULINGS.md, "Where the two translations differ"): each option driven with
the dice and cards that make the two readings differ, the outcome each book states."""

import random
import re

import pytest

from service.aggregates.merchants_and_marauders.bots import _raid_outcome
from service.aggregates.merchants_and_marauders.readings import raid_earns_glory, reading, values
from service.aggregates.merchants_and_marauders.rules import RULES
from service.aggregates.merchants_and_marauders.state import new_ship
from service.kernel import BadInput
from service.kernel.local import LocalGame
from service.kernel.sampling import copy_state
from service.simulate import simulate

from .helpers import GAME, Table, demand_order, types
from .test_combat import battle, sink_frances
from .test_npcs import next_turn
from .test_raids import FRANCES, FREDERICO, sight_spanish_merchant
from .test_raids import at_sea as raid_at_sea
from .test_war import at_sea as war_at_sea
from .test_war import finish_fight
from .test_war import start as war_table

NEW = {"war_bounty": "paid", "second_flag": "warship", "raid_glory": "more_than", "tie_break": "hidden_gold"}


def test_each_reading_is_an_option_with_its_values_said_and_a_bad_value_refused():
    for key, other in NEW.items():
        default = next(iter(values(key)))
        assert RULES.parse_options(2, {key: other.upper()}) == {key: other}
        assert RULES.parse_options(2, {key: f" {default} "}) == {key: default}
        said = RULES.options_said[key]
        assert other in said and default in said and "(default)" in said
        with pytest.raises(BadInput) as refused:
            RULES.parse_options(2, {key: "sometimes"})
        assert f"option {key} must be {default} or {other}, not 'sometimes'" in str(refused.value)
    with pytest.raises(BadInput, match=re.escape("tie_break=coins|hidden_gold")):
        RULES.parse_options(2, {"tiebreak": "hidden_gold"})


@pytest.mark.parametrize("option", [None, "refused", "paid"])
def test_a_bounty_from_a_nation_at_war_with_the_winners_is_refused_or_paid(option):
    """The Portuguese book ("Prêmios"): "você não poderá obter uma recompensa de uma
    nação que tenha uma Recompensa no seu tabuleiro ou quando a sua nação estiver em guerra
    com ela" (nor from a nation at war with yours): the default. The Italian book
    ("Ricompense", p. 11) has no war clause: "non potete ricevere una ricompensa da una
    nazione che ha messo una taglia anche sulla vostra testa" only; option war_bounty=paid.
    Frances (English) sinks Felipe, wanted by Spain (2 flags) and France (1), while England
    and Spain are at war (the War card E19)."""
    t = war_table(["E19", "E21", "E23"], options={"war_bounty": option} if option else None)
    next_turn(t)
    assert t.state["board"]["war"] == ["england", "spain"]
    t.state["board"]["npcs"].clear()                             # test set-up: no NPC nearby
    war_at_sea(t, 1, "nassau", {"spain": 2, "france": 1})
    war_at_sea(t, 2, "nassau")
    t.p(2)["ship"] = new_ship(t.state, "frigate")
    t.act(1, {"action": "end_turn"})
    gold = t.p(2)["gold"]
    # Frances finds him (2 dice); round 1: her 2 dice, both skulls; his 3, none; three hits
    t.add("dice", [6, 1], [6, 6], [1, 1, 1], [5, 5, 5])
    t.act(2, {"action": "scout", "target": "player", "seat": 1})
    finish_fight(t)
    assert t.p(1)["captain"] is None                             # he was sunk
    bounty = [e.data["by_nation"] for e in t.g.events if e.type == "GoldReceived" and e.data["why"] == "bounty"]
    paid = {"spain": 10, "france": 5} if option == "paid" else {"france": 5}
    assert bounty == [paid] and t.p(2)["gold"] == gold + sum(paid.values())


@pytest.mark.parametrize("option", [None, "any_ship", "warship"])
def test_beating_a_players_non_pirate_ship_costs_a_second_flag_only_in_the_italian_reading(option):
    """The Italian book ("Ricevere bandierine ricercato", p. 11): a flag "immediatamente
    dopo: 1. Aver iniziato un combattimento contro una nave non pirata ... 2. Aver
    sconfitto una nave (affondandola o vincendo un combattimento fra equipaggi)" (any ship;
    its example 3: "ha affondato una nave non pirata"): the default. The Portuguese book
    ("Adquirindo Recompensas"): "2) Derrotando um navio de guerra (Afundando ele ou
    vencendo num Combate de tripulação)" (a warship): option second_flag=warship. Felipe
    (Spanish, no flag) engages Frances' English Sloop, no pirate, and sinks her."""
    t = battle(options={"second_flag": option} if option else None)
    evs = sink_frances(t)
    assert [e.data["seat"] for e in evs if e.type == "ShipSunk"] == [2]
    flags = [e.data["why"] for e in t.g.events if e.type == "WantedFlagGained"]
    if option == "warship":
        assert flags == ["engaging a non-pirate ship"] and t.p(1)["flags"] == {"england": 1}
    else:
        assert flags == ["engaging a non-pirate ship", "defeating a non-pirate ship"]
        assert t.p(1)["flags"] == {"england": 2}


@pytest.mark.parametrize("option", [None, "warship"])
def test_beating_a_warship_costs_the_second_flag_in_both_readings(option):
    """"Derrotando um navio de guerra": a Man-o-War (a naval ship of its nation) beaten costs
    a flag under either reading; the Portuguese example 3 takes it for beating a Dutch
    warship ("devido ao critério de 'Derrotar um Navio de guerra!'")."""
    t = war_table(["E19", "E21", "E23"], options={"second_flag": option} if option else None)
    next_turn(t)
    npcs = t.state["board"]["npcs"]
    npcs["man_o_war_england"]["zone"] = "havana"
    npcs["man_o_war_england"]["ship"] = "sloop"                  # test set-up: a weak Man-o-War,
    npcs["man_o_war_spain"]["zone"] = "nassau"                   # alone off Havana
    t.p(1)["ship"] = new_ship(t.state, "frigate")
    # it scouts Felipe and attacks (no flag: he was attacked); he sinks it
    t.add("dice", [6, 1], [1, 1, 1], [6, 6, 6], [5, 5, 5])
    t.act(1, {"action": "leave_port"})
    finish_fight(t)
    won = next(e.data for e in t.g.events if e.type == "CombatWon")
    assert won["seat"] == 1 and won["beaten"] == "npc:man_o_war_england"
    assert t.p(1)["flags"] == {"england": 1}


def raid_for(loot_cards, option):
    """Frederico sights a Spanish merchant and raids it: no Seamanship success, the three
    cards drawn are the raid."""
    t = raid_at_sea() if option is None else raid_table(option)
    sight_spanish_merchant(t)
    t.add("cargo", *loot_cards)
    t.add("dice", [1, 1, 1])                                    # no success: the cards stand
    return t.act(1, {"action": "raid", "nation": "spain"})


def raid_table(option):
    base = {"demand_tiles": [demand_order({"havana": "sugar"})], "captains": [FREDERICO, FRANCES], "pick": [1]}
    t = Table(2, base, options={"raid_glory": option})
    t.act(1, {"action": "choose_ship", "ship": "sloop"})
    t.act(2, {"action": "choose_ship", "ship": "sloop"})
    t.act(1, {"action": "leave_port"})
    return t


TWELVE = ["C07", "C15", "C23"]          # three escape icons worth 4 each (the sloop's Maneuverability: 4)
THIRTEEN = ["C07", "C15", "C16"]        # 4 + 4 and a Food card worth 5 that hits the hold


@pytest.mark.parametrize("option", [None, "at_least", "more_than"])
def test_a_raid_for_12_gold_earns_glory_in_the_italian_reading_and_13_in_both(option):
    """The Italian book ("Saccheggiare i mercanti", p. 10): "trovando 12 o più monete ricevete anche 1
    Punto Gloria" (its raid example: "non trova le 12 monete necessarie"): the default. The
    Portuguese book's summary ("Ganhando O Jogo"): "Pilhando mais de 12 Ouros numa
    Caça aos mercantes" (more than 12): option raid_glory=more_than (its raid chapter says
    "12+", as the Italian)."""
    for cards, loot, glory in ((TWELVE, 12, option != "more_than"), (THIRTEEN, 13, True)):
        evs = raid_for(cards, option)
        won = next(e.data for e in evs if e.type == "RaidSucceeded")
        assert won["loot"] == loot
        assert ("GloryGained" in types(evs)) == glory, (loot, option)


def test_the_bots_weigh_a_raids_glory_as_the_game_reads_it():
    """The pirate bot values a raid worth 12 gold a glory point higher only where it earns one."""
    worth = {}
    for option in ("at_least", "more_than"):
        t = raid_table(option)
        p = t.p(1)
        worth[option] = _raid_outcome(t.state, p, [("escape", 4)] * 3)
    assert worth == {"at_least": 22.0, "more_than": 12.0}


TIE = {"players": [
    {"captain": "Felipe", "glory": 8, "gold": 30, "stash": 20},
    {"captain": "Frances Wright", "glory": 8, "gold": 5, "stash": 29}]}


@pytest.mark.parametrize("option", [None, "coins", "hidden_gold"])
def test_the_second_tie_break_is_the_coins_or_the_hidden_gold(option):
    """The Italian book ("Vincere il gioco", p. 3): "Se c'è ancora un pareggio, vince il
    giocatore con il maggior valore in monete" (the most coins): the default, aboard and
    stashed. The Portuguese book ("Ganhando O Jogo"): "Se ainda houver um empate, o jogador com a maior
    quantidade de ouro escondido ganha" (the most hidden gold): option
    tie_break=hidden_gold. Felipe and Frances both reach 10 (8 on the track, 2 from the
    stash) in the same round: Felipe has more coins (50 against 34), Frances more
    stashed (29 against 20)."""
    t = Table(2, {"demand_tiles": [demand_order({"havana": "sugar"})]}, position=TIE,
              options={"tie_break": option} if option else None)
    t.act(1, {"action": "end_turn"})
    assert [e.data["seat"] for e in t.g.events if e.type == "VictoryDeclared"] == [1, 2]
    t.act(2, {"action": "end_turn"})
    assert t.g.machine.finished
    out = RULES.outcome(t.state)
    assert out["scores"] == {"1": 10, "2": 10} and out["glory_track"] == {"1": 8, "2": 8}
    assert out["coins"] == {"1": 50, "2": 34}
    assert out["winners"] == ([2] if option == "hidden_gold" else [1])


BOTS = ["1=pirate", "2=merchant", "3=pirate", "4=merchant"]


def raid_glory_as_read(events, least):
    """Each raid that succeeded earned a glory point exactly when its loot was ``least`` or more."""
    for i, e in enumerate(events):
        if e.type == "RaidSucceeded":
            glory = [g for g in events[i + 1:i + 4] if g.type == "GloryGained" and g.data["why"].startswith("a raid")]
            assert bool(glory) == (e.data["loot"] >= least), e.data


def flags_for_beating_as_read(events, warship):
    """With ``second_flag=warship`` a flag for beating a ship follows only a naval NPC beaten."""
    beaten = None
    for e in events:
        if e.type == "CombatWon":
            beaten = e.data["beaten"]
        if e.type == "WantedFlagGained" and e.data["why"] == "defeating a non-pirate ship" and warship:
            assert str(beaten).startswith("npc:"), beaten


@pytest.mark.parametrize("options", [{key: value} for key, value in NEW.items()] + [NEW], ids=lambda o: ",".join(o))
def test_the_bots_play_seeded_games_to_the_end_under_each_reading(options):
    """Two pirates and two merchants, three seeded games per option (and all four at once),
    each to its end: coins conserved, a winner named, the raids' glory and the flags for
    beating a ship as the option reads them; ``tools simulate --option`` runs the same."""
    least = 13 if options.get("raid_glory") == "more_than" else 12
    for k in range(3):
        g = LocalGame(GAME, 4, options, seed=f"readings:{k}".encode().ljust(32, b"."))
        g.play_out(random.Random(k), BOTS)
        assert g.machine.finished and g.state["readings"] == options
        players = g.state["players"]
        assert g.state["bank"] + sum(p["gold"] + p["stash"] for p in players) == 510
        assert RULES.outcome(g.state)["winners"]
        raid_glory_as_read(g.events, least)
        flags_for_beating_as_read(g.events, options.get("second_flag") == "warship")
    stats = simulate(GAME, 4, 2, seed="readings", bot=BOTS, options=options)
    assert stats["games"] == 2 and stats["decisions"] > 0


def test_the_help_of_tools_new_lists_every_option_with_its_values():
    """``tools new --help`` names the game's options from the registry (no rules imported
    at start-up): each reading with its values, as ``parse_options`` takes them."""
    from service.kernel.games import BUILT_IN

    help_ = next(g.help for g in BUILT_IN if g.name == GAME)
    assert "glory=N" in help_
    for key in RULES.options_said:
        if key != "glory":
            assert f"{key}={'|'.join(values(key))}" in help_


def test_a_state_kept_before_the_options_existed_plays_the_defaults():
    """A snapshot of a game stored before these options has no ``readings``: every rule
    reads the default, as a game created without the options."""
    t = Table(2, {"demand_tiles": [demand_order({"havana": "sugar"})]}, position=TIE)
    assert t.state["readings"] == {}
    old = copy_state(t.state)
    del old["readings"]
    for key in NEW:
        assert reading(old, key) == reading(t.state, key) == next(iter(values(key)))
    assert raid_earns_glory(old, 12) and not raid_earns_glory(old, 11)
    new = Table(2, {"demand_tiles": [demand_order({"havana": "sugar"})]}, position=TIE, options={"raid_glory": "more_than"})
    assert not raid_earns_glory(new.state, 12) and raid_earns_glory(new.state, 13)
