"""A week offline (issue #30, part 4; not part of `make test`'s figures): run

    .venv/bin/python tests/bench/bench_offline_week.py [--changes N] [--rows ROWS] [--skip-pull] [--skip-week]

Defaults: 10,000 changes, 50,000 records. BENCH_TINY=1 (tests/test_benchmarks_smoke.py): 150 changes,
400 records. Against a real platform server process (``python -m app serve``, file SQLite), it prints:

1. A station offline for a simulated week (its clock steps through seven days while it works) makes
   N changes through ``services.core.commands.execute``, spread evenly over the modules a station
   changes (one use case each, new records but for fulfillment's and signing's settings), then syncs
   (``SyncEngine.sync_once()`` until nothing is pending). Figures: every change applied exactly once
   (each record the station made is on the platform once, and each table grew by exactly the
   records made: the run fails otherwise), the total sync time (target < 60 s), and the time of a
   scan (``inventory.items.list`` by a scanned code, on the station's database, in a thread, every
   20 ms) while the sync runs: p50 / p95 / max (target < 50 ms).
   After-sale is not in the mix: its claims are made by customers on the platform, and a station
   only moves them (tests/sync/modules/test_aftersale.py).
2. A pull of ROWS records (half support tickets, half replies; tests/bench/bench_sync.py's
   ``fill_platform``) into an empty station (target < 5 s; issue #38), with each side's CPU time.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from services.core.clock import FixedClock  # noqa: E402
from services.core.commands import execute  # noqa: E402
from services.core.demo import demo_id  # noqa: E402
from tests.bench.bench_sync import (  # noqa: E402
    fill_platform,
    make_template,
    platform_dir,
    pull_once,
    start_platform,
    station_dir,
)
from tests.bench.timing import pct  # noqa: E402
from tests.sync.conftest import Station, register  # noqa: E402

TINY = os.environ.get("BENCH_TINY") == "1"
MAIN = demo_id("inventory-location", "demo", "MAIN")

# One use case a module: (module, table of the record it makes or None for a settings change, call).
Maker = tuple[str, str | None, Callable[[Station, int], Any]]
MAKERS: list[Maker] = [
    ("support", "support_tickets", lambda s, i: s.do("support.tickets.create", body={
        "subject": f"Week {i}", "description": "Scanner beeps twice.", "email": "ann@example.test", "name": "Ann"})),
    ("inventory", "inventory_items", lambda s, i: s.do("inventory.items.create", body={"sku": f"WK-{i}"})),
    ("mes", "mes_machines", lambda s, i: s.do("mes.machines.create", body={"code": f"WK-{i}", "name": f"M {i}"})),
    ("docs", "docs_documents", lambda s, i: s.do("docs.documents.create", body={"title": f"Note {i}", "body": "x"})),
    ("catalog", "catalog_products", lambda s, i: s.do("catalog.products.create",
                                                      body={"sku": f"WK-{i}", "name": f"P {i}"})),
    ("sds", "sds_ingredients", lambda s, i: s.do("sds.ingredients.create", body={"name": f"Ing {i}", "allergens": []})),
    ("qr", "qr_codes", lambda s, i: s.do("qr.codes.create", body={"name": f"Q {i}",
                                                                   "destination_url": "https://example.test/q"})),
    ("rewards", "rewards_products", lambda s, i: s.do("rewards.admin.products.create",
                                                      body={"name": f"R {i}", "points": 100, "stock": 1})),
    ("campaign", "campaign_lists", lambda s, i: s.do("campaign.lists.create", body={"name": f"L {i}"})),
    ("analytics", "analytics_dashboards", lambda s, i: s.do("analytics.dashboards.create", body={"name": f"D {i}"})),
    ("events", "events", lambda s, i: s.do("events.publish", body={"type": "machine.alarm", "data": {"i": i}})),
    ("tax", "tax_certificates", lambda s, i: s.do("tax.certificates.create", body={
        "customer_name": f"C {i}", "state": "CA", "exemption_number": f"WK-{i}"})),
    ("upgrade", "upgrade_valuations", lambda s, i: s.do("upgrade.valuations.create", body={
        "product_id": f"WK-{i}", "product_name": f"V {i}", "base_value": "10.00"})),
    ("fulfillment", None, lambda s, i: s.do("fulfillment.settings.device.put", body={"printer": f"dock-{i}"})),
    ("sign", None, lambda s, i: s.do("sign.settings.update", body={"expiry_days": 1 + i % 300})),
]  # fmt: skip


# The rows of a table the changes make (other changes emit events of their own types too).
ONLY = {"events": "type = 'machine.alarm'"}


def counts(db: Path, tables: set[str]) -> dict[str, int]:
    with sqlite3.connect(db) as c:
        sql = "SELECT COUNT(*) FROM {} WHERE {}"
        return {t: int(c.execute(sql.format(t, ONLY.get(t, "1 = 1"))).fetchone()[0]) for t in tables}


def held_once(db: Path, table: str, ids: list[str]) -> int:
    """How many of ``ids`` the table holds (each id is a primary key: at most once)."""
    with sqlite3.connect(db) as c:
        n = 0
        for k in range(0, len(ids), 500):
            part = ids[k : k + 500]
            sql = f"SELECT COUNT(*) FROM {table} WHERE id IN ({','.join('?' * len(part))})"  # noqa: S608
            n += int(c.execute(sql, part).fetchone()[0])
    return n


def make_changes(s: Station, n: int) -> tuple[dict[str, list[str]], Counter[str], float]:
    """n changes over a simulated week; answers the ids made per table, changes per module, seconds."""
    real = s.rt.clock
    start = datetime.now(UTC) - timedelta(days=7)
    step = timedelta(days=7) / max(n, 1)
    made: dict[str, list[str]] = {}
    per_module: Counter[str] = Counter()
    t0 = time.perf_counter()
    try:
        for i in range(n):
            module, table, call = MAKERS[i % len(MAKERS)]
            s.rt.clock = FixedClock(start + step * i)
            result = call(s, i)
            per_module[module] += 1
            if table is not None:
                made.setdefault(table, []).append(str(result.id))
    finally:
        s.rt.clock = real
    return made, per_module, time.perf_counter() - t0


def scan_while(s: Station, running: threading.Event, out: list[float]) -> None:
    """What a packer does during the sync: a scan (an item looked up by its code) every 20 ms."""
    ctx = s.ctx()
    while running.is_set():
        t = time.perf_counter()
        page = execute(ctx, "inventory.items.list", query={"code": "BAG-TOTE"})
        out.append(time.perf_counter() - t)
        assert page.items, "the scanned item vanished from the station during the sync"
        time.sleep(0.02)


def week_section(tmp: Path, template: Path, n: int) -> dict[str, str]:
    pdir = platform_dir(template, tmp / "week-platform")
    p = start_platform(pdir)
    try:
        s = Station(station_dir(template, tmp / "week-station", "week-a"), "week-a")
        s.link(p.url, register(p.url, "week-a"))
        tables = {t for _, t, _ in MAKERS if t is not None}
        before = counts(pdir / "data.db", tables)
        made, per_module, making = make_changes(s, n)
        print(f"  {n:,} changes made offline over a simulated week in {making:.1f} s: "
              + ", ".join(f"{m} {k}" for m, k in sorted(per_module.items())))  # fmt: skip
        scans: list[float] = []
        running = threading.Event()
        running.set()
        scanner = threading.Thread(target=scan_while, args=(s, running, scans), daemon=True)
        scanner.start()
        rounds = 0
        t0 = time.perf_counter()
        try:
            while True:
                rounds += 1
                status = s.sync()
                if status.pending == 0 or rounds >= 50:
                    break
        finally:
            running.clear()
            scanner.join(10)
        took = time.perf_counter() - t0
        assert (status.pending, status.issues) == (0, 0), (status.state, status.message, status.issues)
        after = counts(pdir / "data.db", tables)
        for table, ids in made.items():
            assert held_once(pdir / "data.db", table, ids) == len(ids), f"{table}: not every change applied"
            assert after[table] - before[table] == len(ids), f"{table}: {after[table] - before[table]} for {len(ids)}"
        assert s.outbox() == {"sent": n}, s.outbox()
        s.close()
    finally:
        p.stop()
    scans = scans or [0.0]
    print(f"  sync: {took:.1f} s in {rounds} round(s) (target < 60 s); every change applied exactly once")
    print(f"  scans during the sync: p50 {statistics.median(scans) * 1e3:.1f} ms, p95 {pct(scans, 0.95) * 1e3:.1f} ms,"
          f" max {max(scans) * 1e3:.1f} ms, n={len(scans)} (target < 50 ms)")  # fmt: skip
    return {"sync s": f"{took:.1f}", "scan p95 ms": f"{pct(scans, 0.95) * 1e3:.1f}"}


def pull_section(tmp: Path, template: Path, rows: int) -> dict[str, str]:
    pdir = platform_dir(template, tmp / "pull-platform")
    filled = fill_platform(pdir, rows)
    with sqlite3.connect(pdir / "data.db") as c:
        tickets = int(c.execute("SELECT COUNT(*) FROM support_tickets").fetchone()[0])
    p = start_platform(pdir)
    try:
        s = Station(station_dir(template, tmp / "pull-station", "pull-a"), "pull-a")
        s.link(p.url, register(p.url, "pull-a"))
        assert p.proc is not None
        cpu, platform_cpu = time.process_time(), process_cpu(p.proc.pid)
        run = pull_once(s, 1000, tickets)
        cpu, platform_cpu = time.process_time() - cpu, process_cpu(p.proc.pid) - platform_cpu
        s.close()
    finally:
        p.stop()
    print(f"  platform filled with {rows:,} records in {filled:.1f} s")
    print(f"  pull of {run.pulled:,} records into an empty station: {run.total:.1f} s in {run.pages} pages"
          " (target < 5 s)")  # fmt: skip
    # On a shared machine the wall clock counts others' work: each side's own CPU time too (they
    # overlap: the next page is read on the platform while the station writes the last).
    print(f"  CPU: station {cpu:.1f} s, platform {platform_cpu:.1f} s")
    return {"pull s": f"{run.total:.1f}", "pull CPU s (station/platform)": f"{cpu:.1f}/{platform_cpu:.1f}"}


def process_cpu(pid: int) -> float:
    """User and system CPU seconds of a running process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--changes", type=int, default=150 if TINY else 10_000)
    ap.add_argument("--rows", type=int, default=400 if TINY else 50_000)
    ap.add_argument("--skip-pull", action="store_true")
    ap.add_argument("--skip-week", action="store_true")
    args = ap.parse_args()
    if args.changes < len(MAKERS) or args.rows < 2:
        ap.error(f"--changes must be at least {len(MAKERS)} (one a module) and --rows at least 2")
    with tempfile.TemporaryDirectory(prefix="bench-week-") as d:
        tmp = Path(d)
        template = make_template(tmp)
        figures: dict[str, str] = {}
        if not args.skip_week:
            print(f"== a week offline: {args.changes:,} changes over {len(MAKERS)} modules")
            figures |= week_section(tmp, template, args.changes)
        if not args.skip_pull:
            print(f"== a pull of {args.rows:,} records into an empty station")
            figures |= pull_section(tmp, template, args.rows)
    print("summary: " + ", ".join(f"{k} {v}" for k, v in figures.items()))


if __name__ == "__main__":
    main()
