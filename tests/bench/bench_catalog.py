"""Catalog benchmark (not part of `make test`'s pass/fail):

    .venv/bin/python tests/bench/bench_catalog.py                 # full size
    BENCH_TINY=1 .venv/bin/python tests/bench/bench_catalog.py    # smoke run, a few seconds
    SHOP_RATE=20 .venv/bin/python tests/bench/bench_catalog.py    # full size, a faster shop (say so when quoted)

1. The PDF catalog of 500 active products with an image each (a distinct 800x600 PNG per
   product): time of the job, pages, pages per second, size of the file; for the first catalog
   (thumbnails made) and the next one in another language (thumbnails kept).
2. The sync of 1,000 active products (two variants each) against the local shop of
   tests/shop_server.py limited to 2 requests per second, which also refuses every 40th request
   with a forced 429 (Retry-After 1 s) and answers every 97th write with a 500 after applying it:
   duplicates and missing products and variants at the shop afterwards (both must be 0), 429s
   answered, retries, requests and time.
3. The import of 100,000 rows (50,000 products with a German translation, one variant row each)
   from CSV: rows per second from the request to the job's end (target 5,000 or more), and the
   distinct progress figures a person polling the job saw; the same file again (every product
   updated); the export as CSV and XLSX, and the XLSX imported back.

    .venv/bin/python tests/bench/bench_catalog.py --only import   # the import part alone
"""

from __future__ import annotations

import csv
import io
import os
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from sqlalchemy import insert  # noqa: E402

from app.settings import Settings  # noqa: E402
from app.wiring import platform_runtime  # noqa: E402
from local_db import new_id  # noqa: E402
from local_db.base import table_of  # noqa: E402
from local_db.models.catalog import CatalogProduct, CatalogVariant  # noqa: E402
from services.catalog.products import text_hash  # noqa: E402
from services.catalog.sheets import write_xlsx  # noqa: E402
from services.core import auth  # noqa: E402
from services.core.commands import execute  # noqa: E402
from services.core.connections import ConnectionsConfig  # noqa: E402
from services.core.context import Ctx, Runtime  # noqa: E402
from services.core.demo import demo_id, seed_demo  # noqa: E402
from services.core.files import Upload  # noqa: E402
from services.core.jobs import JobWorker  # noqa: E402
from services.core.storage import keep_blob  # noqa: E402
from tests.shop_server import Shop, ShopBehaviour  # noqa: E402

TINY = os.environ.get("BENCH_TINY") == "1"
PDF_PRODUCTS = 20 if TINY else 500
SYNC_PRODUCTS = 30 if TINY else 1000
SHOP_RATE = float(os.environ.get("SHOP_RATE") or (25 if TINY else 2))
FORCE_429, APPLY_THEN_500 = (10, 11) if TINY else (40, 97)
IMPORT_ROWS = 1_000 if TINY else 100_000


def ctx_for(rt: Runtime) -> Ctx:
    tenant = auth.load_tenant(rt.db, "demo")
    return Ctx(rt, tenant, auth.user_principal(rt.db, demo_id("user", "owner@demo.test"), tenant))


def image(i: int) -> bytes:
    """A distinct 800x600 picture per product (a gradient and a few shapes)."""
    from PIL import Image, ImageDraw

    img = Image.linear_gradient("L").resize((800, 600)).convert("RGB")
    d = ImageDraw.Draw(img)
    r, g, b = (37 * i) % 256, (91 * i) % 256, (53 * i) % 256
    d.ellipse((100 + i % 200, 80, 500 + i % 200, 480), fill=(r, g, b))
    d.rectangle((40, 420, 300, 560), fill=(b, r, g))
    out = io.BytesIO()
    img.save(out, "PNG")
    return out.getvalue()


def fill(ctx: Ctx, n: int, prefix: str, *, images: bool, variants: int) -> list[str]:
    """``n`` active products (rows written directly: the benchmark measures the job, not the inserts)."""
    now = datetime.now(UTC)
    products, rows = [], []
    skus = []
    for i in range(n):
        pid, sku = new_id(), f"{prefix}-{i:05d}"
        sha = keep_blob(ctx, image(i))[0] if images else None
        name, desc = f"Product {prefix} {i}", "A sturdy everyday product, made to last. " * 3
        products.append(
            {
                "id": pid,
                "tenant_id": ctx.tenant_id,
                "sku": sku,
                "gtin": None,
                "name": name,
                "description": desc,
                "text_hash": text_hash(name, desc),
                "category_ids": [],
                "attributes": {"weight_g": 100 + i},
                "status": "active",
                "image_sha256": sha,
                "published_at": None,
                "created_at": now,
                "updated_at": now,
            }
        )
        for v in range(variants):
            rows.append(
                {
                    "id": new_id(),
                    "tenant_id": ctx.tenant_id,
                    "product_id": pid,
                    "sku": f"{sku}-{v}",
                    "gtin": None,
                    "options": {"size": str(v)},
                    "price_cents": 1000 + v,
                    "position": v,
                }
            )
            skus.append(f"{sku}-{v}")
    with ctx.write() as s:
        s.execute(insert(table_of(CatalogProduct)), products)
        if rows:
            s.execute(insert(table_of(CatalogVariant)), rows)
    return skus


def bench_pdf(rt: Runtime) -> None:
    ctx = ctx_for(rt)
    # Only the benchmark's products are active: the demo's are archived for a clean count.
    with ctx.write() as s:
        s.execute(table_of(CatalogProduct).update().values(status="archived"))
    t = time.perf_counter()
    fill(ctx, PDF_PRODUCTS, "PDF", images=True, variants=1)
    print(f"  filled {PDF_PRODUCTS} products with an image each in {time.perf_counter() - t:.1f} s")
    # The first catalog makes the 400 px thumbnails; the next (another language) finds them made.
    for language, note in (("en", "first catalog"), ("de", "next catalog, thumbnails already made")):
        c = execute(ctx, "catalog.catalogs.generate", body={"title": "Benchmark catalog", "language": language})
        t = time.perf_counter()
        JobWorker(rt).run_one()
        took = time.perf_counter() - t
        c = execute(ctx, "catalog.catalogs.get", id=c.id)
        assert c.status == "succeeded", c
        print(
            f"PDF catalog ({note}): {c.product_count} products with an image each: {took:.2f} s, {c.pages} pages, "
            f"{c.pages / took:.1f} pages/s, {c.size / 1e6:.2f} MB"
        )


def bench_sync(rt: Runtime) -> None:
    ctx = ctx_for(rt)
    with ctx.write() as s:  # the PDF benchmark's products leave the stage
        s.execute(table_of(CatalogProduct).update().values(status="archived"))
    variant_skus = fill(ctx, SYNC_PRODUCTS, "SYNC", images=False, variants=2)
    shop = Shop(
        ShopBehaviour(rate=SHOP_RATE, retry_after=1, force_429_every=FORCE_429, apply_then_500_every=APPLY_THEN_500)
    ).start()
    rt.provide(ConnectionsConfig(allow_private=True))
    try:
        execute(
            ctx,
            "tax.connections.ecommerce.save",
            body={
                "provider": "generic",
                "base_url": shop.url,
                "rate_limit": SHOP_RATE,
                "credentials": {"api_key": "shop-key-1"},
            },
        )
        execute(ctx, "catalog.ecommerce.sync", body={})
        t = time.perf_counter()
        JobWorker(rt).run_one()
        took = time.perf_counter() - t
    finally:
        shop.stop()
    st = execute(ctx, "catalog.ecommerce.status")
    held = shop.by_sku()
    expected = {f"SYNC-{i:05d}" for i in range(SYNC_PRODUCTS)}
    duplicates = sum(len(v) - 1 for v in held.values())
    missing = len(expected - set(held))
    held_variants = {v["sku"] for recs in held.values() for r in recs for v in r.get("variants", [])}
    missing_variants = len(set(variant_skus) - held_variants)
    print(
        f"sync: {SYNC_PRODUCTS} products ({len(variant_skus)} variants), shop at {SHOP_RATE:g} requests/s with "
        f"forced 429s: {st.status}, {duplicates} duplicates, {missing} missing products, {missing_variants} "
        f"missing variants; {shop.state.throttled} answered 429, {shop.state.failed_after_apply} answered 500 "
        f"after applying, {shop.state.early} requests before Retry-After; {st.retries} retries, "
        f"{shop.state.requests} requests, {took:.1f} s ({SYNC_PRODUCTS / took * 60:.0f} products/min)"
    )
    assert duplicates == 0 and missing == 0 and missing_variants == 0 and st.status == "succeeded"


CPU: list[float] = []


def _timed_import(rt: Runtime, ctx: Ctx, content: bytes, name: str) -> tuple[float, dict[str, Any], list[int]]:
    """Request to the job's end, with the job worker on its thread and a person polling the job.
    The process's CPU time is kept too (``CPU``): on a machine shared with other work the wall
    clock says more about the neighbours than about the import."""
    worker = JobWorker(rt, poll=0.05).start()
    seen: list[int] = []
    try:
        t, cpu = time.perf_counter(), time.process_time()
        job = execute(ctx, "catalog.products.import", upload=Upload(name, "application/octet-stream", content))
        while True:
            j = execute(ctx, "platform.jobs.get", id=job.id)
            if not seen or seen[-1] != j.done:
                seen.append(j.done)
            if j.status in ("succeeded", "failed", "cancelled"):
                break
            time.sleep(0.1)
        took = time.perf_counter() - t
        CPU.append(time.process_time() - cpu)
    finally:
        worker.stop()
    assert j.status == "succeeded" and j.result is not None, j
    return took, j.result, seen


def bench_import(rt: Runtime) -> None:
    ctx = ctx_for(rt)
    products = IMPORT_ROWS // 2
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["sku", "product_sku", "status", "name", "description", "gtin", "attributes", "options", "price",
                "name@de", "description@de"])  # fmt: skip
    for i in range(products):
        sku = f"IMP-{i:06d}"
        w.writerow([sku, "", "active", f"Imported product {i}", "A sturdy everyday product, made to last.", "",
                    f'{{"weight_g": {100 + i % 900}}}', "", "", f"Importiertes Produkt {i}", "Robust und langlebig."])  # fmt: skip
        w.writerow([f"{sku}-A", sku, "", "", "", "", "", "size=A", f"{10 + i % 90}.50", "", ""])
    content = out.getvalue().encode()
    for note in ("new products", "the same file again: every product updated"):
        took, res, seen = _timed_import(rt, ctx, content, "bench.csv")
        assert res["skipped"] == 0 and res["created"] + res["updated"] == products, res
        print(
            f"import CSV, {IMPORT_ROWS:,} rows ({note}): {took:.1f} s, {IMPORT_ROWS / took:,.0f} rows/s "
            f"({IMPORT_ROWS / CPU[-1]:,.0f} rows per CPU second); "
            f"progress seen at {len(seen)} figures ({', '.join(map(str, seen[:4]))}, ... {seen[-1]})"
        )
    for fmt in ("csv", "xlsx"):
        t = time.perf_counter()
        f = execute(ctx, "catalog.products.export", query={"format": fmt})
        print(f"export {fmt.upper()}: {time.perf_counter() - t:.1f} s, {len(f.content) / 1e6:.1f} MB")
    # The export holds the demo's rows too (over the 100,000-row cap of one import): the XLSX
    # import reads the benchmark's own rows as a workbook, under new SKUs (new products).
    table = list(csv.reader(io.StringIO(content.decode())))
    book = write_xlsx(table[0], [[("X" + c if j in (0, 1) and c else c) for j, c in enumerate(r)] for r in table[1:]])
    took, res, seen = _timed_import(rt, ctx, book, "bench.xlsx")
    rows = res["rows"]
    assert res["created"] == products and res["skipped"] == 0, res
    print(
        f"import XLSX ({rows:,} rows, {len(book) / 1e6:.1f} MB, new products): {took:.1f} s, {rows / took:,.0f} rows/s "
        f"({rows / CPU[-1]:,.0f} rows per CPU second)"
    )
    print(f"  load average while measured: {os.getloadavg()[0]:.1f} (2 cores)")


def main() -> None:
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
    with tempfile.TemporaryDirectory() as tmp:
        rt = platform_runtime(Settings(data_dir=Path(tmp), secret_key="bench-secret"))
        seed_demo(rt)
        print(f"== catalog benchmark ({'tiny' if TINY else 'full'} size)")
        if only in (None, "import"):
            bench_import(rt)
        if only in (None, "pdf"):
            bench_pdf(rt)
        if only in (None, "sync"):
            bench_sync(rt)
        rt.db.dispose()


if __name__ == "__main__":
    main()
