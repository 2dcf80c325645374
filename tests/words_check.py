"""What a person reads of a game, gathered for the words tests (issue 45): over seeded bot
games, every log line as the referee, the public and each seat read it, the table as each
of them sees it (``tools replay``'s text), and the label of every decision a seat was
offered on the way."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from service.kernel.local import LocalGame
from service.render.common import board_text
from service.render.table import to_text
from service.views import board, card_namer, log_entries

# an id as the code writes it (draw_pile, reflag_card, team_keep); never in the text a person reads
SNAKE_ID = re.compile(r"\b[a-z]+_[a-z0-9_]+\b")


@dataclass
class Stored:
    """An event as the store gives it to ``log_entries``."""
    type: str
    turn: int
    visible_to: object
    data: dict
    originator_version: int
    timestamp: str = "2026-01-01T00:00:00+00:00"


@dataclass
class Read:
    log: list = field(default_factory=list)      # (reader, text)
    tables: list = field(default_factory=list)   # (reader, text)
    labels: list = field(default_factory=list)   # (seat, text)
    offered: list = field(default_factory=list)  # (seat, [(label, decision)])


def play(game: str, seats: int, seed: str, options: dict | None = None, bot: str | None = None,
         tables_every: int = 40) -> tuple[LocalGame, Read]:
    """A seeded bot game, and what every reader read of it."""
    g = LocalGame(game, seats, options=options, seed=seed.encode().ljust(32, b".")[:32])
    rules = g.rules
    choose = rules.bots[bot] if bot else next(iter(rules.bots.values()))
    rng = random.Random(seed)
    out = Read()
    readers = [None, 0, *range(1, g.machine.config["seats"] + 1)]
    steps = 0
    while not g.machine.finished:
        seat = g.to_act()[0]
        names = card_namer(g.machine)
        off = g.machine.offered(seat)
        said = [(names.decision(d), d) for d in off]
        out.labels += [(seat, s) for s, _ in said]
        out.offered.append((seat, said))
        if steps % tables_every == 0:
            _tables(g, readers, out)
        g.act(seat, choose(g.state, seat, g.legal(seat), rng))
        steps += 1
    _tables(g, readers, out)
    stored = [Stored(e.type, e.turn, e.vis, e.data, i + 1) for i, e in enumerate(g.events)]
    names = card_namer(g.machine)
    for r in readers:
        out.log += [(r, e["text"]) for e in log_entries(rules, stored, r, names=names)]
    return g, out


def _tables(g: LocalGame, readers, out: Read) -> None:
    m = g.machine
    version = len(g.events)
    for r in readers:
        b = board(_Id(), m, version, r)
        out.tables.append((r, to_text(board_text(b, m.config), 200)))


class _Id:
    hex = "0" * 32


def offending(texts, banned=()) -> list:
    """The texts that show an id or a word the log no longer says."""
    bad = []
    for who, text in texts:
        if SNAKE_ID.search(text) or any(b in text for b in banned):
            bad.append((who, text))
    return bad
