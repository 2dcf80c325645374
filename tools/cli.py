"""``tools``: the referee's command line (entry point).

The commands live in modules named for what they do, each registering on the
one Typer app of ``tools.common``: play_cmds (new, status, legal, act, chance,
correct, referee), table_cmd (table: the referee's session), history_cmds (replay, log, audit, fork, export, import, games,
simulate), projections_cmd (projections, standings), serve_cmd (serve).
"""

from __future__ import annotations

# imported for registering their commands, in the order `tools --help` lists them
from tools import play_cmds  # noqa: F401,I001
from tools import table_cmd  # noqa: F401,I001
from tools import history_cmds  # noqa: F401,I001
from tools import projections_cmd, serve_cmd  # noqa: F401
from tools.common import app


def main():
    app()


if __name__ == "__main__":
    main()
