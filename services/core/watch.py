"""Writes made to a station's database file by another process (``python -m app call``, a sync run
from the command line, a second window on the same data dir), told to the open views like any
other commit, with origin ``"process"``.

SQLite's ``PRAGMA data_version`` changes on a connection when any *other* connection committed,
so one connection of our own, kept only for asking, sees every commit; the commits this process
made itself are counted through SQLAlchemy's engine events and taken off. What another process
changed is not known record by record, so its commit refreshes every open view (``ANY_KIND``).
"""

from __future__ import annotations

import sqlite3
import threading
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import make_url

from services.core.context import ANY_KIND, Runtime


class OtherWriters:
    """Polled by the desktop (a timer): :meth:`poll` announces another process's commits."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        url = make_url(runtime.db.url)
        self.path = url.database or ""
        self._lock = threading.Lock()
        self._own = 0
        self._own_before = 0  # the previous interval's: a commit counted just before it reached the file
        self._conn: sqlite3.Connection | None = None
        if not runtime.db.is_sqlite or not self.path or self.path == ":memory:":
            return  # a server database: its own processes announce through the platform
        self._conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, check_same_thread=False)
        event.listen(runtime.db.engine, "commit", self._mine)
        self._version = self._read()

    @property
    def active(self) -> bool:
        return self._conn is not None

    def _mine(self, _conn: Any) -> None:
        with self._lock:
            self._own += 1

    def _read(self) -> int:
        assert self._conn is not None
        return int(self._conn.execute("PRAGMA data_version").fetchone()[0])

    def poll(self) -> bool:
        """True (and announced) when the file changed and this process committed nothing meanwhile.
        When both happened in one interval the other process's change shows with the next poll
        that sees it alone, or with this process's own refresh of the same views."""
        if self._conn is None:
            return False
        with self._lock:
            own, self._own = self._own, 0
        recent, self._own_before = own + self._own_before, own
        version = self._read()
        if version == self._version:
            return False
        self._version = version
        if recent:
            return False
        self.runtime.announce(None, frozenset({ANY_KIND}), origin="process")
        return True

    def close(self) -> None:
        if self._conn is not None:
            event.remove(self.runtime.db.engine, "commit", self._mine)
            self._conn.close()
            self._conn = None
