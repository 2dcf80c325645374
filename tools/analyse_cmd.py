"""`tools analyse`: a seat's decisions at a point of a stored game, each with its
estimated win rate and score from the seat's own information (IS-MCTS)."""

from __future__ import annotations

from typing import Annotated, Literal, Optional

import typer

from tools.common import DbOpt, GameId, JsonOpt, app, guarded
from tools.plain import out_json


@app.command()
@guarded
def analyse(game_id: GameId,
            seat: Annotated[int, typer.Option("--seat", metavar="SEAT", help="The seat whose decisions are weighed, from its own information.")],
            at_turn: Annotated[Optional[int], typer.Option("--at-turn", metavar="TURN", min=0, help="At the end of this turn (as `replay --to-turn`).")] = None,
            at_event: Annotated[Optional[int], typer.Option("--at-event", metavar="VERSION", min=1, help="After this version (as `replay --to-event`).")] = None,
            playouts: Annotated[int, typer.Option("--playouts", metavar="K", min=1, help="Playouts in all (each from a new sampling of what the seat cannot see).")] = 1000,
            seed: Annotated[str, typer.Option("--seed", metavar="SEED", help="The search's seed: the same seed gives the same answer.")] = "0",
            json_out: JsonOpt = False, db: DbOpt = None) -> None:
    """The decisions SEAT may take at a point of a game, each in words with its estimated win rate, mean score and the playouts behind it.

    Only what the seat could see is used: what was hidden from it is drawn again for each playout (information-set Monte Carlo tree search). Without --at-turn or --at-event: the game as it stands. Example: `tools analyse 3f2a9c --seat 2 --at-turn 12 --playouts 2000 --seed 7`.
    """
    from service.analyse import analyse_stored

    if json_out:
        return out_json(analyse_stored(db, game_id, seat, at_turn, at_event, playouts, seed))
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn("playouts"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("analyse", total=playouts)
        result = analyse_stored(db, game_id, seat, at_turn, at_event, playouts, seed,
                                progress=lambda done: bar.update(task, completed=done))
    _print(result)


def _print(result: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{result['game']}, seat {result['seat']}, turn {result['turn']} (version {result['version']}): "
                        f"{result['playouts']} playouts, seed {result['seed']}")
    columns: tuple[tuple[str, Literal["left", "right"]], ...] = (
        ("#", "right"), ("decision", "left"), ("win rate", "right"), ("mean score", "right"), ("playouts", "right"))
    for col, just in columns:
        table.add_column(col, justify=just)
    for i, d in enumerate(result["decisions"], 1):
        n = d["playouts"]
        table.add_row(str(i), d["said"], f"{d['win_rate']:.0%}" if n else "-",
                      f"{d['mean_score']:.1f}" if n else "-", str(n))
    Console(markup=False, emoji=False).print(table)  # the seed and the words as typed: "[/]" is no markup
