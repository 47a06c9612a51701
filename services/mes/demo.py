"""Demo content of MES (CONTRACT.md): machines with a run, an alarm and shifts.

Deterministic ids (``demo_id``), so seeding twice changes nothing. The machines carry the last
eight hours of status history and counts, so the live status and OEE have figures at once.
"""

from __future__ import annotations

from datetime import timedelta

from local_db.models.mes import MesAlarm, MesCount, MesMachine, MesRun, MesShift, MesStatusPeriod
from services.core.context import Ctx
from services.core.demo import demo_id, demo_seeder

# code, name, line, ideal cycle (s), history: (minutes from 8 h ago, status, reason)
MACHINES: tuple[tuple[str, str, str, float, tuple[tuple[int, str, str | None], ...]], ...] = (
    (
        "CNC-01",
        "CNC mill 1",
        "Line A",
        45.0,
        ((0, "setup", "changeover"), (25, "running", None), (300, "down", "breakdown"), (340, "running", None)),
    ),
    (
        "CNC-02",
        "CNC mill 2",
        "Line A",
        45.0,
        ((0, "running", None), (200, "idle", "material shortage"), (230, "running", None)),
    ),
    ("PRS-01", "Press 1", "Line B", 12.0, ((0, "running", None), (400, "down", "tooling"))),
    ("PKG-01", "Packer", "Line B", 6.0, ((0, "offline", None), (60, "idle", "waiting for operator"))),
)
SHIFTS = (
    ("early", "Early", "06:00", "14:00"),
    ("late", "Late", "14:00", "22:00"),
    ("night", "Night", "22:00", "06:00"),
)


@demo_seeder
def seed_mes(ctx: Ctx) -> None:
    if ctx.tenant is None or ctx.tenant.slug != "demo":
        return
    now = ctx.now().replace(second=0, microsecond=0)
    start = now - timedelta(hours=8)
    with ctx.write() as s:
        if s.get(MesMachine, demo_id("mes-machine", "CNC-01")) is not None:
            return
        for key, name, st, en in SHIFTS:
            s.add(MesShift(id=demo_id("mes-shift", key), name=name, start=st, end=en, days=[1, 2, 3, 4, 5, 6, 7]))
        for code, name, line, cycle, history in MACHINES:
            mid = demo_id("mes-machine", code)
            last = history[-1]
            s.add(
                MesMachine(
                    id=mid,
                    code=code,
                    name=name,
                    line=line,
                    ideal_cycle_seconds=cycle,
                    status=last[1],
                    status_since=start + timedelta(minutes=last[0]),
                    reason=last[2],
                    created_at=start,
                    updated_at=start,
                )
            )
            for n, (minute, status, reason) in enumerate(history):
                nxt = history[n + 1][0] if n + 1 < len(history) else None
                s.add(
                    MesStatusPeriod(
                        id=demo_id("mes-period", code, str(n)),
                        machine_id=mid,
                        status=status,
                        reason=reason,
                        started_at=start + timedelta(minutes=minute),
                        ended_at=start + timedelta(minutes=nxt) if nxt is not None else None,
                    )
                )
        # CNC-01 runs brackets (counts every ten minutes); CNC-02 finished a run of housings.
        cnc1, cnc2 = demo_id("mes-machine", "CNC-01"), demo_id("mes-machine", "CNC-02")
        running = MesRun(
            id=demo_id("mes-run", "brackets"),
            machine_id=cnc1,
            product="Bracket BR-200",
            planned_quantity=600,
            status="running",
            good_count=0,
            scrap_count=0,
            started_at=start + timedelta(minutes=25),
            created_at=start,
            updated_at=now,
        )
        done = MesRun(
            id=demo_id("mes-run", "housings"),
            machine_id=cnc2,
            product="Housing HS-10",
            planned_quantity=400,
            status="completed",
            good_count=0,
            scrap_count=0,
            started_at=start,
            ended_at=now - timedelta(minutes=5),
            created_at=start,
            updated_at=now,
        )
        for run, first_minute, end_minute in ((running, 30, 470), (done, 10, 470)):
            for minute in range(first_minute, end_minute, 10):
                if run is running and 300 <= minute < 340:
                    continue  # broken down: no parts
                good, scrap = (12, 1) if minute % 40 == 0 else (13, 0)
                run.good_count += good
                run.scrap_count += scrap
                s.add(
                    MesCount(
                        id=demo_id("mes-count", run.id, str(minute)),
                        machine_id=run.machine_id,
                        run_id=run.id,
                        at=start + timedelta(minutes=minute),
                        good=good,
                        scrap=scrap,
                        source="gateway",
                    )
                )
            s.add(run)
        s.add(
            MesRun(
                id=demo_id("mes-run", "caps"),
                machine_id=demo_id("mes-machine", "PRS-01"),
                product="Cap CP-5",
                planned_quantity=2000,
                status="planned",
                created_at=now,
                updated_at=now,
            )
        )
        s.add(
            MesAlarm(
                id=demo_id("mes-alarm", "PRS-01", "E42"),
                machine_id=demo_id("mes-machine", "PRS-01"),
                code="E42",
                message="Die temperature high",
                severity="high",
                state="active_unacknowledged",
                raised_at=start + timedelta(minutes=400),
            )
        )
