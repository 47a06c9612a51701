"""Load test of the platform (not part of `make test`'s pass/fail): one command,

    .venv/bin/python tests/bench/bench_load.py [--stations 20] [--changes 500] [--rps 100] [--no-kill]

starts a platform server on PostgreSQL with two worker processes (``python -m app serve --demo
--workers 2``, on a database of its own, dropped at the end) and a local HTTPS webhook receiver
(tests/api/events/receiver.py, its own process), then runs together:

- stations syncing: each registers on the platform and pushes its changes (``support.tickets.create``
  entries, signed as a station signs them, in batches of 100) and pulls until caught up; a push
  interrupted by the kill below is sent again, as the sync engine does;
- API requests at a steady rate across the modules' list routes (``GET``, Bearer token of the owner);
- webhook deliveries: a subscription to ``ticket.created`` sends each new ticket to the receiver.

Midway (40 % of the changes acknowledged) one worker is killed with SIGKILL; the supervisor starts
another. It prints throughput, p50/p95/p99 latency and errors per kind (errors must be 0: a
request cut by the kill and sent again is counted apart), then checks in the database that every
station's sequence reached its last change, that every change became exactly one ticket (nothing
acknowledged lost, nothing applied twice) and exactly one delivery, and that every delivery
succeeded. Exit status 1 when a check fails or an error was seen.

PostgreSQL: PLATFORM_LOAD_POSTGRES_URL, else PLATFORM_TEST_POSTGRES_URL, else the local test
server (postgresql+psycopg://postgres@127.0.0.1:55432/platform_test; its databases are left alone).
Each run copies ``platform_load_tpl`` (made by the first run: migrated, demo data) into a database of
its own.
Rate limits are off on this server (PLATFORM_RATE_LIMITS=off): variant A allows one user 100
reads a minute, and the point is the server's throughput. BENCH_TINY=1 / BENCH_SMOKE=1: 1 station
of 10 changes, 5 requests/s over 6 list routes, one worker and no kill (a killed worker's claimed
deliveries wait for their lease, 30 s and more, before another worker sends them: the full size keeps
the kill); skipped (exit 0) when no PostgreSQL answers.

Scale-out (issue 38): ``--saturate SECONDS --workers N`` starts the server with N worker processes
(1: one process, no supervisor) and, instead of the mixed load, sends ``GET
/demo/fulfillment/api/orders?limit=20`` from ``--concurrency`` connections as fast as it answers
(closed loop) for SECONDS. It prints requests/s, requests/s per worker, latency, and CPU seconds
counted apart: the server's processes, PostgreSQL's, and the load generator's own (this process),
read from /proc and getrusage, with the load average before and after (the machine is shared).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from sqlalchemy import create_engine, func, select  # noqa: E402

from app.wiring import load_modules  # noqa: E402
from local_db.base import table_of  # noqa: E402
from local_db.models.events import Delivery  # noqa: E402
from local_db.models.support import SupportTicket  # noqa: E402
from local_db.models.sync import SyncStation  # noqa: E402
from services.core.commands import REGISTRY, sign_entry  # noqa: E402
from services.core.demo import demo_id  # noqa: E402
from services.sync import protocol as p  # noqa: E402
from tests.api.events.receiver import make_certs  # noqa: E402

TINY = bool(os.environ.get("BENCH_TINY") or os.environ.get("BENCH_SMOKE"))
DEFAULT_PG = "postgresql+psycopg://postgres@127.0.0.1:55432/platform_test"
TENANT = demo_id("tenant", "demo")
ADMIN = demo_id("user", "admin@demo.test")
BATCH = 100
SUBJECT = "load"


@dataclass
class Stats:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    cut: dict[str, int] = field(default_factory=lambda: defaultdict(int))  # cut by the kill, sent again
    acked = 0  # changes answered applied (or duplicate of an applied one)
    killed_at: float | None = None
    killed_pid: int | None = None
    acked_at_kill: int = 0
    kill_missed: str = ""


def pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def worker_pids(parent: int) -> list[int]:
    """The server's worker processes: its children started by multiprocessing (read from /proc, so
    a busy machine cannot make a ``ps`` call miss them)."""
    pids = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            stat = (proc / "stat").read_text()
            cmdline = (proc / "cmdline").read_bytes()
        except OSError:  # ended while we looked
            continue
        # The parent pid is the 2nd field after the command name, which is in parentheses.
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == parent and b"spawn_main" in cmdline:
            pids.append(int(proc.name))
    return sorted(pids)


def entries(secret: str, station: str, start: int, n: int) -> list[dict[str, Any]]:
    out = []
    for seq in range(start, start + n):
        e = {
            "command": "support.tickets.create",
            "method": "POST",
            "path": "/api/tenants/demo/support/tickets",
            "body": {
                "subject": f"{SUBJECT} {station} {seq}",
                "description": "d",
                "email": "a@example.test",
                "name": "A",
            },
            "idempotency_key": str(uuid.uuid4()),
            "actor_id": ADMIN,
            "created_at": datetime.now(UTC).isoformat(),
            "ids": [str(uuid.uuid4()) for _ in range(4)],
        }
        signed = {**e, "station_id": station, "tenant_id": TENANT, "station_seq": seq}
        out.append({**e, "seq": seq, "void": False, "signature": sign_entry(secret.encode(), signed)})
    return out


async def station(url: str, name: str, secret: str, n: int, stats: Stats) -> None:
    """Push n changes in batches (a batch cut by the kill is sent again), then pull until caught up."""
    todo = entries(secret, name, 1, n)
    async with httpx.AsyncClient(base_url=url, timeout=60) as client:
        i = 0
        while i < len(todo):
            batch = todo[i : i + BATCH]
            purpose = p.push_purpose([e["signature"] for e in batch])
            headers = p.signed_headers(secret, "demo", name, purpose, time.time())
            t0 = time.perf_counter()
            try:
                r = await client.post("/api/tenants/demo/sync/push", json={"entries": batch}, headers=headers)
            except httpx.TransportError:
                stats.cut["push"] += 1
                await asyncio.sleep(0.2)
                continue
            stats.latencies["push (100 changes)"].append(time.perf_counter() - t0)
            if r.status_code != 200:
                stats.errors["push"].append(f"{r.status_code} {r.text[:200]}")
                return
            answers = r.json()["data"]["answers"]
            done = [a for a in answers if a["status"] in ("applied", "duplicate")]
            wrong = [a for a in answers if a["status"] not in ("applied", "duplicate", "deferred", "retry")]
            if wrong:
                stats.errors["push"].append(str(wrong[:2]))
                return
            # "duplicate" is acknowledged too: an earlier try of this batch, cut by the kill or
            # by the client's timeout, was applied before its answer got lost.
            stats.acked += len(done)
            i += len(done)
        cursor = ""
        while True:
            headers = p.signed_headers(secret, "demo", name, f"pull:{cursor}:1000", time.time())
            t0 = time.perf_counter()
            try:
                r = await client.get(
                    "/api/tenants/demo/sync/pull", params={"cursor": cursor, "limit": 1000}, headers=headers
                )
            except httpx.TransportError:
                stats.cut["pull"] += 1
                await asyncio.sleep(0.2)
                continue
            stats.latencies["pull (page of 1000)"].append(time.perf_counter() - t0)
            if r.status_code != 200:
                stats.errors["pull"].append(f"{r.status_code} {r.text[:200]}")
                return
            data = r.json()["data"]
            cursor = data["cursor"]
            if not data["more"]:
                return


async def api_load(url: str, token: str, paths: list[str], rps: float, until: asyncio.Event, stats: Stats) -> None:
    """Requests at a steady rate (open loop: one starts every 1/rps s whatever the answers), over 8 clients."""
    clients = [
        httpx.AsyncClient(base_url=url, timeout=60, headers={"Authorization": f"Bearer {token}"}) for _ in range(8)
    ]
    tasks: set[asyncio.Task[None]] = set()

    async def one(k: int) -> None:
        path = paths[k % len(paths)]
        for _ in range(3):
            t0 = time.perf_counter()
            try:
                r = await clients[k % len(clients)].get(path)
            except httpx.TransportError:
                stats.cut["api"] += 1
                continue
            stats.latencies["api GET"].append(time.perf_counter() - t0)
            if r.status_code != 200:
                stats.errors["api"].append(f"{path}: {r.status_code} {r.text[:200]}")
            return
        stats.errors["api"].append(f"{path}: no answer in 3 tries")

    k = 0
    start = time.perf_counter()
    while not until.is_set():
        t = asyncio.create_task(one(k))
        tasks.add(t)
        t.add_done_callback(tasks.discard)
        k += 1
        await asyncio.sleep(max(0.0, start + k / rps - time.perf_counter()))
    if tasks:
        await asyncio.gather(*tasks)
    for c in clients:
        await c.aclose()


async def killer(parent: int, at_acked: int, stats: Stats, until: asyncio.Event) -> None:
    while not until.is_set() and stats.acked < at_acked:
        await asyncio.sleep(0.02)
    if until.is_set():
        stats.kill_missed = f"the load ended before {at_acked} changes were acknowledged ({stats.acked})"
        return
    for _ in range(100):  # a worker being started again by the supervisor: wait for it
        pids = worker_pids(parent)
        if pids:
            stats.killed_pid = pids[0]
            stats.killed_at = time.perf_counter()
            stats.acked_at_kill = stats.acked
            os.kill(pids[0], signal.SIGKILL)
            return
        await asyncio.sleep(0.1)
    stats.kill_missed = f"no worker process of {parent} found to kill"


def list_paths() -> list[str]:
    """The modules' plain list routes: GET, no path parameters, staff of the tenant."""
    load_modules()
    out = []
    for op in REGISTRY.values():
        if op.method != "GET" or op.tx != "read" or op.auth != "tenant" or op.keys_only or op.path_params:
            continue
        if op.path.startswith(("/api/", "/../")) or op.module in ("platform", "sync"):
            continue
        out.append(f"/demo/{op.module}/api{op.path}")
    return sorted(set(out))


def start_server(db_url: str, data: Path, ca: Path, workers: int = 2) -> tuple[subprocess.Popen[str], str]:
    env = {
        **os.environ,
        "PLATFORM_DATABASE_URL": db_url,
        "PLATFORM_SECRET_KEY": "load-test-secret-0123456789abcdefghij",
        "PLATFORM_RATE_LIMITS": "off",
        "PLATFORM_WEBHOOK_ALLOW_PRIVATE": "1",
        "PLATFORM_WEBHOOK_CA_BUNDLE": str(ca),
        "PLATFORM_RETRY_DELAYS": "0.2,0.5,1,2,4",
    }
    env.pop("PLATFORM_TEST_BACKEND", None)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "app",
            "serve",
            "--demo",
            "--workers",
            str(workers),
            "--port",
            "0",
            "--data-dir",
            str(data),
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line.startswith("listening on "):
        proc.kill()
        raise SystemExit(f"the server did not start: {line}{proc.stderr.read() if proc.stderr else ''}")
    deadline = time.monotonic() + 120
    while workers > 1 and len(worker_pids(proc.pid)) < workers and time.monotonic() < deadline:
        time.sleep(0.1)
    return proc, line.split()[-1]


TEMPLATE = "platform_load_tpl"


def load_template(admin: Any, admin_url: str) -> str:
    """A migrated database with the demo data, made once and copied for each run (migrating and
    seeding PostgreSQL takes most of a minute); the server brings a copy up to the newest schema."""
    with admin.connect() as c:
        c.exec_driver_sql("SELECT pg_advisory_lock(hashtext('platform_load_tpl'))")
        try:
            if c.exec_driver_sql(f"SELECT 1 FROM pg_database WHERE datname = '{TEMPLATE}'").first() is None:
                from app.settings import Settings
                from app.wiring import platform_runtime
                from services.core.demo import seed_demo

                c.exec_driver_sql(f"CREATE DATABASE {TEMPLATE}")
                with tempfile.TemporaryDirectory() as tmp:
                    url = admin_url.rsplit("/", 1)[0] + "/" + TEMPLATE
                    rt = platform_runtime(Settings(data_dir=Path(tmp), secret_key="t", database_url=url, demo=True))
                    seed_demo(rt)
                    rt.db.dispose()
        finally:
            c.exec_driver_sql("SELECT pg_advisory_unlock(hashtext('platform_load_tpl'))")
    return TEMPLATE


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--stations", type=int, default=1 if TINY else 20)
    ap.add_argument("--changes", type=int, default=10 if TINY else 500)
    ap.add_argument("--rps", type=float, default=5 if TINY else 100)
    ap.add_argument("--no-kill", action="store_true")
    ap.add_argument("--workers", type=int, default=1 if TINY else 2, help="server worker processes")
    ap.add_argument("--saturate", type=float, default=0, metavar="SECONDS", help="scale-out: closed-loop reads")
    ap.add_argument("--concurrency", type=int, default=20, help="with --saturate: connections")
    args = ap.parse_args()
    if TINY or args.workers < 2:
        args.no_kill = True  # see the docstring: the kill needs a second worker and costs a lease
    admin_url = (
        os.environ.get("PLATFORM_LOAD_POSTGRES_URL") or os.environ.get("PLATFORM_TEST_POSTGRES_URL") or DEFAULT_PG
    )
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as c:
            c.exec_driver_sql("SELECT 1")
    except Exception as exc:  # noqa: BLE001 - no server: said, and skipped at the tiny size
        print(f"no PostgreSQL at {admin_url.split('@')[-1]}: {type(exc).__name__}")
        return 0 if TINY else 1
    name = f"load_{uuid.uuid4().hex[:12]}"
    template = load_template(admin, admin_url)
    with admin.connect() as c:
        c.exec_driver_sql(f"CREATE DATABASE {name} TEMPLATE {template}")
    db_url = admin_url.rsplit("/", 1)[0] + "/" + name
    procs: list[subprocess.Popen[str]] = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            certs = make_certs(Path(tmp) / "certs")
            receiver = subprocess.Popen(
                [sys.executable, "-m", "tests.api.events.receiver", "--certs", str(Path(tmp) / "certs")],
                cwd=ROOT,
                stdout=subprocess.PIPE,
                text=True,
            )
            procs.append(receiver)
            assert receiver.stdout is not None
            hook = f"https://127.0.0.1:{receiver.stdout.readline().split()[-1]}/hook"
            t0 = time.perf_counter()
            server, url = start_server(db_url, Path(tmp) / "data", certs.ca, args.workers)
            procs.append(server)
            print(f"server with {args.workers} worker(s) on PostgreSQL up in {time.perf_counter() - t0:.1f} s")
            if args.saturate:
                return asyncio.run(saturate(args, url, server.pid, admin))
            return asyncio.run(run(args, url, hook, server.pid, db_url))
    finally:
        for proc in reversed(procs):
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
        with admin.connect() as c:
            c.exec_driver_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.dispose()


async def run(args: argparse.Namespace, url: str, hook: str, parent: int, db_url: str) -> int:
    stats = Stats()
    async with httpx.AsyncClient(base_url=url, timeout=60) as c:
        r = await c.post("/api/auth/login", json={"email": "owner@demo.test", "password": "demo-password"})
        token = r.json()["data"]["token"]
        auth = {"Authorization": f"Bearer {token}"}
        secrets = {}
        for i in range(args.stations):
            sid = f"load-{i:02d}"
            r = await c.post("/api/tenants/demo/sync/stations", json={"stationId": sid, "name": sid}, headers=auth)
            assert r.status_code == 201, r.text
            secrets[sid] = r.json()["data"]["secret"]
        r = await c.post(
            "/demo/events/api/subscriptions",
            json={"event_types": ["ticket.created"], "target": "webhook", "webhook_url": hook, "secret": "k" * 24},
            headers=auth,
        )
        assert r.status_code == 201, r.text
        sub_id = r.json()["data"]["id"]
        candidates = list_paths()
        if TINY:  # a few routes spread over the modules: each is asked once here, one by one
            candidates = candidates[:: max(1, len(candidates) // 6)][:6]
        paths = [path for path in candidates if (await c.get(path, headers=auth)).status_code == 200]
    total = args.stations * args.changes
    print(
        f"load: {args.stations} stations x {args.changes} changes, {args.rps:.0f} API requests/s over "
        f"{len(paths)} list routes, webhooks of ticket.created to {hook}"
    )
    until = asyncio.Event()
    started = time.perf_counter()
    api = asyncio.create_task(api_load(url, token, paths, args.rps, until, stats))
    kill = None if args.no_kill else asyncio.create_task(killer(parent, int(total * 0.4), stats, until))
    await asyncio.gather(*(station(url, sid, sec, args.changes, stats) for sid, sec in secrets.items()))
    synced = time.perf_counter() - started
    until.set()
    await api
    if kill is not None:
        await kill
    # Deliveries: wait until every ticket's delivery is final.
    engine = create_engine(db_url)
    deliveries = table_of(Delivery)
    deadline = time.monotonic() + (60 if TINY else 300)
    while True:
        with engine.connect() as conn:
            by_status = dict(
                conn.execute(
                    select(deliveries.c.status, func.count())
                    .where(deliveries.c.subscription_id == sub_id)
                    .group_by(deliveries.c.status)
                ).all()
            )
        if sum(by_status.values()) >= total and by_status.get("pending", 0) == 0 or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.2)
    delivered_in = time.perf_counter() - started
    problems = check(engine, args, total, by_status)
    engine.dispose()

    print(f"sync: {total} changes pushed and pulled in {synced:.1f} s: {total / synced:,.0f} changes/s")
    api_n = len(stats.latencies["api GET"])
    print(f"api: {api_n} requests in {synced:.1f} s: {api_n / synced:,.0f}/s")
    ok = by_status.get("succeeded", 0)
    print(f"webhooks: {ok} deliveries succeeded within {delivered_in:.1f} s of the start: {ok / delivered_in:,.0f}/s")
    for kind, values in sorted(stats.latencies.items()):
        print(
            f"  {kind:22} n={len(values):6}  p50 {pct(values, 0.5) * 1e3:8.1f} ms  p95 {pct(values, 0.95) * 1e3:8.1f} ms"
            f"  p99 {pct(values, 0.99) * 1e3:8.1f} ms  mean {statistics.fmean(values) * 1e3 if values else 0:8.1f} ms"
        )
    if stats.killed_pid:
        print(
            f"kill -9 of worker {stats.killed_pid} at {stats.killed_at - started if stats.killed_at else 0:.1f} s "
            f"(after {stats.acked_at_kill} of {total} changes acknowledged); requests cut and sent again: {dict(stats.cut)}; "
            f"workers now: {len(worker_pids(parent))}"
        )
    if kill is not None and not stats.killed_pid:
        problems.append(f"the worker was not killed: {stats.kill_missed}")
    errors = sum(len(v) for v in stats.errors.values())
    print(f"errors: {errors}" + "".join(f"\n  {k}: {v[:3]}" for k, v in stats.errors.items() if v))
    print("checks: " + ("all passed (nothing acknowledged lost, nothing applied twice)" if not problems else ""))
    for problem in problems:
        print(f"  FAILED: {problem}")
    return 1 if errors or problems else 0


def tree_cpu(root: int) -> float:
    """CPU seconds (user + system) of ``root`` and every live descendant, from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(proc.name)] = int(fields[1])
        cpu[int(proc.name)] = (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        total += cpu.get(pid, 0.0)
        todo += [child for child, parent in parents.items() if parent == pid]
    return total


def own_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


async def saturate(args: argparse.Namespace, url: str, server_pid: int, admin: Any) -> int:
    """Closed-loop reads of one list route from ``args.concurrency`` connections for ``args.saturate`` s."""
    with admin.connect() as c:  # PostgreSQL's processes: the postmaster is a backend's parent
        backend = c.exec_driver_sql("SELECT pg_backend_pid()").scalar_one()
    stat = Path(f"/proc/{backend}/stat").read_text().rsplit(")", 1)[1].split()
    postmaster = int(stat[1])
    path = "/demo/fulfillment/api/orders?limit=20"
    limits = httpx.Limits(max_connections=args.concurrency, max_keepalive_connections=args.concurrency)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as c:
        r = await c.post("/api/auth/login", json={"email": "owner@demo.test", "password": "demo-password"})
        c.headers["Authorization"] = f"Bearer {r.json()['data']['token']}"
        for _ in range(2 * args.concurrency):  # warm: every connection opened, every worker's caches filled
            assert (await c.get(path)).status_code == 200
        latencies: list[float] = []
        errors = 0
        load_before = os.getloadavg()[0]
        cpu0 = (tree_cpu(server_pid), tree_cpu(postmaster), own_cpu())
        started = time.perf_counter()
        deadline = started + args.saturate

        async def client() -> None:
            nonlocal errors
            while time.perf_counter() < deadline:
                t0 = time.perf_counter()
                try:
                    r = await c.get(path)
                except httpx.TransportError:  # no answer within the client's 60 s: an error, not the end
                    errors += 1
                    continue
                latencies.append(time.perf_counter() - t0)
                errors += r.status_code != 200

        await asyncio.gather(*(client() for _ in range(args.concurrency)))
        wall = time.perf_counter() - started
        cpu1 = (tree_cpu(server_pid), tree_cpu(postmaster), own_cpu())
    n = len(latencies)
    server_cpu, pg_cpu, gen_cpu = (b - a for a, b in zip(cpu0, cpu1, strict=True))
    print(
        f"saturate: GET {path} from {args.concurrency} connections for {wall:.1f} s, {args.workers} worker(s), "
        f"{os.cpu_count()} cores, load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after"
    )
    print(f"  requests/s {n / wall:8.1f}   per worker {n / wall / args.workers:8.1f}   errors {errors}")
    print(f"  latency p50 {pct(latencies, 0.5) * 1e3:.1f} ms  p99 {pct(latencies, 0.99) * 1e3:.1f} ms")
    print(
        f"  CPU s: server {server_cpu:.1f} ({server_cpu / max(n, 1) * 1e3:.2f} ms/req), PostgreSQL {pg_cpu:.1f} "
        f"({pg_cpu / max(n, 1) * 1e3:.2f} ms/req), load generator {gen_cpu:.1f} ({gen_cpu / max(n, 1) * 1e3:.2f} ms/req)"
    )
    return 1 if errors else 0


def check(engine: Any, args: argparse.Namespace, total: int, by_status: dict[str, int]) -> list[str]:
    problems = []
    tickets, stations = table_of(SupportTicket), table_of(SyncStation)
    with engine.connect() as conn:
        seqs = dict(
            conn.execute(select(stations.c.station_id, stations.c.last_seq).where(stations.c.tenant_id == TENANT)).all()
        )
        subjects = conn.execute(
            select(tickets.c.subject, func.count())
            .where(tickets.c.tenant_id == TENANT, tickets.c.subject.like(f"{SUBJECT} load-%"))
            .group_by(tickets.c.subject)
        ).all()
    behind = {s: n for s, n in seqs.items() if s.startswith("load-") and n != args.changes}
    if behind:
        problems.append(f"stations whose sequence is not {args.changes}: {behind}")
    twice = [s for s, n in subjects if n != 1]
    if twice:
        problems.append(f"{len(twice)} changes applied more than once, e.g. {twice[:3]}")
    if len(subjects) != total:
        problems.append(f"{total - len(subjects)} acknowledged changes missing ({len(subjects)} of {total})")
    if by_status.get("succeeded", 0) != total or sum(by_status.values()) != total:
        problems.append(f"deliveries {by_status}, expected {total} succeeded (one per ticket)")
    return problems


if __name__ == "__main__":
    raise SystemExit(main())
