"""Use cases of the platform: sign-in, the caller's memberships, API keys, users."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from local_db import Database, new_id
from local_db.models import ApiKey, Membership, Tenant, User
from services.core import audit as _audit  # noqa: F401 - declares GET .../audit
from services.core import auth
from services.core.commands import use_case
from services.core.context import Ctx
from services.core.errors import Conflict, Forbidden, NotFound, ValidationFailed
from services.core.pagination import ListQuery, Page, contains, paginate
from services.core.roles import ANYONE, MANAGERS, OWNER
from services.core.schemas import (
    ApiKeyCreate,
    ApiKeyCreated,
    ApiKeyOut,
    LoginOut,
    MeOut,
    TenantMembership,
    TenantModules,
    TenantOut,
    UserCreate,
    UserOut,
    UserUpdate,
)


def login(db: Database, secret: str, email: str, password: str, now: datetime) -> LoginOut:
    return session_for(db, secret, auth.authenticate_password(db, email, password), now)


def session_for(db: Database, secret: str, user: User, now: datetime) -> LoginOut:
    """The signed session (token and memberships) of a person whose credentials were checked."""
    tenants = auth.memberships_claim(db, user.id)
    token = auth.issue_token(secret, user, tenants, now)
    return LoginOut(
        id=user.id,
        email=user.email,
        name=user.name,
        tenants=[TenantMembership(**t) for t in tenants],
        token=token,
        expires_at=now + timedelta(seconds=auth.TOKEN_LIFETIME),
    )


def me_from_claims(db: Database, user_id: str) -> MeOut:
    with db.reading(None) as s:
        user = s.get(User, user_id)
    if user is None or user.disabled:
        raise NotFound("user not found")
    tenants = [TenantMembership(**t) for t in auth.memberships_claim(db, user.id)]
    return MeOut(id=user.id, email=user.email, name=user.name, tenants=tenants)


@use_case("platform.me", "GET /api/tenants/{tenant}/me", tx="read", roles=ANYONE, summary="read own profile")
def tenant_me(ctx: Ctx) -> MeOut:
    """The caller's own record, as seen from one tenant."""
    p = ctx.principal
    if p.kind != "user":
        raise Forbidden("only people have a profile")
    return me_from_claims(ctx.db, p.id)


# --- API keys (owners only) ---------------------------------------------------


def _key_out(k: ApiKey, now: datetime) -> ApiKeyOut:
    status = "revoked" if k.revoked_at else ("expired" if k.expires_at and k.expires_at <= now else "active")
    return ApiKeyOut(
        id=k.id,
        name=k.name,
        environment=k.environment,
        prefix=k.prefix,
        modules=list(k.modules),
        status=status,
        created_at=k.created_at,
        expires_at=k.expires_at,
        revoked_at=k.revoked_at,
        last_used_at=k.last_used_at,
    )


@use_case(
    "platform.api_keys.list",
    "GET /api/tenants/{tenant}/api-keys",
    tx="read",
    roles=OWNER,
    summary="list API keys",
)
def list_api_keys(ctx: Ctx, query: ListQuery) -> Page[ApiKeyOut]:
    now = ctx.now()
    with ctx.read() as s:
        page = paginate(
            s,
            select(ApiKey),
            query,
            columns={
                "created_at": ApiKey.created_at,
                "name": ApiKey.name,
                "last_used_at": ApiKey.last_used_at,
            },
        )
    return page.map(lambda k: _key_out(k, now))


@use_case(
    "platform.api_keys.create",
    "POST /api/tenants/{tenant}/api-keys",
    tx="write",
    online=True,
    roles=OWNER,
    status=201,
    says="New API key",
    summary="create API keys",
)
def create_api_key(ctx: Ctx, body: ApiKeyCreate) -> ApiKeyCreated:
    now = ctx.now()
    if body.expires_at is not None and body.expires_at <= now:
        raise ValidationFailed(
            "expires_at is in the past",
            {
                "fields": [{"field": "expires_at", "message": "must be in the future"}],
                "expires_at": body.expires_at.isoformat(),
            },
        )
    disabled = sorted(set(body.modules) - ctx.tenant.modules) if ctx.tenant else []
    if disabled:
        raise ValidationFailed("modules not enabled for this tenant", {"modules": disabled})
    value = auth.new_api_key(body.environment)
    with ctx.write() as s:
        k = ApiKey(
            id=new_id(),
            name=body.name,
            environment=body.environment,
            prefix=value[:12],
            key_hash=auth.key_hash(value),
            modules=body.modules,
            created_by=ctx.principal.user_id,
            created_at=now,
            expires_at=body.expires_at,
        )
        s.add(k)
        s.flush()
        out = _key_out(k, now)
    return ApiKeyCreated(**out.model_dump(), key=value)


@use_case(
    "platform.api_keys.revoke",
    "DELETE /api/tenants/{tenant}/api-keys/{key_id}",
    tx="write",
    online=True,
    roles=OWNER,
    says="Revoke API key",
    summary="revoke API keys",
)
def revoke_api_key(ctx: Ctx, key_id: str) -> ApiKeyOut:
    with ctx.write() as s:
        k = s.get(ApiKey, key_id)
        if k is None or k.tenant_id != ctx.tenant_id:
            raise NotFound("API key not found")
        if k.revoked_at is None:
            k.revoked_at = ctx.now()
        return _key_out(k, ctx.now())


# --- users (owners and admins) -----------------------------------------------


def _user_out(m: Membership, u: User) -> UserOut:
    return UserOut(
        id=u.id,
        email=u.email,
        name=u.name,
        role=m.role,
        userModules=list(m.user_modules),
        disabled=u.disabled,
        created_at=u.created_at,
    )


def _tenant_out(t: Tenant) -> TenantOut:
    return TenantOut(id=t.id, slug=t.slug, name=t.name, status=t.status, modules=sorted(t.modules or []))


@use_case(
    "platform.tenant.get",
    "GET /api/tenants/{tenant}/settings",
    tx="read",
    roles=MANAGERS,
    summary="read the tenant's settings (enabled modules)",
)
def get_tenant(ctx: Ctx) -> TenantOut:
    with ctx.read() as s:
        t = s.get(Tenant, ctx.tenant_id)
        assert t is not None
        return _tenant_out(t)


@use_case(
    "platform.tenant.modules",
    "PUT /api/tenants/{tenant}/settings/modules",
    tx="write",
    roles=MANAGERS,
    says="Enabled modules",
    summary="enable or disable modules for the tenant",
)
def set_tenant_modules(ctx: Ctx, body: TenantModules) -> TenantOut:
    """Owners and admins configure modules (spec: roles); people keep their own module lists, and the
    effective access is the intersection, so a module turned off and on again comes back as it was."""
    with ctx.write() as s:
        t = s.get(Tenant, ctx.tenant_id)
        assert t is not None
        t.modules = sorted(set(body.modules))
        s.flush()
        return _tenant_out(t)


class UserQuery(ListQuery):
    role: str | None = None


@use_case("platform.users.list", "GET /api/tenants/{tenant}/users", tx="read", roles=MANAGERS, summary="list users")
def list_users(ctx: Ctx, query: UserQuery) -> Page[UserOut]:
    stmt = select(Membership).join(User, User.id == Membership.user_id)
    if query.role:
        stmt = stmt.where(Membership.role == query.role)
    if query.search:
        stmt = stmt.where(contains(User.email, query.search) | contains(User.name, query.search))
    with ctx.read() as s:
        page = paginate(
            s,
            stmt,
            query,
            columns={
                "created_at": Membership.created_at,
                "email": User.email,
                "name": User.name,
                "role": Membership.role,
            },
            default_sort="email",
        )
        users = {u.id: u for u in s.execute(select(User).where(User.id.in_([m.user_id for m in page.items]))).scalars()}
    return page.map(lambda m: _user_out(m, users[m.user_id]))


def _check_owner_rules(ctx: Ctx, target_role: str | None, current_role: str | None) -> None:
    if ctx.principal.role != "owner" and "owner" in (target_role, current_role):
        raise Forbidden("only an owner can grant or change the owner role")


@use_case(
    "platform.users.create",
    "POST /api/tenants/{tenant}/users",
    tx="write",
    online=True,
    roles=MANAGERS,
    status=201,
    says="New user",
    summary="create users",
)
def create_user(ctx: Ctx, body: UserCreate) -> UserOut:
    _check_owner_rules(ctx, body.role, None)
    with ctx.write() as s:
        m, u = add_member(ctx, s, body.email, body.name, body.role, body.userModules, body.password)
        return _user_out(m, u)


def add_member(
    ctx: Ctx,
    s: Session,
    email: str,
    name: str | None,
    role: str,
    user_modules: list[str],
    password: str,
    *,
    disabled: bool = False,
) -> tuple[Membership, User]:
    """A new user and their membership of the tenant (409 when the e-mail address is taken);
    the modules kept are those the tenant has."""
    if s.execute(select(User.id).where(User.email == email)).first():
        raise Conflict("a user with this e-mail already exists", {"email": email})
    now = ctx.now()
    u = User(
        id=new_id(),
        email=email,
        name=name,
        password_hash=auth.hash_password(password),
        disabled=disabled,
        created_at=now,
        updated_at=now,
    )
    s.add(u)
    s.flush()
    modules = sorted(set(user_modules) & set(ctx.tenant.modules)) if ctx.tenant else []
    m = Membership(id=new_id(), user_id=u.id, role=role, user_modules=modules, created_at=now)
    s.add(m)
    s.flush()
    return m, u


@use_case(
    "platform.users.update",
    "PATCH /api/tenants/{tenant}/users/{user_id}",
    tx="write",
    roles=MANAGERS,
    says="Change to user",
    summary="change users",
)
def update_user(ctx: Ctx, user_id: str, body: UserUpdate) -> UserOut:
    with ctx.write() as s:
        m = s.execute(select(Membership).where(Membership.user_id == user_id)).scalar_one_or_none()
        if m is None:
            raise NotFound("user not found")
        u = s.get(User, user_id)
        assert u is not None
        _check_owner_rules(ctx, body.role, m.role)
        losing_owner = m.role == "owner" and ((body.role is not None and body.role != "owner") or body.disabled is True)
        if losing_owner:
            owners = s.execute(select(func.count()).select_from(Membership).where(Membership.role == "owner"))
            if owners.scalar_one() <= 1:
                raise Conflict("a tenant keeps at least one owner", {"current_state": "last_owner"})
        if body.name is not None:
            u.name = body.name
        if body.role is not None:
            m.role = body.role
        if body.userModules is not None:
            m.user_modules = sorted(set(body.userModules) & set(ctx.tenant.modules)) if ctx.tenant else []
        if body.disabled is not None:
            u.disabled = body.disabled
        if body.password is not None:
            u.password_hash = auth.hash_password(body.password)
        s.flush()
        return _user_out(m, u)


from services.core import invitations as _invitations  # noqa: E402, F401 - declares the invitation routes
from services.core import invite_page as _invite_page  # noqa: E402, F401 - and their set-password page
