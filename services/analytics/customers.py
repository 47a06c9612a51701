"""Analytics: customers."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db.models.analytics import CustomerProfile
from services.analytics import schemas as sc
from services.analytics.lookups import _get
from services.core.commands import SESSION, record_kind, use_case
from services.core.context import Ctx
from services.core.errors import ValidationFailed
from services.core.pagination import Page, contains, paginate
from services.core.roles import STAFF

record_kind("analytics.customer", get="analytics.customers.get", label="email")


def _customer_out(c: CustomerProfile, status: int | None = None) -> sc.CustomerOut:
    out = sc.CustomerOut(
        id=c.id,
        email=c.email,
        external_id=c.external_id,
        attributes=c.attributes,
        created_at=c.created_at,
        updated_at=c.updated_at,
    )
    out._http_status = status
    return out


@use_case("analytics.customers.list", "GET /customers", tx="read", roles=STAFF, record="analytics.customer")
def list_customers(ctx: Ctx, query: sc.CustomerQuery, session: Session = SESSION) -> Page[sc.CustomerOut]:
    stmt = select(CustomerProfile)
    if query.search:
        stmt = stmt.where(
            contains(CustomerProfile.email, query.search) | contains(CustomerProfile.external_id, query.search)
        )
    page = paginate(
        session, stmt, query, columns={"created_at": CustomerProfile.created_at, "email": CustomerProfile.email}
    )
    return page.map(_customer_out)


@use_case("analytics.customers.get", "GET /customers/{id}", tx="read", roles=STAFF, record="analytics.customer")
def get_customer(ctx: Ctx, id: str, session: Session = SESSION) -> sc.CustomerOut:
    return _customer_out(_get(session, CustomerProfile, id, "customer"))


@use_case(
    "analytics.customers.upsert",
    "POST /customers",
    tx="write",
    roles=STAFF,
    status=201,
    says="Customer profile",
    record="analytics.customer",
    summary="upsert a profile by email or external_id: set overwrites, set_once fills what is missing"
    " (201 made, 200 updated)",
)
def upsert_customer(ctx: Ctx, body: sc.CustomerIn, session: Session = SESSION) -> sc.CustomerOut:
    now = ctx.now()
    key = body.email.strip().lower() if body.email else None
    by_email = session.scalar(select(CustomerProfile).where(CustomerProfile.email_key == key)) if key else None
    by_ext = (
        session.scalar(select(CustomerProfile).where(CustomerProfile.external_id == body.external_id))
        if body.external_id
        else None
    )
    if by_email is not None and by_ext is not None and by_email.id != by_ext.id:
        # Two known people: never merged by an upsert (PostHog's identify safeguard).
        raise ValidationFailed(
            "email and external_id belong to two profiles", {"email": body.email, "external_id": body.external_id}
        )
    c = by_email or by_ext
    made = c is None
    if c is None:
        c = CustomerProfile(attributes={}, created_at=now)
        session.add(c)
    if key and not c.email_key:
        c.email, c.email_key = body.email, key
    if body.external_id and not c.external_id:
        c.external_id = body.external_id
    attrs = dict(c.attributes or {})
    for k, v in body.set_once.items():
        attrs.setdefault(k, v)
    attrs.update(body.set)
    c.attributes, c.updated_at = attrs, now
    session.flush()
    return _customer_out(c, 201 if made else 200)
