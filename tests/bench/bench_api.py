"""The API's request path beside a bare FastAPI + SQLAlchemy app, in the same run (issue 38, part 1):

    QT_QPA_PLATFORM=offscreen PYTHONPATH=$PWD .venv/bin/python tests/bench/bench_api.py [--requests 2000]
    ... --profile 200      also print a cProfile of that many list requests, run in this process
    ... --data-dir D --profile-only --profile 300 --profile-writes
                           a cProfile of 300 ticket POSTs with a session, and their CPU unprofiled
    ... --database-url postgresql+psycopg://... --workers 2
                           the concurrent ticket POSTs only, on PostgreSQL with 2 worker processes

Both servers are separate uvicorn processes over the same SQLite file (the demo data): ours
(``python -m app serve``, rate limits off) and the bare app of ``--bare`` (this script: one route
reading the same 20 orders with a SQLAlchemy session, and ``/health``). The load comes from this
process, 20 connections at once. The figures: requests/s and the server process's CPU per request
(user + system time of the whole process from /proc, so the load generator's CPU is not counted);
on a shared machine the ratios and the CPU per request hold, the wall times do not.

Goals (issue 38): the list at ≥ 0.8 of the bare app's requests/s and ≤ 1.25× its CPU per request;
``/health`` at ≥ 0.9.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
TINY = os.environ.get("BENCH_TINY") == "1" or os.environ.get("BENCH_SMOKE") == "1"
CONNECTIONS = 20
TICK = os.sysconf("SC_CLK_TCK")


def bare_app(db_file: str) -> Any:
    """The baseline: FastAPI and SQLAlchemy as a tutorial writes them, the same rows as ours."""
    from fastapi import FastAPI
    from sqlalchemy import MetaData, Table, create_engine, select
    from sqlalchemy.orm import Session

    engine = create_engine(f"sqlite:///{db_file}")
    orders = Table("fulfillment_orders", MetaData(), autoload_with=engine)
    tenants = Table("tenants", MetaData(), autoload_with=engine)
    app = FastAPI()

    @app.get("/health")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/{tenant}/orders")
    def list_orders(tenant: str, limit: int = 20) -> dict[str, Any]:
        with Session(engine) as s:
            tid = s.execute(select(tenants.c.id).where(tenants.c.slug == tenant)).scalar_one()
            rows = s.execute(
                select(orders).where(orders.c.tenant_id == tid).order_by(orders.c.created_at.desc()).limit(limit)
            ).mappings()
            return {"data": [dict(r) for r in rows]}

    return app


def run_bare(db_file: str) -> None:
    import uvicorn

    from app.server import free_port

    port = free_port()
    config = uvicorn.Config(bare_app(db_file), host="127.0.0.1", port=port, log_level="warning", access_log=False)
    server = uvicorn.Server(config)

    async def run() -> None:
        task = asyncio.create_task(server.serve())
        while not server.started and not task.done():
            await asyncio.sleep(0.02)
        print(f"listening on http://127.0.0.1:{port}", flush=True)
        await task

    asyncio.run(run())


def start(cmd: list[str], env: dict[str, str]) -> tuple[subprocess.Popen[str], str]:
    # The log lines go to a file: a pipe nobody reads would fill and stop the server mid-run.
    log = tempfile.TemporaryFile("w+")  # noqa: SIM115 - lives as long as the server, closed with it
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=log, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line.startswith("listening on "):
        proc.kill()
        log.seek(0)
        raise SystemExit(f"the server did not start: {line}{log.read()[-3000:]}")
    threading.Thread(target=proc.stdout.read, daemon=True).start()
    return proc, line.split()[-1]


def cpu_seconds(pid: int) -> float:
    """User + system CPU so far of the process (every thread) and its live descendants (the worker
    processes of ``--workers``)."""
    parents: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # ended while we looked
            continue
        parents[int(proc.name)] = int(fields[1])
        cpu[int(proc.name)] = (int(fields[11]) + int(fields[12])) / TICK
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        total += cpu.get(p, 0.0)
        todo.extend(c for c, parent in parents.items() if parent == p)
    return total


async def load(url: str, path: str, n: int, headers: dict[str, str]) -> tuple[float, int]:
    """``n`` GETs over CONNECTIONS connections at once: (seconds, failures)."""
    import httpx

    left = n
    failures = 0

    async def worker(c: httpx.AsyncClient) -> None:
        nonlocal left, failures
        while left > 0:
            left -= 1
            r = await c.get(path, headers=headers)
            if r.status_code != 200:
                failures += 1

    limits = httpx.Limits(max_connections=CONNECTIONS, max_keepalive_connections=CONNECTIONS)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=120) as c:
        t = time.perf_counter()
        await asyncio.gather(*(worker(c) for _ in range(CONNECTIONS)))
        return time.perf_counter() - t, failures


def measure(pid: int, url: str, path: str, n: int, headers: dict[str, str]) -> dict[str, float]:
    asyncio.run(load(url, path, max(20, n // 10), headers))  # warm: connections, caches, the JIT-less paths
    cpu = cpu_seconds(pid)
    wall, failures = asyncio.run(load(url, path, n, headers))
    used = cpu_seconds(pid) - cpu
    if failures:
        raise SystemExit(f"{failures} of {n} requests to {path} failed")
    return {"rps": n / wall, "cpu_ms": used / n * 1e3}


async def writes(url: str, n: int, headers: dict[str, str]) -> list[float]:
    """``n`` ticket creations, CONNECTIONS at once: each one's seconds (the wall clock: a wait is
    what this measures)."""
    import httpx

    left = n
    times: list[float] = []

    async def worker(c: httpx.AsyncClient, w: int) -> None:
        nonlocal left
        while left > 0:
            left -= 1
            body = {
                "email": f"bench{w}@example.test",
                "name": "Bench",
                "subject": f"Concurrent ticket {left}",
                "description": "written by 20 clients at once (tests/bench/bench_api.py)",
            }
            t = time.perf_counter()
            r = await c.post("/api/tenants/demo/support/tickets", json=body, headers=headers)
            times.append(time.perf_counter() - t)
            if r.status_code != 201:
                raise SystemExit(f"ticket creation failed: {r.status_code} {r.text[:300]}")

    limits = httpx.Limits(max_connections=CONNECTIONS, max_keepalive_connections=CONNECTIONS)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=120) as c:
        await asyncio.gather(*(worker(c, w) for w in range(CONNECTIONS)))
    return times


def write_figures(times: list[float]) -> str:
    s = sorted(times)

    def q(p: float) -> float:
        return s[min(len(s) - 1, int(p * len(s)))] * 1e3

    over = sum(1 for t in s if t > 1.0)
    return (
        f"{len(s)} tickets: p50 {q(0.5):.0f} ms, p95 {q(0.95):.0f} ms, p99 {q(0.99):.0f} ms, "
        f"max {s[-1] * 1e3:.0f} ms, {over} over 1 s"
    )


def seed(data: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PLATFORM_TEST_BACKEND", None)
    subprocess.run([sys.executable, "-m", "app", "seed-demo", "--data-dir", str(data)], cwd=ROOT, env=env, check=True)


def credentials(url: str) -> dict[str, dict[str, str]]:
    """A session token of the demo admin and a live API key of the owner for fulfillment."""
    import httpx

    from services.core.demo import DEMO_PASSWORD

    with httpx.Client(base_url=url, timeout=60) as c:
        r = c.post("/api/auth/login", json={"email": "owner@demo.test", "password": DEMO_PASSWORD})
        if r.status_code != 200:
            raise SystemExit(f"sign-in failed: {r.status_code} {r.text}")
        token = r.json()
        bearer = {"Authorization": f"Bearer {token['data']['token']}"}
        r = c.post("/api/tenants/demo/api-keys", json={"name": "bench", "modules": ["fulfillment"]}, headers=bearer)
        r.raise_for_status()
        return {"session": bearer, "api_key": {"X-API-Key": r.json()["data"]["key"]}}


def profile(data: Path, n: int, writes: bool = False) -> None:
    """cProfile of ``n`` list requests (``writes``: ticket POSTs with a session) through the whole ASGI app in this process, with the work that
    normally runs in the thread pool run inline so that the profile sees it."""
    import cProfile
    import pstats

    import httpx

    import api.app
    from app.server import build_app
    from app.settings import Settings

    async def inline(fn: Any, *args: Any, **_kw: Any) -> Any:
        return fn(*args)

    api.app.to_thread.run_sync = inline  # type: ignore[assignment]
    os.environ["PLATFORM_RATE_LIMITS"] = "off"
    app, rt = build_app(Settings(data_dir=data, force_https=False), seed=False, migrate=False)

    from services.core.demo import DEMO_PASSWORD

    headers: dict[str, str] = {}

    async def go(count: int) -> None:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
            if not headers:
                r = await c.post("/api/auth/login", json={"email": "owner@demo.test", "password": DEMO_PASSWORD})
                bearer = {"Authorization": f"Bearer {r.json()['data']['token']}"}
                r = await c.post(
                    "/api/tenants/demo/api-keys", json={"name": "profile", "modules": ["fulfillment"]}, headers=bearer
                )
                headers["X-API-Key"] = r.json()["data"]["key"]
                r = await c.post("/api/auth/login", json={"email": "owner@demo.test", "password": DEMO_PASSWORD})
                headers["Authorization"] = f"Bearer {r.json()['data']['token']}"
            for i in range(count):
                if writes:
                    # The write the concurrent row measures, with the admin's session.
                    r = await c.post(
                        "/api/tenants/demo/support/tickets",
                        json={"email": "p@example.test", "name": "P", "subject": f"Profile {i}", "description": "x"},
                        headers={"Authorization": headers["Authorization"]},
                    )
                    assert r.status_code == 201, r.text
                    continue
                r = await c.get("/demo/fulfillment/api/orders?limit=20", headers={"X-API-Key": headers["X-API-Key"]})
                assert r.status_code == 200, r.text

    asyncio.run(go(20))
    # The CPU of a request in this process, client included, before the profiler slows it down.
    cpu = time.process_time()
    asyncio.run(go(n))
    print(f"\nin process, without the profiler: {(time.process_time() - cpu) / n * 1e3:.2f} ms CPU a request")
    prof = cProfile.Profile()
    prof.enable()
    asyncio.run(go(n))
    prof.disable()
    if dump := os.environ.get("BENCH_PROFILE_FILE"):
        prof.dump_stats(dump)
    stats = pstats.Stats(prof)
    what = "ticket POSTs" if writes else "list requests"
    print(f"\nprofile of {n} {what}: {stats.total_calls / n:.0f} Python calls a request")  # type: ignore[attr-defined]
    # The project's own functions and the libraries' big steps, below the ASGI stack's layers.
    stats.sort_stats("cumulative").print_stats(r"/(api|services)/|routing.py|orm/session", 40)
    stats.sort_stats("tottime").print_stats(15)
    rt.db.dispose()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=40 if TINY else 2000)
    ap.add_argument("--writes", type=int, default=20 if TINY else 400, help="tickets created 20 at once (0: none)")
    ap.add_argument("--only-writes", action="store_true", help="skip the read rows")
    ap.add_argument("--database-url", help="ours on this database (PostgreSQL: the writes only, seeded by --demo)")
    ap.add_argument("--workers", type=int, default=1, help="ours with this many worker processes (PostgreSQL)")
    ap.add_argument("--profile", type=int, default=0, help="also profile that many list requests in process")
    ap.add_argument("--bare", help=argparse.SUPPRESS)  # run the bare app over this SQLite file
    ap.add_argument("--data-dir", type=Path, help="a demo data dir made before (seeding takes half a minute)")
    ap.add_argument("--profile-only", action="store_true", help="only the profile (needs --data-dir)")
    ap.add_argument("--profile-writes", action="store_true", help="profile ticket POSTs instead of the list")
    args = ap.parse_args()
    if args.bare:
        run_bare(args.bare)
        return 0
    if args.profile_only:
        profile(args.data_dir, args.profile or 200, args.profile_writes)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        data = args.data_dir or Path(tmp) / "data"
        if not (data / "data.db").exists() and not args.database_url:
            seed(data)
        env = {**os.environ, "PYTHONPATH": str(ROOT), "PLATFORM_RATE_LIMITS": "off", "PLATFORM_FORCE_HTTPS": "0"}
        env.pop("PLATFORM_TEST_BACKEND", None)
        serve = [sys.executable, "-m", "app", "serve", "--port", "0", "--data-dir", str(data)]
        if args.database_url:
            env["PLATFORM_DATABASE_URL"] = args.database_url
            serve.append("--demo")  # seeds the demo data when the database has none
            if args.workers > 1:
                serve += ["--workers", str(args.workers)]
            args.only_writes = True
        ours, ours_url = start(serve, env)
        servers = [ours]
        if not args.only_writes:
            bare, bare_url = start([sys.executable, __file__, "--bare", str(data / "data.db")], env)
            servers.append(bare)
        try:
            creds = credentials(ours_url)
            n = args.requests
            rows = (
                []
                if args.only_writes
                else [
                    ("GET /health", (bare.pid, bare_url, "/health", {}), (ours.pid, ours_url, "/health", {})),
                    (
                        "list orders, API key",
                        (bare.pid, bare_url, "/demo/orders?limit=20", {}),
                        (ours.pid, ours_url, "/demo/fulfillment/api/orders?limit=20", creds["api_key"]),
                    ),
                    (
                        "list orders, session",
                        (bare.pid, bare_url, "/demo/orders?limit=20", {}),
                        (ours.pid, ours_url, "/demo/fulfillment/api/orders?limit=20", creds["session"]),
                    ),
                ]
            )
            print(f"{n} requests each, {CONNECTIONS} connections; server CPU from /proc (ms per request)")
            print(
                f"{'':24} {'bare req/s':>10} {'ours req/s':>10} {'ratio':>6}  {'bare CPU':>8} {'ours CPU':>8} {'CPU×':>5}"
            )
            out: dict[str, Any] = {}
            for name, b, o in rows:
                fb = measure(*b[:3], n, b[3])  # type: ignore[arg-type]
                fo = measure(*o[:3], n, o[3])  # type: ignore[arg-type]
                out[name] = {"bare": fb, "ours": fo}
                print(
                    f"{name:24} {fb['rps']:10.0f} {fo['rps']:10.0f} {fo['rps'] / fb['rps']:6.2f}  "
                    f"{fb['cpu_ms']:8.2f} {fo['cpu_ms']:8.2f} {fo['cpu_ms'] / max(fb['cpu_ms'], 1e-9):5.2f}"
                )
            if args.writes:
                asyncio.run(writes(ours_url, max(20, args.writes // 10), creds["session"]))  # warm
                cpu, t = cpu_seconds(ours.pid), time.perf_counter()
                times = asyncio.run(writes(ours_url, args.writes, creds["session"]))
                cpu, wall = cpu_seconds(ours.pid) - cpu, time.perf_counter() - t
                # The server's CPU per ticket and the share of a core it got: a write that waits behind
                # 19 others waits about 19 times the CPU of one, divided by that share.
                workers = f", {args.workers} workers" if args.workers > 1 else ""
                print(
                    f"POST support tickets, {CONNECTIONS} at once{workers}: {write_figures(times)}; server CPU "
                    f"{cpu / len(times) * 1e3:.2f} ms a ticket, {cpu / wall:.2f} of a core"
                )
            if os.environ.get("BENCH_JSON"):
                print(json.dumps(out))
        finally:
            for p in servers:
                p.terminate()
                try:
                    p.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    p.kill()
        if args.profile:
            profile(data, 2 if TINY else args.profile, args.profile_writes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
