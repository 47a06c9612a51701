"""Events: settings."""

from __future__ import annotations

from sqlalchemy.orm import Session

from local_db.models import Tenant
from services.core.commands import SESSION, use_case
from services.core.context import Ctx
from services.core.errors import NotFound
from services.core.roles import MANAGERS, STAFF
from services.events.lookups import _settings_of
from services.events.schemas import (
    EventSettings,
)


@use_case(
    "events.settings.get",
    "GET /settings",
    tx="read",
    roles=STAFF,
    summary="the tenant's events settings (public publishing on or off)",
)
def get_settings(ctx: Ctx, session: Session = SESSION) -> EventSettings:
    return _settings_of(session.get(Tenant, ctx.tenant_id))


@use_case(
    "events.settings.update",
    "PUT /settings",
    tx="write",
    roles=MANAGERS,
    says="Public event publishing",
    summary="turn public event publishing on or off; the days of failures after which an endpoint is disabled",
)
def update_settings(ctx: Ctx, body: EventSettings, session: Session = SESSION) -> EventSettings:
    """Owner/admin: turn the anonymous publish route (POST /p/events) on or off."""
    t = session.get(Tenant, ctx.tenant_id)
    if t is None:
        raise NotFound("tenant not found")
    settings = dict(t.settings or {})  # a new dict: JSON columns track assignment only
    changed = {k: v for k, v in body.model_dump().items() if k in body.model_fields_set}
    settings["events"] = {**(settings.get("events") or {}), **changed}
    t.settings = settings
    session.flush()
    return _settings_of(t)
