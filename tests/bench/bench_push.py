"""In-process sync push (not part of `make test`'s pass/fail): the platform applying a station's
signed entries through ``services.sync.service.push`` with no HTTP, on a fresh file SQLite
platform or on PostgreSQL (PLATFORM_DATABASE_URL), so the figure is the applying alone.

    .venv/bin/python tests/bench/bench_push.py [N] [--kind ticket|adjust|settings] [--profile]

Each entry is a ``support.tickets.create`` (the bench_sync support workload's first half), or with
``--kind adjust`` an ``inventory.stock.adjust`` of one demo item (a stock row updated, a movement
and an event: a heavier use case), or with ``--kind settings`` a ``fulfillment.settings.device.put``
(one settings row upserted: the sync's own cost shows apart from the use case), pushed in batches of 200
(the engine's default). Prints entries/s; ``--profile`` prints cProfile's top lines
and each entry's cost split four ways: (a) verifying it (hash, signature, station, route, author),
(b) running its command (the use case's handler), (c) the write path every replayed call shares
(``commands.execute`` around the handler: body validation, the idempotency record, the unit of
work), (d) the sync bookkeeping around it (receipt, station sequence, change log, answer). BENCH_TINY=1 / BENCH_SMOKE=1:
40 entries.
"""

from __future__ import annotations

import cProfile
import os
import pstats
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from app.settings import Settings  # noqa: E402
from app.wiring import platform_runtime  # noqa: E402
from services.core import auth  # noqa: E402
from services.core.commands import execute, sign_entry  # noqa: E402
from services.core.context import SYSTEM, Ctx  # noqa: E402
from services.core.demo import demo_id, seed_demo  # noqa: E402
from services.inventory.demo import PRODUCTS  # noqa: E402
from services.sync import protocol as p  # noqa: E402

TINY = bool(os.environ.get("BENCH_TINY") or os.environ.get("BENCH_SMOKE"))
ADMIN = demo_id("user", "admin@demo.test")
ADJUST_SKU = PRODUCTS[0][0]  # a demo item with stock at MAIN


def _change(kind: str, seq: int) -> tuple[str, str, dict[str, Any]]:
    """(command, path, body) of the entry ``seq`` of this kind."""
    if kind == "adjust":
        # Alternately one in and one out: the stock never runs short however long the run.
        body = {"sku": ADJUST_SKU, "location_id": "MAIN", "delta": 1 if seq % 2 else -1, "reason": f"count {seq}"}
        return "inventory.stock.adjust", "/demo/inventory/api/stock", body
    if kind == "settings":
        # The plainest write a station sends: one settings row upserted (PUT), no event of its own.
        return "fulfillment.settings.device.put", "/demo/fulfillment/api/settings/device", {"printer": f"dock-{seq}"}
    body = {"subject": f"from the station {seq}", "description": "d", "email": "ann@example.test", "name": "Ann"}
    return "support.tickets.create", "/api/tenants/demo/support/tickets", body


def entries(secret: str, tenant_id: str, start: int, n: int, kind: str = "ticket") -> list[dict[str, Any]]:
    out = []
    for seq in range(start, start + n):
        command, path, body = _change(kind, seq)
        e = {
            "command": command,
            "method": "PUT" if kind == "settings" else "POST",
            "path": path,
            "body": body,
            "idempotency_key": str(uuid.uuid4()),
            "actor_id": ADMIN,
            "created_at": datetime.now(UTC).isoformat(),
            "ids": [str(uuid.uuid4()) for _ in range(4)],
        }
        signed = {**e, "station_id": "bench-1", "tenant_id": tenant_id, "station_seq": seq}
        out.append({**e, "seq": seq, "void": False, "signature": sign_entry(secret.encode(), signed)})
    return out


def _cum(stats: Any, path: str, name: str) -> float:
    """Cumulative seconds of the functions ``name`` in files ending with ``path``."""
    return sum(v[3] for (f, _line, fn), v in stats.stats.items() if f.endswith(path) and fn == name)


def print_split(stats: Any, n: int, kind: str) -> None:
    push = _cum(stats, "services/sync/push.py", "push")
    if not push:
        return
    verify = sum(_cum(stats, "services/sync/push.py", f) for f in ("verify", "author"))
    verify += _cum(stats, "services/sync/registry.py", "authenticate")
    command = {
        "adjust": _cum(stats, "services/inventory/stock_levels.py", "adjust_stock"),
        "settings": _cum(stats, "services/fulfillment/settings.py", "put_device_settings"),
    }.get(kind) or _cum(stats, "services/support/tickets.py", "create_ticket")
    # The replayed calls of ``execute`` (called by the push's ``run``): the command and the write
    # path every use case shares (body validation, the idempotency record, the unit of work).
    replayed = sum(
        ct
        for (f, _line, fn), v in stats.stats.items()
        if f.endswith("services/core/commands.py") and fn == "execute"
        for (cf, _cl, cfn), (_cc, _nc, _tt, ct) in v[4].items()
        if cf.endswith("services/sync/push.py") and cfn in ("run", "run_careful")
    )
    print(f"per entry, profiled ({stats.total_calls / n:,.0f} function calls each):")
    for label, secs in (
        ("(a) verifying", verify),
        ("(b) the command", command),
        ("(c) the shared write path", replayed - command),
        ("(d) sync bookkeeping", push - verify - replayed),
    ):
        print(f"  {label:22} {1e3 * secs / n:6.3f} ms  {100 * secs / push:5.1f} %")


def main() -> None:
    argv = sys.argv[1:]
    kind = argv[argv.index("--kind") + 1] if "--kind" in argv else "ticket"
    if kind not in ("ticket", "adjust", "settings"):
        sys.exit("--kind is ticket, adjust or settings")
    args = [a for i, a in enumerate(argv) if not a.startswith("--") and (i == 0 or argv[i - 1] != "--kind")]
    n = 40 if TINY else int(args[0]) if args else 2000
    with tempfile.TemporaryDirectory() as tmp:
        rt = platform_runtime(Settings(data_dir=Path(tmp), secret_key="bench-secret", demo=True))
        seed_demo(rt)
        tenant = auth.load_tenant(rt.db, "demo")
        owner = auth.user_principal(rt.db, demo_id("user", "owner@demo.test"), tenant)
        sid = "bench-" + uuid.uuid4().hex[:8]
        secret = execute(Ctx(rt, tenant, owner), "sync.stations.register", body={"stationId": sid, "name": "b"}).secret
        todo = [{**e} for e in entries(secret, tenant.id, 1, n, kind)]
        for e in todo:  # re-sign for this station id
            signed = {**{k: e[k] for k in e if k not in ("seq", "void", "signature")}}
            signed.update(station_id=sid, tenant_id=tenant.id, station_seq=e["seq"])
            e["signature"] = sign_entry(secret.encode(), signed)
        prof = cProfile.Profile() if "--profile" in sys.argv else None
        started, cpu = time.perf_counter(), time.process_time()
        if prof:
            prof.enable()
        for i in range(0, n, 200):
            batch = todo[i : i + 200]
            purpose = p.push_purpose([e["signature"] for e in batch])
            headers: dict[str, str | None] = {**p.signed_headers(secret, "demo", sid, purpose, time.time())}
            out = execute(Ctx(rt, tenant, SYSTEM), "sync.push", body={"entries": batch}, headers=headers)
            bad = [a for a in out.answers if a.status != "applied"]
            assert not bad, bad[:3]
        if prof:
            prof.disable()
        took, cpu = time.perf_counter() - started, time.process_time() - cpu
        print(
            f"sync push of {kind} entries applied in process ({rt.db.engine.dialect.name}): "
            f"{n} entries in {took:.2f} s: {n / took:,.0f} entries/s"
        )
        # On a shared machine the wall clock counts others' work too: this process's own CPU time.
        print(f"  on this process's CPU time: {cpu:.2f} s: {n / cpu:,.0f} entries/s")
        if prof:
            stats = pstats.Stats(prof)
            stats.sort_stats("cumulative").print_stats(40)
            print_split(stats, n, kind)
        rt.db.dispose()


if __name__ == "__main__":
    main()
