from __future__ import annotations

from datetime import UTC, datetime, timedelta

import jwt
import pytest
from sqlalchemy import select

from local_db.models import ApiKey
from services.core import auth
from services.core.commands import execute
from services.core.context import Ctx, Runtime
from services.core.demo import DEMO_PASSWORD
from services.core.errors import Conflict, Forbidden, Unauthorized, ValidationFailed
from services.core.service import login


def _ctx(rt: Runtime, email: str, slug: str = "demo") -> Ctx:
    tenant = auth.load_tenant(rt.db, slug)
    user = auth.authenticate_password(rt.db, email, DEMO_PASSWORD)
    return Ctx(rt, tenant, auth.user_principal(rt.db, user.id, tenant))


def test_password_hashes_are_argon2() -> None:
    h = auth.hash_password("correct horse")
    assert h.startswith("$argon2")
    assert auth.verify_password(h, "correct horse")
    assert not auth.verify_password(h, "wrong")
    assert not auth.verify_password("not-a-hash", "x")


def test_login_token_has_every_claim(runtime: Runtime) -> None:
    now = datetime.now(UTC)
    out = login(runtime.db, runtime.secret_key, "Owner@Demo.test ", DEMO_PASSWORD, now)
    claims = jwt.decode(out.token, runtime.secret_key, algorithms=["HS256"], audience=auth.AUDIENCE, issuer=auth.ISSUER)
    assert set(claims) == {
        "sub",
        "email",
        "name",
        "tenants",
        "iat",
        "exp",
        "iss",
        "aud",
        "jti",
    }  # jti: the session sign-out ends
    assert claims["exp"] == claims["iat"] + 86400
    assert claims["email"] == "owner@demo.test"
    (t,) = claims["tenants"]
    assert set(t) == {"id", "slug", "name", "role", "modules", "userModules"}
    assert (t["slug"], t["role"]) == ("demo", "owner")


@pytest.mark.parametrize("email,password", [("owner@demo.test", "nope"), ("ghost@demo.test", DEMO_PASSWORD)])
def test_wrong_credentials_say_nothing_about_which_part(runtime: Runtime, email: str, password: str) -> None:
    with pytest.raises(Unauthorized) as e:
        login(runtime.db, runtime.secret_key, email, password, datetime.now(UTC))
    assert e.value.message == "e-mail or password is not correct"


def test_token_checks(runtime: Runtime) -> None:
    now = datetime.now(UTC)
    out = login(runtime.db, runtime.secret_key, "owner@demo.test", DEMO_PASSWORD, now)
    assert auth.decode_token(runtime.secret_key, out.token, now)["sub"] == out.id
    with pytest.raises(Unauthorized):
        auth.decode_token("another-secret-key-0123456789abcdef", out.token, now)
    with pytest.raises(Unauthorized, match="expired"):
        auth.decode_token(runtime.secret_key, out.token, now + timedelta(days=2))
    claims = jwt.decode(out.token, options={"verify_signature": False})
    for bad in ({"aud": "someone-else"}, {"iss": "elsewhere"}):
        forged = jwt.encode({**claims, **bad}, runtime.secret_key, algorithm="HS256")
        with pytest.raises(Unauthorized):
            auth.decode_token(runtime.secret_key, forged, now)
    none_alg = jwt.encode(claims, None, algorithm="none")
    with pytest.raises(Unauthorized):
        auth.decode_token(runtime.secret_key, none_alg, now)


def test_a_verified_token_is_remembered_only_as_itself(runtime: Runtime) -> None:
    """Issue 38: a token checked once is not checked again (auth._VERIFIED); a changed signature, a
    caller editing its claims, or the expiry passing since still count."""
    now = datetime.now(UTC)
    out = login(runtime.db, runtime.secret_key, "owner@demo.test", DEMO_PASSWORD, now)
    claims = auth.decode_token(runtime.secret_key, out.token, now)
    assert (runtime.secret_key, out.token) in auth._VERIFIED
    claims["sub"] = "someone-else"
    assert auth.decode_token(runtime.secret_key, out.token, now)["sub"] == out.id
    head, body, sig = out.token.split(".")
    tampered = f"{head}.{body}.{sig[:-2]}{'AA' if sig[-2:] != 'AA' else 'BB'}"
    with pytest.raises(Unauthorized, match="invalid"):
        auth.decode_token(runtime.secret_key, tampered, now)
    assert (runtime.secret_key, tampered) not in auth._VERIFIED
    with pytest.raises(Unauthorized, match="expired"):
        auth.decode_token(runtime.secret_key, out.token, now + timedelta(seconds=auth.TOKEN_LIFETIME))


def test_module_access_is_the_intersection(runtime: Runtime) -> None:
    ctx = _ctx(runtime, "operator@demo.test")
    assert ctx.principal.modules == {"upgrade", "support", "inventory"}
    device = _ctx(runtime, "device@demo.test")
    assert device.principal.modules == {"fulfillment"} and device.principal.role == "warehouse-device"


def test_api_key_lifecycle(runtime: Runtime) -> None:
    ctx = _ctx(runtime, "owner@demo.test")
    created = execute(ctx, "platform.api_keys.create", body={"name": "ERP", "modules": ["fulfillment"]})
    assert created.key.startswith("pk_live_") and len(created.key) >= 8 + 43
    with runtime.db.reading(None) as s:
        stored = s.execute(select(ApiKey).where(ApiKey.id == created.id)).scalar_one()
    # Only a hash is stored; the value appears in no column.
    assert stored.key_hash == auth.key_hash(created.key)
    assert created.key not in repr([getattr(stored, c.key) for c in ApiKey.__table__.columns])
    now = datetime.now(UTC)
    tenant = ctx.tenant
    assert tenant is not None
    p = auth.authenticate_api_key(runtime.db, created.key, tenant, now)
    assert p.kind == "api_key" and p.modules == {"fulfillment"}
    listed = execute(ctx, "platform.api_keys.list", query={})
    assert [k.id for k in listed.items] == [created.id] and not hasattr(listed.items[0], "key")
    assert listed.items[0].last_used_at is not None
    execute(ctx, "platform.api_keys.revoke", key_id=created.id)
    with pytest.raises(Unauthorized, match="revoked"):
        auth.authenticate_api_key(runtime.db, created.key, tenant, now)
    with pytest.raises(Unauthorized):
        auth.authenticate_api_key(runtime.db, created.key[:-1] + "x", tenant, now)
    other = auth.load_tenant(runtime.db, "other")
    test_key = execute(ctx, "platform.api_keys.create", body={"name": "t", "modules": ["qr"], "environment": "test"})
    assert test_key.key.startswith("pk_test_")
    with pytest.raises(Forbidden):
        auth.authenticate_api_key(runtime.db, test_key.key, other, now)


def test_expired_api_key(runtime: Runtime) -> None:
    ctx = _ctx(runtime, "owner@demo.test")
    soon = datetime.now(UTC) + timedelta(seconds=30)
    k = execute(ctx, "platform.api_keys.create", body={"name": "x", "modules": ["qr"], "expires_at": soon.isoformat()})
    assert ctx.tenant is not None
    with pytest.raises(Unauthorized, match="expired"):
        auth.authenticate_api_key(runtime.db, k.key, ctx.tenant, soon + timedelta(seconds=1))
    with pytest.raises(ValidationFailed, match="in the past"):  # bad input, not a state conflict
        execute(ctx, "platform.api_keys.create",
                body={"name": "x", "modules": ["qr"], "expires_at": "2020-01-01T00:00:00Z"})  # fmt: skip
    with pytest.raises(ValidationFailed):
        execute(
            ctx, "platform.api_keys.create", body={"name": "x", "modules": ["qr"], "expires_at": "2030-01-01T00:00"}
        )


def test_only_owners_manage_keys_and_admins_manage_users(runtime: Runtime) -> None:
    admin = _ctx(runtime, "admin@demo.test")
    with pytest.raises(Forbidden):
        execute(admin, "platform.api_keys.create", body={"name": "x", "modules": ["qr"]})
    op = _ctx(runtime, "operator@demo.test")
    with pytest.raises(Forbidden):
        execute(op, "platform.users.list", query={})
    body = {"email": "new@demo.test", "name": "New", "password": "long-enough", "role": "operator",
            "userModules": ["support"]}  # fmt: skip
    created = execute(admin, "platform.users.create", body=body)
    assert created.role == "operator" and created.userModules == ["support"]
    with pytest.raises(Conflict):
        execute(admin, "platform.users.create", body={**body, "email": "NEW@demo.test"})
    with pytest.raises(Forbidden):
        execute(admin, "platform.users.create", body={**body, "email": "boss@demo.test", "role": "owner"})
    with pytest.raises(ValidationFailed):
        execute(admin, "platform.users.create", body={**body, "email": "x@demo.test", "extra": 1})


def test_last_owner_cannot_be_demoted(runtime: Runtime) -> None:
    owner = _ctx(runtime, "owner@demo.test")
    with pytest.raises(Conflict):
        execute(owner, "platform.users.update", body={"role": "admin"}, user_id=owner.principal.id)


def test_suspended_tenant_is_refused(runtime: Runtime) -> None:
    from local_db.models import Tenant
    from services.core.errors import TenantInactive

    with runtime.db.transaction(None) as s:
        s.execute(select(Tenant).where(Tenant.slug == "demo")).scalar_one().status = "suspended"
    ctx = _ctx(runtime, "owner@demo.test")
    with pytest.raises(TenantInactive):
        execute(ctx, "platform.users.list", query={})
