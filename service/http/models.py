"""Request and response bodies of the HTTP API (they make the OpenAPI document)."""

from __future__ import annotations

from typing import Any, Optional

from pydantic import BaseModel, ConfigDict, Field

from service.kernel.games import games_said

MAX_VERSION = 2**62
# Request bodies are strict: an integer must be a JSON integer ("41", 41.0 and true are refused),
# a boolean a JSON boolean, a string a JSON string.
REQUEST = ConfigDict(extra="forbid", strict=True)


class ErrorBody(BaseModel):
    error: str = Field(description="Kind of error: bad_input, unauthorized, forbidden, unknown_game, "
                                   "stale_version, conflict, illegal, not_your_turn, ...")
    reason: str = Field(description="One line, for people.")


# requests ---------------------------------------------------------------------
class CreateGame(BaseModel):
    model_config = REQUEST
    game: str = Field(description=games_said(),
                      max_length=100)
    seats: int = Field(ge=1, le=64)
    table: bool = Field(False, description="Table mode: the referee enters every die and card.")
    options: dict[str, Any] = Field(default_factory=dict, description=(
        "Game options as the rules name them: a string, a number, true/false, or a list of strings "
        '(`{"pairs": true}`, `{"glory": 12}`, `{"colours": ["red", "blue"]}`); recorded exactly as '
        "the CLI's `--option key=value` records them."))
    name: str = Field("", max_length=200)
    tournament: str = Field("", max_length=200)
    players: dict[str, str] = Field(default_factory=dict, description="Player names by seat "
                                    '(`{"1": "Ada"}`); standings count named players.')
    position: dict[str, Any] | None = Field(None, description=(
        "A stated position to start from (ships, cards, gold, whose turn), as `tools new --position` "
        "reads it (docs/positions.md): its public part is recorded in `GameCreated`, its hidden part "
        "(a hand's cards, gold) is laid by the setup, seen only by its seat. Not with `wait_for_seats`."))
    wait_for_seats: bool = Field(
        False, description="Defer the setup (which draws the first chance) until every seat has "
                           "joined or the organiser starts the game, so that seats can add their "
                           "own entropy to the seed before any chance is drawn.")
    bots: dict[str, str] = Field(default_factory=dict, description=(
        'Bots in seats (`{"2": "ismcts"}`): the service plays their turns, each from its seat\'s own view; '
        "the names are those `tools simulate --bot` takes (GET /rules lists each game's)."))
    catalog: str | None = Field(None, max_length=64, description=(
        "A printed-card catalog the organiser loaded (`POST /catalogs`), by its digest: the game uses its values "
        "instead of the built-in ones (recorded in `GameCreated`)."))


class Invite(BaseModel):
    model_config = REQUEST
    seat: int = Field(ge=1, le=64, description="The seat the invitation is for.")
    player: str = Field("", max_length=200,
                        description="The player the seat is reserved for (carried by the invitation; "
                                    "empty: whoever holds the code).")


class JoinSeat(BaseModel):
    model_config = REQUEST
    code: str = Field(min_length=1, max_length=200,
                      description="The one-time invitation code for this seat (POST /games/{id}/invitations).")
    entropy: Optional[str] = Field(
        None, description="Hex, 1 to 64 bytes, mixed into the game's seed (only before the setup: "
                          "games created with wait_for_seats).", max_length=128)
    player: str = Field("", max_length=200, description="The joining player's name, where the invitation "
                                                         "named nobody (the organiser's name stands).")


class SubmitDecision(BaseModel):
    model_config = REQUEST
    decision: dict[str, Any] = Field(description="Exactly as /legal lists it.")
    expected_version: int = Field(ge=0, le=MAX_VERSION,
                                  description="The version the decision was made against; 409 if the game moved on.")
    seat: Optional[int] = Field(None, ge=1, le=64,
                                description="Only for the referee of a table-mode game typing a seat's "
                                            "decision; a seat token acts for its own seat.")
    signature: Optional[str] = Field(None, min_length=128, max_length=128, pattern="^[0-9a-f]{128}$",
                                     description="The seat's Ed25519 signature (hex) of the decision, required of a "
                                                 "seat that registered a key (spec/SPEC.md §6a).")
    referee_signature: Optional[str] = Field(None, min_length=128, max_length=128, pattern="^[0-9a-f]{128}$",
                                             description="A table's referee's Ed25519 signature (hex) of what it "
                                                         "enters, required once it registered a key (spec/SPEC.md §9a).")


class SeatKey(BaseModel):
    model_config = REQUEST
    public_key: str = Field(min_length=64, max_length=64, pattern="^[0-9a-fA-F]{64}$",
                            description="The seat's Ed25519 public key: its 32 raw bytes in hex.")
    handover: Optional[str] = Field(None, min_length=128, max_length=128, pattern="^[0-9a-fA-F]{128}$",
                                    description="A seat with a key already (a new device): its old key's signature "
                                                "of the new one (spec/SPEC.md §6a).")


class RefereeKey(BaseModel):
    model_config = REQUEST
    public_key: str = Field(min_length=64, max_length=64, pattern="^[0-9a-fA-F]{64}$",
                            description="The referee's Ed25519 public key: its 32 raw bytes in hex.")


class EnterChance(BaseModel):
    model_config = REQUEST
    outcome: Any = Field(None, description="A die value (4), several dice ([3, 5]), a card, an option, a deck "
                                           "order. Give this or `words`.")
    words: Optional[list[Any]] = Field(None, max_length=500,
                                       description="Several outcomes as the table shows them, in the order awaited "
                                                   "(`[4, 6]` for two dice, `[\"blue-4\", \"skull\"]`, a whole deal); "
                                                   "all appended together or none.")
    expected_version: int = Field(ge=0, le=MAX_VERSION)


class Correct(BaseModel):
    """One of ``to_version`` (whole steps), ``outcomes`` or ``place`` (table mode: outcomes of the current step)."""
    model_config = REQUEST
    to_version: Optional[int] = Field(None, ge=1, le=MAX_VERSION, description="Keep the game up to this store version "
                                      "(a step boundary); retract every step after it.")
    outcomes: Optional[int] = Field(None, ge=1, le=MAX_VERSION, description="Table mode: retract the last K outcomes "
                                    "entered in the current step (the setup's deal included); `words`, if given, are "
                                    "entered in their place, else the step awaits the first of them again.")
    place: Optional[int] = Field(None, ge=1, le=MAX_VERSION, description="Table mode: the P-th outcome entered in the "
                                 "current step (1: its first) becomes `words` (one outcome); those after it are "
                                 "entered again as they were.")
    words: Optional[list[Any]] = Field(None, max_length=500, description="With `outcomes` or `place`: the outcomes "
                                       "to enter in place of the retracted ones, as POST /chance takes them.")
    reason: str = Field(min_length=1, max_length=500, description="Why: kept in the record, shown by the audit.")
    expected_version: int = Field(ge=0, le=MAX_VERSION)
    referee_signature: Optional[str] = Field(None, min_length=128, max_length=128, pattern="^[0-9a-f]{128}$",
                                             description="A table's referee's Ed25519 signature (hex) of what it "
                                                         "enters, required once it registered a key (spec/SPEC.md §9a).")


class ForkGame(BaseModel):
    model_config = REQUEST
    at_turn: Optional[int] = Field(None, ge=0, le=MAX_VERSION)
    at_event: Optional[int] = Field(None, ge=1, le=MAX_VERSION)


# responses --------------------------------------------------------------------
class Status(BaseModel):
    game_id: str
    game: str
    name: str
    tournament: str
    seats: int
    table: bool
    version: int
    turn: int
    started: bool = Field(description="False until the setup has run (games created with wait_for_seats).")
    finished: bool
    to_act: list[int]
    awaiting_chance: Optional[dict[str, Any]] = Field(
        description="What the referee must enter (table mode); only its kind for non-referees.")
    scores: Optional[dict[str, Any]]
    winners: Optional[list[int]]
    tiebreak: Optional[dict[str, Any]] = Field(None, description="How a tie on points was broken, when it was "
                                                                "(the figures the rule used).")
    players: dict[str, str] = Field(default_factory=dict, description="Player names by seat, where named.")
    options: dict[str, Any] = Field(default_factory=dict, description="The game's options as recorded at its "
                                                                      "creation (optional rules, variants).")
    commitment: Optional[str] = Field(description="SHA-256 of the secret seed (hex).")
    fork: Optional[dict[str, Any]]
    published: Optional[bool] = Field(None, description="Forks only: false while private (seen only by the "
                                                         "organiser and the fork's referee).")
    head: Optional[str] = Field(description="The chain's head (hex): for the organiser and the referee while the "
                                            "game lasts (it moves with steps hidden from the others), for anyone "
                                            "once it ends; a seat holds its own heads in its receipts.")
    seats_taken: list[int]
    bots: dict[str, str] = Field(default_factory=dict, description=(
        "The seats the service's bots play, by seat, with the bot's name: read from how the seat was taken, "
        "never from a player's name."))


class Started(Status):
    already_started: bool = Field(description="True: the game had started before this request (a waiting game "
                                              "starts when its last seat joins); nothing was appended.")
    note: str = Field(description="What happened, in one line.")


class GameRow(BaseModel):
    game_id: str
    game: str
    name: Optional[str] = None
    tournament: Optional[str] = None
    seats: int
    table_mode: bool
    created: Optional[str] = None
    version: Optional[int] = Field(None, description="The store's version: for the organiser only (a seat "
                                                     "reads its own count in the game's status).")
    head: Optional[str] = Field(None, description="The chain's head: for the organiser only while the game "
                                                  "lasts, for anyone once it ends.")
    turn: Optional[int] = None
    finished: bool
    scores: Optional[dict[str, Any]] = None
    winners: Optional[list[int]] = None
    parent: Optional[str] = None
    published: Optional[bool] = Field(None, description="Forks only: false while private.")


class Created(BaseModel):
    game_id: str
    referee_key: str = Field(description="Shown once; the service stores only its SHA-256.")
    status: Status


class Invitation(BaseModel):
    game_id: str
    seat: int
    player: str
    code: str = Field(description="The one-time code to join this seat with. Shown once; stored hashed.")


class InvitationRow(BaseModel):
    seat: int
    player: str
    created: str
    used: Optional[str] = Field(description="When a seat was taken with it; null while unused.")


class Published(BaseModel):
    game_id: str
    published: bool


class Joined(BaseModel):
    game_id: str
    seat: int
    player: str = Field(description="The player the invitation named (may be empty).")
    token: str = Field(description="The seat token (Authorization: Bearer ...). Shown once; stored hashed.")
    version: int
    entropy_added: bool
    status: Status


class Board(BaseModel):
    game_id: str
    game: str
    version: int
    turn: int
    finished: bool
    to_act: list[int]
    viewer: str = Field(description="referee, seat or spectator")
    seat: Optional[int]
    scores: Optional[dict[str, Any]]
    winners: Optional[list[int]]
    board: dict[str, Any]


class Legal(BaseModel):
    game_id: str
    seat: int
    version: int
    to_act: list[int]
    decisions: list[dict[str, Any]]


class LogEntry(BaseModel):
    version: int
    turn: int
    type: str
    visible_to: Any = Field(description='"all", "referee" or a list of seats')
    data: dict[str, Any]
    text: str
    timestamp: str
    retracted: bool = Field(False, description="True: retracted by a later correction (off the game's line).")


class Receipt(BaseModel):
    """A seat's receipt: the service's signature over the head after the seat's
    accepted step (spec/SPEC.md, Receipts). Nothing in it counts hidden events."""
    statement: str
    game_id: str
    seat: int
    seat_version: int = Field(description="How many events the seat may read after this step.")
    head: str = Field(description="The chain's head after this step (hex; salted: it reveals nothing).")
    time: str
    fingerprint: str
    public_key: str
    signature: str


class Appended(BaseModel):
    game_id: str
    version: int = Field(description="The game's version after the append.")
    turn: int
    to_act: list[int] = Field(description="Who must act next (as of this append).")
    finished: bool
    events: list[LogEntry] = Field(description="The appended events the caller may see.")
    receipt: Optional[Receipt] = Field(default=None, description="For a decision: the deciding seat's receipt.")


class ServiceKey(BaseModel):
    format: str = Field("privateer-key-history", description="The key history (spec/SPEC.md §4).")
    fingerprint: str
    public_key: str = Field(description="Ed25519 public key, 32 bytes in hex.")
    keys: list[dict] = Field(description="Every key of the service, retired ones too, each with its life (`from`, "
                                         "`until`): a signature counts only within its key's life.")
    rotations: list[dict] = Field(default_factory=list, description="The rotation statements, each signed by the "
                                                                    "outgoing and the incoming key.")


class LogPage(BaseModel):
    game_id: str
    version: int = Field(description="The game's current version.")
    events: list[LogEntry]
    next_after: Optional[int] = Field(description="Pass as ?after= for the next page; null at the end.")


class BadEvent(BaseModel):
    version: int
    type: str
    reason: str


class AuditOut(BaseModel):
    game_id: str
    ok: bool
    events: int
    first_bad: Optional[BadEvent]
    notes: list[str]


class StandingRow(BaseModel):
    rank: int
    tournament: str
    game: str = Field(description="The game kind, or `all games` for a tournament's table over every kind.")
    player: str
    played: int
    wins: int
    shared_wins: int
    win_share: float
    points: float
    avg_points: float
    best: float
    rating: float = Field(description="openskill's Plackett-Luce rating over the games in the order they finished "
                                      "(mu - 3 sigma: 0 for a newcomer).")


class Health(BaseModel):
    ok: bool
    games: list[str]
    audit_runs: int = Field(description="Audits this process has run (cached answers are not counted).")
    analyses: int = Field(0, description="Analyses running or waiting in this process now.")
    analysis_playouts: int = Field(0, description="Playouts this process's analyses have played.")


class WeighedDecision(BaseModel):
    decision: dict[str, Any] = Field(description="Exactly as /decisions takes it.")
    said: str = Field(description="The decision in words (rules.say_decision).")
    playouts: int = Field(description="The playouts in which it was taken (0: never tried).")
    win_rate: Optional[float] = Field(description="The seat's share of the wins in those playouts.")
    mean_score: Optional[float] = Field(description="The seat's mean final score in those playouts.")


class Analysis(BaseModel):
    game: str
    id: str
    version: int = Field(description="The point, in the analysed seat's own count.")
    turn: int
    seat: int
    playouts: int
    seed: str
    decisions: list[WeighedDecision] = Field(description="In the order /legal lists them.")


class SeatBot(BaseModel):
    model_config = REQUEST
    bot: str = Field(min_length=1, max_length=100, description="The bot's name (GET /rules lists each game's).")
