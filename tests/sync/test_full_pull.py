"""A full pull into an empty station sets the search indexes aside and rebuilds them once: after
it (and after a station killed in the middle of one) every pulled record is found by search."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from app.wiring import station_runtime
from services.core.commands import execute
from services.sync import bulk
from services.sync import station as st
from tests.sync.conftest import PlatformProcess, Station


def triggers(s: Station) -> set[str]:
    with sqlite3.connect(s.rt.data_dir / "data.db") as c:
        return {n for (n,) in c.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}


def indexes(s: Station) -> set[str]:
    with sqlite3.connect(s.rt.data_dir / "data.db") as c:
        return {n for (n,) in c.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")}


def found(s: Station, term: str) -> list[str]:
    return [t.subject for t in execute(s.ctx(), "support.tickets.list", query={"search": term}).items]


def test_a_full_pull_rebuilds_the_search_index_it_set_aside(
    platform: PlatformProcess, make_station: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = make_station("pull-a", platform)
    a.do("support.tickets.create", body={"subject": "Xylophone parcel lost", "description": "It broke.",
                                         "email": "ann@example.test", "name": "Ann"})  # fmt: skip
    a.sync()
    b = make_station("pull-b", platform)
    before, before_indexes = triggers(b), indexes(b)
    st.clear_tenant_rows(b.rt, b.tenant.id)
    monkeypatch.setattr(bulk, "SUSPEND_FROM", 1)  # the demo's few hundred records count as a long pull
    set_aside: list[int] = []
    real = bulk.suspend_search
    monkeypatch.setattr(bulk, "suspend_search", lambda rt: set_aside.append(real(rt)) or set_aside[-1])
    b.sync(page=50)
    assert set_aside and set_aside[0] >= 2  # the ticket and message indexes at least
    assert triggers(b) == before  # every trigger is back
    assert indexes(b) == before_indexes  # and every index set aside, built again
    assert found(b, "Xylophone") == ["Xylophone parcel lost"]  # a record of the pull, found by search
    b.do("support.tickets.create", body={"subject": "Zebra crossing sign", "description": "Bent.",
                                         "email": "bob@example.test", "name": "Bob"})  # fmt: skip
    assert found(b, "Zebra") == ["Zebra crossing sign"]  # the triggers index new writes again


def test_a_station_cut_short_in_a_full_pull_puts_its_index_back_when_it_starts(make_station: Any) -> None:
    a = make_station("cut-a")
    before, before_indexes = triggers(a), indexes(a)
    assert bulk.suspend_search(a.rt) >= 2
    assert triggers(a) < before
    assert "ix_support_tickets_tenant_updated" in before_indexes - indexes(a)  # plain indexes set aside too
    assert {"uq_support_messages_tenant_mail_id", "ix_sync_changes_tenant_usn"} & indexes(a) == {
        "uq_support_messages_tenant_mail_id",
        "ix_sync_changes_tenant_usn",
    } & before_indexes  # not a unique one, nor one of a table that is not synced
    a.do("support.tickets.create", body={"subject": "Quokka written meanwhile", "description": "x",
                                         "email": "ann@example.test", "name": "Ann"})  # fmt: skip
    data_dir = a.rt.data_dir
    a.close()  # as if killed: nothing ran after the triggers were set aside
    rt = station_runtime(data_dir, "cut-a")
    try:
        with sqlite3.connect(data_dir / "data.db") as c:
            assert {n for (n,) in c.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")} == before
            assert c.execute("SELECT count(*) FROM sync_suspended_triggers").fetchone() == (0,)
            built = "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
            assert {n for (n,) in c.execute(built)} == before_indexes
            # Written while the triggers were away, indexed by the rebuild.
            hit = "SELECT count(*) FROM support_ticket_search WHERE support_ticket_search MATCH '\"Quokka\"'"
            assert c.execute(hit).fetchone() == (1,)
        assert bulk.resume_search(rt) == 0  # nothing left to put back
    finally:
        rt.db.dispose()
