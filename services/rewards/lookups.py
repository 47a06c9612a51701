"""Rewards: lookups."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from local_db.models.rewards import (
    RewardsOrder,
    RewardsProduct,
    RewardsW9,
)
from services.core.context import Ctx
from services.core.errors import NotFound
from services.rewards.accounts import is_dealer
from services.rewards.schemas import (
    Address,
    CodeOut,
    OrderLine,
    OrderOut,
    money,
)


def _own(ctx: Ctx, dealer_id: str, what: str, rid: str) -> None:
    """A dealer reads only their own records: another dealer's is as unknown as a missing one."""
    if is_dealer(ctx) and dealer_id != ctx.principal.id:
        raise NotFound(f"{what} not found", {"id": rid})


def _product(ctx: Ctx, s: Session, id: str) -> RewardsProduct:
    p = s.get(RewardsProduct, id)
    if p is None or (is_dealer(ctx) and not p.active):
        raise NotFound("product not found", {"id": id})
    return p


def _order_out(o: RewardsOrder, codes: list[CodeOut] | None = None) -> OrderOut:
    return OrderOut(
        id=o.id,
        number=o.number,
        dealer_id=o.dealer_id,
        status=o.status,  # type: ignore[arg-type]
        lines=[OrderLine.model_validate(x) for x in o.lines or []],
        total_points=o.total_points,
        value=money(o.value_cents),
        shipping_address=Address.model_validate(o.shipping_address or {}),
        tracking_number=o.tracking_number,
        cancel_reason=o.cancel_reason,
        created_at=o.created_at,
        updated_at=o.updated_at,
        codes=codes or [],
    )


def _year_start(now: datetime) -> datetime:
    return datetime(now.year, 1, 1, tzinfo=UTC)


def ytd_value_cents(s: Session, dealer_id: str, now: datetime) -> int:
    """The value of the dealer's redemptions this calendar year (cancelled ones do not count)."""
    return int(
        s.execute(
            select(func.coalesce(func.sum(RewardsOrder.value_cents), 0)).where(
                RewardsOrder.dealer_id == dealer_id,
                RewardsOrder.status != "cancelled",
                RewardsOrder.created_at >= _year_start(now),
            )
        ).scalar_one()
    )


def _latest_w9(s: Session, dealer_id: str) -> RewardsW9 | None:
    return s.execute(
        select(RewardsW9).where(RewardsW9.dealer_id == dealer_id).order_by(RewardsW9.created_at.desc()).limit(1)
    ).scalar_one_or_none()
