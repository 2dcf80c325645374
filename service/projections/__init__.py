"""Read models: per-game scores and tournament standings, built from the
store's notification log with exactly-once tracking, rebuildable from scratch.

Tables (same names on SQLite, in the store's file, and on PostgreSQL, in the
store's schema):

* ``proj_games`` — one row per game: game_id, game, name, tournament, seats,
  table_mode, created, parent (fork parent id or NULL), players (JSON
  ``{seat: name}``), finished (0/1), finished_at, events (version of
  ``GameFinished``), winners (JSON list of seats), shared (1 if more than one
  winner).
* ``proj_scores`` — one row per seat of a finished game: game_id, seat,
  player, tournament, game, score (final score), winner (0/1), shared (1 if
  this seat shares the victory), win_share (1/k for each of k winners, else 0),
  counted (0 for forks, which are what-ifs and never count in standings).
* ``proj_standings`` — one row per (tournament, game, player), the sums of
  the counted score rows: played (finished games), wins (games won, a shared
  victory counts as a win for every player sharing it), shared_wins (how many
  of those wins were shared), win_share (sum of 1/k per win: a victory shared
  by k players is worth 1/k), points (sum of final scores), best (best final
  score). ``tools standings`` adds rank and avg_points (points / played) and
  orders by win_share, then win rate (win_share / played), then avg_points
  (equal on all three: same rank). Games of different kinds are ranked
  separately (their points do not compare), and a tournament of several kinds
  also gets one table over all of them (``model.overall_rows``). Each row also
  has the player's ``rating`` (``model.ratings``: openskill's Plackett-Luce model
  over the counted games in the order they finished, read from ``proj_scores``
  and ``proj_games.finished_at``; ``mu - 3 sigma``).
* ``proj_events`` — every game's public events (what a spectator may read), as
  readable rows: game_id, seq (the public's own numbering: 1, 2, ... over the
  public events, never the store version, which would count hidden events), turn,
  type, text (as ``tools log`` words it), data (JSON, without the referee-only
  fields of chance events).
* ``proj_boards`` — each game's current public board: game_id, version (public
  numbering), turn, finished, board (JSON, the spectator's view).
  An organiser can browse a tournament with Datasette or any SQL client.
  (Read models built before these tables fill them on ``tools projections rebuild``.)
* tracking: ``proj_tracking`` (SQLite) / ``privateer_standings_tracking``
  (PostgreSQL, the library's tracking table): the last notification id applied,
  for the application ``privateer``; and, under ``privateer/log-text``, the
  wording of the log the text was written in (``views.LOG_TEXT_VERSION``): a
  read model an older wording wrote is rebuilt once, on its next catch-up.

A *player* is the name recorded for a seat (see ``model.py``). A seat nobody
named is kept in ``proj_scores`` as ``seat N`` but is not a player: standings
leave it out, so the seat 3 of one game is never merged with another's.
"""

from __future__ import annotations

from .runner import catch_up, open_view, rebuild  # noqa: F401
