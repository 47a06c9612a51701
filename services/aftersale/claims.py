"""Aftersale: claims."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.aftersale import AftersaleClaim, AftersaleFile, AftersaleWarranty
from services.aftersale import states
from services.aftersale.lookups import _is_customer, _status, _warranty
from services.aftersale.schemas import (
    ClaimAction,
    ClaimIn,
    ClaimOut,
    ClaimQuery,
)
from services.core.commands import SESSION, record_kind, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound, ValidationFailed
from services.core.events import emit
from services.core.pagination import Listing, Page, contains
from services.core.storage import IMAGE_TYPES

record_kind("aftersale.claim", get="aftersale.claims.get", label="serial_number")


def _claim_out(c: AftersaleClaim, w: AftersaleWarranty) -> ClaimOut:
    return ClaimOut(
        id=c.id,
        warranty_id=c.warranty_id,
        serial_number=w.serial_number,
        product_sku=w.product_sku,
        email=c.email,
        description=c.description,
        status=c.status,  # type: ignore[arg-type]
        resolution=c.resolution,
        created_at=c.created_at,
        updated_at=c.updated_at,
        photos=list(c.photos or []),
    )


@use_case(
    "aftersale.claims.create",
    "POST /claims",
    tx="write",
    auth="customer",
    status=201,
    says="Claim",
    record="aftersale.claim",
    summary="file a claim on a covered warranty",
)
def create_claim(ctx: Ctx, body: ClaimIn, session: Session = SESSION) -> ClaimOut:
    now = ctx.now()
    w = _warranty(ctx, session, body.warranty_id)
    status = _status(w, now.date())
    if status != "active":
        raise Conflict(
            f"this warranty is {status}: coverage ended {w.coverage_until}",
            {"status": status, "coverage_until": str(w.coverage_until)},
        )
    open_claim = session.execute(
        select(AftersaleClaim.id).where(AftersaleClaim.warranty_id == w.id, AftersaleClaim.status.in_(states.OPEN))
    ).first()
    if open_claim is not None:
        raise Conflict("this warranty has an open claim", {"claim_id": open_claim[0]})
    photos = list(dict.fromkeys(body.photos))
    if photos:
        found = set(
            session.execute(
                select(AftersaleFile.id).where(
                    AftersaleFile.id.in_(photos), AftersaleFile.content_type.in_(sorted(IMAGE_TYPES))
                )
            ).scalars()
        )
        missing = [p for p in photos if p not in found]
        if missing:
            raise ValidationFailed("unknown photos (upload them first with POST photos)", {"photos": missing})
    c = AftersaleClaim(
        id=new_id(),
        photos=photos,
        warranty_id=w.id,
        customer_id=ctx.principal.id,
        email=w.email,
        description=body.description,
        status="open",
        created_at=now,
        updated_at=now,
    )
    session.add(c)
    session.flush()
    emit(ctx, "claim.submitted", {"claim_id": c.id, "warranty_id": w.id, "serial_number": w.serial_number})
    return _claim_out(c, w)


CLAIMS = Listing(
    AftersaleClaim,
    filters={"status": AftersaleClaim.status, "warranty_id": AftersaleClaim.warranty_id},
    # The claim's words, or its warranty's serial number.
    search=(
        AftersaleClaim.description,
        AftersaleClaim.email,
        lambda term: AftersaleClaim.warranty_id.in_(
            select(AftersaleWarranty.id).where(contains(AftersaleWarranty.serial_number, term))
        ),
    ),
    sort={"created_at": AftersaleClaim.created_at},
)


@use_case(
    "aftersale.claims.list",
    "GET /claims",
    tx="read",
    auth="customer",
    staff_too=True,
    summary="claims: a customer's own, or the tenant's for staff (status=, warranty_id=)",
)
def list_claims(ctx: Ctx, query: ClaimQuery, session: Session = SESSION) -> Page[ClaimOut]:
    stmt = CLAIMS.select(query)
    if _is_customer(ctx):
        stmt = stmt.where(AftersaleClaim.email == ctx.principal.email)
    page = CLAIMS.page(session, query, stmt=stmt)
    ids = {c.warranty_id for c in page.items}
    ws = {w.id: w for w in session.execute(select(AftersaleWarranty).where(AftersaleWarranty.id.in_(ids))).scalars()}
    return page.map(lambda c: _claim_out(c, ws[c.warranty_id]))


def _claim(ctx: Ctx, s: Session, id: str) -> tuple[AftersaleClaim, AftersaleWarranty]:
    c = s.get(AftersaleClaim, id)
    if c is None or (_is_customer(ctx) and c.email != ctx.principal.email):
        raise NotFound("claim not found", {"id": id})
    w = s.get(AftersaleWarranty, c.warranty_id)
    assert w is not None
    return c, w


@use_case("aftersale.claims.get", "GET /claims/{id}", tx="read", auth="customer", staff_too=True, summary="one claim")
def get_claim(ctx: Ctx, id: str, session: Session = SESSION) -> ClaimOut:
    return _claim_out(*_claim(ctx, session, id))


@use_case(
    "aftersale.claims.act",
    "POST /claims/{id}",
    tx="write",
    auth="customer",
    staff_too=True,
    says="{action} claim",
    record="aftersale.claim",
    summary="staff start, close (with a resolution) or cancel a claim; a customer cancels their open claim",
    moves=states.CLAIM.moves("start", "close", "cancel", field="action"),
)
def act_on_claim(ctx: Ctx, id: str, body: ClaimAction, session: Session = SESSION) -> ClaimOut:
    if body.action == "close" and not body.resolution:
        raise ValidationFailed("closing a claim needs a resolution", {"resolution": "required"})
    actor = states.actor(ctx)
    c, w = _claim(ctx, session, id)
    t = states.CLAIM.apply(ctx, c, body.action, actor)
    if body.resolution is not None:
        c.resolution = body.resolution
    if actor == states.STAFF:
        c.handled_by = ctx.principal.id
    c.updated_at = ctx.now()
    session.flush()
    emit(ctx, t.emits or "", {"claim_id": c.id, "warranty_id": w.id, "status": c.status})
    return _claim_out(c, w)
