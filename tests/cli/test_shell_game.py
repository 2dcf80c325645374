"""A shell script plays complete games with only new/status/legal/act."""

import os
import subprocess

import pytest

SCRIPT = os.path.join(os.path.dirname(__file__), "play_game.sh")


@pytest.mark.parametrize("seats", [2])  # 6 seats: the same commands, 3x longer; covered in process
def test_shell_script_plays_a_complete_letter_of_marque(cli, seats):
    p = subprocess.run(["bash", SCRIPT, "letter-of-marque", str(seats)], capture_output=True, text=True,
                       env=cli.env, timeout=900)
    assert p.returncode == 0, p.stderr
    game_id = p.stdout.strip().splitlines()[-1]
    st = cli.json("status", game_id)
    assert st["finished"] is True and st["to_act"] == [] and st["awaiting_chance"] is None
    assert set(st["scores"]) == {str(s) for s in range(1, seats + 1)}
    assert st["winners"] and all(1 <= w <= seats for w in st["winners"])
    cli.ok("audit", game_id)
