"""Trade-in customer accounts: argon2 passwords and the customer token.

The token is a JWT with its own audience (a customer token is never a staff
session) naming the tenant and the account's ``token_version``; logging out
bumps the version, so every token issued before stops working.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from local_db import Database, new_id
from local_db.models.upgrade import UpgradeCustomer, UpgradeSubmission
from services.core import auth, customers
from services.core.commands import use_case
from services.core.context import Ctx, Principal, TenantInfo
from services.core.errors import Conflict, Forbidden, NotFound
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
AUDIENCE = "upgrade-customer"
COOKIE = "upgrade_token"


def _out(c: UpgradeCustomer) -> CustomerOut:
    return CustomerOut(id=c.id, email=c.email, name=c.name, phone=c.phone, created_at=c.created_at)


def issue_token(secret: str, c: UpgradeCustomer, now: datetime) -> str:
    return customers.issue_token(secret, c, AUDIENCE, now)


def _session(ctx: Ctx, c: UpgradeCustomer) -> CustomerSession:
    now = ctx.now()
    return CustomerSession(
        **_out(c).model_dump(),
        token=issue_token(ctx.runtime.secret_key, c, now),
        expires_at=now + timedelta(seconds=auth.TOKEN_LIFETIME),
    )


def authenticate(db: Database, secret: str, tenant: TenantInfo, token: str, now: datetime) -> Principal:
    """The checker the module's manifest installs in ``CUSTOMER_AUTHENTICATORS["upgrade"]``."""
    principal, _ = customers.session_account(
        db,
        secret,
        tenant,
        token,
        now,
        module=MODULE,
        audience=AUDIENCE,
        model=UpgradeCustomer,
        not_enabled="the trade-in program is not enabled for this tenant",
    )
    return principal


def _module_enabled(ctx: Ctx) -> None:
    if ctx.tenant is None or MODULE not in ctx.tenant.modules:
        raise Forbidden("the trade-in program is not enabled for this tenant")


@use_case(
    "upgrade.auth.register",
    "POST /auth/register",
    tx="write",
    auth="public",
    status=201,
    limit="auth",
    cookie="upgrade_token",
    summary="register a trade-in customer account",
)
def register(ctx: Ctx, body: RegisterRequest) -> CustomerSession:
    _module_enabled(ctx)
    now = ctx.now()
    with ctx.write() as s:
        if s.execute(select(UpgradeCustomer.id).where(UpgradeCustomer.email == body.email)).first():
            raise Conflict("an account with this e-mail already exists; sign in instead", {"email": body.email})
        c = UpgradeCustomer(
            id=new_id(),
            email=body.email,
            name=body.name,
            phone=body.phone,
            password_hash=auth.hash_password(body.password),
            address={},
            token_version=0,
            created_at=now,
            updated_at=now,
        )
        s.add(c)
        s.flush()
        return _session(ctx, c)


@use_case(
    "upgrade.auth.login",
    "POST /auth/login",
    tx="own",
    auth="public",
    limit="auth",
    cookie="upgrade_token",
    summary="customer sign-in; sets the upgrade_token cookie and returns the token",
)
def login(ctx: Ctx, body: CustomerLogin) -> CustomerSession:
    _module_enabled(ctx)
    with ctx.read() as s:
        c = s.execute(select(UpgradeCustomer).where(UpgradeCustomer.email == body.email)).scalar_one_or_none()
    return _session(ctx, customers.check_password(c, body.password))


def _me(s: Session, ctx: Ctx) -> UpgradeCustomer:
    c = s.get(UpgradeCustomer, ctx.principal.id)
    if c is None:
        raise NotFound("customer not found")
    return c


@use_case(
    "upgrade.auth.logout",
    "POST /auth/logout",
    tx="write",
    auth="customer",
    clears_cookie="upgrade_token",
    summary="customer sign-out (ends every session)",
)
def logout(ctx: Ctx) -> None:
    with ctx.write() as s:
        c = _me(s, ctx)
        c.token_version += 1
        c.updated_at = ctx.now()


@use_case("upgrade.auth.me", "GET /auth/me", tx="read", auth="customer", summary="the signed-in customer")
def me(ctx: Ctx) -> CustomerOut:
    with ctx.read() as s:
        return _out(_me(s, ctx))


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
