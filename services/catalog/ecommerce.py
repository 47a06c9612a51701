"""The tenant's e-commerce connection and the product sync that pushes active products to it.

The connection is Tax's (DECISIONS: "managed at ``tax/connections/ecommerce``",
services/tax/connections.py), kept by the platform's connections (services/core/connections.py). ``POST ecommerce/sync`` starts a job; the job pushes every active
product that changed since its last push (``full`` pushes all), records what the shop holds
(its id and a hash of what was sent) and emits ``ecommerce.sync_completed``.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db.models.catalog import CatalogProduct, CatalogSyncItem, CatalogTranslation, CatalogVariant
from local_db.models.jobs import Job
from services.catalog.categories import active_products, mark_published
from services.catalog.languages import tenant_languages
from services.catalog.products import _money
from services.catalog.schemas import SyncOut, SyncRequest
from services.core.commands import use_case
from services.core.connections import connection_client, stored_connection
from services.core.context import Ctx
from services.core.errors import Conflict
from services.core.events import emit
from services.core.jobs import Report, job_kind, submit
from services.core.jobs import out as job_out
from services.core.roles import STAFF
from services.core.shop import ShopError

KIND = "catalog.ecommerce_sync"
BATCH = 20  # products recorded per transaction while the sync runs


# --- the sync ----------------------------------------------------------------------------------


def _sync_out(j: Job | None) -> SyncOut:
    if j is None:
        return SyncOut(
            job_id=None,
            status="never",
            progress=0,
            message=None,
            pushed=0,
            unchanged=0,
            failed=0,
            retries=0,
            total=0,
            errors=[],
            created_at=None,
            finished_at=None,
        )
    o = job_out(j)
    r = j.result or {}
    return SyncOut(
        job_id=j.id,
        status=o.status,
        progress=o.progress,
        message=o.message,
        pushed=int(r.get("pushed", 0)),
        unchanged=int(r.get("unchanged", 0)),
        failed=int(r.get("failed", 0)),
        retries=int(r.get("retries", 0)),
        total=int(r.get("total", j.total or 0)),
        errors=list(r.get("errors") or []),
        created_at=j.created_at,
        finished_at=j.finished_at,
    )


def _latest(s: Session) -> Job | None:
    return s.execute(select(Job).where(Job.kind == KIND).order_by(Job.created_at.desc()).limit(1)).scalar_one_or_none()


@use_case(
    "catalog.ecommerce.sync",
    "POST /ecommerce/sync",
    tx="write",
    needs=("the shop",),
    roles=STAFF,
    status=201,
    says="Push products to the shop",
    record="platform.job",
    summary="start pushing active products to the e-commerce connection (a job; never duplicates)",
)
def start_sync(ctx: Ctx, body: SyncRequest) -> SyncOut:
    if ctx.runtime.is_station:
        # The connection's key is sealed on the platform, and a station's outbox would start a second sync there.
        raise Conflict(
            "the product sync runs on the platform: start it there", {"reason": "online_only", "action": "sync"}
        )
    with ctx.write() as s:
        if not stored_connection(s, ctx.tenant_id):
            raise Conflict(
                "no e-commerce connection: save one at tax/connections/ecommerce first",
                {"current_state": "not_connected", "action": "sync"},
            )
        running = s.execute(
            select(Job).where(Job.kind == KIND, Job.status.in_(("queued", "running"))).limit(1)
        ).scalar_one_or_none()
        if running is not None:
            raise Conflict(
                f"a product sync is already {running.status}",
                {"current_state": running.status, "action": "sync", "job_id": running.id},
            )
        job = submit(ctx, KIND, {"full": body.full}, title="Push products to the shop")
        return _sync_out(s.get(Job, job.id))


@use_case(
    "catalog.ecommerce.status",
    "GET /ecommerce/sync/status",
    tx="read",
    roles=STAFF,
    summary="the latest product sync: status, progress and counts",
)
def sync_status(ctx: Ctx) -> SyncOut:
    with ctx.read() as s:
        return _sync_out(_latest(s))


def shop_payload(
    p: CatalogProduct, variants: list[CatalogVariant], translations: list[CatalogTranslation], languages: list[str]
) -> dict[str, Any]:
    """What the shop receives for one product; ``hash`` lets a later sync skip it when nothing changed."""
    body: dict[str, Any] = {
        "sku": p.sku,
        "external_id": p.id,
        "status": "active",
        "gtin": p.gtin,
        "name": p.name,
        "description": p.description,
        "language": languages[0],
        "attributes": dict(p.attributes or {}),
        "variants": [
            {"sku": v.sku, "gtin": v.gtin, "options": dict(v.options or {}), "price": _money(v.price_cents)}
            for v in variants
        ],
        "translations": {
            t.language: {"name": t.name, "description": t.description}
            for t in translations
            if t.language in languages and t.source_hash == p.text_hash
        },
    }
    body["hash"] = hashlib.sha256(json.dumps(body, sort_keys=True, default=str).encode()).hexdigest()
    return body


@job_kind(KIND, "Push products to the shop")
def run_sync(ctx: Ctx, params: dict[str, Any], report: Report) -> dict[str, Any]:
    full = bool(params.get("full"))
    with ctx.read() as s:
        conn = stored_connection(s, ctx.tenant_id)
        if not conn:
            raise ShopError("no e-commerce connection")
        langs = tenant_languages(s, ctx.tenant_id)
        products = active_products(s, None)
        ids = [p.id for p in products]
        variants: dict[str, list[CatalogVariant]] = {i: [] for i in ids}
        translations: dict[str, list[CatalogTranslation]] = {i: [] for i in ids}
        pushed_before: dict[str, str] = {}
        for chunk in range(0, len(ids), 500):
            part = ids[chunk : chunk + 500]
            for v in s.execute(
                select(CatalogVariant).where(CatalogVariant.product_id.in_(part)).order_by(CatalogVariant.position)
            ).scalars():
                variants[v.product_id].append(v)
            for t in s.execute(select(CatalogTranslation).where(CatalogTranslation.product_id.in_(part))).scalars():
                translations[t.product_id].append(t)
            for pid, h in s.execute(
                select(CatalogSyncItem.product_id, CatalogSyncItem.payload_hash).where(
                    CatalogSyncItem.product_id.in_(part)
                )
            ).all():
                pushed_before[pid] = h
        payloads = [(p, shop_payload(p, variants[p.id], translations[p.id], langs)) for p in products]
    todo = [(p, body) for p, body in payloads if full or pushed_before.get(p.id) != body["hash"]]
    total = len(payloads)
    unchanged = total - len(todo)
    pushed, errors = 0, []
    done_rows: list[tuple[str, str, str | None, str]] = []
    report(unchanged, total, f"{unchanged} unchanged, {len(todo)} to push")
    with connection_client(ctx, conn) as shop:
        for i, (p, body) in enumerate(todo, 1):
            try:
                answer = shop.upsert(p.sku, body)
                ext = answer.get("id")
                done_rows.append((p.id, p.sku, str(ext) if ext is not None else None, body["hash"]))
                pushed += 1
            except ShopError as exc:
                errors.append({"sku": p.sku, "status": exc.status, "error": str(exc)[:300]})
            if len(done_rows) >= BATCH or i == len(todo):
                _record(ctx, done_rows)
                done_rows = []
                report(unchanged + i, total, f"{pushed} pushed, {len(errors)} failed, {shop.retries} retried")
        retries = shop.retries
    _record(ctx, done_rows)
    result = {
        "pushed": pushed,
        "unchanged": unchanged,
        "failed": len(errors),
        "retries": retries,
        "total": total,
        "errors": errors[:50],
    }
    with ctx.write():
        emit(
            ctx,
            "ecommerce.sync_completed",
            {"job_id": _job_id(ctx), **{k: v for k, v in result.items() if k != "errors"}},
        )
    if errors and not pushed and not unchanged:
        raise ShopError(f"no product reached the shop: {errors[0]['error']}")
    return result


def _job_id(ctx: Ctx) -> str | None:
    with ctx.read() as s:
        running = s.execute(
            select(Job.id).where(Job.kind == KIND, Job.status == "running").order_by(Job.created_at.desc()).limit(1)
        ).scalar_one_or_none()
    return running


def _record(ctx: Ctx, rows: list[tuple[str, str, str | None, str]]) -> None:
    """What the shop now holds, so the next sync skips what did not change (and deleting archives)."""
    if not rows:
        return
    with ctx.write() as s:
        now = ctx.now()
        ids = [r[0] for r in rows]
        existing = {
            i.product_id: i
            for i in s.execute(select(CatalogSyncItem).where(CatalogSyncItem.product_id.in_(ids))).scalars()
        }
        for pid, sku, ext, h in rows:
            item = existing.get(pid)
            if item is None:
                s.add(CatalogSyncItem(product_id=pid, sku=sku, external_id=ext, payload_hash=h, pushed_at=now))
            else:
                item.sku, item.external_id, item.payload_hash, item.pushed_at = sku, ext or item.external_id, h, now
        mark_published(s, ids, now)
