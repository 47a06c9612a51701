"""Sync benchmarks (not part of `make test`): run `make bench` or

    .venv/bin/python tests/bench/bench_sync.py [--quick] [--n N] [--rows ROWS] [--runs RUNS]
                                               [--workload support|fulfillment|both] [--skip-drain] [--skip-pull]

Defaults: N=2,000 changes, 50,000 records, 3 runs (about 7 minutes on 2 CPUs); --quick: 300 changes,
10,000 records, 1 run (under a minute). Against real platform server processes (``python -m app serve
--demo`` on 127.0.0.1, file SQLite, started like tests/sync/conftest.py's ``PlatformProcess``) it prints:

1. Outbox drain, per workload: a station with N pending changes made through
   ``services.core.commands.execute`` -- support: ``support.tickets.create``, each followed by a
   ``support.messages.create`` reply to it; fulfillment: ``fulfillment.orders.operate`` picks of one
   scanned item each -- runs ``SyncEngine.sync_once()`` against a fresh platform (a copy of the same
   seeded database each run; default rate limits A: the push route is in its own unlimited category).
   The station's pull cursor starts at the platform's head (it was caught up before it went offline),
   so the round is: clock check, push of the N entries in batches, lease renewal, pull of the records
   the push changed, count check. The phases are timed by a subclass of the engine (``_push``,
   ``_pull``, ``_check_counts``), a subclass of its HTTP client (time awaiting each push and pull
   answer) and wrappers of ``services.sync.station``'s next_batch / record_answers / apply_changes
   (restored after each round); services/sync itself is not changed. The rate printed is N / push phase;
   the whole round is printed too. Batch sizes 200 (the engine's default), 100 and 250; median of --runs.
   Next to it, the ceiling: a bare ``httpx.Client`` loop (sync client, one keep-alive connection,
   sequential) sending the same N requests (the outbox entries' method, route and JSON body, their
   Idempotency-Key, ``Authorization: Bearer`` of the same user) to a fresh platform started with
   PLATFORM_RATE_LIMITS=off (variant A allows 30 writes a minute). A reply names its ticket by the id
   the platform answered to the create (a plain spec call cannot choose ids).
2. Pull into an empty station: the platform holds ROWS changed records of the demo tenant (half support
   tickets, half messages, inserted through the platform runtime's ORM session in transactions of 5,000
   rows before the server starts, so the change log records them) plus the demo data. A station whose
   cached rows of the tenant are cleared (``services.sync.station.clear_tenant_rows``: cursor "") runs
   ``sync_once()`` until caught up, drawing a progress bar (pulled / to_pull of ``on_status``) on
   stderr. Page sizes 1000 (the engine's default; --runs runs), 2000 and 5000 (one run each).

No asserts on time; the run fails if a change is not applied or a pull does not end with equal counts.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform as pyplatform
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from sqlalchemy import func, select, update  # noqa: E402

from app.settings import Settings  # noqa: E402
from app.wiring import platform_runtime  # noqa: E402
from local_db import new_id  # noqa: E402
from local_db.models import OutboxEntry  # noqa: E402
from local_db.models.fulfillment import FulfillmentLine, FulfillmentOrder  # noqa: E402
from local_db.models.support import SupportMessage, SupportTicket  # noqa: E402
from local_db.models.sync import SyncLink  # noqa: E402
from services.core.demo import DEMO_PASSWORD, demo_id, seed_demo  # noqa: E402
from services.sync import station as st  # noqa: E402
from services.sync.client import PlatformClient  # noqa: E402
from services.sync.engine import SyncEngine, SyncStatus  # noqa: E402
from services.sync.schemas import PullOut, PushOut  # noqa: E402
from tests.conftest import TEST_SECRET, _copy_db  # noqa: E402
from tests.sync.conftest import PlatformProcess, Station  # noqa: E402

TENANT = demo_id("tenant", "demo")
ACTOR = "admin@demo.test"
BATCHES = (200, 100, 250)  # the engine's default first
PAGES = (1000, 2000, 5000)  # the engine's default first
if os.environ.get("BENCH_SMOKE") == "1":  # the smoke run of make test (tests/bench/timing.py): defaults only
    BATCHES, PAGES = BATCHES[:1], PAGES[:1]
INSERT_CHUNK = 5000  # platform rows per transaction when filling the change log


# --- timing instruments (subclasses and wrappers; services/sync is not changed) -----------------


@dataclass
class Stats:
    """Seconds and counts of one sync round, by phase."""

    secs: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    counts: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    def add(self, name: str, seconds: float, n: int = 1) -> None:
        self.secs[name] += seconds
        self.counts[name] += n


class TimedClient(PlatformClient):
    """The engine's client, timing each push and pull answer (HTTP, the platform's work, parsing)."""

    def __init__(self, link: st.Link, stats: Stats) -> None:
        super().__init__(link)
        self.stats = stats

    async def push(self, entries: list[dict[str, Any]]) -> PushOut:
        t = time.perf_counter()
        out = await super().push(entries)
        self.stats.add("push_http", time.perf_counter() - t)
        return out

    async def pull(self, cursor: str, limit: int) -> PullOut:
        t = time.perf_counter()
        out = await super().pull(cursor, limit)
        self.stats.add("pull_http", time.perf_counter() - t)
        self.stats.counts["pulled"] += len(out.changes)
        return out


class TimedEngine(SyncEngine):
    """The engine, timing its push and pull phases (a push inside a pull counts as pull)."""

    def __init__(self, rt: Any, tenant_id: str, stats: Stats, **kw: Any) -> None:
        super().__init__(rt, tenant_id, client_factory=lambda link: TimedClient(link, stats), **kw)
        self.stats = stats
        self._phase: str | None = None

    @contextmanager
    def _timing(self, name: str) -> Iterator[None]:
        outer = self._phase is None
        if outer:
            self._phase = name
        t = time.perf_counter()
        try:
            yield
        finally:
            if outer:
                self.stats.add(name, time.perf_counter() - t)
                self._phase = None

    async def _push(self, link: st.Link, client: PlatformClient) -> None:
        with self._timing("push"):
            await super()._push(link, client)

    async def _pull(self, link: st.Link, client: PlatformClient, *, checked: bool = False) -> None:
        with self._timing("pull"):
            await super()._pull(link, client, checked=checked)

    async def _check_counts(self, link: st.Link, client: PlatformClient, cursor: str) -> None:
        t = time.perf_counter()
        await super()._check_counts(link, client, cursor)
        self.stats.add("check_counts", time.perf_counter() - t)


@contextmanager
def station_side_timers(stats: Stats) -> Iterator[None]:
    """Time the station's database work the engine runs in threads (module attributes, restored after)."""
    names = ("next_batch", "record_answers", "apply_changes")
    saved = {n: getattr(st, n) for n in names}

    def wrap(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed_fn(*a: Any, **kw: Any) -> Any:
            t = time.perf_counter()
            try:
                return fn(*a, **kw)
            finally:
                stats.add(name, time.perf_counter() - t)

        return timed_fn

    for n in names:
        setattr(st, n, wrap(n, saved[n]))
    try:
        yield
    finally:
        for n, fn in saved.items():
            setattr(st, n, fn)


# --- platform processes and station dirs ---------------------------------------------------------


def start_platform(data_dir: Path, **env: str) -> PlatformProcess:
    """A platform server process; its output is drained in a thread so a chatty log never blocks it."""
    p = PlatformProcess(data_dir, None, **env).start()
    assert p.proc is not None and p.proc.stdout is not None
    out = p.proc.stdout
    threading.Thread(target=lambda: [None for _ in out], daemon=True).start()
    return p


def make_template(base: Path) -> Path:
    """The migrated, seeded demo database that every platform and station of this run starts from."""
    d = base / "template"
    rt = platform_runtime(Settings(data_dir=d, secret_key=TEST_SECRET))
    seed_demo(rt)
    rt.db.dispose()
    return d / "data.db"


def station_dir(src_db: Path, d: Path, name: str) -> Path:
    _copy_db(src_db, d)
    (d / "secret.key").write_text(f"{TEST_SECRET}-{name}")
    (d / "station-id").write_text(name)
    return d


def platform_dir(src_db: Path, d: Path) -> Path:
    _copy_db(src_db, d)
    return d


def run_round(station: Station, stats: Stats, **kw: Any) -> tuple[float, SyncStatus]:
    """One ``sync_once()`` round, timed (seconds, final status)."""

    async def go() -> tuple[float, SyncStatus]:
        engine = TimedEngine(station.rt, station.tenant.id, stats, **kw)
        try:
            with station_side_timers(stats):
                t = time.perf_counter()
                status = await engine.sync_once()
                return time.perf_counter() - t, status
        finally:
            await engine.stop()

    return asyncio.run(go())


def set_cursor_to_head(station: Station) -> str:
    """The station was caught up before it went offline: start its pull at the platform's newest change."""
    link = st.link_for(station.rt, station.tenant.id)
    assert link is not None

    async def head() -> str:
        client = PlatformClient(link)
        try:
            return (await client.status()).cursor
        finally:
            await client.aclose()

    cursor = asyncio.run(head())
    with station.rt.db.transaction(station.tenant.id) as s:
        s.execute(update(SyncLink).where(SyncLink.tenant_id == station.tenant.id).values(cursor=cursor))
    return cursor


def login(url: str, email: str) -> str:
    r = httpx.post(f"{url}/api/auth/login", json={"email": email, "password": DEMO_PASSWORD}, timeout=10)
    r.raise_for_status()
    return str(r.json()["data"]["token"])


# --- 1. outbox drain ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Plain:
    """An outbox entry as a plain spec call."""

    method: str
    path: str
    body: dict[str, Any] | None
    key: str
    made: str | None  # id of the record the change made on the station


def add_orders(db: Path, n: int) -> list[tuple[str, str]]:
    """n pending orders of two lines (quantity 5) in a platform database, through the ORM session (the
    change log records them, like any platform write); answers (order id, barcode) per line."""
    rt = platform_runtime(Settings(data_dir=db.parent, secret_key=TEST_SECRET))
    scans: list[tuple[str, str]] = []
    at = datetime.now(UTC) - timedelta(days=1)
    for start in range(0, n, INSERT_CHUNK // 3):
        with rt.db.transaction(TENANT) as s:
            lines = []
            for i in range(start, min(n, start + INSERT_CHUNK // 3)):
                o = FulfillmentOrder(id=new_id(), order_number=f"SO-B{i:06d}", pick_barcode=f"PLB{i:09d}",
                                     status="pending", source="manual", customer_name=f"Customer {i}",
                                     shipping_address={"name": f"Customer {i}", "city": "Springfield"},
                                     created_at=at, updated_at=at)  # fmt: skip
                s.add(o)
                for k in range(2):
                    code = f"29{i * 2 + k:010d}"
                    lines.append(FulfillmentLine(id=new_id(), order_id=o.id, position=k, sku=f"SKU-{i}-{k}",
                                                 barcode=code, name=f"Item {i}-{k}", quantity=5, picked_quantity=0))  # fmt: skip
                    scans.append((o.id, code))
            s.flush()  # orders first (no ORM relationship orders them): the lines name them
            s.add_all(lines)
    rt.db.dispose()
    return scans


def prepare_outbox(d: Path, n: int, workload: str, scans: list[tuple[str, str]]) -> tuple[float, list[Plain]]:
    """N pending changes on a station; answers (seconds, the entries as plain calls).

    support: ticket, reply to it, ticket, reply, ...; fulfillment: one scanned item picked per change,
    both lines of an order one after the other (``scans``: (order id, barcode) of each line)."""
    s = Station(d, "bench-drain")
    t = time.perf_counter()
    ticket = None
    for i in range(n):
        if workload == "fulfillment":
            oid, code = scans[i]
            s.do("fulfillment.orders.operate", ACTOR, id=oid,
                 body={"operation": "pick", "items": [{"code": code, "quantity": 1}]})  # fmt: skip
        elif i % 2 == 0:
            ticket = s.do("support.tickets.create", ACTOR, body={
                "subject": f"Parcel {i} not arrived", "description": "Ordered two weeks ago, still nothing.",
                "email": f"customer{i}@example.test", "name": f"Customer {i}"})  # fmt: skip
        else:
            assert ticket is not None
            s.do("support.messages.create", ACTOR, ticket_id=ticket.id,
                 body={"body": f"Hello, the courier says parcel {i} arrives tomorrow.", "internal": False})  # fmt: skip
    made = time.perf_counter() - t
    with s.rt.db.reading(s.tenant.id) as ses:
        rows = ses.execute(select(OutboxEntry).order_by(OutboxEntry.station_seq)).scalars().all()
        plain = [Plain(r.method, r.path, r.body, r.idempotency_key, r.result_id) for r in rows]
    assert len(plain) == n and s.outbox() == {"pending": n}, s.outbox()
    s.close()
    return made, plain


@dataclass
class DrainRun:
    total: float
    stats: Stats
    pulled: int


def drain_once(tmp: Path, template: Path, station_tpl: Path, n: int, batch: int, tag: str) -> DrainRun:
    p = start_platform(platform_dir(template, tmp / f"platform-{tag}"))
    try:
        d = tmp / f"station-{tag}"
        _copy_db(station_tpl / "data.db", d)
        for f in ("secret.key", "station-id"):
            (d / f).write_text((station_tpl / f).read_text())
        s = Station(d, "bench-drain")
        s.link(p.url)
        set_cursor_to_head(s)
        stats = Stats()
        total, status = run_round(s, stats, batch=batch)
        assert (status.state, status.pending, status.issues) == ("idle", 0, 0), status
        assert s.outbox() == {"sent": n}, s.outbox()
        s.close()
        return DrainRun(total, stats, stats.counts["pulled"])
    finally:
        p.stop()


def bare_once(tmp: Path, template: Path, entries: list[Plain], tag: str) -> float:
    p = start_platform(platform_dir(template, tmp / f"platform-{tag}"), PLATFORM_RATE_LIMITS="off")
    try:
        token = login(p.url, ACTOR)
        ids: dict[str, str] = {}
        with httpx.Client(base_url=p.url, timeout=20, headers={"Authorization": f"Bearer {token}"}) as http:
            http.get("/api/health")  # the connection is open before the clock starts (the engine's is too)
            t = time.perf_counter()
            for e in entries:
                path = "/".join(ids.get(seg, seg) for seg in e.path.split("/"))
                r = http.request(e.method, path, json=e.body, headers={"Idempotency-Key": e.key})
                if r.status_code >= 300:
                    raise RuntimeError(f"{e.method} {path}: HTTP {r.status_code} {r.text[:300]}")
                data = r.json()["data"]
                if e.made:
                    ids[e.made] = str(data["id"])
            return time.perf_counter() - t
    finally:
        p.stop()


# --- 2. pull into an empty station ----------------------------------------------------------------


def fill_platform(d: Path, rows: int) -> float:
    """rows/2 tickets and rows/2 messages of the demo tenant through the ORM session (the change log
    records them), INSERT_CHUNK rows per transaction; answers seconds."""
    rt = platform_runtime(Settings(data_dir=d, secret_key=TEST_SECRET))
    t0 = time.perf_counter()
    tickets = rows // 2
    base = datetime.now(UTC) - timedelta(days=60)
    per_tx = INSERT_CHUNK // 2
    for start in range(0, tickets, per_tx):
        with rt.db.transaction(TENANT) as s:
            messages = []
            for i in range(start, min(tickets, start + per_tx)):
                at = base + timedelta(minutes=i)
                t = SupportTicket(id=new_id(), number=f"BENCH-{i:06d}", subject=f"Parcel {i} not arrived",
                                  description="Ordered two weeks ago and the parcel has still not arrived.",
                                  requester_email=f"customer{i}@example.test", requester_name=f"Customer {i}",
                                  state="open", priority="normal", tags=[], source="agent", created_at=at,
                                  updated_at=at)  # fmt: skip
                m = SupportMessage(id=new_id(), ticket_id=t.id, author_kind="customer", author_name=f"Customer {i}",
                                   body="Ordered two weeks ago and the parcel has still not arrived.", created_at=at)  # fmt: skip
                s.add(t)
                messages.append(m)
            s.flush()  # tickets first (no ORM relationship orders them): the messages name them
            s.add_all(messages)
    took = time.perf_counter() - t0
    rt.db.dispose()
    return took


def progress_bar(label: str) -> Callable[[SyncStatus], None]:
    """pulled / to_pull from the engine's status, redrawn in place on a terminal (a line per tenth otherwise)."""
    tty = sys.stderr.isatty()
    last = [-1, -1]  # records, tenth

    def show(s: SyncStatus) -> None:
        if not s.to_pull or s.pulled == last[0]:
            return
        last[0] = s.pulled
        tenth = 10 * s.pulled // s.to_pull
        if not tty and tenth == last[1]:
            return
        last[1] = tenth
        width = 40
        done = width * s.pulled // s.to_pull
        bar = f"  {label} [{'#' * done}{'.' * (width - done)}] {s.pulled:>7,} / {s.to_pull:,}"
        sys.stderr.write(("\r" + bar + ("\n" if s.pulled >= s.to_pull else "")) if tty else bar + "\n")
        sys.stderr.flush()

    return show


@dataclass
class PullRun:
    total: float
    stats: Stats
    pulled: int
    pages: int


def pull_once(s: Station, page: int, expected: int) -> PullRun:
    st.clear_tenant_rows(s.rt, s.tenant.id)
    link = st.link_for(s.rt, s.tenant.id)
    assert link is not None and link.cursor == ""
    stats = Stats()
    total, status = run_round(s, stats, page=page, on_status=progress_bar(f"page {page:>5}"))
    assert status.state == "idle", status
    with s.rt.db.reading(s.tenant.id) as ses:
        have = ses.execute(select(func.count()).select_from(SupportTicket)).scalar_one()
    assert have == expected, (have, expected)
    return PullRun(total, stats, stats.counts["pulled"], stats.counts["pull_http"])


# --- output -------------------------------------------------------------------------------------------


def med(xs: list[float]) -> float:
    return statistics.median(xs)


def spread(xs: list[float]) -> str:
    return f"(median of {len(xs)}; min {min(xs):.2f} s, max {max(xs):.2f} s)" if len(xs) > 1 else "(1 run)"


def machine() -> str:
    load = "/".join(f"{x:.2f}" for x in os.getloadavg())
    return (f"Python {pyplatform.python_version()} ({sys.executable}), {os.cpu_count()} CPUs, load average "
            f"{load}, {pyplatform.platform()}, SQLite {sqlite3.sqlite_version}, httpx {httpx.__version__}")  # fmt: skip


def drain_section(tmp: Path, template: Path, n: int, runs: int, workload: str, summary: list[tuple[str, str]]) -> None:
    scans: list[tuple[str, str]] = []
    if workload == "fulfillment":
        base = template
        template = platform_dir(base, tmp / "template-fulfillment") / "data.db"
        scans = add_orders(template, (n + 1) // 2)
        what = f"{n:,} picks (one item scanned each; {len(scans) // 2:,} orders of two lines)"
    else:
        what = f"{n:,} changes ({n - n // 2:,} support.tickets.create, {n // 2:,} support.messages.create replies)"
    print(f"\n1. outbox drain, {workload}: {what}; platform with PLATFORM_RATE_LIMITS=A (the push route is unlimited)")
    station_tpl = station_dir(template, tmp / f"station-template-{workload}", "bench-drain")
    made, entries = prepare_outbox(station_tpl, n, workload, scans)
    print(f"  made on the station in {made:.1f} s ({n / made:,.0f}/s: execute + outbox entry)")
    for batch in BATCHES:
        done = [drain_once(tmp, template, station_tpl, n, batch, f"{workload}-b{batch}-{i}") for i in range(runs)]
        push = [r.stats.secs["push"] for r in done]
        pull = [r.stats.secs["pull"] for r in done]
        total = [r.total for r in done]
        http = [r.stats.secs["push_http"] for r in done]
        station_db = [r.stats.secs["next_batch"] + r.stats.secs["record_answers"] for r in done]
        reqs = done[0].stats.counts["push_http"]
        rate = n / med(push)
        default = " (engine default)" if batch == BATCHES[0] else ""
        print(f"  batch {batch}{default}: {reqs} push requests")
        print(f"    push phase      {med(push):6.2f} s -> {rate:5.0f} entries/s {spread(push)}")
        print(f"      of which awaiting the answers {med(http):.2f} s ({med(http) / n * 1e3:.2f} ms an entry: HTTP, "
              f"the platform applying it, parsing), station next_batch + record_answers {med(station_db):.2f} s")  # fmt: skip
        print(f"    pull phase      {med(pull):6.2f} s ({done[0].pulled:,} records the push changed, incl. the count "
              f"check {med([r.stats.secs['check_counts'] for r in done]):.2f} s)")  # fmt: skip
        print(f"    sync_once total {med(total):6.2f} s -> {n / med(total):5.0f} entries/s end to end "
              "(clock check, push, lease renewal, pull, count check)")  # fmt: skip
        summary.append((f"drain {workload}, batch {batch}{default}",
                        f"{rate:5.0f} entries/s push phase; round {med(total):.2f} s (pull {med(pull):.2f} s)"))  # fmt: skip
    bare = [bare_once(tmp, template, entries, f"{workload}-bare-{i}") for i in range(runs)]
    print(f"  bare httpx.Client loop (sync client, one keep-alive connection, sequential; Bearer token of {ACTOR}, "
          f"Idempotency-Key; server with PLATFORM_RATE_LIMITS=off): {med(bare):.2f} s -> {n / med(bare):.0f} "
          f"requests/s {spread(bare)}")  # fmt: skip
    summary.append((f"bare httpx loop, {workload}, same requests", f"{n / med(bare):5.0f} requests/s"))


def pull_section(tmp: Path, template: Path, n_rows: int, runs: int, other_runs: int,
                 summary: list[tuple[str, str]]) -> None:  # fmt: skip
    print(f"\n2. pull of {n_rows:,} changed records into an empty station")
    pdir = platform_dir(template, tmp / "platform-pull")
    took = fill_platform(pdir, n_rows)
    print(f"  platform filled: {n_rows // 2:,} tickets + {n_rows // 2:,} messages through the ORM session in "
          f"{took:.1f} s ({INSERT_CHUNK:,} rows a transaction)")  # fmt: skip
    with sqlite3.connect(pdir / "data.db") as db:
        logged = db.execute("SELECT count(*) FROM sync_changes WHERE tenant_id = ?", (TENANT,)).fetchone()[0]
        tickets = db.execute("SELECT count(*) FROM support_tickets WHERE tenant_id = ?", (TENANT,)).fetchone()[0]
    print(f"  the tenant's change log: {logged:,} records (with the demo data); the station's cached rows of the "
          "tenant are cleared before each run (clear_tenant_rows: cursor \"\")")  # fmt: skip
    p = start_platform(pdir)
    try:
        s = Station(station_dir(template, tmp / "station-pull", "bench-pull"), "bench-pull")
        s.link(p.url)
        for page in PAGES:
            k = runs if page == PAGES[0] else other_runs
            done = [pull_once(s, page, tickets) for _ in range(k)]
            total = [r.total for r in done]
            http = [r.stats.secs["pull_http"] for r in done]
            apply = [r.stats.secs["apply_changes"] for r in done]
            chk = [r.stats.secs["check_counts"] for r in done]
            r0 = done[0]
            default = " (engine default)" if page == PAGES[0] else ""
            rate = r0.pulled / med(total)
            print(f"  page {page}{default}: {r0.pulled:,} records in {r0.pages} pages")
            print(f"    sync_once {med(total):6.2f} s -> {rate:6,.0f} records/s {spread(total)}")
            print(f"      awaiting pages {med(http):.2f} s ({med(http) / r0.pages * 1e3:.0f} ms a page: HTTP, the "
                  f"platform reading and encoding, parsing), station apply_changes {med(apply):.2f} s, "
                  f"count check {med(chk):.2f} s")  # fmt: skip
            summary.append((f"pull into an empty station, page {page}{default}",
                            f"{rate:6,.0f} records/s ({r0.pulled:,} in {med(total):.1f} s, {r0.pages} pages)"))  # fmt: skip
        s.close()
    finally:
        p.stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="N=300 changes, 10,000 rows, one run per figure")
    ap.add_argument("--n", type=int, help="outbox entries to drain (default 2,000; --quick 300)")
    ap.add_argument("--rows", type=int, help="platform records to pull (default 50,000; --quick 10,000)")
    ap.add_argument("--runs", type=int, help="runs per figure, the median is printed (default 3; --quick 1)")
    ap.add_argument("--workload", choices=["support", "fulfillment", "both"], default="both",
                    help="changes to drain (default both)")  # fmt: skip
    ap.add_argument("--skip-drain", action="store_true", help="only the pull")
    ap.add_argument("--skip-pull", action="store_true", help="only the outbox drain")
    args = ap.parse_args()
    n = args.n or (300 if args.quick else 2000)
    n_rows = args.rows or (10_000 if args.quick else 50_000)
    runs = max(1, args.runs or (1 if args.quick else 3))
    workloads = ["support", "fulfillment"] if args.workload == "both" else [args.workload]
    summary: list[tuple[str, str]] = []
    started = time.perf_counter()
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory(prefix="bench-sync-") as tmp_name:
        tmp = Path(tmp_name)
        t = time.perf_counter()
        template = make_template(tmp)
        print(f"seeded demo template in {time.perf_counter() - t:.1f} s")
        if not args.skip_drain:
            for workload in workloads:
                drain_section(tmp, template, n, runs, workload, summary)
        if not args.skip_pull:
            # The engine's default page size gets --runs runs; the others one each (a full pull is long).
            pull_section(tmp, template, n_rows, runs, 1, summary)

    print(f"\nsummary (medians; {time.perf_counter() - started:.0f} s in all)")
    width = max((len(k) for k, _ in summary), default=10)
    for k, v in summary:
        print(f"  {k:<{width}}  {v}")
    print(f"command: {subprocess.list2cmdline([Path(sys.executable).name, *sys.argv])}")
    print(f"machine: {machine()}")


if __name__ == "__main__":
    main()
