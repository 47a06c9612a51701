"""Catalog: products."""

from __future__ import annotations

import hashlib
from decimal import Decimal

from sqlalchemy import exists, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from local_db.models.catalog import (
    CatalogCategory,
    CatalogProduct,
    CatalogProductVersion,
    CatalogSyncItem,
    CatalogTranslation,
    CatalogVariant,
)
from services.catalog import states
from services.catalog.completeness import Scope, channel_product_ids, scope, score
from services.catalog.families import check_family
from services.catalog.languages import _incomplete_in, tenant_languages
from services.catalog.schemas import (
    ProductIn,
    ProductOut,
    ProductQuery,
    ProductUpdate,
    TranslationIn,
    TranslationOut,
    VariantIn,
    VariantOut,
)
from services.catalog.versions import record_baselines, record_versions
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound, ValidationFailed, find_ref
from services.core.files import FileResult, Upload
from services.core.pagination import Page, contains, paginate
from services.core.roles import ANYONE, MANAGERS, STAFF
from services.core.storage import IMAGE_TYPES, read_blob, store_blob

record_kind("catalog.product", get="catalog.products.get", label="sku")


def text_hash(name: str, description: str) -> str:
    return hashlib.sha256(f"{name}\x00{description}".encode()).hexdigest()


def completeness(p: CatalogProduct, translations: list[CatalogTranslation], languages: list[str]) -> dict[str, int]:
    """Percent of the required fields (name, description) filled per enabled language; a stale
    translation counts as missing."""
    default = languages[0]
    by_lang = {t.language: t for t in translations}
    out: dict[str, int] = {}
    for lang in languages:
        if lang == default:
            filled = [p.name, p.description]
        else:
            t = by_lang.get(lang)
            filled = [t.name, t.description] if t is not None and t.source_hash == p.text_hash else []
        # A field the source lacks cannot be translated: it counts as missing in every language.
        src = [p.name, p.description]
        n = sum(1 for i, f in enumerate(filled) if f and src[i])
        out[lang] = n * 100 // 2
    return out


def _money(cents: int | None) -> str | None:
    return None if cents is None else f"{Decimal(cents) / 100:.2f}"


def _cents(d: Decimal | None) -> int | None:
    return None if d is None else int((d * 100).to_integral_value())


def product_out(
    p: CatalogProduct,
    variants: list[CatalogVariant],
    translations: list[CatalogTranslation],
    languages: list[str],
    sc: Scope | None = None,
) -> ProductOut:
    return ProductOut(
        id=p.id,
        sku=p.sku,
        gtin=p.gtin,
        name=p.name,
        description=p.description,
        category_ids=list(p.category_ids or []),
        attributes=dict(p.attributes or {}),
        variants=[
            VariantOut(id=v.id, sku=v.sku, gtin=v.gtin, options=dict(v.options or {}), price=_money(v.price_cents))
            for v in variants
        ],
        status=p.status,  # type: ignore[arg-type]
        translations={
            t.language: TranslationOut(
                name=t.name, description=t.description, stale=t.source_hash != p.text_hash, updated_at=t.updated_at
            )
            for t in translations
        },
        completeness=completeness(p, translations, languages),
        family_id=p.family_id,
        channels=score(sc, p, translations) if sc is not None else {},
        has_image=p.image_sha256 is not None,
        created_at=p.created_at,
        updated_at=p.updated_at,
    )


def products_out(s: Session, products: list[CatalogProduct], languages: list[str]) -> list[ProductOut]:
    """Products with their variants and translations, in three queries whatever the page size."""
    ids = [p.id for p in products]
    variants: dict[str, list[CatalogVariant]] = {i: [] for i in ids}
    translations: dict[str, list[CatalogTranslation]] = {i: [] for i in ids}
    if ids:
        for v in s.execute(
            select(CatalogVariant).where(CatalogVariant.product_id.in_(ids)).order_by(CatalogVariant.position)
        ).scalars():
            variants[v.product_id].append(v)
        for t in s.execute(
            select(CatalogTranslation)
            .where(CatalogTranslation.product_id.in_(ids))
            .order_by(CatalogTranslation.language)
        ).scalars():
            translations[t.product_id].append(t)
    sc = scope(s, products[0].tenant_id) if products else None
    return [product_out(p, variants[p.id], translations[p.id], languages, sc) for p in products]


def find_product(s: Session, ref: str) -> CatalogProduct:
    """A product by id or SKU (a scan or a person may give either)."""
    return find_ref(s, CatalogProduct, ref, CatalogProduct.sku, what="product")


def _check_skus(s: Session, skus: list[str], product_id: str | None) -> None:
    """SKUs are unique per tenant across products and variants (a product's own variants may be rewritten)."""
    if len(set(skus)) != len(skus):
        raise ValidationFailed(
            "a variant cannot share the product's SKU",
            {
                "fields": [
                    {"field": "variants", "message": "each SKU once: the product's and every variant's", "type": "sku"}
                ]
            },
        )
    taken_p = select(CatalogProduct.sku, CatalogProduct.id).where(CatalogProduct.sku.in_(skus))
    taken_v = select(CatalogVariant.sku, CatalogVariant.product_id).where(CatalogVariant.sku.in_(skus))
    clashes = sorted(
        {sku for sku, owner in [*s.execute(taken_p).all(), *s.execute(taken_v).all()] if owner != product_id}
    )
    if clashes:
        raise Conflict("SKU already used in this catalog", {"skus": clashes, "reason": "sku_taken"})


def _check_categories(s: Session, ids: list[str]) -> list[str]:
    ids = list(dict.fromkeys(ids))
    if not ids:
        return ids
    found = set(s.execute(select(CatalogCategory.id).where(CatalogCategory.id.in_(ids))).scalars())
    missing = [i for i in ids if i not in found]
    if missing:
        raise ValidationFailed(
            "unknown categories",
            {
                "fields": [
                    {"field": "category_ids", "message": f"no category {m}", "type": "not_found"} for m in missing
                ]
            },
        )
    return ids


def _write_variants(s: Session, product_id: str, variants: list[VariantIn]) -> None:
    # One by one through the session (not a bulk delete), so the change log tells the stations.
    for old in s.execute(select(CatalogVariant).where(CatalogVariant.product_id == product_id)).scalars():
        s.delete(old)
    s.flush()
    for i, v in enumerate(variants):
        s.add(
            CatalogVariant(
                product_id=product_id,
                sku=v.sku,
                gtin=v.gtin,
                options=dict(v.options),
                price_cents=_cents(v.price),
                position=i,
            )
        )


def _flush_unique(s: Session) -> None:
    """Flush, turning a SKU taken by a concurrent write into 409."""
    try:
        s.flush()
    except IntegrityError as exc:
        raise Conflict("SKU already used in this catalog", {"reason": "sku_taken"}) from exc


def _detail(s: Session, ctx: Ctx, p: CatalogProduct) -> ProductOut:
    return products_out(s, [p], tenant_languages(s, ctx.tenant_id))[0]


@use_case(
    "catalog.products.list",
    "GET /products",
    tx="read",
    roles=STAFF,
    record="catalog.product",
    summary="list products (filter by status, category, language not complete; search SKU, name, GTIN)",
)
def list_products(ctx: Ctx, query: ProductQuery) -> Page[ProductOut]:
    stmt = select(CatalogProduct)
    if query.status:
        stmt = stmt.where(CatalogProduct.status == query.status)
    if query.search:
        variant_hit = exists().where(
            CatalogVariant.product_id == CatalogProduct.id,
            or_(contains(CatalogVariant.sku, query.search), CatalogVariant.gtin == query.search),
        )
        stmt = stmt.where(
            or_(
                contains(CatalogProduct.sku, query.search),
                contains(CatalogProduct.name, query.search),
                CatalogProduct.gtin == query.search,
                variant_hit,
            )
        )
    with ctx.read() as s:
        langs = tenant_languages(s, ctx.tenant_id)
        if query.incomplete:
            stmt = stmt.where(_incomplete_in(query.incomplete, langs[0]))
        if query.family_id:
            stmt = stmt.where(CatalogProduct.family_id == query.family_id)
        if query.channel:
            # Completeness is computed, not stored: the candidates are scored here.
            stmt = stmt.where(
                CatalogProduct.id.in_(channel_product_ids(s, ctx.tenant_id, query.channel, query.complete))
            )
        if query.category_id:
            # Categories are a short JSON list per product: filtered here, on the candidate ids.
            ids = [
                pid
                for pid, cats in s.execute(select(CatalogProduct.id, CatalogProduct.category_ids)).all()
                if query.category_id in (cats or [])
            ]
            stmt = stmt.where(CatalogProduct.id.in_(ids))
        page = paginate(
            s,
            stmt,
            query,
            columns={
                "created_at": CatalogProduct.created_at,
                "sku": CatalogProduct.sku,
                "name": CatalogProduct.name,
                "status": CatalogProduct.status,
                "updated_at": CatalogProduct.updated_at,
            },
        )
        items = products_out(s, page.items, langs)
    return Page(items, page.total, page.spec)


@use_case(
    "catalog.products.get",
    "GET /products/{id}",
    tx="read",
    roles=STAFF,
    record="catalog.product",
    summary="read a product with its variants, translations and completeness",
)
def get_product(ctx: Ctx, id: str) -> ProductOut:
    with ctx.read() as s:
        return _detail(s, ctx, find_product(s, id))


@use_case(
    "catalog.products.create",
    "POST /products",
    tx="write",
    roles=STAFF,
    status=201,
    says="New product",
    record="catalog.product",
    summary="create a product with its variants",
)
def create_product(ctx: Ctx, body: ProductIn) -> ProductOut:
    now = ctx.now()
    with ctx.write() as s:
        _check_skus(s, [body.sku, *(v.sku for v in body.variants)], None)
        cats = _check_categories(s, body.category_ids)
        family = check_family(s, body.family_id, dict(body.attributes))
        p = CatalogProduct(
            sku=body.sku,
            gtin=body.gtin,
            name=body.name,
            description=body.description,
            text_hash=text_hash(body.name, body.description),
            category_ids=cats,
            attributes=dict(body.attributes),
            status=body.status,
            published_at=now if body.status == "active" else None,
            family_id=family.id if family else None,
            created_at=now,
            updated_at=now,
        )
        if body.status == "archived":
            raise ValidationFailed(
                "a new product is a draft or active",
                {"fields": [{"field": "status", "message": "draft or active", "type": "state"}]},
            )
        s.add(p)
        _flush_unique(s)
        _write_variants(s, p.id, body.variants)
        _flush_unique(s)
        record_versions(ctx, s, [p], "create")
        return _detail(s, ctx, p)


@use_case(
    "catalog.products.update",
    "PUT /products/{id}",
    tx="write",
    roles=STAFF,
    says="Change to product",
    record="catalog.product",
    summary="change a product; status moves draft -> active -> archived",
)
def update_product(ctx: Ctx, id: str, body: ProductUpdate) -> ProductOut:
    with ctx.write() as s:
        p = find_product(s, id)
        record_baselines(ctx, s, [p])
        given = body.model_fields_set
        if body.status is not None and body.status != p.status:
            p.status = states.PRODUCT.check(p.status, states.action_to(p.status, body.status))
            if p.status == "active" and p.published_at is None:
                p.published_at = ctx.now()
        elif p.status == "archived" and given - {"status"}:
            # An archived product is read only until it is restored (as a draft).
            raise Conflict(
                "cannot change a product that is archived; restore it as a draft first",
                {"current_state": p.status, "action": "change"},
            )
        if "sku" in given or "variants" in given:
            skus = [body.sku or p.sku]
            if body.variants is not None:
                skus += [v.sku for v in body.variants]
            else:
                skus += list(s.execute(select(CatalogVariant.sku).where(CatalogVariant.product_id == p.id)).scalars())
            _check_skus(s, skus, p.id)
        for field in ("sku", "name"):
            if field in given and getattr(body, field) is None:
                raise ValidationFailed(
                    f"{field} cannot be removed",
                    {"fields": [{"field": field, "message": "required", "type": "missing"}]},
                )
        if body.sku is not None:
            p.sku = body.sku
        if "gtin" in given:
            p.gtin = body.gtin
        if body.name is not None:
            p.name = body.name
        if body.description is not None:
            p.description = body.description
        p.text_hash = text_hash(p.name, p.description)
        if body.category_ids is not None:
            p.category_ids = _check_categories(s, body.category_ids)
        if body.attributes is not None:
            p.attributes = dict(body.attributes)
        if "family_id" in given or body.attributes is not None:
            fam = check_family(s, body.family_id if "family_id" in given else p.family_id, dict(p.attributes or {}))
            p.family_id = fam.id if fam else None
        if body.variants is not None:
            _write_variants(s, p.id, body.variants)
        p.updated_at = ctx.now()
        _flush_unique(s)
        record_versions(ctx, s, [p], "update")
        return _detail(s, ctx, p)


@use_case(
    "catalog.products.delete",
    "DELETE /products/{id}",
    tx="write",
    roles=MANAGERS,
    says="Remove product",
    record="catalog.product",
    summary="archive a product that has history (200), delete one that has none (204)",
)
def delete_product(ctx: Ctx, id: str) -> ProductOut | None:
    with ctx.write() as s:
        p = find_product(s, id)
        pushed = s.execute(select(CatalogSyncItem.id).where(CatalogSyncItem.product_id == p.id).limit(1)).first()
        if p.published_at is None and pushed is None and p.status == "draft":
            # Through the session, one by one: the change log tells the stations about each row.
            for model in (CatalogTranslation, CatalogVariant, CatalogProductVersion):
                for row in s.execute(select(model).where(model.product_id == p.id)).scalars():
                    s.delete(row)
            s.delete(p)
            return None
        if p.status != "archived":
            p.status = states.PRODUCT.check(p.status, "archive")
            p.updated_at = ctx.now()
        s.flush()
        return _detail(s, ctx, p)


@use_case(
    "catalog.products.translate",
    "POST /products/{id}/translations",
    tx="write",
    roles=STAFF,
    status=201,
    says="Translation of product",
    record="catalog.product",
    summary="add or replace a product's text in an enabled language",
)
def translate_product(ctx: Ctx, id: str, body: TranslationIn) -> ProductOut:
    with ctx.write() as s:
        p = find_product(s, id)
        langs = tenant_languages(s, ctx.tenant_id)
        lang = next((x for x in langs if x.lower() == body.language.lower()), None)
        if lang is None:
            raise ValidationFailed(
                f"language {body.language} is not enabled for this catalog",
                {
                    "fields": [{"field": "language", "message": f"enabled: {', '.join(langs)}", "type": "language"}],
                    "enabled": langs,
                },
            )
        if lang == langs[0]:
            raise ValidationFailed(
                f"{lang} is the default language: change the product's own name and description",
                {"fields": [{"field": "language", "message": "the default language", "type": "language"}]},
            )
        if p.status == "archived":
            raise Conflict(
                "cannot translate a product that is archived", {"current_state": p.status, "action": "translate"}
            )
        record_baselines(ctx, s, [p])
        t = s.execute(
            select(CatalogTranslation).where(CatalogTranslation.product_id == p.id, CatalogTranslation.language == lang)
        ).scalar_one_or_none()
        if t is None:
            t = CatalogTranslation(product_id=p.id, language=lang)
            s.add(t)
        t.name, t.description, t.source_hash, t.updated_at = body.name, body.description, p.text_hash, ctx.now()
        s.flush()
        record_versions(ctx, s, [p], "translate")
        return _detail(s, ctx, p)


@use_case(
    "catalog.products.image.put",
    "PUT /products/{id}/image",
    tx="write",
    roles=STAFF,
    upload=True,
    limit="upload",
    says="Image of product",
    record="catalog.product",
    summary="set the product's image (JPEG, PNG, GIF or WebP), drawn in PDF catalogs",
)
def put_image(ctx: Ctx, id: str, upload: Upload) -> ProductOut:
    blob = store_blob(ctx, upload.content, allowed=IMAGE_TYPES - {"image/heic"})
    with ctx.write() as s:
        p = find_product(s, id)
        p.image_sha256 = blob.sha256
        p.updated_at = ctx.now()
        s.flush()
        return _detail(s, ctx, p)


# Anyone signed in: the warehouse device shows the picture of the item a packer scanned.
@use_case(
    "catalog.products.image.get", "GET /products/{id}/image", tx="read", roles=ANYONE, summary="the product's image"
)
def get_image(ctx: Ctx, id: str) -> FileResult:
    with ctx.read() as s:
        p = find_product(s, id)
        sha = p.image_sha256
    if sha is None:
        raise NotFound("this product has no image", {"product": id})
    try:
        content = read_blob(ctx, sha)
    except FileNotFoundError:
        raise NotFound("this product's image file is missing", {"product": id}) from None
    from services.core.storage import sniff_type

    return FileResult(content, sniff_type(content) or "application/octet-stream")
