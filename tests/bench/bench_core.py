"""Foundation benchmarks (not part of `make test`): run `make bench` or

    .venv/bin/python tests/bench/bench_core.py

Prints medians next to the same work done with raw sqlite3, and the ratio. The service write is
measured twice: written by Core statements compiled once (``Prepared``, as the hot use cases write:
the scan, counters, events, outbox rows), and through the ORM's unit of work (``session.get``, an
attribute set, the flush), as most use cases write.
"""

from __future__ import annotations

import json
import sqlite3
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from sqlalchemy import bindparam, update  # noqa: E402
from timing import calls_per_call, fmt, size, timed  # noqa: E402 - tests/bench/timing.py, next to this script

from app.wiring import station_runtime  # noqa: E402
from local_db.base import table_of  # noqa: E402
from local_db.engine import Prepared  # noqa: E402
from local_db.models import User  # noqa: E402
from services.core import auth  # noqa: E402
from services.core.commands import REGISTRY, execute, use_case
from services.core.context import Ctx  # noqa: E402
from services.core.demo import DEMO_PASSWORD, seed_demo  # noqa: E402
from services.core.events import emit  # noqa: E402
from services.core.roles import OWNER
from services.core.schemas import Strict  # noqa: E402


class Rename(Strict):
    name: str


@use_case("bench.rename", "POST /_bench/rename", tx="write", module="inventory", roles=OWNER)
def _rename(ctx: Ctx, body: Rename) -> None:
    with ctx.write() as s:
        user = s.get(User, ctx.principal.id)
        assert user is not None
        user.name = body.name
        emit(ctx, "stock.adjusted", {"sku": "SKU-1", "delta": 1})


RENAME = REGISTRY["bench.rename"]
_USERS = table_of(User)
# ``updated_at`` given: a column default made in Python (its onupdate) would send the statement
# the slow way (``Prepared`` runs on the driver only what needs no Python default).
_SET_NAME = Prepared(
    update(_USERS)
    .where(_USERS.c.id == bindparam("b_id"))
    .values(name=bindparam("b_name"), updated_at=bindparam("b_at"))
)


@use_case("bench.rename_core", "POST /_bench/rename-core", tx="write", module="inventory", roles=OWNER)
def _rename_core(ctx: Ctx, body: Rename) -> None:
    # The use case knows its row: one prepared UPDATE on the unit of work's connection, no ORM
    # object loaded or flushed (execute has opened the unit of work; it commits it).
    _SET_NAME.run(ctx.uow.connection(), {"b_id": ctx.principal.id, "b_name": body.name, "b_at": ctx.now()})
    emit(ctx, "stock.adjusted", {"sku": "SKU-1", "delta": 1})


RENAME_CORE = REGISTRY["bench.rename_core"]


def cpu_per_call(fn: Callable[[], object], n: int) -> float:
    """This process's CPU seconds per call of ``fn`` over ``n`` calls (BENCH_SMOKE: 2)."""
    n = size(n, 2)
    started = time.process_time()
    for _ in range(n):
        fn()
    return (time.process_time() - started) / n


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    with tempfile.TemporaryDirectory() as tmp:
        rt = station_runtime(Path(tmp) / "station", "station-bench")
        seed_demo(rt)
        tenant = auth.load_tenant(rt.db, "demo")
        user = auth.authenticate_password(rt.db, "owner@demo.test", DEMO_PASSWORD)
        principal = auth.user_principal(rt.db, user.id, tenant)
        counter = iter(range(10**9))

        def service_write() -> None:
            execute(Ctx(rt, tenant, principal), RENAME_CORE, body={"name": f"n{next(counter)}"})

        def orm_write() -> None:
            execute(Ctx(rt, tenant, principal), RENAME, body={"name": f"n{next(counter)}"})

        svc = timed(service_write, n, warmup=50)
        svc_cpu = cpu_per_call(service_write, n)
        orm = timed(orm_write, n, warmup=50)
        orm_cpu = cpu_per_call(orm_write, n)

        raw = sqlite3.connect(Path(tmp) / "raw.db", isolation_level=None)
        raw.execute("PRAGMA journal_mode=WAL")
        raw.execute("PRAGMA synchronous=NORMAL")
        raw.execute("create table users(id text primary key, name text)")
        raw.execute(
            "create table events(id text primary key, tenant_id text, type text, source text, data text, created_at text)"
        )
        raw.execute(
            "create table outbox(id text primary key, tenant_id text, seq integer unique, method text, path text, body text, idempotency_key text unique, created_at text)"
        )
        raw.execute("insert into users values ('u1', 'x')")
        seq = iter(range(1, 10**9))

        def raw_write() -> None:
            i = next(seq)
            now = datetime.now(UTC).isoformat()
            raw.execute("BEGIN IMMEDIATE")
            raw.execute("update users set name=? where id='u1'", (f"n{i}",))
            raw.execute(
                "insert into events values (?,?,?,?,?,?)",
                (str(uuid.uuid4()), "t", "stock.adjusted", "inventory", json.dumps({"sku": "SKU-1"}), now),
            )
            raw.execute("insert into outbox values (?,?,?,?,?,?,?,?)",
                        (str(uuid.uuid4()), "t", i, "POST", "/demo/inventory/api/x", json.dumps({"name": i}),
                         str(uuid.uuid4()), now))  # fmt: skip
            raw.execute("COMMIT")

        rw = timed(raw_write, n, warmup=50)
        rw_cpu = cpu_per_call(raw_write, n)
        print(f"service write + event + outbox (station, file SQLite, Core statements): {fmt(svc)}")
        print(f"  raw sqlite3, same three statements in one transaction: {fmt(rw)}")
        print(f"  ratio (median): {statistics.median(svc) / statistics.median(rw):.1f}x")
        # A shared machine's wall clock counts others' work: this process's CPU time per call too.
        print(
            f"  CPU time per call: service {svc_cpu * 1e3:.3f} ms, raw {rw_cpu * 1e3:.3f} ms: {svc_cpu / rw_cpu:.1f}x"
        )
        print(f"  Python function calls per service write: {calls_per_call(service_write, 500):.0f}")
        print(f"service write + event + outbox, ORM unit of work (get, set, flush): {fmt(orm)}")
        print(f"  ratio (median): {statistics.median(orm) / statistics.median(rw):.1f}x")
        print(f"  CPU time per call: {orm_cpu * 1e3:.3f} ms: {orm_cpu / rw_cpu:.1f}x raw")
        print(f"  Python function calls per ORM write: {calls_per_call(orm_write, 500):.0f}")

        ctx = Ctx(rt, tenant, principal)
        key = execute(ctx, "platform.api_keys.create", body={"name": "bench", "modules": ["fulfillment"]}).key
        now = datetime.now(UTC)
        ak = timed(lambda: auth.authenticate_api_key(rt.db, key, tenant, now), n, warmup=50)
        raw.execute(
            "create table api_keys(key_hash text primary key, tenant_id text, modules text, expires_at text, revoked_at text)"
        )
        digest = auth.key_hash(key)
        raw.execute("insert into api_keys values (?,?,?,?,?)", (digest, "t", '["fulfillment"]', None, None))
        rk = timed(
            lambda: raw.execute("select * from api_keys where key_hash=?", (auth.key_hash(key),)).fetchone(),
            n,
            warmup=50,
        )
        print(f"API-key authentication: {fmt(ak)}")
        print(f"  raw sqlite3 lookup by hash: {fmt(rk)}")
        print(f"  ratio (median): {statistics.median(ak) / statistics.median(rk):.1f}x")
        rt.db.dispose()


if __name__ == "__main__":
    main()
