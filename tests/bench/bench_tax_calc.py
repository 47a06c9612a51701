"""Tax calculation benchmark (not part of `make test`'s pass/fail):

    .venv/bin/python tests/bench/bench_tax_calc.py                 # full size: 50,000 rate rows
    BENCH_TINY=1 .venv/bin/python tests/bench/bench_tax_calc.py    # smoke run

Imports CA, NY and TX rate tables of N ZIP rows in all (the published CSV format, through the import
use case), then times `POST /calculate`'s service call for a 20-line cart of mixed tax codes to
ZIP codes drawn from the tables. Target: p95 under 5 ms. Checks each answer's total against the sum
of its lines and shipping (a mismatch exits non-zero).
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from timing import fmt, pct, timed  # noqa: E402

from app.settings import Settings  # noqa: E402
from app.wiring import platform_runtime  # noqa: E402
from services.core import auth  # noqa: E402
from services.core.commands import execute  # noqa: E402
from services.core.context import Ctx, Runtime  # noqa: E402
from services.core.demo import demo_id, seed_demo  # noqa: E402
from services.core.files import Upload  # noqa: E402

TINY = os.environ.get("BENCH_TINY") == "1"
ROWS = 600 if TINY else 50_000
HEADER = (
    "State,ZipCode,TaxRegionName,EstimatedCombinedRate,StateRate,EstimatedCountyRate,EstimatedCityRate,"
    "EstimatedSpecialRate,RiskLevel\n"
)
# ZIP ranges of each state (the first three digits), so the rows look like the states' files.
STATES = {"CA": (900, 961, "0.060000"), "NY": (100, 149, "0.040000"), "TX": (750, 799, "0.062500")}
CODES = ["general", "general", "clothing", "food", "digital"]


def ctx_for(rt: Runtime) -> Ctx:
    tenant = auth.load_tenant(rt.db, "demo")
    return Ctx(rt, tenant, auth.user_principal(rt.db, demo_id("user", "owner@demo.test"), tenant))


def table(state: str, n: int, rng: random.Random) -> tuple[str, list[str]]:
    lo, hi, st = STATES[state]
    zips = sorted({f"{rng.randint(lo * 100, hi * 100 + 99):05d}" for _ in range(n * 2)})[:n]
    lines = []
    for z in zips:
        county, city, special = (Decimal(rng.randint(0, 30)) / 1000 for _ in range(3))
        combined = Decimal(st) + county + city + special
        lines.append(f"{state},{z},REGION {z},{combined:.6f},{st},{county:.6f},{city:.6f},{special:.6f},1")
    return HEADER + "\n".join(lines) + "\n", zips


def main() -> None:
    rng = random.Random(36)
    with tempfile.TemporaryDirectory() as tmp:
        rt = platform_runtime(Settings(data_dir=Path(tmp), secret_key="bench-secret"))
        seed_demo(rt)
        ctx = ctx_for(rt)
        print(f"== tax calculation benchmark ({'tiny' if TINY else 'full'}: {ROWS:,} rate rows)")
        zips: dict[str, list[str]] = {}
        t = time.perf_counter()
        for state in STATES:
            text, zips[state] = table(state, ROWS // len(STATES), rng)
            # In force after the bundled sample (which the demo holds from 2025-04-01): it closes it.
            execute(
                ctx,
                "tax.rate_tables.import",
                query={"effective_from": "2026-01-01"},
                upload=Upload(filename=f"{state}.csv", content_type="text/csv", content=text.encode()),
            )
        print(f"  import of {ROWS:,} rows: {time.perf_counter() - t:.2f} s")

        carts = []
        for _ in range(50):
            state = rng.choice(list(STATES))
            carts.append(
                {
                    "ship_from": {"state": "NV", "zip": "89501"},
                    "ship_to": {"state": state, "zip": rng.choice(zips[state])},
                    "lines": [
                        {
                            "amount": f"{rng.randint(100, 30000) / 100:.2f}",
                            "quantity": rng.randint(1, 3),
                            "product_tax_code": rng.choice(CODES),
                        }
                        for _ in range(20)
                    ],
                    "shipping": "9.99",
                    "date": "2026-06-01",
                }
            )
        bad = 0
        i = 0

        def one() -> None:
            nonlocal i, bad
            got = execute(ctx, "tax.calculate", body=carts[i % len(carts)])
            i += 1
            total = sum((Decimal(ln.tax) for ln in got.lines), Decimal(got.shipping.tax))
            bad += total != Decimal(got.total_tax)

        times = timed(one, 400, warmup=20)
        print(
            f"  calculate, 20-line cart: {fmt(times)}   target p95 < 5 ms: {'met' if pct(times, 0.95) < 0.005 else 'NOT met'}"
        )
        print(f"  totals not the sum of their lines: {bad}")
        if bad:
            sys.exit(1)


if __name__ == "__main__":
    main()
