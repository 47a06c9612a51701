"""SQLite writers of one process take turns on a lock (local_db/engine.py, issue 38 part 2): every
one of many concurrent writes lands, and the turn is handed over on commit, on rollback and when a
transaction fails, so no writer is left waiting on it."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from sqlalchemy import text

from local_db.engine import WRITE_LOCKS, Database


@pytest.fixture
def db(tmp_path: Path) -> Database:
    d = Database(f"sqlite:///{tmp_path / 'w.db'}", migrate=False)
    with d.engine.begin() as c:
        c.exec_driver_sql("CREATE TABLE t (id INTEGER PRIMARY KEY, who TEXT)")
    return d


def test_twenty_concurrent_writers_all_land(db: Database) -> None:
    errors: list[BaseException] = []

    def writer(w: int) -> None:
        try:
            for i in range(5):
                with db.transaction(None) as s:
                    s.execute(text("INSERT INTO t (who) VALUES (:w)"), {"w": f"{w}-{i}"})
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert errors == []
    with db.engine.connect() as c:
        assert c.exec_driver_sql("SELECT count(*) FROM t").scalar() == 100
    assert not WRITE_LOCKS[db.engine].locked()


def test_the_turn_is_handed_over_on_rollback_and_failure(db: Database) -> None:
    lock = WRITE_LOCKS[db.engine]
    with db.transaction(None) as s:
        s.execute(text("INSERT INTO t (who) VALUES ('a')"))
        assert lock.locked()  # held from BEGIN IMMEDIATE ...
    assert not lock.locked()  # ... to COMMIT
    with pytest.raises(RuntimeError), db.transaction(None) as s:
        s.execute(text("INSERT INTO t (who) VALUES ('b')"))
        raise RuntimeError("the use case failed")
    assert not lock.locked()
    with pytest.raises(Exception, match="UNIQUE"), db.transaction(None) as s:
        s.execute(text("INSERT INTO t (id, who) VALUES (1, 'dup')"))  # the statement itself fails
    assert not lock.locked()
    # A reader never takes it.
    with db.reading(None) as s:
        s.execute(text("SELECT count(*) FROM t")).scalar()
        assert not lock.locked()
    with db.engine.connect() as c:
        assert [r[0] for r in c.exec_driver_sql("SELECT who FROM t")] == ["a"]
