"""The game record: one text file per game that people can read and diff,
as PGN is for chess, and that imports back into the same history.

    [Game "loot"]
    [Players "1=Ada; 2=Bo"]
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
  creation, then on joining), where it was given.

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
import re

from service.kernel.errors import BadInput
from service.kernel.machine import CHANCE_TYPES, CHANCE_VALUE_FIELD
from service.kernel.rules import catalog_digest, get_rules

FORMAT_TAG = "PrivateerRecord"
FORMAT_VERSION = "1"
READS = ("1", "2")  # 2: with a GameId tag and signed steps (service/evidence.py ``signed_record``)
_BARE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.:+'/-]*$")
_TAG = re.compile(r'^\[(\w+) "(.*)"\]$')


# writing ----------------------------------------------------------------------------------
def value_text(v) -> str:
    """A value as it reads back: bare when it is a plain word, else JSON."""
    if isinstance(v, str) and _BARE.match(v) and v not in ("true", "false", "null", "NaN", "Infinity"):
        return v
    return json.dumps(v, separators=(", ", ": "), ensure_ascii=False)


def decision_text(d) -> str:
    if isinstance(d, dict) and isinstance(d.get("action"), str) and _BARE.match(d["action"]) \
            and all(_BARE.match(k) for k in d):
        rest = " ".join(f"{k}={value_text(v)}" for k, v in d.items() if k != "action")
        return d["action"] + (" " + rest if rest else "")
    return json.dumps(d, ensure_ascii=False)


def _q(text) -> str:
    return str(text).replace("\\", "\\\\").replace('"', '\\"')


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
    if players:
        tags.append(("Players", "; ".join(f"{s}={n}" for s, n in sorted(players.items(), key=lambda x: int(x[0])))))
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
    lines = [f'[{k} "{_q(v)}"]' for k, v in tags]
    lines.append("")
    turn = None
    rules = get_rules(cfg["game"])
    for e in stored[1:]:
        line = _move(e, cfg["table"])
        if line is not None and e.type == "Decided" and e.data["seat"] != 0 and isinstance(e.data["decision"], dict):
            line += "  # " + " ".join(rules.say_decision(created, e.data["decision"]).split())
        if line is None:
            continue
        if e.turn != turn:
            turn = e.turn
            lines.append(f"turn {turn}")
        lines.append(line)
    return "\n".join(lines) + "\n"


def _move(e, table: bool) -> str | None:
    d = e.data
    if e.type == "Decided":
        decision = d["decision"]
        if d["seat"] == 0:
            if decision == {"step": "setup"}:
                return "setup"
            if decision.get("referee") == "correct":
                return f"correct {decision['to_version']} {decision.get('reason', '')}".rstrip()
            return "referee " + json.dumps(decision, ensure_ascii=False)
        return f"{d['seat']} {decision_text(decision)}"
    if e.type == "EntropyAdded":
        return f"entropy {d['seat']} {d['entropy']}"
    if e.type == "SeatNamed":
        return f"name {d['seat']} {d['player']}"
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
        if not eq or not _BARE.match(key):
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
    tags, moves = {}, []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = _TAG.match(line)
        if m:
            tags[m.group(1)] = m.group(2).replace('\\"', '"').replace("\\\\", "\\")
            continue
        if line.startswith(("turn ", "sign ")):  # a signed step's line (service/evidence.py): not a move
            continue
        try:
            moves.append((n, _parse_move(line)))
        except (ValueError, json.JSONDecodeError) as e:
            raise BadInput(f"record line {n}: {e}: {line[:80]!r}") from None
    if not tags.get("Record", "").startswith(FORMAT_TAG):
        raise BadInput("not a privateer game record (no [Record \"PrivateerRecord 1\"] tag)")
    if tags["Record"].split()[-1] not in READS:
        raise BadInput(f"record format {tags['Record']!r}: this build reads version {FORMAT_VERSION}")
    return {"tags": tags, "moves": _stated_with_setup(moves)}


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


def _parse_move(line: str):
    head, _, rest = line.partition(" ")
    if head == "*":
        return ("chance", parse_value(rest.strip()))
    if head == "setup":
        return ("setup", None)
    if head == "position":
        return ("stated", parse_value(rest.strip()))
    if head == "referee":
        return ("referee", json.loads(rest))
    if head == "entropy":
        seat, hexed = rest.split()
        return ("entropy", (int(seat), hexed))
    if head == "name":
        seat, _, player = rest.partition(" ")
        return ("name", (int(seat), player.strip()))
    if head == "correct":
        version, _, reason = rest.partition(" ")
        return ("correct", (int(version), reason))
    if head.isdigit():
        return ("decide", (int(head), parse_decision(rest)))
    raise ValueError("a move is SEAT DECISION, * OUTCOME, setup, position, referee, entropy, name or correct")


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
    cfg.update({"game": tags["Game"], "rules_version": tags.get("RulesVersion", "1"), "seats": int(tags["Seats"]),
                "table": tags.get("Table") == "yes", "name": tags.get("Name", ""),
                "tournament": tags.get("Tournament", ""),
                "options": json.loads(tags["Options"]) if tags.get("Options") else {},
                "commitment": tags.get("Commitment")})
    players = {}
    for pair in filter(None, (p.strip() for p in tags.get("Players", "").split(";"))):
        seat, _, name = pair.partition("=")
        players[seat.strip()] = name.strip()
    cfg["players"] = players
    if "catalog" not in cfg:
        cfg["catalog"] = rules.catalog(cfg["options"])
    if catalog_digest(cfg["catalog"]) != cfg.get("catalog_digest"):
        raise BadInput("record: the card catalog does not match the digest the game was created with")
    return cfg
