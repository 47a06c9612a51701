"""Customer accounts of the modules that have them (trade-in customers, rewards dealers, warranty
customers): one sign-in check and one token for all.

The token is a JWT with the module's own audience (a customer token is never a staff session)
naming the tenant and the account's ``token_version``; signing out bumps the version, so every
token issued before stops working.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypeVar

import jwt

from local_db import Database
from services.core import auth
from services.core.context import Principal, TenantInfo
from services.core.errors import Forbidden, Unauthorized

A = TypeVar("A")


def check_password(account: A | None, password: str) -> A:
    """The account whose password this is, or 401 saying neither which part was wrong nor (by
    its timing: a missing account costs one hash check too) which e-mails exist."""
    if account is None:
        auth.verify_password(auth.DUMMY_HASH, password)
        raise Unauthorized("e-mail or password is not correct")
    if not auth.verify_password(getattr(account, "password_hash", ""), password):
        raise Unauthorized("e-mail or password is not correct")
    return account


def issue_token(secret: str, account: Any, audience: str, now: datetime) -> str:
    iat = int(now.timestamp())
    claims = {
        "sub": account.id,
        "tid": account.tenant_id,
        "ver": account.token_version,
        "email": account.email,
        "iat": iat,
        "exp": iat + auth.TOKEN_LIFETIME,
        "iss": auth.ISSUER,
        "aud": audience,
    }
    return jwt.encode(claims, secret, algorithm="HS256")


def session_account(
    db: Database,
    secret: str,
    tenant: TenantInfo,
    token: str,
    now: datetime,
    *,
    module: str,
    audience: str,
    model: type[A],
    not_enabled: str,
) -> tuple[Principal, A]:
    """The principal of a customer token (and its account), or 401/403."""
    try:
        claims = jwt.decode(
            token,
            secret,
            algorithms=["HS256"],
            audience=audience,
            issuer=auth.ISSUER,
            options={"require": ["sub", "tid", "ver", "exp", "iat"]},
        )
    except jwt.ExpiredSignatureError as exc:
        raise Unauthorized("session expired, sign in again") from exc
    except jwt.PyJWTError as exc:
        raise Unauthorized("invalid customer session") from exc
    if claims["exp"] <= int(now.timestamp()) or claims["tid"] != tenant.id:
        raise Unauthorized("invalid customer session")
    if module not in tenant.modules:
        raise Forbidden(not_enabled)
    with db.reading(tenant.id) as s:
        account: Any = s.get(model, claims["sub"])
    if account is None or account.token_version != claims["ver"]:
        raise Unauthorized("session ended, sign in again")
    principal = Principal(
        kind="customer",
        id=account.id,
        customer_module=module,
        email=account.email,
        name=account.name,
        modules=frozenset({module}),
    )
    return principal, account
