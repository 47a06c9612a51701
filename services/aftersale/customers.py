"""Aftersale: customers."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db import Database, new_id
from local_db.models.aftersale import AftersaleCustomer
from services.aftersale.lookups import MODULE, _enabled
from services.aftersale.schemas import (
    CustomerOut,
    CustomerSession,
    LoginIn,
    RegisterIn,
)
from services.core import auth, customers
from services.core.commands import SESSION, use_case
from services.core.context import Ctx, Principal, TenantInfo
from services.core.errors import Conflict, NotFound

AUDIENCE = "aftersale-customer"


COOKIE = "aftersale_token"


def _customer_out(c: AftersaleCustomer) -> CustomerOut:
    return CustomerOut.model_validate(c)


def _session(ctx: Ctx, c: AftersaleCustomer) -> CustomerSession:
    now = ctx.now()
    return CustomerSession(
        **_customer_out(c).model_dump(),
        token=customers.issue_token(ctx.runtime.secret_key, c, AUDIENCE, now),
        expires_at=now + timedelta(seconds=auth.TOKEN_LIFETIME),
    )


def authenticate(db: Database, secret: str, tenant: TenantInfo, token: str, now: datetime) -> Principal:
    """The checker the module's manifest installs in ``CUSTOMER_AUTHENTICATORS["aftersale"]``."""
    principal, _ = customers.session_account(
        db,
        secret,
        tenant,
        token,
        now,
        module=MODULE,
        audience=AUDIENCE,
        model=AftersaleCustomer,
        not_enabled="aftersale is not enabled for this tenant",
    )
    return principal


@use_case(
    "aftersale.auth.register",
    "POST /auth/register",
    tx="write",
    auth="public",
    status=201,
    limit="auth",
    online=True,
    cookie=COOKIE,
    summary="create a customer account; sets the aftersale_token cookie and returns the token",
)
def register(ctx: Ctx, body: RegisterIn, session: Session = SESSION) -> CustomerSession:
    _enabled(ctx)
    now = ctx.now()
    if session.execute(select(AftersaleCustomer.id).where(AftersaleCustomer.email == body.email)).first():
        raise Conflict("an account with this e-mail already exists; sign in instead", {"email": body.email})
    c = AftersaleCustomer(
        id=new_id(),
        email=body.email,
        name=body.name,
        phone=body.phone,
        password_hash=auth.hash_password(body.password),
        token_version=0,
        created_at=now,
        updated_at=now,
    )
    session.add(c)
    session.flush()
    return _session(ctx, c)


@use_case(
    "aftersale.auth.login",
    "POST /auth/login",
    tx="own",
    auth="public",
    limit="auth",
    cookie=COOKIE,
    summary="customer sign-in; sets the aftersale_token cookie and returns the token",
)
def login(ctx: Ctx, body: LoginIn) -> CustomerSession:
    _enabled(ctx)
    with ctx.read() as s:
        c = s.execute(select(AftersaleCustomer).where(AftersaleCustomer.email == body.email)).scalar_one_or_none()
    return _session(ctx, customers.check_password(c, body.password))


def _me(s: Session, ctx: Ctx) -> AftersaleCustomer:
    c = s.get(AftersaleCustomer, ctx.principal.id)
    if c is None:
        raise NotFound("customer not found")
    return c


@use_case(
    "aftersale.auth.logout",
    "POST /auth/logout",
    tx="write",
    auth="customer",
    clears_cookie=COOKIE,
    summary="customer sign-out (ends every session)",
)
def logout(ctx: Ctx, session: Session = SESSION) -> None:
    c = _me(session, ctx)
    c.token_version += 1
    c.updated_at = ctx.now()


@use_case("aftersale.auth.me", "GET /auth/me", tx="read", auth="customer", summary="the signed-in customer")
def me(ctx: Ctx, session: Session = SESSION) -> CustomerOut:
    return _customer_out(_me(session, ctx))
