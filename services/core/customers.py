"""Customer accounts of the modules that have them (trade-in customers, rewards dealers, warranty
customers): one sign-in check and one token for all.

The token is a JWT with the module's own audience (a customer token is never a staff session)
naming the tenant and the account's ``token_version``; signing out bumps the version, so every
token issued before stops working.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Generic, TypeVar

import jwt
from pydantic import BaseModel
from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db import Database, new_id
from services.core import auth
from services.core.context import Ctx, Principal, TenantInfo
from services.core.errors import Conflict, Forbidden, NotFound, Unauthorized

A = TypeVar("A")
S = TypeVar("S", bound=BaseModel)


def check_password(account: A | None, password: str) -> A:
    """The account whose password this is, or 401 saying neither which part was wrong nor (by
    its timing: a missing account costs one hash check too) which e-mails exist."""
    if account is None:
        auth.verify_password(auth.dummy_hash(), password)
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


# Claims of tokens whose signature this process has checked, by (secret, audience, token): a portal
# page sends the same token on every visit, and PyJWT's decode (parse, HMAC, claim checks) was a
# tenth of a signed-in page's CPU (issue 33). A token's bytes cannot change, so a signature that
# was good stays good for that secret; the expiry is checked on every visit below, and the
# account's token_version (signing out, suspension) is read on every visit as before.
_CLAIMS: dict[tuple[str, str, str], dict[str, Any]] = {}
_CLAIMS_MAX = 10_000  # tokens come from visitors: past this the cache starts over


def _claims(secret: str, audience: str, token: str) -> dict[str, Any]:
    key = (secret, audience, token)
    claims = _CLAIMS.get(key)
    if claims is not None:
        return claims
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
    if len(_CLAIMS) >= _CLAIMS_MAX:
        _CLAIMS.clear()
    _CLAIMS[key] = claims  # only good signatures: a bad token is checked (and refused) every time
    return claims


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
    claims = _claims(secret, audience, token)
    if claims["exp"] <= int(now.timestamp()):
        # A token decoded (and kept) before it expired says the same as PyJWT's own refusal.
        raise Unauthorized("session expired, sign in again")
    if claims["tid"] != tenant.id:
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


@dataclass(frozen=True)
class Accounts(Generic[A]):
    """One module's customer accounts (trade-in customers, rewards dealers, warranty customers):
    the module names its table, audience and cookie; registering, signing in and out, the current
    account and the token check are the same for all, so a fix here reaches every portal.

    ``active`` refuses an account that may not sign in (a dealer not yet approved) with its own
    403; it is asked at sign-in and on every token check, so a suspension ends sessions at once.
    """

    module: str
    audience: str
    cookie: str
    model: type[A]
    not_enabled: str
    active: Callable[[A, bool], None] | None = None

    def enabled(self, ctx: Ctx) -> None:
        if ctx.tenant is None or self.module not in ctx.tenant.modules:
            raise Forbidden(self.not_enabled)

    def authenticate(self, db: Database, secret: str, tenant: TenantInfo, token: str, now: datetime) -> Principal:
        """The checker the module's manifest installs in ``CUSTOMER_AUTHENTICATORS[module]``."""
        return self.authenticate_account(db, secret, tenant, token, now)[0]

    def authenticate_account(
        self, db: Database, secret: str, tenant: TenantInfo, token: str, now: datetime
    ) -> tuple[Principal, A]:
        """As ``authenticate``, with the account row it read (a portal page shows from it)."""
        principal, account = session_account(
            db,
            secret,
            tenant,
            token,
            now,
            module=self.module,
            audience=self.audience,
            model=self.model,
            not_enabled=self.not_enabled,
        )
        if self.active is not None:
            self.active(account, False)
        return principal, account

    def session(self, ctx: Ctx, account: A, out: type[S], fields: BaseModel) -> S:
        """The answer of a sign-in or registration: the account's public fields, a token and its end."""
        now = ctx.now()
        return out(
            **fields.model_dump(),
            token=issue_token(ctx.runtime.secret_key, account, self.audience, now),
            expires_at=now + timedelta(seconds=auth.TOKEN_LIFETIME),
        )

    def by_email(self, s: Session, email: str) -> A | None:
        column = self.model.email  # type: ignore[attr-defined]
        return s.execute(select(self.model).where(column == email)).scalar_one_or_none()

    def create(self, ctx: Ctx, s: Session, *, email: str, password: str, exists: str, **fields: Any) -> A:
        """A new account (409 when the e-mail has one already: ``exists`` says what to do instead)."""
        column = self.model.email  # type: ignore[attr-defined]
        if s.execute(select(column).where(column == email)).first():
            raise Conflict(exists, {"email": email})
        now = ctx.now()
        make: Any = self.model  # each module's own table; the columns named here are common to all
        account: A = make(
            id=new_id(),
            email=email,
            password_hash=auth.hash_password(password),
            token_version=0,
            created_at=now,
            updated_at=now,
            **fields,
        )
        s.add(account)
        s.flush()
        return account

    def sign_in(self, ctx: Ctx, email: str, password: str) -> A:
        """The account these credentials open (401 alike for a wrong e-mail or password)."""
        self.enabled(ctx)
        with ctx.read() as s:
            found = self.by_email(s, email)
        account = check_password(found, password)
        if self.active is not None:
            self.active(account, True)
        return account

    def current(self, s: Session, ctx: Ctx) -> A:
        """The signed-in account (404 when it was removed meanwhile)."""
        account = s.get(self.model, ctx.principal.id)
        if account is None:
            raise NotFound("customer not found")
        return account

    def sign_out(self, s: Session, ctx: Ctx) -> None:
        """Ends every session of the account: tokens name the version they were issued for."""
        account: Any = self.current(s, ctx)
        account.token_version += 1
        account.updated_at = ctx.now()
