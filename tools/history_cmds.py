"""`tools replay/log/audit/fork/export/import/games/simulate`: reading, checking
and copying the histories in a store, and bots that make new ones."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Optional

import typer

from service.kernel.games import games_said
from service.logs import logger
from tools.common import DbOpt, GameId, JsonOpt, app, fail, guarded, open_app, parse_options
from tools import answers
from tools.plain import out_json

if TYPE_CHECKING:
    from rich.console import Console

_logger = logger(__name__)


@app.command()
@guarded
def replay(game_id: GameId,
           to_turn: Annotated[Optional[int], typer.Option("--to-turn", metavar="TURN", min=0, help="Stop at the end of this turn (0: the setup).")] = None,
           to_event: Annotated[Optional[int], typer.Option("--to-event", metavar="VERSION", min=1, help="Stop after this version (1: the game's creation).")] = None,
           seat: Annotated[Optional[int], typer.Option("--seat", metavar="SEAT", help="Show the table as this seat saw it.")] = None,
           svg: Annotated[Optional[str], typer.Option("--svg", metavar="FILE", help="Also draw the table as an SVG picture in FILE.")] = None,
           json_out: JsonOpt = False, db: DbOpt = None) -> None:
    """The table at the end of a turn (or after an event), as the referee saw it or as SEAT did.

    Example: `tools replay 3f2a9c --to-turn 12 --seat 2 --svg turn12.svg`.
    """
    answers.replay(db, game_id, to_turn, to_event, seat, svg, json_out)


@app.command()
@guarded
def log(game_id: GameId, seat: Annotated[Optional[int], typer.Option("--seat", metavar="SEAT", help="Only what this seat may see.")] = None,
        turn: Annotated[Optional[str], typer.Option("--turn", metavar="N|A-B", help="Only turn N, or turns A to B.")] = None,
        json_out: JsonOpt = False, db: DbOpt = None) -> None:
    """The events, readable (all of them for the referee, or what SEAT may see).

    Example: `tools log 3f2a9c --seat 2 --turn 12` (what seat 2 read during turn 12).
    """
    answers.log(db, game_id, seat, turn, json_out)


@app.command()
@guarded
def audit(game_id: Annotated[Optional[str], typer.Argument(metavar="GAME_ID", help="Game id (omit with --all).")] = None,
          all_games: Annotated[bool, typer.Option("--all", help="Audit every game in the store (and every tournament).")] = False,
          json_out: JsonOpt = False, db: DbOpt = None) -> None:
    """Exit 0 when chain, chance and rules all agree; else exit 1 naming the first bad event (5: no such game).

    Example: `tools audit 3f2a9c`; `tools audit --all --json` for a whole store.
    """
    from uuid import UUID

    from service.records.audit import AuditReport, audit_game

    if (game_id is None) == (not all_games):
        fail("give a game id or --all", 2)
    a = open_app(db)
    # (--all: every history in the store, tournaments too, as the index holds them)
    ids = [a.resolve_id(game_id)] if game_id else [UUID(r["game_id"]) for r in a.recorder.select_games()]
    if game_id and not a.recorder.select_events(ids[0], limit=1):  # a full id names no game here: exit 5, as any
        from service.kernel.errors import UnknownGame

        raise UnknownGame(f"no game with id {ids[0].hex}")
    reports = []
    if len(ids) > 1 and not json_out:
        from rich.progress import track

        it = track(ids, description="auditing", console=_stderr_console(), transient=True)
    else:
        it = ids
    for gid in it:
        try:
            reports.append(audit_game(a, gid))
        except Exception as e:  # noqa: BLE001 - of a whole store, a game that cannot be read is one line
            if not all_games:
                raise
            reason = getattr(e, "reason", None) or str(e) or type(e).__name__
            reports.append(AuditReport(game_id=gid.hex).fail(1, "?", f"its stored events cannot be read: {reason}"))
    bad = [r for r in reports if not r.ok]
    if json_out:
        out_json([r.as_dict() for r in reports] if all_games else reports[0].as_dict())
    else:
        for r in reports:
            if r.ok:
                if not all_games:
                    typer.echo(f"ok: game {r.game_id}, {r.events} events: chain, chance and rules agree")
                    for n in r.notes:
                        typer.echo(f"  note: {n}")
            else:
                b = r.first_bad or {}
                typer.echo(f"VIOLATION: game {r.game_id}: event {b['version']} ({b['type']}): {b['reason']}")
        if all_games:
            typer.echo(f"{len(reports) - len(bad)} of {len(reports)} games audit clean")
    if bad:
        raise typer.Exit(1)


def _stderr_console() -> Console:
    from rich.console import Console

    return Console(stderr=True)


@app.command()
@guarded
def fork(game_id: GameId,
         at_turn: Annotated[Optional[int], typer.Option("--at-turn", metavar="TURN", help="Fork after the end of this turn.")] = None,
         at_event: Annotated[Optional[int], typer.Option("--at-event", metavar="VERSION", help="Fork after this version (a decision boundary).")] = None,
         db: DbOpt = None) -> None:
    """A new game whose history is this one's up to that point; prints the new id.

    Example: `tools fork 3f2a9c --at-turn 12` (then play the fork on: a what-if).
    """
    from service.records.history import fork as do_fork

    a = open_app(db)
    typer.echo(do_fork(a, a.resolve_id(game_id), at_turn, at_event).hex)


@app.command()
@guarded
def export(game_id: GameId, output: Annotated[str, typer.Option("-o", "--output", help="File to write.")],
           with_secret: Annotated[bool, typer.Option("--with-secret", help="Include the secret seed of an unfinished game (referee backups only).")] = False,
           json_out: JsonOpt = False, db: DbOpt = None) -> None:
    """Write one portable file holding the game's whole history (every event, byte for byte).

    Example: `tools export 3f2a9c -o final.pgame`, then `tools import final.pgame --db other.db`.
    """
    from service.records.history import export_game

    a = open_app(db)
    info = export_game(a, a.resolve_id(game_id), output, with_secret)
    if json_out:
        return out_json(info)
    typer.echo(f"wrote {output}: {info['events']} events, {info['bytes']} bytes")


@app.command("import")
@guarded
def import_(path: Annotated[str, typer.Argument(metavar="PATH", help="A file written by `tools export` or `tools record`.")],
            key_: Annotated[Optional[list[str]], typer.Option("--key", metavar="PUBKEY", help="The origin service's published public key (hex, or a file holding it or `tools key --json`); may be repeated. The file's signatures must then be by it.")] = None,
            db: DbOpt = None) -> None:
    """Load a game file into the store (same id), or a game record (a new game with
    the same events); prints the id. The whole history is audited first and its
    signatures checked: a file that does not verify is refused and nothing is
    written (not even a new, empty database).

    Trust comes from the keys the service is given, never from the file: its own
    key, and the origin's published key named with `--key`. A file signed only by
    keys it carries is imported as foreign evidence (said on stderr; with `--key`,
    refused), an unsigned file as unsigned evidence; either way its keys never
    join `tools key`'s list and this store signs none of its heads.

    Example: `tools import final.pgame --db other.db`; `tools import final.pgame --key origin-key.json`;
    `tools import final.record`.
    """
    import os

    from event_store.store import resolve_db
    from service.records.keys import published_keys
    from service.records.history import import_game
    from service.kernel.errors import PrivateerError

    target = resolve_db(db)
    local = not target.startswith(("postgresql://", "postgres://"))
    fresh = local and not os.path.exists(target)
    a = None
    try:
        record = _record_text(path)
        keys = published_keys(key_ or [])
        notes: list[str] = []
        a = open_app(db)
        if record is not None:
            from service.records.text_import import import_record

            gid = import_record(a, record, keys, notes)
        else:
            gid = import_game(a, path, keys, notes)
    except PrivateerError:
        if fresh:
            if a is not None:
                a.close()
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(target + suffix):
                    os.remove(target + suffix)
        raise
    for note in notes:
        if note:
            typer.echo(f"note: {note}", err=True)
    typer.echo(gid.hex)


def _record_text(path: str) -> str | None:
    """The text of a game record (`tools record`), or None for any other file."""
    try:
        with open(path, "rb") as f:
            head = f.read(64)
            if not head.lstrip().startswith(b'[Record "PrivateerRecord'):
                return None
            return (head + f.read()).decode("utf-8")
    except OSError:
        return None
    except UnicodeDecodeError:
        fail(f"{path} is not UTF-8 text", 2)


@app.command()
@guarded
def record(game_id: GameId,
           out: Annotated[Optional[str], typer.Option("--out", "-o", metavar="FILE", help="Write here instead of printing.")] = None,
           db: DbOpt = None) -> None:
    """The game record: a text file people can read and diff (header, then the
    moves turn by turn); `tools import FILE` plays it back into a new game with
    the same events. Table-mode games always; seeded games once finished.

    Example: `tools record 3f2a9c -o final.record`, then `diff` two records, or `tools import final.record`.
    """
    from service.records.text_signed import signed_record
    from service.kernel.rules import catalog_digest
    from service.kernel.games import get_rules
    from service.records.text import write_record

    a = open_app(db)
    gid = a.resolve_id(game_id)
    stored = a.stored_events(gid)
    created = stored[0].data
    rules = get_rules(created["game"])
    try:
        default = catalog_digest(rules.catalog(created.get("options") or {}))
    except Exception:  # the record then names the catalog in full
        _logger.warning("the default catalog of the game's options cannot be made", exc_info=True,
                        extra={"game_id": gid.hex})
        default = None
    finished = any(e.type == "GameFinished" for e in stored)
    text = signed_record(a, gid, stored, write_record(stored, a.recorder.select_secret(gid.hex) if finished else None,
                                                      default))
    if "\n[GameId " not in text:
        typer.echo(f"note: game {gid.hex} was not signed by this store from its start (imported from a file): "
                   "the record carries no sign lines; its export carries the origin's signatures", err=True)
    if out is None:
        typer.echo(text, nl=False)
    else:
        with open(out, "w", encoding="utf-8") as f:
            f.write(text)
        typer.echo(f"wrote {out} ({len(text.splitlines())} lines)", err=True)


@app.command()
@guarded
def games(json_out: JsonOpt = False, db: DbOpt = None) -> None:
    """The games in the store: id, game, seats, name and players, turn, state.

    Example: `tools games --db tournament.db`; `--json` for every field.
    """
    answers.games(db, json_out)


@app.command()
@guarded
def simulate(game: Annotated[str, typer.Argument(metavar="GAME", help=games_said())],
             seats: Annotated[int, typer.Option("--seats", metavar="N", help="Number of seats (players).")],
             games_: Annotated[int, typer.Option("--games", metavar="N", help="How many games.")] = 1,
             seed: Annotated[Optional[str], typer.Option("--seed", metavar="TEXT", help="Make the run reproducible.")] = None,
             bot: Annotated[Optional[list[str]], typer.Option("--bot", metavar="[SEAT=]BOT", help="Bot for every seat, or "
                                                                         "SEAT=BOT for one seat (repeat: --bot 1=pirate --bot 2=merchant; "
                                                                         "seats not named play the bot given without a seat, else random). "
                                                                         "Bots: random (every game; a random legal decision), "
                                                                         "or one of the game's own (listed under GAME).")] = None,
             option: Annotated[Optional[list[str]], typer.Option("--option", metavar="KEY=VALUE", help="Game option key=value.")] = None,
             in_memory: Annotated[bool, typer.Option("--in-memory", help="Do not store the games.")] = False,
             tournament: Annotated[str, typer.Option("--tournament", metavar="NAME",
                                                     help="Tournament the games belong to (for standings).")] = "",
             catalog: Annotated[Optional[str], typer.Option("--catalog", metavar="FILE", help="JSON file with printed "
                                                            "card values to play with instead of the built-in catalog.")] = None,
             json_out: JsonOpt = False, db: DbOpt = None) -> None:
    """Play games with bots (random legal players by default), with a progress bar.

    Example: `tools simulate loot --seats 4 --games 20 --bot greedy --seed evening-1`;
    a mixed table: `tools simulate merchants-and-marauders --seats 4 --bot 1=pirate --bot 2=pirate --bot merchant`.
    """
    from service.simulate import simulate as run

    if games_ < 1:
        fail("--games must be at least 1", 2)
    cat = None
    if catalog:
        from service.catalogs import load_catalog_file

        cat = load_catalog_file(game, catalog)
    stats = run(game, seats, games_, seed=seed, bot=bot, options=parse_options(option),
                app=None if in_memory else open_app(db), tournament=tournament,
                progress=not json_out, catalog=cat)
    if json_out:
        return out_json(stats)
    typer.echo(f"{stats['games']} games, {stats['decisions']} decisions, {stats['events']} events in "
               f"{stats['seconds']:.2f}s: {stats['games_per_second']:.1f} games/s, "
               f"{stats['decisions_per_second']:.0f} decisions/s ({'in memory' if in_memory else 'stored'})")
    if not in_memory and stats["game_ids"]:
        typer.echo(f"last game: {stats['game_ids'][-1]}")
