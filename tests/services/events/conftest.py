"""Helpers of the events service tests (the HTTPS receiver fixtures live in tests/conftest.py)."""

from __future__ import annotations

from local_db.models import Tenant
from services.core.auth import tenant_info
from services.core.context import SYSTEM, Ctx, Runtime
from services.core.demo import demo_id


def ctx_for(rt: Runtime, slug: str = "demo") -> Ctx:
    with rt.db.reading(None) as s:
        t = s.get(Tenant, demo_id("tenant", slug))
        assert t is not None
        info = tenant_info(t)
    return Ctx(rt, info, SYSTEM)
