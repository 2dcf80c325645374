"""Complete games of every game through the CLI (bots via `tools simulate`,
stored in SQLite), then `tools audit --all` must be clean."""

import json

import pytest

CONFIGS = [
    ("letter-of-marque", 2, []), ("letter-of-marque", 6, []),
    ("loot", 2, []), ("loot", 3, []), ("loot", 4, []), ("loot", 5, []),
    ("loot", 4, ["--option", "pairs=true"]), ("loot", 6, ["--option", "pairs=true"]),
    ("loot", 8, ["--option", "pairs=true"]),
    ("kaisers-pirates", 2, []), ("kaisers-pirates", 3, []), ("kaisers-pirates", 4, []),
    ("merchants-and-marauders", 2, ["--bot", "merchant"]), ("merchants-and-marauders", 3, ["--bot", "merchant"]),
    ("merchants-and-marauders", 4, ["--bot", "merchant"]), ("merchants-and-marauders", 3, []),
    ("loot", 4, ["--bot", "greedy"]), ("kaisers-pirates", 3, ["--bot", "heuristic"]),
    ("kaisers-pirates", 4, ["--option", "team=true"]),
    ("merchants-and-marauders", 2, ["--bot", "pirate"]), ("merchants-and-marauders", 4, ["--bot", "pirate"]),
    ("kaisers-pirates", 4, ["--bot", "heuristic", "--option", "coal=true", "--option", "extra_damage=true",
                            "--option", "shallow_pursuit=true", "--option", "prize_resupply=true",
                            "--option", "beyond_1914=historical+no-breakout"]),
]


@pytest.mark.parametrize("game, seats, extra", CONFIGS, ids=[f"{g}-{s}{''.join('-' + a.split('=')[0] for a in e if not a.startswith('--'))}" for g, s, e in CONFIGS])
def test_complete_games_through_the_cli_audit_clean(cli, game, seats, extra):
    out = json.loads(cli.ok("simulate", game, "--seats", seats, "--games", "2", "--seed", "11", *extra, "--json"))
    assert out["games"] == 2
    for gid in out["game_ids"]:
        st = cli.json("status", gid)
        assert st["finished"] and st["scores"] is not None and st["winners"]
    p = cli.run("audit", "--all", "--json")
    assert p.returncode == 0, p.stdout
    reports = json.loads(p.stdout)
    assert len(reports) == 2 and all(r["ok"] for r in reports)
