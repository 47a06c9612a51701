"""Upgrade: valuations."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.upgrade import (
    UpgradeSubmission,
    UpgradeValuation,
)
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound
from services.core.pagination import ListQuery, Page, contains, paginate
from services.core.roles import MANAGERS
from services.upgrade import grading, states
from services.upgrade.lookups import _valuation
from services.upgrade.schemas import (
    ValuationCreate,
    ValuationOut,
    ValuationUpdate,
)


def _valuation_out(v: UpgradeValuation) -> ValuationOut:
    return ValuationOut(
        id=v.id,
        product_id=v.product_id,
        product_name=v.product_name,
        base_value=grading.from_cents(v.base_cents),
        currency=v.currency,
        is_phone=v.is_phone,
    )


@use_case("upgrade.valuations.list", "GET /admin/valuations", tx="read", summary="list valuations")
def list_valuations(ctx: Ctx, query: ListQuery) -> Page[ValuationOut]:
    stmt = select(UpgradeValuation)
    if query.search:
        stmt = stmt.where(
            contains(UpgradeValuation.product_name, query.search) | contains(UpgradeValuation.product_id, query.search)
        )
    with ctx.read() as s:
        page = paginate(
            s,
            stmt,
            query,
            default_sort="product_name",
            columns={
                "product_name": UpgradeValuation.product_name,
                "product_id": UpgradeValuation.product_id,
                "base_value": UpgradeValuation.base_cents,
                "created_at": UpgradeValuation.created_at,
            },
        )
    return page.map(_valuation_out)


def _get_valuation(s: Session, id: str) -> UpgradeValuation:
    v = s.get(UpgradeValuation, id)
    if v is None:
        raise NotFound("valuation not found", {"id": id})
    return v


def _unique_product(s: Session, product_id: str, exclude: str | None) -> None:
    other = _valuation(s, product_id)
    if other is not None and other.id != exclude:
        raise Conflict("this product already has a valuation", {"product_id": product_id, "id": other.id})


@use_case(
    "upgrade.valuations.create",
    "POST /admin/valuations",
    tx="write",
    roles=MANAGERS,
    status=201,
    summary="create valuations",
)
def create_valuation(ctx: Ctx, body: ValuationCreate) -> ValuationOut:
    now = ctx.now()
    with ctx.write() as s:
        _unique_product(s, body.product_id, None)
        v = UpgradeValuation(
            id=new_id(),
            product_id=body.product_id,
            product_name=body.product_name,
            base_cents=grading.to_cents(body.base_value),
            currency=body.currency,
            is_phone=body.is_phone,
            created_at=now,
            updated_at=now,
        )
        s.add(v)
        s.flush()
        return _valuation_out(v)


@use_case("upgrade.valuations.get", "GET /admin/valuations/{id}", tx="read", summary="read a valuation")
def get_valuation(ctx: Ctx, id: str) -> ValuationOut:
    with ctx.read() as s:
        return _valuation_out(_get_valuation(s, id))


@use_case(
    "upgrade.valuations.update",
    "PUT /admin/valuations/{id}",
    tx="write",
    roles=MANAGERS,
    summary="change valuations",
)
def update_valuation(ctx: Ctx, id: str, body: ValuationUpdate) -> ValuationOut:
    with ctx.write() as s:
        v = _get_valuation(s, id)
        if body.product_id is not None and body.product_id != v.product_id:
            _unique_product(s, body.product_id, v.id)
            _not_in_use(s, v.product_id, "change the product of")
            v.product_id = body.product_id
        if body.product_name is not None:
            v.product_name = body.product_name
        if body.base_value is not None:
            v.base_cents = grading.to_cents(body.base_value)
        if body.currency is not None:
            v.currency = body.currency
        if body.is_phone is not None:
            v.is_phone = body.is_phone
        v.updated_at = ctx.now()
        s.flush()
        return _valuation_out(v)


def _not_in_use(s: Session, product_id: str, action: str) -> None:
    n = s.execute(
        select(func.count())
        .select_from(UpgradeSubmission)
        .where(UpgradeSubmission.product_id == product_id, UpgradeSubmission.status.in_(states.OPEN))
    ).scalar_one()
    if n:
        raise Conflict(
            f"cannot {action} a valuation used by {n} open trade-ins",
            {"current_state": "in_use", "open_submissions": n},
        )


@use_case(
    "upgrade.valuations.delete",
    "DELETE /admin/valuations/{id}",
    tx="write",
    roles=MANAGERS,
    summary="delete valuations",
)
def delete_valuation(ctx: Ctx, id: str) -> None:
    with ctx.write() as s:
        v = _get_valuation(s, id)
        _not_in_use(s, v.product_id, "delete")
        s.delete(v)
