"""Games stored before issue 33's rules changes (The Kaiser's Pirates version 3,
Merchants & Marauders version 5) still replay, audit and show what they showed:
tests/fixtures/before_issue33.db was recorded with the code of commit aac00b3
(tests/fixtures/make_before_issue33.py), and before_issue33.json holds, per game,
its last version and a digest of every seat's final view as that code showed it."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from uuid import UUID

import msgpack
import pytest

from service.app import Privateer
from service.records.audit import audit_game
from service.kernel.games import get_rules

FIXTURES = Path(__file__).parent.parent / "fixtures"
RECORDED = json.loads((FIXTURES / "before_issue33.json").read_text())["games"]


def _without_labels(v):
    """The view without the labels added since for display only, read from the catalog
    and never from the game's course: an upgrade tile's printed name (Merchants &
    Marauders, ``{"tile", "kind", "name"}``). Nothing else is left out."""
    if isinstance(v, dict):
        out = {k: _without_labels(x) for k, x in v.items()}
        if "tile" in v and "kind" in v:
            out.pop("name", None)
        return out
    if isinstance(v, list):
        return [_without_labels(x) for x in v]
    return v


def views_digest(rules, machine) -> str:
    """As make_before_issue33.py computes it: every seat's view and the referee's."""
    h = hashlib.sha256()
    for seat in [None, *range(1, machine.k["seats"] + 1)]:
        h.update(msgpack.packb(_without_labels(rules.view(machine.state, seat)), use_bin_type=True))
    return h.hexdigest()


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    db = tmp_path_factory.mktemp("old") / "before_issue33.db"
    shutil.copy(FIXTURES / "before_issue33.db", db)
    return Privateer(str(db))


def test_the_store_holds_the_recorded_games(app):
    assert sorted(g["game_id"] for g in app.games()) == sorted(RECORDED)


@pytest.mark.parametrize("gid", sorted(RECORDED), ids=[RECORDED[g]["name"] for g in sorted(RECORDED)])
def test_an_old_game_audits_and_replays_to_the_view_it_had(app, gid):
    report = audit_game(app, UUID(gid))
    assert report.ok, report.as_dict()
    game = app.load(UUID(gid))
    recorded = RECORDED[gid]
    assert game.version == recorded["version"]
    assert game.machine.finished == recorded["finished"]
    assert views_digest(get_rules(game.machine.config["game"]), game.machine) == recorded["views"]


def test_an_old_games_snapshots_load_with_its_rules_version(app):
    """The fixture's snapshots (taken every 100 events by the old code) lack the state's
    ``issue33``: a game loaded from one plays as recorded, version 2; a snapshot of a
    version-3 game taken before the key existed reads version 3."""
    kp = [gid for gid, r in RECORDED.items() if r["name"].startswith("kp-") and r["version"] > 100]
    assert kp
    for gid in kp:
        assert app.load(UUID(gid)).machine.state["issue33"] is False
    rules = get_rules("kaisers-pirates")
    config = app.load(UUID(kp[0])).machine.config
    for version, flag in (("2", False), ("3", True)):
        state: dict = {}
        rules.restored(dict(config, rules_version=version), state)
        assert state["issue33"] is flag
