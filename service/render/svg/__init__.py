"""Pictures of the table: ``board_svg(board, config)`` draws what one viewer may
see (a seat's view, or the referee's) as SVG, from the same board the text
rendering reads (``service.views.board``), never from the referee's state:
what is hidden from a seat is drawn face down. One module per game, in the
manner of python-chess's ``chess.svg``: plain strings, no dependency.
"""

from __future__ import annotations

from ..common import drawing, players, title, who
from .draw import Svg


def board_svg(board: dict, config: dict) -> str:
    names = players(config)
    seat = board.get("seat")
    viewer = "the referee" if seat is None else "a spectator" if seat == 0 else who(seat, names)
    game = drawing(board["game"], "svg")
    svg = Svg(game.WIDTH, game.height(board["board"]))
    svg.rect(0, 0, game.WIDTH, svg.height, fill="#f4efe1")
    svg.text(16, 26, f"{title(board['game'])} — turn {board['turn']}, event "
             f"{board['version']} — as {viewer} sees it", size=17, weight="bold")
    if board["finished"]:
        won = ", ".join(who(w, names) for w in board["winners"])
        scores = ", ".join(f"{who(s, names)} {v}" for s, v in board["scores"].items())
        status = f"Finished: won by {won}. Scores: {scores}."
    elif board.get("to_act"):
        status = "To act: " + ", ".join(who(s, names) for s in board["to_act"])
    else:
        status = ""
    svg.text(16, 46, status, size=13)
    game.draw(svg, board["board"], config, names, seat, top=60)
    return svg.finish()
