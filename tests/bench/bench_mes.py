"""MES figures (plain script): `python tests/bench/bench_mes.py` (full: 30 days x 50 machines of
1-minute status and count events) or `BENCH_TINY=1 python tests/bench/bench_mes.py` (seconds).

1. OEE exactness: DOMAIN.md's test vector, and a two-shift day through the service whose
   shift figures sum to the window's (summed times and counts, never averaged percentages).
2. ``GET oee/by-shift`` (the service call the HTTP door runs) over the whole window, p50/p95,
   read from the periods (the bulk-loaded machines have no hour sums yet), then from the hour
   sums once built (services/mes/hours.py; the figures must be the same), with ``oee`` and
   ``oee/by-machine`` beside it.
3. Gateway ingest: machine events per second through ``POST machines/[id]/events`` batches.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from sqlalchemy import insert  # noqa: E402
from timing import fmt, size, timed  # noqa: E402 - tests/bench/timing.py, next to this script

from app.wiring import station_runtime  # noqa: E402
from local_db import new_id  # noqa: E402
from local_db.models.mes import MesCount, MesMachine, MesStatusPeriod  # noqa: E402
from services.core import auth  # noqa: E402
from services.core.clock import FixedClock  # noqa: E402
from services.core.commands import execute  # noqa: E402
from services.core.context import SYSTEM, Ctx  # noqa: E402
from services.core.demo import seed_demo  # noqa: E402
from services.mes import hours, oee  # noqa: E402

TINY = os.environ.get("BENCH_TINY") == "1" or "--tiny" in sys.argv
START = datetime(2027, 3, 1, tzinfo=UTC)
# A repeating minute pattern: mostly running, a short stop, a setup, an idle spell.
PATTERN = ["running"] * 14 + ["down"] + ["running"] * 3 + ["setup"] + ["idle"]


def exactness(rt, tenant) -> None:  # type: ignore[no-untyped-def]
    f = oee.compute(480 * 60, 420 * 60, 60, 400, 380)
    vec = (f["availability"], f["performance"], f["quality"], f["oee"])
    print(
        f"DOMAIN vector: A {vec[0]:.3f}  P {vec[1]:.3f}  Q {vec[2]:.3f}  OEE {vec[3]:.3f}  (expected 0.875 0.952 0.950 0.791)"
    )
    assert vec == (0.875, 0.952, 0.95, 0.791)
    t = datetime(2027, 1, 4, 6, tzinfo=UTC)
    rt.clock = FixedClock(t - timedelta(minutes=1))
    ctx = Ctx(rt, tenant, SYSTEM)
    m = execute(ctx, "mes.machines.create", body={"code": "VEC", "name": "Vector", "ideal_cycle_seconds": 60})
    rt.clock = FixedClock(t + timedelta(hours=17))
    at = lambda mins: (t + timedelta(minutes=mins)).isoformat()  # noqa: E731
    events = [
        {"type": "status", "status": "running", "at": at(0)},
        {"type": "status", "status": "down", "at": at(420)},
        {"type": "status", "status": "running", "at": at(480)},
        {"type": "status", "status": "idle", "at": at(720)},
        {"type": "status", "status": "offline", "at": at(960)},
        *({"type": "count", "good": 19, "scrap": 1, "at": at(10 + 20 * i)} for i in range(20)),
        *({"type": "count", "good": 15, "scrap": 5, "at": at(490 + 20 * i)} for i in range(10)),
    ]
    execute(Ctx(rt, tenant, SYSTEM), "mes.machines.events", id=m.id, body={"events": events})
    q = {"from": t.isoformat(), "to": (t + timedelta(hours=16)).isoformat(), "machine_id": m.id}
    rows = {r.name: r for r in execute(Ctx(rt, tenant, SYSTEM), "mes.oee.by_shift", query=q).items}
    total = oee.Totals()
    for r in rows.values():
        total.add(oee.Totals(r.planned_seconds, r.run_seconds, r.ideal_seconds, r.total_count, r.good_count))
    overall = execute(Ctx(rt, tenant, SYSTEM), "mes.oee.overall", query=q)
    same = overall.model_dump() == total.figures()
    print(
        f"early shift OEE {rows['Early'].oee:.3f}, late {rows['Late'].oee:.3f}, day {overall.oee:.3f}; summed == window: {same}"
    )
    assert same and rows["Early"].oee == 0.791


def load(rt, tenant_id: str, machines: int, days: int, every: int) -> list[str]:  # type: ignore[no-untyped-def]
    """``machines`` machines with a status event and a count every ``every`` minutes for ``days`` days."""
    ids = []
    t0 = time.perf_counter()
    rows = 0
    with rt.db.engine.begin() as conn:
        for n in range(machines):
            mid = new_id()
            ids.append(mid)
            conn.execute(
                insert(MesMachine),
                [
                    {
                        "id": mid,
                        "tenant_id": tenant_id,
                        "code": f"B-{n:03d}",
                        "name": f"Bench {n}",
                        "ideal_cycle_seconds": 20.0,
                        "status": "running",
                        "status_since": START + timedelta(days=days),
                        "created_at": START,
                        "updated_at": START,
                    }
                ],
            )
            periods, counts = [], []
            steps = days * 24 * 60 // every
            for i in range(steps):
                at = START + timedelta(minutes=i * every)
                status = PATTERN[(i + n) % len(PATTERN)]
                periods.append(
                    {
                        "id": new_id(),
                        "tenant_id": tenant_id,
                        "machine_id": mid,
                        "status": status,
                        "reason": None if status == "running" else "bench",
                        "started_at": at,
                        "ended_at": at + timedelta(minutes=every) if i + 1 < steps else None,
                        # What the ORM's event stores for a closed period (the bulk insert skips it).
                        "ms": every * 60_000 if i + 1 < steps else None,
                    }
                )
                if status == "running":
                    counts.append(
                        {
                            "id": new_id(),
                            "tenant_id": tenant_id,
                            "machine_id": mid,
                            "at": at + timedelta(seconds=30),
                            "good": 2 * every,
                            "scrap": 1 if i % 10 == 0 else 0,
                            "source": "gateway",
                        }
                    )
            conn.execute(insert(MesStatusPeriod), periods)
            if counts:
                conn.execute(insert(MesCount), counts)
            rows += len(periods) + len(counts)
    dt = time.perf_counter() - t0
    print(f"loaded {machines} machines x {days} days every {every} min: {rows:,} rows in {dt:.1f} s")
    return ids


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--machines", type=int, default=3 if TINY else 50)
    p.add_argument("--days", type=int, default=2 if TINY else 30)
    p.add_argument("--every", type=int, default=1, help="minutes between status events")
    p.add_argument("--tiny", action="store_true")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        rt = station_runtime(Path(tmp) / "station", "station-bench")
        seed_demo(rt)
        tenant = auth.load_tenant(rt.db, "demo")
        exactness(rt, tenant)
        machines = size(args.machines, 2)
        days = size(args.days, 1)
        ids = load(rt, tenant.id, machines, days, args.every)
        rt.clock = FixedClock(START + timedelta(days=days, hours=1))
        window = {"from": START.isoformat(), "to": (START + timedelta(days=days)).isoformat(), "limit": 100}
        runs = 3 if not TINY else 5
        by_shift = lambda: execute(Ctx(rt, tenant, SYSTEM), "mes.oee.by_shift", query=window)  # noqa: E731
        raw = timed(by_shift, runs, warmup=1)
        before = by_shift().items
        print(f"oee/by-shift   {days} days x {machines} machines, from the periods: {fmt(raw)}")
        # The bulk load bypassed the service: sum the machines' hours as their next event would.
        t0 = time.perf_counter()
        with Ctx(rt, tenant, SYSTEM).write() as s:
            hours.rebuild(s, ids)
        print(f"hour sums built for {machines} machines in {time.perf_counter() - t0:.1f} s")
        shift = timed(by_shift, runs, warmup=1)
        assert by_shift().items == before, "the hours give other figures than the periods"
        print(f"oee/by-shift   {days} days x {machines} machines, from the hours: {fmt(shift)} (same figures)")
        overall = timed(lambda: execute(Ctx(rt, tenant, SYSTEM), "mes.oee.overall", query=window), runs)
        print(f"oee            {days} days x {machines} machines: {fmt(overall)}")
        by_machine = timed(lambda: execute(Ctx(rt, tenant, SYSTEM), "mes.oee.by_machine", query=window), runs)
        print(f"oee/by-machine {days} days x {machines} machines: {fmt(by_machine)}")
        # Gateway ingest: batches of 60 count events (a minute of one-second counts) per call.
        mid = execute(Ctx(rt, tenant, SYSTEM), "mes.machines.list", query={"search": "B-000"}).items[0].id
        base = START + timedelta(days=days)
        batches = size(50 if TINY else 200, 2)
        rt.clock = FixedClock(base + timedelta(minutes=batches + 1))  # every batch's events lie in the past
        t0 = time.perf_counter()
        for b in range(batches):
            events = [
                {"type": "count", "good": 1, "scrap": 0, "at": (base + timedelta(seconds=b * 60 + s)).isoformat()}
                for s in range(60)
            ]
            execute(Ctx(rt, tenant, SYSTEM), "mes.machines.events", id=mid, body={"events": events})
        dt = time.perf_counter() - t0
        print(
            f"gateway ingest: {batches * 60 / dt:,.0f} events/s ({batches} calls of 60 events, {dt / batches * 1e3:.1f} ms a call)"
        )
        rt.db.dispose()


if __name__ == "__main__":
    main()
