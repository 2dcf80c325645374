"""The audit of a game for callers: the referee (or the organiser) always gets a
fresh run; anyone else the report cached for the game's current (version,
head), run once, its violation's reason redacted."""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from typing import Any
from uuid import UUID

from service.app import Privateer
from service.records.audit import audit_game

from .auth import Caller
from .current import Current

AUDIT_CACHE = 500
REDACTED = "details of a failed audit are for the referee"
STORE_VERSIONS = re.compile(r"^correction at version \d+: versions \d+-\d+ retracted")


class Audits:
    def __init__(self, app: Privateer, current: Current):
        self.app = app
        self.current = current
        self._lock = threading.Lock()
        self._reports: OrderedDict[tuple[UUID, int, object], dict[str, Any]] = OrderedDict()
        self._locks: dict[UUID, threading.Lock] = {}
        self.runs = 0

    @staticmethod
    def _key(gid: UUID, row: dict[str, Any]) -> tuple[UUID, int, object]:
        head = row.get("head")
        if isinstance(head, (bytearray, memoryview)):
            head = bytes(head)
        return gid, int(row["version"]), head

    def audit(self, gid: UUID, caller: Caller) -> dict[str, Any]:
        row = self.current.known_row(gid)
        key = self._key(gid, row)
        report = None if caller.is_referee else self._reports.get(key)
        if report is None:
            with self._lock:
                lock = self._locks.setdefault(gid, threading.Lock())
            with lock:  # one run per game at a time; those who waited take its result
                report = None if caller.is_referee else self._reports.get(key)
                if report is None:
                    report = audit_game(self.app, gid).as_dict()
                    with self._lock:
                        self.runs += 1
                    after = self.current.index_row(gid, fresh=True)
                    if after is not None and self._key(gid, after) == key:
                        with self._lock:
                            self._reports[key] = report
                            while len(self._reports) > AUDIT_CACHE:
                                self._reports.popitem(last=False)
        report = dict(report)
        if report["first_bad"] is not None and not caller.is_referee:
            report["first_bad"] = dict(report["first_bad"], reason=REDACTED)
        if not caller.is_referee:  # a correction's store versions count events hidden from the caller
            report["notes"] = [STORE_VERSIONS.sub("a correction", n) for n in report["notes"]]
        return report
