"""Aftersale: warranty customers' accounts (the shared customer accounts of ``services.core.customers``)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from local_db.models.aftersale import AftersaleCustomer
from services.aftersale.lookups import MODULE
from services.aftersale.schemas import (
    CustomerOut,
    CustomerSession,
    LoginIn,
    RegisterIn,
)
from services.core import customers
from services.core.commands import SESSION, use_case
from services.core.context import Ctx

COOKIE = "aftersale_token"
ACCOUNTS = customers.Accounts(
    module=MODULE,
    audience="aftersale-customer",
    cookie=COOKIE,
    model=AftersaleCustomer,
    not_enabled="aftersale is not enabled for this tenant",
)
authenticate = ACCOUNTS.authenticate


def _customer_out(c: AftersaleCustomer) -> CustomerOut:
    return CustomerOut.model_validate(c)


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
    ACCOUNTS.enabled(ctx)
    c = ACCOUNTS.create(
        ctx,
        session,
        email=body.email,
        password=body.password,
        exists="an account with this e-mail already exists; sign in instead",
        name=body.name,
        phone=body.phone,
    )
    return ACCOUNTS.session(ctx, c, CustomerSession, _customer_out(c))


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
    c = ACCOUNTS.sign_in(ctx, body.email, body.password)
    return ACCOUNTS.session(ctx, c, CustomerSession, _customer_out(c))


@use_case(
    "aftersale.auth.logout",
    "POST /auth/logout",
    tx="write",
    auth="customer",
    clears_cookie=COOKIE,
    summary="customer sign-out (ends every session)",
)
def logout(ctx: Ctx, session: Session = SESSION) -> None:
    ACCOUNTS.sign_out(session, ctx)


@use_case("aftersale.auth.me", "GET /auth/me", tx="read", auth="customer", summary="the signed-in customer")
def me(ctx: Ctx, session: Session = SESSION) -> CustomerOut:
    return _customer_out(ACCOUNTS.current(session, ctx))
