"""Fulfillment device sign-in and sign-out."""

from __future__ import annotations

from datetime import timedelta

from services.core import auth
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import Forbidden, Unauthorized
from services.core.schemas import LoginOut, TenantMembership
from services.fulfillment.schemas import (
    DeviceLogin,
)

# --- device sign-in ----------------------------------------------------------------


@use_case(
    "fulfillment.auth.login",
    "POST /auth/login",
    tx="own",
    auth="public",
    limit="auth",
    cookie="service_token",
    summary="device sign-in",
)
def device_login(ctx: Ctx, body: DeviceLogin) -> LoginOut:
    """Sign a scanning station in to this tenant: the platform's token, checked for fulfillment access."""
    assert ctx.tenant is not None
    user = auth.authenticate_password(ctx.db, body.email, body.password)
    try:
        principal = auth.user_principal(ctx.db, user.id, ctx.tenant)
    except Forbidden:
        # Right password, other tenant: same answer as a wrong one.
        raise Unauthorized("e-mail or password is not correct") from None
    if "fulfillment" not in principal.modules:
        raise Forbidden("this account has no access to fulfillment", {"role": principal.role})
    now = ctx.now()
    tenants = auth.memberships_claim(ctx.db, user.id)
    return LoginOut(
        id=user.id,
        email=user.email,
        name=user.name,
        tenants=[TenantMembership(**t) for t in tenants],
        token=auth.issue_token(ctx.runtime.secret_key, user, tenants, now),
        expires_at=now + timedelta(seconds=auth.TOKEN_LIFETIME),
    )


@use_case(
    "fulfillment.auth.logout",
    "POST /auth/logout",
    tx="own",
    auth="public",
    clears_cookie="service_token",
    headers=("authorization", "cookie"),
    summary="device sign-out",
)
def device_logout(ctx: Ctx, headers: dict[str, str | None]) -> None:
    """Sign out: the session the device holds (bearer token or cookie) ends on the platform at once;
    the HTTP door clears the cookie."""
    token = auth.session_token_of(headers)
    if token:
        auth.revoke_session(ctx.db, ctx.runtime.secret_key, token, ctx.now())
