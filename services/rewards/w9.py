"""Rewards: w9."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.rewards import (
    RewardsDealer,
    RewardsW9,
)
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound, ValidationFailed
from services.core.pagination import Page, contains, paginate
from services.core.roles import MANAGERS, STAFF
from services.core.sealing import seal
from services.rewards import points as ledger
from services.rewards import states, tin
from services.rewards.lookups import _latest_w9, ytd_value_cents
from services.rewards.schemas import (
    AdminW9Out,
    W9Decide,
    W9Form,
    W9In,
    W9Out,
    W9Query,
    money,
)

record_kind("rewards.w9", get="rewards.admin.w9.get", label="name")


def _form(w: RewardsW9) -> W9Form:
    return W9Form(
        id=w.id,
        name=w.name,
        business_name=w.business_name,
        tax_classification=w.tax_classification,
        address=w.address,
        city=w.city,
        state=w.state,
        zip=w.zip,
        tin_type=w.tin_type,
        tin_masked=tin.masked(w.tin_last4, w.tin_type),
        status=w.status,  # type: ignore[arg-type]
        reject_reason=w.reject_reason,
        certified_at=w.certified_at,
    )


def _w9_status(s: Session, ctx: Ctx, dealer_id: str) -> W9Out:
    now = ctx.now()
    cfg = ledger.settings(s, ctx.tenant_id)
    ytd = ytd_value_cents(s, dealer_id, now)
    threshold = int(cfg.w9_threshold * 100)
    w = _latest_w9(s, dealer_id)
    status = w.status if w is not None else ("required" if ytd >= threshold else "not_required")
    return W9Out(
        status=status,  # type: ignore[arg-type]
        threshold=money(threshold),
        ytd_value=money(ytd),
        year=now.year,
        form=_form(w) if w else None,
    )


@use_case("rewards.w9.get", "GET /tax/w9", tx="read", auth="customer", summary="the dealer's W-9 status")
def get_w9(ctx: Ctx) -> W9Out:
    with ctx.read() as s:
        return _w9_status(s, ctx, ctx.principal.id)


@use_case(
    "rewards.w9.submit",
    "POST /tax/w9",
    tx="write",
    auth="customer",
    status=201,
    online=True,
    summary="submit a W-9 (the TIN is checked, sealed, and shown masked from then on)",
)
def submit_w9(ctx: Ctx, body: W9In) -> W9Out:
    try:
        digits = tin.normalise(body.tin, body.tin_type)
    except ValueError as exc:
        raise ValidationFailed(str(exc), {"tin": str(exc)}) from exc
    now = ctx.now()
    with ctx.write() as s:
        w = _latest_w9(s, ctx.principal.id)
        if w is not None and w.status in ("submitted", "verified"):
            raise Conflict(f"a W-9 is {w.status} already", {"status": w.status, "w9_id": w.id})
        s.add(
            RewardsW9(
                id=new_id(),
                dealer_id=ctx.principal.id,
                status="submitted",
                name=body.name,
                business_name=body.business_name,
                tax_classification=body.tax_classification,
                exempt_payee_code=body.exempt_payee_code,
                fatca_code=body.fatca_code,
                address=body.address,
                city=body.city,
                state=body.state,
                zip=body.zip,
                tin_type=body.tin_type,
                tin_sealed=seal(ctx.runtime.secret_key, digits),
                tin_last4=digits[-4:],
                certified_at=now,
                created_at=now,
                updated_at=now,
            )
        )
        s.flush()
        return _w9_status(s, ctx, ctx.principal.id)


def _admin_w9(w: RewardsW9, dealer: str) -> AdminW9Out:
    return AdminW9Out(**_form(w).model_dump(), dealer_id=w.dealer_id, dealer_name=dealer)


@use_case("rewards.admin.w9.list", "GET /admin/w9", tx="read", roles=STAFF, summary="dealers' W-9 forms (masked)")
def list_w9(ctx: Ctx, query: W9Query) -> Page[AdminW9Out]:
    stmt = select(RewardsW9)
    if query.status:
        stmt = stmt.where(RewardsW9.status == query.status)
    if query.search:
        stmt = stmt.where(contains(RewardsW9.name, query.search) | contains(RewardsW9.business_name, query.search))
    with ctx.read() as s:
        page = paginate(s, stmt, query, columns={"created_at": RewardsW9.created_at})
        names = dict(
            s.execute(
                select(RewardsDealer.id, RewardsDealer.company).where(
                    RewardsDealer.id.in_({w.dealer_id for w in page.items})
                )
            ).all()
        )
    return page.map(lambda w: _admin_w9(w, names.get(w.dealer_id, "")))


@use_case("rewards.admin.w9.get", "GET /admin/w9/{id}", tx="read", roles=STAFF, summary="one W-9 (masked)")
def get_w9_form(ctx: Ctx, id: str) -> AdminW9Out:
    with ctx.read() as s:
        w = s.get(RewardsW9, id)
        if w is None:
            raise NotFound("W-9 not found", {"id": id})
        d = s.get(RewardsDealer, w.dealer_id)
        return _admin_w9(w, d.company if d else "")


@use_case(
    "rewards.admin.w9.decide",
    "POST /admin/w9/{id}",
    tx="write",
    roles=MANAGERS,
    says="{action} W-9",
    record="rewards.w9",
    summary="verify or reject a W-9 (a rejected dealer submits a new one)",
)
def decide_w9(ctx: Ctx, id: str, body: W9Decide) -> AdminW9Out:
    if body.action == "reject" and not body.reason:
        raise ValidationFailed("a rejection needs a reason", {"reason": "required"})
    with ctx.write() as s:
        w = s.get(RewardsW9, id)
        if w is None:
            raise NotFound("W-9 not found", {"id": id})
        w.status = states.W9.check(w.status, body.action, states.STAFF)
        w.reject_reason = body.reason if body.action == "reject" else None
        w.updated_at = ctx.now()
        s.flush()
        d = s.get(RewardsDealer, w.dealer_id)
        return _admin_w9(w, d.company if d else "")
