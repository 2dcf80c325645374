"""The catch-up runner: read the store's notification log after the tracked
position, fold the events into a batch, commit the batch and the new position
in one transaction; repeat until the log is exhausted.

On PostgreSQL, ``follow()`` hands over to the library's ``ProjectionRunner``,
which subscribes to the store (polling its log every 50 ms) and applies each new event as it
is committed, with the same view and the same tracking row.
"""

from __future__ import annotations

import time

from service.logs import logger
from service.views import LOG_TEXT_VERSION

from .boards import public_boards
from .created import created_data
from .model import Batch, add_event

TYPE_CHECKING = False  # mypy takes the name as true; ``typing`` is not imported at run time
if TYPE_CHECKING:
    from collections.abc import Callable
    
    from service.app import Privateer
    
    from .postgres_view import PostgresStandingsView
    from .sqlite_view import SQLiteView

log = logger(__name__)

APP_NAME = "privateer"
TEXT_STAMP = APP_NAME + "/log-text"  # the log wording a read model was written in (``LOG_TEXT_VERSION``)


def is_postgres(app: Privateer) -> bool:
    return type(app.recorder).__module__.startswith("event_store.postgres")


def open_view(app: Privateer) -> PostgresStandingsView | SQLiteView:
    """The read-model view living in ``app``'s store."""
    if is_postgres(app):
        from .postgres_view import PostgresStandingsView

        view = PostgresStandingsView(app.factory.datastore)  # type: ignore[attr-defined]  # (the PostgreSQL factory's)
        view.create_table()
        return view
    from .sqlite_view import SQLiteView

    return SQLiteView(app.db)


def catch_up(app: Privateer, view: PostgresStandingsView | SQLiteView | None = None, *, batch_size: int = 2000,
             retries: int = 5, progress: Callable[[int, int], object] | None = None) -> dict:
    """Apply every event after the tracked position. Returns counts.
    ``progress(done, total)``: called after each batch with the events applied
    so far and the events there were to apply when it began."""
    own = view is None
    view = view or open_view(app)
    config_of = created_data(app)
    applied = undecodable = 0
    rebuilt = False
    started = time.perf_counter()
    try:
        pos = view.position(APP_NAME)
        if pos is not None and view.position(TEXT_STAMP) != LOG_TEXT_VERSION:
            # its log text (proj_events) is an older build's wording: built again, once
            view.drop()
            pos, rebuilt = None, True
        if pos is None:
            view.stamp(TEXT_STAMP, LOG_TEXT_VERSION)
        total = app.recorder.count_notifications(pos or 0) if progress is not None else 0
        while True:
            notes = app.recorder.select_notifications(start=(pos or 0) + 1, limit=batch_size)
            if not notes:
                break
            batch = Batch()
            for n in notes:
                try:
                    e = app.mapper.to_domain_event(n)
                except Exception:  # unreadable bytes: the audit reports them; skipped here, and logged
                    log.warning("notification %d cannot be decoded: skipped (`tools audit` says more)", n.id,
                                exc_info=True, extra={"game_id": getattr(n.originator_id, "hex", None)})
                    undecodable += 1
                    continue
                add_event(batch, e, view.lookup, view.public_count, config_of)
            public_boards(app, batch)
            try:
                view.commit(batch, APP_NAME, pos, notes[-1].id)
            except Exception as e:
                if type(e).__name__ != "PositionMoved":
                    raise
                # another runner got there first: go on from its position
                moved = view.position(APP_NAME)
                if moved == pos:
                    retries -= 1
                    if retries < 0:
                        raise
                pos = moved
                continue
            applied += len(notes)
            pos = notes[-1].id
            if progress is not None:
                progress(applied, max(total, applied))
        return {"events": applied, "undecodable": undecodable, "position": pos or 0,
                "seconds": time.perf_counter() - started, "rebuilt": rebuilt}
    finally:
        if own:
            view.close()


def rebuild(app: Privateer, progress: Callable[[int, int], object] | None = None) -> dict:
    """Drop the read models and the tracking position, then catch up from the
    first event (``progress``: as for ``catch_up``)."""
    view = open_view(app)
    try:
        view.drop()
        return catch_up(app, view, progress=progress)
    finally:
        view.close()


def follow(db: str, seconds: float | None = None) -> None:
    """PostgreSQL only: run the library's ProjectionRunner on the store,
    applying events as they are committed (blocks; Ctrl-C to stop)."""
    from eventsourcing.projection import ProjectionRunner

    from event_store.store import store_env

    from .postgres_view import PostgresStandingsView, PrivateerFollowed, StandingsProjection

    env = store_env(db)
    StandingsProjection.db = db  # to keep the public boards (proj_boards) as events arrive
    with ProjectionRunner(application_class=PrivateerFollowed, projection_class=StandingsProjection,
                          view_class=PostgresStandingsView, env=env) as runner:
        try:
            runner.run_forever(timeout=seconds)
        except KeyboardInterrupt:  # Ctrl-C: how a follower is stopped, not a failure
            pass
