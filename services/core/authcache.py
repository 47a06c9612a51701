"""Who a request is, from a cache that any change to it invalidates (issue 38: the request path).

Every API request used to read its tenant, its API key (or its session's revocation and the user's
membership) from the database: two or three statements, each with an ORM session, before the work.
Now a request reads one row, ``cache_versions.version`` of ``auth``, on a pooled connection; the
tenant, the key and the principal come from this process's cache when they were read at that same
version. Database triggers bump the version on any change to tenants, api_keys, users, memberships
and revoked_sessions (migration 0005_core_auth_cache_version), so a change made by another worker
process, a Core statement or a script applies at the next request everywhere, as before.

An entry carries the version it was read at and is used only by a request that saw that version:
a thread that read an old version and stores what it loaded after a change cannot hand it to a
request of the new version. Failures (an unknown tenant, a revoked key) are not cached.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

from local_db.engine import Database

T = TypeVar("T")

_VERSION_SQL = "SELECT version FROM cache_versions WHERE name = 'auth'"
# Bounded: the keys come from requests (slugs, key hashes); past this the cache starts over.
MAX_ENTRIES = 20_000


class AuthCache:
    def __init__(self, db: Database) -> None:
        self.db = db
        self._entries: dict[tuple[Any, ...], tuple[int, Any]] = {}
        self._seen = 0

    def version(self) -> int:
        """The version a request works at (one statement); 0 (never cache) when there is none."""
        # On the pool's driver connection, not a SQLAlchemy Connection: 0.05 ms instead of 0.46 ms
        # on SQLite (issue 38: a tenth of a ticket POST's CPU), the same statement and pool (its
        # checkout and reset-on-return events run as before).
        pooled = self.db.engine.raw_connection()
        try:
            driver: Any = pooled.driver_connection
            # PostgreSQL: the one statement in autocommit, so the read is one round trip (no
            # transaction is opened, and the pool's rollback on return has nothing to end).
            # The connection comes out of the pool idle, where psycopg lets the mode change.
            autocommit = not self.db.is_sqlite
            if autocommit:
                driver.autocommit = True
            try:
                cur = driver.cursor()
                try:
                    cur.execute(_VERSION_SQL)
                    row = cur.fetchone()
                finally:
                    cur.close()
            finally:
                if autocommit:
                    driver.autocommit = False
        finally:
            pooled.close()
        v = row[0] if row is not None else None
        if v is None:
            return 0
        v = int(v)
        if v != self._seen:
            # Memory only: correctness is the entries' own versions.
            self._seen = v
            self._entries.clear()
        return v

    def get(self, version: int, key: tuple[Any, ...], load: Callable[[], T]) -> T:
        """The value of ``key`` read at ``version``, loaded (and kept) when there is none."""
        if version:
            hit = self._entries.get(key)
            if hit is not None and hit[0] == version:
                return hit[1]  # type: ignore[no-any-return]
        value = load()
        if version:
            if len(self._entries) >= MAX_ENTRIES:
                self._entries.clear()
            self._entries[key] = (version, value)
        return value


_caches: weakref.WeakKeyDictionary[Database, AuthCache] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def cache_of(db: Database) -> AuthCache:
    """The one cache of a database in this process."""
    cache = _caches.get(db)
    if cache is None:
        with _lock:
            cache = _caches.get(db)
            if cache is None:
                cache = _caches[db] = AuthCache(db)
    return cache


class Resolver:
    """One request's view of the cache: the version read once, then every lookup at it."""

    def __init__(self, db: Database) -> None:
        self.cache = cache_of(db)
        self.version = self.cache.version()

    def get(self, key: tuple[Any, ...], load: Callable[[], T]) -> T:
        return self.cache.get(self.version, key, load)
