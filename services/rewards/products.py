"""Rewards: products."""

from __future__ import annotations

from sqlalchemy import select

from local_db import new_id
from local_db.models.rewards import (
    RewardsProduct,
)
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import ValidationFailed
from services.core.pagination import Page, contains, paginate
from services.core.roles import MANAGERS, STAFF
from services.rewards.accounts import is_dealer
from services.rewards.lookups import _product
from services.rewards.schemas import (
    ProductIn,
    ProductOut,
    ProductQuery,
    ProductUpdate,
    money,
)

record_kind("rewards.product", get="rewards.products.get", label="name")


def _product_out(p: RewardsProduct) -> ProductOut:
    return ProductOut(
        id=p.id,
        name=p.name,
        description=p.description,
        points=p.points,
        stock=p.stock,
        image_url=p.image_url,
        active=p.active,
        kind=p.kind,  # type: ignore[arg-type]
        face_value=money(p.face_value_cents) if p.face_value_cents is not None else None,
    )


@use_case(
    "rewards.products.list",
    "GET /products",
    tx="read",
    auth="customer",
    staff_too=True,
    summary="the redemption catalog (dealers see active products)",
)
def list_products(ctx: Ctx, query: ProductQuery) -> Page[ProductOut]:
    stmt = select(RewardsProduct)
    if is_dealer(ctx):
        stmt = stmt.where(RewardsProduct.active.is_(True))
    elif query.active is not None:
        stmt = stmt.where(RewardsProduct.active.is_(query.active))
    if query.search:
        stmt = stmt.where(contains(RewardsProduct.name, query.search))
    with ctx.read() as s:
        page = paginate(
            s,
            stmt,
            query,
            columns={
                "name": RewardsProduct.name,
                "points": RewardsProduct.points,
                "created_at": RewardsProduct.created_at,
            },
            default_sort="points",
        )
    return page.map(_product_out)


@use_case(
    "rewards.products.get", "GET /products/{id}", tx="read", auth="customer", staff_too=True, summary="one product"
)
def get_product(ctx: Ctx, id: str) -> ProductOut:
    with ctx.read() as s:
        return _product_out(_product(ctx, s, id))


@use_case(
    "rewards.admin.products.list",
    "GET /admin/products",
    tx="read",
    roles=STAFF,
    summary="the catalog as staff manage it (active and withdrawn; active= filters)",
)
def admin_list_products(ctx: Ctx, query: ProductQuery) -> Page[ProductOut]:
    return list_products(ctx, query)


@use_case("rewards.admin.products.get", "GET /admin/products/{id}", tx="read", roles=STAFF, summary="one product")
def admin_get_product(ctx: Ctx, id: str) -> ProductOut:
    return get_product(ctx, id)


@use_case(
    "rewards.admin.products.create",
    "POST /admin/products",
    tx="write",
    roles=MANAGERS,
    status=201,
    says="New reward",
    record="rewards.product",
    summary="add a product to the redemption catalog",
)
def create_product(ctx: Ctx, body: ProductIn) -> ProductOut:
    if body.kind == "gift_card" and not body.face_value:
        raise ValidationFailed("a gift card needs its face value", {"face_value": "required"})
    if body.kind == "goods" and body.face_value is not None:
        raise ValidationFailed("only a coupon or gift card has a face value", {"face_value": "not allowed"})
    now = ctx.now()
    values = body.model_dump(exclude={"face_value"})
    values["face_value_cents"] = int(body.face_value * 100) if body.face_value is not None else None
    with ctx.write() as s:
        p = RewardsProduct(id=new_id(), **values, created_at=now, updated_at=now)
        s.add(p)
        s.flush()
        return _product_out(p)


@use_case(
    "rewards.admin.products.update",
    "PUT /admin/products/{id}",
    tx="write",
    roles=MANAGERS,
    says="Change reward",
    record="rewards.product",
    summary="change a product (fields left out stay)",
)
def update_product(ctx: Ctx, id: str, body: ProductUpdate) -> ProductOut:
    with ctx.write() as s:
        p = _product(ctx, s, id)
        for k, v in body.model_dump(exclude_unset=True).items():
            if v is not None or k == "image_url":
                setattr(p, k, v)
        p.updated_at = ctx.now()
        s.flush()
        return _product_out(p)


@use_case(
    "rewards.admin.products.delete",
    "DELETE /admin/products/{id}",
    tx="write",
    roles=MANAGERS,
    says="Withdraw reward",
    record="rewards.product",
    summary="withdraw a product (kept inactive: orders name it)",
)
def delete_product(ctx: Ctx, id: str) -> ProductOut:
    with ctx.write() as s:
        p = _product(ctx, s, id)
        p.active = False
        p.updated_at = ctx.now()
        s.flush()
        return _product_out(p)
