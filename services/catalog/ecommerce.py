"""The tenant's e-commerce connection and the product sync that pushes active products to it.

The connection lives at the Tax module's address (DECISIONS: "managed at
``tax/connections/ecommerce``"), declared here until Tax is built; it is kept in the tenant's
settings with the key sealed. ``POST ecommerce/sync`` starts a job; the job pushes every active
product that changed since its last push (``full`` pushes all), records what the shop holds
(its id and a hash of what was sent) and emits ``ecommerce.sync_completed``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db.models import Tenant
from local_db.models.catalog import CatalogProduct, CatalogSyncItem, CatalogTranslation, CatalogVariant
from local_db.models.jobs import Job
from services.catalog.categories import active_products, mark_published
from services.catalog.languages import tenant_languages
from services.catalog.products import _money
from services.catalog.schemas import EcommerceConnectionIn, EcommerceConnectionOut, SyncOut, SyncRequest
from services.catalog.shop import ShopClient, ShopError, url_problem
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import Conflict, ValidationFailed
from services.core.events import emit
from services.core.jobs import Report, job_kind, submit
from services.core.jobs import out as job_out
from services.core.roles import MANAGERS, STAFF
from services.core.sealing import seal, unseal

KIND = "catalog.ecommerce_sync"
BATCH = 20  # products recorded per transaction while the sync runs


@dataclass(frozen=True)
class ConnectionsConfig:
    """PLATFORM_CONNECTIONS_ALLOW_PRIVATE: connections may use plain http, loopback and private addresses."""

    allow_private: bool = False


# --- the connection (Tax's address) ------------------------------------------------------------
# Tax keeps a second connection of the same shape, the tax service, through the same functions.


def _stored(s: Session, tenant_id: str, name: str = "ecommerce") -> dict[str, Any] | None:
    t = s.get(Tenant, tenant_id)
    return ((t.settings or {}).get("connections") or {}).get(name) if t else None


def stored_connection(s: Session, tenant_id: str, name: str = "ecommerce") -> dict[str, Any] | None:
    """The connection as kept in the tenant's settings (its key sealed), or None."""
    return _stored(s, tenant_id, name)


def _connection_out(conn: dict[str, Any] | None) -> EcommerceConnectionOut:
    if not conn:
        return EcommerceConnectionOut(
            connected=False,
            provider=None,
            account=None,
            base_url=None,
            account_name=None,
            rate_limit=None,
            key_hint=None,
            saved_at=None,
        )

    def when(key: str) -> datetime | None:
        return datetime.fromisoformat(conn[key]) if conn.get(key) else None

    return EcommerceConnectionOut(
        connected=True,
        provider=conn["provider"],
        account=conn.get("account_name"),
        base_url=conn["base_url"],
        account_name=conn.get("account_name"),
        rate_limit=conn.get("rate_limit"),
        key_hint=conn.get("key_hint"),
        saved_at=when("saved_at"),
        last_sync_at=when("last_sync_at"),
        last_error=conn.get("last_error"),
    )


def _put(ctx: Ctx, name: str, conn: dict[str, Any] | None) -> None:
    with ctx.write() as s:
        t = s.get(Tenant, ctx.tenant_id)
        assert t is not None
        settings = dict(t.settings or {})
        conns = dict(settings.get("connections") or {})
        if conn is None:
            conns.pop(name, None)
        else:
            conns[name] = conn
        settings["connections"] = conns
        t.settings = settings  # a new dict: JSON columns track assignment only


def connection_status(ctx: Ctx, name: str) -> EcommerceConnectionOut:
    with ctx.read() as s:
        return _connection_out(_stored(s, ctx.tenant_id, name))


def save_connection_as(ctx: Ctx, name: str, body: EcommerceConnectionIn) -> EcommerceConnectionOut:
    """Check the credentials with a real call to the service, then keep them sealed."""
    if ctx.runtime.is_station:
        raise Conflict(
            "a connection carries a secret, so it is saved on the platform, not queued on a station",
            {"reason": "online_only"},
        )
    allow = ctx.runtime.part(ConnectionsConfig).allow_private
    why = url_problem(body.base_url, allow_private=allow)
    if why:
        raise ValidationFailed(why, {"fields": [{"field": "base_url", "message": why, "type": "url"}]})
    key = body.credentials["api_key"]
    try:
        # The check call: outside the transaction's lock would be nicer, but it is one short request.
        with ShopClient(body.base_url, key, rate=body.rate_limit, attempts=2) as shop:
            account = shop.account()
    except ShopError as exc:
        raise ValidationFailed(
            f"the service did not accept the connection: {exc}",
            {"fields": [{"field": "credentials.api_key", "message": str(exc), "type": "check"}]},
        ) from None
    conn = {
        "provider": body.provider,
        "base_url": body.base_url.rstrip("/"),
        "api_key": seal(ctx.runtime.secret_key, key),
        "account_name": str(account["name"])[:200],
        "rate_limit": body.rate_limit,
        "key_hint": "…" + key[-4:],
        "saved_at": ctx.now().isoformat(),
    }
    _put(ctx, name, conn)
    return _connection_out(conn)


def remove_connection(ctx: Ctx, name: str) -> EcommerceConnectionOut:
    _put(ctx, name, None)
    return _connection_out(None)


def note_sync(ctx: Ctx, name: str, *, at: datetime | None, error: str | None) -> None:
    """Record on the connection when a sync last completed (``at``) or why it failed (``error``)."""
    with ctx.write() as s:
        conn = _stored(s, ctx.tenant_id, name)
        if not conn:
            return
        conn = dict(conn)
        if at is not None:
            conn["last_sync_at"] = at.isoformat()
        conn["last_error"] = error[:500] if error else None
    _put(ctx, name, conn)


def connection_client(ctx: Ctx, conn: dict[str, Any]) -> ShopClient:
    """A client of the stored connection (its key unsealed here, never kept elsewhere)."""
    allow = ctx.runtime.part(ConnectionsConfig).allow_private
    why = url_problem(conn["base_url"], allow_private=allow)
    if why:
        raise ShopError(f"the connection's address is refused: {why}")
    return ShopClient(
        conn["base_url"], unseal(ctx.runtime.secret_key, conn["api_key"]), rate=float(conn.get("rate_limit") or 2.0)
    )


@use_case(
    "tax.connections.ecommerce.get",
    "GET /connections/ecommerce",
    tx="read",
    roles=MANAGERS,
    module="tax",
    summary="the tenant's e-commerce connection (never its key)",
)
def get_connection(ctx: Ctx) -> EcommerceConnectionOut:
    return connection_status(ctx, "ecommerce")


@use_case(
    "tax.connections.ecommerce.save",
    "POST /connections/ecommerce",
    tx="write",
    needs=("the shop",),
    roles=MANAGERS,
    module="tax",
    says="E-commerce connection",
    summary="save the e-commerce connection after the shop accepted the key",
)
def save_connection(ctx: Ctx, body: EcommerceConnectionIn) -> EcommerceConnectionOut:
    return save_connection_as(ctx, "ecommerce", body)


@use_case(
    "tax.connections.ecommerce.delete",
    "DELETE /connections/ecommerce",
    tx="write",
    roles=MANAGERS,
    module="tax",
    says="E-commerce connection removed",
    summary="remove the e-commerce connection",
)
def delete_connection(ctx: Ctx) -> EcommerceConnectionOut:
    return remove_connection(ctx, "ecommerce")


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
        if not _stored(s, ctx.tenant_id):
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
        conn = _stored(s, ctx.tenant_id)
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
