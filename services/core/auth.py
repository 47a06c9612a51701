"""Credentials: argon2 passwords, the session JWT, API keys.

API keys carry 32 random bytes, so a SHA-256 of the whole key is a safe,
fast lookup hash (a slow password hash would cost ~50 ms per request); the
key itself is never stored or logged.
"""

from __future__ import annotations

import hmac
import secrets
import time
from datetime import datetime, timedelta
from typing import Any

import jwt
from sqlalchemy import bindparam, select, update

from local_db import Database
from local_db.base import new_id, table_of
from local_db.models import ApiKey, Membership, Tenant, User
from local_db.models.core import RevokedSession
from services.core.authcache import Resolver
from services.core.context import Principal, TenantInfo
from services.core.errors import Forbidden, NotFound, Unauthorized
from services.core.passwords import dummy_hash, hash_password, verify_password  # noqa: F401 - auth's API
from services.core.signing import token_hash

ISSUER = "platform"
AUDIENCE = "platform-api"
TOKEN_LIFETIME = 86400
COOKIE_NAME = "service_token"


def tenant_info(t: Tenant) -> TenantInfo:
    return TenantInfo(t.id, t.slug, t.name, frozenset(t.modules), t.status)


def memberships_claim(db: Database, user_id: str) -> list[dict[str, Any]]:
    with db.reading(None) as s:
        rows = s.execute(
            select(Membership, Tenant)
            .join(Tenant, Tenant.id == Membership.tenant_id)
            .where(Membership.user_id == user_id)
            .order_by(Tenant.slug)
        ).all()
    return [
        {
            "id": t.id,
            "slug": t.slug,
            "name": t.name,
            "role": m.role,
            "modules": list(t.modules),
            "userModules": list(m.user_modules),
        }
        for m, t in rows
    ]


def authenticate_password(db: Database, email: str, password: str) -> User:
    """The user for these credentials, or 401 without saying which part was wrong."""
    with db.reading(None) as s:
        user = s.execute(select(User).where(User.email == email.strip().lower())).scalar_one_or_none()
    if user is None:
        verify_password(dummy_hash(), password)
        raise Unauthorized("e-mail or password is not correct")
    if not verify_password(user.password_hash, password) or user.disabled:
        raise Unauthorized("e-mail or password is not correct")
    return user


def active_user(db: Database, user_id: str) -> User:
    """The user by id, or 401 when gone or disabled (a session made for them would be refused)."""
    with db.reading(None) as s:
        user = s.get(User, user_id)
    if user is None or user.disabled:
        raise Unauthorized("e-mail or password is not correct")
    return user


def issue_token(secret: str, user: User, tenants: list[dict[str, Any]], now: datetime) -> str:
    iat = int(now.timestamp())
    claims = {
        "sub": user.id,
        "email": user.email,
        "name": user.name,
        "tenants": tenants,
        "iat": iat,
        "exp": iat + TOKEN_LIFETIME,
        "iss": ISSUER,
        "aud": AUDIENCE,
        # The session's id: sign-out revokes it (revoke_session), so the token stops at once.
        "jti": new_id(),
    }
    return jwt.encode(claims, secret, algorithm="HS256")


# Tokens whose signature, audience and issuer were checked, by (secret, token): a signed-in client
# sends the same token on every request, and checking it again cost 0.3 ms of every request's CPU
# (issue 38). The exact token string is the key, so nothing unsigned can match; the expiry is
# checked on every use. Bounded: the keys come from requests; past this the cache starts over.
_VERIFIED: dict[tuple[str, str], dict[str, Any]] = {}
_VERIFIED_KEPT = 10_000


def decode_token(secret: str, token: str, now: datetime | None = None) -> dict[str, Any]:
    checked = _VERIFIED.get((secret, token))
    if checked is not None:
        # As jwt.decode (the real time) and the check below (the caller's clock) would.
        at = max(int(time.time()), int(now.timestamp())) if now is not None else int(time.time())
        if checked["exp"] <= at:
            raise Unauthorized("session expired, sign in again")
        return dict(checked)  # a copy: a caller that changes its claims does not change the cache
    try:
        claims: dict[str, Any] = jwt.decode(
            token,
            secret,
            algorithms=["HS256"],
            audience=AUDIENCE,
            issuer=ISSUER,
            options={"require": ["sub", "exp", "iat", "iss", "aud"]},
        )
    except jwt.ExpiredSignatureError as exc:
        raise Unauthorized("session expired, sign in again") from exc
    except jwt.PyJWTError as exc:
        raise Unauthorized("invalid session token") from exc
    if now is not None and claims["exp"] <= int(now.timestamp()):
        raise Unauthorized("session expired, sign in again")
    if isinstance(claims.get("exp"), int):
        if len(_VERIFIED) >= _VERIFIED_KEPT:
            _VERIFIED.clear()
        _VERIFIED[(secret, token)] = dict(claims)
    return claims


def verify_session(
    db: Database, secret: str, token: str, now: datetime, resolver: Resolver | None = None
) -> dict[str, Any]:
    """The claims of a live session token: signed, not expired, not signed out (``resolver``: the
    request's auth cache, services/core/authcache.py)."""
    claims = decode_token(secret, token, now)
    jti = claims.get("jti")
    if isinstance(jti, str):

        def revoked() -> bool:
            with db.session(None) as s:
                return s.get(RevokedSession, jti) is not None

        if revoked() if resolver is None else resolver.get(("revoked", jti), revoked):
            raise Unauthorized("signed out, sign in again")
    return claims


def revoke_session(db: Database, secret: str, token: str, now: datetime) -> bool:
    """Sign out: the token's session is refused from now on (until it would have expired).
    A token that is invalid or expired already needs nothing. Rows past their expiry are pruned."""
    try:
        claims = decode_token(secret, token, now)
    except Unauthorized:
        return False
    jti = claims.get("jti")
    if not isinstance(jti, str):
        return False
    expires = datetime.fromtimestamp(int(claims["exp"]), tz=now.tzinfo)
    t = table_of(RevokedSession)
    with db.transaction(None) as s:
        s.execute(t.delete().where(t.c.expires_at <= now))
        if s.get(RevokedSession, jti) is None:
            s.add(RevokedSession(jti=jti, expires_at=expires))
    return True


def session_token_of(headers: dict[str, str | None]) -> str | None:
    """The session token of a request's ``authorization`` or ``cookie`` header (not an API key)."""
    authz = headers.get("authorization") or ""
    if authz[:7].lower() == "bearer " and not authz[7:].strip().startswith("pk_"):
        return authz[7:].strip()
    from http.cookies import CookieError, SimpleCookie

    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(headers.get("cookie") or "")
    except CookieError:
        return None
    morsel = jar.get(COOKIE_NAME)
    return morsel.value if morsel else None


def user_principal(db: Database, user_id: str, tenant: TenantInfo, resolver: Resolver | None = None) -> Principal:
    """The user's principal in one tenant, read fresh (a changed role applies at once: the cache of
    ``resolver`` is invalidated by any change to users or memberships)."""
    if resolver is not None:
        return resolver.get(("user", user_id, tenant), lambda: user_principal(db, user_id, tenant))
    with db.reading(tenant.id) as s:
        row = s.execute(
            select(Membership, User).join(User, User.id == Membership.user_id).where(Membership.user_id == user_id)
        ).first()
    if row is None:
        raise Forbidden("no membership in this tenant")
    m, u = row
    if u.disabled:
        raise Unauthorized("account disabled")
    return Principal(
        kind="user",
        id=u.id,
        role=m.role,
        modules=frozenset(m.user_modules) & tenant.modules,
        email=u.email,
        name=u.name,
    )


# --- API keys ---------------------------------------------------------------


def new_api_key(environment: str) -> str:
    return f"pk_{environment}_{secrets.token_urlsafe(32)}"


# API keys are stored as the one token hash (services.core.signing).
key_hash = token_hash


def authenticate_api_key(
    db: Database, key: str, tenant: TenantInfo, now: datetime, resolver: Resolver | None = None
) -> Principal:
    """The principal of a valid key of this tenant; 401 for unknown, revoked or expired (the key's
    row from the request's auth cache with ``resolver``: a revocation invalidates it)."""
    if not key.startswith(("pk_live_", "pk_test_")):
        raise Unauthorized("invalid API key")
    digest = key_hash(key)

    def read() -> Any:
        # Core on a pooled connection with a prebuilt statement: this runs on every
        # API-key request, and a Session would triple its cost. api_keys is read
        # platform-wide here on purpose: the key decides the tenant, checked below.
        with db.engine.connect() as conn:
            return conn.execute(_KEY_BY_HASH, {"h": digest}).first()

    row = read() if resolver is None else resolver.get(("key", digest), read)
    if row is None or not hmac.compare_digest(row.key_hash, digest):
        raise Unauthorized("invalid API key")
    if row.revoked_at is not None:
        raise Unauthorized("API key revoked")
    if row.expires_at is not None and row.expires_at <= now:
        raise Unauthorized("API key expired")
    if row.tenant_id != tenant.id:
        # A key of another tenant is valid authentication without access here.
        raise Forbidden("API key does not belong to this tenant")
    # last_used_at at minute resolution: one write a minute per key, not per request. The write does
    # not change the auth cache's version (migration 0007), so the cached row keeps the time it was
    # read with: the time this process wrote last is kept beside it.
    used = _USED_WRITTEN.get(row.id) or row.last_used_at
    if used is None or now - used > timedelta(minutes=1):
        with db.engine.begin() as conn:
            conn.execute(update(_KEYS).where(_KEYS.c.id == row.id).values(last_used_at=now))
        if len(_USED_WRITTEN) >= 20_000:  # bounded: one entry per key in use
            _USED_WRITTEN.clear()
        _USED_WRITTEN[row.id] = now
    # A key acts with an admin's rights in its modules (DECISIONS): role checks inside use cases see one.
    return Principal(
        kind="api_key", id=row.id, role="admin", modules=frozenset(row.modules) & tenant.modules, name=row.name
    )


_KEYS = table_of(ApiKey)
# Key id -> when this process last wrote its last_used_at.
_USED_WRITTEN: dict[str, datetime] = {}
_KEY_BY_HASH = select(
    _KEYS.c.id,
    _KEYS.c.tenant_id,
    _KEYS.c.key_hash,
    _KEYS.c.modules,
    _KEYS.c.expires_at,
    _KEYS.c.revoked_at,
    _KEYS.c.last_used_at,
    _KEYS.c.name,
).where(_KEYS.c.key_hash == bindparam("h"))


# Path prefixes of the platform itself (DECISIONS.md): never a tenant.
RESERVED_SLUGS = frozenset({"api", "static", "health"})


def load_tenant(db: Database, slug: str, resolver: Resolver | None = None) -> TenantInfo:
    if slug in RESERVED_SLUGS:
        raise NotFound(f"tenant {slug!r} not found")
    if resolver is not None:
        return resolver.get(("tenant", slug), lambda: load_tenant(db, slug))
    with db.reading(None) as s:
        # A sandbox is reached through a test key only (services.core.sandbox), never by its slug.
        t = s.execute(select(Tenant).where(Tenant.slug == slug, Tenant.sandbox_of.is_(None))).scalar_one_or_none()
    if t is None:
        raise NotFound(f"tenant {slug!r} not found")
    return tenant_info(t)


# Module customer accounts (Upgrade customers, Aftersale accounts, Rewards
# dealers) register how their tokens are checked: module -> (db, tenant, token, now) -> Principal.
CUSTOMER_AUTHENTICATORS: dict[str, Any] = {}
