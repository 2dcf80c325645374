"""The game record: one text file per game that people can read and diff,
as PGN is for chess, and that imports back into the same history.

    [Record "PrivateerRecord 4"]
    [Game "loot"]
    [Player1 "Ada"]
    [Player2 "Bo; 1=Eve"]
    ...
    [Result "1: 26, 2: 26; won by 1"]

    turn 0
    * 4
    * blue-2a
    turn 1
    2 merchant card=merchant-5a
    3 pirate card=blue-2a merchant=merchant-5a

The header holds the game's creation (every field of ``GameCreated``: the
``Config`` tag carries what the others do not say, the card catalog by its
digest when it is the built-in one), the commitment, the revealed seed of a
finished game and the result. The moves are what the rules cannot work out
for themselves, in order:

* ``SEAT ACTION key=value ...``: a seat's decision (``2 attack ship=red-1``);
  a value is bare when it reads back as the same text, else JSON; a decision
  without an action is written as JSON (``2 {"x": 1}``);
* ``* OUTCOME``: a chance outcome entered at a table (a die, dice as
  ``[4, 6]``, a card, a pick, a shuffle's order);
* ``setup``, ``referee {...}``, ``entropy SEAT HEX``, ``correct VERSION reason``;
* ``position OUTCOME``, right after ``setup``: what a stated position gave the setup
  (its hidden part: a card in a hand, gold behind a screen), seeded or at a table;
* ``name SEAT PLAYER``: the name a seat was taken under (``SeatNamed``: at
  creation, then on joining), where it was given, as a value is written.

A tag's value is a JSON string (``[Name "table \\"7\\""]``); a player's name is a
tag of its own (``[Player3 "Ada; 3=Mallory"]``), so any name reads back as it
was written. Whatever JSON text the record holds keeps every character as itself
but those that would break a line or read in another order than stored (control
characters, bidirectional overrides, line separators: service/kernel/text.py),
which it escapes (``\\u202e``). Records of format 1 and 2 (a ``Players`` tag of
``seat=name`` pairs, names and reasons to the end of their line) still import.

A seat's decision line ends with the decision in the game's words, as a comment
(``2 attack ship=red-1  # attack red ship 1 with a cannon card``); a reader
ignores it (records written before it have none), as it ignores lines that start
with ``#``.

Everything else (every die roll of a seeded game, every consequence) is what
the rules and the seed give again. A record imports into a new game whose
events equal the original's one for one (type, turn, visibility, data):
table-mode games always, seeded games once finished (the seed is revealed).
"""

from __future__ import annotations

import json

from service.kernel import text as typed
from service.kernel.errors import BadInput
from service.kernel.events import may_read
from service.kernel.machine import CHANCE_TYPES, CHANCE_VALUE_FIELD
from service.kernel.patterns import pattern
from service.kernel.rules import catalog_digest
from service.kernel.games import get_rules

FORMAT_TAG = "PrivateerRecord"
FORMAT_VERSION = "5"
# 2: version 1 with a GameId tag and signed steps (service/records/text_signed.py ``signed_record``);
# 3: tags as JSON strings, a tag a player, names and reasons written as values (signed or not);
# 4: version 3 whose sign lines end with the public key that signed them (a claim: trust comes from
#    the keys a verifier is given, spec/SPEC.md §4)
# 5: version 4 with a finished game's signed end (an ``end`` line after the last sign line,
#    service/records/text_signed.py; spec/SPEC.md §4a, §11), and the seats' own keys and signatures
#    (``key SEAT HEX``; a seat-signed decision as its JSON object, then ``signed SEAT VERSION SIG [AS_SIGNED]``)
READS = ("1", "2", "3", "4", "5")
KEY, SIGNED = "key", "signed"  # a seat's registered key; a seat's signature of its decision (format 5)
_bare = pattern(r"^[A-Za-z_][A-Za-z0-9_.:+'/-]*$")
_tag = pattern(r'^\[(\w+) "(.*)"\]$')
_player_tag = pattern(r"^Player(\d+)$")


# writing ----------------------------------------------------------------------------------
def _json(v, **kw) -> str:
    """``v`` as JSON, each character as itself but those a line of the record must not hold."""
    return typed.json_kept(json.dumps(v, ensure_ascii=False, **kw))


def value_text(v) -> str:
    """A value as it reads back: bare when it is a plain word, else JSON."""
    if isinstance(v, str) and _bare().match(v) and v not in ("true", "false", "null", "NaN", "Infinity"):
        return v
    return _json(v, separators=(", ", ": "))


def decision_text(d) -> str:
    if isinstance(d, dict) and isinstance(d.get("action"), str) and _bare().match(d["action"]) \
            and all(_bare().match(k) for k in d):
        rest = " ".join(f"{k}={value_text(v)}" for k, v in d.items() if k != "action")
        return d["action"] + (" " + rest if rest else "")
    return _json(d)


def tag_line(name: str, value) -> str:
    """``[Name "value"]``: the value as a JSON string."""
    return f"[{name} {_json(str(value))}]"


def write_record(stored: list, seed: bytes | None, default_catalog_digest: str | None) -> str:
    """The record of a game from its stored events (oldest first)."""
    created = stored[0].data
    cfg = dict(created)
    if cfg.get("fork"):
        raise BadInput("a fork's record would not rebuild its parent's part: export it instead (`tools export`)")
    tags = [("Record", f"{FORMAT_TAG} {FORMAT_VERSION}"), ("Game", cfg["game"]),
            ("RulesVersion", cfg.get("rules_version", "1")), ("Seats", cfg["seats"]),
            ("Table", "yes" if cfg["table"] else "no")]
    if cfg.get("name"):
        tags.append(("Name", cfg["name"]))
    if cfg.get("tournament"):
        tags.append(("Tournament", cfg["tournament"]))
    players = cfg.get("players") or {}
    for seat, player in sorted(players.items(), key=lambda x: int(x[0])):
        tags.append((f"Player{int(seat)}", player))
    if cfg.get("options"):
        tags.append(("Options", json.dumps(cfg["options"], sort_keys=True)))
    tags.append(("Date", stored[0].timestamp.isoformat()))
    if cfg.get("commitment"):
        tags.append(("Commitment", cfg["commitment"]))
    finished = next((e for e in stored if e.type == "GameFinished"), None)
    if finished is not None:
        d = finished.data
        scores = ", ".join(f"{s}: {v}" for s, v in d["scores"].items())
        tags.append(("Result", f"{scores}; won by {', '.join(map(str, d['winners'])) or 'nobody'}"))  # none: solitaire lost
        if d.get("seed"):
            tags.append(("Seed", d["seed"] if isinstance(d["seed"], str) else bytes(d["seed"]).hex()))
    elif seed is not None and not cfg["table"]:
        tags.append(("Seed", seed.hex()))
    rest = {k: v for k, v in cfg.items() if k not in ("game", "rules_version", "seats", "table", "name", "tournament",
                                                       "players", "options", "commitment", "catalog")}
    if cfg.get("catalog_digest") != default_catalog_digest:
        rest["catalog"] = cfg["catalog"]  # printed values loaded by the organiser: kept whole
    tags.append(("Config", json.dumps(rest, sort_keys=True, separators=(",", ":"))))
    lines = [tag_line(k, v) for k, v in tags]
    lines.append("")
    turn = None
    rules = get_rules(cfg["game"])
    for i, e in enumerate(stored[1:], 1):
        line = record_move(e, cfg["table"])
        if line is not None and e.type == "Decided" and e.data["seat"] != 0 and isinstance(e.data["decision"], dict):
            line += "  # " + typed.shown(" ".join(rules.say_decision(created, e.data["decision"]).split()))
        if line is None:
            continue
        if e.turn != turn:
            turn = e.turn
            lines.append(f"turn {turn}")
        lines.append(line)
        if e.type == "Decided" and "signature" in e.data:  # the seat's own signature (spec/SPEC.md §6a, §11)
            lines.append(signed_line(e, sum(may_read(x.visible_to, e.data["seat"]) for x in stored[:i])))
    return "\n".join(lines) + "\n"


def signed_line(e, seat_version: int) -> str:
    """``signed SEAT SEAT_VERSION SIGNATURE [AS_SIGNED]``: a seat-signed decision's signature, after its line."""
    d = e.data
    line = f"{SIGNED} {d['seat']} {seat_version} {d['signature']}"
    if isinstance(d.get("as_signed"), str):
        line += " " + _json(json.loads(d["as_signed"]), separators=(",", ":"))
    return line


def record_move(e, table: bool) -> str | None:
    d = e.data
    if e.type == "Decided":
        decision = d["decision"]
        if d["seat"] == 0:
            if decision == {"step": "setup"}:
                return "setup"
            if decision.get("referee") == "correct":
                return f"correct {decision['to_version']} {value_text(decision.get('reason', ''))}"
            return "referee " + _json(decision)
        if "signature" in d:  # a seat-signed decision: as its JSON object, which a verifier reads plainly
            return f"{d['seat']} {_json(decision)}"
        return f"{d['seat']} {decision_text(decision)}"
    if e.type == "EntropyAdded":
        return f"entropy {d['seat']} {d['entropy']}"
    if e.type == "SeatKeyRegistered":
        return f"{KEY} {d['seat']} {d['key']}"
    if e.type == "SeatNamed":
        return f"name {d['seat']} {value_text(d['player'])}"
    if e.type in CHANCE_TYPES and d.get("stated"):  # the hidden part of a stated position, given to the setup
        return "position " + value_text(d[CHANCE_VALUE_FIELD[e.type]])
    if table and e.type in CHANCE_TYPES and not d.get("face_down"):
        return "* " + value_text(d[CHANCE_VALUE_FIELD[e.type]])
    return None


# reading ----------------------------------------------------------------------------------
def parse_value(text: str):
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def parse_decision(text: str):
    """A decision as written (``attack ship=red-1``, or JSON), less a trailing ``# comment``."""
    text = text.strip()
    if text.startswith("{"):
        d, end = json.JSONDecoder().raw_decode(text)
        tail = text[end:].strip()
        if tail and not tail.startswith("#"):
            raise ValueError(f"cannot read {tail!r} after the decision")
        return d
    words = text.split(" ")
    d = {"action": words[0]}
    rest = text[len(words[0]):].strip()
    # key=value pairs; a JSON value may hold spaces: scan for the next " key=" at JSON depth 0
    while rest and not rest.startswith("#"):
        key, eq, tail = rest.partition("=")
        if not eq or not _bare().match(key):
            raise ValueError(f"cannot read {rest!r} (want key=value)")
        value, rest = _take_value(tail)
        d[key] = value
    return d


def _take_value(tail: str):
    if tail[:1] in "[{\"":
        dec = json.JSONDecoder()
        v, end = dec.raw_decode(tail)
        return v, tail[end:].strip()
    word, _, rest = tail.partition(" ")
    return parse_value(word), rest.strip()


def read_record(text: str) -> dict:
    written: dict[str, tuple[int, str]] = {}  # tag name -> (line, value as written)
    lines: list[tuple[int, str]] = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = _tag().match(line)
        if m:
            written[m.group(1)] = (n, m.group(2))
            continue
        if line.startswith(("turn ", "sign ", "end ", f"{KEY} ", f"{SIGNED} ")):  # evidence, checked before a
            # record is played (service/records/text_signed.py): not a move. An imported record's game registers
            # no seat key: its seats signed for the original game (GameId), and their signatures stay here
            continue
        lines.append((n, line))
    record = written.get("Record", (0, ""))[1]
    if not record.startswith(FORMAT_TAG):
        raise BadInput(f"not a privateer game record (no [Record \"{FORMAT_TAG} {FORMAT_VERSION}\"] tag)")
    version = record.split()[-1]
    if version not in READS:
        raise BadInput(f"record format {record!r}: this build reads versions {', '.join(READS)}")
    tags = {name: _tag_value(name, value, version, n) for name, (n, value) in written.items()}
    moves = []
    for n, line in lines:
        try:
            moves.append((n, _parse_move(line, version)))
        except (ValueError, json.JSONDecodeError) as e:
            raise BadInput(f"record line {n}: {e}: {line[:80]!r}") from None
        except BadInput as e:
            raise BadInput(f"record line {n}: {e.reason}") from None
    return {"tags": tags, "moves": _stated_with_setup(moves)}


def _tag_value(name: str, value: str, version: str, n: int) -> str:
    """A tag's value as written: a JSON string (format 3), else with ``\\"`` and ``\\\\`` escaped."""
    if version in ("1", "2"):
        return value.replace('\\"', '"').replace("\\\\", "\\")
    try:
        return json.loads(f'"{value}"')
    except json.JSONDecodeError:
        raise BadInput(f"record line {n}: the {name} tag's value is not a JSON string") from None


def _stated_with_setup(moves: list) -> list:
    """``position`` lines (what a stated position gave the setup: its hidden part) go with
    the setup move before them, ``("setup", [outcomes])``; found anywhere else, refused."""
    out: list = []
    for n, (kind, arg) in moves:
        if kind == "stated":
            if not out or out[-1][1][0] != "setup":
                raise BadInput(f"record line {n}: a position line belongs right after the setup line")
            out[-1][1][1].append(arg)
            continue
        out.append((n, ("setup", []) if kind == "setup" else (kind, arg)))
    return out


def _parse_move(line: str, version: str = FORMAT_VERSION):
    head, _, rest = line.partition(" ")
    if head == "*":
        return ("chance", parse_value(rest.strip()))
    if head == "setup":
        return ("setup", None)
    if head == "position":
        return ("stated", parse_value(rest.strip()))
    if head == "referee":
        decision = json.loads(rest)
        if isinstance(decision, dict) and decision.get("referee") == "note":
            typed.kept(typed.NOTE, decision.get("text"))
        return ("referee", decision)
    if head == "entropy":
        seat, hexed = rest.split()
        return ("entropy", (int(seat), hexed))
    if head == "name":
        seat, _, player = rest.partition(" ")
        player = player.strip() if version in ("1", "2") else _one_value(player)
        return ("name", (int(seat), typed.kept(typed.PLAYER, player, f"seat {int(seat)}'s player name")))
    if head == "correct":
        to, _, reason = rest.partition(" ")
        reason = reason if version in ("1", "2") else _one_value(reason)
        return ("correct", (int(to), typed.kept(typed.REASON, reason)))
    if head.isdigit():
        return ("decide", (int(head), parse_decision(rest)))
    raise ValueError("a move is SEAT DECISION, * OUTCOME, setup, position, referee, entropy, name or correct")


def _one_value(text: str):
    """The one value ``text`` holds (bare or JSON), less a trailing ``# comment``."""
    value, rest = _take_value(text.strip())
    if rest and not rest.startswith("#"):
        raise ValueError(f"cannot read {rest!r} after the value")
    return value


def _players(tags: dict) -> dict:
    """Player names by seat: a ``PlayerN`` tag each (format 3), else the ``Players`` tag's
    ``seat=name`` pairs joined by ``; ``."""
    if tags["Record"].split()[-1] in ("1", "2"):
        pairs = (pair.partition("=") for pair in filter(None, (p.strip() for p in tags.get("Players", "").split(";"))))
        return {seat.strip(): name.strip() for seat, _, name in pairs}
    return {str(int(m.group(1))): name for tag, name in tags.items() if (m := _player_tag().match(tag))}


def created_config(tags: dict, rules) -> dict:
    """The ``GameCreated`` data the record's header describes."""
    try:
        cfg = json.loads(tags.get("Config", "{}"))
    except json.JSONDecodeError:
        raise BadInput("record: the Config tag is not JSON") from None
    if tags.get("RulesVersion", "1") != rules.rules_version:
        raise BadInput(f"this record was made under {rules.name} rules version {tags.get('RulesVersion')}; this "
                       f"build plays version {rules.rules_version}, so the same moves may not give the same "
                       "events: import its `tools export` file instead")
    try:
        _said(cfg, tags)
    except BadInput as e:
        raise BadInput(f"record: {e.reason}") from None
    if "catalog" not in cfg:
        cfg["catalog"] = rules.catalog(cfg["options"])
    if catalog_digest(cfg["catalog"]) != cfg.get("catalog_digest"):
        raise BadInput("record: the card catalog does not match the digest the game was created with")
    return cfg


def _said(cfg: dict, tags: dict) -> None:
    """The fields of ``GameCreated`` the header's tags say, into ``cfg``."""
    cfg.update({"game": tags["Game"], "rules_version": tags.get("RulesVersion", "1"), "seats": int(tags["Seats"]),
                "table": tags.get("Table") == "yes", "name": typed.kept(typed.GAME_NAME, tags.get("Name", "")),
                "tournament": typed.kept(typed.TOURNAMENT, tags.get("Tournament", "")),
                "options": json.loads(tags["Options"]) if tags.get("Options") else {},
                "commitment": tags.get("Commitment")})
    cfg["players"] = {seat: typed.kept(typed.PLAYER, name, f"seat {seat}'s player name")
                      for seat, name in _players(tags).items()}
