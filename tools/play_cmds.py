"""`tools new/status/legal/act/chance/correct`: creating a game and recording it,
decision by decision and outcome by outcome, at the service or at a table."""

from __future__ import annotations

import json
from typing import Annotated, Optional

import typer

from service.kernel.errors import BadInput
from service.kernel.games import games_said
from tools.common import (DbOpt, GameId, JsonOpt, RefereeKeyOpt, app, guarded, open_app, parse_json, parse_options,
                          read_position)
from tools import answers
from tools.plain import out_json, report_appended


@app.command()
@guarded
def new(
    game: Annotated[str, typer.Argument(metavar="GAME", help=games_said())],
    seats: Annotated[int, typer.Option("--seats", metavar="N", help="Number of seats (players).")],
    table: Annotated[bool, typer.Option("--table", help="Table mode: the referee enters every die and card with `tools chance`.")] = False,
    option: Annotated[Optional[list[str]], typer.Option("--option", metavar="KEY=VALUE", help="Game option key=value (repeatable).")] = None,
    name: Annotated[str, typer.Option("--name", metavar="NAME", help="A name for the game.")] = "",
    tournament: Annotated[str, typer.Option("--tournament", metavar="NAME", help="Tournament this game belongs to.")] = "",
    catalog: Annotated[Optional[str], typer.Option("--catalog", metavar="FILE", help="JSON file with printed card values to use instead of the built-in catalog.")] = None,
    player: Annotated[Optional[list[str]], typer.Option("--player", metavar="SEAT=NAME", help="Who sits where, SEAT=NAME (repeatable); standings count by player.")] = None,
    position: Annotated[Optional[str], typer.Option("--position", metavar="FILE", help="JSON file stating the table to start from (ships, cards, gold, whose turn): docs/positions.md.")] = None,
    db: DbOpt = None,
) -> None:
    """Create a game and print only its id.

    Example: `tools new loot --seats 4 --option pairs=true --player 1=Ada --player 2=Bo --table`;
    `tools new merchants-and-marauders --seats 2 --table --position battle.json` starts mid-game.
    """
    cat = None
    if catalog:
        from service.catalogs import load_catalog_file

        cat = load_catalog_file(game, catalog)
    gid = open_app(db).create(game, seats, table=table, options=parse_options(option), name=name,
                              tournament=tournament, catalog=cat,
                              players=parse_options(player, "--player", "SEAT=NAME"),
                              position=read_position(position) if position else None)
    typer.echo(gid.hex)


@app.command()
@guarded
def status(game_id: GameId,
           board_: Annotated[bool, typer.Option("--board", help="Also show the table (the referee's view, or SEAT's).")] = False,
           seat: Annotated[Optional[int], typer.Option("--seat", metavar="SEAT", help="With --board: the table as this seat sees it.")] = None,
           json_out: JsonOpt = False, db: DbOpt = None) -> None:
    """Version, turn, who must act, awaited chance, scores when finished; --board draws the table.

    Example: `tools status 3f2a9c --board --seat 2`.
    """
    answers.status(db, game_id, json_out, board_, seat)


@app.command()
@guarded
def legal(game_id: GameId, seat: Annotated[int, typer.Option("--seat", metavar="SEAT", help="The seat asking.")],
          json_out: JsonOpt = False, db: DbOpt = None) -> None:
    """The decisions SEAT may submit now, numbered, each exactly as `act` takes it.

    Example: `tools legal 3f2a9c --seat 2`, then `tools act 3f2a9c --seat 2 3` submits the third.
    """
    answers.legal(db, game_id, seat, json_out)


@app.command()
@guarded
def act(game_id: GameId, decision: Annotated[str, typer.Argument(metavar="DECISION", help='The decision as JSON, e.g. \'{"action": "launch"}\', '
                                                                  'or its number in `tools legal`.')],
        seat: Annotated[int, typer.Option("--seat", metavar="SEAT", help="The seat deciding.")],
        expect_version: Annotated[Optional[int], typer.Option("--expect-version", metavar="VERSION", help="Refuse (exit 4) unless the game is at this version.")] = None,
        json_out: JsonOpt = False, db: DbOpt = None,
        seat_key: Annotated[Optional[str], typer.Option("--seat-key", metavar="FILE", help="The seat's own key file (`tools seat-key FILE`): registers its public key if the seat has none, and signs the decision with it.")] = None,
        previous_seat_key: Annotated[Optional[str], typer.Option("--previous-seat-key", metavar="OLD", help="The key file the seat registered before (another device's): it hands the seat over to --seat-key's key (a signed, public SeatKeyRegistered).")] = None,
        referee_key: RefereeKeyOpt = None) -> None:
    """Submit SEAT's decision: as JSON, or by its number in `tools legal`.

    Examples: `tools act 3f2a9c --seat 1 '{"action": "launch"}'`; `tools act 3f2a9c --seat 1 2` (the
    second decision `tools legal 3f2a9c --seat 1` lists; add --expect-version to be sure the list is
    the one you read). At a table whose referee signs: `tools act 3f2a9c --seat 1 2 --referee-key referee.key`.
    """
    answers.act(db, game_id, seat, decision, expect_version, json_out, seat_key, previous_seat_key, referee_key)


@app.command()
@guarded
def chance(game_id: GameId,
           outcomes: Annotated[list[str], typer.Argument(metavar="OUTCOMES", help="What the table shows, as you would say it: a die (4), "
                                                         "two dice (4 6), a card (blue-4), a face name (skull), "
                                                         "0 on a d10 for 10, one of the listed options; several "
                                                         "outcomes in a row for a whole deal. JSON is taken too.")],
           expect_version: Annotated[Optional[int], typer.Option("--expect-version", metavar="VERSION")] = None,
           json_out: JsonOpt = False, db: DbOpt = None) -> None:
    """Table mode: enter the dice, cards or random picks the game awaits.

    Example: `tools chance 3f2a9c 4 6` enters two dice; `tools chance 3f2a9c red-4 blue-2 green-5`
    enters three cards in the order they are awaited. All are recorded together, or none.
    """
    answers.chance(db, game_id, outcomes, expect_version, json_out)


NOTE_FORM = {"referee": "note", "text": "what happened and what was ruled"}


@app.command()
@guarded
def referee(game_id: GameId,
            decision: Annotated[Optional[str], typer.Argument(metavar="DECISION", help='The referee decision as JSON, e.g. '
                                                                   '\'{"referee": "penalty", "seat": 2, "card": "reflag-4"}\'.')] = None,
            list_: Annotated[bool, typer.Option("--list", help="List the referee decisions open now.")] = False,
            expect_version: Annotated[Optional[int], typer.Option("--expect-version", metavar="VERSION")] = None,
            json_out: JsonOpt = False, db: DbOpt = None, referee_key: RefereeKeyOpt = None) -> None:
    """A referee's decision: a penalty the rules name (The Kaiser's Pirates 3.1.5) or a note, recorded and audited.

    `tools referee ID --list` shows the penalties open now, exactly as this command takes them. A physical
    slip the rules cannot express is put on the record as a public note, which changes nothing in the game.

    Example: `tools referee 3f2a9c '{"referee": "note", "text": "seat 2 showed a card by accident; reshuffled"}'`.
    """
    a = open_app(db)
    gid = a.resolve_id(game_id)
    if list_ or decision is None:
        machine = a.load(gid).machine
        options = machine.rules.referee_legal(machine.state) if not machine.finished else []
        if json_out:
            return out_json(options)
        if not options:
            typer.echo("no ruling of the game's is open now")
        else:
            typer.echo("open now, each as this command takes it (every field; a text field: your own words):")
        for d, said in zip(options, machine.said_choices(options) if options else []):
            typer.echo(f"  {json.dumps(d)}  ({said})")
        typer.echo(f"  {json.dumps(NOTE_FORM)}  (a note on the record, at any time: it changes nothing in the game)")
        return
    d = parse_json(decision, "the referee decision")
    events = a.referee(gid, d, expect_version, referee=answers.referee_signing(a, gid, referee_key))
    report_appended(a, gid, events, None, json_out)


@app.command()
@guarded
def correct(game_id: GameId,
            outcomes_: Annotated[Optional[list[str]], typer.Argument(metavar="[OUTCOMES]", help="With --outcomes or --place: the outcomes to enter in place of the retracted ones, as `tools chance` takes them.", show_default=False)] = None,
            reason: Annotated[str, typer.Option("--reason", metavar="TEXT", help="Why (kept in the record, shown by the audit, read by every seat: do not name a hidden card).")] = "",
            to_version: Annotated[Optional[int], typer.Option("--to-version", metavar="VERSION", help="Retract whole steps: keep the game up to this version (the end of a step), retract every step after it.")] = None,
            count: Annotated[Optional[int], typer.Option("--outcomes", metavar="K", help="Table mode: retract the last K outcomes entered in the current step (the setup's deal included); OUTCOMES, if given, are entered in their place, else the step awaits the first of them again.")] = None,
            place: Annotated[Optional[int], typer.Option("--place", metavar="P", help="Table mode: the P-th outcome entered in the current step (1: its first; --list numbers them) was wrong: OUTCOME replaces it (two dice: `4 6`), the outcomes after it are entered again as they were.")] = None,
            list_: Annotated[bool, typer.Option("--list", help="Number the outcomes entered in the current step, as --place counts them.")] = False,
            expect_version: Annotated[Optional[int], typer.Option("--expect-version", metavar="VERSION")] = None,
            json_out: JsonOpt = False, db: DbOpt = None, referee_key: RefereeKeyOpt = None) -> None:
    """Correct a mistake on the record: retract the last step(s), or the last outcome(s) entered in a step.

    The retracted events stay in the log, marked as retracted; replay, audit, record and standings follow
    the corrected line. Give one of --to-version (whole steps), --outcomes (the last K outcomes entered in
    the current step, at a table) or --place (one outcome of the current step replaced, those after it
    entered again as they were); --list numbers the step's outcomes.

    Examples: `tools correct 3f2a9c --to-version 41 --reason "wrong button"`; `tools correct 3f2a9c
    --outcomes 1 --reason "die misread" 5` retracts the die just entered and enters a 5; a deal's 13th
    entry mistyped: `tools correct 3f2a9c --place 13 --reason "card mistyped" blue-4` (the 12 entries
    before it and the 12 after it stay as entered).
    """
    a = open_app(db)
    gid = a.resolve_id(game_id)
    if list_:
        return answers.step_outcomes(a, gid, json_out)
    chosen = [name for name, v in (("--to-version", to_version), ("--outcomes", count), ("--place", place))
              if v is not None]
    if len(chosen) != 1:
        raise BadInput("give one of --to-version (whole steps), --outcomes K or --place P (outcomes of the "
                       "current step); --list numbers them")
    if not reason.strip():
        raise BadInput("a correction needs --reason (it is kept in the record)")
    words = [answers.parse_word(w) for w in outcomes_ or []]
    if to_version is not None and words:
        raise BadInput("--to-version retracts whole steps: enter outcomes afterwards with `tools chance`")
    signing = answers.referee_signing(a, gid, referee_key)
    if to_version is not None:
        events = a.correct(gid, to_version, reason, expect_version, referee=signing)
    elif count is not None:
        events = a.retract_outcomes(gid, count, reason, expect_version, words, referee=signing)
    elif place is not None:  # (one of the three was given: checked above)
        events = a.replace_outcome(gid, place, words, reason, expect_version, referee=signing)
    report_appended(a, gid, events, None, json_out)
