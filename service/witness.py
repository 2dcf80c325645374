"""A witness of a service's feed of heads (event_store/heads_feed.py, spec/SPEC.md
§13): it keeps every entry it saw in a SQLite file of its own and reports any
later history that does not contain what it saw.

What it reports (each a ``Finding``, naming the game when the witness knows its
id, else its tag, and the version):

* ``feed``: the feed does not grow from what the witness saw: an entry that does
  not follow the last one kept (the feed was rewritten or cut), a hash or a
  signature that does not check, a key the service's history does not vouch for,
  a feed shorter than what the witness saw;
* ``rewritten``: a game's new head does not extend the head the witness saw last
  for it (a version that does not grow: the operator cut the game back and played
  it on, or rewrote it and signed again);
* ``truncated`` / ``differs`` (``check_export``): a game's file that ends before a
  head the witness saw, or holds another head at that version.

Keys: the first key history the witness reads is trusted as given (pin it with
``--key`` to trust nothing on first use); a key added later counts only with a
rotation statement signed by a key already trusted (the history's own check).
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import asdict, dataclass
from uuid import UUID

from event_store.heads_feed import FIRST_PREV, entry_problem, game_tag
from service.records.export_file import read_game
from event_store.signing import KeyHistory
from service.records.export import check_chain
from service.records.keys import history_keys, outside_life
from service.kernel.errors import BadInput

_TABLES = (
    "CREATE TABLE IF NOT EXISTS entries (seq INTEGER PRIMARY KEY, tag TEXT NOT NULL, version INTEGER NOT NULL, "
    "head TEXT NOT NULL, entry TEXT NOT NULL, body TEXT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS entries_by_game ON entries (tag, version)",
    "CREATE TABLE IF NOT EXISTS keys (fingerprint TEXT PRIMARY KEY, public_key TEXT NOT NULL, "
    "start TEXT, until TEXT)",
    "CREATE TABLE IF NOT EXISTS names (tag TEXT PRIMARY KEY, game_id TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS findings (n INTEGER PRIMARY KEY, kind TEXT NOT NULL, seq INTEGER, "
    "tag TEXT, version INTEGER, text TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS about (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
)


@dataclass(frozen=True)
class Finding:
    kind: str            # feed, rewritten, truncated, differs
    text: str
    game: str | None = None
    version: int | None = None
    seq: int | None = None

    def as_dict(self) -> dict:
        return asdict(self)


class Witness:
    """What one witness saw of one service, kept in ``path`` (SQLite)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.db = sqlite3.connect(path)
        for sql in _TABLES:
            self.db.execute(sql)
        self.db.commit()

    def close(self) -> None:
        self.db.close()

    # what it follows ---------------------------------------------------------
    def service(self, url: str) -> str:
        """The service this file witnesses: set on first use, refused for another one."""
        row = self.db.execute("SELECT value FROM about WHERE name = 'service'").fetchone()
        if row is None:
            self.db.execute("INSERT INTO about VALUES ('service', ?)", (url,))
            self.db.commit()
            return url
        if row[0] != url:
            raise BadInput(f"{self.path} witnesses {row[0]}, not {url}: give each service its own witness file")
        return url

    def last(self) -> tuple[int, bytes]:
        """The last entry kept: its ``seq`` and hash (0 and zeros before the first)."""
        row = self.db.execute("SELECT seq, entry FROM entries ORDER BY seq DESC LIMIT 1").fetchone()
        return (row[0], bytes.fromhex(row[1])) if row else (0, FIRST_PREV)

    def entries(self) -> int:
        return self.db.execute("SELECT count(*) FROM entries").fetchone()[0]

    def name(self, game_ids: list[str]) -> None:
        """Games the witness knows by id: its findings name them."""
        for gid in game_ids:
            tag = game_tag(UUID(gid).bytes).hex()
            self.db.execute("INSERT OR REPLACE INTO names VALUES (?, ?)", (tag, UUID(gid).hex))
        self.db.commit()

    def _game(self, tag: str) -> str:
        row = self.db.execute("SELECT game_id FROM names WHERE tag = ?", (tag,)).fetchone()
        return row[0] if row else f"tag {tag}"

    # keys --------------------------------------------------------------------
    def keys(self) -> KeyHistory:
        rows = self.db.execute("SELECT fingerprint, public_key, start, until FROM keys").fetchall()
        return KeyHistory({fp: bytes.fromhex(pk) for fp, pk, _, _ in rows},
                          life={fp: (start, until) for fp, _, start, until in rows})

    def learn_keys(self, history: dict) -> list[Finding]:
        """Take the service's key history (``GET /key``): its keys, each with its life,
        once its rotation statements check. Keys known before stay (a history that drops
        one, or moves the start of its life, is a finding)."""
        try:
            given = history_keys(history, "the service's")
        except BadInput as e:
            return [self._found(Finding("feed", f"the service's key history: {e.reason}"))]
        except (KeyError, TypeError, ValueError, AttributeError):
            return [self._found(Finding("feed", "the service's key history cannot be read"))]
        known = self.keys()
        out = []
        if known and not set(given) & set(known):
            out.append(self._found(Finding("feed", "the service's key history shares no key with the one seen "
                                                   "before: its new keys are not trusted")))
            return out
        for fp in known:
            if fp not in given:
                out.append(self._found(Finding("feed", f"the service's key history no longer lists key {fp[:16]}")))
            elif known.life.get(fp, (None, None))[0] != given.life.get(fp, (None, None))[0]:
                out.append(self._found(Finding("feed", f"the service's key history moved the start of key {fp[:16]}")))
        for fp, public in given.items():
            start, until = given.life.get(fp, (None, None))
            self.db.execute("INSERT INTO keys VALUES (?, ?, ?, ?) ON CONFLICT (fingerprint) DO UPDATE SET "
                            "until = excluded.until", (fp, public.hex(), start, until))
        self.db.commit()
        return out

    # the feed ----------------------------------------------------------------
    def take(self, entries: list[dict]) -> list[Finding]:
        """Check and keep the feed's next entries; the findings, each kept too.
        Stops at the first entry that does not follow (a rewritten feed)."""
        keys = self.keys()
        seq, prev = self.last()
        out: list[Finding] = []
        for e in entries:
            problem = entry_problem(e, prev, seq + 1, keys)
            if problem is None:
                problem = outside_life(keys, e["feed_fingerprint"], e["time"])
                problem = None if problem is None else f"entry {seq + 1}: {problem}"
            if problem is not None:
                out.append(self._found(Finding("feed", problem, seq=seq + 1)))
                break
            out += self._game_step(e)
            seq, prev = e["seq"], bytes.fromhex(e["entry"])
            self.db.execute("INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?)",
                            (seq, e["tag"], e["version"], e["head"], e["entry"], json.dumps(e, sort_keys=True)))
        self.db.commit()
        return out

    def _game_step(self, e: dict) -> list[Finding]:
        """A game's entry against the game's entry the witness saw before."""
        tag, game = e["tag"], self._game(e["tag"])
        row = self.db.execute("SELECT version, head, seq FROM entries WHERE tag = ? ORDER BY seq DESC LIMIT 1",
                              (tag,)).fetchone()
        seen = (row[0], row[1]) if row else (0, FIRST_PREV.hex())
        out = []
        if (e["since_version"], e["since_head"]) != seen:
            out.append(self._found(Finding(
                "feed", f"game {game}: entry {e['seq']} says its head at version {e['version']} extends version "
                        f"{e['since_version']}, where the witness saw version {seen[0]} last", game, e["version"],
                e["seq"])))
        if row and e["version"] <= row[0]:
            same = self.db.execute("SELECT head, seq FROM entries WHERE tag = ? AND version = ?",
                                   (tag, e["version"])).fetchone()
            said = (f"it had head {same[0][:16]} there (entry {same[1]}), now {e['head'][:16]}" if same
                    else f"the witness saw version {row[0]} (entry {row[2]})")
            out.append(self._found(Finding(
                "rewritten", f"game {game}: history rewritten at version {e['version']}: {said}; the head "
                             f"at version {row[0]} the witness saw is not in the game's history any more",
                game, e["version"], e["seq"])))
        return out

    def feed_ends(self, last_seq: int) -> list[Finding]:
        """The feed's last entry is ``last_seq``: shorter than what the witness kept is a finding."""
        seq, _ = self.last()
        if last_seq < seq:
            return [self._found(Finding("feed", f"the feed ends at entry {last_seq}, the witness saw {seq}: "
                                                "the feed was cut", seq=last_seq + 1))]
        return []

    # a game's file -------------------------------------------------------------
    def check_export(self, path: str) -> list[Finding]:
        """Does the export at ``path`` hold every head the witness saw for its game?"""
        doc = read_game(path, times_as_text=True)
        gid: UUID = doc["game_id"]
        rows = doc["events"]
        self.name([gid.hex])
        broken = check_chain(gid, rows)
        if broken is not None:
            return [Finding("differs", f"game {gid.hex}: the file's own chain is broken: {broken['reason']}",
                            gid.hex, broken.get("version"))]
        tag = game_tag(gid.bytes).hex()
        out = []
        for version, head, seq in self.db.execute("SELECT version, head, seq FROM entries WHERE tag = ? "
                                                  "ORDER BY seq", (tag,)).fetchall():
            if version > len(rows):
                out.append(Finding("truncated", f"game {gid.hex}: the file ends at version {len(rows)}, the witness "
                                                f"saw version {version} (entry {seq})", gid.hex, version, seq))
            elif bytes(rows[version - 1]["hash"]).hex() != head:
                out.append(Finding("differs", f"game {gid.hex}: the file's head at version {version} is not the one "
                                              f"the witness saw (entry {seq}): the history was rewritten",
                                   gid.hex, version, seq))
        return out

    def seen_of(self, game_id: str) -> int:
        """How many of the game's heads the witness saw."""
        tag = game_tag(UUID(game_id).bytes).hex()
        return self.db.execute("SELECT count(*) FROM entries WHERE tag = ?", (tag,)).fetchone()[0]

    def _found(self, f: Finding) -> Finding:
        tag = game_tag(UUID(f.game).bytes).hex() if f.game and not f.game.startswith("tag ") else None
        self.db.execute("INSERT INTO findings (kind, seq, tag, version, text) VALUES (?, ?, ?, ?, ?)",
                        (f.kind, f.seq, tag, f.version, f.text))
        return f
