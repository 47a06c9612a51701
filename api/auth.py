"""Who is calling: tenant from the path, principal from cookie, API key or bearer token."""

from __future__ import annotations

from starlette.requests import Request

from services.core import auth, sandbox
from services.core.authcache import Resolver
from services.core.commands import Operation
from services.core.context import Principal, Runtime, TenantInfo
from services.core.errors import Forbidden, ServiceError, Unauthorized


def client_ip(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def customer_cookie(module: str) -> str:
    return f"{module}_token"


def credentials(request: Request, cookie: str = auth.COOKIE_NAME) -> tuple[str, str] | None:
    """("api_key" | "token", value) from the request, in the spec's three places."""
    key = request.headers.get("x-api-key")
    if key:
        return "api_key", key.strip()
    authz = request.headers.get("authorization", "")
    if authz[:7].lower() == "bearer ":
        value = authz[7:].strip()
        # A bearer value starting with pk_ is always an API key (DECISIONS.md).
        return ("api_key", value) if value.startswith("pk_") else ("token", value)
    from_cookie = request.cookies.get(cookie)
    return ("token", from_cookie) if from_cookie else None


def principal_for(
    rt: Runtime, request: Request, op: Operation, tenant: TenantInfo | None, resolver: Resolver | None = None
) -> Principal:
    """The caller (``resolver``: the request's auth cache, services/core/authcache.py)."""
    ip = client_ip(request)
    if op.auth == "public" or op.auth == "platform":
        return Principal(kind="public", id=f"ip:{ip}")
    cookie = customer_cookie(op.module) if op.auth == "customer" else auth.COOKIE_NAME
    creds = credentials(request, cookie)
    if creds is None and op.staff_too:
        creds = credentials(request)
    if creds is None:
        raise Unauthorized("authentication required: session cookie, X-API-Key or Authorization: Bearer")
    kind, value = creds
    now = rt.clock.now()
    if op.auth == "user":
        if kind != "token":
            raise Unauthorized("sign in as a user (API keys are scoped to modules)")
        claims = auth.verify_session(rt.db, rt.secret_key, value, now, resolver)
        return Principal(kind="user", id=claims["sub"], email=claims.get("email"), name=claims.get("name"))
    if tenant is None:
        raise Forbidden("no tenant")
    if op.auth == "customer":
        check = auth.CUSTOMER_AUTHENTICATORS.get(op.module)
        if check is not None and kind == "token":
            try:
                principal: Principal = check(rt.db, rt.secret_key, tenant, value, now)
                return principal
            except ServiceError:
                if not op.staff_too:
                    raise
        elif not op.staff_too:
            raise Unauthorized("customer session required")
        # A spec path that serves staff too: the same credentials as staff (DECISIONS).
    if kind == "api_key":
        return auth.authenticate_api_key(rt.db, value, tenant, now, resolver)
    try:
        claims = auth.verify_session(rt.db, rt.secret_key, value, now, resolver)
    except Unauthorized:
        # A module customer's valid token on a staff route is authenticated
        # without access: 403 from check_access, not 401.
        customer = _customer_principal(rt, op.module, tenant, value)
        if customer is None:
            raise
        return customer
    return auth.user_principal(rt.db, claims["sub"], tenant, resolver)


def _customer_principal(rt: Runtime, module: str, tenant: TenantInfo, token: str) -> Principal | None:
    check = auth.CUSTOMER_AUTHENTICATORS.get(module)
    if check is None:
        return None
    try:
        principal: Principal = check(rt.db, rt.secret_key, tenant, token, rt.clock.now())
    except ServiceError:
        return None
    return principal


def tenant_for(rt: Runtime, request: Request, principal: Principal, tenant: TenantInfo | None) -> TenantInfo | None:
    """The tenant a call acts on: a ``pk_test_`` key's calls act on the tenant's sandbox."""
    if tenant is None or principal.kind != "api_key":
        return tenant
    creds = credentials(request)
    if creds is None or not creds[1].startswith(sandbox.TEST_KEY_PREFIX):
        return tenant
    return sandbox.sandbox_of(rt.db, tenant, rt.clock.now())
