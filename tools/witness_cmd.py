"""`tools witness`: follow a service's feed of heads (``GET /heads``) and keep what
it saw (service/witness.py), then tell any later history that does not hold it:
the feed's, or a game's export."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Annotated, Any, Optional

import typer

from tools.common import JsonOpt, app, fail, guarded
from tools.plain import echo, out_json

witness_app = typer.Typer(help="Follow a service's feed of heads and keep what it saw; report any history that does "
                               "not hold it (rewritten, cut back, replayed), naming the game and version.",
                          no_args_is_help=True)
app.add_typer(witness_app, name="witness")

StateOpt = Annotated[str, typer.Option("--state", metavar="FILE",
                                       help="The witness's own file (SQLite): what it saw of one service.")]
PAGE = 1000


def _get(url: str) -> Any:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers={"Accept": "application/json"}),
                                    timeout=30) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as e:
        fail(f"{url}: the service answered {e.code}", 2)
    except (urllib.error.URLError, OSError) as e:
        fail(f"{url}: cannot reach the service ({getattr(e, 'reason', e)})", 2)
    except json.JSONDecodeError:
        fail(f"{url}: the answer is not JSON", 2)


def _said(findings: list, json_out: bool, extra: dict) -> None:
    if json_out:
        out_json({**extra, "ok": not findings, "findings": [f.as_dict() for f in findings]})
    else:
        for f in findings:
            echo(f"{f.kind}: {f.text}")
        if not findings:
            echo(extra["said"])
    if findings:
        raise typer.Exit(1)


@witness_app.command("follow")
@guarded
def follow(url: Annotated[str, typer.Argument(metavar="URL", help="The service, e.g. http://127.0.0.1:8000")],
           state: StateOpt = "witness.db",
           key_: Annotated[Optional[str], typer.Option("--key", metavar="FILE", help="The service's key history "
                           "(`tools key --json`, `GET /key`) to trust instead of the one the service gives first.")
                           ] = None,
           game: Annotated[Optional[list[str]], typer.Option("--game", metavar="GAME_ID", help="A game to name by "
                           "its id in findings (the feed names games by tag); may be repeated. Public games are "
                           "named from `GET /games`.")] = None,
           every: Annotated[float, typer.Option("--every", metavar="SECONDS", help="Follow: read the feed again "
                            "every SECONDS until interrupted (0: read it once and stop).", min=0)] = 0,
           json_out: JsonOpt = False):
    """Read the feed's new entries, check each (it follows the last one kept, its hash and the service's
    signature check with a key of the service's history) and keep it; report any game whose new head does not
    extend the one seen before. Exit 1 on a finding (each kept in the witness's file too); 2 when the service cannot be read.

    Example: `tools witness follow http://127.0.0.1:8000 --state witness.db --every 10`
    """
    from service.witness import Witness

    base = url.rstrip("/")
    w = Witness(state)
    try:
        w.service(base)
        history = json.loads(open(key_, encoding="utf-8").read()) if key_ else _get(f"{base}/key")
        findings = w.learn_keys(history)
        w.name(list(game or []) + [g["game_id"] for g in _get(f"{base}/games") or [] if isinstance(g, dict)
                                   and "game_id" in g])
        taken = 0
        while True:
            more = True
            while more and not findings:
                after, _ = w.last()
                page = _get(f"{base}/heads?after={after}&limit={PAGE}")
                if not page["entries"] and after:  # nothing new: the feed must still reach what was kept
                    findings += w.feed_ends(_feed_end(base, after))
                findings += w.take(page["entries"])
                taken += len(page["entries"])
                more = page["more"]
            if findings or not every:
                break
            time.sleep(every)
        _said(findings, json_out, {"entries": w.entries(), "new": taken,
                                   "said": f"ok: {taken} new entries, {w.entries()} kept; every new head extends "
                                           "the one seen before"})
    finally:
        w.close()


def _feed_end(base: str, after: int) -> int:
    """The feed's last ``seq`` when it gives nothing after ``after``: ``after`` if it holds that entry."""
    page = _get(f"{base}/heads?after={after - 1}&limit=1")
    return after if page["entries"] else after - 1


@witness_app.command("check")
@guarded
def check(path: Annotated[str, typer.Argument(metavar="FILE", help="A game's export (`tools export`).")],
          state: StateOpt = "witness.db", json_out: JsonOpt = False):
    """Does a game's export hold every head the witness saw for that game? A file that ends before a head seen
    (truncated) or holds another head at its version (rewritten) is a finding: exit 1.

    Example: `tools witness check game.pgame --state witness.db`
    """
    from service.witness import Witness

    w = Witness(state)
    try:
        findings = w.check_export(path)
        _said(findings, json_out, {"said": "ok: the file holds every head the witness saw of its game"})
    finally:
        w.close()
