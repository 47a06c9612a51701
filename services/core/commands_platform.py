"""Declarations of the platform operations (tenant settings: me, API keys, users)."""

from services.core.commands import MANAGERS, command, query
from services.core.pagination import ListQuery
from services.core.sandbox import reset as reset_sandbox
from services.core.schemas import ApiKeyCreate, UserCreate, UserUpdate
from services.core.service import (
    UserQuery,
    create_api_key,
    create_user,
    list_api_keys,
    list_users,
    revoke_api_key,
    tenant_me,
    update_user,
)

OWNER = frozenset({"owner"})
T = "/api/tenants/{tenant}"

query(
    name="platform.me",
    module="platform",
    method="GET",
    path=T + "/me",
    handler=tenant_me,
    roles=frozenset({"owner", "admin", "operator", "warehouse-device"}),
    summary="read own profile",
)
query(
    name="platform.api_keys.list",
    module="platform",
    method="GET",
    path=T + "/api-keys",
    handler=list_api_keys,
    query=ListQuery,
    roles=OWNER,
    summary="list API keys",
)
command(
    name="platform.api_keys.create",
    module="platform",
    method="POST",
    path=T + "/api-keys",
    handler=create_api_key,
    body=ApiKeyCreate,
    roles=OWNER,
    status_code=201,
    summary="create API keys",
)
command(
    name="platform.api_keys.revoke",
    module="platform",
    method="DELETE",
    path=T + "/api-keys/{key_id}",
    handler=revoke_api_key,
    roles=OWNER,
    summary="revoke API keys",
)
query(
    name="platform.users.list",
    module="platform",
    method="GET",
    path=T + "/users",
    handler=list_users,
    query=UserQuery,
    roles=MANAGERS,
    summary="list users",
)
command(
    name="platform.users.create",
    module="platform",
    method="POST",
    path=T + "/users",
    handler=create_user,
    body=UserCreate,
    roles=MANAGERS,
    status_code=201,
    summary="create users",
)
command(
    name="platform.users.update",
    module="platform",
    method="PATCH",
    path=T + "/users/{user_id}",
    handler=update_user,
    body=UserUpdate,
    roles=MANAGERS,
    summary="change users",
)
command(
    name="platform.sandbox.reset",
    module="platform",
    method="POST",
    path=T + "/sandbox/reset",
    handler=reset_sandbox,
    roles=OWNER,
    summary="empty the tenant's sandbox (what pk_test_ keys act on)",
)
