"""Trade-in customer accounts (the shared customer accounts of ``services.core.customers``),
their profile, and the staff list of them."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from local_db.models.upgrade import UpgradeCustomer, UpgradeSubmission
from services.core import customers
from services.core.commands import SESSION, use_case
from services.core.context import Ctx
from services.core.pagination import ListQuery, Page, contains, paginate
from services.upgrade.schemas import (
    Address,
    AdminCustomerOut,
    CustomerLogin,
    CustomerOut,
    CustomerSession,
    ProfileOut,
    ProfileUpdate,
    RegisterRequest,
)

MODULE = "upgrade"
COOKIE = "upgrade_token"
ACCOUNTS = customers.Accounts(
    module=MODULE,
    audience="upgrade-customer",
    cookie=COOKIE,
    model=UpgradeCustomer,
    not_enabled="the trade-in program is not enabled for this tenant",
)
authenticate = ACCOUNTS.authenticate


def _out(c: UpgradeCustomer) -> CustomerOut:
    return CustomerOut(id=c.id, email=c.email, name=c.name, phone=c.phone, created_at=c.created_at)


@use_case(
    "upgrade.auth.register",
    "POST /auth/register",
    tx="write",
    auth="public",
    status=201,
    limit="auth",
    cookie=COOKIE,
    summary="register a trade-in customer account",
)
def register(ctx: Ctx, body: RegisterRequest, session: Session = SESSION) -> CustomerSession:
    ACCOUNTS.enabled(ctx)
    c = ACCOUNTS.create(
        ctx,
        session,
        email=body.email,
        password=body.password,
        exists="an account with this e-mail already exists; sign in instead",
        name=body.name,
        phone=body.phone,
        address={},
    )
    return ACCOUNTS.session(ctx, c, CustomerSession, _out(c))


@use_case(
    "upgrade.auth.login",
    "POST /auth/login",
    tx="own",
    auth="public",
    limit="auth",
    cookie=COOKIE,
    summary="customer sign-in; sets the upgrade_token cookie and returns the token",
)
def login(ctx: Ctx, body: CustomerLogin) -> CustomerSession:
    c = ACCOUNTS.sign_in(ctx, body.email, body.password)
    return ACCOUNTS.session(ctx, c, CustomerSession, _out(c))


def _me(s: Session, ctx: Ctx) -> UpgradeCustomer:
    return ACCOUNTS.current(s, ctx)


@use_case(
    "upgrade.auth.logout",
    "POST /auth/logout",
    tx="write",
    auth="customer",
    clears_cookie=COOKIE,
    summary="customer sign-out (ends every session)",
)
def logout(ctx: Ctx, session: Session = SESSION) -> None:
    ACCOUNTS.sign_out(session, ctx)


@use_case("upgrade.auth.me", "GET /auth/me", tx="read", auth="customer", summary="the signed-in customer")
def me(ctx: Ctx, session: Session = SESSION) -> CustomerOut:
    return _out(_me(session, ctx))


def _profile(c: UpgradeCustomer) -> ProfileOut:
    return ProfileOut(**_out(c).model_dump(), address=Address.model_validate(c.address or {}))


@use_case("upgrade.profile.get", "GET /profile", tx="read", auth="customer", summary="read the customer profile")
def get_profile(ctx: Ctx) -> ProfileOut:
    with ctx.read() as s:
        return _profile(_me(s, ctx))


@use_case("upgrade.profile.update", "PUT /profile", tx="write", auth="customer", summary="update the customer profile")
def update_profile(ctx: Ctx, body: ProfileUpdate) -> ProfileOut:
    with ctx.write() as s:
        c = _me(s, ctx)
        if body.name is not None:
            c.name = body.name
        if "phone" in body.model_fields_set:
            c.phone = body.phone or None
        if body.address is not None:
            c.address = body.address.model_dump()
        c.updated_at = ctx.now()
        s.flush()
        return _profile(c)


@use_case("upgrade.admin.customers", "GET /admin/customers", tx="read", summary="list customers")
def list_customers(ctx: Ctx, query: ListQuery) -> Page[AdminCustomerOut]:
    stmt = select(UpgradeCustomer)
    if query.search:
        stmt = stmt.where(contains(UpgradeCustomer.email, query.search) | contains(UpgradeCustomer.name, query.search))
    with ctx.read() as s:
        page = paginate(
            s,
            stmt,
            query,
            columns={
                "created_at": UpgradeCustomer.created_at,
                "email": UpgradeCustomer.email,
                "name": UpgradeCustomer.name,
            },
        )
        ids = [c.id for c in page.items]
        counts = dict(
            s.execute(
                select(UpgradeSubmission.customer_id, func.count())
                .where(UpgradeSubmission.customer_id.in_(ids))
                .group_by(UpgradeSubmission.customer_id)
            ).all()
        )
    return page.map(lambda c: AdminCustomerOut(**_out(c).model_dump(), submissions=counts.get(c.id, 0)))


# Customer tokens of this module are checked here (api.auth, services.core.auth).
