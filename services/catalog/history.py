"""Catalog: a product's version history (list, read with what changed, restore) and mass edit of a
selection of products (one change, all or nothing, reported per product)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db.models.catalog import CatalogProduct, CatalogProductVersion, CatalogTranslation, CatalogVariant
from services.catalog import states
from services.catalog.families import check_family
from services.catalog.products import _check_categories, _check_skus, _detail, _flush_unique, find_product, text_hash
from services.catalog.schemas import MassEdit, MassEditOut, MassEditResult, ProductOut, VersionDetail, VersionOut
from services.catalog.versions import FIELDS, record_baselines, record_versions
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound, ValidationFailed
from services.core.events import emit
from services.core.pagination import ListQuery, Page, paginate
from services.core.roles import STAFF


def _version(s: Session, p: CatalogProduct, version_id: str) -> CatalogProductVersion:
    v = s.get(CatalogProductVersion, version_id)
    if v is None or v.product_id != p.id:
        raise NotFound("no such version of this product", {"id": p.id, "version_id": version_id})
    return v


def _out(v: CatalogProductVersion) -> VersionOut:
    return VersionOut(
        id=v.id, number=v.number, source=v.source, author=v.author, at=v.at, restored_from=v.restored_from
    )


@use_case(
    "catalog.products.versions.list",
    "GET /products/{id}/versions",
    tx="read",
    roles=STAFF,
    record="catalog.product",
    summary="a product's versions, newest first (every save that changed it adds one)",
)
def list_versions(ctx: Ctx, id: str, query: ListQuery) -> Page[VersionOut]:
    with ctx.read() as s:
        p = find_product(s, id)
        stmt = select(CatalogProductVersion).where(CatalogProductVersion.product_id == p.id)
        if not query.sort:
            query = query.model_copy(update={"sort": "-number"})
        page = paginate(s, stmt, query, columns={"number": CatalogProductVersion.number})
        return page.map(_out)


@use_case(
    "catalog.products.versions.get",
    "GET /products/{id}/versions/{version_id}",
    tx="read",
    roles=STAFF,
    record="catalog.product",
    summary="one version: the product's content then, and the fields it changed from the one before",
)
def get_version(ctx: Ctx, id: str, version_id: str) -> VersionDetail:
    with ctx.read() as s:
        p = find_product(s, id)
        v = _version(s, p, version_id)
        before = s.execute(
            select(CatalogProductVersion)
            .where(CatalogProductVersion.product_id == p.id, CatalogProductVersion.number < v.number)
            .order_by(CatalogProductVersion.number.desc())
            .limit(1)
        ).scalar_one_or_none()
        prev: dict[str, Any] = before.snapshot if before else {}
        changed = [k for k in v.snapshot if prev.get(k) != v.snapshot[k]]
        return VersionDetail(**_out(v).model_dump(), snapshot=v.snapshot, changed=changed)


def _apply(s: Session, p: CatalogProduct, snap: dict[str, Any]) -> None:
    """Make the product's content the snapshot's (checked first: SKUs free, categories and family there)."""
    variants = snap.get("variants") or []
    _check_skus(s, [snap["sku"], *(v["sku"] for v in variants)], p.id)
    try:
        cats = _check_categories(s, list(snap.get("category_ids") or []))
        fam = check_family(s, snap.get("family_id"), dict(snap.get("attributes") or {}))
    except ValidationFailed as exc:
        raise Conflict(
            f"this version cannot be restored: {exc.message}", {"reason": "version_does_not_fit", **(exc.details or {})}
        ) from None
    for f in FIELDS:
        if f not in ("category_ids", "family_id"):
            setattr(p, f, snap.get(f))
    p.category_ids, p.family_id = cats, fam.id if fam else None
    p.attributes = dict(snap.get("attributes") or {})
    p.text_hash = text_hash(p.name, p.description)
    for old in s.execute(select(CatalogVariant).where(CatalogVariant.product_id == p.id)).scalars():
        s.delete(old)
    s.flush()
    for i, v in enumerate(variants):
        s.add(
            CatalogVariant(
                product_id=p.id,
                sku=v["sku"],
                gtin=v.get("gtin"),
                options=dict(v.get("options") or {}),
                price_cents=v.get("price_cents"),
                position=i,
            )
        )
    kept = snap.get("translations") or {}
    for t in s.execute(select(CatalogTranslation).where(CatalogTranslation.product_id == p.id)).scalars():
        if t.language not in kept:
            s.delete(t)
    current = {
        t.language: t
        for t in s.execute(select(CatalogTranslation).where(CatalogTranslation.product_id == p.id)).scalars()
    }
    for lang, tr in kept.items():
        row = current.get(lang)
        if row is None:
            row = CatalogTranslation(product_id=p.id, language=lang)
            s.add(row)
        row.name, row.description = tr["name"], tr["description"]
        row.source_hash = "" if tr.get("stale") else p.text_hash


@use_case(
    "catalog.products.versions.restore",
    "POST /products/{id}/versions/{version_id}/restore",
    tx="write",
    roles=STAFF,
    says="Restore version of product",
    record="catalog.product",
    summary="make an earlier version the product's content again (a new version; the history keeps every one)",
)
def restore_version(ctx: Ctx, id: str, version_id: str) -> ProductOut:
    with ctx.write() as s:
        p = find_product(s, id)
        v = _version(s, p, version_id)
        if p.status == "archived":
            raise Conflict(
                "cannot change a product that is archived; restore it as a draft first",
                {"current_state": p.status, "action": "restore_version"},
            )
        _apply(s, p, v.snapshot)
        p.updated_at = ctx.now()
        _flush_unique(s)
        record_versions(ctx, s, [p], "restore", restored_from=v.number)
        emit(
            ctx,
            "catalog.product_restored",
            {"product_id": p.id, "sku": p.sku, "version": v.number, "version_id": v.id},
        )
        return _detail(s, ctx, p)


# --- mass edit ---------------------------------------------------------------------------------


def _edit_one(s: Session, p: CatalogProduct, body: MassEdit, now: Any) -> None:
    """Apply the change to one product, raising what refuses it (the caller reports and rolls back)."""
    if p.status == "archived" and body.status != "draft":
        raise Conflict("the product is archived: set status draft to restore it first", {"current_state": p.status})
    if body.status is not None and body.status != p.status:
        p.status = states.PRODUCT.check(p.status, states.action_to(p.status, body.status))
        if p.status == "active" and p.published_at is None:
            p.published_at = now
    attrs = dict(p.attributes or {})
    attrs.update(body.set_attributes or {})
    for k in body.remove_attributes or []:
        attrs.pop(k, None)
    if len(attrs) > 100:
        raise ValidationFailed("at most 100 attributes")
    cats = [c for c in (p.category_ids or []) if c not in set(body.remove_category_ids or [])]
    cats = list(dict.fromkeys(cats + list(body.add_category_ids or [])))
    family_id = p.family_id
    if body.remove_family:
        family_id = None
    elif body.family_id is not None:
        family_id = body.family_id
    fam = check_family(s, family_id, attrs)
    p.attributes, p.category_ids, p.family_id = attrs, cats, fam.id if fam else None
    p.updated_at = now


@use_case(
    "catalog.products.mass_edit",
    "POST /products/mass-edit",
    tx="write",
    roles=STAFF,
    says="Mass edit of products",
    record="catalog.product",
    summary="one change to a selection of products: all applied, or none (400 with the result per product)",
)
def mass_edit(ctx: Ctx, body: MassEdit) -> MassEditOut:
    if not (
        body.status
        or body.family_id
        or body.remove_family
        or body.set_attributes
        or body.remove_attributes
        or body.add_category_ids
        or body.remove_category_ids
    ):
        raise ValidationFailed(
            "nothing to change", {"fields": [{"field": "status", "message": "name a change", "type": "missing"}]}
        )
    now = ctx.now()
    with ctx.write() as s:
        _check_categories(s, list(body.add_category_ids or []))
        results: list[MassEditResult] = []
        done: list[CatalogProduct] = []
        for ref in dict.fromkeys(body.product_ids):
            try:
                p = find_product(s, ref)
            except NotFound:
                results.append(MassEditResult(product_id=ref, sku="", ok=False, message=f"no product {ref}"))
                continue
            record_baselines(ctx, s, [p])
            try:
                _edit_one(s, p, body, now)
            except (Conflict, ValidationFailed) as exc:
                fields = (exc.details or {}).get("fields") or []
                more = "; ".join(f"{f['field']}: {f['message']}" for f in fields)
                msg = f"{exc.message} ({more})" if more else exc.message
                results.append(MassEditResult(product_id=p.id, sku=p.sku, ok=False, message=msg))
                continue
            results.append(MassEditResult(product_id=p.id, sku=p.sku, ok=True, message=None))
            done.append(p)
        if len(done) != len(results):
            # All or nothing: raising rolls the unit of work back, the answer says why per product.
            failed = sum(1 for r in results if not r.ok)
            raise ValidationFailed(
                f"nothing changed: {failed} of {len(results)} products refuse the change",
                {"results": [r.model_dump() for r in results], "applied": False},
            )
        s.flush()
        record_versions(ctx, s, done, "mass_edit")
        emit(
            ctx,
            "catalog.products_mass_edited",
            {"count": len(done), "product_ids": [p.id for p in done][:1000]},
        )
        return MassEditOut(applied=True, results=results)
