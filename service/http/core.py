"""The service without HTTP: what every route calls, in pieces by concern.

* ``current``: the games as committed (cached aggregates, working copies);
* ``callers``: who is calling and which game a request names;
* ``reads``: status, board, legal decisions, log, in the caller's own count;
* ``audits``: the audit, cached for callers other than the referee;
* ``games``: create, fork, publish;
* ``seats``: invitations, joining, the start of a waiting game;
* ``steps``: decisions, chance outcomes, corrections (idempotent, versioned);
* ``analyses``: a seat's options weighed (long work, in its own threads);
* ``bots``: bots seated by the organiser, whose turns the service plays.

Every command either appends (and, when the caller gave an idempotency key,
records its first result in the same transaction) or raises a typed error
before anything is written.
"""

from __future__ import annotations

from service.app import Privateer

from .access import Access
from .analysis import Analyses
from .audits import Audits
from .bot_seats import BotSeats
from .bots import Bots
from .callers import Callers
from .changes import Changes
from .committer import Committer
from .current import Current
from .games import Games
from .reads import Reads
from .seats import Seats
from .steps import Steps


class GameService:
    def __init__(self, app: Privateer, organiser_key: str, analysis_playouts: int = 2000,
                 bot_quantum: float | None = 0.0):
        self.app = app
        self.changes = Changes()  # wakes this process's live streams
        # and, on PostgreSQL, every process's commits (which keep the recorder's index rows fresh)
        self._listening = self.changes.listen(app.db, getattr(app.recorder, "heard", None))
        self.access = Access(app, organiser_key)
        self.current = Current(app)
        self.callers = Callers(app, self.access, organiser_key)
        self.bot_seats = BotSeats(app)  # which seats the service's bots play (read by status and the bots)
        self.reads = Reads(app, self.current, self.access, self.bot_seats)
        self.audits = Audits(app, self.current)
        self.committer = Committer(app)
        self.steps = Steps(app, self.current, self.changes, self.committer)
        self.games = Games(app, self.current, self.access, self.reads)
        self.seats = Seats(app, self.current, self.access, self.reads, self.steps)
        self.analyses = Analyses(app, self.current, analysis_playouts)
        self.bots = Bots(app, self.current, self.steps, self.seats, self.changes, bot_quantum, self.bot_seats)

    def close(self) -> None:
        """Stop listening for other processes' commits (PostgreSQL); the
        steps sent committed first."""
        if self._listening is not None:
            self._listening.set()
        self.committer.close()
        self.analyses.close()
        self.bots.close()
