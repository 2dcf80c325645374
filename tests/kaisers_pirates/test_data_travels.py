"""Issue 32: a game carries every data file its rules read. Section 6's table
(``data/optional.json``) travels in the catalog ``GameCreated`` records, so a
change to the file in the source tree does not change how a stored game replays
or audits; games created before it travelled read the table as it stood then
(``data/optional-before-2026-11-27.json``, never edited)."""

import copy

import pytest

from service.aggregates.kaisers_pirates import catalog as catalog_data
from service.app import Privateer
from service.records.audit import audit_game
from service.simulate import simulate

OPTIONS = {"keep_three": "true", "tournament": "true", "torpedo_prizes": "true", "prize_resupply": "true",
           "shallow_pursuit": "true"}


@pytest.fixture
def app(tmp_path):
    a = Privateer(str(tmp_path / "g.db"))
    yield a
    a.close()


def _changed_table() -> dict:
    table = copy.deepcopy(catalog_data.optional_rules_table())
    table["keep_most"]["value"] = 0  # the change the issue made: a stored game then failed its replay
    for k in ("prize_stores", "chase_supply", "torpedo_prize"):
        if isinstance(table.get(k), dict) and "value" in table[k] and isinstance(table[k]["value"], int):
            table[k]["value"] += 1
    return table


def _source_table_changed(monkeypatch):
    changed = _changed_table()
    monkeypatch.setattr(catalog_data, "optional_rules_table",
                        lambda path=catalog_data.OPTIONAL_PATH: changed if path == catalog_data.OPTIONAL_PATH
                        else catalog_data.json.loads(path.read_text(encoding="utf-8")))
    catalog_data.INDEXES.clear()  # every index built from the table read before: built anew
    return changed


@pytest.fixture(autouse=True)
def _indexes_back():
    """The indexes as they were before the test (one may have been built from a changed table)."""
    held = dict(catalog_data.INDEXES)
    yield
    catalog_data.INDEXES.clear()
    catalog_data.INDEXES.update(held)


def _boards(app, gid):
    machine, version, _ = app.fold(gid)
    return version, machine.rules.view(machine.state, None)


def test_a_game_with_a_section_6_rule_records_the_table():
    cat = catalog_data.load()
    from service.kernel.games import get_rules

    recorded = get_rules("kaisers-pirates").catalog({"keep_three": True})
    assert recorded["optional_rules"] == catalog_data.optional_rules_table()
    assert "optional_rules" not in get_rules("kaisers-pirates").catalog({})  # nothing read, nothing carried
    assert "optional_rules" not in cat


def test_changing_the_source_table_does_not_change_a_stored_game(app, monkeypatch):
    out = simulate("kaisers-pirates", 3, 1, seed="travels", options=OPTIONS, app=app)
    from uuid import UUID

    gid = UUID(out["game_ids"][0])
    before = _boards(app, gid)
    assert audit_game(app, gid).ok
    changed = _source_table_changed(monkeypatch)
    assert catalog_data.optional_rules_table() == changed  # the source tree says otherwise now
    assert audit_game(app, gid).ok
    assert _boards(app, gid) == before


def test_a_game_created_before_reads_the_table_as_it_stood(app, monkeypatch):
    """A game whose catalog has no table (as every game created before it travelled):
    it reads the frozen copy, not the source file."""
    frozen = catalog_data.optional_rules_table(catalog_data.OPTIONAL_BEFORE_PATH)
    cat = catalog_data.load()
    assert catalog_data.Index(cat).optional_rules == frozen
    _source_table_changed(monkeypatch)
    assert catalog_data.Index(cat).optional_rules == frozen


def test_a_catalog_with_a_broken_table_is_refused():
    cat = catalog_data.load()
    cat["optional_rules"] = {"keep_most": {"value": 3}}
    with pytest.raises(Exception, match="optional_rules must hold"):
        catalog_data.validate(cat)
