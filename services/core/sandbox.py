"""A tenant's sandbox (DECISIONS.md, "Who may call a spec path"): what ``pk_test_`` keys act on.

A separate tenant row linked to the live one (``sandbox_of``), made on a test key's first
call, empty until used. Tenant scoping then keeps everything apart: a test key sees and
changes only sandbox rows, and webhooks fired there go only to the sandbox's subscriptions.
It answers to the live tenant's slug, modules and status, lists among no one's tenants, and
its owner can empty it (``reset``).
"""

from __future__ import annotations

import shutil
from datetime import datetime

from pydantic import BaseModel
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from local_db import Database, new_id
from local_db.models import Tenant
from services.core.commands import use_case
from services.core.context import Ctx, TenantInfo
from services.core.roles import OWNER
from services.core.storage import blob_folder

TEST_KEY_PREFIX = "pk_test_"


def _sandbox_slug(live_slug: str) -> str:
    # "~" is never in a tenant slug, so this can neither collide with nor be routed as one.
    return f"{live_slug}~sandbox"


def sandbox_of(db: Database, live: TenantInfo, now: datetime) -> TenantInfo:
    """The live tenant's sandbox, made on first use; it answers to the live tenant's slug,
    modules and status (a suspended tenant's sandbox is suspended too)."""
    q = select(Tenant.id).where(Tenant.sandbox_of == live.id)
    with db.reading(None) as s:
        sid = s.execute(q).scalar_one_or_none()
    if sid is None:
        try:
            with db.transaction(None) as s:
                sid = new_id()
                s.add(
                    Tenant(
                        id=sid,
                        slug=_sandbox_slug(live.slug),
                        name=f"{live.name} (sandbox)",
                        modules=sorted(live.modules),
                        status="active",
                        settings={},
                        created_at=now,
                        sandbox_of=live.id,
                    )
                )
        except IntegrityError:  # made by a concurrent first call
            with db.reading(None) as s:
                sid = s.execute(q).scalar_one()
    return TenantInfo(sid, live.slug, live.name, live.modules, live.status)


class SandboxReset(BaseModel):
    tenant: str
    emptied: bool  # False: there was no sandbox yet
    reset_at: datetime


@use_case(
    "platform.sandbox.reset",
    "POST /api/tenants/{tenant}/sandbox/reset",
    tx="own",
    roles=OWNER,
    module="platform",
    says="Reset the sandbox",
    summary="empty the tenant's sandbox (what pk_test_ keys act on)",
)
def reset(ctx: Ctx) -> SandboxReset:
    """Owner: empty the tenant's sandbox (every row, file and subscription the test keys made).
    The next test-key call starts a new, empty one."""
    assert ctx.tenant is not None
    with ctx.write() as s:  # tenants is not tenant-scoped: the sandbox row is reachable from here
        ids = list(s.execute(select(Tenant.id).where(Tenant.sandbox_of == ctx.tenant.id)).scalars())
        # Every tenant row references tenants.id ON DELETE CASCADE: one delete empties it all.
        s.execute(delete(Tenant).where(Tenant.id.in_(ids)))
    for sid in ids:
        shutil.rmtree(blob_folder(ctx.runtime.data_dir, sid), ignore_errors=True)
    return SandboxReset(tenant=ctx.tenant.slug, emptied=bool(ids), reset_at=ctx.now())
