"""SQL shared by the SQLite and PostgreSQL read models (``{p}`` is the placeholder)."""

TABLES = ("proj_games", "proj_scores", "proj_standings", "proj_events", "proj_boards")

# A tournament's standings for one game are recounted from its score rows
# whenever one of its games finishes: the table is always exactly the sum of
# proj_scores, so a rebuild from scratch gives the same rows.
RECOUNT_DELETE = "DELETE FROM proj_standings WHERE tournament = {p} AND game = {p}"
RECOUNT_INSERT = (
    "INSERT INTO proj_standings (tournament, game, player, played, wins, shared_wins, win_share, "
    "points, best) "
    "SELECT tournament, game, player, COUNT(*), SUM(winner), SUM(shared), SUM(win_share), "
    "SUM(score), MAX(score) FROM proj_scores "
    "WHERE counted = 1 AND tournament = {p} AND game = {p} GROUP BY tournament, game, player"
)

# Every counted result, with when its game finished: the ratings are played through these in order
RESULTS = (
    "SELECT s.game_id, s.seat, s.player, s.tournament, s.game, s.score, s.winner, g.finished_at "
    "FROM proj_scores s JOIN proj_games g ON g.game_id = s.game_id WHERE s.counted = 1"
)
RESULTS_OF = RESULTS + " AND s.tournament = {p}"
