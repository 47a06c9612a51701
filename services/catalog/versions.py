"""Catalog: a product's versions as saves leave them (the record; history.py has the routes).

A version holds the product's content: its fields, family, categories, attributes, variants and
translations (not its image, kept by hash, nor its status, which moves by its state table). Every
save that changed the content adds one; a save that changed nothing adds none."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.orm import Session

from local_db.base import table_of
from local_db.models.catalog import CatalogProduct, CatalogProductVersion, CatalogTranslation, CatalogVariant
from services.core.context import Ctx
from services.sync.changelog import log_written

FIELDS = ("sku", "gtin", "name", "description", "family_id", "category_ids", "attributes")


def author(ctx: Ctx) -> tuple[str, str | None]:
    pr = ctx.principal
    return (pr.name or pr.email or pr.kind), pr.user_id


def snapshot_of(p: Any, variants: list[Any], translations: list[Any]) -> dict[str, Any]:
    """The content of a product (a row or a dict of one), its variants and translations."""
    get = p.get if isinstance(p, dict) else lambda k: getattr(p, k)
    val = (lambda o, k: o[k]) if variants and isinstance(variants[0], dict) else getattr
    tval = (lambda o, k: o[k]) if translations and isinstance(translations[0], dict) else getattr
    return {
        **{f: get(f) for f in FIELDS},
        "category_ids": list(get("category_ids") or []),
        "attributes": dict(get("attributes") or {}),
        "variants": [
            {
                "sku": val(v, "sku"),
                "gtin": val(v, "gtin"),
                "options": dict(val(v, "options") or {}),
                "price_cents": val(v, "price_cents"),
            }
            for v in variants
        ],
        "translations": {
            tval(t, "language"): {
                "name": tval(t, "name"),
                "description": tval(t, "description"),
                # Made from other text than the product's: restored as stale as it was.
                "stale": tval(t, "source_hash") != get("text_hash"),
            }
            for t in sorted(translations, key=lambda t: tval(t, "language"))
        },
    }


def _latest(s: Session, ids: list[str]) -> dict[str, CatalogProductVersion]:
    v = CatalogProductVersion
    newest = (
        select(v.product_id, func.max(v.number).label("n")).where(v.product_id.in_(ids)).group_by(v.product_id)
    ).subquery()
    rows = s.execute(select(v).join(newest, (v.product_id == newest.c.product_id) & (v.number == newest.c.n)))
    return {r.product_id: r for r in rows.scalars()}


def record_baselines(ctx: Ctx, s: Session, products: list[CatalogProduct]) -> None:
    """Before the first versioned save of products that have no version (made before history was
    kept: the demo's, an older station's), their state then, as version 1 (``source: earlier``,
    at the product's last change, no author), so that a restore can go back to it."""
    ids = [p.id for p in products]
    have: set[str] = set()
    for part in range(0, len(ids), 900):
        have.update(
            s.execute(
                select(CatalogProductVersion.product_id).where(
                    CatalogProductVersion.product_id.in_(ids[part : part + 900])
                )
            ).scalars()
        )
    todo = [p for p in products if p.id not in have]
    if todo:
        record_versions(ctx, s, todo, "earlier", baseline=True)


def record_versions(
    ctx: Ctx,
    s: Session,
    products: list[CatalogProduct],
    source: str,
    restored_from: int | None = None,
    *,
    baseline: bool = False,
) -> int:
    """A version of each product whose content differs from its newest version; how many were added."""
    if not products:
        return 0
    s.flush()
    ids = [p.id for p in products]
    variants: dict[str, list[CatalogVariant]] = {i: [] for i in ids}
    translations: dict[str, list[CatalogTranslation]] = {i: [] for i in ids}
    for part in range(0, len(ids), 900):
        chunk = ids[part : part + 900]
        for var in s.execute(
            select(CatalogVariant).where(CatalogVariant.product_id.in_(chunk)).order_by(CatalogVariant.position)
        ).scalars():
            variants[var.product_id].append(var)
        for t in s.execute(select(CatalogTranslation).where(CatalogTranslation.product_id.in_(chunk))).scalars():
            translations[t.product_id].append(t)
    latest: dict[str, CatalogProductVersion] = {}
    for part in range(0, len(ids), 900):
        latest.update(_latest(s, ids[part : part + 900]))
    name, uid = ("", None) if baseline else author(ctx)
    added = 0
    for p in products:
        snap = snapshot_of(p, variants[p.id], translations[p.id])
        last = latest.get(p.id)
        if last is not None and last.snapshot == snap and restored_from is None:
            continue
        s.add(
            CatalogProductVersion(
                product_id=p.id,
                number=(last.number if last else 0) + 1,
                snapshot=snap,
                source=source,
                author=name,
                author_id=uid,
                restored_from=restored_from,
                at=p.updated_at if baseline else ctx.now(),
            )
        )
        added += 1
    s.flush()
    return added


def record_first_versions(
    ctx: Ctx,
    s: Session,
    ids: list[str],
    products: list[dict[str, Any]],
    variants: list[dict[str, Any]],
    translations: list[dict[str, Any]],
    source: str,
) -> None:
    """Version 1 of products just inserted by Core rows (an import's new products), in one insert."""
    if not products:
        return
    by_v: dict[str, list[dict[str, Any]]] = {}
    for v in variants:
        by_v.setdefault(v["product_id"], []).append(v)
    by_t: dict[str, list[dict[str, Any]]] = {}
    for t in translations:
        by_t.setdefault(t["product_id"], []).append(t)
    name, uid = author(ctx)
    now = ctx.now()
    rows = [
        {
            "id": vid,
            "tenant_id": ctx.tenant_id,
            "product_id": p["id"],
            "number": 1,
            "snapshot": snapshot_of(p, by_v.get(p["id"], []), by_t.get(p["id"], [])),
            "source": source,
            "author": name,
            "author_id": uid,
            "restored_from": None,
            "at": now,
        }
        for vid, p in zip(ids, products, strict=True)
    ]
    s.connection().execute(insert(table_of(CatalogProductVersion)), rows)
    log_written(s, ctx.tenant_id, CatalogProductVersion.__tablename__, ids)
