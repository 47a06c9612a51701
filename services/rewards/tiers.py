"""Rewards: tiers (levels reached by the points earned over the tier period, each with a multiplier
for new earnings and the benefits staff describe). A dealer's tier is worked out when read, from the
ledger, so a reversal or the period moving on changes it without a job."""

from __future__ import annotations

from decimal import Decimal

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from local_db import new_id
from local_db.models.rewards import RewardsTier
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import Conflict, get_or_404
from services.core.roles import MANAGERS
from services.rewards.earning import load_tiers
from services.rewards.schemas import TierIn, TierList, TierOut


def _mult(v: Decimal) -> str:
    return format(v.normalize(), "f")


def _unique(ctx: Ctx, body: TierIn, id: str | None) -> None:
    with ctx.read() as s:
        other = s.execute(select(RewardsTier.id).where(RewardsTier.threshold == body.threshold)).scalar_one_or_none()
    if other is not None and other != id:
        raise Conflict("another tier has this threshold", {"threshold": body.threshold, "tier_id": other})


@use_case(
    "rewards.tiers.list",
    "GET /tiers",
    tx="read",
    auth="customer",
    staff_too=True,
    summary="the program's tiers, lowest threshold first, with their multipliers and benefits",
)
def list_tiers(ctx: Ctx) -> TierList:
    with ctx.read() as s:
        return TierList(load_tiers(s))


@use_case(
    "rewards.admin.tiers.create",
    "POST /admin/tiers",
    tx="write",
    roles=MANAGERS,
    status=201,
    says="Tier",
    summary="add a tier: a threshold of points earned over the tier period, a multiplier, benefits",
)
def create_tier(ctx: Ctx, body: TierIn) -> TierOut:
    _unique(ctx, body, None)
    now = ctx.now()
    with ctx.write() as s:
        t = RewardsTier(
            id=new_id(),
            name=body.name,
            threshold=body.threshold,
            multiplier=_mult(body.multiplier),
            benefits=body.benefits,
            created_at=now,
            updated_at=now,
        )
        s.add(t)
        try:
            s.flush()
        except IntegrityError as exc:  # a tier with this threshold was added meanwhile
            raise Conflict("another tier has this threshold", {"threshold": body.threshold}) from exc
        return TierOut.model_validate(t)


@use_case(
    "rewards.admin.tiers.update",
    "PUT /admin/tiers/{id}",
    tx="write",
    roles=MANAGERS,
    says="Tier",
    summary="change a tier",
)
def update_tier(ctx: Ctx, id: str, body: TierIn) -> TierOut:
    _unique(ctx, body, id)
    with ctx.write() as s:
        t = get_or_404(s, RewardsTier, id, what="tier", key="id")
        t.name, t.threshold, t.multiplier, t.benefits = body.name, body.threshold, _mult(body.multiplier), body.benefits
        t.updated_at = ctx.now()
        s.flush()
        return TierOut.model_validate(t)


@use_case(
    "rewards.admin.tiers.delete",
    "DELETE /admin/tiers/{id}",
    tx="write",
    roles=MANAGERS,
    says="Delete tier",
    summary="delete a tier",
)
def delete_tier(ctx: Ctx, id: str) -> None:
    with ctx.write() as s:
        s.delete(get_or_404(s, RewardsTier, id, what="tier", key="id"))
