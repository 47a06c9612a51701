"""Upgrade: offers."""

from __future__ import annotations

from datetime import timedelta

from local_db import new_id
from local_db.models.upgrade import (
    UpgradeOffer,
)
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import NotFound, ValidationFailed, conflict_state
from services.core.events import emit
from services.upgrade import grading, states
from services.upgrade.lookups import (
    _actor,
    _check_expiry,
    _is_customer,
    _issue_credit,
    _money,
    _offer_out,
    _offer_status,
    _require_valuation,
    _submission,
    _summaries,
    _supersede,
    _touch,
)
from services.upgrade.schemas import (
    OfferCreate,
    OfferRespond,
    OfferResult,
)

OFFER_DEFAULT_DAYS = 14


@use_case(
    "upgrade.offers.create",
    "POST /offers",
    tx="write",
    status=201,
    says="Offer on trade-in",
    summary="send offers",
)
def create_offer(ctx: Ctx, body: OfferCreate) -> OfferResult:
    now = ctx.now()
    with ctx.write() as s:
        sub = _submission(s, ctx, body.submission_id, for_update=True)
        target = states.check(sub.status, "offer", _actor(ctx))
        val = _require_valuation(s, sub.product_id)
        cents = grading.to_cents(body.amount)
        if cents > val.base_cents:
            raise ValidationFailed(
                f"the amount is above the product's base value ({grading.from_cents(val.base_cents)} {val.currency})",
                {"amount": float(body.amount), "base_value": _money(val.base_cents)},
            )
        expires = body.expires_at or now + timedelta(days=OFFER_DEFAULT_DAYS)
        _check_expiry(expires, now)
        kind = "revised" if sub.status == "inspected" else "initial"
        _supersede(s, sub.id, ctx)
        o = UpgradeOffer(
            id=new_id(),
            submission_id=sub.id,
            kind=kind,
            amount_cents=cents,
            currency=val.currency,
            notes=body.notes,
            reasons=[],
            photos=[],
            expires_at=expires,
            status="pending",
            created_by=ctx.principal.id,
            created_at=now,
        )
        s.add(o)
        sub.status = target
        sub.currency = val.currency
        _touch(sub, ctx)
        s.flush()
        emit(
            ctx,
            "tradein.offered",
            {
                "submission_id": sub.id,
                "offer_id": o.id,
                "kind": kind,
                "amount": _money(cents),
                "currency": val.currency,
                "expires_at": expires.isoformat(),
            },
        )
        return OfferResult(**_offer_out(o, now).model_dump(), submission=_summaries(s, [sub])[0])


@use_case(
    "upgrade.offers.respond",
    "POST /offers/{id}",
    tx="write",
    auth="customer",
    says="Answer to offer",
    summary="accept or decline an offer",
)
@use_case(
    "upgrade.admin.offers.respond",
    "POST /admin/offers/{id}",
    tx="write",
    says="Answer to offer",
    summary="record a customer's answer to an offer",
)
def respond_offer(ctx: Ctx, id: str, body: OfferRespond) -> OfferResult:
    """The customer's answer (or, on the staff route, the answer they gave by phone or e-mail)."""
    now = ctx.now()
    with ctx.write() as s:
        o = s.get(UpgradeOffer, id, with_for_update=True)
        if o is None:
            raise NotFound("offer not found", {"id": id})
        sub = _submission(s, ctx, o.submission_id, for_update=True)
        status = _offer_status(o, now)
        if status != "pending" and not (status == "expired" and body.action == "decline"):
            raise conflict_state("offer", status, body.action)
        target = states.check(sub.status, body.action, _actor(ctx))
        o.status = "accepted" if body.action == "accept" else "declined"
        o.decided_at = now
        o.decided_by = f"{ctx.principal.kind}:{ctx.principal.id}"
        by = "customer" if _is_customer(ctx) else "staff"
        if body.action == "accept":  # the initial or a revised offer: the time "accepted" counts by
            sub.accepted_at = now
        data = {
            "submission_id": sub.id,
            "offer_id": o.id,
            "kind": o.kind,
            "amount": _money(o.amount_cents),
            "currency": o.currency,
            "recorded_by": by,
        }
        if body.action == "decline":
            sub.status = target
            sub.decline_reason = body.reason or f"the customer declined the {o.kind} offer"
            _touch(sub, ctx)
            s.flush()
            emit(ctx, "tradein.declined", {**data, "by": "customer", "reason": sub.decline_reason})
        elif target == "completed":  # a revised offer accepted: the credit is issued now
            s.flush()
            emit(ctx, "tradein.approved", data)
            _issue_credit(s, ctx, sub, o.amount_cents, o.currency)
        else:
            sub.status = target
            _touch(sub, ctx)
            s.flush()
            emit(ctx, "tradein.approved", data)
        return OfferResult(**_offer_out(o, now).model_dump(), submission=_summaries(s, [sub])[0])
