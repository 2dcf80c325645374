"""`tools serve`: the HTTP service (registered on the main Typer app)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Optional

import typer

from tools.common import DbOpt, app, fail

if TYPE_CHECKING:
    from fastapi import FastAPI


@app.command()
def serve(
    host: Annotated[str, typer.Option("--host", metavar="HOST", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", metavar="PORT", help="Port to listen on.")] = 8000,
    config: Annotated[Optional[str], typer.Option(
        "--config", envvar="PRIVATEER_CONFIG",
        help="TOML file with organiser_key = \"...\" (used when $PRIVATEER_ORGANISER_KEY is unset).")] = None,
    log_level: Annotated[str, typer.Option("--log-level", metavar="LEVEL", help="uvicorn log level.")] = "warning",
    log_json: Annotated[bool, typer.Option(
        "--log-json", help="The service's log (requests, refusals, failures) as JSON lines on stderr "
                           "(as $PRIVATEER_LOG_FORMAT=json; its level: $PRIVATEER_LOG_LEVEL, default INFO).")] = False,
    workers: Annotated[int, typer.Option("--workers", metavar="N", help="Worker processes (they share the database; "
                                                           "every cache is checked against it).")] = 1,
    max_body: Annotated[Optional[int], typer.Option(
        "--max-body", envvar="PRIVATEER_MAX_BODY", help="Largest request body in bytes (default 65536).")] = None,
    stream_max_seconds: Annotated[Optional[int], typer.Option(
        "--stream-max-seconds", envvar="PRIVATEER_STREAM_MAX_SECONDS",
        help="Longest a live stream stays open (default 600).")] = None,
    stream_max_events: Annotated[Optional[int], typer.Option(
        "--stream-max-events", envvar="PRIVATEER_STREAM_MAX_EVENTS",
        help="Most events one live stream sends (default 10000).")] = None,
    bot_quantum: Annotated[Optional[float], typer.Option(
        "--bot-quantum", envvar="PRIVATEER_BOT_QUANTUM", metavar="SECONDS",
        help="A run of a bot's decisions is appended this long after it began, then one every 0.7 of it, so "
             "its timing does not tell its hand (default: each game's own: 0.2, Merchants & Marauders' 0.1, "
             "The Kaiser's Pirates' 0.15; "
             "0: at once).")] = None,
    db: DbOpt = None,
) -> None:
    """Serve the HTTP JSON API (OpenAPI at /openapi.json, docs at /docs), the replay
    viewer (/games/ID/view) and the standings page (/standings) with uvicorn.

    The organiser key comes from $PRIVATEER_ORGANISER_KEY, else the config file;
    without either a random key is made and printed once on stderr.

    Example: `tools serve --db tournament.db --port 8000`, then open http://127.0.0.1:8000/standings.
    """
    import os

    from service.http.app import create_app
    from service.http.auth import organiser_key
    from service.kernel.errors import PrivateerError
    from service.logs import FORMAT_ENV, configure

    if log_json:
        os.environ[FORMAT_ENV] = "json"  # the workers' too
    try:
        configure(default_level="INFO")
    except ValueError as e:
        fail(str(e), 2)
    try:
        key, source = organiser_key(config)
    except ValueError as e:
        fail(str(e), 2)
    _limits_to_env(workers, max_body, stream_max_seconds, stream_max_events, bot_quantum)
    try:
        api = create_app(db, key)  # also creates the tables once, before any worker starts
    except PrivateerError as e:
        fail(e.reason, e.exit_code)
    if source == "generated":
        typer.echo(f"organiser key for this run (set PRIVATEER_ORGANISER_KEY to choose one): {key}", err=True)
    shown = f"[{host}]" if ":" in host else host
    typer.echo(f"privateer serves http://{shown}:{port}/ (API docs at /docs; Ctrl-C stops)", err=True)
    _run(api, db, key, host, port, workers, log_level)


def _limits_to_env(workers: int, max_body: int | None, stream_max_seconds: int | None,
                   stream_max_events: int | None, bot_quantum: float | None) -> None:
    """Check the service's limits and hand those given to ``create_app``, in this process and
    every worker, through the environment."""
    import os

    if workers < 1:
        fail("--workers must be at least 1", 2)
    for name, value in (("PRIVATEER_MAX_BODY", max_body), ("PRIVATEER_STREAM_MAX_SECONDS", stream_max_seconds),
                        ("PRIVATEER_STREAM_MAX_EVENTS", stream_max_events)):
        if value is not None:
            if value < 1:
                fail(f"{name.lower().replace('privateer_', '--').replace('_', '-')} must be at least 1", 2)
            os.environ[name] = str(value)  # read by create_app, in every worker too
    if bot_quantum is not None:
        if not 0 <= bot_quantum <= 60:
            fail("--bot-quantum must be from 0 to 60 seconds", 2)
        os.environ["PRIVATEER_BOT_QUANTUM"] = str(bot_quantum)


def _run(api: FastAPI, db: str | None, key: str, host: str, port: int, workers: int, log_level: str) -> None:
    """uvicorn: the app made here in one process, or several workers, each making its own from
    the environment."""
    import os

    import uvicorn

    if workers == 1:
        from service.http.heap import settle

        settle()
        uvicorn.run(api, host=host, port=port, log_level=log_level, access_log=False)
        return
    from event_store.store import resolve_db

    os.environ["PRIVATEER_DB"] = resolve_db(db)
    os.environ["PRIVATEER_ORGANISER_KEY"] = key
    uvicorn.run("service.http.app:app_from_env", factory=True, host=host, port=port, workers=workers,
                log_level=log_level, access_log=False)
