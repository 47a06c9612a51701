"""Upgrade: lookups."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db.models.upgrade import (
    UpgradeOffer,
    UpgradeShipment,
    UpgradeSubmission,
    UpgradeValuation,
)
from services.core.context import Ctx
from services.core.errors import NotFound, ValidationFailed
from services.core.events import emit
from services.upgrade import grading, states
from services.upgrade.credit import post_credit
from services.upgrade.schemas import (
    OfferOut,
    SubmissionOut,
)

OFFER_MAX_DAYS = 365


def _is_customer(ctx: Ctx) -> bool:
    return ctx.principal.kind == "customer"


def _actor(ctx: Ctx) -> str:
    """Who makes a move, as the state table names them."""
    if ctx.principal.kind == "system":
        return states.SYSTEM
    return states.CUSTOMER if _is_customer(ctx) else states.STAFF


def _customer_id(ctx: Ctx) -> str | None:
    return ctx.principal.id if _is_customer(ctx) else None


def _submission(s: Session, ctx: Ctx, sid: str, *, for_update: bool = False) -> UpgradeSubmission:
    """The submission, or 404 when it is missing, of another tenant or of another customer."""
    sub = s.get(UpgradeSubmission, sid, with_for_update=for_update or None)
    if sub is None or (_is_customer(ctx) and sub.customer_id != ctx.principal.id):
        raise NotFound("submission not found", {"id": sid})
    return sub


def _valuation(s: Session, product_id: str) -> UpgradeValuation | None:
    return s.execute(select(UpgradeValuation).where(UpgradeValuation.product_id == product_id)).scalar_one_or_none()


def _require_valuation(s: Session, product_id: str) -> UpgradeValuation:
    v = _valuation(s, product_id)
    if v is None:
        raise ValidationFailed(
            f"no valuation for product {product_id!r}: add one under admin/valuations before valuing this trade-in",
            {"product_id": product_id, "fix": "POST admin/valuations"},
        )
    return v


def _offer_status(o: UpgradeOffer, now: datetime) -> str:
    if o.status == "pending" and o.expires_at <= now:
        return "expired"
    return o.status


def _offer_out(o: UpgradeOffer, now: datetime) -> OfferOut:
    return OfferOut(
        id=o.id,
        submission_id=o.submission_id,
        kind=o.kind,
        amount=grading.from_cents(o.amount_cents),
        currency=o.currency,
        notes=o.notes,
        reasons=list(o.reasons),
        photos=list(o.photos),
        expires_at=o.expires_at,
        status=_offer_status(o, now),
        created_at=o.created_at,
        decided_at=o.decided_at,
    )  # type: ignore[arg-type]


def _summary(sub: UpgradeSubmission, val: UpgradeValuation | None, kit: str | None) -> SubmissionOut:
    return SubmissionOut(
        id=sub.id,
        customer_id=sub.customer_id,
        product_id=sub.product_id,
        product_name=val.product_name if val else None,
        serial_number=sub.serial_number,
        imei=sub.imei,
        condition=sub.condition,
        description=sub.description,
        photos=list(sub.photos),
        status=sub.status,  # type: ignore[arg-type]
        declared_value=grading.from_cents(grading.value_cents(val.base_cents, sub.condition)) if val else None,
        currency=sub.currency or (val.currency if val else None),
        graded_condition=sub.graded_condition,
        credit=grading.from_cents(sub.credit_cents) if sub.credit_cents is not None else None,
        decline_reason=sub.decline_reason,
        kit_barcode=kit,
        submitted_at=sub.submitted_at,
        accepted_at=sub.accepted_at,
        received_at=sub.received_at,
        completed_at=sub.completed_at,
        created_at=sub.created_at,
        updated_at=sub.updated_at,
    )


def _summaries(s: Session, subs: list[UpgradeSubmission]) -> list[SubmissionOut]:
    """Summaries of a page of submissions with two batched lookups (valuations, kits)."""
    products = {x.product_id for x in subs}
    vals = {
        v.product_id: v
        for v in s.execute(select(UpgradeValuation).where(UpgradeValuation.product_id.in_(products))).scalars()
    }
    kits = dict(
        s.execute(
            select(UpgradeShipment.submission_id, UpgradeShipment.barcode).where(
                UpgradeShipment.submission_id.in_([x.id for x in subs]), UpgradeShipment.kind == "kit"
            )
        ).all()
    )
    return [_summary(x, vals.get(x.product_id), kits.get(x.id)) for x in subs]


def _touch(sub: UpgradeSubmission, ctx: Ctx) -> None:
    sub.updated_at = ctx.now()


def _money(cents: int) -> float:
    return float(grading.from_cents(cents))


def _supersede(s: Session, sid: str, ctx: Ctx) -> None:
    for o in s.execute(
        select(UpgradeOffer).where(UpgradeOffer.submission_id == sid, UpgradeOffer.status == "pending")
    ).scalars():
        o.status = "superseded"
        o.decided_at = ctx.now()


def _issue_credit(s: Session, ctx: Ctx, sub: UpgradeSubmission, cents: int, currency: str) -> None:
    sub.status = states.check(sub.status, "complete", states.SYSTEM) if sub.status == "inspected" else sub.status
    sub.credit_cents = cents
    sub.currency = currency
    sub.completed_at = ctx.now()
    _touch(sub, ctx)
    s.flush()
    post_credit(s, ctx, sub, cents, currency)  # the customer's ledger, once per trade-in
    emit(
        ctx,
        "tradein.completed",
        {"submission_id": sub.id, "customer_id": sub.customer_id, "credit": _money(cents), "currency": currency},
    )


def _check_expiry(expires: datetime, now: datetime) -> None:
    if expires <= now:
        raise ValidationFailed("the offer's expiry is in the past", {"expires_at": expires.isoformat()})
    if expires > now + timedelta(days=OFFER_MAX_DAYS):
        raise ValidationFailed(f"an offer may run at most {OFFER_MAX_DAYS} days", {"expires_at": expires.isoformat()})
