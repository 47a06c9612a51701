"""Production (MES) syncs: a machine, a run and its counts made offline; a run moved twice."""

from __future__ import annotations

from typing import Any

from tests.sync.modules.kit import Move, Platform, applied_once, conflict, offline, row, sync_a_then_b


def test_mes(platform: Platform, pair: Any) -> None:
    a, b = pair
    with offline(a):
        m = a.do("mes.machines.create", body={"code": "SYNC-1", "name": "Sync press", "status": "idle"})
        a.do("mes.machines.update", id=m.id, body={"name": "Sync press 2"})
        run = a.do("mes.runs.create", body={"machine_id": m.id, "product": "Gear", "planned_quantity": 10})
        a.do("mes.runs.update", id=run.id, body={"status": "running"})
        a.do("mes.runs.update", id=run.id, body={"good": 5, "scrap": 1})
    applied_once(platform, a, b, [
        row("mes_machines", m.id, name="Sync press 2", status="running"),
        row("mes_runs", run.id, status="running", good_count=5, scrap_count=1),
    ], also=("mes_counts", "mes_status_periods"))  # fmt: skip
    m2 = a.do("mes.machines.create", body={"code": "SYNC-2", "name": "Second", "status": "idle"})
    run2 = a.do("mes.runs.create", body={"machine_id": m2.id, "product": "Bolt"})
    sync_a_then_b(a, b)
    conflict(
        platform, a, b,
        theirs=Move("mes.runs.update", {"id": run2.id}, {"status": "aborted"}),
        mine=Move("mes.runs.update", {"id": run2.id}, {"status": "running"}),
        state=row("mes_runs", run2.id, status="aborted"),
        current="aborted",
        behind=lambda s: row("mes_machines", s.do("mes.machines.create", body={"code": "SYNC-3", "name": "Third"}).id),
    )  # fmt: skip
