"""Upgrade: the inspection of a received trade-in, its grading and the revised offer."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.upgrade import (
    UpgradeInspection,
    UpgradeOffer,
    UpgradePhoto,
    UpgradeSubmission,
)
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import Conflict, ValidationFailed
from services.core.events import emit
from services.upgrade import grading, states
from services.upgrade.lookups import (
    _actor,
    _check_expiry,
    _issue_credit,
    _money,
    _offer_out,
    _require_valuation,
    _submission,
    _touch,
)
from services.upgrade.schemas import (
    ActionResult,
    InspectRequest,
)
from services.upgrade.submissions import REVISED_OFFER_DAYS, _detail


def _inspector_name(ctx: Ctx) -> str:
    return ctx.principal.name or ctx.principal.email or ctx.principal.id


def _staff_photos(s: Session, sub: UpgradeSubmission, ids: Iterable[str]) -> list[str]:
    ids = list(dict.fromkeys(ids))
    rows = {p.id: p for p in s.execute(select(UpgradePhoto).where(UpgradePhoto.id.in_(ids))).scalars()} if ids else {}
    bad = [
        i
        for i in ids
        if i not in rows
        or rows[i].submission_id not in (None, sub.id)
        or (rows[i].customer_id is not None and rows[i].customer_id != sub.customer_id)
    ]
    if bad:
        raise ValidationFailed("unknown photos (upload them first with POST admin/photos)", {"photos": bad})
    for p in rows.values():
        p.submission_id = sub.id
    return ids


@use_case(
    "upgrade.submissions.inspect",
    "POST /submissions/{id}/inspect",
    tx="write",
    says="Inspect trade-in",
    record="upgrade.submission",
    summary="inspect trade-ins",
)
def inspect(ctx: Ctx, id: str, body: InspectRequest) -> ActionResult:
    now = ctx.now()
    with ctx.write() as s:
        sub = _submission(s, ctx, id, for_update=True)
        insp = s.execute(
            select(UpgradeInspection).where(UpgradeInspection.submission_id == sub.id)
        ).scalar_one_or_none()
        if body.action == "start":
            states.check(sub.status, "start_inspection", _actor(ctx))
            if insp is not None:
                raise Conflict(
                    f"inspection already started by {insp.inspector_name}",
                    {"current_state": "inspection_in_progress", "action": "start inspection"},
                )
            insp = UpgradeInspection(
                id=new_id(),
                submission_id=sub.id,
                status="in_progress",
                inspector_id=ctx.principal.id,
                inspector_name=_inspector_name(ctx),
                checklist={},
                reasons=[],
                photos=[],
                notes="",
                started_at=now,
            )
            s.add(insp)
            _touch(sub, ctx)
            s.flush()
            return _detail(s, ctx, sub, ActionResult, outcome="inspection_started")  # type: ignore[return-value]
        return _complete_inspection(s, ctx, sub, insp, body)


def _complete_inspection(
    s: Session, ctx: Ctx, sub: UpgradeSubmission, insp: UpgradeInspection | None, body: InspectRequest
) -> ActionResult:
    now = ctx.now()
    sub.status = states.check(sub.status, "inspect", _actor(ctx))
    assert body.checklist is not None  # the schema requires it for complete
    checklist = body.checklist.model_dump()
    blocked = grading.blockers(checklist)
    if blocked:
        raise ValidationFailed("the inspection cannot complete: " + "; ".join(blocked), {"blockers": blocked})
    val = _require_valuation(s, sub.product_id)
    suggested, reasons = grading.assess(checklist)
    graded = body.condition or suggested
    graded_cents = grading.value_cents(val.base_cents, graded)
    if insp is None:  # completing without an explicit start: one step at the bench
        insp = UpgradeInspection(
            id=new_id(),
            submission_id=sub.id,
            inspector_id=ctx.principal.id,
            inspector_name=_inspector_name(ctx),
            started_at=now,
        )
        s.add(insp)
    photos = _staff_photos(s, sub, body.photos)
    why = [f"graded {graded}, declared {sub.condition}"] if graded != sub.condition else []
    if graded != suggested:
        why.append(f"inspector graded {graded} (checklist suggested {suggested})")
    why += reasons
    if body.notes:
        why.append(body.notes)
    insp.status, insp.checklist, insp.suggested_condition, insp.graded_condition = (
        "completed",
        checklist,
        suggested,
        graded,
    )
    insp.graded_cents, insp.reasons, insp.notes, insp.photos, insp.completed_at = (
        graded_cents,
        why,
        body.notes,
        photos,
        now,
    )
    sub.graded_condition = graded
    sub.currency = val.currency
    accepted = s.execute(
        select(UpgradeOffer)
        .where(UpgradeOffer.submission_id == sub.id, UpgradeOffer.status == "accepted")
        .order_by(UpgradeOffer.created_at.desc())
        .limit(1)
    ).scalar_one_or_none()
    agreed = accepted.amount_cents if accepted else graded_cents
    _touch(sub, ctx)
    s.flush()
    emit(
        ctx,
        "tradein.inspected",
        {
            "submission_id": sub.id,
            "declared_condition": sub.condition,
            "graded_condition": graded,
            "graded_value": _money(graded_cents),
            "currency": val.currency,
            "inspector": insp.inspector_name,
        },
    )
    revised: UpgradeOffer | None = None
    if graded_cents < agreed:
        expires = body.offer_expires_at or now + timedelta(days=REVISED_OFFER_DAYS)
        _check_expiry(expires, now)
        revised = UpgradeOffer(
            id=new_id(),
            submission_id=sub.id,
            kind="revised",
            amount_cents=graded_cents,
            currency=val.currency,
            notes=body.notes,
            reasons=why,
            photos=photos,
            expires_at=expires,
            status="pending",
            created_by=ctx.principal.id,
            created_at=now,
        )
        s.add(revised)
        s.flush()
        emit(
            ctx,
            "tradein.offer_revised",
            {
                "submission_id": sub.id,
                "offer_id": revised.id,
                "amount": _money(graded_cents),
                "previous_amount": _money(agreed),
                "currency": val.currency,
                "reasons": why,
                "expires_at": expires.isoformat(),
            },
        )
        outcome = "revised_offer"
    else:
        _issue_credit(s, ctx, sub, agreed, val.currency)
        outcome = "completed"
    return _detail(
        s,
        ctx,
        sub,
        ActionResult,
        outcome=outcome,  # type: ignore[return-value]
        revised_offer=_offer_out(revised, now) if revised else None,
    )
